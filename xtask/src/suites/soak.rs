//! soak: a long load over loopback and a Redis crash under it. wrk with
//! --connections (200) for --duration (60 s), `--timeout 2s`, POST /slug
//! over the corpus, against each target in turn:
//!   - `in_process` and `redis` (a fresh redis-server loaded by `slugd
//!     load`, name cache on);
//!   - `redis_restart`: the same instance while redis-server is killed
//!     (SIGKILL, after a SAVE so that its table comes back) at half time
//!     and restarted on its port 1 s later;
//!   - `redis_nocache_restart`: the same with `--name-cache 0`, where
//!     every title with a symbol needs Redis, so the cache cannot hide the
//!     restart.
//!
//! Figures: req/s, p50, p99, answers other than 2xx, all errors
//! (socket errors and timeouts included), RSS 5 s in and at the end and
//! the growth between; during the restart runs, a probe POSTs a title
//! that needs the table every 50 ms on a new connection (2 s at most):
//! probes sent, failed, and the time from the first failure to the last.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::builds::Build;
use crate::builds::Builds;
use crate::http;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Ready, Redis, Server};
use crate::settings::Settings;
use crate::tools::need;
use crate::wrk;

const TARGETS: [&str; 4] = [
    "in_process",
    "redis",
    "redis_restart",
    "redis_nocache_restart",
];

/// The probe's title: a symbol, so its name comes from the table.
const PROBE_TITLE: &str = "I ❤ Redis";

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("wrk", "wrk")?;
    let targets = settings.chosen(&TARGETS, &TARGETS)?;
    anyhow::ensure!(
        settings.duration_s >= 8,
        "--duration must be at least 8s for soak: RSS is read 5 s in, and a restart comes at half time"
    );
    let builds = Builds::slugd(settings, work)?;
    let mut redis = Redis::start("redis", work)?;
    crate::services::load(&builds.now, &redis.backend(), &[])?;

    // One server per (kind, build): the restart runs reuse `redis`'s.
    let mut servers: Vec<(&str, Build, Server)> = Vec::new();
    for kind in ["in_process", "redis", "redis_nocache"] {
        let used = targets.iter().any(|t| match kind {
            "redis" => *t == "redis" || *t == "redis_restart",
            "redis_nocache" => *t == "redis_nocache_restart",
            _ => *t == kind,
        });
        if !used {
            continue;
        }
        for build in builds.all() {
            let (backend, args): (Backend, &[&str]) = match kind {
                "in_process" => (Backend::InProcess, &[]),
                "redis" => (redis.backend(), &[]),
                _ => (redis.backend(), &["--name-cache", "0"]),
            };
            let name = format!("{kind}-{}", build.label());
            let mut server = Server::slugd(&name, builds.bin(build), &backend, args, work)?;
            server.wait_ready(Ready::Readyz)?;
            servers.push((kind, build, server));
        }
    }
    let pairs: Vec<(&str, Build)> = targets
        .iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (*t, b)))
        .collect();
    eprintln!(
        "xtask: {} connections, {} s a run, POST /slug over the corpus",
        settings.connections, settings.duration_s
    );
    let mut restarts = 0;
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let kind = match target {
                "redis_restart" => "redis",
                "redis_nocache_restart" => "redis_nocache",
                t => t,
            };
            let server = &servers
                .iter()
                .find(|(k, b, _)| *k == kind && *b == build)
                .expect("started above")
                .2;
            let restart = target.ends_with("_restart");
            let soaked = soak(
                settings,
                server,
                restart.then_some(&mut redis),
                &mut restarts,
                work,
            )
            .with_context(|| format!("the {target} run of the {} build", build.label()))?;
            let s = soaked.wrk;
            let growth = (soaked.rss_end - soaked.rss_5s) * 100.0 / soaked.rss_5s;
            eprintln!(
                "  round {} {target:<22} {:<6} {:>8.0} req/s  p50 {:>6.0} us  p99 {:>6.0} us  non-2xx {}  errors {}  RSS 5 s {} kB, end {} kB ({growth:+.1}%)",
                round + 1,
                build.label(),
                s.req_per_s,
                s.p50_us,
                s.p99_us,
                s.non_2xx,
                s.errors,
                soaked.rss_5s,
                soaked.rss_end
            );
            report.record(target, "req_per_s", "req/s", build, s.req_per_s);
            report.record(target, "p50", "us", build, s.p50_us);
            report.record(target, "p99", "us", build, s.p99_us);
            report.record(target, "non_2xx", "answers", build, s.non_2xx);
            report.record(target, "errors", "answers", build, s.errors);
            report.record(target, "rss_5s", "kB", build, soaked.rss_5s);
            report.record(target, "rss_end", "kB", build, soaked.rss_end);
            report.record(target, "rss_growth", "%", build, growth);
            if let Some(probe) = soaked.probe {
                eprintln!(
                    "    probe: {} sent, {} not 200, failing for {:.2} s from the first failure to the last",
                    probe.sent, probe.failed, probe.failing_s
                );
                report.record(target, "probes", "probes", build, probe.sent);
                report.record(target, "probes_failed", "probes", build, probe.failed);
                report.record(target, "probe_failing", "s", build, probe.failing_s);
            }
        }
    }
    Ok(builds)
}

/// One soak run's figures.
struct Soaked {
    wrk: wrk::Summary,
    rss_5s: f64,
    rss_end: f64,
    probe: Option<Probed>,
}

/// What the probe saw during a restart run.
struct Probed {
    sent: f64,
    failed: f64,
    /// From the first failed probe to the last; 0 if none failed.
    failing_s: f64,
}

/// wrk against `server` for --duration; with `restart`, redis-server is
/// killed at half time and restarted, and the probe runs throughout.
fn soak(
    settings: &Settings,
    server: &Server,
    restart: Option<&mut Redis>,
    restarts: &mut usize,
    work: &Path,
) -> Result<Soaked> {
    let probing = restart.is_some();
    let stop = AtomicBool::new(false);
    let failures: Mutex<(usize, Vec<Instant>)> = Mutex::new((0, Vec::new()));
    std::thread::scope(|scope| -> Result<Soaked> {
        let load = scope.spawn(|| {
            wrk::Run {
                script: "corpus.lua",
                port: server.port,
                path: "/slug",
                connections: settings.connections,
                threads: settings.threads,
                duration_s: settings.duration_s,
                env: &[],
                timeout_s: Some(2),
            }
            .run(&settings.root)
        });
        let prober = probing.then(|| {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let (status, _) = http::probe(server.port, PROBE_TITLE, Duration::from_secs(2));
                    let mut seen = failures.lock().expect("the probe's tally");
                    seen.0 += 1;
                    if status != Some(200) {
                        seen.1.push(Instant::now());
                    }
                    drop(seen);
                    sleep(Duration::from_millis(50));
                }
            })
        });
        sleep(Duration::from_secs(5));
        let rss_5s = server.process.rss_kb()?;
        let restarted = match restart {
            Some(redis) => {
                sleep(Duration::from_secs(settings.duration_s / 2 - 5));
                *restarts += 1;
                eprintln!("    killing redis-server, restarting it 1 s later");
                redis.crash_and_restart(
                    &format!("redis-restarted-{restarts}"),
                    Duration::from_secs(1),
                    work,
                )
            }
            None => Ok(()),
        };
        let summary = load.join().expect("the wrk thread does not panic");
        stop.store(true, Ordering::Relaxed);
        if let Some(prober) = prober {
            prober.join().expect("the probe thread does not panic");
        }
        restarted?;
        let rss_end = server.process.rss_kb()?;
        let probe = probing.then(|| {
            let seen = failures.lock().expect("the probe's tally");
            let failing_s = match (seen.1.first(), seen.1.last()) {
                (Some(first), Some(last)) => last.duration_since(*first).as_secs_f64(),
                _ => 0.0,
            };
            Probed {
                sent: seen.0 as f64,
                failed: seen.1.len() as f64,
                failing_s,
            }
        });
        Ok(Soaked {
            wrk: summary?,
            rss_5s,
            rss_end,
            probe,
        })
    })
}
