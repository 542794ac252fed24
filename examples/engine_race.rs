//! Engine speed on a noisy machine: the engines take turns, a few corpus
//! passes each, for many rounds, and the medians of their per-pass times
//! are compared. Drift in the machine's speed hits every engine alike,
//! which criterion's one-engine-after-another runs cannot promise here.
//!
//!   cargo run --release --example engine_race [rounds]
//!
//! Engines: slugd with default options (in-process table), without
//! symbols, with 10 stopwords, with 3 replacements, and the `slug` crate.
//! For counts that noise cannot move, see `examples/engine_count.rs`.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use slugd::slug::{NoSymbols, Options, RawOptions, slugify};
use slugd::table::MemoryTable;

/// Corpus passes per turn.
const PASSES: usize = 20;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(400);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/UnicodeData.txt");
    let table = MemoryTable::from_file(&data, &Default::default()).expect("the shipped data file");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
    let stopwords = RawOptions {
        stopwords: Some(
            ["a", "an", "the", "of", "and", "in", "on", "to", "for", "is"]
                .map(String::from)
                .to_vec(),
        ),
        ..RawOptions::default()
    }
    .validate()
    .expect("valid stopwords");
    let replacements = RawOptions {
        replacements: Some(vec![
            ("%".to_owned(), " percent".to_owned()),
            ("@".to_owned(), " at ".to_owned()),
            ("C++".to_owned(), "cpp".to_owned()),
        ]),
        ..RawOptions::default()
    }
    .validate()
    .expect("valid replacements");
    let default = Options::default();
    let no_symbols = Options {
        symbols: false,
        ..Options::default()
    };
    let pass = |engine: usize| match engine {
        0 => titles
            .iter()
            .for_each(|t| drop(black_box(slugify(black_box(t), &default, &table)))),
        1 => titles
            .iter()
            .for_each(|t| drop(black_box(slugify(black_box(t), &no_symbols, &NoSymbols)))),
        2 => titles
            .iter()
            .for_each(|t| drop(black_box(slugify(black_box(t), &stopwords, &table)))),
        3 => titles
            .iter()
            .for_each(|t| drop(black_box(slugify(black_box(t), &replacements, &table)))),
        _ => titles
            .iter()
            .for_each(|t| drop(black_box(slug::slugify(black_box(t))))),
    };
    let names = [
        "slugd_in_process",
        "slugd_no_symbols",
        "slugd_stopwords",
        "slugd_replacements",
        "slug_crate",
    ];
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); names.len()];
    for round in 0..rounds {
        for k in 0..names.len() {
            let engine = (k + round) % names.len();
            let started = Instant::now();
            for _ in 0..PASSES {
                pass(engine);
            }
            samples[engine].push(started.elapsed().as_secs_f64() * 1e6 / PASSES as f64);
        }
    }
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect();
    println!(
        "{} rounds of {PASSES} corpus passes ({} titles) per engine, in turns",
        rounds,
        titles.len()
    );
    for (name, median) in names.iter().zip(&medians) {
        println!(
            "{name:<20} {median:>8.2} µs per pass  {:>6.2} M titles/s  slug_crate / this: {:.2}",
            titles.len() as f64 / median,
            medians[4] / median
        );
    }
}
