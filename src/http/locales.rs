//! `GET /locales`: the locales whose CLDR names the table holds, English
//! first: `{"locales": ["en", "af", ...]}`. In Redis mode, those of the
//! live table version (what `slugd load --locales` loaded); in-process,
//! those of `--locales`. A `locale` outside the list still romanizes by
//! CLDR's rules, with the default names.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde_json::{Value, json};

use super::error::ApiError;
use super::json::Json;
use super::state::AppState;
use crate::table::SymbolTable;

pub fn router() -> Router<AppState> {
    Router::new().route("/locales", get(locales))
}

async fn locales(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let tags = match state.slugger.table() {
        SymbolTable::InProcess(table) => table.locales().tags().to_vec(),
        SymbolTable::Redis(table, _) => table.version().await?.meta.cldr.locales.tags().to_vec(),
    };
    Ok(Json(json!({ "locales": tags })))
}
