//! The engine's time per pass over the sample corpus by the newest rules
//! against an older version of the same build, the two timed in turns in
//! one process (41 rounds, the order turning each round), so the machine's
//! noise falls on both alike: the median of each, and the median of the
//! rounds' ratios.
//!
//! `cargo run --release --example rules_ab [N]`, N the older version
//! (default 4). In-process table, default options otherwise.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use slugd::options::{Options, Rules};
use slugd::slug::slugify;
use slugd::table::MemoryTable;

/// Corpus passes a round times.
const PASSES: u32 = 200;

/// Rounds; odd, so the median is one of them.
const ROUNDS: usize = 41;

fn main() {
    let older: u64 = std::env::args()
        .nth(1)
        .map_or(4, |n| n.parse().expect("a rule version number"));
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
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
    let (mut olds, mut news, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let (o, n) = if round % 2 == 0 {
            let o = pass(&old);
            (o, pass(&newest))
        } else {
            let n = pass(&newest);
            (pass(&old), n)
        };
        olds.push(o);
        news.push(n);
        ratios.push(n / o);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "rules {older}: {:.0} ns a pass; rules {}: {:.0} ns; newest/older, median of {ROUNDS} rounds: {:.3}",
        median(olds),
        newest.rules.number(),
        median(news),
        median(ratios)
    );
}
