//! Health endpoints: `GET /healthz` says the process answers; `GET /readyz`
//! says the table is reachable and loaded (a round trip to Redis in Redis
//! mode), or 503 with the reason.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde_json::{Value, json};

use super::error::ApiError;
use super::json::Json;
use super::state::AppState;
use crate::table::SymbolTable;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let body = match state.slugger.table() {
        SymbolTable::InProcess(table) => json!({
            "status": "ready",
            "mode": "in_process",
            "entries": table.len(),
        }),
        SymbolTable::Redis(table, _) => {
            // A round trip, so readiness means Redis answers now.
            let version = table.refresh().await?;
            json!({
                "status": "ready",
                "mode": "redis",
                "version": version.version,
                "entries": version.meta.entries,
            })
        }
    };
    Ok(Json(body))
}
