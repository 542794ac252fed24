//! engine: the engine in-process, one thread. criterion's times
//! (benches/engine.rs: the sample option sets and the `slug` crate over
//! the corpus, `locale: de`, each rule version, Thai and Chinese
//! segmentation), read back from criterion's estimates; and callgrind's
//! instructions per warm corpus pass through gungraun
//! (benches/engine_instructions.rs), a count the machine's noise cannot
//! move, the median over --rounds runs (foldhash's random seeds move it by
//! about 0.1%). gungraun's runner is installed with `cargo install` if it
//! is missing, at the version of the library in Cargo.lock; valgrind from
//! Debian's packages.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::builds::{Builds, target_dir};
use crate::cli::Settings;
use crate::report::{Build, Report};
use crate::tools::{need, on_path, output, run_shown};

pub fn run(settings: &Settings, _work: &Path, report: &mut Report) -> Result<Builds> {
    if settings.before.is_some() {
        bail!(
            "the engine suite takes no --before: criterion compares with its own saved baseline \
             (`cargo bench --bench engine -- --save-baseline before` on the other revision, then \
             `-- --baseline before`), and instruction counts do not drift, so two runs compare"
        );
    }
    let builds = Builds::revisions(settings)?;
    criterion(settings, report)?;
    instructions(settings, report)?;
    report.compare("instructions", "slug_crate", "slugd_in_process");
    report.compare("instructions", "slugd_rules2", "slugd_rules1");
    report.compare("instructions", "slugd_locale_de", "slugd_in_process");
    Ok(builds)
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// `cargo bench --bench engine`, then every estimate criterion wrote in
/// this run.
fn criterion(settings: &Settings, report: &mut Report) -> Result<()> {
    let started = SystemTime::now();
    let mut command = cargo();
    command
        .current_dir(&settings.root)
        .args(["bench", "--locked", "--bench", "engine", "--"]);
    if let Some(filter) = &settings.filter {
        command.arg(filter);
    }
    run_shown(&mut command)?;
    let mut found = 0;
    for benchmark in files_named(
        &target_dir(&settings.root).join("criterion"),
        "benchmark.json",
    )? {
        let new = benchmark.parent().expect("a file has a directory");
        if !new.ends_with("new") || std::fs::metadata(&benchmark)?.modified()? < started {
            continue;
        }
        let about: Value = serde_json::from_str(&std::fs::read_to_string(&benchmark)?)?;
        let estimates: Value =
            serde_json::from_str(&std::fs::read_to_string(new.join("estimates.json"))?)
                .with_context(|| format!("criterion's estimates beside {}", benchmark.display()))?;
        let (Some(id), Some(ns)) = (
            about["full_id"].as_str(),
            estimates["median"]["point_estimate"].as_f64(),
        ) else {
            continue;
        };
        let target = format!("criterion/{id}");
        report.record(&target, "time", "ns", Build::Now, ns);
        if let Some(elements) = about["throughput"]["Elements"].as_f64() {
            report.record(&target, "time_per_title", "ns", Build::Now, ns / elements);
        }
        found += 1;
    }
    if found == 0 {
        bail!("criterion wrote no estimates in this run (a --filter that matched nothing?)");
    }
    Ok(())
}

/// Every file called `name` under `dir`.
fn files_named(dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("could not read {}", dir.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == name) {
                found.push(path);
            }
        }
    }
    Ok(found)
}

/// gungraun's runner at the library's version, installed if missing.
fn ensure_runner(root: &Path) -> Result<()> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).context("could not read Cargo.lock")?;
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"gungraun\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .map(|v| v.trim_end_matches('"').to_owned())
        .context(
            "Cargo.lock has no gungraun: the instruction-count bench needs it as a dev-dependency",
        )?;
    if on_path("gungraun-runner")
        && output(Command::new("gungraun-runner").arg("--version"))
            .map(|v| v.contains(&version))
            .unwrap_or(false)
    {
        return Ok(());
    }
    eprintln!("xtask: installing gungraun-runner {version} (cargo install)");
    run_shown(cargo().args([
        "install",
        "--locked",
        "gungraun-runner",
        "--version",
        &version,
    ]))
    .context("could not install gungraun's runner")
}

/// `cargo bench --bench engine_instructions`, --rounds times, reading
/// each case's instructions from gungraun's JSON lines.
fn instructions(settings: &Settings, report: &mut Report) -> Result<()> {
    need("valgrind", "valgrind")?;
    ensure_runner(&settings.root)?;
    for round in 0..settings.rounds {
        eprintln!(
            "xtask: instruction counts, run {} of {}",
            round + 1,
            settings.rounds
        );
        let text = output(
            cargo()
                .current_dir(&settings.root)
                .args(["bench", "--locked", "--bench", "engine_instructions", "--"])
                .arg("--output-format=json"),
        )?;
        let mut found = 0;
        for line in text.lines().filter(|l| l.starts_with('{')) {
            let summary: Value = serde_json::from_str(line).context("a line of gungraun's JSON")?;
            let (Some(id), Some(count)) = (summary["id"].as_str(), instructions_of(&summary))
            else {
                continue;
            };
            report.record(id, "instructions", "instructions", Build::Now, count);
            found += 1;
        }
        if found == 0 {
            bail!(
                "gungraun reported no instruction counts (a JSON schema other than version 7?); it printed:\n{}",
                crate::tools::tail(&text, 5)
            );
        }
    }
    Ok(())
}

/// Callgrind's `Ir` (instructions executed) in a gungraun summary
/// (schema version 7: `profiles[].data.total.metrics.Ir.values.new`).
fn instructions_of(summary: &Value) -> Option<f64> {
    let profiles = summary["profiles"].as_array()?;
    let callgrind = profiles.iter().find(|p| p["tool"] == "Callgrind")?;
    callgrind["data"]["total"]["metrics"]["Ir"]["values"]["new"].as_f64()
}
