//! bulk and unicode: `slugd slugify` over titles from standard input (the
//! corpus repeated to --lines lines), writing to /dev/null: wall time,
//! titles/s and peak RSS (GNU time) of each target, in turns each round;
//! then one more run of each writing to a file, to check that every
//! target wrote the same slugs as the first of its kind (ASCII or
//! --unicode). A before build that writes other slugs is noted, not an
//! error: rule changes do that.
//!
//! Targets: `threads1` (--threads 1), `threads` (the default, one per
//! core), `unicode` (the default with --unicode), `redis` (the default on
//! a fresh redis-server loaded by `slugd load`). The unicode suite is the
//! targets threads and unicode over the corpus repeated 2,000 times: what
//! slugs in the titles' own scripts cost beside ASCII ones.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::shared::corpus;
use crate::builds::Build;
use crate::builds::Builds;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Redis};
use crate::settings::Settings;
use crate::tools::timed;

const TARGETS: [&str; 4] = ["threads1", "threads", "unicode", "redis"];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    let targets = settings.chosen(&TARGETS, &["threads1", "threads"])?;
    measure(
        settings,
        work,
        report,
        &targets,
        settings.lines.unwrap_or(1_000_000),
    )
}

pub fn run_unicode(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    let targets = settings.chosen(&["threads", "unicode"], &["threads", "unicode"])?;
    let lines = match settings.lines {
        Some(lines) => lines,
        None => corpus(&settings.root)?.len() * 2000,
    };
    let builds = measure(settings, work, report, &targets, lines)?;
    report.compare("seconds", "unicode", "threads");
    Ok(builds)
}

fn measure(
    settings: &Settings,
    work: &Path,
    report: &mut Report,
    targets: &[&str],
    lines: usize,
) -> Result<Builds> {
    let builds = Builds::slugd(settings, work)?;
    let titles = corpus(&settings.root)?;
    let input = work.join("titles.txt");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&input)?);
        for title in titles.iter().cycle().take(lines) {
            writeln!(file, "{title}")?;
        }
        file.flush()?;
    }
    let redis = if targets.contains(&"redis") {
        let redis = Redis::start("redis", work)?;
        crate::services::load(&builds.now, &redis.backend(), &[])?;
        Some(redis)
    } else {
        None
    };
    let command_of = |target: &str, build: Build| {
        let mut command = Command::new(builds.bin(build));
        command.args(["--log", "warn", "slugify"]);
        match target {
            "threads1" => drop(command.args(["--threads", "1"])),
            "unicode" => drop(command.arg("--unicode")),
            _ => {}
        }
        match (target, &redis) {
            ("redis", Some(redis)) => redis.backend().apply(&mut command),
            _ => Backend::InProcess.apply(&mut command),
        }
        command
    };
    let pairs: Vec<(&str, Build)> = targets
        .iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (*t, b)))
        .collect();
    eprintln!("xtask: {lines} titles, {} rounds", settings.rounds);
    let null = Path::new("/dev/null");
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let run = timed(&command_of(target, build), Some(&input), Some(null), work)?;
            eprintln!(
                "  round {} {target:<9} {:<6} {:>7.3} s  {:>6.2} M titles/s  peak RSS {} kB",
                round + 1,
                build.label(),
                run.wall_s,
                lines as f64 / run.wall_s / 1e6,
                run.peak_rss_kb
            );
            report.record(target, "seconds", "s", build, run.wall_s);
            report.record(
                target,
                "titles_per_s",
                "titles/s",
                build,
                lines as f64 / run.wall_s,
            );
            report.record(target, "peak_rss", "kB", build, run.peak_rss_kb);
        }
    }

    // Every target wrote the same slugs as the first of its kind.
    let mut first_of: Vec<(bool, std::path::PathBuf, String)> = Vec::new();
    let mut differing = Vec::new();
    for (target, build) in &pairs {
        let out = work.join(format!("out-{target}-{}", build.label()));
        timed(&command_of(target, *build), Some(&input), Some(&out), work)?;
        let unicode = *target == "unicode";
        let name = format!("{target} ({})", build.label());
        match first_of.iter().find(|(kind, _, _)| *kind == unicode) {
            None => first_of.push((unicode, out, name)),
            Some((_, first, first_name)) => {
                let same = std::fs::read(first).context("the first target's slugs")?
                    == std::fs::read(&out).context("a target's slugs")?;
                if !same && *build == Build::Now {
                    bail!("{name} wrote other slugs than {first_name}");
                }
                if !same {
                    differing.push(format!("{name} wrote other slugs than {first_name}"));
                }
            }
        }
    }
    report.note("lines", lines);
    report.note("same_slugs", differing.is_empty());
    if !differing.is_empty() {
        report.note("other_slugs", differing);
    }
    if targets.contains(&"threads1") && targets.contains(&"threads") {
        report.compare("titles_per_s", "threads", "threads1");
    }
    Ok(builds)
}
