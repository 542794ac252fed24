//! The symbol table behind the engine: one enum over the two backends, and
//! the one place that turns titles into slugs with a table.
//!
//! - [`memory`]: every name in the service's memory, read from the data file.
//! - [`redis`]: the names in Redis, shared by every instance; the service
//!   holds only which characters are in the table.
//! - [`layout`]: the Redis key layout both the loader and the reader use.

pub mod fallback;
pub mod layout;
pub mod memory;
pub mod redis;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use self::fallback::Fallback;
pub use self::memory::MemoryTable;
pub use self::redis::RedisTable;
use crate::redis_conn::RedisConfig;
use crate::slug::{self, EmptySlug, NoSymbols, Options};
use crate::unicode_data::{Categories, DataError};

/// Where the table comes from.
#[derive(Debug, Clone)]
pub struct TableSettings {
    /// Redis, or `None` for the in-process table.
    pub redis: Option<RedisConfig>,
    /// The UnicodeData.txt file for the in-process table (and `/bench`).
    pub data: PathBuf,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnRedisDown {
    /// Answer 503 for titles that need the table (the default).
    #[default]
    Fail,
    /// Answer from an in-process table built on demand; see [`fallback`].
    Memory,
}

/// Why a table could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The data file for the in-process table is unusable.
    #[error("cannot build the in-process symbol table")]
    Data(#[from] DataError),
    /// The Redis table cannot be set up.
    #[error(transparent)]
    Redis(#[from] TableError),
}

impl TableSettings {
    /// Opens the table. In-process: reads the data file. Redis: sets up the
    /// connection and a watcher for new versions without waiting for Redis,
    /// so a service starts whether or not Redis is up.
    pub async fn open(&self) -> Result<SymbolTable, OpenError> {
        match &self.redis {
            None => {
                let (data, categories) = (self.data.clone(), self.categories.clone());
                let table =
                    tokio::task::spawn_blocking(move || MemoryTable::from_file(&data, &categories))
                        .await
                        .expect("the table builder does not panic")?;
                tracing::info!(
                    entries = table.len(),
                    heap_bytes = table.heap_bytes(),
                    "in-process symbol table ready"
                );
                Ok(SymbolTable::InProcess(Arc::new(table)))
            }
            Some(config) => {
                let table = Arc::new(RedisTable::new(
                    config,
                    &self.prefix,
                    self.categories.clone(),
                    self.name_cache,
                )?);
                if let Err(e) = table.refresh().await {
                    tracing::warn!(error = %e, redis = %config.endpoint, "symbol table not reachable yet; will keep trying");
                }
                table.spawn_watcher(self.refresh_interval);
                table.spawn_subscriber(config.clone());
                let fallback = (self.on_redis_down == OnRedisDown::Memory)
                    .then(|| Arc::new(Fallback::new(self.data.clone(), self.categories.clone())));
                Ok(SymbolTable::Redis(table, fallback))
            }
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
    /// Redis answers but holds no table under the prefix.
    #[error("no symbol table is loaded in Redis under prefix '{0}'; run `slugd load`")]
    NotLoaded(String),
    /// The table in Redis is not what the layout says.
    #[error("the symbol table in Redis is damaged: {0}")]
    Damaged(String),
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
}

/// The table a service slugs with.
#[derive(Clone)]
pub enum SymbolTable {
    /// In the service's own memory.
    InProcess(Arc<MemoryTable>),
    /// Shared in Redis, with the in-process fallback of
    /// `--on-redis-down memory` if configured.
    Redis(Arc<RedisTable>, Option<Arc<Fallback>>),
}

/// The slugs of a batch, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slugs {
    /// One per title; an error for a title with nothing to slug.
    pub slugs: Vec<Result<String, EmptySlug>>,
    /// Whether they came from the fallback table because Redis was down.
    pub degraded: bool,
}

impl SymbolTable {
    /// The mode's name, as the API reports it.
    pub fn mode(&self) -> &'static str {
        match self {
            SymbolTable::InProcess(_) => "in_process",
            SymbolTable::Redis(..) => "redis",
        }
    }

    /// Slugs each title. The error is the table failing (nothing was
    /// slugged); titles that have nothing to slug get an error each.
    ///
    /// With Redis, the whole batch costs at most one round trip, and none
    /// when no title has a table character.
    pub async fn slugify_all<S: AsRef<str>>(
        &self,
        titles: &[S],
        options: &Options,
    ) -> Result<Slugs, TableError> {
        let plain = |slugs| Slugs {
            slugs,
            degraded: false,
        };
        let (table, fallback) = match self {
            SymbolTable::InProcess(table) => {
                return Ok(plain(slugify_with(titles, options, table.as_ref())));
            }
            SymbolTable::Redis(table, fallback) => (table, fallback),
        };
        if !options.symbols {
            return Ok(plain(slugify_with(titles, options, &NoSymbols)));
        }
        // Only the table knows which characters need names; it asks Redis
        // only for those, and not at all when there are none.
        let candidates = titles
            .iter()
            .flat_map(|t| t.as_ref().chars())
            .filter(|&c| slug::may_be_symbol(c));
        match (table.names(candidates).await, fallback) {
            (Ok(names), _) => {
                if let Some(fallback) = fallback {
                    fallback.release();
                }
                Ok(plain(slugify_with(titles, options, &names)))
            }
            (Err(e @ (TableError::Unavailable(_) | TableError::Timeout(_))), Some(fallback)) => {
                let categories = table.live_version().map(|v| v.meta.categories.clone());
                let memory = fallback.table(categories).await.map_err(|_| e)?;
                Ok(Slugs {
                    slugs: slugify_with(titles, options, memory.as_ref()),
                    degraded: true,
                })
            }
            (Err(e), _) => Err(e),
        }
    }

    /// Slugs one title.
    pub async fn slugify(
        &self,
        title: &str,
        options: &Options,
    ) -> Result<(Result<String, EmptySlug>, bool), TableError> {
        let mut all = self.slugify_all(&[title], options).await?;
        Ok((
            all.slugs.pop().expect("one title in, one slug out"),
            all.degraded,
        ))
    }
}

fn slugify_with<S: AsRef<str>>(
    titles: &[S],
    options: &Options,
    names: &impl slug::SymbolNames,
) -> Vec<Result<String, EmptySlug>> {
    titles
        .iter()
        .map(|t| slug::slugify(t.as_ref(), options, names))
        .collect()
}
