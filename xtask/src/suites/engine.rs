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
//!
//! With --before, the revision is checked out in a git worktree and gets
//! this tree's benches/engine_instructions.rs (and, if it lacks them, the
//! `gungraun` dev-dependency at this tree's version and the `[[bench]]`
//! entry), so both builds count the same cases; the worktree's build goes
//! to target/bench/before-target/. criterion runs each tree's own
//! benches/engine.rs with that tree's criterion directory, so the times of
//! cases both trees have sit side by side (a case only one tree has is
//! reported for that build alone). Both builds take turns in each round.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::builds::Build;
use crate::builds::{Builds, Worktree, before_target_dir, target_dir};
use crate::report::Report;
use crate::rounds::rotated;
use crate::settings::Settings;
use crate::tools::{need, on_path, output, run_shown};

/// The instruction-count bench, copied into the --before worktree.
const INSTRUCTIONS_BENCH: &str = "benches/engine_instructions.rs";

/// A source tree whose benches run: this one, or the --before worktree.
#[derive(Clone)]
struct Tree {
    build: Build,
    dir: PathBuf,
    /// Its cargo target directory (criterion writes under it).
    target: PathBuf,
    /// Whether cargo may use Cargo.lock as it is (`--locked`): not once
    /// the worktree's Cargo.toml gained gungraun.
    locked: bool,
}

pub fn run(settings: &Settings, _work: &Path, report: &mut Report) -> Result<Builds> {
    let builds = Builds::revisions(settings)?;
    let version = gungraun_version(&settings.root)?.context(
        "Cargo.lock has no gungraun: the instruction-count bench needs it as a dev-dependency",
    )?;
    let mut trees = vec![Tree {
        build: Build::Now,
        dir: settings.root.clone(),
        target: target_dir(&settings.root),
        locked: true,
    }];
    // Kept until the end of the run: dropping it removes the worktree.
    let mut worktree = None;
    if let Some(before) = &builds.before {
        eprintln!(
            "xtask: checking out {} with this tree's {INSTRUCTIONS_BENCH}",
            before.revision
        );
        let tree = Worktree::add(&settings.root, &before.commit)?;
        let edited = prepare_before(tree.path(), &version, report).with_context(|| {
            format!(
                "could not prepare {} for the instruction counts",
                before.revision
            )
        })?;
        trees.push(Tree {
            build: Build::Before,
            dir: tree.path().to_path_buf(),
            target: before_target_dir(&settings.root),
            locked: !edited,
        });
        worktree = Some(tree);
    }
    need("valgrind", "valgrind")?;
    ensure_runner(&version)?;
    for round in 0..settings.rounds {
        for tree in rotated(round, &trees) {
            if round == 0 {
                criterion(settings, &tree, report)?;
            }
            eprintln!(
                "xtask: instruction counts of {}, run {} of {}",
                tree.build.label(),
                round + 1,
                settings.rounds
            );
            instructions(&tree, report)?;
        }
    }
    drop(worktree);
    report.compare("instructions", "slug_crate", "slugd_in_process");
    report.compare("instructions", "slugd_rules2", "slugd_rules1");
    report.compare("instructions", "slugd_locale_de", "slugd_in_process");
    Ok(builds)
}

/// Puts this tree's instruction-count bench into the worktree at `dir`,
/// with the dev-dependency and `[[bench]]` entry it needs if the
/// revision lacks them; whether Cargo.toml changed.
fn prepare_before(dir: &Path, version: &str, report: &mut Report) -> Result<bool> {
    if let Some(theirs) = gungraun_version(dir)?
        && theirs != version
    {
        bail!(
            "its Cargo.lock has gungraun {theirs} and this tree's {version}: \
             one gungraun-runner cannot count for both"
        );
    }
    let ours = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ sits in the workspace")
        .join(INSTRUCTIONS_BENCH);
    std::fs::create_dir_all(dir.join("benches"))?;
    std::fs::copy(&ours, dir.join(INSTRUCTIONS_BENCH))
        .with_context(|| format!("could not copy {}", ours.display()))?;
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)?;
    let (text, added) = with_instruction_bench(&text, version);
    if !added.is_empty() {
        std::fs::write(&manifest, text)?;
        report.note("before_cargo_toml_added", &added);
    }
    Ok(!added.is_empty())
}

/// `manifest` with the `gungraun` dev-dependency (at exactly `version`)
/// and the `engine_instructions` bench entry, each added only if missing;
/// and what was added.
fn with_instruction_bench(manifest: &str, version: &str) -> (String, Vec<String>) {
    let mut text = manifest.to_owned();
    let mut added = Vec::new();
    let has_gungraun = text.lines().any(|l| l.trim_start().starts_with("gungraun"));
    if !has_gungraun {
        let dependency = format!("gungraun = \"={version}\"");
        match text.find("\n[dev-dependencies]\n") {
            Some(at) => {
                let at = at + "\n[dev-dependencies]\n".len();
                text.insert_str(at, &format!("{dependency}\n"));
            }
            None => text.push_str(&format!("\n[dev-dependencies]\n{dependency}\n")),
        }
        added.push(format!("[dev-dependencies] {dependency}"));
    }
    if !text.contains("name = \"engine_instructions\"") {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("\n[[bench]]\nname = \"engine_instructions\"\nharness = false\n");
        added.push("[[bench]] engine_instructions".to_owned());
    }
    (text, added)
}

/// The version of gungraun in `dir`'s Cargo.lock, if it has one.
fn gungraun_version(dir: &Path) -> Result<Option<String>> {
    let lock = std::fs::read_to_string(dir.join("Cargo.lock"))
        .with_context(|| format!("could not read {}", dir.join("Cargo.lock").display()))?;
    Ok(lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"gungraun\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .map(|v| v.trim_end_matches('"').to_owned()))
}

fn cargo(tree: &Tree) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .current_dir(&tree.dir)
        .env("CARGO_TARGET_DIR", &tree.target)
        .arg("bench");
    if tree.locked {
        command.arg("--locked");
    }
    command
}

/// `cargo bench --bench engine` in the tree, then every estimate
/// criterion wrote in this run.
fn criterion(settings: &Settings, tree: &Tree, report: &mut Report) -> Result<()> {
    if !tree.dir.join("benches/engine.rs").is_file() {
        report.note(
            &format!("criterion_{}", tree.build.label()),
            "no benches/engine.rs in this tree",
        );
        return Ok(());
    }
    eprintln!("xtask: criterion, {}", tree.build.label());
    let started = SystemTime::now();
    let mut command = cargo(tree);
    command.args(["--bench", "engine", "--"]);
    if let Some(filter) = &settings.filter {
        command.arg(filter);
    }
    run_shown(&mut command)?;
    let mut found = 0;
    for benchmark in files_named(&tree.target.join("criterion"), "benchmark.json")? {
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
        report.record(&target, "time", "ns", tree.build, ns);
        if let Some(elements) = about["throughput"]["Elements"].as_f64() {
            report.record(&target, "time_per_title", "ns", tree.build, ns / elements);
        }
        found += 1;
    }
    if found == 0 {
        bail!(
            "criterion wrote no estimates in this run of the {} tree (a --filter that matched nothing?)",
            tree.build.label()
        );
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

/// gungraun's runner at `version`, installed if missing.
fn ensure_runner(version: &str) -> Result<()> {
    if on_path("gungraun-runner")
        && output(Command::new("gungraun-runner").arg("--version"))
            .map(|v| v.contains(version))
            .unwrap_or(false)
    {
        return Ok(());
    }
    eprintln!("xtask: installing gungraun-runner {version} (cargo install)");
    run_shown(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())).args([
            "install",
            "--locked",
            "gungraun-runner",
            "--version",
            version,
        ]),
    )
    .context("could not install gungraun's runner")
}

/// `cargo bench --bench engine_instructions` in the tree once, reading
/// each case's instructions from gungraun's JSON lines.
fn instructions(tree: &Tree, report: &mut Report) -> Result<()> {
    let text = output(
        cargo(tree)
            .args(["--bench", "engine_instructions", "--"])
            .arg("--output-format=json"),
    )?;
    let mut found = 0;
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let summary: Value = serde_json::from_str(line).context("a line of gungraun's JSON")?;
        let (Some(id), Some(count)) = (summary["id"].as_str(), instructions_of(&summary)) else {
            continue;
        };
        report.record(id, "instructions", "instructions", tree.build, count);
        found += 1;
    }
    if found == 0 {
        bail!(
            "gungraun reported no instruction counts for the {} tree (a JSON schema other than version 7?); it printed:\n{}",
            tree.build.label(),
            crate::tools::tail(&text, 5)
        );
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

#[cfg(test)]
mod tests {
    use super::with_instruction_bench;

    #[test]
    fn a_manifest_gains_only_what_it_lacks() {
        let old = "[package]\nname = \"slugd\"\n\n[dev-dependencies]\nslug = \"0.1\"\n\n[[bench]]\nname = \"engine\"\nharness = false\n";
        let (text, added) = with_instruction_bench(old, "0.20.1");
        assert_eq!(added.len(), 2);
        assert!(text.contains("[dev-dependencies]\ngungraun = \"=0.20.1\"\nslug"));
        assert!(text.ends_with("[[bench]]\nname = \"engine_instructions\"\nharness = false\n"));
        let (again, none) = with_instruction_bench(&text, "0.20.1");
        assert!(none.is_empty());
        assert_eq!(again, text);
    }
}
