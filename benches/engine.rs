//! Engine throughput on the sample corpus, single thread: slugd's engine
//! with each of `corpus::sample_options` (the defaults naming symbols with
//! the in-process table, no symbols, stopwords, replacements) and the
//! `slug` crate, on the same titles in one run; and with `locale: de`
//! (CLDR's German transform and names, from Debian's unicode-cldr-core)
//! beside the same corpus without a locale; rules 1 beside rules 2 on the
//! corpus (group `rules`); and the cost of rules 2's word segmentation on
//! Thai and Chinese titles (group `scripts`); and stopwords looked up
//! alone, the packed table against plain hash sets (group `stopwords`).
//! On a noisy machine, times drift; `benches/engine_instructions.rs`
//! counts instructions, which do not.
//!
//! `cargo xtask bench engine` runs both and writes target/bench/engine.json;
//! this one alone: `cargo bench --bench engine`.

#![allow(missing_docs)]

use std::collections::HashSet;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slugd_engine::cldr::{CldrSettings, DEBIAN_DIR};
use slugd_engine::memory::MemoryTable;
use slugd_engine::options::{Options, RawOptions, Rules};
use slugd_engine::slug::slugify;

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

/// Rules 2, the version that romanizes writing systems by word.
fn rules_2() -> Rules {
    Rules::numbered(2).expect("rules 2 exist")
}

/// `n` distinct Thai and Chinese titles (alternately), each three to five
/// words of one language written together as those languages write them,
/// one in four with a year: a Thai- and Chinese-heavy corpus.
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
    let titles: Vec<&str> = slugd_engine::corpus::titles().collect();

    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(titles.len() as u64));
    for (name, options) in slugd_engine::corpus::sample_options() {
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
    let titles: Vec<&str> = slugd_engine::corpus::titles().collect();
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
/// (`slugd_engine::slug::MAX_RUNS`), so every one is cut into words afresh (the
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

/// Stopwords looked up alone: each word of the corpus's slugs against 40
/// common English stopwords, by the packed table `StopWords` keeps (words
/// of up to 7 bytes as numbers, open addressing) and by a plain hash set
/// of the lowercased word (std's SipHash, and foldhash), as the packed
/// table replaced. The packed table is kept while it beats both by 5% or
/// more.
fn stopwords(c: &mut Criterion) {
    let table = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the shipped data files");
    let list: Vec<String> = STOPWORDS.split(' ').map(str::to_owned).collect();
    let packed = RawOptions {
        stopwords: Some(list.clone()),
        ..RawOptions::default()
    }
    .validate()
    .expect("valid stopwords")
    .stopwords;
    let std: HashSet<Box<[u8]>> = list.iter().map(|w| w.as_bytes().into()).collect();
    let fold: HashSet<Box<[u8]>, foldhash::fast::RandomState> =
        list.iter().map(|w| w.as_bytes().into()).collect();
    let options = Options::default();
    let words: Vec<String> = slugd_engine::corpus::titles()
        .filter_map(|t| slugify(t, &options, &table).ok())
        .flat_map(|s| s.split('-').map(str::to_owned).collect::<Vec<_>>())
        .collect();
    // A word of a slug, lowercased into a buffer on the stack, as a set
    // lookup needs it (slug words may be upper case with `lowercase: false`).
    fn lowered(word: &[u8], buffer: &mut [u8; 256]) -> usize {
        let len = word.len().min(buffer.len());
        buffer[..len].copy_from_slice(&word[..len]);
        buffer[..len].make_ascii_lowercase();
        len
    }
    let mut group = c.benchmark_group("stopwords");
    group.throughput(Throughput::Elements(words.len() as u64));
    group.bench_function("packed", |b| {
        b.iter(|| {
            words
                .iter()
                .filter(|w| packed.contains(black_box(w)))
                .count()
        })
    });
    group.bench_function("hash_set_std", |b| {
        let mut buffer = [0u8; 256];
        b.iter(|| {
            (words.iter())
                .filter(|w| {
                    let len = lowered(black_box(w.as_bytes()), &mut buffer);
                    std.contains(&buffer[..len])
                })
                .count()
        })
    });
    group.bench_function("hash_set_foldhash", |b| {
        let mut buffer = [0u8; 256];
        b.iter(|| {
            (words.iter())
                .filter(|w| {
                    let len = lowered(black_box(w.as_bytes()), &mut buffer);
                    fold.contains(&buffer[..len])
                })
                .count()
        })
    });
    group.finish();
}

/// 40 common English stopwords.
const STOPWORDS: &str = "a an and are as at be but by for from has he in is it its of on or that the to was were will with this your you how what why when who which not no can do my";

criterion_group!(benches, corpus, rules, scripts, stopwords);
criterion_main!(benches);
