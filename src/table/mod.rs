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
//!   the reader use; [`vowels`]: Persian's and Urdu's models of vowels, made from
//!   the packages a user installs, for both.
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
mod redis;
mod settings;
pub mod vowels;

use std::sync::Arc;

use self::layout::Version;
use crate::metrics::Metrics;

pub use self::copy::CopySource;
pub use self::error::{OpenError, TableError};
pub use self::fallback::Fallback;
pub use self::redis::RedisTable;
pub use self::settings::{OnRedisDown, TableSettings};
pub use slugd_engine::memory::{BuildError, MemoryTable};

/// The table a service slugs with.
#[derive(Clone)]
pub enum SymbolTable {
    /// In the service's own memory.
    InProcess(Arc<MemoryTable>),
    /// Shared in Redis, with the in-process fallback of
    /// `--on-redis-down memory` if configured.
    Redis(Arc<RedisTable>, Option<Arc<Fallback>>),
}

impl SymbolTable {
    /// Opens the table. In-process: builds it (`memory::build`). Redis: sets up the
    /// connection and a watcher for new versions without waiting for Redis,
    /// so a service starts whether or not Redis is up.
    /// The Redis table counts its round trips and cache lookups in
    /// `metrics`.
    pub async fn open(
        settings: &TableSettings,
        metrics: &Metrics,
    ) -> Result<SymbolTable, OpenError> {
        let Some(config) = &settings.redis else {
            let table = memory::build(
                settings.data.clone(),
                settings.categories.clone(),
                settings.cldr.clone(),
            )
            .await?;
            let table = memory::read_japanese(
                table,
                settings.japanese.then_some(settings.ipadic.as_path()),
            )
            .await?;
            let table = memory::read_vowels(table, &settings.vowels).await?;
            tracing::info!(
                entries = table.len(),
                locales = table.locales().len(),
                cldr_names = table.cldr_names(),
                table_bytes = table.heap_bytes(),
                "in-process symbol table ready"
            );
            return Ok(SymbolTable::InProcess(Arc::new(table)));
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
        Ok(SymbolTable::Redis(table, fallback))
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
                entries: table.len() as u64,
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
            SymbolTable::InProcess(table) => table.locales().tags().to_vec(),
            SymbolTable::Redis(table, _) => {
                table.version().await?.meta.cldr.locales.tags().to_vec()
            }
        })
    }

    /// The version in use (Redis mode, once Redis has answered) and its
    /// locales, without asking Redis: for a scrape of the metrics.
    pub fn live(&self) -> (Option<Version>, Vec<String>) {
        match self {
            SymbolTable::InProcess(table) => (None, table.locales().tags().to_vec()),
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
            SymbolTable::InProcess(table) => return Ok(table.clone()),
            SymbolTable::Redis(table, _) => table,
        };
        let live = table.version().await.ok();
        source
            .build(live.as_ref().map(|v| &v.meta))
            .await
            .map(Arc::new)
    }
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
