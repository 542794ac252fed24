//! instances: the core claim, that an instance on Redis costs no more
//! memory than one with its own table, measured at scale: for each count
//! N of --counts (1, 4, 16), N `slugd serve` at once in each mode
//! (in-process, and on one fresh redis-server loaded by `slugd load`),
//! each warmed with --warm corpus titles (500), then the RSS of each half
//! a second later: the median over the N (`n<N>_rss_each`) and the sum
//! (`n<N>_rss_all`); and the Redis table's size, which the Redis
//! instances share. With --before, each N runs for both builds, one after
//! the other in an order turned each round.

use std::path::Path;
use std::thread::sleep;
use std::time::Duration;

use anyhow::Result;

use super::shared::{corpus, post_titles};
use crate::builds::Build;
use crate::builds::Builds;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Ready, Redis, Server};
use crate::settings::Settings;
use crate::stats::median;

const TARGETS: [&str; 2] = ["in_process", "redis"];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    let targets = settings.chosen(&TARGETS, &TARGETS)?;
    let titles = corpus(&settings.root)?;
    let builds = Builds::slugd(settings, work)?;
    let redis = Redis::start("redis", work)?;
    let loaded = crate::services::load(&builds.now, &redis.backend(), &[])?;
    report.note("loader_output", loaded.trim());
    report.record(
        "redis-server",
        "table_bytes",
        "B",
        Build::Now,
        redis.table_bytes()?,
    );

    let runs: Vec<(&str, usize, Build)> = targets
        .iter()
        .flat_map(|&t| settings.counts.iter().map(move |&n| (t, n)))
        .flat_map(|(t, n)| builds.all().into_iter().map(move |b| (t, n, b)))
        .collect();
    for round in 0..settings.rounds {
        for (target, n, build) in rotated(round, &runs) {
            let backend = match target {
                "redis" => redis.backend(),
                _ => Backend::InProcess,
            };
            let mut servers = (0..n)
                .map(|k| {
                    let name = format!("{target}-{n}-{k}-{}", build.label());
                    Server::slugd(&name, builds.bin(build), &backend, &[], work)
                })
                .collect::<Result<Vec<_>>>()?;
            for server in &mut servers {
                server.wait_ready(Ready::Readyz)?;
                post_titles(server.port, &titles, settings.warm)?;
            }
            sleep(Duration::from_millis(500));
            let each = servers
                .iter()
                .map(|s| s.process.rss_kb())
                .collect::<Result<Vec<_>>>()?;
            let median_kb = median(&each).expect("at least one instance");
            let all_kb: f64 = each.iter().sum();
            eprintln!(
                "  round {} {target:<10} N = {n:<3} {:<6} RSS each (median) {median_kb:.0} kB, all {all_kb:.0} kB",
                round + 1,
                build.label()
            );
            report.record(target, &format!("n{n}_rss_each"), "kB", build, median_kb);
            report.record(target, &format!("n{n}_rss_all"), "kB", build, all_kb);
        }
    }
    Ok(builds)
}
