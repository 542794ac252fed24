//! The in-process table as the service builds it: the table itself
//! ([`MemoryTable`]) is the engine's, pure; this file reads it, IPADIC's
//! readings and the models of Persian's, Urdu's and Arabic's vowels, on
//! a blocking thread, off the async threads, and says when Japanese,
//! Persian, Urdu or Arabic is read without them.

use std::path::{Path, PathBuf};

use super::error::OpenError;
use super::vowels::VowelsError;
use slugd_engine::cldr::CldrSettings;
use slugd_engine::memory::MemoryTable;
use slugd_engine::readers::japanese::{IpadicError, SortedReadings};
use slugd_engine::readers::vowels::Language;
use slugd_engine::unicode_data::{Categories, DataSource};

/// The table of `data`'s names of `categories` and CLDR's of `cldr`'s
/// locales. The default table from the built-in files is read in place
/// from its built-in form ([`MemoryTable::built_in`]); any other is read
/// on a blocking thread: tens of milliseconds for the repository's
/// files, seconds for every locale.
pub(super) async fn build(
    data: DataSource,
    categories: Categories,
    cldr: CldrSettings,
) -> Result<MemoryTable, OpenError> {
    if MemoryTable::is_built_in(&data, &categories, &cldr)? {
        return Ok(MemoryTable::built_in());
    }
    let table = tokio::task::spawn_blocking(move || MemoryTable::read(&data, &categories, &cldr))
        .await
        .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))?;
    Ok(table)
}

/// IPADIC's readings in `dir` as the tables hold them
/// ([`slugd_engine::readers::japanese::read_sorted`]), read on a blocking thread (a second
/// or two, tens of MB meanwhile).
pub(super) async fn read_readings(dir: PathBuf) -> Result<SortedReadings, IpadicError> {
    tokio::task::spawn_blocking(move || slugd_engine::readers::japanese::read_sorted(&dir))
        .await
        .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))
}

/// The table with IPADIC's Japanese readings from `dir`, when given,
/// read on a blocking thread (a second or two) ([`japanese_readings`]).
pub(super) async fn read_japanese(
    table: MemoryTable,
    dir: Option<&Path>,
) -> Result<MemoryTable, IpadicError> {
    Ok(match japanese_readings(dir).await? {
        Some(readings) => table.with_readings(readings),
        None => table,
    })
}

/// IPADIC's Japanese readings from `dir`, when given, read on a blocking
/// thread (a second or two). Without the dictionary (or with one that
/// holds no reading) a warning says how to get it, and there are none:
/// Japanese is read as by rules 2. A dictionary that cannot be read is an
/// error, as for the loader.
pub(super) async fn japanese_readings(
    dir: Option<&Path>,
) -> Result<Option<SortedReadings>, IpadicError> {
    let Some(dir) = dir.map(Path::to_owned) else {
        return Ok(None);
    };
    match read_readings(dir).await {
        Ok(readings) if !readings.is_empty() => {
            tracing::info!(
                forms = readings.len(),
                bytes = readings.heap_bytes(),
                "Japanese readings ready"
            );
            Ok(Some(readings))
        }
        Ok(_) => {
            tracing::warn!("IPADIC's files hold no reading: Japanese is read as by rules 2");
            Ok(None)
        }
        Err(e @ IpadicError::Missing { .. }) => {
            tracing::warn!(
                error = %e,
                "no Japanese readings: Japanese is read as by rules 2; to read it as Japanese: {}",
                slugd_engine::readers::japanese::ipadic::HOW_TO_GET
            );
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The table with the models of vowels of `languages`, each from its
/// word list, read from its prepared file in `cache` when there is one
/// ([`prepared::build_all`]: a missing package is a warning).
pub(super) async fn read_vowels(
    table: MemoryTable,
    languages: &[(Language, PathBuf)],
    cache: Option<&Path>,
) -> Result<MemoryTable, VowelsError> {
    Ok(super::prepared::build_all(languages, cache)
        .await?
        .iter()
        .fold(table, |table, model| table.with_vowels(model.clone())))
}
