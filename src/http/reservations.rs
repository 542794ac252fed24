//! The reservation endpoints: `POST /reservations` reserves a unique slug
//! in a scope for an owner (of a title, or an editor's own slug; or, with
//! `dry_run`, says what it would reserve), `GET /reservations/{scope}/{slug}`
//! says who holds a slug (held until when, or confirmed) and the owner's
//! current one, `GET /reservations/{scope}/owners/{owner}` gives an
//! owner's slugs, `DELETE /reservations/{scope}/{owner}` frees every slug
//! of an owner, and `POST` and `GET /reservations/{scope}` import and
//! export a scope as NDJSON. They need Redis (a store every instance
//! shares); in-process they answer 503 `needs_redis`.

use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
use super::json::Json;
use super::state::AppState;
use super::warnings::{self, Warning};
use crate::auth::Permission;
use crate::metrics::HoldCounted;
use crate::reserve::export::{self, CHUNKS};
use crate::reserve::import::{self, ImportCounts, ImportError, Refusal};
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
        .routes(routes!(history))
        .routes(routes!(import_lines, export_scope, set_scope))
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
    /// The title whose slug is reserved (or `slug`).
    #[schema(example = "Hello World")]
    title: Option<String>,
    /// An editor's own slug, reserved exactly (in place of `title`): 409
    /// `slug_taken` with a `suggestion` when another owner holds it, 422
    /// `not_a_slug` (with the `slug` it would be) when the request's
    /// options would make another slug of it.
    #[schema(example = "my-own-slug")]
    slug: Option<String>,
    /// Answer what the reservation would give, with the status it would
    /// have, and write nothing.
    #[schema(example = false)]
    dry_run: Option<bool>,
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
    /// `true` for a dry run: this is what the reservation would give, and
    /// nothing was written.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    dry_run: bool,
    /// What a slug made from the title was made without, as for `POST
    /// /slug` (`reading_not_loaded`); absent when nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<Warning>,
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
        Some(ms) => (SlugState::Held, Some(import::rfc3339(ms))),
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
    /// The title, or an editor's own slug.
    asked: Asked,
    options: Options,
    hold_seconds: Option<u32>,
    dry_run: bool,
}

/// What a reservation is asked for.
enum Asked {
    /// The first free slug of a title.
    Title(String),
    /// Exactly this slug.
    Slug(String),
}

impl ReservationRequest {
    fn parse(mut body: Map<String, Value>, defaults: &Options) -> Result<Self, ApiError> {
        let has = (body.contains_key("title"), body.contains_key("slug"));
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
        let asked = match has {
            (true, true) => {
                return Err(ApiError::Invalid(
                    "send either title (a slug of it is reserved) or slug (exactly that slug), not both".into(),
                ));
            }
            (false, true) => Asked::Slug(text("slug", "my-own-slug")?),
            _ => Asked::Title(text("title", "Hello World")?),
        };
        let dry_run = match body.remove("dry_run") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => b,
            Some(other) => {
                return Err(ApiError::Invalid(format!(
                    "dry_run must be true or false, not {other}"
                )));
            }
        };
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
            asked,
            options,
            hold_seconds,
            dry_run,
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
    path_of(path, "/reservations/<scope>/<slug or owner>")
}

/// The path's segments, or a 422 that says what the path must be
/// (`shape`).
fn path_of<T>(path: Result<Path<T>, PathRejection>, shape: &str) -> Result<T, ApiError> {
    let Path(segments) = path.map_err(|e| {
        ApiError::Invalid(format!(
            "the path must be {shape}, each segment percent-encoded UTF-8: {}",
            e.body_text()
        ))
    })?;
    Ok(segments)
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
        ReserveError::NotASlug { ref would_be, .. } => ApiError::NotASlug {
            slug: would_be.clone(),
            message: e.to_string(),
        },
        ReserveError::ScopeHasKeys { .. } => ApiError::ScopeHasKeys(e.to_string()),
        ReserveError::SlugTaken { ref suggestion, .. } => ApiError::SlugTaken {
            suggestion: suggestion.clone(),
            message: e.to_string(),
        },
        ReserveError::Table(e) => ApiError::from(e),
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
        ("own_slug" = (value = json!({"scope": "posts", "owner": "50", "slug": "my-own-slug"}))),
        ("own_slug_taken" = (value = json!({"scope": "posts", "owner": "51", "slug": "my-own-slug"}))),
        ("not_a_slug" = (value = json!({"scope": "posts", "owner": "51", "slug": "My Own Slug!"}))),
        ("second_dry_run" = (value = json!({"scope": "posts", "owner": "52", "title": "Hello World", "dry_run": true}))),
        ("needs_redis" = (value = json!({"scope": "posts", "owner": "42", "title": "Hello World"}))),
    )),
    responses(
        (status = 201, description = "A new slug was reserved", body = Reserved, examples(
            ("first" = (value = json!({"scope": "posts", "owner": "42", "slug": "hello-world", "rules": NEWEST, "state": "confirmed"}))),
            ("second" = (value = json!({"scope": "posts", "owner": "43", "slug": "hello-world-2", "rules": NEWEST, "state": "confirmed"}))),
            ("hold_1_draft" = (value = json!({"scope": "posts", "owner": "77", "slug": "draft-title", "rules": NEWEST, "state": "held", "held_until": "2026-12-03T17:00:00.000Z"}))),
            ("own_slug" = (value = json!({"scope": "posts", "owner": "50", "slug": "my-own-slug", "rules": NEWEST, "state": "confirmed"}))),
            ("second_dry_run" = (value = json!({"scope": "posts", "owner": "52", "slug": "hello-world-3", "rules": NEWEST, "state": "confirmed", "dry_run": true}))),
        )),
        (status = 200, description = "The owner already holds the slug of this title: nothing new, or its hold renewed (with `hold_seconds`) or confirmed (without)", body = Reserved, examples(
            ("retry" = (value = json!({"scope": "posts", "owner": "42", "slug": "hello-world", "rules": NEWEST, "state": "confirmed"}))),
            ("hold_2_autosave" = (value = json!({"scope": "posts", "owner": "77", "slug": "draft-title", "rules": NEWEST, "state": "held", "held_until": "2026-12-03T17:00:05.000Z"}))),
            ("hold_3_publish" = (value = json!({"scope": "posts", "owner": "77", "slug": "draft-title", "rules": NEWEST, "state": "confirmed"}))),
        )),
        (status = 400, description = "`malformed_json`", body = ErrorBody),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not reserve, or not in this scope", body = ErrorBody),
        (status = 409, description = "`no_free_slug`: every slug that fits `max_length` is taken; `slug_taken`: the editor's own `slug` is another owner's (or a reserved word), with the first free slug of its base as `suggestion`, and nothing reserved", body = ErrorBody, examples(
            ("own_slug_taken" = (value = json!({"error": "\"my-own-slug\" is taken by another owner; \"my-own-slug-2\" is free", "code": "slug_taken", "suggestion": "my-own-slug-2"}))),
        )),
        (status = 415, description = "`not_json`", body = ErrorBody),
        (status = 422, description = "`invalid_request`, `empty_slug`, `unknown_locale`, or `not_a_slug`: the editor's own `slug` is not what the request's options make of it, which the body's `slug` is", body = ErrorBody, examples(
            ("not_a_slug" = (value = json!({"error": "\"My Own Slug!\" is not a slug under this request's options, which make it \"my-own-slug\"; reserve \"my-own-slug\", or change the options", "code": "not_a_slug", "slug": "my-own-slug"}))),
        )),
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
    let (scope, owner, options) = (&request.scope, &request.owner, &request.options);
    let (hold, dry) = (request.hold_seconds, request.dry_run);
    let made = match &request.asked {
        Asked::Title(title) => {
            reservations
                .reserve(scope, owner, title, options, hold, dry)
                .await
        }
        Asked::Slug(slug) => {
            reservations
                .reserve_slug(scope, owner, slug, options, hold, dry)
                .await
        }
    }
    .map_err(reserve_error)?;
    if !dry {
        state.metrics.reservation(made.new);
        let counted = made.hold.map(|event| match event {
            HoldEvent::Made => HoldCounted::Made,
            HoldEvent::Renewed => HoldCounted::Renewed,
            HoldEvent::Confirmed => HoldCounted::Confirmed,
        });
        state.metrics.holds(counted, made.lapsed);
    }
    let status = match made.new {
        true => StatusCode::CREATED,
        false => StatusCode::OK,
    };
    let (slug_state, held_until) = state_of(made.held_until);
    let not_loaded = match &request.asked {
        Asked::Title(title) => state.slugger.not_loaded(&[title], options),
        Asked::Slug(_) => Vec::new(),
    };
    let body = Reserved {
        scope: request.scope.as_str().to_owned(),
        owner: request.owner.as_str().to_owned(),
        slug: made.slug,
        rules: made.rules,
        state: slug_state,
        held_until,
        dry_run: dry,
        warnings: warnings::not_loaded(&not_loaded),
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

/// An owner's slugs.
#[derive(Debug, Serialize, ToSchema)]
struct History {
    scope: String,
    owner: String,
    /// The owner's current slug: its newest confirmed one (its newest
    /// hold when it has none confirmed). Redirect the others to it.
    current: String,
    /// Every slug the owner holds, oldest first (the order they were
    /// reserved or last made current), the current one among them.
    slugs: Vec<OwnedSlug>,
}

/// One slug of an owner's.
#[derive(Debug, Serialize, ToSchema)]
struct OwnedSlug {
    slug: String,
    /// `held` (until `held_until`) or `confirmed`.
    state: SlugState,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2026-12-04T09:30:00.000Z")]
    held_until: Option<String>,
    /// The rule version that made it (0: imported or typed by an editor
    /// without one).
    rules: u64,
}

/// An owner's slugs in a scope, oldest first, and its current one: the
/// slugs a site redirects to the current one.
#[utoipa::path(get, path = "/reservations/{scope}/owners/{owner}", tag = "reservations",
    security(("bearer" = [])),
    params(
        ("scope" = String, Path, description = "The scope, percent-encoded", example = "posts"),
        ("owner" = String, Path, description = "The owner, percent-encoded", example = "43"),
    ),
    responses(
        (status = 200, description = "The owner's slugs, oldest first", body = History,
            examples(("default" = (value = json!({"scope": "posts", "owner": "43", "current": "hello-world-2", "slugs": [
                {"slug": "hello-world-2", "state": "confirmed", "rules": NEWEST}]}))))),
        (status = 404, description = "`not_reserved`: the owner holds no slug", body = ErrorBody),
        (status = 422, description = "`invalid_request`: a bad scope or owner", body = ErrorBody),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not do this, or not in this scope", body = ErrorBody),
        (status = 503, description = "`needs_redis` or `reservations_unavailable`", body = ErrorBody),
    ))]
async fn history(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<History>, ApiError> {
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Read, None)?;
    let reservations = reservations(&state)?;
    let (scope, owner) = path_of(path, "/reservations/<scope>/owners/<owner>")?;
    let scope = Scope::new(scope).map_err(name_error)?;
    state
        .tokens
        .check(token, Permission::Read, Some(scope.as_str()))?;
    let owner = Owner::new(owner).map_err(name_error)?;
    let entries = reservations
        .history(&scope, &owner)
        .await
        .map_err(reserve_error)?;
    let current = entries
        .iter()
        .rev()
        .find(|e| e.held_until.is_none())
        .or(entries.last())
        .map(|e| e.slug.clone())
        .ok_or_else(|| {
            ApiError::NotReserved(format!(
                "owner {:?} holds no slug in scope {:?}",
                owner.as_str(),
                scope.as_str()
            ))
        })?;
    let slugs = entries
        .into_iter()
        .map(|e| {
            let (state, held_until) = state_of(e.held_until);
            OwnedSlug {
                slug: e.slug,
                state,
                held_until,
                rules: e.rules,
            }
        })
        .collect();
    Ok(Json(History {
        scope: scope.as_str().to_owned(),
        owner: owner.as_str().to_owned(),
        current,
        slugs,
    }))
}

/// The most refused lines an import's answer names.
const MAX_REFUSALS: usize = 1000;

/// What an import did.
#[derive(Debug, Serialize, ToSchema)]
struct Imported {
    scope: String,
    /// Lines read (blank lines are not counted).
    lines: u64,
    /// Slugs now the line's owner's that were nobody's.
    imported: u64,
    /// Lines whose slug was the owner's already, as the line says.
    unchanged: u64,
    /// Lines whose slug was the owner's already, its hold now renewed to
    /// the line's `held_until` or confirmed.
    updated: u64,
    /// Lines refused: the first 1,000 are in `refusals`.
    refused: u64,
    /// The first 1,000 refused lines (of those refused unread, and of
    /// those Redis refused): each one's number (from 1), slug, and why.
    #[schema(value_type = Vec<Object>)]
    refusals: Vec<Refusal>,
}

/// The scope of a path `/reservations/{scope}`, or a 422.
fn scope_of(path: Result<Path<String>, PathRejection>) -> Result<Scope, ApiError> {
    Scope::new(path_of(path, "/reservations/<scope>")?).map_err(name_error)
}

/// Imports a site's existing slugs: NDJSON lines `{"owner": "42", "slug":
/// "hello-world"}`, with `held_until` (RFC 3339) for a hold, each slug
/// taken as it is written. A line whose slug another owner holds is
/// refused (the holder keeps it), as is a malformed one; the refused
/// lines are named (the first 1,000). Importing the same lines again
/// gives the same scope. The body is read as it arrives, at most the
/// service's body limit.
#[utoipa::path(post, path = "/reservations/{scope}", tag = "reservations",
    security(("bearer" = [])),
    params(("scope" = String, Path, description = "The scope, percent-encoded", example = "posts")),
    request_body(content = String, content_type = "application/x-ndjson",
        example = json!("{\"owner\": \"42\", \"slug\": \"hello-world\"}\n{\"owner\": \"43\", \"slug\": \"Hello_World\", \"held_until\": \"2027-01-01T00:00:00Z\"}\n")),
    responses(
        (status = 200, description = "The counts, and each refused line", body = Imported,
            examples(("default" = (value = json!({"scope": "posts", "lines": 3, "imported": 2, "unchanged": 0, "updated": 0, "refused": 1,
                "refusals": [{"line": 3, "slug": "hello-world", "why": "taken: the slug is owner \"42\"'s, who keeps it"}]}))))),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not reserve, or not in this scope", body = ErrorBody),
        (status = 408, description = "`body_timeout`: the body did not arrive in time (lines read before may have been imported; sending them again is safe)", body = ErrorBody),
        (status = 413, description = "`too_large`: more than the body limit (lines read before may have been imported; split the file)", body = ErrorBody),
        (status = 415, description = "`not_ndjson`", body = ErrorBody),
        (status = 422, description = "`invalid_request`: a bad scope", body = ErrorBody),
        (status = 503, description = "`needs_redis` or `reservations_unavailable` (the lines before the failed batch were imported; sending the body again is safe)", body = ErrorBody),
    ))]
async fn import_lines(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    request: Request,
) -> Result<Json<Imported>, ApiError> {
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Reserve, None)?;
    let reservations = reservations(&state)?;
    let scope = scope_of(path)?;
    state
        .tokens
        .check(token, Permission::Reserve, Some(scope.as_str()))?;
    let ndjson = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| {
            let v = v.trim();
            v.eq_ignore_ascii_case("application/x-ndjson")
                || v.eq_ignore_ascii_case("application/jsonl")
        });
    if !ndjson {
        return Err(ApiError::NotNdjson);
    }
    let limit = state.limits.body_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(ApiError::TooLarge(limit));
    }
    // The body as it arrives, cut off past the limit.
    let mut seen = 0usize;
    let body = request.into_body().into_data_stream().map(move |chunk| {
        let chunk = chunk.map_err(std::io::Error::other)?;
        seen += chunk.len();
        match seen > limit {
            true => Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "too large",
            )),
            false => Ok(chunk),
        }
    });
    let input = tokio_util::io::StreamReader::new(body);
    // The first refusals, in full; the rest counted (a body of bad lines
    // would otherwise make an answer many times its size).
    let mut refusals = Vec::new();
    let run = import::import(
        reservations.store(),
        &scope,
        input,
        |refusal| {
            // Redis's refusals of a batch come after those of the next
            // batches read (two are in Redis at once): room for those,
            // then the first ones kept.
            refusals.push(refusal);
            if refusals.len() > MAX_REFUSALS + 3 * import::BATCH_LINES {
                refusals.sort_by_key(|r: &Refusal| r.line);
                refusals.truncate(MAX_REFUSALS);
            }
        },
        |_| {},
    );
    let counts: ImportCounts = match tokio::time::timeout(state.limits.body_timeout, run).await {
        Err(_) => return Err(ApiError::BodyTimeout(state.limits.body_timeout)),
        Ok(Ok(counts)) => counts,
        Ok(Err(ImportError::Read { source, .. }))
            if source.kind() == std::io::ErrorKind::FileTooLarge =>
        {
            return Err(ApiError::TooLarge(limit));
        }
        Ok(Err(e @ ImportError::Read { .. })) => {
            return Err(ApiError::MalformedJson(e.to_string()));
        }
        Ok(Err(e @ ImportError::Redis { .. })) => {
            return Err(ApiError::ReservationsUnavailable(e.to_string()));
        }
    };
    // Refused lines in the order of the body (those Redis refused are
    // known a batch later than those refused unread).
    refusals.sort_by_key(|r| r.line);
    refusals.truncate(MAX_REFUSALS);
    Ok(Json(Imported {
        scope: scope.as_str().to_owned(),
        lines: counts.lines,
        imported: counts.imported,
        unchanged: counts.unchanged,
        updated: counts.updated,
        refused: counts.refused,
        refusals,
    }))
}

/// The whole scope as NDJSON, one line a slug (`slug`, `owner`, `state`,
/// `held_until` for a hold, `rules`, and `base` where it is not the slug
/// without its number), each owner's slugs oldest first; streamed, a
/// range of the scope at a time. Importing it into an empty scope (made
/// case-insensitive first if this one is) gives the same slugs, owners,
/// states and current slugs.
#[utoipa::path(get, path = "/reservations/{scope}", tag = "reservations",
    security(("bearer" = [])),
    params(("scope" = String, Path, description = "The scope, percent-encoded", example = "posts")),
    responses(
        (status = 200, description = "Every slug of the scope, one NDJSON line each", content_type = "application/x-ndjson", body = String,
            example = json!(format!("{{\"slug\":\"hello-world\",\"owner\":\"42\",\"state\":\"confirmed\",\"rules\":{NEWEST}}}\n"))),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not do this, or not in this scope", body = ErrorBody),
        (status = 422, description = "`invalid_request`: a bad scope", body = ErrorBody),
        (status = 503, description = "`needs_redis` or `reservations_unavailable` (before the first line; later, the body stops short of its end, as a broken stream)", body = ErrorBody),
    ))]
async fn export_scope(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Read, None)?;
    let reservations = state.reservations.clone().ok_or(ApiError::NeedsRedis)?;
    let scope = scope_of(path)?;
    state
        .tokens
        .check(token, Permission::Read, Some(scope.as_str()))?;
    // The first range read before answering, so that a Redis that is down
    // is a 503, not a broken stream.
    let first = export::chunk(reservations.store(), &scope, 0)
        .await
        .map_err(reserve_error)?;
    let rest = futures_util::stream::unfold(1u32, move |next| {
        let (reservations, scope) = (reservations.clone(), scope.clone());
        async move {
            if next >= CHUNKS {
                return None;
            }
            let lines = export::chunk(reservations.store(), &scope, next)
                .await
                .map_err(std::io::Error::other);
            Some((lines, next + 1))
        }
    });
    let body = futures_util::stream::once(async move { Ok(first) }).chain(rest);
    let mut response = Body::from_stream(body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/x-ndjson"),
    );
    Ok(response)
}

/// A scope's settings.
#[derive(Debug, Serialize, ToSchema)]
struct ScopeSettings {
    scope: String,
    /// Whether slugs that differ only in the case of ASCII letters
    /// (`My-Post`, `my-post`) are one slug.
    case_insensitive: bool,
}

/// The body of `PUT /reservations/{scope}` (for the OpenAPI document).
#[derive(ToSchema)]
#[allow(dead_code)]
struct ScopeBody {
    /// Whether slugs that differ only in the case of ASCII letters are
    /// one slug. Made once, before the scope's first slug.
    #[schema(example = true)]
    case_insensitive: bool,
}

/// Makes a scope compare slugs without regard to the case of ASCII
/// letters (`My-Post` and `my-post` one slug), or with it (the default).
/// The setting is the scope's, kept in Redis, so every instance and
/// import follows it. It is made once, by this request or by the scope's
/// first reservation or import (case by case), and then fixed; asking for
/// the setting a scope has answers it (200).
#[utoipa::path(put, path = "/reservations/{scope}", tag = "reservations",
    security(("bearer" = [])),
    params(("scope" = String, Path, description = "The scope, percent-encoded", example = "wiki")),
    request_body(content = ScopeBody, examples(
        ("case_insensitive" = (value = json!({"case_insensitive": true}))),
    )),
    responses(
        (status = 200, description = "The scope's setting now", body = ScopeSettings, examples(
            ("case_insensitive" = (value = json!({"scope": "wiki", "case_insensitive": true}))),
        )),
        (status = 401, description = "`unauthorized`: the service has --auth-tokens and the request no token of it", body = ErrorBody),
        (status = 403, description = "`forbidden`: the token may not reserve, or not in this scope", body = ErrorBody),
        (status = 409, description = "`scope_has_keys`: the scope's setting was made (by a request like this, or by its first slug) and is the other one, which stays", body = ErrorBody),
        (status = 415, description = "`not_json`", body = ErrorBody),
        (status = 422, description = "`invalid_request`: a bad scope, or no `case_insensitive`", body = ErrorBody),
        (status = 503, description = "`needs_redis` or `reservations_unavailable`", body = ErrorBody),
    ))]
async fn set_scope(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    body: Result<Json<Map<String, Value>>, ApiError>,
) -> Result<Json<ScopeSettings>, ApiError> {
    let token = bearer(&headers);
    state.tokens.check(token, Permission::Reserve, None)?;
    let Json(mut body) = body?;
    let reservations = reservations(&state)?;
    let scope = scope_of(path)?;
    state
        .tokens
        .check(token, Permission::Reserve, Some(scope.as_str()))?;
    let insensitive = match body.remove("case_insensitive") {
        Some(Value::Bool(b)) if body.is_empty() => b,
        Some(Value::Bool(_)) => {
            let field = body.keys().next().cloned().unwrap_or_default();
            return Err(ApiError::Invalid(format!(
                "unknown field `{field}`: a scope's one setting is case_insensitive"
            )));
        }
        _ => {
            return Err(ApiError::Invalid(
                "send {\"case_insensitive\": true} (or false)".into(),
            ));
        }
    };
    let now = reservations
        .set_case_insensitive(&scope, insensitive)
        .await
        .map_err(reserve_error)?;
    Ok(Json(ScopeSettings {
        scope: scope.as_str().to_owned(),
        case_insensitive: now,
    }))
}
