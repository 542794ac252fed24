//! The sources of symbol names: one enum over the two backends, and how a
//! table is opened. Where a title becomes a slug with these names is
//! [`crate::slugger`].
//!
//! - [`memory`]: every name in the service's memory: the table is the
//!   engine's ([`MemoryTable`], pure; the default one comes built in,
//!   already made), read here off the async threads.
//! - [`redis`]: the names in Redis, shared by every instance; the service
//!   holds only which characters are in the table.
//! - [`fallback`]: the in-process table of `--on-redis-down memory`, built
//!   while Redis is down; [`copy`]: the one rule for an in-process copy of
//!   the Redis table, which the fallback and `/bench` build.
//! - [`layout`]: the Redis key layout and meta schema both the loader and
//!   the reader use; [`vowels`]: Persian's, Urdu's and Arabic's models of
//!   vowels, made from the packages a user installs, for both, once into
//!   the files of [`prepared`] that later starts read.
//! - [`settings`]: what a table is opened from; [`error`]: why it fails.
//!
//! The files below this one never import it: arrows run from here down.

mod copy;
#[cfg(test)]
mod engine_tests;
mod error;
mod fallback;
pub(crate) mod layout;
mod memory;
pub mod prepared;
mod redis;
mod settings;
pub mod vowels;

use std::sync::{Arc, OnceLock};

use self::layout::Version;
use crate::metrics::Metrics;
use slugd_engine::readers::vowels::Language;
use slugd_engine::slug::SymbolNames as _;

pub use self::copy::CopySource;
pub use self::error::{OpenError, TableError};
pub use self::fallback::Fallback;
pub use self::redis::RedisTable;
pub use self::settings::{OnRedisDown, TableSettings};
pub use slugd_engine::memory::{BuildError, MemoryTable};

/// The table a service slugs with.
#[derive(Clone)]
pub enum SymbolTable {
    /// In the service's own memory (once it is read: [`InProcessTable`]).
    InProcess(Arc<InProcessTable>),
    /// Shared in Redis, with the in-process fallback of
    /// `--on-redis-down memory` if configured.
    Redis(Arc<RedisTable>, Option<Arc<Fallback>>),
}

/// The in-process table: read at start, on a task of its own, while the
/// service already listens (and answers `loading` meanwhile), then held
/// for good.
#[derive(Debug)]
pub struct InProcessTable {
    /// Set once, when the table is read.
    table: OnceLock<Arc<MemoryTable>>,
    /// Tells those who wait ([`InProcessTable::until_read`]) that it is.
    read: tokio::sync::watch::Sender<bool>,
}

impl Default for InProcessTable {
    fn default() -> Self {
        InProcessTable {
            table: OnceLock::new(),
            read: tokio::sync::watch::Sender::new(false),
        }
    }
}

impl InProcessTable {
    /// The table, or [`TableError::Loading`] while it is being read.
    #[inline]
    pub fn get(&self) -> Result<&Arc<MemoryTable>, TableError> {
        self.table.get().ok_or(TableError::Loading)
    }

    /// Holds `table` from now on.
    fn set(&self, table: Arc<MemoryTable>) {
        let _ = self.table.set(table);
        self.read.send_replace(true);
    }

    /// Completes once the table is read (never, if it cannot be).
    pub async fn until_read(&self) {
        let mut read = self.read.subscribe();
        let _ = read.wait_for(|read| *read).await;
    }
}

/// The reading of an in-process table that [`SymbolTable::start`] began:
/// its outcome, once it ends.
pub struct Loading(tokio::task::JoinHandle<Result<(), OpenError>>);

impl Loading {
    /// Completes when the table is read, with why it could not be.
    pub async fn finished(self) -> Result<(), OpenError> {
        self.0
            .await
            .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))
    }
}

impl SymbolTable {
    /// The in-process table `table`, read already.
    pub fn in_process(table: Arc<MemoryTable>) -> Self {
        let held = InProcessTable::default();
        held.set(table);
        SymbolTable::InProcess(Arc::new(held))
    }

    /// Opens the table, and waits until it can answer: [`SymbolTable::start`],
    /// then the in-process table's reading to its end.
    pub async fn open(
        settings: &TableSettings,
        metrics: &Metrics,
    ) -> Result<SymbolTable, OpenError> {
        let (table, loading) = Self::start(settings, metrics).await?;
        if let Some(loading) = loading {
            loading.finished().await?;
        }
        Ok(table)
    }

    /// Opens the table without waiting for it. In-process: begins reading
    /// it (`memory::build`: files, IPADIC, the models of vowels) on a task
    /// of its own, whose end [`Loading`] tells; until then the table
    /// answers [`TableError::Loading`]. Redis: sets up the connection and a
    /// watcher for new versions without waiting for Redis, so a service
    /// starts whether or not Redis is up. The Redis table counts its round
    /// trips and cache lookups in `metrics`.
    pub async fn start(
        settings: &TableSettings,
        metrics: &Metrics,
    ) -> Result<(SymbolTable, Option<Loading>), OpenError> {
        let Some(config) = &settings.redis else {
            let held = Arc::new(InProcessTable::default());
            let settings = settings.clone();
            let filled = held.clone();
            let loading = tokio::spawn(async move {
                let table = read_in_process(&settings).await?;
                filled.set(Arc::new(table));
                Ok(())
            });
            return Ok((SymbolTable::InProcess(held), Some(Loading(loading))));
        };
        let fallback = match settings.on_redis_down {
            OnRedisDown::Fail => None,
            OnRedisDown::Memory => {
                let fallback = Fallback::new(CopySource::new(settings));
                // It reads its files during an outage: say now, before
                // Redis is asked, if it cannot.
                fallback.check()?;
                Some(Arc::new(fallback))
            }
        };
        let table = Arc::new(RedisTable::new(
            config,
            &settings.prefix,
            settings.categories.clone(),
            settings.name_cache,
            metrics.table(),
        )?);
        if let Err(e) = table.refresh().await {
            tracing::warn!(error = %e, redis = %config.endpoint, "symbol table not reachable yet; will keep trying");
        }
        table.spawn_watcher(settings.refresh_interval);
        table.spawn_subscriber(config.clone());
        Ok((SymbolTable::Redis(table, fallback), None))
    }

    /// The mode's name, as the API reports it.
    pub fn mode(&self) -> &'static str {
        match self {
            SymbolTable::InProcess(_) => "in_process",
            SymbolTable::Redis(..) => "redis",
        }
    }

    /// Whether the table answers now, and what it holds: in Redis mode a
    /// round trip, so that readiness means Redis answers.
    pub async fn status(&self) -> Result<TableStatus, TableError> {
        Ok(match self {
            SymbolTable::InProcess(table) => TableStatus {
                mode: self.mode(),
                version: None,
                entries: table.get()?.len() as u64,
            },
            SymbolTable::Redis(table, _) => {
                let version = table.refresh().await?;
                TableStatus {
                    mode: self.mode(),
                    version: Some(version.version),
                    entries: version.meta.entries,
                }
            }
        })
    }

    /// The locales whose CLDR names the table holds, English first. In
    /// Redis mode those of the version in use, asking Redis only if none is
    /// known yet.
    pub async fn locales(&self) -> Result<Vec<String>, TableError> {
        Ok(match self {
            SymbolTable::InProcess(table) => table.get()?.locales().tags().to_vec(),
            SymbolTable::Redis(table, _) => {
                table.version().await?.meta.cldr.locales.tags().to_vec()
            }
        })
    }

    /// The version in use (Redis mode, once Redis has answered) and its
    /// locales, without asking Redis: for a scrape of the metrics.
    pub fn live(&self) -> (Option<Version>, Vec<String>) {
        match self {
            SymbolTable::InProcess(table) => (
                None,
                table
                    .get()
                    .map(|t| t.locales().tags().to_vec())
                    .unwrap_or_default(),
            ),
            SymbolTable::Redis(table, _) => match table.live_version() {
                Some(v) => (Some(v.version), v.meta.cldr.locales.tags().to_vec()),
                None => (None, Vec::new()),
            },
        }
    }

    /// The Redis table, in Redis mode.
    pub fn redis(&self) -> Option<&Arc<RedisTable>> {
        match self {
            SymbolTable::InProcess(_) => None,
            SymbolTable::Redis(table, _) => Some(table),
        }
    }

    /// An in-process table that names what this one names: this one in
    /// in-process mode, else the copy of the Redis version in use built
    /// from `source` (see [`copy`]).
    pub async fn in_process_copy(
        &self,
        source: &CopySource,
    ) -> Result<Arc<MemoryTable>, OpenError> {
        let table = match self {
            SymbolTable::InProcess(table) => return Ok(table.get()?.clone()),
            SymbolTable::Redis(table, _) => table,
        };
        let live = table.version().await.ok();
        source
            .build(live.as_ref().map(|v| &v.meta))
            .await
            .map(Arc::new)
    }
}

/// The in-process table of `settings`: its files, IPADIC's readings and
/// the models of vowels (from their prepared files), off the async
/// threads.
async fn read_in_process(settings: &TableSettings) -> Result<MemoryTable, OpenError> {
    // The three parts read at once, each on a blocking thread of its own:
    // with every locale the start takes the longest of them, not their sum.
    let (table, readings, models) = tokio::join!(
        memory::build(
            settings.data.clone(),
            settings.categories.clone(),
            settings.cldr.clone(),
        ),
        memory::japanese_readings(settings.japanese.then_some(settings.ipadic.as_path())),
        prepared::build_all(&settings.vowels, settings.prepared.as_deref()),
    );
    let mut table = table?;
    if let Some(readings) = readings? {
        table = table.with_readings(readings);
    }
    let table = models?
        .iter()
        .fold(table, |table, model| table.with_vowels(model.clone()));
    tracing::info!(
        entries = table.len(),
        locales = table.locales().len(),
        cldr_names = table.cldr_names(),
        table_bytes = table.heap_bytes(),
        "in-process symbol table ready"
    );
    let missing: Vec<Language> = Language::ALL
        .into_iter()
        .filter(|&l| table.vowels(l).is_none())
        .collect();
    if let Some(said) = not_loaded_line(&missing) {
        tracing::warn!("{said}");
    }
    Ok(table)
}

/// The start log's line naming the readings of vowels a table does not
/// hold, and how to load them; `None` when it holds every one.
pub fn not_loaded_line(missing: &[Language]) -> Option<String> {
    if missing.is_empty() {
        return None;
    }
    let names: Vec<&str> = missing.iter().map(|l| l.name()).collect();
    let codes: Vec<&str> = missing.iter().map(|l| l.code()).collect();
    Some(format!(
        "readings not loaded: {} (rules 6 read their words without vowel marks by models of their vowels, and rules 7 Hebrew's; without one such words are read letter by letter, and answers say so with a reading_not_loaded warning); to load them: --locales {} (or all), with the word lists and espeak-ng scripts/dictionaries.sh installs, and slugd prepare to make their models once",
        names.join(", "),
        codes.join(",")
    ))
}

/// What `/readyz` reports of a table that answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableStatus {
    /// `in_process` or `redis`.
    pub mode: &'static str,
    /// The version in use (Redis mode).
    pub version: Option<Version>,
    /// Characters in the table.
    pub entries: u64,
}
