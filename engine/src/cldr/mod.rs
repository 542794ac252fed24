//! CLDR's names for symbols and emoji (`common/annotations/*.xml` and
//! `common/annotationsDerived/*.xml`, the `type="tts"` names), in as many
//! locales as are asked for, and what a table needs to use them:
//!
//! - [`read`]: streams one locale's two files into (key, name) pairs, the
//!   name already made slug words by the locale's own rules;
//! - [`keys`]: the set of keys (a symbol, or an emoji sequence of several
//!   code points) with one number each, and the longest-match look-up the
//!   engine and the pipeline share;
//! - [`view`]: one request's names: the locale's CLDR fallback chain over
//!   a table's CLDR names, then UnicodeData's;
//! - [`files`]: `--cldr` and `--locales`, the files of a locale, and the
//!   errors; [`locales`]: a table's locales and their slots.
//!
//! This file only names the parts; none of them imports it.
//!
//! What is loaded is chosen by [`CldrSettings`]: a directory laid out as
//! CLDR's `common/` (`--cldr`; without it, the English files of the
//! repository's `data/cldr`, built into the binary: [`CldrDir`]) and a
//! list of locales (`--locales`). English
//! is always loaded: without a locale, emoji sequences that UnicodeData
//! cannot name (flags, keycaps, ZWJ and skin-tone sequences) get their
//! English CLDR names.

mod files;
mod keys;
mod locales;
mod read;
mod view;

pub use self::files::{
    CldrDir, CldrError, CldrSettings, DEBIAN_DIR, DEFAULT_DIR, LocaleSelection, annotations_file,
    derived_file,
};
pub use self::keys::KeySet;
pub use self::locales::{ENGLISH, Locales};
pub use self::read::{
    LocaleNames, collect_keys, for_each_name, locale_names, slug_name, written_name,
};
pub use self::view::{Chain, NameSource, View};
