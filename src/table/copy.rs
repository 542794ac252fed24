//! The in-process copy of a Redis table: what `/bench` measures the Redis
//! table against, and what `--on-redis-down memory` answers from while
//! Redis is down. One rule for both, so the copy names what the Redis
//! table names: the categories and locales of the Redis version last seen,
//! the locales only where the service's `--cldr` directory has their files
//! (a load from another directory may hold more); before Redis has answered
//! once, the service's own settings. Without `--data` and `--cldr` the
//! copy is made of the files built into the binary. A version with
//! Japanese readings is copied with the readings of `--ipadic`; a version
//! with models of vowels, with those models (the service holds them).

use std::path::PathBuf;

use super::error::OpenError;
use super::layout::Meta;
use super::memory;
use super::settings::TableSettings;
use slugd_engine::cldr::{CldrSettings, LocaleSelection};
use slugd_engine::memory::MemoryTable;
use slugd_engine::readers::vowels::Language;
use slugd_engine::unicode_data::{Categories, DataSource};

/// What a copy is built from besides the Redis version's meta.
#[derive(Debug, Clone)]
pub struct CopySource {
    /// UnicodeData.txt: `--data`, or the built-in copy.
    data: DataSource,
    /// The service's categories, for the time before Redis has answered.
    categories: Categories,
    /// The service's CLDR directory and locales.
    cldr: CldrSettings,
    /// IPADIC's directory: the copy of a version with Japanese readings
    /// reads them from it, and so does the copy made before Redis has
    /// answered when the service's `--locales` ask for them (`japanese`).
    ipadic: PathBuf,
    japanese: bool,
    /// The word lists of the models of vowels, for the copy made before
    /// Redis has answered, of the languages the service's `--locales` ask
    /// for.
    vowels: Vec<(Language, PathBuf)>,
    /// Where the models are prepared (`--cache-dir`).
    prepared: Option<PathBuf>,
}

impl CopySource {
    /// The source a service with `settings` builds copies from.
    pub fn new(settings: &TableSettings) -> Self {
        CopySource {
            data: settings.data.clone(),
            categories: settings.categories.clone(),
            cldr: settings.cldr.clone(),
            ipadic: settings.ipadic.clone(),
            japanese: settings.japanese,
            vowels: settings.vowels.clone(),
            prepared: settings.prepared.clone(),
        }
    }

    /// Builds the copy of the version whose meta is `live` (`None`: Redis
    /// has not answered yet), off the async threads.
    pub async fn build(&self, live: Option<&Meta>) -> Result<MemoryTable, OpenError> {
        let (categories, cldr) = match live {
            Some(meta) => (meta.categories.clone(), self.locales_of(meta)),
            None => (self.categories.clone(), self.cldr.clone()),
        };
        let mut table = memory::build(self.data.clone(), categories, cldr).await?;
        // A version loaded before names as written (rules 4) has none:
        // nor has its copy, so both answer alike.
        if live.is_some_and(|meta| meta.cldr.written.is_empty()) {
            table.drop_written();
        }
        let table = match live {
            // The version's Japanese readings, from --ipadic: without them
            // the copy would read Japanese otherwise than Redis does, so it
            // fails instead, whatever the reason.
            Some(meta) if meta.readings.any() => {
                let readings = memory::read_readings(self.ipadic.clone()).await?;
                table.with_readings(readings)
            }
            Some(_) => table,
            None => {
                memory::read_japanese(table, self.japanese.then_some(self.ipadic.as_path())).await?
            }
        };
        match live {
            Some(meta) => Ok(meta
                .vowels
                .iter()
                .fold(table, |table, model| table.with_vowels(model.clone()))),
            None => Ok(memory::read_vowels(table, &self.vowels, self.prepared.as_deref()).await?),
        }
    }

    /// Whether a copy could be built, without building one: the data file
    /// opens and reads (the built-in copy always does), and CLDR's files
    /// of the service's locales are there. For `--on-redis-down memory`,
    /// which would otherwise learn it at the first outage.
    pub fn check(&self) -> Result<(), OpenError> {
        self.data.check().map_err(OpenError::FallbackData)?;
        self.cldr.resolve()?;
        Ok(())
    }

    /// The locales of `meta` that the service's CLDR directory has.
    fn locales_of(&self, meta: &Meta) -> CldrSettings {
        let dir = &self.cldr.dir;
        CldrSettings {
            dir: dir.clone(),
            locales: LocaleSelection::List(
                meta.cldr
                    .locales
                    .tags()
                    .iter()
                    .filter(|t| dir.has(t))
                    .cloned()
                    .collect(),
            ),
            searched: self.cldr.searched.clone(),
        }
    }
}
