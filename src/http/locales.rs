//! `GET /locales`: the locales whose CLDR names the table holds, English
//! first: `{"locales": ["en", "af", ...]}`. In Redis mode, those of the
//! live table version (what `slugd load --locales` loaded); in-process,
//! those of `--locales`. A `locale` outside the list still romanizes by
//! CLDR's rules, with the default names.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
use super::json::Json;
use super::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(locales))
}

/// The loaded locales.
#[derive(Debug, Serialize, ToSchema)]
pub struct Locales {
    /// BCP 47 tags, English first.
    locales: Vec<String>,
}

/// The locales whose CLDR names the table holds, English first.
#[utoipa::path(get, path = "/locales", tag = "slugs",
    responses(
        (status = 200, description = "The loaded locales", body = Locales,
            examples(("default" = (value = json!({"locales": ["en"]}))))),
        (status = 503, description = "`table_unavailable`", body = ErrorBody),
    ))]
async fn locales(State(state): State<AppState>) -> Result<Json<Locales>, ApiError> {
    let tags = state.slugger.table().locales().await?;
    Ok(Json(Locales { locales: tags }))
}
