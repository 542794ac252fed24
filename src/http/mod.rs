//! The HTTP service: the shared state, the router, the JSON extractor every
//! handler uses, and [`serve`], which runs the router on a bound listener
//! until a shutdown future completes.
//!
//! - [`slug`]: `POST /slug`, `GET /slug`, `POST /slugs`
//! - [`bench`]: `GET /bench`
//! - [`health`]: `GET /healthz`, `GET /readyz`
//! - [`error`]: the one error type

pub mod bench;
pub mod error;
pub mod health;
pub mod slug;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Router, extract::DefaultBodyLimit};
use serde::de::DeserializeOwned;
use tokio::net::TcpListener;

pub use self::error::ApiError;
use crate::table::SymbolTable;
use crate::unicode_data::Categories;

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
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1024 * 1024,
            batch_titles: 1000,
            bench_iterations: 100_000,
            body_timeout: Duration::from_secs(10),
        }
    }
}

/// What `/bench` needs to build the backend the service does not run on.
#[derive(Debug, Clone)]
pub struct BenchSources {
    /// The data file, to build an in-process table on demand in Redis mode.
    pub data: PathBuf,
    /// Why there is no Redis side, in in-process mode.
    pub no_redis_reason: String,
    /// Categories for an in-process table when Redis does not say.
    pub categories: Categories,
}

/// State shared by every handler.
#[derive(Clone)]
pub struct AppState {
    /// The table the service slugs with.
    pub table: SymbolTable,
    /// Request limits.
    pub limits: Arc<Limits>,
    /// For `/bench`.
    pub bench: Arc<bench::BenchState>,
}

impl AppState {
    /// State for `table`.
    pub fn new(table: SymbolTable, limits: Limits, sources: BenchSources) -> Self {
        AppState {
            table,
            limits: Arc::new(limits),
            bench: Arc::new(bench::BenchState::new(sources)),
        }
    }
}

/// The whole API.
pub fn router(state: AppState) -> Router {
    let body_limit = state.limits.body_bytes;
    Router::new()
        .merge(slug::router())
        .merge(bench::router())
        .merge(health::router())
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// Serves the API on `listener` until `shutdown` completes, then lets
/// requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

/// `axum::Json` with this API's error shape for every rejection.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + Send> FromRequest<AppState> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        // The body must arrive within the limit: a client trickling it in
        // would otherwise hold a connection and a buffer for ever. Almost
        // always it came with the headers, so read once first and start a
        // timer (which costs about a tenth of a small request's time) only
        // if the body is not all there yet.
        let limit = state.limits.body_timeout;
        let mut read = std::pin::pin!(axum::Json::<T>::from_request(req, state));
        let first = std::future::poll_fn(|cx| Poll::Ready(read.as_mut().poll(cx))).await;
        let result = match first {
            Poll::Ready(result) => result,
            Poll::Pending => match tokio::time::timeout(limit, read).await {
                Ok(result) => result,
                Err(_) => return Err(ApiError::BodyTimeout(limit)),
            },
        };
        match result {
            Ok(axum::Json(value)) => Ok(Json(value)),
            Err(JsonRejection::BytesRejection(e))
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(ApiError::TooLarge(state.limits.body_bytes))
            }
            Err(e) => Err(e.into()),
        }
    }
}

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}
