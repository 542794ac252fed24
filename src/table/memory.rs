//! The in-process symbol table: every name in the service's own memory,
//! UnicodeData's and CLDR's in the locales of `--locales`, built at
//! start-up (or on demand, for `/bench` and the fallback).
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
//! already made, in the text form of [`MemoryTable::encode`]:
//! [`MemoryTable::built_in`] decodes it instead of reading the files,
//! which is what makes start-up fast (see [`crate::builtin`]).

use std::fmt::Write;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use super::error::OpenError;
use super::layout::MAX_NAME_BYTES;
use crate::builtin;
use crate::cldr::{
    self, Chain, CldrDir, CldrError, CldrSettings, ENGLISH, KeySet, Locales, NameSource, View,
};
use crate::locale::SlugLocale;
use crate::membership::Membership;
use crate::slug::SymbolNames;
use crate::unicode_data::{Categories, DataError, DataSource, Entry, Reader};

/// The whole table in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryTable {
    /// UnicodeData's names, by code point.
    chars: Store,
    /// CLDR's, by key and locale.
    cldr: CldrNames,
}

/// CLDR's names in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct CldrNames {
    keys: KeySet,
    locales: Locales,
    /// One store per locale slot, by key number.
    names: Vec<Store>,
}

/// Names by number (a code point, or a CLDR key's number), compactly:
/// the membership bitmap of [`super::layout`], a running count of members
/// per bitmap word, and all names in one string with an end offset per
/// member. A look-up is a bit test, a popcount and a slice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Store {
    members: Membership,
    /// Members before each bitmap word, so a member's index is a popcount.
    ranks: Vec<u32>,
    /// End offset in `names` of each member's name, in number order.
    ends: Vec<u32>,
    /// All names back to back.
    names: String,
}

impl Store {
    /// From names sorted by number, without duplicates.
    fn from_sorted<'a>(entries: impl Iterator<Item = (u32, &'a str)>) -> Self {
        let mut store = Store::default();
        for (i, name) in entries {
            store.members.insert_index(i);
            store.names.push_str(name);
            store.ends.push(store.names.len() as u32);
        }
        store.ranks = store.members.ranks();
        store.names.shrink_to_fit();
        store.ends.shrink_to_fit();
        store
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

    fn heap_bytes(&self) -> usize {
        self.members.heap_bytes()
            + self.ranks.capacity() * 4
            + self.ends.capacity() * 4
            + self.names.capacity()
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
    pub fn shipped(root: &Path) -> Result<Self, OpenError> {
        let mut table =
            Self::from_file(&root.join("data/UnicodeData.txt"), &Categories::default())?;
        table.read_cldr(&CldrSettings {
            dir: root.join(cldr::DEFAULT_DIR).into(),
            ..CldrSettings::default()
        })?;
        Ok(table)
    }

    /// The table of `data`'s names of `categories` and CLDR's of `cldr`'s
    /// locales. The default table from the built-in files is decoded from
    /// its built-in form ([`MemoryTable::built_in`]); any other is read
    /// on a blocking thread, off the async threads: tens of milliseconds
    /// for the repository's files, seconds for every locale.
    pub async fn build(
        data: DataSource,
        categories: Categories,
        cldr: CldrSettings,
    ) -> Result<Self, OpenError> {
        if data == DataSource::BuiltIn
            && categories == Categories::default()
            && cldr.dir == CldrDir::BuiltIn
            && cldr.resolve()? == [ENGLISH]
        {
            return Ok(Self::built_in());
        }
        tokio::task::spawn_blocking(move || Self::read(&data, &categories, &cldr))
            .await
            .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))
    }

    /// Reads the table from `data` and `cldr`'s files, always: what
    /// [`MemoryTable::build`] does for any table but the default one.
    pub fn read(
        data: &DataSource,
        categories: &Categories,
        cldr: &CldrSettings,
    ) -> Result<Self, OpenError> {
        let mut table = Self::from_reader(data.path(), data.open()?, categories)?;
        table.read_cldr(cldr)?;
        Ok(table)
    }

    /// The default table, decoded from its built-in form: the same table
    /// [`MemoryTable::read`] makes of the built-in files with the default
    /// categories and English, as a unit test checks.
    pub fn built_in() -> Self {
        Self::decode(builtin::DEFAULT_TABLE).unwrap_or_else(|why| {
            panic!(
                "the built-in {} cannot be read: {why}",
                builtin::DEFAULT_TABLE_PATH
            )
        })
    }

    /// The table as text, the form [`builtin::DEFAULT_TABLE`] is in: a
    /// comment line, then `[chars]` and a line per character (hexadecimal
    /// code point, tab, name), `[keys]` and CLDR's keys in number order
    /// ([`KeySet::encode`]), and for each locale in slot order `[names
    /// {tag}]` and a line per name (key number, tab, name).
    pub fn encode(&self) -> String {
        let mut out = String::from(ENCODED_HEADER);
        out.push_str("[chars]\n");
        for (c, name) in self.entries() {
            let _ = writeln!(out, "{:X}\t{name}", c as u32);
        }
        out.push_str("[keys]\n");
        out.push_str(&self.cldr.keys.encode());
        for (tag, store) in self.cldr.locales.tags().iter().zip(&self.cldr.names) {
            let _ = writeln!(out, "[names {tag}]");
            for i in store.members.indexes() {
                let _ = writeln!(out, "{i}\t{}", store.name_of_member(i));
            }
        }
        out
    }

    /// Reads [`MemoryTable::encode`]'s form.
    pub fn decode(text: &str) -> Result<Self, String> {
        let body = text
            .strip_prefix(ENCODED_HEADER)
            .ok_or("it does not start with the header slugd writes")?;
        let body = body.strip_prefix("[chars]\n").ok_or("no [chars] section")?;
        let (chars, rest) = body.split_once("[keys]\n").ok_or("no [keys] section")?;
        let mut sections = rest.split("[names ");
        let keys = KeySet::decode(sections.next().unwrap_or_default())?;
        let chars = decode_names(chars, |hex| {
            let cp = u32::from_str_radix(hex, 16).ok()?;
            char::from_u32(cp).map(|c| c as u32)
        })?;
        let mut tags = Vec::new();
        let mut names = Vec::new();
        for section in sections {
            let (tag, lines) = section
                .split_once("]\n")
                .ok_or("a [names] line without ]")?;
            let store = decode_names(lines, |n| {
                n.parse().ok().filter(|&i| (i as usize) < keys.len())
            })
            .map_err(|why| format!("[names {tag}]: {why}"))?;
            tags.push(tag.to_owned());
            names.push(store);
        }
        Ok(MemoryTable {
            chars,
            cldr: CldrNames {
                keys,
                locales: Locales::new(tags),
                names,
            },
        })
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
        })
    }

    /// Reads CLDR's names of `settings`' locales (English always), in two
    /// passes over the files: the keys, then each locale's names.
    pub fn read_cldr(&mut self, settings: &CldrSettings) -> Result<(), CldrError> {
        let tags = settings.resolve()?;
        let keys = cldr::collect_keys(&settings.dir, &tags)?;
        let mut names = Vec::with_capacity(tags.len());
        for tag in &tags {
            let entries = cldr::locale_names(&settings.dir, tag, &keys)?;
            names.push(Store::from_sorted(
                entries
                    .iter()
                    .filter(|(_, n)| n.len() <= MAX_NAME_BYTES)
                    .map(|(i, n)| (*i, n.as_str())),
            ));
        }
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

    /// The CLDR names held, over every locale.
    pub fn cldr_names(&self) -> usize {
        self.cldr.names.iter().map(|s| s.ends.len()).sum()
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
    }

    /// The names a request with `locale` reads.
    pub fn chain(&self, locale: Option<&SlugLocale>) -> Chain {
        Chain::new(locale, &self.cldr.locales)
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
}

/// The first line of [`MemoryTable::encode`]'s form.
const ENCODED_HEADER: &str = "# slugd's default in-process table, made by slugd from data/UnicodeData.txt (So,Sc,Sm) and data/cldr (en); do not edit: see src/builtin.rs\n";

/// A store of lines `{number}\t{name}` in increasing number order, the
/// number read by `number`.
fn decode_names(lines: &str, number: impl Fn(&str) -> Option<u32>) -> Result<Store, String> {
    let mut entries = Vec::new();
    for line in lines.lines() {
        let (n, name) = line
            .split_once('\t')
            .ok_or_else(|| format!("{line:?} is not a number, a tab and a name"))?;
        let n = number(n).ok_or_else(|| format!("{line:?} does not start with a valid number"))?;
        if entries.last().is_some_and(|&(last, _)| last >= n) || name.is_empty() {
            return Err(format!("{line:?} is out of order or has no name"));
        }
        entries.push((n, name));
    }
    Ok(Store::from_sorted(entries.into_iter()))
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
    /// built-in files; `SLUGD_WRITE_DEFAULT_TABLE=1` rewrites it after a
    /// change to the files or to how names are made (then rebuild, and
    /// commit the file).
    #[test]
    fn the_built_in_default_table_is_the_data_files() {
        let read = MemoryTable::read(
            &DataSource::BuiltIn,
            &Categories::default(),
            &CldrSettings::default(),
        )
        .unwrap();
        let encoded = read.encode();
        if std::env::var_os("SLUGD_WRITE_DEFAULT_TABLE").is_some() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(builtin::DEFAULT_TABLE_PATH);
            std::fs::write(&path, &encoded).unwrap();
            eprintln!("wrote {}: rebuild and commit it", path.display());
            return;
        }
        assert!(
            encoded == builtin::DEFAULT_TABLE,
            "{} is not what the data files give: run `SLUGD_WRITE_DEFAULT_TABLE=1 cargo test --lib built_in_default_table`, then rebuild and commit it",
            builtin::DEFAULT_TABLE_PATH
        );
        let decoded = MemoryTable::built_in();
        assert!(decoded == read, "decoding gives another table");
        assert_eq!(decoded.len(), 7616);
        assert_eq!(decoded.name('☃'), Some("snowman"));
        assert_eq!(decoded.sequence("🇩🇪"), Some(("🇩🇪".len(), "flag germany")));
        // The files themselves are the repository's.
        let file = |p: &str| std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(p)).unwrap();
        assert!(file("data/UnicodeData.txt") == builtin::UNICODE_DATA);
        assert!(file("data/cldr/annotations/en.xml") == builtin::CLDR_ANNOTATIONS_EN);
        assert!(file("data/cldr/annotationsDerived/en.xml") == builtin::CLDR_DERIVED_EN);
    }

    #[test]
    fn the_encoded_form_reads_back_and_bad_forms_are_refused() {
        let text = "2622;RADIOACTIVE SIGN;So;0;ON;;;;;N;;;;;\n2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n";
        let table =
            MemoryTable::from_reader(Path::new("t.txt"), text.as_bytes(), &Categories::default())
                .unwrap();
        let encoded = table.encode();
        assert!(encoded.ends_with("[chars]\n2603\tsnowman\n2622\tradioactive\n[keys]\n"));
        assert!(MemoryTable::decode(&encoded).unwrap() == table);
        let swapped = encoded.replace(
            "2603\tsnowman\n2622\tradioactive",
            "2622\tradioactive\n2603\tsnowman",
        );
        assert!(
            MemoryTable::decode(&swapped)
                .unwrap_err()
                .contains("out of order")
        );
        assert!(MemoryTable::decode("[chars]\n").is_err());
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
