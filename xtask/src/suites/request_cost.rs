//! request-cost: instructions per POST /slug, counted by callgrind over a
//! live service: a figure the machine's noise does not move, beside the
//! req/s of the throughput suite. `slugd serve` with one worker thread
//! (TOKIO_WORKER_THREADS=1) runs under `valgrind --tool=callgrind`; it
//! gets 2,000 and, in another run, 6,000 corpus titles on one kept-alive
//! connection, and the difference of the two totals over 4,000 is the
//! cost of one request, start-up and shutdown cancelled out. Two counts:
//! `whole_process` (user space, hyper and tokio included; the kernel's
//! share is not counted) and `service_path` (callgrind's
//! --toggle-collect on what runs from hyper handing the request over to
//! the response: `call_app` and `TrackedAnswer`'s `poll` in
//! src/http/server.rs, kept out of line for this, or hyper-util's
//! TowerToHyperServiceFuture in builds before them; a build has one or
//! the other).
//!
//! Targets: `in_process`, `redis` (a fresh redis-server loaded by
//! `slugd load`, read with the name cache as by default). --rounds
//! repeats every count; with --before both builds take turns.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::shared::{corpus, post_titles};
use crate::builds::Build;
use crate::builds::Builds;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Ready, Redis, Server};
use crate::settings::Settings;
use crate::tools::need;

const TARGETS: [&str; 2] = ["in_process", "redis"];

/// The service path's functions, for --toggle-collect.
const SERVICE_PATH: [&str; 3] = [
    "--toggle-collect=*TowerToHyperServiceFuture*",
    "--toggle-collect=*server::call_app*",
    "--toggle-collect=*TrackedAnswer*poll*",
];

/// The two runs' lengths, in requests.
const FEW: usize = 2000;
const MANY: usize = 6000;

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("valgrind", "valgrind")?;
    let targets = settings.chosen(&TARGETS, &["in_process"])?;
    let titles = corpus(&settings.root)?;
    let builds = Builds::slugd(settings, work)?;
    let redis = if targets.contains(&"redis") {
        let redis = Redis::start("redis", work)?;
        crate::services::load(&builds.now, &redis.backend(), &[])?;
        Some(redis)
    } else {
        None
    };
    let pairs: Vec<(&str, Build)> = targets
        .iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (*t, b)))
        .collect();
    let mut serial = 0;
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let backend = match (&redis, target) {
                (Some(redis), "redis") => redis.backend(),
                _ => Backend::InProcess,
            };
            for (metric, toggles) in [
                ("whole_process", &[][..]),
                ("service_path", &SERVICE_PATH[..]),
            ] {
                let mut count = |n: usize| {
                    serial += 1;
                    let out = work.join(format!("callgrind.{target}.{}.{serial}", build.label()));
                    instructions(builds.bin(build), &backend, toggles, &out, &titles, n, work)
                };
                let few = count(FEW)?;
                let many = count(MANY)?;
                if many <= few {
                    bail!(
                        "callgrind counted {many} instructions for {MANY} requests and {few} for {FEW} ({target}, {}, {metric})",
                        build.label()
                    );
                }
                let per_request = (many - few) / (MANY - FEW) as f64;
                eprintln!(
                    "  round {} {target:<10} {:<6} {metric:<13} {per_request:>9.0} instructions a request",
                    round + 1,
                    build.label()
                );
                report.record(target, metric, "instructions", build, per_request);
            }
        }
    }
    report.compare("service_path", "redis", "in_process");
    report.compare("whole_process", "redis", "in_process");
    Ok(builds)
}

/// The instructions callgrind counted over a whole `slugd serve` that
/// answered `n` POST /slug, with callgrind's `toggles`.
fn instructions(
    bin: &Path,
    backend: &Backend,
    toggles: &[&str],
    out: &Path,
    titles: &[String],
    n: usize,
    work: &Path,
) -> Result<f64> {
    let mut wrapper = vec!["valgrind".to_owned(), "--tool=callgrind".to_owned()];
    wrapper.extend(toggles.iter().map(|t| t.to_string()));
    wrapper.push(format!("--callgrind-out-file={}", out.display()));
    let mut server = Server::slugd_under(
        "callgrind-slugd",
        &wrapper,
        &[("TOKIO_WORKER_THREADS", "1")],
        bin,
        backend,
        &[],
        work,
    )?;
    server.wait_ready_within(Ready::Readyz, Duration::from_secs(300))?;
    post_titles(server.port, titles, n)?;
    server.process.stop_within(Duration::from_secs(60));
    let text = std::fs::read_to_string(out)
        .with_context(|| format!("callgrind wrote no {}", out.display()))?;
    totals(&text).with_context(|| format!("{} has no totals: line", out.display()))
}

/// The `totals:` (or, failing that, `summary:`) line of a callgrind file:
/// the events collected, instructions first.
fn totals(text: &str) -> Option<f64> {
    let line = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
    };
    line("totals:").or_else(|| line("summary:"))
}

#[cfg(test)]
mod tests {
    use super::totals;

    #[test]
    fn totals_come_from_the_totals_line() {
        assert_eq!(
            totals("events: Ir\nfn=(1)\n1 5\nsummary: 900\ntotals: 812\n"),
            Some(812.0)
        );
        assert_eq!(totals("events: Ir\nsummary: 900\n"), Some(900.0));
        assert_eq!(totals("events: Ir\n"), None);
    }
}
