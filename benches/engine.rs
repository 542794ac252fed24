//! Engine throughput on the sample corpus, single thread: slugd's engine
//! with each of `corpus::sample_options` (the defaults naming symbols with
//! the in-process table, no symbols, stopwords, replacements) and the
//! `slug` crate, on the same titles in one run. On a noisy machine, also
//! see `examples/engine_race.rs`, which takes turns.
//!
//! `cargo bench --bench engine`

#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slugd::slug::slugify;
use slugd::table::MemoryTable;

fn corpus(c: &mut Criterion) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/UnicodeData.txt");
    let table = MemoryTable::from_file(&data, &Default::default()).expect("the shipped data file");
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
}

criterion_group!(benches, corpus);
criterion_main!(benches);
