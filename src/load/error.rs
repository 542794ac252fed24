//! Why a load fails. In every case the live table is left as it was.

use std::time::Duration;

use slugd_engine::unicode_data::DataError;

/// Why a load failed. In every case the live table is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The data file is unreadable or has bad lines.
    #[error(transparent)]
    Data(#[from] DataError),
    /// CLDR's files are missing or unreadable.
    #[error(transparent)]
    Cldr(#[from] slugd_engine::cldr::CldrError),
    /// IPADIC's files are unreadable or have bad lines.
    #[error(transparent)]
    Japanese(slugd_engine::readers::japanese::IpadicError),
    /// A model of vowels (Persian's, Urdu's) cannot be made: its word
    /// list cannot be read, or espeak-ng failed.
    #[error("cannot make a model of vowels")]
    Vowels(#[source] crate::table::vowels::VowelsError),
    /// The file has no character of the chosen categories.
    #[error("{path} has no characters of categories {categories}; refusing to load an empty table")]
    Empty {
        /// The file.
        path: String,
        /// The categories asked for.
        categories: String,
    },
    /// A Redis command failed.
    #[error("Redis failed while {doing}")]
    Redis {
        /// What the loader was doing.
        doing: &'static str,
        /// The driver's error.
        #[source]
        source: redis::RedisError,
    },
    /// Another loader held the lock for longer than we would wait.
    #[error("another load is running (lock {key} is held); waited {} s", waited.as_secs())]
    Locked {
        /// The lock key.
        key: String,
        /// How long we waited.
        waited: Duration,
    },
    /// The lock expired under us: another loader may have taken over.
    #[error("lost the load lock before the switch (a stall longer than {} s?); the live table is unchanged", ttl.as_secs())]
    LostLock {
        /// How long the lock lives without renewal.
        ttl: Duration,
    },
}

/// Wraps a redis-rs error with what the loader was doing.
pub(crate) fn redis_err(doing: &'static str) -> impl FnOnce(redis::RedisError) -> LoadError {
    move |source| LoadError::Redis { doing, source }
}
