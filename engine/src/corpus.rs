//! The sample corpus (`data/corpus.txt`, built into the binary): mixed
//! scripts, about one title in six with a symbol. `/bench`, the criterion
//! bench, `cargo xtask bench` and the tests all use it, so their figures are
//! about the same titles; and the option sets the engine benchmarks
//! compare, so theirs are about the same options.

use crate::options::{Options, RawOptions, Rules};

/// The file as shipped.
pub const CORPUS: &str = include_str!("../../data/corpus.txt");

/// The titles: every line that is not empty or a `#` comment.
pub fn titles() -> impl Iterator<Item = &'static str> + Clone {
    CORPUS
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
}

/// The option sets the engine benchmarks compare, by name: the defaults,
/// `symbols: false`, ten common English stopwords, three replacements.
pub fn sample_options() -> [(&'static str, Options); 4] {
    let stopwords = ["a", "an", "the", "of", "and", "in", "on", "to", "for", "is"];
    let replacements = [("%", " percent"), ("@", " at "), ("C++", "cpp")];
    let valid = |raw: RawOptions| raw.validate().expect("valid sample options");
    [
        ("slugd_in_process", Options::default()),
        (
            "slugd_no_symbols",
            Options {
                symbols: false,
                ..Options::default()
            },
        ),
        (
            "slugd_stopwords",
            valid(RawOptions {
                stopwords: Some(stopwords.map(String::from).to_vec()),
                ..RawOptions::default()
            }),
        ),
        (
            "slugd_replacements",
            valid(RawOptions {
                replacements: Some(
                    replacements
                        .map(|(from, to)| (from.to_owned(), to.to_owned()))
                        .to_vec(),
                ),
                ..RawOptions::default()
            }),
        ),
    ]
}

/// The engines the benchmarks (`benches/engine.rs`,
/// `benches/engine_instructions.rs`) compare, by name: [`sample_options`],
/// then the defaults by rules 1 and 2 (`slugd_rules1`, `slugd_rules2`) and
/// with `locale: de` (`slugd_locale_de`).
pub fn race_options() -> Vec<(&'static str, Options)> {
    let rules = |rules| Options {
        rules,
        ..Options::default()
    };
    let german = RawOptions {
        locale: Some("de".to_owned()),
        ..RawOptions::default()
    };
    let mut options = sample_options().to_vec();
    options.extend([
        ("slugd_rules1", rules(Rules::OLDEST)),
        ("slugd_rules2", rules(Rules::numbered(2).unwrap())),
        (
            "slugd_locale_de",
            german.validate().expect("German is a known locale"),
        ),
    ]);
    options
}
