//! A suite's results: it records samples (one per round, target, build
//! and metric) and notes; this file turns them into figures (medians
//! through `stats`, and the ratio now/before where a before build ran),
//! writes them as JSON to `target/bench/<suite>.json` (or --out) and
//! prints a short summary to standard error.
//!
//! The JSON:
//!
//! ```text
//! { "suite": "throughput",
//!   "command": "cargo xtask bench throughput --rounds 1",
//!   "revisions": { "now": "<commit> (with uncommitted changes)", "before": "<commit>" | null },
//!   "settings": { "rounds": 1, "duration_s": 10, ... },
//!   "figures": [ { "target": "redis", "metric": "req_per_s", "unit": "req/s",
//!                  "median": 120000.0, "samples": [...],
//!                  "before": { "median": 118000.0, "samples": [...] } | null,
//!                  "now_over_before": 1.02 | null } ],
//!   "comparisons": [ { "name": "redis / in_process", "metric": "req_per_s",
//!                      "ratio": 0.97, "before_ratio": 0.96 | null } ],
//!   "notes": { ... what a suite saw that is not a figure ... } }
//! ```

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::builds::{Build, Builds};
use crate::settings::Settings;
use crate::stats::{median, ratio};

struct Samples {
    target: String,
    metric: String,
    unit: String,
    now: Vec<f64>,
    before: Vec<f64>,
}

struct Comparison {
    name: String,
    metric: String,
    a: String,
    b: String,
}

/// What a suite measured, in the order it first recorded each figure.
#[derive(Default)]
pub struct Report {
    samples: Vec<Samples>,
    comparisons: Vec<Comparison>,
    notes: Map<String, Value>,
}

impl Report {
    /// One sample of `target`'s `metric` (in `unit`) for `build`.
    pub fn record(&mut self, target: &str, metric: &str, unit: &str, build: Build, value: f64) {
        let at = match self
            .samples
            .iter()
            .position(|s| s.target == target && s.metric == metric)
        {
            Some(at) => at,
            None => {
                self.samples.push(Samples {
                    target: target.to_owned(),
                    metric: metric.to_owned(),
                    unit: unit.to_owned(),
                    now: Vec::new(),
                    before: Vec::new(),
                });
                self.samples.len() - 1
            }
        };
        match build {
            Build::Now => self.samples[at].now.push(value),
            Build::Before => self.samples[at].before.push(value),
        }
    }

    /// Something seen that is not a figure: a loader's output, a check.
    pub fn note(&mut self, key: &str, value: impl Serialize) {
        let value = serde_json::to_value(value).unwrap_or(Value::Null);
        self.notes.insert(key.to_owned(), value);
    }

    /// Asks for the ratio of two targets' medians of `metric` in the
    /// summary, for each build that measured both.
    pub fn compare(&mut self, metric: &str, a: &str, b: &str) {
        self.comparisons.push(Comparison {
            name: format!("{a} / {b}"),
            metric: metric.to_owned(),
            a: a.to_owned(),
            b: b.to_owned(),
        });
    }

    fn median_of(&self, target: &str, metric: &str, build: Build) -> Option<f64> {
        let s = self
            .samples
            .iter()
            .find(|s| s.target == target && s.metric == metric)?;
        median(match build {
            Build::Now => &s.now,
            Build::Before => &s.before,
        })
    }

    /// Writes the JSON to `settings.out` and the summary to standard
    /// error.
    pub fn finish(self, settings: &Settings, builds: &Builds) -> Result<()> {
        let figures: Vec<Value> = self
            .samples
            .iter()
            .map(|s| {
                let now = median(&s.now);
                let before = median(&s.before);
                json!({
                    "target": s.target,
                    "metric": s.metric,
                    "unit": s.unit,
                    "median": now,
                    "samples": s.now,
                    "before": (!s.before.is_empty()).then(|| json!({ "median": before, "samples": s.before })),
                    "now_over_before": ratio(now, before),
                })
            })
            .collect();
        let comparisons: Vec<Value> = self
            .comparisons
            .iter()
            .filter_map(|c| {
                let now = ratio(
                    self.median_of(&c.a, &c.metric, Build::Now),
                    self.median_of(&c.b, &c.metric, Build::Now),
                )?;
                let before = ratio(
                    self.median_of(&c.a, &c.metric, Build::Before),
                    self.median_of(&c.b, &c.metric, Build::Before),
                );
                Some(json!({ "name": c.name, "metric": c.metric, "ratio": now, "before_ratio": before }))
            })
            .collect();
        let command: Vec<String> = std::iter::once("cargo xtask".to_owned())
            .chain(std::env::args().skip(1))
            .collect();
        let document = json!({
            "suite": settings.suite,
            "command": command.join(" "),
            "revisions": { "now": builds.now_revision, "before": builds.before.as_ref().map(|b| &b.revision) },
            "settings": settings,
            "figures": figures,
            "comparisons": comparisons,
            "notes": self.notes,
        });
        write_json(&settings.out, &document)?;
        self.summarize(&figures, &comparisons, &settings.out);
        Ok(())
    }

    fn summarize(&self, figures: &[Value], comparisons: &[Value], out: &Path) {
        let number = |v: &Value| v.as_f64().map(format_number).unwrap_or_else(|| "-".into());
        eprintln!("== medians ({})", out.display());
        for f in figures {
            let mut line = format!(
                "{:<24} {:<22} {:>12} {}",
                f["target"].as_str().unwrap_or(""),
                f["metric"].as_str().unwrap_or(""),
                number(&f["median"]),
                f["unit"].as_str().unwrap_or("")
            );
            if !f["before"].is_null() {
                line += &format!(
                    "   before {}  now/before {}",
                    number(&f["before"]["median"]),
                    f["now_over_before"]
                        .as_f64()
                        .map(|r| format!("{r:.3}"))
                        .unwrap_or("-".into())
                );
            }
            eprintln!("{line}");
        }
        for c in comparisons {
            let before = c["before_ratio"]
                .as_f64()
                .map(|r| format!("   before {r:.3}"))
                .unwrap_or_default();
            eprintln!(
                "{:<47} {:>12.3}{before}",
                format!(
                    "{} ({})",
                    c["name"].as_str().unwrap_or(""),
                    c["metric"].as_str().unwrap_or("")
                ),
                c["ratio"].as_f64().unwrap_or(f64::NAN)
            );
        }
    }
}

/// Numbers as a person reads them: no decimals from 100 up or for a
/// whole number, three below.
fn format_number(x: f64) -> String {
    if x.abs() >= 100.0 || x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

fn write_json(path: &Path, document: &Value) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("could not create {}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(document)? + "\n";
    std::fs::write(path, text).with_context(|| format!("could not write {}", path.display()))
}
