//! What a suite runs with: every option of `cargo xtask bench` checked
//! and every default chosen (by `cli`, from the suites' table). The
//! suites, the builds and the report read it; it reads nothing of theirs.

use std::path::PathBuf;

use anyhow::{Result, bail};
use serde::Serialize;

/// What a suite runs with: every option checked and every default chosen.
#[derive(Debug, Serialize)]
pub struct Settings {
    /// The suite's name (`suites::SUITES`).
    pub suite: &'static str,
    pub before: Option<String>,
    pub rounds: usize,
    pub duration_s: u64,
    pub connections: u32,
    pub threads: u32,
    pub targets: Option<Vec<String>>,
    pub warm: usize,
    pub settle_s: u64,
    pub runs: usize,
    pub lines: Option<usize>,
    pub repeat: usize,
    pub filter: Option<String>,
    pub counts: Vec<usize>,
    pub contenders: u32,
    pub held: usize,
    pub flood: usize,
    pub hold_s: u64,
    pub per_client: usize,
    pub delay_ms: u64,
    pub older_rules: u64,
    pub serve_args: Vec<String>,
    #[serde(skip)]
    pub out: PathBuf,
    /// The workspace's root, where cargo, git and the data files are run.
    #[serde(skip)]
    pub root: PathBuf,
}

impl Settings {
    /// The suite's targets that --targets chose, in the suite's order;
    /// an error names a target the suite does not have.
    pub fn chosen<'a>(&self, all: &[&'a str], default: &[&'a str]) -> Result<Vec<&'a str>> {
        let Some(wanted) = &self.targets else {
            return Ok(default.to_vec());
        };
        if let Some(unknown) = wanted.iter().find(|w| !all.contains(&w.as_str())) {
            bail!(
                "the {} suite has no target {unknown:?}; its targets: {}",
                self.suite,
                all.join(", ")
            );
        }
        Ok(all
            .iter()
            .copied()
            .filter(|t| wanted.iter().any(|w| w == t))
            .collect())
    }
}
