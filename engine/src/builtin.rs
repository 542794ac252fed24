//! The data built into the binary, so that `slugd` runs from any directory
//! with no files beside it: the repository's `data/UnicodeData.txt` and
//! CLDR's two English annotation files, byte for byte, and the default
//! table already made from them.
//!
//! The files are what `--data` and `--cldr` read when they are not given:
//! the loader streams them, and an in-process table of other categories
//! is read from them, through the same readers as files on disk
//! ([`crate::unicode_data::DataSource`], [`crate::cldr::CldrDir`]).
//!
//! The default table (categories So, Sc and Sm, CLDR's English names) is
//! what almost every process reads, and making it from the files takes
//! tens of milliseconds: parsing 35,000 lines and 4,000 annotations and
//! romanizing every English name. So it is built in as well, already made,
//! as the Rust source of its arrays and strings (`data/default-table.rs`,
//! [`DEFAULT_TABLE`]): [`crate::memory`] reads it in place, so a start
//! decodes, hashes and copies nothing, and touches only the pages of the
//! names it looks up (`slugd slugify x` looks up none). It is derived
//! data, not a source: the unit test
//! `memory::tests::the_built_in_default_table_is_the_data_files`
//! fails when it differs from what the readers make of the files, and
//! rewrites it when run with `SLUGD_WRITE_DEFAULT_TABLE=1`. (A build script
//! cannot make it: the CLDR names become slug words by this crate's own
//! engine, which a build script of the same package cannot call.)

/// `data/UnicodeData.txt` (Unicode 15.0.0), as shipped in the repository.
pub const UNICODE_DATA: &[u8] = include_bytes!("../../data/UnicodeData.txt");

/// How errors and reports name [`UNICODE_DATA`].
pub const UNICODE_DATA_NAME: &str = "built-in data/UnicodeData.txt (Unicode 15.0.0)";

/// `data/cldr/annotations/en.xml` (CLDR 41).
pub const CLDR_ANNOTATIONS_EN: &[u8] = include_bytes!("../../data/cldr/annotations/en.xml");

/// `data/cldr/annotationsDerived/en.xml` (CLDR 41).
pub const CLDR_DERIVED_EN: &[u8] = include_bytes!("../../data/cldr/annotationsDerived/en.xml");

/// How errors and reports name the built-in CLDR files.
pub const CLDR_NAME: &str = "built-in data/cldr (CLDR 41, English only)";

/// The default table made from the files above, in the form
/// [`crate::memory`] reads in place: see the module doc.
pub static DEFAULT_TABLE: TableParts = include!("../../data/default-table.rs");

/// The text of [`DEFAULT_TABLE`]'s source, for the test that checks it
/// (a constant: only what uses it holds it).
pub const DEFAULT_TABLE_SOURCE: &str = include_str!("../../data/default-table.rs");

/// Where [`DEFAULT_TABLE`]'s source lives in the repository, for the test
/// that rewrites it.
pub const DEFAULT_TABLE_PATH: &str = "data/default-table.rs";

/// The built-in default table's parts: UnicodeData's names, CLDR's keys,
/// and CLDR's English names by key number.
#[derive(Debug)]
pub struct TableParts {
    /// UnicodeData's names, by code point.
    pub chars: StoreParts,
    /// CLDR's keys.
    pub keys: KeyParts,
    /// CLDR's English names, by key number.
    pub english: StoreParts,
    /// Those of them that read otherwise as written (`flag åland
    /// islands`), by key number: rules 4's `ascii: false`.
    pub english_written: StoreParts,
}

/// Names by number: [`crate::memory`]'s store, as arrays.
#[derive(Debug)]
pub struct StoreParts {
    /// The membership bitmap, 64 numbers a word.
    pub words: &'static [u64],
    /// Members before each word.
    pub ranks: &'static [u32],
    /// End offset in `names` of each member's name.
    pub ends: &'static [u32],
    /// The names back to back, in number order.
    pub names: &'static str,
}

/// CLDR's keys: `cldr::KeySet`, as arrays.
#[derive(Debug)]
pub struct KeyParts {
    /// The keys sorted, back to back.
    pub keys: &'static str,
    /// End offset in `keys` of each key.
    pub ends: &'static [u32],
    /// The bitmap of the first characters of keys of two characters or
    /// more.
    pub starts: &'static [u64],
    /// Characters in the longest key.
    pub longest: usize,
}
