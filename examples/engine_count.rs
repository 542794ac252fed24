//! Runs the engine over the sample corpus a given number of times, so that
//! `valgrind --tool=callgrind` can count its instructions: a figure the
//! machine's noise cannot move, unlike a timing.
//!
//!   cargo build --release --example engine_count
//!   valgrind --tool=callgrind target/release/examples/engine_count slugd_in_process 2000
//!   valgrind --tool=callgrind target/release/examples/engine_count slug_crate 2000
//!
//! Run it with 0 passes too and subtract: that is the table build. For
//! the cost of a pass alone (without the first pass, which also builds
//! ICU4X's transliterators), subtract a run of 1000 passes from one of
//! 3000 and divide by 2000.
//! Engines: the names of `corpus::race_options` (`slugd_in_process` is
//! the defaults, by the newest rules; `slugd_rules1` and `slugd_rules2`
//! the defaults by rules 1 and 2; `slugd_locale_de` with `locale: de`)
//! and `slug_crate`.

use std::hint::black_box;
use std::path::Path;

use slugd::slug::slugify;
use slugd::table::MemoryTable;

fn main() {
    let mut args = std::env::args().skip(1);
    let engine = args.next().unwrap_or_else(|| "slugd_in_process".to_owned());
    let passes: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
    let options = slugd::corpus::race_options()
        .into_iter()
        .find(|(name, _)| *name == engine)
        .map(|(_, options)| options);
    if options.is_none() && engine != "slug_crate" {
        eprintln!("engine_count: no engine {engine:?}");
        std::process::exit(2);
    }
    for _ in 0..passes {
        for t in &titles {
            match &options {
                Some(options) => drop(black_box(slugify(black_box(t), options, &table))),
                None => drop(black_box(slug::slugify(black_box(t)))),
            }
        }
    }
}
