//! The one error type of the HTTP edge. Each variant maps to one status in
//! [`ApiError::status`], and every error body has the same shape:
//! `{"error": "<what was wrong and how to fix it>", "code": "<stable code>"}`.
//! Internal details go to the log, never to the client.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use utoipa::ToSchema;

use crate::auth::{Denied, Permission};
use crate::table::TableError;
use slugd_engine::locale::LocaleError;
use slugd_engine::options::OptionError;

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the body is not JSON, or not well-formed.
    #[error("the body is not valid JSON: {0}")]
    MalformedJson(String),
    /// 400: the query string cannot be read.
    #[error("the query string is not valid: {0}")]
    BadQuery(String),
    /// 408: the client sent its body too slowly.
    #[error("the body did not arrive within {} s; send it at once", .0.as_secs())]
    BodyTimeout(std::time::Duration),
    /// 415: the body is not declared as JSON.
    #[error("send the body as JSON with the header Content-Type: application/json")]
    NotJson,
    /// 413: the body is larger than the configured limit.
    #[error("the body is larger than the limit of {0} bytes; send fewer or shorter titles")]
    TooLarge(usize),
    /// 422: well-formed JSON of the wrong shape (a missing title, a wrong
    /// type, an unknown option) or an option value that cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// 422: a batch with more titles than the limit.
    #[error(
        "a batch may hold at most {max} titles; this one has {got}. Split it into smaller batches"
    )]
    TooManyTitles { max: usize, got: usize },
    /// 422: a `locale` CLDR has nothing for.
    #[error("{0}")]
    UnknownLocale(String),
    /// 422: a title that yields no slug.
    #[error("{0}")]
    EmptySlug(String),
    /// 404: no such endpoint.
    #[error(
        "no such endpoint; see GET /openapi.json or docs/api.md for the API (POST /slug, POST /slugs, POST /reservations, GET /locales, GET /bench, GET /healthz, GET /readyz, GET /metrics)"
    )]
    NotFound,
    /// 404: nobody holds the slug, or the owner holds none.
    #[error("{0}")]
    NotReserved(String),
    /// 409: every slug of the title that fits `max_length` is taken.
    #[error("{0}")]
    NoFreeSlug(String),
    /// 405: the endpoint exists but not with this method.
    #[error("this endpoint does not take that method; see docs/api.md for the API")]
    MethodNotAllowed,
    /// 429: a benchmark is already running.
    #[error("a benchmark is already running in this service; try again when it ends")]
    BenchBusy,
    /// 503: reservations need Redis, and the service runs in-process.
    #[error(
        "reservations need a store every instance shares: start slugd serve with --redis-url (REDIS_URL) or --redis-cluster (REDIS_CLUSTER)"
    )]
    NeedsRedis,
    /// 503: Redis cannot answer a reservation now; whether it was made is
    /// unknown, and asking again is safe.
    #[error(
        "reservations are unavailable: {0}; whether the reservation was made is unknown: ask again with the same request (it answers the same slug if it was)"
    )]
    ReservationsUnavailable(String),
    /// 503: the reservation was made but not confirmed by enough replicas
    /// (or not yet on disk, with `--reservation-fsync`), or the primary
    /// refused the write for want of replicas (`NOREPLICAS`).
    #[error("{0}")]
    NotReplicated(String),
    /// 503: the symbol table (Redis) cannot answer now.
    #[error("the symbol table is unavailable: {0}")]
    Unavailable(TableError),
    /// 503, with `Retry-After`: the in-process table is still being read
    /// at start (the service listens meanwhile).
    #[error(
        "the service is starting: its symbol table is still being read; try again in a moment (see Retry-After)"
    )]
    Loading,
    /// 401: a reservation endpoint without a token of `--auth-tokens`.
    #[error("{0}")]
    Unauthorized(Denied),
    /// 403: a token that may not do this, or not in this scope.
    #[error("{0}")]
    Forbidden(Denied),
    /// 409: an editor's own slug is another owner's (or a reserved word);
    /// the body's `suggestion` is the first free slug of its base.
    #[error("{message}")]
    SlugTaken {
        message: String,
        suggestion: Option<String>,
    },
    /// 422: an editor's own slug is not what the request's options make
    /// of it; the body's `slug` is what they make.
    #[error("{message}")]
    NotASlug {
        message: String,
        slug: Option<String>,
    },
    /// 409: a scope's case setting cannot change once it has slugs.
    #[error("{0}")]
    ScopeHasKeys(String),
    /// 415: an import's body is not declared as NDJSON.
    #[error(
        "send the lines to import as NDJSON with the header Content-Type: application/x-ndjson"
    )]
    NotNdjson,
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> Self {
        match e {
            TableError::Loading => ApiError::Loading,
            e => ApiError::Unavailable(e),
        }
    }
}

impl From<Denied> for ApiError {
    fn from(denied: Denied) -> Self {
        match denied {
            Denied::NoToken => ApiError::Unauthorized(denied),
            _ => ApiError::Forbidden(denied),
        }
    }
}

/// The shape of every error body, for the OpenAPI document (the body
/// itself is written by [`ApiError::into_response`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ErrorBody {
    /// What was wrong and how to fix it, for people.
    error: String,
    /// A stable code for programs (each code has one status).
    code: String,
}

impl ApiError {
    /// One error of each variant, in declaration order, for the OpenAPI
    /// document's list of codes. [`ApiError::ordinal`] matches on every
    /// variant, so a new one does not compile until it is placed there,
    /// and a unit test checks this list follows it.
    pub fn every() -> Vec<ApiError> {
        let s = String::new;
        vec![
            ApiError::MalformedJson(s()),
            ApiError::BadQuery(s()),
            ApiError::BodyTimeout(std::time::Duration::from_secs(10)),
            ApiError::NotJson,
            ApiError::TooLarge(0),
            ApiError::Invalid(s()),
            ApiError::TooManyTitles { max: 0, got: 0 },
            ApiError::UnknownLocale(s()),
            ApiError::EmptySlug(s()),
            ApiError::NotFound,
            ApiError::NotReserved(s()),
            ApiError::NoFreeSlug(s()),
            ApiError::MethodNotAllowed,
            ApiError::BenchBusy,
            ApiError::NeedsRedis,
            ApiError::ReservationsUnavailable(s()),
            ApiError::NotReplicated(s()),
            ApiError::Unavailable(TableError::NotLoaded(s())),
            ApiError::Unauthorized(Denied::NoToken),
            ApiError::Forbidden(Denied::NotPermitted(Permission::Release)),
            ApiError::SlugTaken {
                message: s(),
                suggestion: None,
            },
            ApiError::NotASlug {
                message: s(),
                slug: None,
            },
            ApiError::ScopeHasKeys(s()),
            ApiError::NotNdjson,
            ApiError::Loading,
        ]
    }

    /// The variant's place in the declaration (and in [`ApiError::every`]).
    #[cfg(test)]
    fn ordinal(&self) -> usize {
        match self {
            ApiError::MalformedJson(_) => 0,
            ApiError::BadQuery(_) => 1,
            ApiError::BodyTimeout(_) => 2,
            ApiError::NotJson => 3,
            ApiError::TooLarge(_) => 4,
            ApiError::Invalid(_) => 5,
            ApiError::TooManyTitles { .. } => 6,
            ApiError::UnknownLocale(_) => 7,
            ApiError::EmptySlug(_) => 8,
            ApiError::NotFound => 9,
            ApiError::NotReserved(_) => 10,
            ApiError::NoFreeSlug(_) => 11,
            ApiError::MethodNotAllowed => 12,
            ApiError::BenchBusy => 13,
            ApiError::NeedsRedis => 14,
            ApiError::ReservationsUnavailable(_) => 15,
            ApiError::NotReplicated(_) => 16,
            ApiError::Unavailable(_) => 17,
            ApiError::Unauthorized(_) => 18,
            ApiError::Forbidden(_) => 19,
            ApiError::SlugTaken { .. } => 20,
            ApiError::NotASlug { .. } => 21,
            ApiError::ScopeHasKeys(_) => 22,
            ApiError::NotNdjson => 23,
            ApiError::Loading => 24,
        }
    }

    /// The one place statuses are chosen.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MalformedJson(_) | ApiError::BadQuery(_) => StatusCode::BAD_REQUEST,
            ApiError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::NotJson | ApiError::NotNdjson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Invalid(_)
            | ApiError::UnknownLocale(_)
            | ApiError::TooManyTitles { .. }
            | ApiError::EmptySlug(_)
            | ApiError::NotASlug { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotFound | ApiError::NotReserved(_) => StatusCode::NOT_FOUND,
            ApiError::NoFreeSlug(_) | ApiError::SlugTaken { .. } | ApiError::ScopeHasKeys(_) => {
                StatusCode::CONFLICT
            }
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::BenchBusy => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_)
            | ApiError::Loading
            | ApiError::NeedsRedis
            | ApiError::ReservationsUnavailable(_)
            | ApiError::NotReplicated(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// A stable, machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MalformedJson(_) => "malformed_json",
            ApiError::BadQuery(_) => "bad_query",
            ApiError::BodyTimeout(_) => "body_timeout",
            ApiError::NotJson => "not_json",
            ApiError::TooLarge(_) => "too_large",
            ApiError::Invalid(_) => "invalid_request",
            ApiError::UnknownLocale(_) => "unknown_locale",
            ApiError::TooManyTitles { .. } => "too_many_titles",
            ApiError::EmptySlug(_) => "empty_slug",
            ApiError::NotFound => "not_found",
            ApiError::NotReserved(_) => "not_reserved",
            ApiError::NoFreeSlug(_) => "no_free_slug",
            ApiError::NeedsRedis => "needs_redis",
            ApiError::ReservationsUnavailable(_) => "reservations_unavailable",
            ApiError::NotReplicated(_) => "not_replicated",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::BenchBusy => "busy",
            ApiError::Unavailable(_) => "table_unavailable",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::SlugTaken { .. } => "slug_taken",
            ApiError::NotASlug { .. } => "not_a_slug",
            ApiError::ScopeHasKeys(_) => "scope_has_keys",
            ApiError::NotNdjson => "not_ndjson",
            ApiError::Loading => "loading",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // Per request at debug only: an outage would flood the log. The
        // table's watcher logs each change of state once.
        if let ApiError::Unavailable(e) = &self {
            // As an error value, so the log shows its causes too (why
            // the fallback could not be built, for one).
            tracing::debug!(error = e as &dyn std::error::Error, "table unavailable");
        }
        let mut body = json!({ "error": self.to_string(), "code": self.code() });
        match &self {
            ApiError::SlugTaken {
                suggestion: Some(free),
                ..
            } => body["suggestion"] = json!(free),
            ApiError::NotASlug {
                slug: Some(made), ..
            } => body["slug"] = json!(made),
            _ => {}
        }
        let mut response = (self.status(), axum::Json(body)).into_response();
        match self {
            ApiError::Unauthorized(_) => {
                response.headers_mut().insert(
                    axum::http::header::WWW_AUTHENTICATE,
                    axum::http::HeaderValue::from_static("Bearer realm=\"slugd reservations\""),
                );
            }
            ApiError::Loading => {
                response.headers_mut().insert(
                    axum::http::header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static("1"),
                );
            }
            _ => {}
        }
        response
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::JsonDataError(e) => ApiError::Invalid(serde_detail(&e.body_text())),
            JsonRejection::JsonSyntaxError(e) => {
                ApiError::MalformedJson(serde_detail(&e.body_text()))
            }
            JsonRejection::MissingJsonContentType(_) => ApiError::NotJson,
            other => ApiError::MalformedJson(other.body_text()),
        }
    }
}

impl From<OptionError> for ApiError {
    fn from(e: OptionError) -> Self {
        match e {
            OptionError::Locale(LocaleError::Unknown(_)) => ApiError::UnknownLocale(e.to_string()),
            e => ApiError::Invalid(e.to_string()),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::BadQuery(serde_detail(&rejection.body_text()))
    }
}

/// axum prefixes serde's message with a generic sentence; keep serde's part,
/// which names the field and position.
fn serde_detail(text: &str) -> String {
    match text.split_once(": ") {
        Some((head, rest)) if head.starts_with("Failed to") => rest.to_owned(),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lists_each_variant_once_with_a_distinct_code() {
        let all = ApiError::every();
        for (i, e) in all.iter().enumerate() {
            assert_eq!(e.ordinal(), i, "{}", e.code());
        }
        let codes: std::collections::BTreeSet<_> = all.iter().map(ApiError::code).collect();
        assert_eq!(codes.len(), all.len());
    }
}
