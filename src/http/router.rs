//! The whole API in one router: each feature's routes (with their OpenAPI
//! documentation, collected as they are added), the fallbacks that answer
//! unknown paths and methods in the API's error shape, the body limit, the
//! metrics of every request and its id.

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::{Extension, Router};
use utoipa_axum::router::OpenApiRouter;

use super::bench::{self, BenchState};
use super::error::ApiError;
use super::state::AppState;
use super::{health, home, locales, metrics, openapi, reservations, slug, trace};

/// The whole API.
pub fn router(state: AppState, bench: Arc<BenchState>) -> Router {
    let body_limit = state.limits.body_bytes;
    let (router, doc) = OpenApiRouter::with_openapi(openapi::base())
        .merge(slug::router())
        .merge(reservations::router())
        .merge(bench::router(bench))
        .merge(health::router())
        .merge(locales::router())
        .merge(home::router())
        .merge(openapi::router())
        .merge(metrics::router())
        .split_for_parts();
    let api = router
        .layer(Extension(openapi::finish(doc)))
        .fallback(|| async { ApiError::NotFound })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(body_limit));
    let api = metrics::instrument(api, state.metrics.clone());
    trace::with_request_ids(api).with_state(state)
}
