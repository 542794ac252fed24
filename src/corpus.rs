//! The sample corpus (`data/corpus.txt`, built into the binary): mixed
//! scripts, about one title in six with a symbol. `/bench`, the criterion
//! bench, `scripts/bench.sh` and the tests all use it, so their figures are
//! about the same titles.

/// The file as shipped.
pub const CORPUS: &str = include_str!("../data/corpus.txt");

/// The titles: every line that is not empty or a `#` comment.
pub fn titles() -> impl Iterator<Item = &'static str> + Clone {
    CORPUS
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
}
