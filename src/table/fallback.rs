//! The degraded mode of `--on-redis-down memory`: while Redis cannot
//! answer, the service slugs with an in-process table built on demand from
//! the data file, and drops it again once Redis answers.
//!
//! The trade-off: during an outage each instance holds the whole table
//! (about 245 kB of heap for the default categories) and spends one build
//! (tens of milliseconds, off the async threads) to keep answering; between
//! outages it holds nothing. Responses served this way are marked, so
//! clients and logs can tell. Its files are checked when the service
//! starts ([`Fallback::check`]), so a wrong `--data` stops `slugd serve`
//! then rather than at the first outage.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Mutex;

use super::error::OpenError;
use super::memory::MemoryTable;
use crate::cldr::CldrSettings;
use crate::unicode_data::{Categories, DataError};

/// What the degraded mode needs, and the table while it is in use.
#[derive(Debug)]
pub struct Fallback {
    data: PathBuf,
    categories: Categories,
    cldr: CldrSettings,
    /// Built at the first failure of an outage, dropped at the first
    /// success after it.
    table: Mutex<Option<Arc<MemoryTable>>>,
}

impl Fallback {
    /// A fallback that reads `data` for `categories` when needed.
    pub fn new(data: PathBuf, categories: Categories, cldr: CldrSettings) -> Self {
        Fallback {
            data,
            categories,
            cldr,
            table: Mutex::new(None),
        }
    }

    /// Says at start, rather than at the first outage, whether the table
    /// could be built: the data file opens and reads, and CLDR's files of
    /// the locales asked for are there.
    pub fn check(&self) -> Result<(), OpenError> {
        let path = || self.data.clone();
        let mut file = std::fs::File::open(&self.data)
            .map_err(|source| DataError::Open {
                path: path(),
                source,
            })
            .map_err(OpenError::FallbackData)?;
        // Opening a directory succeeds; reading it does not.
        file.read(&mut [0; 1])
            .map_err(|source| DataError::Read {
                path: path(),
                source,
            })
            .map_err(OpenError::FallbackData)?;
        self.cldr.resolve()?;
        Ok(())
    }

    /// The in-process table, built on first use. `categories` are those of
    /// the Redis table last seen, if any, so both give the same slugs.
    pub async fn table(
        &self,
        categories: Option<Categories>,
    ) -> Result<Arc<MemoryTable>, OpenError> {
        let mut slot = self.table.lock().await;
        if let Some(table) = slot.as_ref() {
            return Ok(table.clone());
        }
        let categories = categories.unwrap_or_else(|| self.categories.clone());
        let table = MemoryTable::build(self.data.clone(), categories, self.cldr.clone()).await?;
        tracing::warn!(
            heap_bytes = table.heap_bytes(),
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
