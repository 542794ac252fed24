//! What a table is opened from: `slugd serve`'s and `slugd slugify`'s
//! validated table settings.

use std::path::PathBuf;
use std::time::Duration;

use crate::redis_conn::RedisConfig;
use slugd_engine::cldr::CldrSettings;
use slugd_engine::readers::vowels::Language;
use slugd_engine::unicode_data::{Categories, DataSource};

/// Where the table comes from.
#[derive(Debug, Clone)]
pub struct TableSettings {
    /// Redis, or `None` for the in-process table.
    pub redis: Option<RedisConfig>,
    /// UnicodeData.txt for the in-process table (and `/bench`): `--data`,
    /// or the built-in copy.
    pub data: DataSource,
    /// CLDR's names for the in-process table (and `/bench`, and the
    /// fallback): where, and which locales. A Redis table holds the
    /// locales its loader loaded.
    pub cldr: CldrSettings,
    /// IPADIC's directory (`--ipadic`): the Japanese readings of the
    /// in-process table when `japanese`, and of the fallback's copy of a
    /// Redis version that has readings.
    pub ipadic: PathBuf,
    /// Whether the in-process table holds Japanese readings: `--locales`
    /// has `ja` or is `all`.
    pub japanese: bool,
    /// The languages whose models of vowels the in-process table makes,
    /// and the fallback's copy before Redis has answered, each with its
    /// word list (`--persian-words`, `--urdu-words`, `--arabic-words`):
    /// those of `fa`, `ur` and `ar` that `--locales` has (all, when it is
    /// `all`).
    pub vowels: Vec<(Language, PathBuf)>,
    /// Where the models of vowels are prepared once and read from at
    /// every later start (`--cache-dir`); `None`: made in memory each time.
    pub prepared: Option<PathBuf>,
    /// The key prefix in Redis.
    pub prefix: String,
    /// Categories of the in-process table. A Redis table says its own; until
    /// Redis has answered once, these are what it is expected to hold.
    pub categories: Categories,
    /// How often the Redis backend checks for a new table version.
    pub refresh_interval: Duration,
    /// What to do while Redis cannot answer.
    pub on_redis_down: OnRedisDown,
    /// Most names the Redis backend keeps once fetched (0: none).
    pub name_cache: usize,
}

/// What the service does while Redis cannot answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OnRedisDown {
    /// Answer 503 for titles that need the table (the default).
    #[default]
    Fail,
    /// Answer from an in-process table built on demand; see
    /// [`super::fallback`].
    Memory,
}
