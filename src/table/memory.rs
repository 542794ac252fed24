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

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::error::OpenError;
use super::layout::MAX_NAME_BYTES;
use crate::cldr::{self, Chain, CldrError, CldrSettings, KeySet, Locales, NameSource, View};
use crate::locale::SlugLocale;
use crate::membership::Membership;
use crate::slug::SymbolNames;
use crate::unicode_data::{Categories, DataError, Entry, Reader};

/// The whole table in memory.
#[derive(Debug, Clone, Default)]
pub struct MemoryTable {
    /// UnicodeData's names, by code point.
    chars: Store,
    /// CLDR's, by key and locale.
    cldr: CldrNames,
}

/// CLDR's names in memory.
#[derive(Debug, Clone, Default)]
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
#[derive(Debug, Clone, Default)]
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
            dir: root.join(cldr::DEFAULT_DIR),
            ..CldrSettings::default()
        })?;
        Ok(table)
    }

    /// Reads the table (UnicodeData's names and CLDR's of `cldr`'s
    /// locales) on a blocking thread, off the async threads: tens of
    /// milliseconds for the shipped files, seconds for every locale.
    pub async fn build(
        path: PathBuf,
        categories: Categories,
        cldr: CldrSettings,
    ) -> Result<Self, OpenError> {
        tokio::task::spawn_blocking(move || {
            let mut table = Self::from_file(&path, &categories)?;
            table.read_cldr(&cldr)?;
            Ok(table)
        })
        .await
        .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))
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
