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
use slugd_engine::readers::vowels::Language;
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
    /// The languages whose models of vowels some title would be read by
    /// but the table does not hold (their words were read letter by
    /// letter), in the order of [`Language::ALL`]; mostly empty.
    pub not_loaded: Vec<Language>,
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
            SymbolTable::InProcess(table) => Ok(in_memory(table.get()?, titles, options, false)),
            // Boxed: the Redis steps' state is kilobytes, which every
            // caller's future (the HTTP handler's, moved into a box of its
            // own and through each layer) would otherwise carry in-process
            // too.
            SymbolTable::Redis(table, fallback) => {
                Box::pin(from_redis(table, fallback.as_deref(), titles, options)).await
            }
        }
    }

    /// The languages some of `titles` would be read by whose models of
    /// vowels the table does not hold (on Redis, the version in use; none
    /// known before Redis has answered), without slugging them: for
    /// answers that slug otherwise, such as reservations.
    pub fn not_loaded<S: AsRef<str>>(&self, titles: &[S], options: &Options) -> Vec<Language> {
        match &self.table {
            SymbolTable::InProcess(table) => match table.get() {
                Ok(table) => not_loaded(titles, options, &**table),
                Err(_) => Vec::new(),
            },
            SymbolTable::Redis(table, _) => match table.live_version() {
                Some(version) => {
                    missing_models(titles, options, |l| version.meta.vowels.get(l).is_some())
                }
                None => Vec::new(),
            },
        }
    }

    /// Slugs one title: [`Slugger::slugify_all`] of one.
    pub async fn slugify(&self, title: &str, options: &Options) -> Result<Slugs, TableError> {
        self.slugify_all(&[title], options).await
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
        return Ok(engine(titles, rewritten, options, &NoSymbols));
    }
    match (table.names(&read, options).await, fallback) {
        (Ok(names), _) => {
            if let Some(fallback) = fallback {
                fallback.release();
            }
            Ok(engine(titles, rewritten, options, &names.view()))
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
            Ok(in_memory(&memory, titles, options, true))
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
    degraded: bool,
) -> Slugs {
    let written = options.names_written();
    let each = |names: &dyn Fn(&str) -> Result<String, EmptySlug>| {
        titles.iter().map(|t| names(t.as_ref())).collect()
    };
    match &options.locale {
        None if !written => Slugs {
            slugs: each(&|t| slug::slugify(t, options, table)),
            degraded,
            not_loaded: not_loaded(titles, options, table),
        },
        locale => {
            let chain = table.chain(locale.as_ref(), written);
            let view = table.view(&chain);
            Slugs {
                slugs: each(&|t| slug::slugify(t, options, &view)),
                degraded,
                not_loaded: not_loaded(titles, options, &view),
            }
        }
    }
}

/// The languages some of `titles` would be read by whose models `names`
/// does not hold ([`slug::reading_not_loaded`]), each once, in the order of
/// [`Language::ALL`].
fn not_loaded<S: AsRef<str>>(
    titles: &[S],
    options: &Options,
    names: &impl SymbolNames,
) -> Vec<Language> {
    missing_models(titles, options, |l| names.vowels(l).is_some())
}

/// [`not_loaded`], with whether the table holds each model.
fn missing_models<S: AsRef<str>>(
    titles: &[S],
    options: &Options,
    has_model: impl Fn(Language) -> bool + Copy,
) -> Vec<Language> {
    if !options.reads_vowels() {
        return Vec::new();
    }
    let mut missing = [false; Language::ALL.len()];
    for title in titles {
        if let Some(language) = slug::reading_not_loaded(title.as_ref(), options, has_model) {
            missing[language as usize] = true;
        }
    }
    Language::ALL
        .into_iter()
        .filter(|&l| missing[l as usize])
        .collect()
}

/// Step 4: the engine over each rewritten title (beside the title it
/// was rewritten from).
fn engine<S: AsRef<str>>(
    titles: &[S],
    rewritten: &[Cow<'_, str>],
    options: &Options,
    names: &impl SymbolNames,
) -> Slugs {
    Slugs {
        slugs: titles
            .iter()
            .zip(rewritten)
            .map(|(t, r)| slug::slugify_rewritten(t.as_ref(), r, options, names))
            .collect(),
        degraded: false,
        not_loaded: not_loaded(titles, options, names),
    }
}
