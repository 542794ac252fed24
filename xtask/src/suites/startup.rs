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
//!
//! Then the readings (every locale: CLDR's 147, IPADIC's Japanese and the
//! models of Persian's, Urdu's and Arabic's vowels, from the packages
//! scripts/dictionaries.sh installs), prepared and cold: in-process `serve
//! --locales all` from spawn to the first 200 of /readyz, its RSS then and
//! 20 s later, and the PSS of four such instances at once (20 s after
//! they are ready); the readings' starts are polled every 10 ms, not
//! 0.2 ms, since a service that listens while it loads answers each poll; `slugify --locales fa --locale
//! fa` to its first line; `slugd load --locales all` on the loopback
//! Redis. Prepared: the models read from a cache directory `slugd prepare`
//! filled once before the rounds (three runs a round). Cold: an empty
//! cache directory each time, so each model is made again (one run a
//! round: minutes); a --before build from before prepared files is always
//! cold, and is measured so.

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
    readings(settings, &builds, &redis, work, report)?;
    report.compare("median", "slugify_x", "version");
    report.compare("median", "slugify_x_from_files", "slugify_x");
    report.compare("median", "slugify_x_redis", "slugify_x");
    Ok(builds)
}

/// Milliseconds from spawning `slugd serve` (in the work directory, which
/// holds no data files) to its first 200 of GET /readyz.
fn ready_after(bin: &Path, backend: &Backend, work: &Path) -> Result<f64> {
    let (ms, mut server) = serve_ready(
        bin,
        backend,
        &[],
        &[],
        work,
        Duration::from_secs(30),
        Duration::from_micros(200),
    )?;
    server.process.stop();
    Ok(ms)
}

/// `slugd serve` with `args` and `env`, spawned and polled every `poll`
/// until GET /readyz answers 200 (within `within`): the milliseconds that
/// took, and the running server. A service that listens while it reads
/// its table answers each poll, so a poll far more often than a probe's
/// takes the start's CPU: the readings' rows poll every 10 ms.
fn serve_ready(
    bin: &Path,
    backend: &Backend,
    args: &[&str],
    env: &[(&str, &str)],
    work: &Path,
    within: Duration,
    poll: Duration,
) -> Result<(f64, Server)> {
    let started = Instant::now();
    let mut server = Server::slugd_under("serve-start", &[], env, bin, backend, args, work)?;
    loop {
        if http::status(server.port, "GET", "/readyz", None) == Some(200) {
            return Ok((started.elapsed().as_secs_f64() * 1e3, server));
        }
        server.process.check_alive()?;
        if started.elapsed() > within {
            bail!("slugd serve {args:?} was not ready after {within:?}");
        }
        sleep(poll);
    }
}

/// How long a cold start of every reading may take (each model made
/// again, on a busy machine).
const COLD_WITHIN: Duration = Duration::from_secs(900);

/// In-process `slugd serve --locales all` with `env`, once ready.
fn serve_all(bin: &Path, env: &[(&str, &str)], work: &Path) -> Result<(f64, Server)> {
    serve_ready(
        bin,
        &Backend::InProcess,
        &["--locales", "all"],
        env,
        work,
        COLD_WITHIN,
        Duration::from_millis(10),
    )
}

/// How long after it is ready a service's RSS is read again.
const SETTLE: Duration = Duration::from_secs(20);

/// The readings' rows (see the module doc): prepared and cold, each
/// round, both builds' cold with --before.
fn readings(
    settings: &Settings,
    builds: &Builds,
    redis: &Redis,
    work: &Path,
    report: &mut Report,
) -> Result<()> {
    for (file, package) in [
        (
            "/usr/share/unicode/cldr/common/annotations/de.xml",
            "unicode-cldr-core",
        ),
        ("/usr/share/mecab/dic/ipadic/Noun.csv", "mecab-ipadic"),
        ("/usr/share/hunspell/fa_IR.dic", "myspell-fa"),
        ("/usr/share/hunspell/ar.dic", "hunspell-ar"),
        (
            "/usr/local/share/slugd/LughaatNLP/tokenizer.json",
            "LughaatNLP's words",
        ),
    ] {
        if !Path::new(file).exists() {
            bail!("the readings' rows need {package} ({file}): run scripts/dictionaries.sh");
        }
    }
    need("espeak-ng", "espeak-ng")?;
    let prepared = work.join("prepared");
    let prepared_env = prepared.display().to_string();
    eprintln!("xtask: slugd prepare --locales all, once");
    let mut prepare = Command::new(&builds.now);
    prepare
        .args([
            "--log",
            "warn",
            "prepare",
            "--locales",
            "all",
            "--cache-dir",
        ])
        .arg(&prepared);
    tools::run(&mut prepare)?;
    let backend = redis.backend();
    let runs = settings.runs.min(3);
    for round in 0..settings.rounds {
        eprintln!(
            "xtask: round {} of {}: the readings",
            round + 1,
            settings.rounds
        );
        let cold = work.join(format!("cold-{round}"));
        let cold_env = cold.display().to_string();
        let mut starts: Vec<(&str, Build, String)> = Vec::new();
        for _ in 0..runs {
            starts.push(("prepared", Build::Now, prepared_env.clone()));
        }
        for build in builds.all() {
            starts.push(("cold", build, cold_env.clone()));
        }
        let mut settled = false;
        for (kind, build, cache) in rotated(round, &starts) {
            let bin = builds.bin(build);
            if kind == "cold" {
                // Nothing prepared: every model made again.
                let _ = std::fs::remove_dir_all(&cache);
            }
            let env = [("SLUGD_CACHE_DIR", cache.as_str())];
            let (serve_ms, server) = serve_all(bin, &env, work)?;
            report.record(&format!("serve_all_{kind}"), "ready", "ms", build, serve_ms);
            // RSS when ready, and once what the start allocated and freed
            // has gone back to the system (jemalloc's background thread):
            // for every cold start and a round's first prepared one.
            let target = format!("serve_all_{kind}");
            report.record(
                &target,
                "rss_ready",
                "MiB",
                build,
                server.process.rss_kb()? / 1024.0,
            );
            if kind == "cold" || !settled {
                settled |= kind == "prepared";
                sleep(SETTLE);
                let rss = server.process.rss_kb()? / 1024.0;
                report.record(&target, "rss_settled", "MiB", build, rss);
            }
            drop(server);
            if kind == "cold" {
                let _ = std::fs::remove_dir_all(&cache);
            }
            let slugify_ms = first_line(bin, &env, work)?;
            report.record(
                &format!("slugify_fa_{kind}"),
                "first_line",
                "ms",
                build,
                slugify_ms,
            );
            if kind == "cold" {
                let _ = std::fs::remove_dir_all(&cache);
            }
            let started = Instant::now();
            let mut load = Command::new(bin);
            load.envs(env)
                .args(["--log", "warn", "load", "--locales", "all"]);
            backend.apply(&mut load);
            tools::output(&mut load).context("slugd load --locales all failed")?;
            let load_ms = started.elapsed().as_secs_f64() * 1e3;
            report.record(&format!("load_all_{kind}"), "done", "ms", build, load_ms);
            eprintln!(
                "  {kind:<8} {:<6} serve ready {serve_ms:.0} ms, slugify fa {slugify_ms:.0} ms, load {load_ms:.0} ms",
                build.label(),
            );
        }
        // Four prepared instances at once: what each holds of its own.
        let env = [("SLUGD_CACHE_DIR", prepared_env.as_str())];
        let mut four = Vec::new();
        for _ in 0..4 {
            let (_, server) = serve_all(&builds.now, &env, work)?;
            four.push(server);
        }
        // Once what their starts allocated and freed has gone back.
        sleep(SETTLE);
        let mut pss = 0.0;
        for server in &four {
            pss += server.process.pss_kb()? / 1024.0;
        }
        report.record("serve_all_four", "pss_total", "MiB", Build::Now, pss);
        report.record("serve_all_four", "pss_each", "MiB", Build::Now, pss / 4.0);
    }
    report.compare("ready", "serve_all_prepared", "serve_all_cold");
    report.compare("first_line", "slugify_fa_prepared", "slugify_fa_cold");
    report.compare("done", "load_all_prepared", "load_all_cold");
    Ok(())
}

/// Milliseconds from spawning `slugd slugify --locales fa --locale fa` of
/// a Persian title to its first line on standard output.
fn first_line(bin: &Path, env: &[(&str, &str)], work: &Path) -> Result<f64> {
    use std::io::{BufRead, BufReader};
    let started = Instant::now();
    let mut child = Command::new(bin)
        .envs(env.iter().copied())
        .current_dir(work)
        .args([
            "--log",
            "warn",
            "slugify",
            "--locales",
            "fa",
            "--locale",
            "fa",
            "تهران",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .context("could not start slugd slugify")?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line)?;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let status = child.wait()?;
    if !status.success() || line.trim().is_empty() {
        bail!("slugd slugify --locales fa failed ({status})");
    }
    Ok(ms)
}
