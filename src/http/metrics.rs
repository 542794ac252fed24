//! `GET /metrics`, in Prometheus's text format, and the middleware that
//! counts every request by route and status and times it by route. What
//! the metrics are and who counts them is in [`crate::metrics`].
//!
//! The route is the matched path template (`/reservations/{scope}/{key}`),
//! never the raw path, so a scrape stays small whatever clients ask; a
//! path no route matches is counted as `unmatched`.

use std::time::Instant;

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::state::AppState;
use crate::metrics::Metrics;
use crate::table::SymbolTable;

/// The route of `/metrics`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// Counts and times every request `router` answers, including those no
/// route matches. Call it once every route is in.
pub fn instrument(router: Router<AppState>, metrics: Metrics) -> Router<AppState> {
    router
        .route_layer(middleware::from_fn(mark_route))
        .layer(middleware::from_fn_with_state(metrics, track))
}

/// The route template a response was answered by, handed from the inner
/// middleware (which sees the matched path) to the outer (which also sees
/// unmatched requests).
#[derive(Clone)]
struct Route(MatchedPath);

async fn mark_route(request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().cloned();
    let mut response = next.run(request).await;
    if let Some(route) = route {
        response.extensions_mut().insert(Route(route));
    }
    response
}

async fn track(State(metrics): State<Metrics>, request: Request, next: Next) -> Response {
    let start = Instant::now();
    let response = next.run(request).await;
    let route = match response.extensions().get::<Route>() {
        Some(Route(path)) => path.as_str(),
        None => "unmatched",
    };
    metrics.request(route, response.status().as_u16(), start.elapsed());
    response
}

/// The service's metrics in Prometheus's text format.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text format (version 0.0.4): requests by route and status, request duration histograms by route, Redis round trips and failures, the name cache, the table version and locales, Redis reachability, reservations, /bench runs", content_type = "text/plain")))]
async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let (version, locales) = match state.slugger.table() {
        SymbolTable::InProcess(table) => (None, table.locales().tags().len()),
        SymbolTable::Redis(table, _) => match table.live_version() {
            Some(v) => (Some(v.version), v.meta.cldr.locales.tags().len()),
            None => (None, 0),
        },
    };
    state.metrics.table_state(version, locales);
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics.render(),
    )
}
