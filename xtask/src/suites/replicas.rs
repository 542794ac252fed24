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
//! the other's (--serve-args go to both instances:
//! `--reservation-wait-connections 256` with 256 connections, say). Then
//! Sentinel: for each round a primary, a replica and
//! three sentinels (`redis-server --sentinel`, down-after 1 s), the table
//! loaded through them, one instance of this build with
//! `--redis-sentinel` (not waiting for a replica, which the promoted one
//! lacks); the primary is killed (SIGKILL) and a client reserves every
//! 10 ms on a new connection: how long until the sentinels name the
//! replica, and until a reservation is answered 2xx again, with no
//! restart. Targets: wait sentinel.

use std::path::Path;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::builds::Build;
use crate::builds::Builds;
use crate::http::Client;
use crate::proxy::DelayProxy;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Process, Ready, Redis, Server, free_port};
use crate::settings::Settings;
use crate::tools::need;
use crate::wrk;

const TARGETS: [&str; 2] = ["wait", "sentinel"];

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("wrk", "wrk")?;
    let targets = settings.chosen(&TARGETS, &TARGETS)?;
    let builds = Builds::slugd(settings, work)?;
    if targets.contains(&"wait") {
        wait(settings, &builds, work, report)?;
    }
    if targets.contains(&"sentinel") {
        sentinel(settings, &builds, work, report)?;
    }
    Ok(builds)
}

fn wait(settings: &Settings, builds: &Builds, work: &Path, report: &mut Report) -> Result<()> {
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
            let args: Vec<&str> = args
                .iter()
                .copied()
                .chain(settings.serve_args.iter().map(String::as_str))
                .collect();
            let mut server =
                Server::slugd(&name, builds.bin(build), &primary.backend(), &args, work)?;
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
    Ok(())
}

fn sentinel(settings: &Settings, builds: &Builds, work: &Path, report: &mut Report) -> Result<()> {
    eprintln!(
        "xtask: sentinel, {} rounds: the primary killed under reservations",
        settings.rounds
    );
    for round in 1..=settings.rounds {
        let mut primary = Redis::start(&format!("sentinel-primary-{round}"), work)?;
        let replica_port = free_port()?;
        let replica_dir = work.join(format!("sentinel-replica-{round}"));
        std::fs::create_dir_all(&replica_dir)?;
        let _replica = Process::start(
            &format!("sentinel-replica-{round}"),
            Command::new("redis-server")
                .args(["--bind", "127.0.0.1", "--port", &replica_port.to_string()])
                .args(["--save", "", "--appendonly", "no"])
                .args(["--replicaof", "127.0.0.1", &primary.port.to_string()])
                .arg("--dir")
                .arg(&replica_dir),
            work,
        )?;
        wait_in_sync(&primary)?;
        let mut sentinels = Vec::new();
        for k in 1..=3 {
            sentinels.push(start_sentinel(
                &format!("sentinel-{round}-{k}"),
                primary.port,
                work,
            )?);
        }
        for (_, port) in &sentinels {
            wait_known(*port)?;
        }
        let seeds = sentinels
            .iter()
            .map(|(_, port)| format!("127.0.0.1:{port}"))
            .collect::<Vec<_>>()
            .join(",");
        let backend = Backend::Sentinel(seeds);
        crate::services::load(&builds.now, &backend, &[])?;
        let mut server = Server::slugd(
            &format!("slugd-sentinel-{round}"),
            &builds.now,
            &backend,
            &[],
            work,
        )?;
        server.wait_ready(Ready::Readyz)?;
        let mut n = 0;
        let mut reserve = || {
            n += 1;
            let body = format!(r#"{{"scope": "s{round}", "owner": "o{n}", "title": "Post {n}"}}"#);
            Client::connect_within(server.port, Duration::from_secs(2))
                .and_then(|mut c| c.request("POST", "/reservations", Some(&body)))
                .ok()
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !matches!(reserve(), Some(200 | 201)) {
            if Instant::now() > deadline {
                bail!("no reservation was acknowledged before the kill");
            }
            sleep(Duration::from_millis(50));
        }
        primary.process.kill();
        let killed = Instant::now();
        let mut named = None;
        let mut refused = 0;
        let served = loop {
            if matches!(reserve(), Some(200 | 201)) {
                break killed.elapsed();
            }
            refused += 1;
            if named.is_none() && names(sentinels[0].1)? == Some(replica_port) {
                named = Some(killed.elapsed());
            }
            if killed.elapsed() > Duration::from_secs(60) {
                bail!("no reservation was acknowledged within 60 s of the kill");
            }
            sleep(Duration::from_millis(10));
        };
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let named = named.unwrap_or(served);
        eprintln!(
            "  round {round} sentinels named the replica after {:.0} ms; reservations 2xx again after {:.0} ms ({refused} refused meanwhile)",
            ms(named),
            ms(served)
        );
        report.record("sentinel", "named_after", "ms", Build::Now, ms(named));
        report.record("sentinel", "served_after", "ms", Build::Now, ms(served));
        report.record("sentinel", "refused", "answers", Build::Now, refused as f64);
    }
    Ok(())
}

/// `redis-server CONF --sentinel` watching `primary` as `mymaster`
/// (down-after 1 s, failover timeout 3 s), its configuration in a
/// directory of its own (a sentinel rewrites it); the process and port.
fn start_sentinel(name: &str, primary: u16, work: &Path) -> Result<(Process, u16)> {
    let port = free_port()?;
    let dir = work.join(name);
    std::fs::create_dir_all(&dir)?;
    let conf = dir.join("sentinel.conf");
    std::fs::write(
        &conf,
        format!(
            "port {port}\nbind 127.0.0.1\ndir {}\n\
             sentinel monitor mymaster 127.0.0.1 {primary} 2\n\
             sentinel down-after-milliseconds mymaster 1000\n\
             sentinel failover-timeout mymaster 3000\n",
            dir.display()
        ),
    )?;
    let process = Process::start(
        name,
        Command::new("redis-server").arg(&conf).arg("--sentinel"),
        work,
    )?;
    Ok((process, port))
}

/// Waits until the sentinel on `port` knows the replica and the two
/// other sentinels.
fn wait_known(port: u16) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let fields = crate::tools::output(
            Command::new("redis-cli")
                .args(["-p", &port.to_string()])
                .args(["sentinel", "master", "mymaster"]),
        )
        .unwrap_or_default();
        let lines: Vec<&str> = fields.lines().map(str::trim).collect();
        let field = |name: &str| {
            lines
                .iter()
                .position(|l| *l == name)
                .and_then(|i| lines.get(i + 1).copied())
        };
        if field("num-slaves") == Some("1") && field("num-other-sentinels") == Some("2") {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(
                "the sentinel on port {port} did not learn the replica and the others:\n{fields}"
            );
        }
        sleep(Duration::from_millis(50));
    }
}

/// The port of the primary the sentinel on `port` names now.
fn names(port: u16) -> Result<Option<u16>> {
    let out = crate::tools::output(
        Command::new("redis-cli")
            .args(["-p", &port.to_string()])
            .args(["sentinel", "get-master-addr-by-name", "mymaster"]),
    )?;
    Ok(out.lines().nth(1).and_then(|p| p.trim().parse().ok()))
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
