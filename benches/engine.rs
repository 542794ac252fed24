//! Engine throughput on the sample corpus, single thread: slugd's engine
//! with each of `corpus::sample_options` (the defaults naming symbols with
//! the in-process table, no symbols, stopwords, replacements) and the
//! `slug` crate, on the same titles in one run; and with `locale: de`
//! (CLDR's German transform and names, from Debian's unicode-cldr-core)
//! beside the same corpus without a locale; and the defaults by rules 1
//! beside rules 2 (group `rules`). On a noisy machine, also see
//! `examples/engine_race.rs`, which takes turns.
//!
//! `cargo bench --bench engine`

#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slugd::cldr::{CldrSettings, DEBIAN_DIR};
use slugd::options::{Options, RawOptions};
use slugd::slug::slugify;
use slugd::table::MemoryTable;

fn corpus(c: &mut Criterion) {
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let titles: Vec<&str> = slugd::corpus::titles().collect();

    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(titles.len() as u64));
    for (name, options) in slugd::corpus::sample_options() {
        group.bench_function(name, |b| {
            b.iter(|| {
                for t in &titles {
                    black_box(slugify(black_box(t), &options, &table).ok());
                }
            })
        });
    }
    group.bench_function("slug_crate", |b| {
        b.iter(|| {
            for t in &titles {
                black_box(slug::slugify(black_box(t)));
            }
        })
    });
    group.finish();

    // The same corpus with `locale: de` and without, side by side.
    let mut group = c.benchmark_group("locale");
    group.throughput(Throughput::Elements(titles.len() as u64));
    let plain = Options::default();
    let german = RawOptions {
        locale: Some("de".into()),
        ..RawOptions::default()
    }
    .validate()
    .expect("de is a locale");
    let mut german_table = table.clone();
    let cldr = CldrSettings {
        dir: DEBIAN_DIR.into(),
        locales: "de".parse().expect("a locale list"),
        searched: Vec::new(),
    };
    german_table.read_cldr(&cldr).unwrap_or_else(|e| {
        panic!("{e}: the locale benchmark needs CLDR (apt-get install unicode-cldr-core)")
    });
    let chain = german_table.chain(german.locale.as_ref());
    let view = german_table.view(&chain);
    group.bench_function("none", |b| {
        b.iter(|| {
            for t in &titles {
                black_box(slugify(black_box(t), &plain, &table).ok());
            }
        })
    });
    group.bench_function("de", |b| {
        b.iter(|| {
            for t in &titles {
                black_box(slugify(black_box(t), &german, &view).ok());
            }
        })
    });
    group.finish();

    // The defaults by rules 1 and by rules 2, side by side.
    let mut group = c.benchmark_group("rules");
    group.throughput(Throughput::Elements(titles.len() as u64));
    for n in [1, 2] {
        let options = RawOptions {
            rules: Some(n),
            ..RawOptions::default()
        }
        .validate()
        .expect("rules 1 and 2 exist");
        group.bench_function(format!("rules{n}"), |b| {
            b.iter(|| {
                for t in &titles {
                    black_box(slugify(black_box(t), &options, &table).ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, corpus);
criterion_main!(benches);
