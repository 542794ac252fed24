//! The reserved words of `--reserved-slugs FILE`: slugs never handed out
//! (`new`, `edit`, `admin`...), so that a title `New` gets `new-2`. The
//! file has one word a line; blank lines and lines starting with `#` are
//! skipped. Words are compared without regard to ASCII case, so `Admin`
//! (with `lowercase: false`) is kept from users as `admin` is.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::shape::{MAX_SLUG_BYTES, SLUG_PUNCTUATION, is_slug_shaped};
use slugd_engine::options::fold_written;

/// The reserved words.
#[derive(Debug, Clone, Default)]
pub struct ReservedSlugs {
    /// Every word, lowercased.
    words: HashSet<String>,
    /// The words that end in a digit, which a numbered slug could be.
    numbered: Vec<String>,
}

/// Why the file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ReservedSlugsError {
    /// The file cannot be read.
    #[error("cannot read {}", .0.display())]
    Read(PathBuf, #[source] std::io::Error),
    /// A line that is not a slug.
    #[error(
        "{}:{line}: {word:?} is not a slug (give 1 to {MAX_SLUG_BYTES} bytes of letters, digits, marks or {SLUG_PUNCTUATION}), so it could never be reserved",
        .path.display()
    )]
    NotASlug {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What it holds.
        word: String,
    },
}

impl ReservedSlugs {
    /// Reads the file at `path`.
    pub fn read(path: &Path) -> Result<Self, ReservedSlugsError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ReservedSlugsError::Read(path.to_owned(), e))?;
        let mut words = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let word = line.trim();
            if word.is_empty() || word.starts_with('#') {
                continue;
            }
            if !is_slug_shaped(word) {
                return Err(ReservedSlugsError::NotASlug {
                    path: path.to_owned(),
                    line: i + 1,
                    word: word.to_owned(),
                });
            }
            words.push(word);
        }
        Ok(Self::new(words))
    }

    /// The given words.
    pub fn new<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> Self {
        let words: HashSet<String> = words
            .into_iter()
            .map(|w| fold_written(w.as_ref()))
            .collect();
        let mut numbered: Vec<String> = words
            .iter()
            .filter(|w| w.ends_with(|c: char| c.is_ascii_digit()))
            .cloned()
            .collect();
        numbered.sort();
        ReservedSlugs { words, numbered }
    }

    /// How many words there are.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether `slug` is reserved.
    pub fn contains(&self, slug: &str) -> bool {
        !self.words.is_empty() && self.words.contains(&fold_written(slug))
    }

    /// The suffix numbers the function must skip, as `,n,m,`: 1 when `base`
    /// itself is reserved, and `n` when `stem(digits of n) + separator + n`
    /// is. `stem(d)` is the stem for suffixes of `d` digits (`None` when
    /// none of that width is known yet).
    pub(crate) fn skips<'a>(
        &self,
        base: &str,
        separator: &str,
        stem: impl Fn(usize) -> Option<&'a str>,
    ) -> String {
        let mut out = String::from(",");
        if self.contains(base) {
            out.push_str("1,");
        }
        for word in &self.numbered {
            let digits = word.len() - word.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            // Every split of the trailing digits: with an empty separator,
            // `abc12` is stem `abc1` and 2 as well as stem `abc` and 12.
            for d in 1..=digits {
                let (rest, number) = word.split_at(word.len() - d);
                if number.starts_with('0') {
                    continue;
                }
                let Some(stem_part) = rest.strip_suffix(separator) else {
                    continue;
                };
                if stem(d).is_some_and(|s| !s.is_empty() && fold_written(s) == stem_part) {
                    let _ = write!(out, "{number},");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_any_script_are_reserved_whatever_their_case_and_form() {
        let reserved = ReservedSlugs::new(["Админ", "café", "Admin"]);
        for slug in ["админ", "АДМИН", "cafe\u{301}", "CAFÉ", "admin"] {
            assert!(reserved.contains(slug), "{slug}");
        }
        assert!(!reserved.contains("админка"));
    }

    #[test]
    fn the_file_skips_comments_and_names_a_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("reserved.txt");
        std::fs::write(&path, "# routes\nnew\n\n  Edit \nadmin\n").unwrap();
        let words = ReservedSlugs::read(&path).unwrap();
        assert_eq!(words.len(), 3);
        assert!(words.contains("edit") && words.contains("NEW"));
        std::fs::write(&path, "new\nnot a slug\n").unwrap();
        let e = ReservedSlugs::read(&path).unwrap_err().to_string();
        assert!(e.ends_with("reserved.txt:2: \"not a slug\" is not a slug (give 1 to 512 bytes of letters, digits, marks or -_.~), so it could never be reserved"), "{e}");
    }

    #[test]
    fn numbered_words_become_suffixes_to_skip() {
        let words = ReservedSlugs::new(["new", "new-2", "new-10", "new-03", "newer-4", "abc12"]);
        let same = |_| Some("new");
        assert_eq!(words.skips("new", "-", same), ",1,10,2,");
        assert_eq!(words.skips("newer", "-", |_| Some("newer")), ",4,");
        // A stem cut shorter for two-digit suffixes.
        let cut = |d| Some(if d == 1 { "newx" } else { "new" });
        assert_eq!(words.skips("newx", "-", cut), ",10,");
        // No separator: every split of the digits.
        assert_eq!(words.skips("abc1", "", |_| Some("abc1")), ",2,");
        assert_eq!(words.skips("abc", "", |_| Some("abc")), ",12,");
        assert_eq!(ReservedSlugs::default().skips("new", "-", same), ",");
    }
}
