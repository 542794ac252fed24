//! startup: a release slugd run from an empty directory with nothing
//! beside it. hyperfine (`-N`, 10 warm-up runs, --runs timed) side by side
//! for `slugd --version` (the floor: a process that parses its arguments
//! and exits), `slugd slugify x` and `slugd slugify 'I ❤ Redis'` with the
//! built-in table, the same with the table read from the repository's
//! files at start (`--data`, `--cldr`) and on a loopback redis-server
//! loaded by `slugd load`; then `slugd serve` from spawn to the first 200
//! of GET /readyz (polled every 0.2 ms), in-process and on that Redis.
//! Each round is one hyperfine call over every command (both builds' with
//! --before), in an order turned each round; a figure is the median over
//! the rounds of each round's median.

use std::path::Path;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::builds::Build;
use crate::builds::Builds;
use crate::http;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Redis, Server};
use crate::settings::Settings;
use crate::stats::median;
use crate::tools::{self, need};

/// Environment a start must not see, so that every start reads only what
/// its command line says.
const CLEARED: [&str; 6] = [
    "REDIS_URL",
    "REDIS_CLUSTER",
    "SLUGD_DATA",
    "SLUGD_CLDR",
    "SLUGD_LOCALES",
    "SLUGD_CATEGORIES",
];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("hyperfine", "hyperfine")?;
    let builds = Builds::slugd(settings, work)?;
    let redis = Redis::start("redis", work)?;
    crate::services::load(&builds.now, &redis.backend(), &[])?;
    let url = redis.url();
    let empty = work.join("empty");
    std::fs::create_dir_all(&empty)?;
    let data = settings.root.join("data");

    // (figure name, build, the command hyperfine runs)
    let mut commands: Vec<(String, Build, String)> = Vec::new();
    for build in builds.all() {
        let bin = builds.bin(build).display().to_string();
        for (name, args) in [
            ("version", "--version".to_owned()),
            ("slugify_x", "slugify x".to_owned()),
            ("slugify_symbol", "slugify 'I ❤ Redis'".to_owned()),
            (
                "slugify_x_from_files",
                format!(
                    "slugify --data {} --cldr {} x",
                    data.join("UnicodeData.txt").display(),
                    data.join("cldr").display()
                ),
            ),
            ("slugify_x_redis", format!("slugify --redis-url {url} x")),
            (
                "slugify_symbol_redis",
                format!("slugify --redis-url {url} 'I ❤ Redis'"),
            ),
        ] {
            commands.push((name.to_owned(), build, format!("{bin} {args}")));
        }
    }

    let exported = work.join("hyperfine.json");
    for round in 0..settings.rounds {
        let order = rotated(round, &commands);
        eprintln!(
            "xtask: round {} of {}: hyperfine",
            round + 1,
            settings.rounds
        );
        let mut hyperfine = Command::new("hyperfine");
        hyperfine
            .current_dir(&empty)
            .args(["-N", "--style", "none", "--warmup", "10"])
            .args(["--runs", &settings.runs.to_string(), "--export-json"])
            .arg(&exported);
        for name in CLEARED {
            hyperfine.env_remove(name);
        }
        for (_, _, command) in &order {
            hyperfine.arg(command);
        }
        tools::run(&mut hyperfine)?;
        let text = std::fs::read_to_string(&exported)?;
        let results: Value = serde_json::from_str(&text).context("hyperfine's JSON export")?;
        let results = results["results"]
            .as_array()
            .context("hyperfine's JSON has no results")?;
        if results.len() != order.len() {
            bail!(
                "hyperfine reported {} commands of {}",
                results.len(),
                order.len()
            );
        }
        for ((name, build, _), result) in order.iter().zip(results) {
            for (metric, field) in [("median", "median"), ("user", "user"), ("system", "system")] {
                if let Some(seconds) = result[field].as_f64() {
                    report.record(name, metric, "ms", *build, seconds * 1e3);
                }
            }
        }

        // serve: spawn to the first 200 of /readyz.
        let serves: Vec<(&str, Build)> = ["serve_in_process", "serve_redis"]
            .into_iter()
            .flat_map(|t| builds.all().into_iter().map(move |b| (t, b)))
            .collect();
        for (target, build) in rotated(round, &serves) {
            let backend = if target == "serve_redis" {
                redis.backend()
            } else {
                Backend::InProcess
            };
            let mut times = Vec::with_capacity(settings.runs);
            for _ in 0..settings.runs {
                times.push(ready_after(builds.bin(build), &backend, work)?);
            }
            let ms = median(&times).expect("runs >= 2");
            eprintln!(
                "  {target:<18} {:<6} spawn to ready: median {ms:.1} ms",
                build.label()
            );
            report.record(target, "ready", "ms", build, ms);
        }
    }
    report.compare("median", "slugify_x", "version");
    report.compare("median", "slugify_x_from_files", "slugify_x");
    report.compare("median", "slugify_x_redis", "slugify_x");
    Ok(builds)
}

/// Milliseconds from spawning `slugd serve` (in the work directory, which
/// holds no data files) to its first 200 of GET /readyz.
fn ready_after(bin: &Path, backend: &Backend, work: &Path) -> Result<f64> {
    let started = Instant::now();
    let mut server = Server::slugd("serve-start", bin, backend, &[], work)?;
    loop {
        if http::status(server.port, "GET", "/readyz", None) == Some(200) {
            let ms = started.elapsed().as_secs_f64() * 1e3;
            server.process.stop();
            return Ok(ms);
        }
        server.process.check_alive()?;
        if started.elapsed() > Duration::from_secs(30) {
            bail!("slugd serve was not ready after 30 s");
        }
        sleep(Duration::from_micros(200));
    }
}
