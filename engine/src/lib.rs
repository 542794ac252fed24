//! slugd's engine: a pure function from a title, validated options and
//! the names of symbols to a URL slug, and the data it reads. The service
//! (the `slugd` crate: HTTP, Redis, the loader) builds on it; this crate
//! has no network and no async runtime in its dependency tree, which
//! `scripts/check.sh` checks with `cargo tree`.
//!
//! - [`slug`]: the engine, a pure function from title, options and symbol
//!   names to a slug.
//! - [`rules`]: what each rule version does, one table of named switches
//!   the engine asks by name.
//! - [`options`]: the slug options, raw (from a request, `--defaults` or
//!   the command line) and validated, with the check of each field;
//!   [`validate`]: the merge over the defaults, which needs the engine for
//!   the spelling of stopwords and fallbacks.
//! - [`locale`]: the `locale` option: CLDR's transform, word for `&` and
//!   fallback chain of a language, through ICU4X.
//! - [`cldr`]: CLDR's names of symbols and emoji sequences: reading the
//!   annotation files, the numbered key set with its longest match, and a
//!   request's view of a table's names along its locale's chain.
//! - [`membership`]: the bitmap with ranks that says which characters a
//!   table holds and which keys a locale names.
//! - [`memory`]: the in-process table, every name in the process's own
//!   memory (the service builds it off its async threads); [`stored`]:
//!   which names a table stores, and in what chunks.
//! - [`readers`]: every language or script read other than letter by
//!   letter, one module each, found through one table: Korean, Greek,
//!   the Cyrillic languages, Arabic, Amharic, Hindi, Thai, Lao, CLDR's
//!   script and locale transforms, and [`readers::japanese`] (IPADIC's
//!   readings, the reading of a title through a lookup of written forms,
//!   Hepburn without macrons).
//! - [`unicode_data`]: the streaming parser of UnicodeData.txt and the name
//!   trimming rule, shared by the loader and the in-process table;
//!   [`named`]: which characters and sequences a table names.
//! - [`builtin`]: the data built into the binary, so that it runs from any
//!   directory: UnicodeData.txt and CLDR's English files, and the default
//!   table already made.
//! - [`corpus`]: the sample titles shared by bench, benchmarks and tests.
//! - [`lines`]: bounded line reading; [`remembered`]: the bounded
//!   memories of romanized text.
//!
//! The data files it reads (UnicodeData.txt, CLDR's annotations, IPADIC's
//! sources) are read with `std` by the loader and the in-process table;
//! [`slug::slugify`] itself reads nothing.

pub mod builtin;
pub mod cldr;
pub mod corpus;
pub mod lines;
pub mod locale;
pub mod membership;
pub mod memory;
pub mod named;
pub mod options;
pub mod readers;
pub mod remembered;
pub mod rules;
pub mod slug;
pub mod stored;
pub mod unicode_data;
pub mod validate;
