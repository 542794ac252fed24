//! `GET /openapi.json`: the OpenAPI 3.1 document of the API. It is made
//! by utoipa from the handlers' own annotations and types as the router is
//! built (each feature's routes are added with `utoipa_axum::routes!`, so
//! a route and its documentation come from one place); this file holds
//! what is not any handler's: the document's title and tags, the list of
//! every error code with its status (from [`ApiError::every`]), and the
//! route that serves the document.

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use utoipa::OpenApi;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr, Schema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use serde_json::Value;

use super::error::ApiError;
use super::state::AppState;
use slugd_engine::rules::Rules;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "slugd",
        description = "Turns titles into URL slugs, spelling symbols out by their Unicode names. Every error body is `{\"error\": \"...\", \"code\": \"...\"}`; the codes and their statuses are in the ErrorBody schema."
    ),
    tags(
        (name = "slugs", description = "Titles to slugs"),
        (name = "reservations", description = "Unique slugs across every instance (Redis mode)"),
        (name = "bench", description = "In-process and Redis compared inside the service"),
        (name = "health", description = "Liveness and readiness"),
        (name = "meta", description = "The home page and this document"),
        (name = "operations", description = "Metrics for Prometheus"),
    )
)]
struct ApiDoc;

/// The document before any route is added.
pub fn base() -> Document {
    ApiDoc::openapi()
}

/// Completes the document the router collected (the error codes) and
/// serializes it, for the service's state to hold.
pub fn finish(mut doc: Document) -> String {
    let every = ApiError::every();
    let codes: Vec<&str> = every.iter().map(ApiError::code).collect();
    let table: Vec<String> = every
        .iter()
        .map(|e| format!("{} `{}`", e.status().as_u16(), e.code()))
        .collect();
    let schema = ObjectBuilder::new()
        .description(Some(format!(
            "The body of every error. Each code has one status: {}.",
            table.join(", ")
        )))
        .property(
            "error",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("What was wrong and how to fix it, for people")),
        )
        .required("error")
        .property(
            "code",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("A stable code for programs"))
                .enum_values(Some(codes)),
        )
        .required("code")
        .build();
    let components = doc.components.get_or_insert_with(Default::default);
    components
        .schemas
        .insert("ErrorBody".to_owned(), RefOr::T(Schema::Object(schema)));
    // The reservation endpoints name it (`security(("bearer" = []))`).
    let bearer = HttpBuilder::new()
        .scheme(HttpAuthScheme::Bearer)
        .description(Some(
            "A token of the service's --auth-tokens file, with the permission the endpoint needs (read, reserve or release) and, if its line names scopes, the request's scope. Asked for only when the service has the file.",
        ))
        .build();
    components.add_security_scheme("bearer", SecurityScheme::Http(bearer));
    let mut json = serde_json::to_value(&doc).expect("the OpenAPI document serializes");
    rule_versions(&mut json);
    json.to_string()
}

/// Writes the rule table (`slugd_engine::rules`) into every `rules` option of the
/// document: its bound is the last version (one being built included),
/// its example the default, and its description lists what each version does.
fn rule_versions(json: &mut Value) {
    let newest = Rules::NEWEST.number();
    let last = Rules::LAST.number();
    let bound = |schema: &mut Value| {
        if let Some(maximum) = schema.get_mut("maximum") {
            *maximum = last.into();
        }
    };
    let describe = |item: &mut Value| {
        if let Some(Value::String(text)) = item.get_mut("description") {
            text.push_str(&format!(" The versions: {}.", Rules::described()));
        }
    };
    match json {
        Value::Object(object) => {
            // A query parameter: `{"name": "rules", "schema": {...}}`.
            if object.get("name").and_then(Value::as_str) == Some("rules") {
                if let Some(Value::Object(schema)) = object.get_mut("schema") {
                    schema.insert("minimum".to_owned(), 1.into());
                    schema.insert("maximum".to_owned(), last.into());
                }
                if let Some(example) = object.get_mut("example") {
                    *example = newest.into();
                }
            }
            // A body's property: `"properties": {"rules": {...}}`.
            if let Some(rules) = object
                .get_mut("properties")
                .and_then(|p| p.get_mut("rules"))
                .filter(|r| r.get("maximum").is_some())
            {
                bound(rules);
                describe(rules);
            }
            object.values_mut().for_each(rule_versions);
        }
        Value::Array(items) => items.iter_mut().for_each(rule_versions),
        _ => {}
    }
    if let Value::Object(object) = json
        && object.get("name").and_then(Value::as_str) == Some("rules")
    {
        describe(json);
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(openapi_json))
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json")))]
async fn openapi_json(State(state): State<AppState>) -> impl IntoResponse {
    // A shared buffer: serving the document copies nothing.
    let json = state.openapi.get().cloned().unwrap_or_default();
    ([(header::CONTENT_TYPE, "application/json")], json)
}
