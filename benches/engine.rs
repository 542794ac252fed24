//! Engine throughput on the sample corpus, single thread: slugd's engine
//! with the in-process table (naming symbols), the same without symbols,
//! with stopwords, with replacements, and the `slug` crate, side by side on
//! the same titles in one run.
//!
//! `cargo bench --bench engine`

#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slugd::slug::{NoSymbols, Options, RawOptions, slugify};
use slugd::table::MemoryTable;

fn corpus(c: &mut Criterion) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/UnicodeData.txt");
    let table = MemoryTable::from_file(&data, &Default::default()).expect("the shipped data file");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
    let options = Options::default();
    let no_symbols = Options {
        symbols: false,
        ..Options::default()
    };
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

    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(titles.len() as u64));
    group.bench_function("slugd_in_process", |b| {
        b.iter(|| {
            for t in &titles {
                black_box(slugify(black_box(t), &options, &table).ok());
            }
        })
    });
    group.bench_function("slugd_no_symbols", |b| {
        b.iter(|| {
            for t in &titles {
                black_box(slugify(black_box(t), &no_symbols, &NoSymbols).ok());
            }
        })
    });
    for (name, options) in [
        ("slugd_stopwords", &stopwords),
        ("slugd_replacements", &replacements),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for t in &titles {
                    black_box(slugify(black_box(t), options, &table).ok());
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
