//! What every handler shares: the slugger, the reservations, the metrics,
//! the request limits and the OpenAPI document.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Bytes;

use crate::metrics::Metrics;
use crate::reserve::Reservations;
use crate::slugger::Slugger;
use slugd_engine::options::Options;

/// State shared by every handler, behind one `Arc`: axum clones the state
/// once for each layer a request passes, and one reference count is
/// cheaper than one for each field (which both worker threads would bounce
/// between them).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    /// The state of a service.
    pub fn new(shared: Shared) -> Self {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] holds.
pub struct Shared {
    /// Where titles become slugs.
    pub slugger: Slugger,
    /// The options of `--defaults`, which a request's own override.
    pub defaults: Arc<Options>,
    /// Request limits.
    pub limits: Arc<Limits>,
    /// Unique slugs shared by every instance; `None` in-process, where
    /// there is nothing to share them through.
    pub reservations: Option<Arc<Reservations>>,
    /// The bearer tokens of `--auth-tokens` for the reservation
    /// endpoints; none asks for nothing.
    pub tokens: Arc<crate::auth::Tokens>,
    /// This service's own metrics (each service has its recorder).
    pub metrics: Metrics,
    /// The OpenAPI document, serialized; set when the router is built from
    /// the routes' own documentation.
    pub openapi: OnceLock<Bytes>,
}

/// Limits on what one request may ask for.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest request body in bytes (413 above).
    pub body_bytes: usize,
    /// Most titles in one `POST /slugs`.
    pub batch_titles: usize,
    /// Most iterations of one `/bench`.
    pub bench_iterations: usize,
    /// How long a client may take to send its body (408 after).
    pub body_timeout: Duration,
    /// How long a client may take to send a request head: the first
    /// counted from accept, each next from the previous answer (the
    /// connection is closed after).
    pub header_timeout: Duration,
    /// The largest request head, request line and headers, in bytes (431
    /// and the connection closed above).
    pub header_bytes: usize,
    /// How long a write may wait for the client to take the bytes (the
    /// connection is closed after).
    pub send_timeout: Duration,
    /// Most connections open at once; at it the one that has waited
    /// longest for a request is closed to make room.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1024 * 1024,
            batch_titles: 1000,
            bench_iterations: 100_000,
            body_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            header_bytes: 32 * 1024,
            send_timeout: Duration::from_secs(10),
            max_connections: 1024,
        }
    }
}
