//! The whole API in one router: each feature's routes, the fallbacks that
//! answer unknown paths and methods in the API's error shape, and the body
//! limit.

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;

use super::bench::{self, BenchState};
use super::error::ApiError;
use super::state::AppState;
use super::{health, locales, reservations, slug};

/// The whole API.
pub fn router(state: AppState, bench: Arc<BenchState>) -> Router {
    let body_limit = state.limits.body_bytes;
    Router::new()
        .merge(slug::router())
        .merge(reservations::router())
        .merge(bench::router(bench))
        .merge(health::router())
        .merge(locales::router())
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}
