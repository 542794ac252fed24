//! The tab-separated data files tests read (`tests/data/*.tsv`, CLDR's
//! transform test files): one reader, so every test skips the same lines.
//! `tests/japanese.rs`, a test binary of its own, includes this file too.
//! The rule versions' records (`tests/data/rulesN/`) are not read here:
//! after their flags line every line is a row, whatever it begins with.

use std::path::Path;

/// The rows of the file at `path`: every line but blank ones and `#`
/// comments, split at its tabs. A file that cannot be read fails the
/// test, naming it.
pub fn read(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect()
}
