//! memory: one slugd instance at a time, in-process and on a fresh
//! redis-server loaded by `slugd load`: RSS and anonymous memory
//! (/proc/<pid>/smaps_rollup) idle (started, one POST /slug, a second's
//! pause), warm (right after --warm more POST /slug over the corpus on one
//! kept-alive connection) and settled (--settle seconds later, idle again:
//! jemalloc's background thread returns freed pages over 10 s); and the
//! Redis table's used_memory. The binary is read into the page cache
//! before each start, so every start finds it alike. The goal the figures
//! are held to: RSS at most 8 MiB (8,192 kB) after warm-up.

use std::path::Path;
use std::thread::sleep;
use std::time::Duration;

use anyhow::{Context, Result};

use super::shared::{corpus, post_titles};
use crate::builds::Build;
use crate::builds::Builds;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Ready, Redis, Server};
use crate::settings::Settings;

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
        "used_memory",
        "B",
        Build::Now,
        redis.used_memory()?,
    );

    let pairs: Vec<(&str, Build)> = targets
        .iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (*t, b)))
        .collect();
    eprintln!(
        "xtask: {} rounds, one instance at a time: idle, after {} requests, {} s later",
        settings.rounds, settings.warm, settings.settle_s
    );
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let bin = builds.bin(build);
            std::fs::read(bin).with_context(|| format!("could not read {}", bin.display()))?;
            let backend = match target {
                "redis" => redis.backend(),
                _ => Backend::InProcess,
            };
            let mut server = Server::slugd(
                &format!("{target}-{}", build.label()),
                bin,
                &backend,
                &[],
                work,
            )?;
            server.wait_ready(Ready::Readyz)?;
            post_titles(server.port, &titles, 1)?;
            sleep(Duration::from_secs(1));
            let mut seen = Vec::new();
            let mut stage = |stage: &str, server: &Server| -> Result<()> {
                let (rss, anon) = server.process.smaps_kb()?;
                report.record(target, &format!("{stage}_rss"), "kB", build, rss);
                report.record(target, &format!("{stage}_anonymous"), "kB", build, anon);
                seen.push(format!("{stage} {rss} / {anon}"));
                Ok(())
            };
            stage("idle", &server)?;
            post_titles(server.port, &titles, settings.warm)?;
            stage("warm", &server)?;
            sleep(Duration::from_secs(settings.settle_s));
            stage("settled", &server)?;
            server.process.stop();
            eprintln!(
                "  round {} {target:<10} {:<6} RSS / anonymous kB: {}",
                round + 1,
                build.label(),
                seen.join(", ")
            );
        }
    }
    Ok(builds)
}
