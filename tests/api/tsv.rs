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
    read_examples(path)
        .into_iter()
        .map(|row| row.fields)
        .collect()
}

/// A row of a file of a standard's examples (`tests/data/standards/`),
/// with the settings of the `# key: value` lines above it.
pub struct Example {
    /// The row's fields.
    pub fields: Vec<String>,
    /// The nearest `# locale: ` line above it: the examples' language.
    pub locale: Option<String>,
    /// The nearest `# ascii: ` line above it: how the standard's letters
    /// are written in ASCII, as `letter=ascii` pairs split at spaces.
    pub ascii: Vec<(String, String)>,
}

/// The rows of the file at `path` as [`read`] has them, each with the
/// `# locale: ` and `# ascii: ` lines above it. Lines starting `#| ` are
/// examples kept aside, comments like any other.
pub fn read_examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut locale = None;
    let mut ascii = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix("# locale: ") {
            // A section of another language: its own ASCII, if any.
            locale = Some(tag.trim().to_owned());
            ascii.clear();
        } else if let Some(pairs) = line.strip_prefix("# ascii: ") {
            ascii = pairs
                .split_whitespace()
                .map(|pair| match pair.split_once('=') {
                    Some((from, to)) => (from.to_owned(), to.to_owned()),
                    None => panic!("{}: not letter=ascii: {pair:?}", path.display()),
                })
                .collect();
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            rows.push(Example {
                fields: line.split('\t').map(str::to_owned).collect(),
                locale: locale.clone(),
                ascii: ascii.clone(),
            });
        }
    }
    rows
}
