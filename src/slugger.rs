//! Where a title becomes a slug: the pipeline every caller goes through
//! (`POST /slug`, `POST /slugs`, `GET /bench`, `slugd slugify`). The steps,
//! for a batch of titles:
//!
//! 1. **Pre-scan**: each title as the options rewrite it (replacements, a
//!    locale's romanization, [`slug::rewrite`]), once, and which of its
//!    characters may be table characters ([`slug::may_be_symbol`]); plain
//!    ASCII text never needs a name.
//! 2. **Names**: the table names those it holds. In-process that is a
//!    look-up in memory; on Redis, one round trip for the whole batch at
//!    most, and none when no character is in the table or every name is in
//!    the name cache.
//! 3. **Fallback**: while Redis cannot be reached, `--on-redis-down memory`
//!    names them from an in-process table instead, and the answer is marked
//!    degraded.
//! 4. **Engine**: [`slug::slugify_rewritten`] turns each rewritten title,
//!    its options and the names into a slug.
//!
//! Storage is below this file ([`crate::table`]), HTTP and the CLI above it.

use std::borrow::Cow;

use crate::slug::{self, EmptySlug, NoSymbols, Options, SymbolNames};
use crate::table::{SymbolTable, TableError};

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
        let plain = |slugs| Slugs {
            slugs,
            degraded: false,
        };
        // Step 1: each title as the options rewrite it (replacements, a
        // locale's romanization), once: what is read for names is what the
        // engine slugs.
        let titles: Vec<Cow<'_, str>> = titles
            .iter()
            .map(|t| slug::rewrite(t.as_ref(), options))
            .collect();
        let (table, fallback) = match &self.table {
            SymbolTable::InProcess(table) => {
                return Ok(plain(engine(&titles, options, table.as_ref())));
            }
            SymbolTable::Redis(table, fallback) => (table, fallback),
        };
        if !options.symbols {
            return Ok(plain(engine(&titles, options, &NoSymbols)));
        }
        // The characters of the rewritten titles, and of the fallback as
        // it would be rewritten.
        let fallback_title = options
            .fallback
            .as_deref()
            .map(|f| slug::rewrite(f, options));
        let candidates = titles
            .iter()
            .chain(fallback_title.iter())
            .flat_map(|t| t.chars())
            .filter(|&c| slug::may_be_symbol(c));
        match (table.names(candidates).await, fallback) {
            (Ok(names), _) => {
                if let Some(fallback) = fallback {
                    fallback.release();
                }
                Ok(plain(engine(&titles, options, &names)))
            }
            (Err(e), Some(fallback)) if e.is_outage() => {
                let categories = table.live_version().map(|v| v.meta.categories.clone());
                let memory = fallback.table(categories).await.map_err(|_| e)?;
                Ok(Slugs {
                    slugs: engine(&titles, options, memory.as_ref()),
                    degraded: true,
                })
            }
            (Err(e), _) => Err(e),
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

/// Step 4: the engine over each rewritten title.
fn engine(
    titles: &[Cow<'_, str>],
    options: &Options,
    names: &impl SymbolNames,
) -> Vec<Result<String, EmptySlug>> {
    titles
        .iter()
        .map(|t| slug::slugify_rewritten(t, options, names))
        .collect()
}
