//! slugd's benchmark runner: `cargo xtask bench <suite> [options]` (the
//! alias is in `.cargo/config.toml`). It builds the release binary once
//! (and, with `--before REV`, that revision in a git worktree), starts what
//! a suite measures on free loopback ports, runs the builds side by side
//! in the same rounds, takes medians and writes `target/bench/<suite>.json`
//! with a short summary on standard error. `--help` lists the suites and
//! every option.
//!
//! # Layout
//!
//! ```text
//! main.rs      parse the command line, run it, print the cause chain, exit code
//! cli.rs       the options (clap), validated into settings
//! settings.rs  what a suite runs with: every option checked, every default chosen
//! builds.rs    the release binaries: this tree's, and --before's in a worktree
//! tools.rs     external programs: installing them, running them, their errors
//! services.rs  slugd, redis-server and a Redis Cluster on loopback: start,
//!              readiness, memory and CPU time, restart, stop
//! http.rs      a minimal HTTP/1.1 client for readiness, warm-up and probes
//! proxy.rs     a TCP proxy that delays each direction (a replica's far link)
//! wrk.rs       running wrk with a scripts/wrk/*.lua script and reading its summary
//! rounds.rs    the order of the targets in each round (rotated)
//! stats.rs     the median and the ratio: the only place either is computed
//! report.rs    samples -> figures -> target/bench/<suite>.json and the summary
//! suites/      one file per suite (what it starts, what it measures) and
//!              the table of suites: name, defaults and run, a row each
//! ```

mod builds;
mod cli;
mod http;
mod proxy;
mod report;
mod rounds;
mod services;
mod settings;
mod stats;
mod suites;
mod tools;
mod wrk;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}
