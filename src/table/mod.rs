//! The sources of symbol names: one enum over the two backends, and how a
//! table is opened. Where a title becomes a slug with these names is
//! [`crate::slugger`].
//!
//! - [`memory`]: every name in the service's memory, read from the data file.
//! - [`redis`]: the names in Redis, shared by every instance; the service
//!   holds only which characters are in the table.
//! - [`fallback`]: the in-process table of `--on-redis-down memory`, built
//!   while Redis is down.
//! - [`layout`]: the Redis key layout and meta schema both the loader and
//!   the reader use.
//! - [`settings`]: what a table is opened from; [`error`]: why it fails.
//!
//! The files below this one never import it: arrows run from here down.

mod error;
mod fallback;
pub(crate) mod layout;
mod memory;
mod redis;
mod settings;

use std::sync::Arc;

use crate::metrics::Metrics;

pub use self::error::{OpenError, TableError};
pub use self::fallback::Fallback;
pub use self::memory::MemoryTable;
pub use self::redis::RedisTable;
pub use self::settings::{OnRedisDown, TableSettings};

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
    /// Opens the table. In-process: reads the data file. Redis: sets up the
    /// connection and a watcher for new versions without waiting for Redis,
    /// so a service starts whether or not Redis is up.
    /// The Redis table counts its round trips and cache lookups in
    /// `metrics`.
    pub async fn open(
        settings: &TableSettings,
        metrics: &Metrics,
    ) -> Result<SymbolTable, OpenError> {
        let Some(config) = &settings.redis else {
            let table = MemoryTable::build(
                settings.data.clone(),
                settings.categories.clone(),
                settings.cldr.clone(),
            )
            .await?;
            tracing::info!(
                entries = table.len(),
                locales = table.locales().len(),
                cldr_names = table.cldr_names(),
                heap_bytes = table.heap_bytes(),
                "in-process symbol table ready"
            );
            return Ok(SymbolTable::InProcess(Arc::new(table)));
        };
        let fallback = match settings.on_redis_down {
            OnRedisDown::Fail => None,
            OnRedisDown::Memory => {
                let fallback = Fallback::new(
                    settings.data.clone(),
                    settings.categories.clone(),
                    settings.cldr.clone(),
                );
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
}
