//! Engine speed on a noisy machine: the engines take turns, a few corpus
//! passes each, for many rounds, and the medians of their per-pass times
//! are compared. Drift in the machine's speed hits every engine alike,
//! which criterion's one-engine-after-another runs cannot promise here.
//!
//!   cargo run --release --example engine_race [rounds]
//!
//! Engines: slugd with each of `corpus::race_options` (in-process table;
//! the defaults are the newest rules; over `slugd_rules1` is the last
//! column, and `slugd_locale_de` over the defaults the last line), and the
//! `slug` crate. For counts that noise cannot move, see
//! `examples/engine_count.rs`.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use slugd::slug::slugify;
use slugd::table::MemoryTable;

/// Corpus passes per turn.
const PASSES: usize = 20;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(400);
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
    let samples = slugd::corpus::race_options();
    let at = |name: &str| {
        (samples.iter())
            .position(|(n, _)| *n == name)
            .expect("an engine of corpus::race_options")
    };
    let (defaults_at, rules1_at, german_at) = (
        at("slugd_in_process"),
        at("slugd_rules1"),
        at("slugd_locale_de"),
    );
    let crate_at = samples.len();
    let pass = |engine: usize| match samples.get(engine) {
        Some((_, options)) => titles
            .iter()
            .for_each(|t| drop(black_box(slugify(black_box(t), options, &table)))),
        None => titles
            .iter()
            .for_each(|t| drop(black_box(slug::slugify(black_box(t))))),
    };
    let names: Vec<&str> = samples
        .iter()
        .map(|(name, _)| *name)
        .chain(["slug_crate"])
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); names.len()];
    for round in 0..rounds {
        for k in 0..names.len() {
            let engine = (k + round) % names.len();
            let started = Instant::now();
            for _ in 0..PASSES {
                pass(engine);
            }
            times[engine].push(started.elapsed().as_secs_f64() * 1e6 / PASSES as f64);
        }
    }
    let medians: Vec<f64> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect();
    println!(
        "{rounds} rounds of {PASSES} corpus passes ({} titles) per engine, in turns",
        titles.len()
    );
    for (name, median) in names.iter().zip(&medians) {
        println!(
            "{name:<20} {median:>8.2} µs per pass  {:>6.2} M titles/s  slug_crate / this: {:.2}  this / slugd_rules1: {:.3}",
            titles.len() as f64 / median,
            medians[crate_at] / median,
            median / medians[rules1_at]
        );
    }
    println!(
        "slugd_locale_de / slugd_in_process: {:.3}",
        medians[german_at] / medians[defaults_at]
    );
}
