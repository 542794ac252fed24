//! The reservation endpoints: `POST /reservations` reserves a unique slug
//! in a scope for an owner, `GET /reservations/{scope}/{slug}` says who
//! holds a slug (held until when, or confirmed) and the owner's current
//! one, `DELETE
//! /reservations/{scope}/{owner}` frees every slug of an owner. They need
//! Redis (a store every instance shares); in-process they answer 503
//! `needs_redis`.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
use super::json::Json;
use super::state::AppState;
use crate::auth::Permission;
use crate::metrics::HoldCounted;
use crate::reserve::{
    HoldEvent, MAX_HOLD_SECONDS, NameError, Owner, Reservations, ReserveError, Scope,
};
use slugd_engine::locale::LocaleError;
use slugd_engine::options::{OptionError, Options, RawOptions};

/// The newest rule version's number, in the document's examples.
const NEWEST: u64 = slugd_engine::rules::Rules::NEWEST.number();

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(reserve))
        // One path, two meanings of its last segment: a slug to look up,
        // an owner to release.
        .routes(routes!(lookup, release))
}

/// The body of `POST /reservations`: `scope`, `owner`, `title` and any
/// option of `POST /slug` (for the OpenAPI document; the body is read
/// field by field by `ReservationRequest::parse`).
#[derive(ToSchema)]
#[allow(dead_code)]
struct ReserveBody {
    /// 1 to 200 bytes: slugs are unique within a scope.
    #[schema(example = "posts")]
    scope: String,
    /// 1 to 200 bytes: who the slug is for (a post id).
    #[schema(example = "42")]
    owner: String,
    /// The title whose slug is reserved.
    #[schema(example = "Hello World")]
    title: String,
    /// A hold of this many seconds (1 to 31,536,000), for a draft: the
    /// slug is the owner's until then, and free after, unless the owner
    /// asks again. Asking again with `hold_seconds` renews the hold from
    /// now; without it, confirms it (a reservation for good). A confirmed
    /// slug stays confirmed.
    #[schema(example = 86400, minimum = 1, maximum = 31536000)]
    hold_seconds: Option<u32>,
    /// Any option of `POST /slug` (`separator`, `max_length`, ...) may
    /// be given beside these fields.
    #[schema(value_type = Option<String>)]
    separator: Option<String>,
    /// See `POST /slug`.
    max_length: Option<usize>,
    /// See `POST /slug`.
    locale: Option<String>,
    /// See `POST /slug`: the rule version that makes the slug, kept with
    /// the reservation.
    rules: Option<u64>,
}

/// A reservation made or found.
#[derive(Debug, Serialize, ToSchema)]
struct Reserved {
    scope: String,
    owner: String,
    slug: String,
    /// The rule version that made the slug (for one the owner held
    /// already, the version that made it then).
    #[schema(example = 2)]
    rules: u64,
    /// `held` (until `held_until`) or `confirmed` (until the owner is
    /// released).
    state: SlugState,
    /// When the hold lapses (RFC 3339, UTC); absent when confirmed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2026-12-04T09:30:00.000Z")]
    held_until: Option<String>,
}

/// Whether a slug is the owner's for a while or for good.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum SlugState {
    /// A hold: the owner's until `held_until`, then free.
    Held,
    /// The owner's until the owner is released.
    Confirmed,
}

/// The state and RFC 3339 lapse time of a slug whose hold lapses at
/// `held_until` (Unix milliseconds; `None`: confirmed).
fn state_of(held_until: Option<u64>) -> (SlugState, Option<String>) {
    match held_until {
        None => (SlugState::Confirmed, None),
        Some(ms) => {
            let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
            (
                SlugState::Held,
                Some(humantime::format_rfc3339_millis(at).to_string()),
            )
        }
    }
}

/// Who holds a slug.
#[derive(Debug, Serialize, ToSchema)]
struct Held {
    scope: String,
    slug: String,
    owner: String,
    current: String,
    /// The rule version that made `slug` (1 for every slug reserved
    /// before rule versions existed).
    #[schema(example = 2)]
    rules: u64,
    /// `held` (until `held_until`) or `confirmed`.
    state: SlugState,
    /// When the hold lapses (RFC 3339, UTC); absent when confirmed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2026-12-04T09:30:00.000Z")]
    held_until: Option<String>,
}

/// A checked `POST /reservations` body: `scope`, `owner`, `title` and any
/// slug option.
struct ReservationRequest {
    scope: Scope,
    owner: Owner,
    title: String,
    options: Options,
    hold_seconds: Option<u32>,
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
        let hold_seconds = match body.remove("hold_seconds") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(n @ 1..) if n <= u64::from(MAX_HOLD_SECONDS) => Some(n as u32),
                _ => {
                    return Err(ApiError::Invalid(format!(
                        "hold_seconds must be a whole number of seconds from 1 to {MAX_HOLD_SECONDS} (365 days), not {v}; leave it out to reserve for good"
                    )));
                }
            },
        };
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
            hold_seconds,
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

/// The bearer token of the `Authorization` header, if it has one.
fn bearer(headers: &HeaderMap) -> Option<&[u8]> {
    let value = headers.get(header::AUTHORIZATION)?.as_bytes();
    let scheme = value.get(..7)?;
    scheme
        .eq_ignore_ascii_case(b"bearer ")
        .then(|| value[7..].trim_ascii())
}

fn reserve_error(e: ReserveError) -> ApiError {
    match e {
        ReserveError::Unavailable(_) | ReserveError::Timeout(_) | ReserveError::Damaged(_) => {
            ApiError::ReservationsUnavailable(e.to_string())
        }
        ReserveError::NotReplicated { .. } | ReserveError::NoReplicas(_) => {
            ApiError::NotReplicated(e.to_string())
        }
        ReserveError::NoFsync(_) => ApiError::ReservationsUnavailable(e.to_string()),
        ReserveError::NoFreeSlug { .. } => ApiError::NoFreeSlug(e.to_string()),
        ReserveError::EmptySlug(e) => ApiError::EmptySlug(e.to_string()),
        ReserveError::TooLong(_) => ApiError::Invalid(e.to_string()),
        ReserveError::Table(e) => ApiError::Unavailable(e),
    }
}

/// Reserves the first free slug of the title in the scope for the owner:
/// for good, or, with `hold_seconds`, held for a draft until it lapses;
/// the owner renews a hold by asking again with `hold_seconds`, and
/// confirms it by asking again without.
#[utoipa::path(post, path = "/reservations", tag = "reservations",
    security(("bearer" = [])),
    request_body(content = ReserveBody, examples(
        ("first" = (value = json!({"scope": "posts", "owner": "42", "title": "Hello World"}))),
        ("second" = (value = json!({"scope": "posts", "owner": "43", "title": "Hello, World!"}))),
        ("retry" = (value = json!({"scope": "posts", "owner": "42", "title": "Hello World"}))),
        ("hold_1_draft" = (value = json!({"scope": "posts", "owner": "77", "title": "Draft Title", "hold_seconds": 3600}))),
        ("hold_2_autosave" = (value = json!({"scope": "posts", "owner": "77", "title": "Draft Title", "hold_seconds": 3600}))),
        ("hold_3_publish" = (value = json!({"scope": "posts", "owner": "77", "title": "Draft Title"}))),
        ("needs_redis" = (value = json!({"scope": "posts", "owner": "42", "title": "Hello World"}))),
    )),
    responses(
        (status = 201, description = "A new slug was reserved", body = Reserved, examples(
            ("first" = (value = json!({"scope": "posts", "owner": "42", "slug": "hello-world", "rules": NEWEST, "state": "confirmed"}))),
            ("second" = (value = json!({"scope": "posts", "owner": "43", "slug": "hello-world-2", "rules": NEWEST, "state": "confirmed"}))),
            ("hold_1_draft" = (value = json!({"scope": "posts", "owner": "77", "slug": "draft-title", "rules": NEWEST, "state": "held", "held_until": "2026-12-03T17:00:00.000Z"}))),
        )),
        (status = 200, description = "The owner already holds the slug of this title: nothing new, or its hold renewed (with `hold_seconds`) or confirmed (without)", body = Reserved, examples(
            ("retry" = (value = json!({"scope": "posts", "owner": "42", "slug": "hello-world", "rules": NEWEST, "state": "confirmed"}))),
            ("hold_2_autosave" = (value = json!({"scope": "posts", "owner": "77", "slug": "draft-title", "rules": NEWEST, "state": "held", "held_until": "2026-12-03T17:00:05.000Z"}))),
            ("hold_3_publish" = (value = json!({"scope": "posts", "owner": "77", "slug": "draft-title", "rules": NEWEST, "state": "confirmed"}))),
        )),
        (status = 400, description = "`malformed_json`", body = ErrorBody),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not reserve, or not in this scope", body = ErrorBody),
        (status = 409, description = "`no_free_slug`: every slug that fits `max_length` is taken", body = ErrorBody),
        (status = 415, description = "`not_json`", body = ErrorBody),
        (status = 422, description = "`invalid_request`, `empty_slug` or `unknown_locale`", body = ErrorBody),
        (status = 503, description = "`needs_redis` (in-process mode), `reservations_unavailable` (ask again with the same request) or `not_replicated`", body = ErrorBody, examples(
            ("needs_redis" = (value = json!({"error": "reservations need a store every instance shares: start slugd serve with --redis-url (REDIS_URL) or --redis-cluster (REDIS_CLUSTER)", "code": "needs_redis"}))),
        )),
    ))]
async fn reserve(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<Map<String, Value>>, ApiError>,
) -> Result<(StatusCode, Json<Reserved>), ApiError> {
    // A client without a token learns nothing of its body's faults.
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Reserve, None)?;
    let Json(body) = body?;
    let reservations = reservations(&state)?;
    let request = ReservationRequest::parse(body, &state.defaults)?;
    let scope = Some(request.scope.as_str());
    state.tokens.check(token, Permission::Reserve, scope)?;
    let made = reservations
        .reserve(
            &request.scope,
            &request.owner,
            &request.title,
            &request.options,
            request.hold_seconds,
        )
        .await
        .map_err(reserve_error)?;
    state.metrics.reservation(made.new);
    let counted = made.hold.map(|event| match event {
        HoldEvent::Made => HoldCounted::Made,
        HoldEvent::Renewed => HoldCounted::Renewed,
        HoldEvent::Confirmed => HoldCounted::Confirmed,
    });
    state.metrics.holds(counted, made.lapsed);
    let status = match made.new {
        true => StatusCode::CREATED,
        false => StatusCode::OK,
    };
    let (slug_state, held_until) = state_of(made.held_until);
    let body = Reserved {
        scope: request.scope.as_str().to_owned(),
        owner: request.owner.as_str().to_owned(),
        slug: made.slug,
        rules: made.rules,
        state: slug_state,
        held_until,
    };
    Ok((status, Json(body)))
}

/// Who holds a slug in a scope (held until when, or confirmed), and the
/// owner's current slug.
#[utoipa::path(get, path = "/reservations/{scope}/{key}", tag = "reservations",
    security(("bearer" = [])),
    params(
        ("scope" = String, Path, description = "The scope, percent-encoded", example = "posts"),
        ("key" = String, Path, description = "The slug", example = "hello-world"),
    ),
    responses(
        (status = 200, description = "The holder and its current slug", body = Held,
            examples(("default" = (value = json!({"scope": "posts", "slug": "hello-world", "owner": "42", "current": "hello-world", "rules": NEWEST, "state": "confirmed"}))))),
        (status = 404, description = "`not_reserved`: nobody holds the slug, or its hold has lapsed", body = ErrorBody),
        (status = 422, description = "`invalid_request`: a bad scope", body = ErrorBody),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not do this, or not in this scope", body = ErrorBody),
        (status = 503, description = "`needs_redis` or `reservations_unavailable`", body = ErrorBody),
    ))]
async fn lookup(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Held>, ApiError> {
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Read, None)?;
    let reservations = reservations(&state)?;
    let (scope, slug) = segments(path)?;
    let scope = Scope::new(scope).map_err(name_error)?;
    state
        .tokens
        .check(token, Permission::Read, Some(scope.as_str()))?;
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
    let (slug_state, held_until) = state_of(holder.held_until);
    Ok(Json(Held {
        scope: scope.as_str().to_owned(),
        slug,
        owner: holder.owner,
        current: holder.current,
        rules: holder.rules,
        state: slug_state,
        held_until,
    }))
}

/// Frees every slug of an owner in a scope.
#[utoipa::path(delete, path = "/reservations/{scope}/{key}", tag = "reservations",
    security(("bearer" = [])),
    params(
        ("scope" = String, Path, description = "The scope, percent-encoded", example = "posts"),
        ("key" = String, Path, description = "The owner, percent-encoded", example = "42"),
    ),
    responses(
        (status = 204, description = "Every slug of the owner is free"),
        (status = 404, description = "`not_reserved`: the owner holds none", body = ErrorBody),
        (status = 422, description = "`invalid_request`: a bad scope or owner", body = ErrorBody),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not do this, or not in this scope", body = ErrorBody),
        (status = 503, description = "`needs_redis` or `reservations_unavailable`", body = ErrorBody),
    ))]
async fn release(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Release, None)?;
    let reservations = reservations(&state)?;
    let (scope, owner) = segments(path)?;
    let scope = Scope::new(scope).map_err(name_error)?;
    state
        .tokens
        .check(token, Permission::Release, Some(scope.as_str()))?;
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
