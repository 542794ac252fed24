//! Why a table cannot be opened, and why it cannot answer.

use std::sync::Arc;
use std::time::Duration;

use slugd_engine::unicode_data::DataError;

/// Why a table could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The data file for the in-process table is unusable.
    #[error("cannot build the in-process symbol table")]
    Data(#[from] DataError),
    /// CLDR's files for the in-process table are unusable.
    #[error("cannot read CLDR's names")]
    Cldr(#[from] slugd_engine::cldr::CldrError),
    /// IPADIC's files for the in-process table's Japanese readings are
    /// unreadable or have bad lines.
    #[error("cannot read IPADIC's Japanese readings")]
    Japanese(#[from] slugd_engine::readers::japanese::IpadicError),
    /// A model of vowels (Persian's, Urdu's) cannot be made: its word
    /// list cannot be read, or espeak-ng failed.
    #[error("cannot make a model of vowels")]
    Vowels(#[from] super::vowels::VowelsError),
    /// The data file the fallback of `--on-redis-down memory` would build
    /// its table from during an outage is unusable (checked at start).
    #[error("--on-redis-down memory cannot build its in-process table from --data")]
    FallbackData(#[source] DataError),
    /// The Redis table cannot be set up.
    #[error(transparent)]
    Redis(#[from] TableError),
    /// Reservations cannot be made as configured (`--reservation-fsync`
    /// on a Redis that cannot wait for its append-only file): why.
    #[error("{0}")]
    Reservations(String),
}

impl From<slugd_engine::memory::BuildError> for OpenError {
    fn from(e: slugd_engine::memory::BuildError) -> Self {
        match e {
            slugd_engine::memory::BuildError::Data(e) => OpenError::Data(e),
            slugd_engine::memory::BuildError::Cldr(e) => OpenError::Cldr(e),
        }
    }
}

/// Why the table cannot answer. Every variant means "try again later" to a
/// client (HTTP 503).
#[derive(Debug, Clone, thiserror::Error)]
pub enum TableError {
    /// Redis refused the connection or the command failed.
    #[error("Redis is unavailable: {0}")]
    Unavailable(String),
    /// Redis did not answer in time.
    #[error("Redis did not answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The in-process table is still being read, at start.
    #[error("the symbol table is still being read at start; try again in a moment")]
    Loading,
    /// Redis answers but holds no table under the prefix.
    #[error("no symbol table is loaded in Redis under prefix '{0}'; run `slugd load`")]
    NotLoaded(String),
    /// The table in Redis is not what the layout says.
    #[error("the symbol table in Redis is damaged: {0}")]
    Damaged(String),
    /// Redis cannot be reached, and the in-process table of
    /// `--on-redis-down memory` cannot be built to answer instead.
    #[error("{outage}, and the in-process table of --on-redis-down memory cannot be built")]
    NoFallback {
        /// Why Redis cannot answer.
        outage: Box<TableError>,
        /// Why the fallback cannot be built.
        #[source]
        cause: Arc<OpenError>,
    },
}

impl TableError {
    /// Classifies a redis-rs error.
    pub fn from_redis(e: ::redis::RedisError) -> Self {
        if e.is_timeout() {
            // The driver's own response timeout, equal to ours.
            return TableError::Unavailable("the request timed out".to_owned());
        }
        TableError::Unavailable(e.to_string())
    }

    /// Whether Redis could not be reached (rather than answering wrongly):
    /// the case `--on-redis-down memory` answers from memory.
    pub fn is_outage(&self) -> bool {
        matches!(self, TableError::Unavailable(_) | TableError::Timeout(_))
    }
}
