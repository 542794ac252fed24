//! The reservation endpoints: `POST /reservations` reserves a unique slug
//! in a scope for an owner, `GET /reservations/{scope}/{slug}` says who
//! holds a slug and the owner's current one, `DELETE
//! /reservations/{scope}/{owner}` frees every slug of an owner. They need
//! Redis (a store every instance shares); in-process they answer 503
//! `needs_redis`.

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::{Map, Value};

use super::error::ApiError;
use super::json::Json;
use super::state::AppState;
use crate::locale::LocaleError;
use crate::options::{OptionError, Options, RawOptions};
use crate::reserve::{NameError, Owner, Reservations, ReserveError, Scope};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/reservations", post(reserve))
        // One path, two meanings of its last segment: a slug to look up,
        // an owner to release.
        .route("/reservations/{scope}/{key}", get(lookup).delete(release))
}

/// A reservation made or found.
#[derive(Debug, Serialize)]
struct Reserved {
    scope: String,
    owner: String,
    slug: String,
}

/// Who holds a slug.
#[derive(Debug, Serialize)]
struct Held {
    scope: String,
    slug: String,
    owner: String,
    current: String,
}

/// A checked `POST /reservations` body: `scope`, `owner`, `title` and any
/// slug option.
struct ReservationRequest {
    scope: Scope,
    owner: Owner,
    title: String,
    options: Options,
}

impl ReservationRequest {
    fn parse(mut body: Map<String, Value>, defaults: &Options) -> Result<Self, ApiError> {
        let mut text = |field: &'static str, example: &str| match body.remove(field) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(ApiError::Invalid(format!(
                "{field} must be a string, not {other}; for example \"{field}\": \"{example}\""
            ))),
            None => Err(ApiError::Invalid(format!(
                "missing field `{field}`: send {{\"scope\": \"posts\", \"owner\": \"42\", \"title\": \"Hello World\"}}"
            ))),
        };
        let scope = Scope::new(text("scope", "posts")?).map_err(name_error)?;
        let owner = Owner::new(text("owner", "42")?).map_err(name_error)?;
        let title = text("title", "Hello World")?;
        let raw: RawOptions =
            serde_path_to_error::deserialize(Value::Object(body)).map_err(|e| {
                ApiError::Invalid(match e.path().to_string() {
                    path if path == "." => e.inner().to_string(),
                    path => format!("{path}: {}", e.inner()),
                })
            })?;
        let options = raw.validate_over(defaults).map_err(|e| match e {
            OptionError::Locale(LocaleError::Unknown(_)) => ApiError::UnknownLocale(e.to_string()),
            e => ApiError::Invalid(e.to_string()),
        })?;
        Ok(ReservationRequest {
            scope,
            owner,
            title,
            options,
        })
    }
}

fn name_error(e: NameError) -> ApiError {
    ApiError::Invalid(e.to_string())
}

/// The reservations, or 503 `needs_redis` in-process.
fn reservations(state: &AppState) -> Result<&Reservations, ApiError> {
    state.reservations.as_deref().ok_or(ApiError::NeedsRedis)
}

/// The two path segments, or a 422 that names the one that is wrong.
fn segments(
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<(String, String), ApiError> {
    let Path(pair) = path.map_err(|e| {
        ApiError::Invalid(format!(
            "the path must be /reservations/<scope>/<slug or owner>, each percent-encoded UTF-8: {}",
            e.body_text()
        ))
    })?;
    Ok(pair)
}

fn reserve_error(e: ReserveError) -> ApiError {
    match e {
        ReserveError::Unavailable(_) | ReserveError::Timeout(_) | ReserveError::Damaged(_) => {
            ApiError::ReservationsUnavailable(e.to_string())
        }
        ReserveError::NotReplicated { .. } => ApiError::NotReplicated(e.to_string()),
        ReserveError::NoFreeSlug { .. } => ApiError::NoFreeSlug(e.to_string()),
        ReserveError::EmptySlug(e) => ApiError::EmptySlug(e.to_string()),
        ReserveError::TooLong(_) => ApiError::Invalid(e.to_string()),
        ReserveError::Table(e) => ApiError::Unavailable(e),
    }
}

async fn reserve(
    State(state): State<AppState>,
    Json(body): Json<Map<String, Value>>,
) -> Result<(StatusCode, Json<Reserved>), ApiError> {
    let reservations = reservations(&state)?;
    let request = ReservationRequest::parse(body, &state.defaults)?;
    let made = reservations
        .reserve(
            &request.scope,
            &request.owner,
            &request.title,
            &request.options,
        )
        .await
        .map_err(reserve_error)?;
    state.metrics.reservation(made.new);
    let status = match made.new {
        true => StatusCode::CREATED,
        false => StatusCode::OK,
    };
    let body = Reserved {
        scope: request.scope.as_str().to_owned(),
        owner: request.owner.as_str().to_owned(),
        slug: made.slug,
    };
    Ok((status, Json(body)))
}

async fn lookup(
    State(state): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Held>, ApiError> {
    let reservations = reservations(&state)?;
    let (scope, slug) = segments(path)?;
    let scope = Scope::new(scope).map_err(name_error)?;
    let holder = reservations
        .lookup(&scope, &slug)
        .await
        .map_err(reserve_error)?
        .ok_or_else(|| {
            ApiError::NotReserved(format!(
                "nobody holds the slug {slug:?} in scope {:?}",
                scope.as_str()
            ))
        })?;
    Ok(Json(Held {
        scope: scope.as_str().to_owned(),
        slug,
        owner: holder.owner,
        current: holder.current,
    }))
}

async fn release(
    State(state): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    let reservations = reservations(&state)?;
    let (scope, owner) = segments(path)?;
    let scope = Scope::new(scope).map_err(name_error)?;
    let owner = Owner::new(owner).map_err(name_error)?;
    match reservations
        .release(&scope, &owner)
        .await
        .map_err(reserve_error)?
    {
        0 => Err(ApiError::NotReserved(format!(
            "owner {:?} holds no slug in scope {:?}",
            owner.as_str(),
            scope.as_str()
        ))),
        _ => Ok(StatusCode::NO_CONTENT),
    }
}
