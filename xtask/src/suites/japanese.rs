//! japanese: what Japanese readings (docs/japanese.md) cost. The loads:
//! `slugd load --locales en` and `--locales en,ja`, each into a fresh
//! redis-server of its own (targets `load_en`, `load_en_ja`): wall time
//! and the loader's peak RSS, the table's size, and of the readings'
//! buckets (`slugd:t:<version>:J*`) their `MEMORY USAGE`, count, fullest
//! bucket (fields, its mark included) and encodings. Then the RSS of one
//! instance warmed with --warm titles (the corpus and the Japanese test
//! titles in turn, every other request with `locale: ja`), half a second
//! after (`rss_warm`) and --settle seconds later (`rss`, 30 s: an
//! in-process start reads the dictionary through tens of MB that
//! jemalloc gives back over tens of seconds): targets `redis_en`,
//! `redis_ja` (on those two tables), `in_process_en`, `in_process_ja`
//! (`serve --locales en` / `en,ja`). And the time per Japanese title:
//! `slugd slugify --locale ja` over the 116 titles of tests/data/ja-*.tsv
//! repeated --repeat times (200) minus the same over them once
//! (start-up, and in process the readings read), over the titles added,
//! each round (targets `slugify_redis`, `slugify_in_process`; the single
//! pass's time is `start`).
//!
//! Named alone, target `reading` times the engine's reading of each of
//! those titles (examples/ja_readings.rs `cost`, 200 readings a title):
//! the lookup of the keys a title needs, and its reading from the compact
//! form's sorted lines and from a `HashMap`, in microseconds, with the
//! keys a title needs; the report takes the medians over the titles.
//!
//! IPADIC comes from $SLUGD_IPADIC or Debian's mecab-ipadic
//! (/usr/share/mecab/dic/ipadic), installed when missing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::shared::{buckets, corpus, post_titles_in, timed_load, warmed_rss};
use crate::builds::{Build, Builds, example};
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Redis};
use crate::settings::Settings;
use crate::tools::{need_file, output, timed};

const TARGETS: [&str; 6] = [
    "redis_en",
    "redis_ja",
    "in_process_en",
    "in_process_ja",
    "slugify_redis",
    "slugify_in_process",
];

/// The engine's reading of each title, run only when named.
const READING: &str = "reading";

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    let mut all = TARGETS.to_vec();
    all.push(READING);
    let mut targets = settings.chosen(&all, &TARGETS)?;
    let ipadic = std::env::var_os("SLUGD_IPADIC")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/usr/share/mecab/dic/ipadic".into());
    need_file(&ipadic.join("Noun.csv"), "mecab-ipadic")?;
    let ipadic_arg = ipadic.display().to_string();
    let japanese = japanese_titles(&settings.root)?;
    if targets.contains(&READING) {
        reading(settings, &ipadic_arg, work, report)?;
        targets.retain(|t| *t != READING);
        if targets.is_empty() {
            return Builds::revisions(settings);
        }
    }
    let builds = Builds::slugd(settings, work)?;

    let mut tables = Vec::new();
    for (locales, target) in [("en", "load_en"), ("en,ja", "load_en_ja")] {
        let redis = Redis::start(&format!("redis-{}", locales.replace(',', "-")), work)?;
        let loaded = timed_load(
            &builds.now,
            &redis,
            &["--locales", locales, "--ipadic", &ipadic_arg],
            work,
        )?;
        let table = redis.table_bytes()?;
        let readings = buckets(&redis, &format!("slugd:t:{}:J*", redis.table_version()?))?;
        eprintln!(
            "  load --locales {locales}: {:.2} s, peak {} kB, table {table} B, readings {} B in {} buckets (fullest {} fields; {})",
            loaded.wall_s,
            loaded.peak_rss_kb,
            readings.bytes,
            readings.keys,
            readings.fullest,
            readings.encodings
        );
        report.record(target, "wall", "s", Build::Now, loaded.wall_s);
        report.record(target, "peak_rss", "kB", Build::Now, loaded.peak_rss_kb);
        report.record(target, "table_bytes", "B", Build::Now, table);
        report.record(target, "readings_bytes", "B", Build::Now, readings.bytes);
        report.record(
            target,
            "readings_buckets",
            "keys",
            Build::Now,
            readings.keys,
        );
        report.record(
            target,
            "fullest_bucket",
            "fields",
            Build::Now,
            readings.fullest,
        );
        report.note(&format!("{target}_encodings"), readings.encodings);
        tables.push((if locales == "en" { "en" } else { "ja" }, redis));
    }

    let mut titles = corpus(&settings.root)?;
    titles.extend(japanese.iter().cloned());
    let once = work.join("ja.txt");
    let many = work.join("ja-many.txt");
    write_lines(&once, &japanese, 1)?;
    write_lines(&many, &japanese, settings.repeat)?;
    let added = (japanese.len() * (settings.repeat - 1)) as f64;
    report.note("japanese_titles", japanese.len());

    let pairs: Vec<(&str, Build)> = targets
        .iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (*t, b)))
        .collect();
    let table = |which: &str| &tables.iter().find(|(l, _)| *l == which).expect("loaded").1;
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let bin = builds.bin(build);
            if let Some(mode) = target.strip_prefix("slugify_") {
                let time = |input: &Path| -> Result<f64> {
                    let mut command = Command::new(bin);
                    command.args(["--log", "error", "slugify", "--locale", "ja"]);
                    if mode == "redis" {
                        table("ja").backend().apply(&mut command);
                    } else {
                        Backend::InProcess.apply(&mut command);
                        command.args(["--locales", "en,ja", "--ipadic", &ipadic_arg]);
                    }
                    Ok(timed(&command, Some(input), Some(Path::new("/dev/null")), work)?.wall_s)
                };
                let start = time(&once)?;
                let per_title = (time(&many)? - start) / added * 1e6;
                eprintln!(
                    "  round {} {target:<18} {:<6} {per_title:.1} us a title (one pass {start:.2} s)",
                    round + 1,
                    build.label()
                );
                report.record(target, "per_title", "us", build, per_title);
                report.record(target, "start", "s", build, start);
                continue;
            }
            let (mode, locales) = target.rsplit_once('_').expect("targets are mode_locales");
            let (backend, args) = match mode {
                "redis" => (table(locales).backend(), vec![]),
                _ if locales == "ja" => (
                    Backend::InProcess,
                    vec!["--locales", "en,ja", "--ipadic", &ipadic_arg],
                ),
                _ => (Backend::InProcess, vec!["--locales", "en"]),
            };
            let (warm, settled) = warmed_rss(
                &format!("{target}-{}", build.label()),
                bin,
                &backend,
                &args,
                |port| {
                    post_titles_in(port, &titles, settings.warm, |k| {
                        (k % 2 == 1).then_some("ja")
                    })
                },
                settings.settle_s,
                work,
            )?;
            eprintln!(
                "  round {} {target:<18} {:<6} RSS {settled} kB {} s after warm-up ({warm} kB right after)",
                round + 1,
                build.label(),
                settings.settle_s
            );
            report.record(target, "rss", "kB", build, settled);
            report.record(target, "rss_warm", "kB", build, warm);
        }
    }
    report.compare("rss", "redis_ja", "redis_en");
    report.compare("rss", "in_process_ja", "in_process_en");
    Ok(builds)
}

/// Target `reading`: examples/ja_readings.rs's `cost` over the compact
/// form of IPADIC's readings, each title's times recorded, so that the
/// report's medians are over the titles.
fn reading(settings: &Settings, ipadic: &str, work: &Path, report: &mut Report) -> Result<()> {
    let bin = example(&settings.root, "ja_readings")?;
    let compact = work.join("ja-compact.txt");
    let compact_arg = compact.display().to_string();
    output(
        Command::new(&bin)
            .args(["compact", &compact_arg, ipadic])
            .current_dir(&settings.root),
    )?;
    eprintln!("xtask: japanese reading, 200 readings of each title");
    let printed = output(
        Command::new(&bin)
            .args(["cost", &compact_arg])
            .current_dir(&settings.root),
    )?;
    let metrics = [
        ("keys_needed", "us"),
        ("read_sorted", "us"),
        ("read_hashmap", "us"),
        ("keys", "keys"),
    ];
    let mut titles = 0;
    for line in printed.lines().filter(|l| !l.starts_with('#')) {
        let values: Vec<f64> = line
            .split('\t')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .with_context(|| format!("ja_readings printed {line:?}, not numbers"))?;
        if values.len() != metrics.len() {
            bail!(
                "ja_readings printed {line:?}, not {} numbers",
                metrics.len()
            );
        }
        for ((metric, unit), value) in metrics.iter().zip(values) {
            report.record(READING, metric, unit, Build::Now, value);
        }
        titles += 1;
    }
    report.note("reading_titles", titles);
    Ok(())
}

/// The Japanese titles of the tests: the first column of
/// tests/data/ja-titles.tsv and ja-heldout.tsv, but comments.
fn japanese_titles(root: &Path) -> Result<Vec<String>> {
    let mut titles = Vec::new();
    for name in ["ja-titles.tsv", "ja-heldout.tsv"] {
        let path = root.join("tests/data").join(name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("could not read {}", path.display()))?;
        titles.extend(
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| l.split('\t').next())
                .filter(|t| !t.is_empty())
                .map(str::to_owned),
        );
    }
    Ok(titles)
}

/// `lines`, `times` over, one a line, into `path`.
fn write_lines(path: &Path, lines: &[String], times: usize) -> Result<()> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    for _ in 0..times {
        for line in lines {
            writeln!(file, "{line}")?;
        }
    }
    file.flush()?;
    Ok(())
}
