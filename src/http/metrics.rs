//! `GET /metrics`: the service's metrics in Prometheus's text format. The
//! table's state is read at each scrape; every request is counted by
//! `super::answered`.

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::state::AppState;

/// The route of `/metrics`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// The service's metrics in Prometheus's text format.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text format (version 0.0.4): requests by route and status, request duration histograms by route, Redis round trips and failures, the name cache, the table version and locales, Redis reachability, reservations, /bench runs", content_type = "text/plain")))]
async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let (version, locales) = state.slugger.table().live();
    state.metrics.table_state(version, &locales);
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics.render(),
    )
}
