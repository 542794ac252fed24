//! flood: can a client starve the service with connections? For each kind
//! of flood (targets `silent`, `trickle`, `idle`: scripts/lib/flood.py
//! says what each sends), a fresh `slugd serve` in-process with its
//! default limits (and --serve-args), --warm corpus titles (500), a
//! second's pause, idle RSS; then --flood connections (20,000) of that
//! kind, opened as fast as the clients can and held --hold seconds (20)
//! after the last, then closed. The flood is split over as many
//! flood.py processes as it takes to hold at most --per-client (8,000)
//! each, under the open-files limit. Throughout, a probe POSTs /slug on a
//! new connection every 0.2 s (10 s at most each step).
//!
//! Figures, per flood and build: the probes sent and answered 200, their
//! median and slowest time; peak RSS (VmHWM) and RSS 30 s after the flood
//! ended, against idle; the handshakes the kernel dropped for a full
//! listen backlog meanwhile (every listener on the machine counts). What
//! each flood client saw is a note.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::shared::{corpus, post_titles};
use crate::builds::Build;
use crate::builds::Builds;
use crate::http;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Backend, Ready, Server};
use crate::settings::Settings;
use crate::stats::median;
use crate::tools::{describe, need, tail};

const TARGETS: [&str; 3] = ["silent", "trickle", "idle"];

/// Open files a client process needs beside its connections.
const SPARE_FILES: usize = 64;

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("python3", "python3")?;
    let kinds = settings.chosen(&TARGETS, &TARGETS)?;
    let hard = open_files_hard_limit()?;
    if hard.is_some_and(|hard| hard < settings.per_client + SPARE_FILES) {
        bail!(
            "--per-client {} needs an open-files limit of {}; the hard limit is {} (ulimit -Hn): give a smaller --per-client",
            settings.per_client,
            settings.per_client + SPARE_FILES,
            hard.unwrap_or_default()
        );
    }
    let titles = corpus(&settings.root)?;
    let builds = Builds::slugd(settings, work)?;
    let serve_args: Vec<&str> = settings.serve_args.iter().map(String::as_str).collect();
    let clients = settings.flood.div_ceil(settings.per_client);
    eprintln!(
        "xtask: floods of {} connections from {clients} client(s), held {} s",
        settings.flood, settings.hold_s
    );
    let pairs: Vec<(&str, Build)> = kinds
        .iter()
        .flat_map(|k| builds.all().into_iter().map(move |b| (*k, b)))
        .collect();
    let mut seen_by_clients = serde_json::Map::new();
    for round in 0..settings.rounds {
        for (kind, build) in rotated(round, &pairs) {
            let name = format!("{kind}-{}", build.label());
            let mut server = Server::slugd(
                &name,
                builds.bin(build),
                &Backend::InProcess,
                &serve_args,
                work,
            )?;
            server.wait_ready(Ready::Readyz)?;
            post_titles(server.port, &titles, settings.warm)?;
            sleep(Duration::from_secs(1));
            let idle = server.process.rss_kb()?;

            let stop = AtomicBool::new(false);
            let probes: Mutex<Vec<(Option<u16>, f64)>> = Mutex::new(Vec::new());
            let dropped_before = listen_overflows()?;
            let (flooded, ended) = std::thread::scope(|scope| {
                let prober = scope.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        let (status, took) =
                            http::probe(server.port, "Still ☃ here?", Duration::from_secs(10));
                        probes
                            .lock()
                            .expect("the probe's tally")
                            .push((status, took.as_secs_f64() * 1e3));
                        sleep(Duration::from_millis(200));
                    }
                });
                let flooded = flood(settings, server.port, kind, clients);
                let ended = Instant::now();
                stop.store(true, Ordering::Relaxed);
                prober.join().expect("the probe thread does not panic");
                (flooded, ended)
            });
            let flooded = flooded.with_context(|| format!("the {kind} flood"))?;
            let dropped = listen_overflows()? - dropped_before;
            let peak = server.process.status_kb("VmHWM")?;
            if let Some(left) = Duration::from_secs(30).checked_sub(ended.elapsed()) {
                sleep(left);
            }
            let after = server.process.rss_kb()?;
            server.process.stop();

            let probes = probes.into_inner().expect("the probe's tally");
            let answered = probes.iter().filter(|(s, _)| *s == Some(200)).count();
            let times: Vec<f64> = probes.iter().map(|(_, ms)| *ms).collect();
            let slowest = times.iter().copied().fold(f64::NAN, f64::max);
            let p50 = median(&times).unwrap_or(f64::NAN);
            eprintln!(
                "  round {} {kind:<8} {:<6} idle {idle} kB, peak {peak} kB, +30 s {after} kB ({:.2}x); probe {answered} of {}, median {p50:.1} ms, slowest {slowest:.1} ms; handshakes dropped {dropped}",
                round + 1,
                build.label(),
                after / idle,
                probes.len(),
            );
            for line in &flooded {
                eprintln!("    {line}");
            }
            report.record(kind, "idle_rss", "kB", build, idle);
            report.record(kind, "peak_rss", "kB", build, peak);
            report.record(kind, "rss_30s_after", "kB", build, after);
            report.record(kind, "after_over_idle", "x", build, after / idle);
            report.record(kind, "probes", "probes", build, probes.len() as f64);
            report.record(kind, "probes_200", "probes", build, answered as f64);
            report.record(kind, "probe_median", "ms", build, p50);
            report.record(kind, "probe_slowest", "ms", build, slowest);
            report.record(kind, "handshakes_dropped", "handshakes", build, dropped);
            seen_by_clients.insert(format!("{name}-round{}", round + 1), flooded.into());
        }
    }
    report.note("flood_clients", seen_by_clients);
    Ok(builds)
}

/// Runs the flood: `clients` processes of scripts/lib/flood.py, the
/// first `flood % clients` one connection more; what each printed.
fn flood(settings: &Settings, port: u16, kind: &str, clients: usize) -> Result<Vec<String>> {
    let script = settings.root.join("scripts/lib/flood.py");
    let mut running = Vec::new();
    for c in 0..clients {
        let count = settings.flood / clients + usize::from(c < settings.flood % clients);
        let mut command = Command::new("python3");
        command
            .arg(&script)
            .args([&port.to_string(), &count.to_string()])
            .args([&settings.hold_s.to_string(), kind])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let shown = describe(&command);
        let child = command
            .spawn()
            .with_context(|| format!("could not start {shown}"))?;
        running.push((shown, child));
    }
    let mut lines = Vec::new();
    for (shown, child) in running {
        let out = child.wait_with_output()?;
        if !out.status.success() {
            bail!(
                "{shown} failed ({}): {}",
                out.status,
                tail(&String::from_utf8_lossy(&out.stderr), 5)
            );
        }
        lines.push(String::from_utf8_lossy(&out.stdout).trim().to_owned());
    }
    Ok(lines)
}

/// The kernel's count of handshakes dropped because a listen backlog was
/// full (TcpExt ListenOverflows in /proc/net/netstat).
fn listen_overflows() -> Result<f64> {
    let text =
        std::fs::read_to_string("/proc/net/netstat").context("could not read /proc/net/netstat")?;
    let mut rows = text.lines().filter(|l| l.starts_with("TcpExt:"));
    let (Some(names), Some(values)) = (rows.next(), rows.next()) else {
        bail!("/proc/net/netstat has no TcpExt rows");
    };
    names
        .split_whitespace()
        .zip(values.split_whitespace())
        .find(|(name, _)| *name == "ListenOverflows")
        .and_then(|(_, value)| value.parse().ok())
        .context("/proc/net/netstat has no ListenOverflows")
}

/// The hard limit of open files of this process (and so of its
/// children), from /proc/self/limits; `None` for unlimited.
fn open_files_hard_limit() -> Result<Option<usize>> {
    let text =
        std::fs::read_to_string("/proc/self/limits").context("could not read /proc/self/limits")?;
    let line = text
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .context("/proc/self/limits has no Max open files")?;
    let hard = line
        .trim_start_matches("Max open files")
        .split_whitespace()
        .nth(1)
        .context("/proc/self/limits: no hard limit of open files")?;
    Ok(hard.parse().ok())
}
