//! rules: the engine's time per corpus pass by the newest rule version
//! against an older one (--older, default 4) of the same build, timed in
//! turns in one process by examples/rules_ab.rs (200 passes a turn, the
//! order turning each round, --rounds rounds), so the machine's noise
//! falls on both alike: the nanoseconds a pass of each, and each round's
//! ratio newest/older, whose medians the report takes. Targets: older
//! newest.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::builds::{Build, Builds, example};
use crate::report::Report;
use crate::settings::Settings;
use crate::tools::output;

pub fn run(settings: &Settings, _work: &Path, report: &mut Report) -> Result<Builds> {
    let builds = Builds::revisions(settings)?;
    if builds.before.is_some() {
        bail!(
            "the rules suite times two rule versions of one build; --before is for suites that compare builds"
        );
    }
    let bin = example(&settings.root, "rules_ab")?;
    eprintln!(
        "xtask: rules {} against the newest, {} rounds of 200 corpus passes each",
        settings.older_rules, settings.rounds
    );
    let printed = output(
        Command::new(&bin)
            .arg(settings.older_rules.to_string())
            .arg(settings.rounds.to_string())
            .current_dir(&settings.root),
    )?;
    let mut lines = printed.lines();
    let header = lines.next().unwrap_or_default();
    report.note("versions", header.trim_start_matches("# "));
    for line in lines {
        let (older, newest) = line
            .split_once('\t')
            .and_then(|(o, n)| Some((o.parse::<f64>().ok()?, n.parse::<f64>().ok()?)))
            .with_context(|| format!("rules_ab printed {line:?}, not two numbers"))?;
        report.record("older", "ns_per_pass", "ns", Build::Now, older);
        report.record("newest", "ns_per_pass", "ns", Build::Now, newest);
        report.record("newest", "over_older", "ratio", Build::Now, newest / older);
    }
    report.compare("ns_per_pass", "newest", "older");
    Ok(builds)
}
