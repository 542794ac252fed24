//! Engine throughput on the sample corpus, single thread: slugd's engine
//! with each of `corpus::sample_options` (the defaults naming symbols with
//! the in-process table, no symbols, stopwords, replacements) and the
//! `slug` crate, on the same titles in one run; and with `locale: de`
//! (CLDR's German transform and names, from Debian's unicode-cldr-core)
//! beside the same corpus without a locale; rules 1 beside rules 2 on the
//! corpus (group `rules`); and the cost of rules 2's word segmentation on
//! Thai and Chinese titles (group `scripts`). On a noisy machine, times
//! drift; `benches/engine_instructions.rs` counts instructions, which do
//! not.
//!
//! `cargo xtask bench engine` runs both and writes target/bench/engine.json;
//! this one alone: `cargo bench --bench engine`.

#![allow(missing_docs)]

use std::collections::HashSet;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slugd::cldr::{CldrSettings, DEBIAN_DIR};
use slugd::options::{Options, RawOptions, Rules};
use slugd::slug::slugify;
use slugd::table::MemoryTable;

/// Words of Chinese and of Thai titles, common ones that the word
/// segmenter's dictionaries know.
const CHINESE: [&str; 21] = [
    "北京", "上海", "大学", "历史", "烤鸭", "做法", "夜景", "人民", "日报", "中国", "银行", "天气",
    "今天", "城市", "新闻", "经济", "发展", "文化", "旅游", "美食", "的",
];
const THAI: [&str; 20] = [
    "สวัสดี",
    "ครับ",
    "ยินดี",
    "ต้อนรับ",
    "ภาษา",
    "ไทย",
    "ประเทศ",
    "ราชการ",
    "ข่าว",
    "วันนี้",
    "อาหาร",
    "ท่องเที่ยว",
    "เมือง",
    "ตลาด",
    "ร้าน",
    "กาแฟ",
    "ทะเล",
    "ภูเขา",
    "โรงเรียน",
    "รถไฟ",
];

/// `n` distinct Thai and Chinese titles (alternately), each three to five
/// words of one language written together as those languages write them,
/// one in four with a year: a Thai- and Chinese-heavy corpus.
/// Rules 2, the version that romanizes writing systems by word.
fn rules_2() -> Rules {
    Rules::numbered(2).expect("rules 2 exist")
}

fn thai_and_chinese(n: usize) -> Vec<String> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |below: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % below
    };
    let mut seen = HashSet::new();
    let mut titles = Vec::with_capacity(n);
    while titles.len() < n {
        let words: &[&str] = if titles.len() % 2 == 0 {
            &CHINESE
        } else {
            &THAI
        };
        let mut title: String = (0..3 + next(3)).map(|_| words[next(words.len())]).collect();
        if next(4) == 0 {
            title.push_str(&format!(" {}", 1990 + next(40)));
        }
        if seen.insert(title.clone()) {
            titles.push(title);
        }
    }
    titles
}

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
    let chain = german_table.chain(german.locale.as_ref(), false);
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
}

/// Every rule version on the sample corpus, side by side (the goal:
/// rules 2 at most 1.1 times rules 1).
fn rules(c: &mut Criterion) {
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let titles: Vec<&str> = slugd::corpus::titles().collect();
    let mut group = c.benchmark_group("rules");
    group.throughput(Throughput::Elements(titles.len() as u64));
    for rules in Rules::all() {
        let options = Options {
            rules,
            ..Options::default()
        };
        group.bench_function(format!("v{rules}"), |b| {
            b.iter(|| {
                for t in &titles {
                    black_box(slugify(black_box(t), &options, &table).ok());
                }
            })
        });
    }
    group.finish();
}

/// Rules 2's segmentation on Thai and Chinese titles: `warm`, 128
/// titles, whose runs each thread remembers after the first time; `cold`,
/// 8192 distinct titles, more runs than a thread keeps
/// (`slugd::slug::MAX_RUNS`), so every one is cut into words afresh (the
/// words, 41 of them, are remembered: this is the segmenter's cost); and
/// rules 1 on the same titles, which reads them letter by letter.
fn scripts(c: &mut Criterion) {
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let cold = thai_and_chinese(8192);
    let warm = &cold[..128];
    let v1 = Options {
        rules: Rules::OLDEST,
        ..Options::default()
    };
    let v2 = Options {
        rules: rules_2(),
        ..Options::default()
    };
    let mut group = c.benchmark_group("scripts");
    for (name, titles, options) in [
        ("v2_warm", warm, &v2),
        ("v1_warm", warm, &v1),
        ("v2_cold", &cold[..], &v2),
        ("v1_cold", &cold[..], &v1),
    ] {
        group.throughput(Throughput::Elements(titles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for t in titles {
                    black_box(slugify(black_box(t), options, &table).ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, corpus, rules, scripts);
criterion_main!(benches);
