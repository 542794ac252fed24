//! Japanese read as Japanese: kanji and kana read by IPADIC's
//! readings and written in Hepburn as URLs write it, `東京タワーへようこそ`
//! `tokyo tawa e yokoso`, instead of as Chinese.
//!
//! This module owns the parts that need neither Redis nor HTTP:
//!
//! - [`ipadic`]: the streaming reader of IPADIC's CSV sources (EUC-JP)
//!   and their reduction to one reading per written form, the lowest-cost
//!   entry's, with its compact form (sorted `surface\tvalue` lines, also
//!   the fields and values of one Redis hash).
//! - [`reading`]: a title cut into words by ICU4X's segmenter and read
//!   through a lookup of written forms, in two steps for one round trip:
//!   the keys a title needs, then the words from what was found.
//! - [`hepburn`]: kana to Hepburn without macrons, long vowels folded.
//! - [`kind`]: the kind of entry a reading is from (particle, verb,
//!   auxiliary, other).
//! - [`sorted`]: the readings held in process as sorted lines, looked up
//!   by binary search.
//!
//! What the table, loader and engine take from here: `slugd load` writes
//! [`read_for_table`]'s forms into buckets of the table version
//! (`crate::table::layout`), written form to [`Reading::encode_into`]'s
//! value; a Redis request sends the [`keys_needed`] of each Japanese
//! title ([`is_japanese`], its [`read_part`]) in the pipeline it already
//! makes (one round trip), and the engine reads the title
//! ([`read_to_string`]) through what came back; the in-process table
//! holds [`read_sorted`]'s [`SortedReadings`]. Without the data
//! `read_dir` fails with [`IpadicError::Missing`], which says how to get
//! it.

/// The languages whose `locale` (along its fallback chain) reads Han as
/// Japanese: the Japanese row of the readers' table
/// (`crate::readers::READERS`), and what `crate::locale::SlugLocale::is_japanese`
/// asks.
pub const LOCALES: &[&str] = &["ja"];

pub mod hepburn;
pub mod ipadic;
pub mod kind;
pub mod reading;
pub mod sorted;

pub use ipadic::{IpadicError, Readings, read_dir, read_for_table};
pub use kind::Kind;
pub use reading::{
    MAX_READ_BYTES, Reading, Word, is_japanese, is_kana, keys_needed, read, read_part,
    read_to_string,
};
pub use sorted::SortedReadings;

/// The readings a table holds ([`read_for_table`]), as [`SortedReadings`].
pub fn read_sorted(dir: &std::path::Path) -> Result<SortedReadings, IpadicError> {
    let readings = read_for_table(dir)?;
    Ok(SortedReadings::new(readings.compact())
        .expect("read_dir keeps each written form once, sorted by its bytes"))
}
