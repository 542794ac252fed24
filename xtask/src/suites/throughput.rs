//! throughput: wrk over loopback, POST /slug cycling through the corpus
//! (scripts/wrk/corpus.lua), against slugd in-process, on a fresh
//! redis-server and on a fresh 3-primary Redis Cluster (each with and
//! without the name cache), and the bare axum handler of
//! examples/bare.rs. All targets are started before the first round and
//! take turns in each round, each round starting one target further on;
//! with --before, every slugd target runs with both builds. Figures:
//! req/s, p50 and p99 latency, errors, RSS idle and after the rounds; the
//! loader's time and peak RSS and the Redis table's memory.

use std::path::Path;
use std::process::Command;
use std::thread::sleep;
use std::time::Duration;

use anyhow::Result;

use crate::builds::Build;
use crate::builds::{self, Builds};
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Cluster, Ready, Redis, Server};
use crate::settings::Settings;
use crate::tools::{need, timed};
use crate::wrk;

const TARGETS: [&str; 6] = [
    "in_process",
    "redis",
    "redis_nocache",
    "cluster",
    "cluster_nocache",
    "bare",
];

/// Lua: the bucket keys' encodings of the table in use, counted.
const ENCODINGS: &str = "local v = redis.call('GET', KEYS[1])
local keys = redis.call('KEYS', ARGV[1] .. 't:' .. v .. ':*')
local enc = {}
for _, k in ipairs(keys) do local e = redis.call('OBJECT', 'ENCODING', k); enc[e] = (enc[e] or 0) + 1 end
local out = {}
for e, n in pairs(enc) do out[#out + 1] = n .. ' ' .. e end
return table.concat(out, ', ')";

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("wrk", "wrk")?;
    let targets = settings.chosen(&TARGETS, &TARGETS)?;
    let builds = Builds::slugd(settings, work)?;
    let bare = if targets.contains(&"bare") {
        Some(builds::example(&settings.root, "bare")?)
    } else {
        None
    };

    let redis = if targets.iter().any(|t| t.starts_with("redis")) {
        let redis = Redis::start("redis", work)?;
        let mut load = Command::new(&builds.now);
        load.args(["--log", "warn", "load"]);
        redis.backend().apply(&mut load);
        let loaded = timed(&load, None, None, work)?;
        report.record("loader", "wall", "s", Build::Now, loaded.wall_s);
        report.record("loader", "peak_rss", "kB", Build::Now, loaded.peak_rss_kb);
        report.note("loader_output", loaded.stdout.trim());
        report.record(
            "redis-server",
            "used_memory",
            "B",
            Build::Now,
            redis.used_memory()?,
        );
        let encodings = redis.cli(&[
            "--raw",
            "eval",
            ENCODINGS,
            "1",
            "slugd:{ctl}:current",
            "slugd:",
        ])?;
        report.note("bucket_encodings", encodings.trim());
        Some(redis)
    } else {
        None
    };
    let cluster = if targets.iter().any(|t| t.starts_with("cluster")) {
        let cluster = Cluster::start(work)?;
        let out = crate::services::load(&builds.now, &cluster.backend(), &[])?;
        report.note("cluster_loader_output", out.trim());
        let mut nodes = Vec::new();
        for node in &cluster.nodes {
            let buckets = node.cli(&[
                "--raw",
                "eval",
                "return #redis.call('KEYS', 'slugd:t:*')",
                "0",
            ])?;
            nodes.push(format!(
                "node {}: {} buckets, used_memory {} B",
                node.port,
                buckets.trim(),
                node.used_memory()?
            ));
        }
        report.note("cluster_nodes", nodes);
        Some(cluster)
    } else {
        None
    };

    // Every (target, build) pair, started before the first round.
    let mut runs: Vec<(&str, Build, Server)> = Vec::new();
    for &target in &targets {
        for build in builds.all() {
            if target == "bare" && build == Build::Before {
                continue;
            }
            let name = format!("{target}-{}", build.label());
            let bin = builds.bin(build);
            let no_cache: &[&str] = if target.ends_with("_nocache") {
                &["--name-cache", "0"]
            } else {
                &[]
            };
            let server = match target {
                "bare" => Server::bare(&name, bare.as_deref().expect("built above"), work)?,
                "in_process" => Server::slugd(&name, bin, &Backend::InProcess, &[], work)?,
                t if t.starts_with("redis") => {
                    let backend = redis.as_ref().expect("started above").backend();
                    Server::slugd(&name, bin, &backend, no_cache, work)?
                }
                _ => {
                    let backend = cluster.as_ref().expect("started above").backend();
                    Server::slugd(&name, bin, &backend, no_cache, work)?
                }
            };
            runs.push((target, build, server));
        }
    }
    for (target, _, server) in &mut runs {
        server.wait_ready(if *target == "bare" {
            Ready::Slug
        } else {
            Ready::Readyz
        })?;
    }
    sleep(Duration::from_millis(500));
    for (target, build, server) in &runs {
        report.record(target, "idle_rss", "kB", *build, server.process.rss_kb()?);
    }

    eprintln!(
        "xtask: {} rounds of {} s per target, {} connections, {} wrk thread(s)",
        settings.rounds, settings.duration_s, settings.connections, settings.threads
    );
    let order: Vec<usize> = (0..runs.len()).collect();
    for round in 0..settings.rounds {
        for k in rotated(round, &order) {
            let (target, build, server) = &runs[k];
            let summary = wrk::Run {
                script: "corpus.lua",
                port: server.port,
                path: "/slug",
                connections: settings.connections,
                threads: settings.threads,
                duration_s: settings.duration_s,
                env: &[],
                timeout_s: None,
            }
            .run(&settings.root)?;
            eprintln!(
                "  round {} {target:<16} {:<6} {:>9.0} req/s  p50 {:>7.0} us  p99 {:>7.0} us  errors {}",
                round + 1,
                build.label(),
                summary.req_per_s,
                summary.p50_us,
                summary.p99_us,
                summary.errors
            );
            report.record(target, "req_per_s", "req/s", *build, summary.req_per_s);
            report.record(target, "p50", "us", *build, summary.p50_us);
            report.record(target, "p99", "us", *build, summary.p99_us);
            report.record(target, "errors", "answers", *build, summary.errors);
        }
    }
    for (target, build, server) in &runs {
        report.record(
            target,
            "rss_after_load",
            "kB",
            *build,
            server.process.rss_kb()?,
        );
    }
    for (a, b) in [
        ("redis", "in_process"),
        ("redis", "bare"),
        ("in_process", "bare"),
        ("redis_nocache", "in_process"),
        ("cluster", "redis"),
        ("cluster_nocache", "redis_nocache"),
    ] {
        report.compare("req_per_s", a, b);
    }
    Ok(builds)
}
