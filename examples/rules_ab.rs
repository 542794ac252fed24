//! The engine's time per pass over the sample corpus by the newest rules
//! against an older version of the same build, the two timed in turns in
//! one process (the order turning each round), so the machine's noise
//! falls on both alike. Prints one line a round, the older version's and
//! the newest's nanoseconds a pass, tab-separated; the runner takes the
//! medians: `cargo xtask bench rules` (`--older N`, `--rounds R`).
//!
//! `cargo run --release --example rules_ab [N [ROUNDS]]`, N the older
//! version (default 4), ROUNDS the rounds (default 41). In-process table,
//! default options otherwise.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use slugd::table::MemoryTable;
use slugd_engine::options::{Options, Rules};
use slugd_engine::slug::slugify;

/// Corpus passes a round times.
const PASSES: u32 = 200;

/// Rounds when not given; odd, so the median is one of them.
const ROUNDS: usize = 41;

fn main() {
    let older: u64 = std::env::args()
        .nth(1)
        .map_or(4, |n| n.parse().expect("a rule version number"));
    let rounds: usize = std::env::args()
        .nth(2)
        .map_or(ROUNDS, |n| n.parse().expect("a number of rounds"));
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let titles: Vec<&str> = slugd_engine::corpus::titles().collect();
    let newest = Options::default();
    let old = Options {
        rules: Rules::numbered(older).expect("a known rule version"),
        ..Options::default()
    };
    // Nanoseconds a corpus pass.
    let pass = |options: &Options| {
        let start = Instant::now();
        for _ in 0..PASSES {
            for title in &titles {
                drop(black_box(slugify(black_box(title), options, &table)));
            }
        }
        start.elapsed().as_nanos() as f64 / f64::from(PASSES)
    };
    // Warm both: ICU4X's transliterators, the engine's caches.
    pass(&old);
    pass(&newest);
    println!("# rules {older}\trules {}", newest.rules.number());
    for round in 0..rounds {
        let (o, n) = if round % 2 == 0 {
            let o = pass(&old);
            (o, pass(&newest))
        } else {
            let n = pass(&newest);
            (pass(&old), n)
        };
        println!("{o:.0}\t{n:.0}");
    }
}
