//! wrk, the HTTP load generator: one run against a loopback server with a
//! script of scripts/wrk/, and what its `--latency` summary says.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};

use crate::tools;

/// One wrk run.
pub struct Run<'a> {
    /// The scripts/wrk/*.lua file's name, `corpus.lua` say.
    pub script: &'a str,
    pub port: u16,
    /// The path the script's requests go to is the script's; this is the
    /// URL's path wrk is given.
    pub path: &'a str,
    pub connections: u32,
    pub threads: u32,
    pub duration_s: u64,
    /// Environment for the script (BATCH=10, say).
    pub env: &'a [(&'a str, String)],
    /// wrk's `--timeout` in seconds (wrk's own default, 2 s, if `None`).
    pub timeout_s: Option<u64>,
}

/// wrk's figures for one run.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    pub req_per_s: f64,
    /// Requests completed in the whole run.
    pub requests: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    /// Answers other than 2xx and 3xx, plus connect, read, write and
    /// timeout errors.
    pub errors: f64,
    /// Of those, the answers other than 2xx and 3xx.
    pub non_2xx: f64,
}

impl Run<'_> {
    pub fn run(&self, root: &Path) -> Result<Summary> {
        let mut command = Command::new("wrk");
        command
            .current_dir(root)
            .env("CORPUS", root.join("data/corpus.txt"))
            .args([
                "-t",
                &self.threads.to_string(),
                "-c",
                &self.connections.to_string(),
            ])
            .args(["-d", &format!("{}s", self.duration_s), "--latency"]);
        if let Some(timeout) = self.timeout_s {
            command.args(["--timeout", &format!("{timeout}s")]);
        }
        command
            .arg("-s")
            .arg(root.join("scripts/wrk").join(self.script))
            .arg(format!("http://127.0.0.1:{}{}", self.port, self.path));
        for (name, value) in self.env {
            command.env(name, value);
        }
        let text = tools::output(&mut command)?;
        parse(&text).with_context(|| format!("could not read wrk's summary:\n{text}"))
    }
}

fn parse(text: &str) -> Option<Summary> {
    let mut summary = Summary {
        req_per_s: f64::NAN,
        requests: f64::NAN,
        p50_us: f64::NAN,
        p99_us: f64::NAN,
        errors: 0.0,
        non_2xx: 0.0,
    };
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["Requests/sec:", n, ..] => summary.req_per_s = n.parse().ok()?,
            [n, "requests", "in", ..] => summary.requests = n.parse().ok()?,
            ["50%", t, ..] => summary.p50_us = micros(t)?,
            ["99%", t, ..] => summary.p99_us = micros(t)?,
            ["Non-2xx", .., n] => {
                summary.non_2xx = n.parse().ok()?;
                summary.errors += summary.non_2xx;
            }
            ["Socket", "errors:", rest @ ..] => {
                // "connect 0, read 0, write 0, timeout 0"
                summary.errors += rest
                    .iter()
                    .filter_map(|w| w.trim_end_matches(',').parse::<f64>().ok())
                    .sum::<f64>();
            }
            _ => {}
        }
    }
    (summary.req_per_s.is_finite() && summary.p99_us.is_finite()).then_some(summary)
}

/// wrk's `512.00us`, `1.20ms`, `2.00s`, `1.00m` in microseconds.
fn micros(text: &str) -> Option<f64> {
    for (unit, factor) in [("us", 1.0), ("ms", 1e3), ("s", 1e6), ("m", 60e6)] {
        if let Some(n) = text.strip_suffix(unit) {
            return n.parse::<f64>().ok().map(|n| n * factor);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::parse;

    const OUTPUT: &str = "Running 2s test @ http://127.0.0.1:4000/slug
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   530.21us  300.10us  10.00ms   90.00%
    Req/Sec    60.00k     2.00k   64.00k    70.00%
  Latency Distribution
     50%  480.00us
     75%  600.00us
     90%  800.00us
     99%    1.50ms
  120000 requests in 2.00s, 20.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  60000.00
Transfer/sec:     10.00MB
";

    #[test]
    fn reads_throughput_latencies_and_errors() {
        let s = parse(OUTPUT).unwrap();
        assert_eq!(s.req_per_s, 60000.0);
        assert_eq!(s.requests, 120000.0);
        assert_eq!(s.p50_us, 480.0);
        assert_eq!(s.p99_us, 1500.0);
        assert_eq!(s.errors, 7.0);
        assert_eq!(s.non_2xx, 4.0);
    }
}
