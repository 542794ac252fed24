//! The whole API in one router: each feature's routes (with their OpenAPI
//! documentation, collected as they are added), the fallbacks that answer
//! unknown paths and methods in the API's error shape, the body limit, the
//! metrics of every request, and the edge around it all (`edge`).

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use utoipa_axum::router::OpenApiRouter;

use super::bench::{self, BenchState};
use super::edge::{self, App};
use super::state::AppState;
use super::{answered, health, home, locales, metrics, openapi, reservations, slug};

/// The whole API, inside its edge (request ids and spans).
pub fn router(state: AppState, bench: Arc<BenchState>) -> App {
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
    let routes = doc.paths.paths.keys().map(String::as_str);
    let requests = state
        .metrics
        .count_routes(routes.chain([answered::UNMATCHED]));
    let _ = state.openapi.set(openapi::finish(doc).into());
    // The one layer added to every route; the rest is the edge, around the
    // whole router. The fallbacks read no body and count themselves. The
    // 405 fallback comes after `route_layer`, which would otherwise wrap
    // it too and count a 405 twice.
    let per_route = answered::per_route(requests, DefaultBodyLimit::max(body_limit));
    let api = router
        .route_layer(per_route)
        .fallback(answered::not_found)
        .method_not_allowed_fallback(answered::method_not_allowed)
        .with_state(state);
    edge::edge(api)
}
