//! The engine's instructions for one pass over the sample corpus
//! (`slugd_engine::corpus`), counted by callgrind through gungraun: a figure the
//! machine's noise cannot move, unlike criterion's times
//! (`benches/engine.rs`). One case per option set of
//! `corpus::race_options` (the defaults by the newest rules, `symbols:
//! false`, stopwords, replacements, the defaults by rules 1 and 2,
//! `locale: de`), the defaults by rules 5 (`slugd_rules5`, the version
//! before the default rules 6, to weigh what rules 6 cost in one run), by
//! the last version (`slugd_rules_last`: one being built, to weigh it
//! before it becomes the default) and the `slug` crate, on the same
//! titles.
//!
//! The table build and a first pass, which also builds ICU4X's
//! transliterators and fills the engine's caches, happen in the setup,
//! which callgrind does not count: the figure is the cost of a warm pass.
//! foldhash's random seeds move it by about 0.1% from run to run.
//!
//! `cargo xtask bench engine` runs it (and installs gungraun's runner,
//! `cargo install gungraun-runner`, if it is missing); by hand:
//! `cargo bench --bench engine_instructions`. Needs valgrind. With
//! `--before <rev>` the runner copies this file into that revision's
//! worktree, so both builds count the same cases: keep to paths an older
//! tree has too (`slugd_engine::options`, `slugd_engine::slug`,
//! `slugd_engine::corpus`, and `slugd::table`, which re-exports the
//! engine's `MemoryTable` for trees from before it moved there).
//!
//! It is the root package's, not the engine crate's: the same tree
//! counted in the engine crate gave 3.3% more instructions a pass (LTO
//! inlines otherwise in another binary), so its figures would not compare
//! with earlier builds'.

#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use gungraun::{library_benchmark, library_benchmark_group, main};
use slugd::table::MemoryTable;
use slugd_engine::options::{Options, RawOptions};
use slugd_engine::slug::slugify;

/// One engine, ready to run: the titles, the in-process table and the
/// options (`None`: the `slug` crate).
struct Engine {
    titles: Vec<&'static str>,
    table: MemoryTable,
    options: Option<Options>,
}

impl Engine {
    fn pass(&self) {
        for t in &self.titles {
            match &self.options {
                Some(options) => drop(black_box(slugify(black_box(t), options, &self.table))),
                None => drop(black_box(slug::slugify(black_box(t)))),
            }
        }
    }
}

/// The engine named as in `corpus::race_options` (or `slug_crate`), after
/// one uncounted pass.
fn warmed(name: &str) -> Engine {
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let options = match name {
        "slug_crate" => None,
        "slugd_rules5" => Some(
            RawOptions {
                rules: Some(5),
                ..RawOptions::default()
            }
            .validate()
            .unwrap_or_default(),
        ),
        // The version being built (or the newest), to weigh it against
        // rules 5 before it becomes the default.
        "slugd_rules_last" => Some(
            RawOptions {
                rules: Some(slugd_engine::rules::Rules::LAST.number()),
                ..RawOptions::default()
            }
            .validate()
            .unwrap_or_default(),
        ),
        _ => Some(
            slugd_engine::corpus::race_options()
                .into_iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("no engine {name:?} in corpus::race_options"))
                .1,
        ),
    };
    let engine = Engine {
        titles: slugd_engine::corpus::titles().collect(),
        table,
        options,
    };
    engine.pass();
    engine
}

#[library_benchmark]
#[bench::slugd_in_process(args = ("slugd_in_process"), setup = warmed)]
#[bench::slugd_no_symbols(args = ("slugd_no_symbols"), setup = warmed)]
#[bench::slugd_stopwords(args = ("slugd_stopwords"), setup = warmed)]
#[bench::slugd_replacements(args = ("slugd_replacements"), setup = warmed)]
#[bench::slugd_rules1(args = ("slugd_rules1"), setup = warmed)]
#[bench::slugd_rules2(args = ("slugd_rules2"), setup = warmed)]
#[bench::slugd_locale_de(args = ("slugd_locale_de"), setup = warmed)]
#[bench::slugd_rules5(args = ("slugd_rules5"), setup = warmed)]
#[bench::slugd_rules_last(args = ("slugd_rules_last"), setup = warmed)]
#[bench::slug_crate(args = ("slug_crate"), setup = warmed)]
fn corpus_pass(engine: Engine) -> Engine {
    engine.pass();
    engine
}

library_benchmark_group!(name = corpus, benchmarks = [corpus_pass]);

main!(library_benchmark_groups = corpus);
