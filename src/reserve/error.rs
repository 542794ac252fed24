//! Why a reservation cannot be made, looked up or released.

use std::time::Duration;

use super::shape::MAX_SLUG_BYTES;
use crate::slug::EmptySlug;
use crate::table::TableError;

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
    /// in time.
    #[error(
        "{slug:?} is reserved on the primary, but only {acked} of the {wanted} replicas asked for confirmed it within {} ms; ask again (the same request answers the same slug) once the replicas catch up",
        .timeout.as_millis()
    )]
    NotReplicated {
        /// The slug reserved (or what was released).
        slug: String,
        /// How many replicas confirmed it.
        acked: i64,
        /// How many were asked for.
        wanted: u32,
        /// How long they were waited for.
        timeout: Duration,
    },
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
        ReserveError::Unavailable(e.to_string())
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
