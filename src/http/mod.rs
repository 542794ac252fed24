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
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder as ConnBuilder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
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
    /// How long a client may take to send its request headers (the
    /// connection is closed after).
    pub header_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1024 * 1024,
            batch_titles: 1000,
            bench_iterations: 100_000,
            body_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
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

/// Serves the API on `listener` until `shutdown` completes, then stops
/// accepting and lets requests in flight finish.
///
/// A hand-written accept loop rather than `axum::serve`, for one reason:
/// `axum::serve` sets no timer, so a client trickling in its request
/// headers would hold a connection for ever. Here hyper closes a connection
/// whose headers take longer than `header_timeout`.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let header_timeout = state.limits.header_timeout;
    let app = router(state);
    let mut builder = ConnBuilder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait, do not spin.
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
        });
    }
    // New connections are refused from here on; those open finish the
    // request they are serving.
    drop(listener);
    graceful.shutdown().await;
    Ok(())
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
