//! Health endpoints: `GET /healthz` says the process answers; `GET /readyz`
//! says the table is reachable and loaded (a round trip to Redis in Redis
//! mode), or 503 with the reason.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
use super::json::Json;
use super::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
}

/// The process answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    status: &'static str,
}

/// The table is reachable and loaded.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ready {
    /// Always `ready`.
    status: &'static str,
    /// `in_process` or `redis`.
    mode: &'static str,
    /// The live table version (Redis mode only).
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    /// Characters and sequences the table names.
    entries: u64,
}

/// Answers while the process runs.
#[utoipa::path(get, path = "/healthz", tag = "health",
    responses((status = 200, description = "The process answers", body = Health,
        examples(("default" = (value = json!({"status": "ok"})))))))]
async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// Answers 200 when the table is reachable and loaded.
#[utoipa::path(get, path = "/readyz", tag = "health",
    responses(
        (status = 200, description = "Ready: the mode, the table version (Redis) and its entries", body = Ready,
            examples(("default" = (value = json!({"status": "ready", "mode": "redis", "version": 1, "entries": 7616}))))),
        (status = 503, description = "`table_unavailable`: Redis cannot be reached, or no table is loaded (the message says which)", body = ErrorBody),
    ))]
async fn readyz(State(state): State<AppState>) -> Result<Json<Ready>, ApiError> {
    let status = state.slugger.table().status().await?;
    let body = Ready {
        status: "ready",
        mode: status.mode,
        version: status.version,
        entries: status.entries,
    };
    Ok(Json(body))
}
