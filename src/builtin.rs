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
//! romanizing every English name. So it is built in as well, already made:
//! [`DEFAULT_TABLE`], decoded by `table::memory` in well under a
//! millisecond. It is derived data, not a source: the unit test
//! `table::memory::tests::the_built_in_default_table_is_the_data_files`
//! fails when it differs from what the readers make of the files, and
//! rewrites it when run with `SLUGD_WRITE_DEFAULT_TABLE=1`. (A build script
//! cannot make it: the CLDR names become slug words by this crate's own
//! engine, which a build script of the same package cannot call.)

/// `data/UnicodeData.txt` (Unicode 15.0.0), as shipped in the repository.
pub const UNICODE_DATA: &[u8] = include_bytes!("../data/UnicodeData.txt");

/// How errors and reports name [`UNICODE_DATA`].
pub const UNICODE_DATA_NAME: &str = "built-in data/UnicodeData.txt (Unicode 15.0.0)";

/// `data/cldr/annotations/en.xml` (CLDR 41).
pub const CLDR_ANNOTATIONS_EN: &[u8] = include_bytes!("../data/cldr/annotations/en.xml");

/// `data/cldr/annotationsDerived/en.xml` (CLDR 41).
pub const CLDR_DERIVED_EN: &[u8] = include_bytes!("../data/cldr/annotationsDerived/en.xml");

/// How errors and reports name the built-in CLDR files.
pub const CLDR_NAME: &str = "built-in data/cldr (CLDR 41, English only)";

/// The default table made from the files above: see the module doc and
/// `table::memory` for its form.
pub const DEFAULT_TABLE: &str = include_str!("../data/default-table.txt");

/// Where [`DEFAULT_TABLE`] lives in the repository, for the test that
/// rewrites it.
pub const DEFAULT_TABLE_PATH: &str = "data/default-table.txt";
