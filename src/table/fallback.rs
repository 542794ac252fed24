//! The degraded mode of `--on-redis-down memory`: while Redis cannot
//! answer, the service slugs with an in-process table built on demand from
//! the data files (`--data`, `--cldr`, or those built in), and drops it
//! again once Redis answers.
//!
//! The trade-off: during an outage each instance holds the whole table
//! (about 245 kB of heap for the default categories) and spends one build
//! (tens of milliseconds, off the async threads, unless it is the built-in
//! default table, which is decoded at once) to keep answering; between
//! outages it holds nothing. Responses served this way are marked, so
//! clients and logs can tell. Its files are checked when the service
//! starts ([`Fallback::check`]), so a wrong `--data` stops `slugd serve`
//! then rather than at the first outage.

use std::sync::Arc;

use tokio::sync::Mutex;

use super::copy::CopySource;
use super::error::OpenError;
use super::layout::Meta;
use slugd_engine::memory::MemoryTable;

/// What the degraded mode needs, and the table while it is in use.
#[derive(Debug)]
pub struct Fallback {
    /// What the table is built from: the same copy `/bench` measures.
    source: CopySource,
    /// Built at the first failure of an outage, dropped at the first
    /// success after it.
    table: Mutex<Option<Arc<MemoryTable>>>,
}

impl Fallback {
    /// A fallback that builds its table from `source` when needed.
    pub fn new(source: CopySource) -> Self {
        Fallback {
            source,
            table: Mutex::new(None),
        }
    }

    /// Says at start, rather than at the first outage, whether the table
    /// could be built: see [`CopySource::check`].
    pub fn check(&self) -> Result<(), OpenError> {
        self.source.check()
    }

    /// The in-process table, built on first use: the copy of the Redis
    /// version last seen (`live`), if any, so both give the same slugs.
    pub async fn table(&self, live: Option<&Meta>) -> Result<Arc<MemoryTable>, OpenError> {
        let mut slot = self.table.lock().await;
        if let Some(table) = slot.as_ref() {
            return Ok(table.clone());
        }
        let table = self.source.build(live).await?;
        tracing::warn!(
            table_bytes = table.heap_bytes(),
            "Redis is down: answering from an in-process table"
        );
        let table = Arc::new(table);
        *slot = Some(table.clone());
        Ok(table)
    }

    /// Drops the table once Redis answers again.
    pub fn release(&self) {
        if let Ok(mut slot) = self.table.try_lock()
            && slot.take().is_some()
        {
            tracing::info!("Redis is back: dropped the in-process fallback table");
        }
    }
}
