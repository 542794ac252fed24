//! The in-process symbol table: every name in the service's own memory,
//! built from UnicodeData.txt at start-up (or on demand, for `/bench`).
//!
//! The layout is compact and needs no hashing: the membership bitmap of
//! [`super::layout`], a running count of members per bitmap word, and all
//! names in one string with an end offset per member. A look-up is a bit
//! test, a popcount and a slice. For the default table this is about 200 kB
//! of heap, against several megabytes for a map of owned strings.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::layout::Membership;
use crate::slug::SymbolNames;
use crate::unicode_data::{Categories, DataError, Entry, Reader};

/// The whole table in memory.
#[derive(Debug, Clone)]
pub struct MemoryTable {
    members: Membership,
    /// Members before each bitmap word, so a member's index is a popcount.
    ranks: Vec<u32>,
    /// End offset in `names` of each member's name, in code point order.
    ends: Vec<u32>,
    /// All names back to back.
    names: String,
}

impl MemoryTable {
    /// Reads the table from a UnicodeData.txt file.
    pub fn from_file(path: &Path, categories: &Categories) -> Result<Self, DataError> {
        let file = File::open(path).map_err(|e| DataError::open(path, e))?;
        Self::from_reader(path, BufReader::new(file), categories)
    }

    /// Reads the table from a file on a blocking thread, off the async
    /// threads (tens of milliseconds for the shipped file).
    pub async fn build(path: PathBuf, categories: Categories) -> Result<Self, DataError> {
        tokio::task::spawn_blocking(move || Self::from_file(&path, &categories))
            .await
            .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))
    }

    /// Reads the table from UnicodeData.txt text; `path` names it in errors.
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
        Ok(Self::from_sorted(&entries))
    }

    /// Builds the table from entries sorted by code point, without duplicates.
    fn from_sorted(entries: &[Entry]) -> Self {
        let mut members = Membership::default();
        let mut ends = Vec::with_capacity(entries.len());
        let mut names = String::with_capacity(entries.iter().map(|e| e.name.len()).sum());
        for entry in entries {
            members.insert(entry.ch);
            names.push_str(&entry.name);
            ends.push(names.len() as u32);
        }
        let ranks = members.ranks();
        MemoryTable {
            members,
            ranks,
            ends,
            names,
        }
    }

    /// The number of characters in the table.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Heap bytes held by the table.
    pub fn heap_bytes(&self) -> usize {
        self.members.heap_bytes()
            + self.ranks.capacity() * 4
            + self.ends.capacity() * 4
            + self.names.capacity()
    }

    /// The name of `c`, known to be a member. Kept out of line so that
    /// [`SymbolNames::name`] stays small enough to inline.
    #[inline(never)]
    fn name_of_member(&self, c: char) -> &str {
        let i = self.members.rank(&self.ranks, c);
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.names[start..self.ends[i] as usize]
    }

    /// Every entry, in code point order.
    pub fn entries(&self) -> impl Iterator<Item = (char, &str)> {
        (0..=char::MAX as u32)
            .filter_map(char::from_u32)
            .filter(|c| self.members.contains(*c))
            .zip(self.ends.iter().enumerate())
            .map(|(c, (i, &end))| {
                let start = if i == 0 { 0 } else { self.ends[i - 1] };
                (c, &self.names[start as usize..end as usize])
            })
    }
}

impl SymbolNames for MemoryTable {
    /// The engine asks about every non-ASCII character and most are not
    /// members: the bit test is inlined into the caller, and only members
    /// pay for a call.
    #[inline]
    fn name(&self, c: char) -> Option<&str> {
        if !self.members.contains(c) {
            return None;
        }
        Some(self.name_of_member(c))
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
