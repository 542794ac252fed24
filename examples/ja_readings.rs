//! The figures of issue 20's readings (docs/figures.md, "Japanese
//! readings"): how long IPADIC takes to read, how many written forms are
//! kept, the bytes of the compact form, the memory of a process holding
//! the readings as a `HashMap` or as sorted lines, and the cost of reading
//! a title.
//!
//! ```text
//! cargo run --release --example ja_readings -- load [DIR]
//! cargo run --release --example ja_readings -- compact OUT [DIR]
//! /usr/bin/time -v target/release/examples/ja_readings hold none|hashmap|sorted COMPACT
//! cargo xtask bench japanese --targets reading   (cost COMPACT, with medians)
//! cargo run --release --example ja_readings -- read COMPACT TITLE...
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use slugd_engine::readers::japanese::{self, Reading, SortedReadings, ipadic};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let dir = |i| Path::new(arg(i).unwrap_or(ipadic::DEFAULT_DIR)).to_owned();
    match arg(0) {
        Some("load") => load(&dir(1)),
        Some("compact") => {
            let readings = japanese::read_dir(&dir(2)).unwrap_or_else(|e| fail(&e));
            std::fs::write(arg(1).expect("an output path"), readings.compact())
                .unwrap_or_else(|e| fail(&e));
        }
        Some("hold") => hold(arg(1).unwrap_or("none"), arg(2).unwrap_or("")),
        Some("cost") => cost(arg(1).expect("a compact file")),
        Some("read") => {
            let sorted = sorted(arg(1).expect("a compact file"));
            for title in &args[2..] {
                let keys = japanese::keys_needed(title).len();
                let read = japanese::read_to_string(title, true, |key| sorted.get(key));
                println!("{title}\t{read}\t({keys} keys)");
            }
        }
        _ => {
            eprintln!("usage: ja_readings load|compact|hold|cost|read ... (see the file's doc)");
            std::process::exit(2);
        }
    }
}

fn fail(error: &dyn std::error::Error) -> ! {
    eprintln!("ja_readings: {error}");
    std::process::exit(1);
}

/// Reads the dictionary three times and prints each time, the counts and
/// the compact form's bytes.
fn load(dir: &Path) {
    for _ in 0..3 {
        let started = Instant::now();
        let readings = japanese::read_dir(dir).unwrap_or_else(|e| fail(&e));
        let took = started.elapsed();
        let compact = readings.compact();
        let surfaces: usize = readings.kept.iter().map(|(s, _)| s.len()).sum();
        let romaji: usize = readings
            .kept
            .iter()
            .map(|(s, r)| {
                let mut text = String::new();
                r.romanize_into(&mut text);
                s.len() + text.len() + 2
            })
            .sum();
        println!(
            "read in {:.2} s: {} entries, {} kept; compact form {} bytes \
             (surfaces {} bytes); stored romanized instead: {} bytes",
            took.as_secs_f64(),
            readings.entries,
            readings.kept.len(),
            compact.len(),
            surfaces,
            romaji,
        );
    }
}

fn sorted(path: &str) -> SortedReadings {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&e));
    SortedReadings::new(text).unwrap_or_else(|e| fail(&e))
}

fn hashmap(path: &str) -> HashMap<Box<str>, Reading> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&e));
    let mut map = HashMap::new();
    for line in text.lines() {
        let (surface, value) = line.split_once('\t').expect("a tab");
        map.insert(surface.into(), Reading::decode(value));
    }
    map
}

/// Holds the readings one way and prints the process's resident memory.
fn hold(how: &str, path: &str) {
    // Both kept alive until the memory is read.
    let (mut map, mut lines) = (None, None);
    let held = match how {
        "none" => 0,
        "hashmap" => map.insert(black_box(hashmap(path))).len(),
        "sorted" => lines.insert(black_box(sorted(path))).len(),
        other => panic!("hold none, hashmap or sorted, not {other}"),
    };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmRSS"))
        .unwrap_or("VmRSS: ?");
    println!("{how}: {held} readings held; {rss}");
    black_box((map, lines));
}

/// The time to read each title of the tests (tests/data/ja-*.tsv), 200
/// readings each: a line a title of the microseconds a reading takes by
/// `keys_needed`, from the sorted lines and from a `HashMap`, and the
/// keys it needs, tab-separated. `cargo xtask bench japanese --targets
/// reading` takes their medians.
fn cost(path: &str) {
    let sorted = sorted(path);
    let map = hashmap(path);
    let titles: Vec<String> = ["tests/data/ja-titles.tsv", "tests/data/ja-heldout.tsv"]
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap_or_default()
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split('\t').next().map(str::to_owned))
        .collect();
    let time = |f: &dyn Fn(&str), title: &str| {
        f(title);
        let rounds = 200;
        let started = Instant::now();
        for _ in 0..rounds {
            f(black_box(title));
        }
        started.elapsed().as_secs_f64() * 1e6 / rounds as f64
    };
    println!("# keys_needed_us\tread_sorted_us\tread_hashmap_us\tkeys");
    for title in &titles {
        let keys = time(
            &|t| {
                black_box(japanese::keys_needed(t));
            },
            title,
        );
        let by_sorted = time(
            &|t| {
                black_box(japanese::read_to_string(t, true, |k| sorted.get(k)));
            },
            title,
        );
        let by_map = time(
            &|t| {
                black_box(japanese::read_to_string(t, true, |k| map.get(k).cloned()));
            },
            title,
        );
        let needed = japanese::keys_needed(title).len();
        println!("{keys:.3}\t{by_sorted:.3}\t{by_map:.3}\t{needed}");
    }
}
