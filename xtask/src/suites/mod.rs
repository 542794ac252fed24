//! The suites, one file each: what each starts, in which order its
//! targets run, and what it records. This file dispatches and holds what
//! several suites share (the corpus, warm-up requests).

mod bulk;
mod engine;
mod growth;
mod memory;
mod startup;
mod throughput;

use std::path::Path;

use anyhow::{Context, Result};

use crate::builds::Builds;
use crate::cli::{Settings, Suite};
use crate::http::Client;
use crate::report::Report;

/// Runs the suite and writes its report.
pub fn run(settings: &Settings) -> Result<()> {
    let work = tempfile::Builder::new()
        .prefix("slugd-bench-")
        .tempdir()
        .context("could not make the run's work directory")?;
    let mut report = Report::default();
    let run = match settings.suite {
        Suite::Throughput => throughput::run,
        Suite::Memory => memory::run,
        Suite::Startup => startup::run,
        Suite::Growth => growth::run,
        Suite::Bulk => bulk::run,
        Suite::Unicode => bulk::run_unicode,
        Suite::Engine => engine::run,
    };
    let builds: Builds = run(settings, work.path(), &mut report)
        .with_context(|| format!("the {} suite failed", settings.suite.name()))?;
    report.finish(settings, &builds)
}

/// The titles of data/corpus.txt: every line that is not empty or a `#`
/// comment (as `slugd::corpus::titles` reads them).
pub fn corpus(root: &Path) -> Result<Vec<String>> {
    let path = root.join("data/corpus.txt");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("could not read {}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// POSTs `n` corpus titles to /slug, one after another on one kept-alive
/// connection.
pub fn post_titles(port: u16, titles: &[String], n: usize) -> Result<()> {
    let mut client = Client::connect(port)?;
    for title in titles.iter().cycle().take(n) {
        client.post_title(title)?;
    }
    Ok(())
}
