//! The HTTP service. This file only names the parts; none of them imports
//! it.
//!
//! - [`router`]: the whole API in one router.
//! - [`slug`]: `POST /slug`, `GET /slug`, `POST /slugs`
//! - [`reservations`]: `POST /reservations`, `GET` and `DELETE
//!   /reservations/{scope}/...`
//! - [`bench`]: `GET /bench`, with its own state
//! - [`health`]: `GET /healthz`, `GET /readyz`
//! - [`locales`]: `GET /locales`
//! - [`home`]: `GET /`, the home page
//! - [`openapi`]: `GET /openapi.json`, and what the document holds beside
//!   the handlers' own annotations
//! - [`metrics`]: `GET /metrics`
//! - [`answered`]: what happens to every answered request: counted by
//!   route and status, timed, logged
//! - [`edge`]: around the router: request ids and each request's span
//! - [`state`]: what every handler shares, and the request limits
//! - [`json`]: the JSON extractor every handler uses
//! - [`error`]: the one error type
//! - [`warnings`]: what an answer's slugs were made without
//! - [`server`]: the accept loop and each connection's life, on a
//!   listener the caller bound: timers, the head limit, no HTTP/2
//! - [`admission`]: who holds the `--max-connections` slots, and who
//!   gives one up to make room

mod admission;
mod answered;
mod bench;
mod edge;
mod error;
mod health;
mod home;
mod json;
mod locales;
mod metrics;
mod openapi;
mod reservations;
mod router;
mod server;
mod slug;
mod state;
mod warnings;

pub(crate) use self::bench::BenchState;
pub(crate) use self::edge::App;
pub(crate) use self::router::router;
pub(crate) use self::server::{Connections, bind, serve};
pub use self::state::Limits;
pub(crate) use self::state::{AppState, Shared};
