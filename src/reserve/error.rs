//! Why a reservation cannot be made, looked up or released.

use std::time::Duration;

use super::shape::MAX_SLUG_BYTES;
use crate::table::TableError;
use slugd_engine::slug::EmptySlug;

/// Everything a reservation can fail with. Redis's failures mean "the
/// outcome is unknown, try again": every operation is idempotent.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ReserveError {
    /// Redis refused the connection or the command failed.
    #[error("Redis is unavailable: {0}")]
    Unavailable(String),
    /// Redis did not answer in time (down, stalled or overloaded).
    #[error("Redis did not answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The reservation was made, but fewer replicas than asked confirmed it
    /// in time (or, with fsync, the primary's append-only file did not
    /// have it on disk yet).
    #[error("{}", not_replicated(slug, *acked, *wanted, *fsync, *timeout))]
    NotReplicated {
        /// The slug reserved (or what was released).
        slug: String,
        /// How many replicas confirmed it.
        acked: i64,
        /// How many were asked for.
        wanted: u32,
        /// With `--reservation-fsync`: whether the primary's append-only
        /// file had it on disk.
        fsync: Option<bool>,
        /// How long they were waited for.
        timeout: Duration,
    },
    /// The primary refused the write up front: fewer replicas are
    /// connected than its `min-replicas-to-write` asks (`NOREPLICAS`).
    #[error(
        "Redis's primary refuses writes while fewer replicas than its min-replicas-to-write are connected and in step, so nothing was reserved; ask again once its replicas are back (Redis said: {0})"
    )]
    NoReplicas(String),
    /// `--reservation-fsync` was asked of a Redis that cannot wait for its
    /// append-only file.
    #[error("{0}")]
    NoFsync(String),
    /// Redis answered something the functions never return.
    #[error("Redis answered a reservation function unexpectedly: {0}")]
    Damaged(String),
    /// No free slug of the title: none fits `max_length`, or the search
    /// gave up (10,000 numbers in a row taken by other titles' own slugs).
    #[error("{}", no_free_slug(base, *max_length, tried))]
    NoFreeSlug {
        /// The title's base slug.
        base: String,
        /// The request's `max_length`, if any.
        max_length: Option<usize>,
        /// The suffix number the search stopped at.
        tried: String,
    },
    /// The title gives no slug.
    #[error(transparent)]
    EmptySlug(#[from] EmptySlug),
    /// The title's slug is longer than a reservation may hold.
    #[error(
        "the slug of this title is {0} bytes long; a reservation holds at most {max} bytes: set max_length",
        max = MAX_SLUG_BYTES
    )]
    TooLong(usize),
    /// An editor's own slug is not what the request's options make of it.
    #[error("{}", not_a_slug(slug, would_be.as_deref()))]
    NotASlug {
        /// The slug asked for.
        slug: String,
        /// What the options make of it (`None`: nothing at all).
        would_be: Option<String>,
    },
    /// An editor's own slug is another owner's, or a reserved word.
    #[error("{}", slug_taken(slug, *reserved, suggestion.as_deref()))]
    SlugTaken {
        /// The slug asked for.
        slug: String,
        /// A reserved word (`--reserved-slugs`), not another owner's.
        reserved: bool,
        /// The first free slug of its base, if one was found.
        suggestion: Option<String>,
    },
    /// A scope's case setting is made once, before its first slug.
    #[error(
        "scope {scope:?} compares slugs {}, a setting made once, before the scope's first slug; to change it, import the scope's export into a new scope made so",
        if *insensitive { "without regard to case" } else { "case by case" }
    )]
    ScopeHasKeys {
        /// The scope.
        scope: String,
        /// Its setting, which stays.
        insensitive: bool,
    },
    /// Slugging the title needed the symbol table, which cannot answer.
    #[error(transparent)]
    Table(#[from] TableError),
}

impl ReserveError {
    /// Classifies a redis-rs error.
    pub(crate) fn from_redis(e: redis::RedisError, timeout: Duration) -> Self {
        if e.is_timeout() {
            return ReserveError::Timeout(timeout);
        }
        if e.code() == Some("NOREPLICAS") {
            return ReserveError::NoReplicas(e.to_string());
        }
        ReserveError::Unavailable(e.to_string())
    }
}

fn not_replicated(
    slug: &str,
    acked: i64,
    wanted: u32,
    fsync: Option<bool>,
    timeout: Duration,
) -> String {
    let ms = timeout.as_millis();
    let missing = match (fsync, acked < i64::from(wanted)) {
        (Some(false), true) => format!(
            "neither the primary's append-only file had it on disk nor more than {acked} of the {wanted} replicas asked for within {ms} ms"
        ),
        (Some(false), false) => {
            format!("the primary's append-only file did not have it on disk within {ms} ms")
        }
        (Some(true), _) => {
            format!("only {acked} of the {wanted} replicas asked for had it on disk within {ms} ms")
        }
        (None, _) => {
            format!("only {acked} of the {wanted} replicas asked for confirmed it within {ms} ms")
        }
    };
    format!(
        "{slug:?} is reserved on the primary, but {missing}; ask again (the same request answers the same slug) once the replicas catch up"
    )
}

fn not_a_slug(slug: &str, would_be: Option<&str>) -> String {
    match would_be {
        Some(made) => format!(
            "{slug:?} is not a slug under this request's options, which make it {made:?}; reserve {made:?}, or change the options"
        ),
        None => format!("{slug:?} is not a slug: this request's options make nothing of it"),
    }
}

fn slug_taken(slug: &str, reserved: bool, suggestion: Option<&str>) -> String {
    let why = match reserved {
        true => "is a reserved word",
        false => "is taken by another owner",
    };
    match suggestion {
        Some(free) => format!("{slug:?} {why}; {free:?} is free"),
        None => format!("{slug:?} {why}, and no free slug of it was found"),
    }
}

fn no_free_slug(base: &str, max_length: Option<usize>, tried: &str) -> String {
    match max_length {
        Some(max) => format!(
            "every slug of this title that fits max_length {max} is taken (tried {base:?} with suffixes up to {tried}); raise max_length"
        ),
        None => format!(
            "no free slug of {base:?} was found within 10,000 numbers (the search stopped at {tried}); reserve with another title"
        ),
    }
}
