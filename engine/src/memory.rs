//! The in-process symbol table: every name in the process's own memory,
//! UnicodeData's and CLDR's in the locales of `--locales`, built at
//! start-up (or on demand, for `/bench` and the fallback; the service
//! reads it off its async threads, `slugd::table`).
//!
//! The layout is compact and needs no hashing: the membership bitmap of
//! [`super::layout`], a running count of members per bitmap word, and all
//! names in one string with an end offset per member. A look-up is a bit
//! test, a popcount and a slice. For UnicodeData's names this is about
//! 240 kB of heap, against several megabytes for a map of owned strings;
//! CLDR's English names and key set bring it to about 600 kB, every
//! locale to about 14 MB.
//!
//! The default table (UnicodeData's names of So, Sc and Sm and CLDR's
//! English names, from the built-in files) is built into the binary
//! already made, as Rust source of its arrays and strings
//! ([`MemoryTable::to_source`]): [`MemoryTable::built_in`] reads it in
//! place, with nothing to decode, hash or copy, which is what makes
//! start-up fast (see [`crate::builtin`]); a process touches only the
//! pages of the names it looks up.

use std::borrow::Cow;
use std::fmt::Write;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::Arc;

use crate::builtin;
use crate::cldr::{
    self, Chain, CldrDir, CldrError, CldrSettings, ENGLISH, KeySet, Locales, NameSource, View,
};
use crate::locale::SlugLocale;
use crate::membership::Membership;
use crate::readers::japanese::{Reading, SortedReadings};
use crate::readers::vowels::{Language, VowelModel, VowelModels};
use crate::slug::SymbolNames;
use crate::unicode_data::{Categories, DataError, DataSource, Entry, Reader};

/// Why a table could not be read from its files.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// UnicodeData's file is unusable.
    #[error(transparent)]
    Data(#[from] DataError),
    /// CLDR's files are unusable.
    #[error(transparent)]
    Cldr(#[from] CldrError),
}

/// The whole table in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryTable {
    /// UnicodeData's names, by code point.
    chars: Store,
    /// CLDR's, by key and locale.
    cldr: CldrNames,
    /// IPADIC's Japanese readings, when `ja` is among the locales and the
    /// dictionary was found; shared by the clones.
    readings: Option<Arc<SortedReadings>>,
    /// The models of Persian's, Urdu's and Arabic's vowels, when `fa`,
    /// `ur` or `ar` is among the locales and they could be made; shared by
    /// the clones.
    vowels: VowelModels,
}

/// CLDR's names in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct CldrNames {
    keys: KeySet,
    locales: Locales,
    /// One store per locale slot, by key number: the romanized names of
    /// each locale, then (slot + the number of locales) the names that
    /// read otherwise as written ([`cldr::LocaleNames`]).
    names: Vec<Store>,
}

impl CldrNames {
    /// The offset of the written names' slots, if there are any.
    fn written(&self) -> Option<u16> {
        let n = self.locales.len();
        (n > 0 && self.names.len() == 2 * n).then_some(n as u16)
    }
}

/// Names by number (a code point, or a CLDR key's number), compactly:
/// the membership bitmap of [`super::layout`], a running count of members
/// per bitmap word, and all names in one string with an end offset per
/// member. A look-up is a bit test, a popcount and a slice. Each part is
/// built here or borrowed from the binary (the built-in table's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Store {
    members: Membership,
    /// Members before each bitmap word, so a member's index is a popcount.
    ranks: Cow<'static, [u32]>,
    /// End offset in `names` of each member's name, in number order.
    ends: Cow<'static, [u32]>,
    /// All names back to back.
    names: Cow<'static, str>,
}

impl Store {
    /// From names sorted by number, without duplicates.
    fn from_sorted<'a>(entries: impl Iterator<Item = (u32, &'a str)>) -> Self {
        let mut members = Membership::default();
        let mut names = String::new();
        let mut ends = Vec::new();
        for (i, name) in entries {
            members.insert_index(i);
            names.push_str(name);
            ends.push(names.len() as u32);
        }
        members.shrink_to_fit();
        names.shrink_to_fit();
        ends.shrink_to_fit();
        Store {
            ranks: Cow::Owned(members.ranks()),
            members,
            ends: Cow::Owned(ends),
            names: Cow::Owned(names),
        }
    }

    /// The store of `parts`, read in place.
    const fn borrowed(parts: &builtin::StoreParts) -> Self {
        Store {
            members: Membership::borrowed(parts.words),
            ranks: Cow::Borrowed(parts.ranks),
            ends: Cow::Borrowed(parts.ends),
            names: Cow::Borrowed(parts.names),
        }
    }

    /// The store as a [`builtin::StoreParts`] expression.
    fn to_source(&self, out: &mut String) {
        out.push_str("StoreParts {\n        words: &[");
        for (i, w) in self.members.words().iter().enumerate() {
            let _ = write!(out, "{}{w:#x},", if i % 8 == 0 { "\n" } else { " " });
        }
        out.push_str("\n],\n        ranks: &");
        numbers(out, &self.ranks);
        out.push_str(",\n        ends: &");
        numbers(out, &self.ends);
        let _ = write!(out, ",\n        names: {:?},\n    }}", &*self.names);
    }

    #[inline]
    fn get(&self, i: u32) -> Option<&str> {
        if !self.members.contains_index(i) {
            return None;
        }
        Some(self.name_of_member(i))
    }

    /// The name of member `i`. Kept out of line so that [`Store::get`]
    /// stays small enough to inline.
    #[inline(never)]
    fn name_of_member(&self, i: u32) -> &str {
        let r = self.members.rank(&self.ranks, i);
        let start = if r == 0 { 0 } else { self.ends[r - 1] as usize };
        &self.names[start..self.ends[r] as usize]
    }

    /// Bytes the store takes: on the heap (it is built shrunk to fit),
    /// or in the binary for the built-in table's.
    fn heap_bytes(&self) -> usize {
        self.members.heap_bytes() + self.ranks.len() * 4 + self.ends.len() * 4 + self.names.len()
    }
}

impl MemoryTable {
    /// Reads UnicodeData's names from a file, with no CLDR names.
    pub fn from_file(path: &Path, categories: &Categories) -> Result<Self, DataError> {
        let file = File::open(path).map_err(|e| DataError::open(path, e))?;
        Self::from_reader(path, BufReader::new(file), categories)
    }

    /// The table a service reads by default, from the data files of a
    /// checkout at `root`: UnicodeData's names of the default categories
    /// and CLDR's English names. For benchmarks and tests.
    pub fn shipped(root: &Path) -> Result<Self, BuildError> {
        let mut table =
            Self::from_file(&root.join("data/UnicodeData.txt"), &Categories::default())?;
        table.read_cldr(&CldrSettings {
            dir: root.join(cldr::DEFAULT_DIR).into(),
            ..CldrSettings::default()
        })?;
        Ok(table)
    }

    /// Whether `data`, `categories` and `cldr` make the default table,
    /// which [`MemoryTable::built_in`] has already made.
    pub fn is_built_in(
        data: &DataSource,
        categories: &Categories,
        cldr: &CldrSettings,
    ) -> Result<bool, CldrError> {
        Ok(*data == DataSource::BuiltIn
            && *categories == Categories::default()
            && cldr.dir == CldrDir::BuiltIn
            && cldr.resolve()? == [ENGLISH])
    }

    /// Reads the table from `data` and `cldr`'s files, always: what the
    /// service does for any table but the default one.
    pub fn read(
        data: &DataSource,
        categories: &Categories,
        cldr: &CldrSettings,
    ) -> Result<Self, BuildError> {
        let mut table = Self::from_reader(data.path(), data.open()?, categories)?;
        table.read_cldr(cldr)?;
        Ok(table)
    }

    /// The default table, read in place from its built-in form: the
    /// same table [`MemoryTable::read`] makes of the built-in files with
    /// the default categories and English, as a unit test checks. Nothing
    /// is decoded or copied: the arrays and strings are the binary's.
    pub fn built_in() -> Self {
        let parts = &builtin::DEFAULT_TABLE;
        let keys = &parts.keys;
        MemoryTable {
            chars: Store::borrowed(&parts.chars),
            cldr: CldrNames {
                keys: KeySet::borrowed(keys.keys, keys.ends, keys.starts, keys.longest),
                locales: Locales::new(vec![ENGLISH.to_owned()]),
                names: vec![
                    Store::borrowed(&parts.english),
                    Store::borrowed(&parts.english_written),
                ],
            },
            readings: None,
            vowels: VowelModels::default(),
        }
    }

    /// The table as the Rust expression of [`builtin::DEFAULT_TABLE`]
    /// (its arrays and strings), if it is a default table: UnicodeData's
    /// names and CLDR's in English alone. The unit test
    /// `the_built_in_default_table_is_the_data_files` writes it.
    pub fn to_source(&self) -> Option<String> {
        let [english, english_written] = &self.cldr.names[..] else {
            return None;
        };
        if self.cldr.locales.tags() != [ENGLISH] {
            return None;
        }
        let mut out = String::from(SOURCE_HEADER);
        out.push_str("TableParts {\n    chars: ");
        self.chars.to_source(&mut out);
        let (keys, ends, starts, longest) = self.cldr.keys.parts();
        out.push_str(",\n    keys: KeyParts {\n        keys: ");
        let _ = write!(out, "{keys:?},\n        ends: &");
        numbers(&mut out, ends);
        out.push_str(",\n        starts: &[");
        for (i, w) in starts.iter().enumerate() {
            let _ = write!(out, "{}{w:#x},", if i % 8 == 0 { "\n" } else { " " });
        }
        let _ = write!(
            out,
            "\n],\n        longest: {longest},\n    }},\n    english: "
        );
        english.to_source(&mut out);
        out.push_str(",\n    english_written: ");
        english_written.to_source(&mut out);
        out.push_str(",\n}\n");
        Some(out)
    }

    /// Reads UnicodeData.txt text; `path` names it in errors.
    pub fn from_reader(
        path: &Path,
        input: impl BufRead,
        categories: &Categories,
    ) -> Result<Self, DataError> {
        let mut bad = DataError::collector(path);
        let mut entries: Vec<Entry> = Vec::new();
        for item in Reader::new(input, categories.clone()) {
            match item {
                Ok(entry) => entries.push(entry),
                Err(e) => bad.add(e)?,
            }
        }
        bad.finish()?;
        entries.sort_unstable_by_key(|e| e.ch);
        Ok(MemoryTable {
            chars: Store::from_sorted(entries.iter().map(|e| (e.ch as u32, e.name.as_str()))),
            cldr: CldrNames::default(),
            readings: None,
            vowels: VowelModels::default(),
        })
    }

    /// Reads CLDR's names of `settings`' locales (English always), in two
    /// passes over the files: the keys, then each locale's names.
    pub fn read_cldr(&mut self, settings: &CldrSettings) -> Result<(), CldrError> {
        let tags = settings.resolve()?;
        let keys = cldr::collect_keys(&settings.dir, &tags)?;
        let store = |entries: &[(u32, String)]| {
            Store::from_sorted(
                entries
                    .iter()
                    .filter(|(_, n)| crate::stored::stored(n))
                    .map(|(i, n)| (*i, n.as_str())),
            )
        };
        let mut names = Vec::with_capacity(2 * tags.len());
        let mut written = Vec::with_capacity(tags.len());
        for tag in &tags {
            let entries = cldr::locale_names(&settings.dir, tag, &keys)?;
            names.push(store(&entries.romanized));
            written.push(store(&entries.written));
        }
        names.extend(written);
        self.cldr = CldrNames {
            keys,
            locales: Locales::new(tags),
            names,
        };
        Ok(())
    }

    /// The number of characters UnicodeData names.
    pub fn len(&self) -> usize {
        self.chars.ends.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.chars.ends.is_empty()
    }

    /// The table with IPADIC's Japanese readings.
    pub fn with_readings(mut self, readings: SortedReadings) -> Self {
        self.readings = Some(Arc::new(readings));
        self
    }

    /// The Japanese readings held, if any.
    pub fn readings(&self) -> Option<&SortedReadings> {
        self.readings.as_deref()
    }

    /// The table with a model of a language's vowels (in place of one it
    /// has of the language).
    pub fn with_vowels(mut self, model: Arc<VowelModel>) -> Self {
        self.vowels = self.vowels.with(model);
        self
    }

    /// The CLDR names held, over every locale.
    pub fn cldr_names(&self) -> usize {
        let locales = self.cldr.locales.len();
        self.cldr.names[..locales]
            .iter()
            .map(|s| s.ends.len())
            .sum()
    }

    /// The locales whose CLDR names it holds.
    pub fn locales(&self) -> &Locales {
        &self.cldr.locales
    }

    /// Heap bytes held by the table.
    pub fn heap_bytes(&self) -> usize {
        self.chars.heap_bytes()
            + self.cldr.keys.heap_bytes()
            + self.cldr.names.iter().map(Store::heap_bytes).sum::<usize>()
            + self.readings().map_or(0, SortedReadings::heap_bytes)
            + self.vowels.heap_bytes()
    }

    /// Leaves out the names as written, as a table loaded before them
    /// had none (the copy of such a Redis version).
    pub fn drop_written(&mut self) {
        let locales = self.cldr.locales.len();
        self.cldr.names.truncate(locales);
    }

    /// The names a request with `locale` reads; with `written`, the
    /// names as the locale writes them first ([`Chain::new`]).
    pub fn chain(&self, locale: Option<&SlugLocale>, written: bool) -> Chain {
        let offset = self.cldr.written().filter(|_| written);
        Chain::new(locale, &self.cldr.locales, offset)
    }

    /// The table seen through `chain`.
    pub fn view<'a>(&'a self, chain: &'a Chain) -> View<'a, Self> {
        View {
            source: self,
            keys: &self.cldr.keys,
            chain,
        }
    }

    /// Every entry UnicodeData names, in code point order.
    pub fn entries(&self) -> impl Iterator<Item = (char, &str)> {
        self.chars
            .members
            .indexes()
            .filter_map(|i| Some((char::from_u32(i)?, self.chars.name_of_member(i))))
    }
}

impl NameSource for MemoryTable {
    #[inline]
    fn char_name(&self, c: char) -> Option<&str> {
        self.chars.get(c as u32)
    }

    #[inline]
    fn cldr_name(&self, slot: u16, key: u32) -> Option<&str> {
        self.cldr.names.get(slot as usize)?.get(key)
    }

    #[inline]
    fn has_readings(&self) -> bool {
        self.readings.is_some()
    }

    fn reading(&self, form: &str) -> Option<Reading> {
        self.readings.as_ref()?.get(form)
    }

    #[inline]
    fn vowels(&self, language: Language) -> Option<&VowelModel> {
        self.vowels.get(language)
    }
}

/// The first lines of [`MemoryTable::to_source`]'s form.
const SOURCE_HEADER: &str = "// slugd's default in-process table, made by slugd from data/UnicodeData.txt (So,Sc,Sm)\n// and data/cldr (en) as the Rust source of its arrays; do not edit: see engine/src/builtin.rs\n";

/// `numbers` as a Rust array expression, 16 a line.
fn numbers(out: &mut String, numbers: &[u32]) {
    out.push('[');
    for (i, n) in numbers.iter().enumerate() {
        let _ = write!(out, "{}{n},", if i % 16 == 0 { "\n" } else { " " });
    }
    out.push_str("\n]");
}

/// The table without a locale: UnicodeData's names, and English CLDR
/// names for emoji sequences.
impl SymbolNames for MemoryTable {
    /// The engine asks about every non-ASCII character and most are not
    /// members: the bit test is inlined into the caller, and only members
    /// pay for a call.
    #[inline]
    fn name(&self, c: char) -> Option<&str> {
        self.chars.get(c as u32)
    }

    #[inline]
    fn sequence(&self, text: &str) -> Option<(usize, &str)> {
        let (key, len) = self.cldr.keys.longest(text)?;
        let english = self.cldr.names.first()?;
        english.get(key).map(|name| (len, name))
    }

    #[inline]
    fn may_start_sequence(&self, c: char) -> bool {
        self.cldr.keys.may_start(c)
    }

    #[inline]
    fn sequence_floor(&self) -> u32 {
        self.cldr.keys.floor()
    }

    #[inline]
    fn has_readings(&self) -> bool {
        self.readings.is_some()
    }

    fn reading(&self, form: &str) -> Option<Reading> {
        NameSource::reading(self, form)
    }

    #[inline]
    fn vowels(&self, language: Language) -> Option<&VowelModel> {
        self.vowels.get(language)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_characters_and_reports_its_size() {
        let text = "2622;RADIOACTIVE SIGN;So;0;ON;;;;;N;;;;;\n\
                    2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n\
                    1F984;UNICORN FACE;So;0;ON;;;;;N;;;;;\n";
        let table =
            MemoryTable::from_reader(Path::new("t.txt"), text.as_bytes(), &Categories::default())
                .unwrap();
        assert_eq!(table.len(), 3);
        assert_eq!(table.name('☃'), Some("snowman"));
        assert_eq!(table.name('☢'), Some("radioactive"));
        assert_eq!(table.name('🦄'), Some("unicorn face"));
        assert_eq!(table.name('a'), None);
        assert_eq!(table.name('☄'), None);
        assert!(table.heap_bytes() >= "snowmanradioactiveunicorn face".len());
        let all: Vec<_> = table.entries().collect();
        assert_eq!(
            all,
            vec![
                ('☃', "snowman"),
                ('☢', "radioactive"),
                ('🦄', "unicorn face")
            ]
        );
    }

    /// The built-in default table is what the readers make of the
    /// built-in files; `SLUGD_WRITE_DEFAULT_TABLE=1` rewrites its source
    /// after a change to the files or to how names are made (then
    /// rebuild, and commit the file).
    #[test]
    fn the_built_in_default_table_is_the_data_files() {
        let read = MemoryTable::read(
            &DataSource::BuiltIn,
            &Categories::default(),
            &CldrSettings::default(),
        )
        .unwrap();
        let source = read
            .to_source()
            .expect("the default table has English alone");
        if std::env::var_os("SLUGD_WRITE_DEFAULT_TABLE").is_some() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(builtin::DEFAULT_TABLE_PATH);
            std::fs::write(&path, &source).unwrap();
            eprintln!("wrote {}: rebuild and commit it", path.display());
            return;
        }
        assert!(
            source == builtin::DEFAULT_TABLE_SOURCE,
            "{} is not what the data files give: run `SLUGD_WRITE_DEFAULT_TABLE=1 cargo test -p slugd-engine built_in_default_table`, then rebuild and commit it",
            builtin::DEFAULT_TABLE_PATH
        );
        let built_in = MemoryTable::built_in();
        assert!(built_in == read, "the built-in form gives another table");
        assert_eq!(built_in.heap_bytes(), read.heap_bytes());
        assert_eq!(built_in.len(), 7616);
        assert_eq!(built_in.name('☃'), Some("snowman"));
        assert_eq!(built_in.sequence("🇩🇪"), Some(("🇩🇪".len(), "flag germany")));
        // Every name and key the files give, looked up in the built-in form.
        for (c, name) in read.entries() {
            assert_eq!(built_in.name(c), Some(name));
        }
        let (keys, _, _, _) = read.cldr.keys.parts();
        assert_eq!(built_in.cldr.keys.parts().0, keys);
        for (i, key) in read.cldr.keys.encode().lines().enumerate() {
            assert_eq!(built_in.cldr.keys.get(key), Some(i as u32));
            assert_eq!(built_in.cldr_name(0, i as u32), read.cldr_name(0, i as u32));
        }
        // The files themselves are the repository's.
        let file = |p: &str| {
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(p)).unwrap()
        };
        assert!(file("data/UnicodeData.txt") == builtin::UNICODE_DATA);
        assert!(file("data/cldr/annotations/en.xml") == builtin::CLDR_ANNOTATIONS_EN);
        assert!(file("data/cldr/annotationsDerived/en.xml") == builtin::CLDR_DERIVED_EN);
    }

    #[test]
    fn only_a_default_table_has_a_source_form() {
        let text = "2622;RADIOACTIVE SIGN;So;0;ON;;;;;N;;;;;\n2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n";
        let table =
            MemoryTable::from_reader(Path::new("t.txt"), text.as_bytes(), &Categories::default())
                .unwrap();
        // No CLDR names at all: not the default table's shape.
        assert_eq!(table.to_source(), None);
    }

    #[test]
    fn bad_lines_are_named_by_file_and_line() {
        let text = "2603;SNOWMAN;So;0;ON;;;;;N;;;;;\nXYZ;BAD;So;0;ON;;;;;N;;;;;\n";
        let err = MemoryTable::from_reader(
            Path::new("data/U.txt"),
            text.as_bytes(),
            &Categories::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "data/U.txt:2: code point 'XYZ' is not hexadecimal"
        );
    }
}
