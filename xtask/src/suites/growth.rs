//! growth: how a request's cost grows, in-process and on a fresh
//! redis-server, over loopback (both instances with --max-connections
//! 2048):
//!   1. connections: wrk POST /slug over the corpus with 64, 256 and
//!      1,024 connections: req/s and p99 (`c64_req_per_s`, ...);
//!   2. batch size: POST /slugs with 1, 10 and 100 corpus titles a
//!      request, --connections connections: req/s, titles/s, p99;
//!   3. title length: one POST /slug of a title of 1 KiB to 1 MiB (corpus
//!      titles repeated), the median of --repeat timed here: ms, and µs
//!      per KiB, which shows whether the cost is linear.
//!
//! Each round runs every step for every target, the targets' order turned
//! each round.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use super::shared::corpus;
use crate::builds::Build;
use crate::builds::Builds;
use crate::http::Client;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Ready, Redis, Server};
use crate::settings::Settings;
use crate::stats::median;
use crate::tools::need;
use crate::wrk;

const TARGETS: [&str; 2] = ["in_process", "redis"];
const CONNECTIONS: [u32; 3] = [64, 256, 1024];
const BATCHES: [usize; 3] = [1, 10, 100];
const TITLE_KIB: [usize; 4] = [1, 16, 256, 1000];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("wrk", "wrk")?;
    let targets = settings.chosen(&TARGETS, &TARGETS)?;
    let builds = Builds::slugd(settings, work)?;
    let redis = Redis::start("redis", work)?;
    crate::services::load(&builds.now, &redis.backend(), &[])?;
    let mut runs: Vec<(&str, Build, Server)> = Vec::new();
    for &target in &targets {
        for build in builds.all() {
            let backend = if target == "redis" {
                redis.backend()
            } else {
                Backend::InProcess
            };
            let name = format!("{target}-{}", build.label());
            let server = Server::slugd(
                &name,
                builds.bin(build),
                &backend,
                &["--max-connections", "2048"],
                work,
            )?;
            runs.push((target, build, server));
        }
    }
    for (_, _, server) in &mut runs {
        server.wait_ready(Ready::Readyz)?;
    }
    let text = corpus(&settings.root)?.join(" ");
    let order: Vec<usize> = (0..runs.len()).collect();
    for round in 0..settings.rounds {
        eprintln!("xtask: round {} of {}", round + 1, settings.rounds);
        for connections in CONNECTIONS {
            for k in rotated(round, &order) {
                let (target, build, server) = &runs[k];
                let s = wrk_run(settings, server.port, "corpus.lua", connections, &[])?;
                report.record(
                    target,
                    &format!("c{connections}_req_per_s"),
                    "req/s",
                    *build,
                    s.req_per_s,
                );
                report.record(
                    target,
                    &format!("c{connections}_p99"),
                    "us",
                    *build,
                    s.p99_us,
                );
                report.record(
                    target,
                    &format!("c{connections}_errors"),
                    "answers",
                    *build,
                    s.errors,
                );
            }
        }
        for batch in BATCHES {
            for k in rotated(round, &order) {
                let (target, build, server) = &runs[k];
                let env = [("BATCH", batch.to_string())];
                let s = wrk_run(
                    settings,
                    server.port,
                    "batch.lua",
                    settings.connections,
                    &env,
                )?;
                report.record(
                    target,
                    &format!("batch{batch}_req_per_s"),
                    "req/s",
                    *build,
                    s.req_per_s,
                );
                let titles = s.req_per_s * batch as f64;
                report.record(
                    target,
                    &format!("batch{batch}_titles_per_s"),
                    "titles/s",
                    *build,
                    titles,
                );
                report.record(target, &format!("batch{batch}_p99"), "us", *build, s.p99_us);
                report.record(
                    target,
                    &format!("batch{batch}_errors"),
                    "answers",
                    *build,
                    s.errors,
                );
            }
        }
        for kib in TITLE_KIB {
            let body = serde_json::json!({ "title": title_of(&text, kib * 1024) }).to_string();
            for k in rotated(round, &order) {
                let (target, build, server) = &runs[k];
                let mut times = Vec::with_capacity(settings.repeat);
                for _ in 0..settings.repeat {
                    let mut client = Client::connect(server.port)?;
                    let started = Instant::now();
                    let status = client.request("POST", "/slug", Some(&body))?;
                    times.push(started.elapsed().as_secs_f64() * 1e3);
                    anyhow::ensure!(status == 200, "POST /slug of {kib} KiB answered {status}");
                }
                let ms = median(&times).expect("repeat >= 1");
                report.record(target, &format!("title_{kib}KiB"), "ms", *build, ms);
                let per_kib = ms * 1e3 / (body.len() as f64 / 1024.0);
                report.record(
                    target,
                    &format!("title_{kib}KiB_per_KiB"),
                    "us",
                    *build,
                    per_kib,
                );
            }
        }
    }
    report.compare("c64_req_per_s", "redis", "in_process");
    report.compare("batch100_titles_per_s", "redis", "in_process");
    Ok(builds)
}

fn wrk_run(
    settings: &Settings,
    port: u16,
    script: &str,
    connections: u32,
    env: &[(&str, String)],
) -> Result<wrk::Summary> {
    wrk::Run {
        script,
        port,
        path: "/",
        connections,
        threads: settings.threads.min(connections),
        duration_s: settings.duration_s,
        env,
        timeout_s: None,
    }
    .run(&settings.root)
}

/// `text` repeated to `size` bytes, cut at a character boundary.
fn title_of(text: &str, size: usize) -> String {
    let mut title = text.repeat(size / text.len() + 1);
    let mut end = size.min(title.len());
    while !title.is_char_boundary(end) {
        end -= 1;
    }
    title.truncate(end);
    title
}
