//! replicas: what waiting for a replica costs reservations. One
//! redis-server primary, loaded by `slugd load`, and one replica whose
//! link to it runs through a proxy that delays every byte --delay-ms each
//! way (crate::proxy), as a replica in another zone would be. For each
//! build, two instances on the primary: one answering as soon as the
//! primary has a reservation, one with `--reservation-replicas 1`. wrk
//! POSTs /reservations to each in turn with --connections connections
//! (scripts/wrk/reserve.lua, a new owner each request, a scope of its own
//! each run) for --rounds rounds: req/s, p50, p99 and errors (a 503
//! not_replicated is one), and the ratio of the waiting instance's rate to
//! the other's. Targets: wait.

use std::path::Path;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::builds::Builds;
use crate::cli::Settings;
use crate::proxy::DelayProxy;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Process, Ready, Redis, Server, free_port};
use crate::tools::need;
use crate::wrk;

const TARGETS: [&str; 1] = ["wait"];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("wrk", "wrk")?;
    settings.chosen(&TARGETS, &TARGETS)?;
    let builds = Builds::slugd(settings, work)?;
    let primary = Redis::start("primary", work)?;
    crate::services::load(&builds.now, &primary.backend(), &[])?;
    let delay = Duration::from_millis(settings.delay_ms);
    let proxy = DelayProxy::start(primary.port, delay)?;
    let replica_port = free_port()?;
    let _replica = Process::start(
        "replica",
        Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &replica_port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .args(["--replicaof", "127.0.0.1", &proxy.port.to_string()])
            .arg("--dir")
            .arg(work),
        work,
    )?;
    wait_in_sync(&primary)?;
    report.note("replica_link_delay_ms_each_way", settings.delay_ms);

    let mut servers = Vec::new();
    for build in builds.all() {
        for (waits, args) in [
            ("none", &[][..]),
            ("one", &["--reservation-replicas", "1"][..]),
        ] {
            let name = format!("slugd-{}-{waits}", build.label());
            let mut server =
                Server::slugd(&name, builds.bin(build), &primary.backend(), args, work)?;
            server.wait_ready(Ready::Readyz)?;
            servers.push(((build, waits), server));
        }
    }
    let pairs: Vec<_> = servers.iter().map(|(key, _)| *key).collect();
    eprintln!(
        "xtask: replicas, {} rounds of {} s, {} connections, the replica {} ms away each way",
        settings.rounds, settings.duration_s, settings.connections, settings.delay_ms
    );
    for round in 0..settings.rounds {
        for (build, waits) in rotated(round, &pairs) {
            let server = &servers
                .iter()
                .find(|(key, _)| *key == (build, waits))
                .expect("started")
                .1;
            let scope = format!("{waits}-{}-{}", build.label(), round + 1);
            let env = [("SCOPE", scope.clone()), ("OWNER", format!("{scope}-"))];
            let s = wrk::Run {
                script: "reserve.lua",
                port: server.port,
                path: "/reservations",
                connections: settings.connections,
                threads: 1,
                duration_s: settings.duration_s,
                env: &env,
                timeout_s: None,
            }
            .run(&settings.root)?;
            eprintln!(
                "  round {} {:<6} replicas {waits:<4} {:>8.0} req/s  p50 {:>7.0} us  p99 {:>7.0} us  errors {}",
                round + 1,
                build.label(),
                s.req_per_s,
                s.p50_us,
                s.p99_us,
                s.errors
            );
            let target = format!("replicas_{waits}");
            report.record(&target, "req_per_s", "req/s", build, s.req_per_s);
            report.record(&target, "p50", "us", build, s.p50_us);
            report.record(&target, "p99", "us", build, s.p99_us);
            report.record(&target, "errors", "answers", build, s.errors);
        }
    }
    report.compare("req_per_s", "replicas_one", "replicas_none");
    Ok(builds)
}

/// Waits until the primary lists its replica online (through the proxy).
fn wait_in_sync(primary: &Redis) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let info = primary.cli(&["info", "replication"])?;
        if info.contains("state=online") {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("the replica did not come online through the delay proxy:\n{info}");
        }
        sleep(Duration::from_millis(50));
    }
}
