//! Where a title becomes a slug: the pipeline every caller goes through
//! (`POST /slug`, `POST /slugs`, `GET /bench`, `slugd slugify`). The steps,
//! for a batch of titles:
//!
//! 1. **Pre-scan**: each title as the options rewrite it (replacements, a
//!    locale's romanization, [`slug::rewrite`]), once.
//! 2. **Names**: the table names the characters and emoji sequences of
//!    the rewritten titles it holds, UnicodeData's and CLDR's along the
//!    locale's fallback chain ([`slugd_engine::cldr::View`]). In-process that is
//!    a look-up in memory; on Redis, one round trip for the whole batch at
//!    most, and none when nothing is in the table or every name is in the
//!    name cache.
//! 3. **Fallback**: while Redis cannot be reached, `--on-redis-down memory`
//!    names them from an in-process table instead, and the answer is marked
//!    degraded. If that table cannot be built, the error is the outage with
//!    the reason as its cause.
//! 4. **Engine**: [`slug::slugify_rewritten`] turns each rewritten title
//!    (with the title it was rewritten from), its options and the names
//!    into a slug.
//!
//! Storage is below this file ([`crate::table`]), HTTP and the CLI above it.

use std::borrow::Cow;
use std::sync::Arc;

use crate::table::{Fallback, MemoryTable, RedisTable, SymbolTable, TableError};
use slugd_engine::locale::SlugLocale;
use slugd_engine::slug::{self, EmptySlug, NoSymbols, Options, SymbolNames};

/// Slugs titles with a table. Cheap to clone: clones share the table.
#[derive(Clone)]
pub struct Slugger {
    table: SymbolTable,
}

/// The slugs of a batch, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slugs {
    /// One per title; an error for a title with nothing to slug.
    pub slugs: Vec<Result<String, EmptySlug>>,
    /// Whether they came from the fallback table because Redis was down.
    pub degraded: bool,
}

impl Slugger {
    /// A slugger on `table`.
    pub fn new(table: SymbolTable) -> Self {
        Slugger { table }
    }

    /// The table it slugs with.
    pub fn table(&self) -> &SymbolTable {
        &self.table
    }

    /// Slugs each title. The error is the table failing (nothing was
    /// slugged); titles that have nothing to slug get an error each.
    pub async fn slugify_all<S: AsRef<str>>(
        &self,
        titles: &[S],
        options: &Options,
    ) -> Result<Slugs, TableError> {
        match &self.table {
            // In memory no names are asked for ahead: the engine rewrites
            // a title only when it needs to ([`slug::slugify`]).
            SymbolTable::InProcess(table) => Ok(Slugs {
                slugs: in_memory(table, titles, options),
                degraded: false,
            }),
            // Boxed: the Redis steps' state is kilobytes, which every
            // caller's future (the HTTP handler's, moved into a box of its
            // own and through each layer) would otherwise carry in-process
            // too.
            SymbolTable::Redis(table, fallback) => {
                Box::pin(from_redis(table, fallback.as_deref(), titles, options)).await
            }
        }
    }

    /// Slugs one title; the flag says whether the fallback table answered.
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

/// Steps 1 to 4 on Redis: the names of every rewritten title (and the
/// fallback's) in one round trip at most, from the in-process fallback
/// table while Redis is down with `--on-redis-down memory`.
async fn from_redis<S: AsRef<str>>(
    table: &RedisTable,
    fallback: Option<&Fallback>,
    titles: &[S],
    options: &Options,
) -> Result<Slugs, TableError> {
    let plain = |slugs| Slugs {
        slugs,
        degraded: false,
    };
    // Step 1: each title as the options rewrite it (replacements, a
    // locale's romanization), once: what is read for names is what the
    // engine slugs. After the titles, in the same vector, the fallback
    // as it would be rewritten, whose names are read too.
    let read: Vec<Cow<'_, str>> = titles
        .iter()
        .map(AsRef::as_ref)
        .chain(options.fallback.as_deref())
        .map(|t| slug::rewrite(t, options))
        .collect();
    let rewritten = &read[..titles.len()];
    let locale = options.locale.as_ref();
    // Japanese is read by the table's readings, and Persian, Urdu and
    // Arabic by its models of vowels, symbols or not.
    let japanese = options.reads_japanese();
    let vowels = options.reads_vowels();
    let kanji = locale.is_some_and(SlugLocale::is_japanese);
    // Scanned only when symbols are off.
    if !(options.symbols
        || (japanese
            && read
                .iter()
                .any(|t| slugd_engine::readers::japanese::is_japanese(t, kanji)))
        || (vowels
            && read
                .iter()
                .any(|t| slugd_engine::readers::vowels::has_letters(t))))
    {
        return Ok(plain(engine(titles, rewritten, options, &NoSymbols)));
    }
    match (table.names(&read, options).await, fallback) {
        (Ok(names), _) => {
            if let Some(fallback) = fallback {
                fallback.release();
            }
            Ok(plain(engine(titles, rewritten, options, &names.view())))
        }
        (Err(e), Some(fallback)) if e.is_outage() => {
            let live = table.live_version();
            // The outage is the error; why the fallback failed is its cause.
            let no_fallback = |cause| TableError::NoFallback {
                outage: Box::new(e),
                cause: Arc::new(cause),
            };
            let memory = fallback
                .table(live.as_ref().map(|v| &v.meta))
                .await
                .map_err(no_fallback)?;
            Ok(Slugs {
                slugs: in_memory(&memory, titles, options),
                degraded: true,
            })
        }
        (Err(e), _) => Err(e),
    }
}

/// Steps 1, 2 and 4 in memory, where the engine rewrites each title
/// itself ([`slug::slugify`]): the table seen through the locale's chain.
fn in_memory<S: AsRef<str>>(
    table: &MemoryTable,
    titles: &[S],
    options: &Options,
) -> Vec<Result<String, EmptySlug>> {
    let written = options.names_written();
    match &options.locale {
        None if !written => titles
            .iter()
            .map(|t| slug::slugify(t.as_ref(), options, table))
            .collect(),
        locale => {
            let chain = table.chain(locale.as_ref(), written);
            let view = table.view(&chain);
            titles
                .iter()
                .map(|t| slug::slugify(t.as_ref(), options, &view))
                .collect()
        }
    }
}

/// Step 4: the engine over each rewritten title (beside the title it
/// was rewritten from).
fn engine<S: AsRef<str>>(
    titles: &[S],
    rewritten: &[Cow<'_, str>],
    options: &Options,
    names: &impl SymbolNames,
) -> Vec<Result<String, EmptySlug>> {
    titles
        .iter()
        .zip(rewritten)
        .map(|(t, r)| slug::slugify_rewritten(t.as_ref(), r, options, names))
        .collect()
}
