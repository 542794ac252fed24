//! Runs the engine over the sample corpus a given number of times, so that
//! `valgrind --tool=callgrind` can count its instructions: a figure the
//! machine's noise cannot move, unlike a timing.
//!
//!   cargo build --release --example engine_count
//!   valgrind --tool=callgrind target/release/examples/engine_count slugd 2000
//!   valgrind --tool=callgrind target/release/examples/engine_count slug_crate 2000
//!
//! Run it with 0 passes too and subtract: that is the table build.
//! Engines: `slugd` (default options, in-process table), `slugd_stopwords`,
//! `slugd_replacements`, `slug_crate`.

use std::hint::black_box;
use std::path::Path;

use slugd::slug::{Options, RawOptions, slugify};
use slugd::table::MemoryTable;

fn main() {
    let mut args = std::env::args().skip(1);
    let engine = args.next().unwrap_or_else(|| "slugd".to_owned());
    let passes: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/UnicodeData.txt");
    let table = MemoryTable::from_file(&data, &Default::default()).expect("the shipped data file");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
    let options = match engine.as_str() {
        "slugd_stopwords" => RawOptions {
            stopwords: Some(
                ["a", "an", "the", "of", "and", "in", "on", "to", "for", "is"]
                    .map(String::from)
                    .to_vec(),
            ),
            ..RawOptions::default()
        },
        "slugd_replacements" => RawOptions {
            replacements: Some(vec![
                ("%".to_owned(), " percent".to_owned()),
                ("@".to_owned(), " at ".to_owned()),
                ("C++".to_owned(), "cpp".to_owned()),
            ]),
            ..RawOptions::default()
        },
        _ => RawOptions::default(),
    }
    .validate()
    .expect("valid options");
    for _ in 0..passes {
        for t in &titles {
            match engine.as_str() {
                "slug_crate" => drop(black_box(slug::slugify(black_box(t)))),
                _ => drop(black_box(slugify(black_box(t), &options, &table))),
            }
        }
    }
    let _ = Options::default();
}
