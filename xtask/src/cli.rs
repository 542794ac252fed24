//! The command line (clap derive, so `--help` is the reference) and the
//! settings it becomes once validated: the suites never see clap types,
//! and a default that differs by suite is chosen here, in one place.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::suites;

/// slugd's tasks that are not part of the service.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a benchmark suite and write target/bench/<suite>.json (medians
    /// over the rounds; with --before, the other build's medians and the
    /// ratio now/before of each figure) and a summary to standard error.
    ///
    /// Servers bind to 127.0.0.1 only; everything started is stopped at
    /// the end. wrk, hyperfine, redis-server and valgrind are installed
    /// from Debian's packages when missing and running as root.
    Bench(BenchArgs),
}

impl Command {
    pub fn run(self) -> Result<()> {
        match self {
            Command::Bench(args) => suites::run(&Settings::new(args)?),
        }
    }
}

/// The suites. Each says what it measures; docs/figures.md shows the
/// figures each gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suite {
    /// wrk over loopback, POST /slug over the corpus: in-process, on
    /// Redis and on a 3-primary Redis Cluster (each with and without the
    /// name cache) and the bare axum handler of examples/bare.rs;
    /// req/s, p50, p99, errors, RSS idle and after the load, the Redis
    /// table's size. Targets: in_process redis redis_nocache cluster
    /// cluster_nocache bare.
    Throughput,
    /// One instance at a time, in-process and on Redis: RSS and anonymous
    /// memory idle, after --warm requests, and --settle seconds later; the
    /// Redis table's used_memory. Targets: in_process redis.
    Memory,
    /// hyperfine: `slugd --version`, `slugd slugify` in-process, from the
    /// data files and on Redis; and `slugd serve` from spawn to the first
    /// 200 of GET /readyz, in-process and on Redis.
    Startup,
    /// How a request's cost grows: wrk with 64, 256 and 1,024
    /// connections; POST /slugs with 1, 10 and 100 titles; one POST /slug
    /// of 1 KiB to 1 MiB. Targets: in_process redis.
    Growth,
    /// `slugd slugify` over --lines titles from standard input: wall time,
    /// titles/s and peak RSS, then a check that every target wrote the
    /// same slugs. Targets: threads1 threads unicode redis.
    Bulk,
    /// What `--unicode` (slugs in the titles' own scripts) costs beside
    /// ASCII slugs: the bulk suite's targets threads and unicode over the
    /// corpus repeated 2,000 times.
    Unicode,
    /// The engine in-process: criterion's times (benches/engine.rs) and
    /// callgrind's instructions per corpus pass through gungraun
    /// (benches/engine_instructions.rs; valgrind and gungraun-runner are
    /// installed if missing).
    Engine,
}

impl Suite {
    pub fn name(self) -> &'static str {
        match self {
            Suite::Throughput => "throughput",
            Suite::Memory => "memory",
            Suite::Startup => "startup",
            Suite::Growth => "growth",
            Suite::Bulk => "bulk",
            Suite::Unicode => "unicode",
            Suite::Engine => "engine",
        }
    }

    /// Rounds when --rounds is not given.
    fn default_rounds(self) -> usize {
        match self {
            Suite::Bulk => 9,
            Suite::Unicode => 5,
            Suite::Engine => 1,
            _ => 3,
        }
    }

    /// One wrk run's length in seconds when --duration is not given.
    fn default_duration(self) -> u64 {
        match self {
            Suite::Growth => 5,
            _ => 10,
        }
    }
}

/// `cargo xtask bench`'s options.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The suite to run.
    #[arg(value_enum)]
    pub suite: Suite,

    /// A git revision (commit, tag, branch) to build too, in a git
    /// worktree under a temporary directory, and to measure in the same
    /// rounds as this tree, the order turning each round. Its build is
    /// kept in target/bench/before-target/ between runs.
    #[arg(long, env = "BEFORE", value_name = "GIT-REV")]
    pub before: Option<String>,

    /// Rounds: each round runs every target once, starting one target
    /// further on than the round before. Default: 9 for bulk, 5 for
    /// unicode, 1 for engine (instruction counts), 3 for the others.
    #[arg(long, env = "ROUNDS", value_name = "N")]
    pub rounds: Option<usize>,

    /// Length of one wrk run (throughput, growth), in whole seconds with
    /// an `s` or minutes with an `m`: 10s, 2s, 1m. Default: 10s, for
    /// growth 5s.
    #[arg(long, env = "DURATION", value_name = "TIME")]
    pub duration: Option<String>,

    /// wrk's connections (throughput; growth's batch runs).
    #[arg(long, env = "CONNECTIONS", default_value_t = 64, value_name = "N")]
    pub connections: u32,

    /// wrk's threads.
    #[arg(long, env = "THREADS", default_value_t = 1, value_name = "N")]
    pub threads: u32,

    /// Only these targets, comma-separated (the suite's --help line names
    /// them); with --before, each also runs with the before build.
    #[arg(
        long,
        env = "TARGETS",
        value_name = "NAME,NAME...",
        value_delimiter = ','
    )]
    pub targets: Option<Vec<String>>,

    /// memory: POST /slug requests of corpus titles before the warm
    /// reading, one after another on one kept-alive connection.
    #[arg(long, env = "WARM", default_value_t = 2000, value_name = "N")]
    pub warm: usize,

    /// memory: seconds between the warm reading and the settled one
    /// (jemalloc returns freed pages over 10 s).
    #[arg(long, env = "SETTLE", default_value_t = 15, value_name = "SECONDS")]
    pub settle: u64,

    /// startup: hyperfine runs of each command, and spawns of `slugd
    /// serve`, per round (after 10 warm-up runs).
    #[arg(long, env = "RUNS", default_value_t = 30, value_name = "N")]
    pub runs: usize,

    /// bulk, unicode: titles on standard input (the corpus repeated).
    /// Default: 1,000,000 for bulk, the corpus 2,000 times for unicode.
    #[arg(long, env = "LINES", value_name = "N")]
    pub lines: Option<usize>,

    /// growth: POST /slug requests per title length and round, of which
    /// the median counts.
    #[arg(long, env = "REPEAT", default_value_t = 5, value_name = "N")]
    pub repeat: usize,

    /// engine: run only the criterion benchmarks whose names match this
    /// (criterion's own filter); the instruction counts always run whole.
    #[arg(long, value_name = "REGEX")]
    pub filter: Option<String>,

    /// Where to write the JSON. Default: target/bench/<suite>.json (under
    /// $CARGO_TARGET_DIR if set).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// What a suite runs with: every option checked and every default chosen.
#[derive(Debug, Serialize)]
pub struct Settings {
    pub suite: Suite,
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
    #[serde(skip)]
    pub out: PathBuf,
    /// The workspace's root, where cargo, git and the data files are run.
    #[serde(skip)]
    pub root: PathBuf,
}

impl Settings {
    fn new(args: BenchArgs) -> Result<Self> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask/ sits in the workspace")
            .to_path_buf();
        let suite = args.suite;
        let rounds = args.rounds.unwrap_or(suite.default_rounds());
        if rounds == 0 {
            bail!("--rounds must be at least 1");
        }
        let duration_s = match &args.duration {
            Some(text) => parse_duration(text)?,
            None => suite.default_duration(),
        };
        for (name, value) in [
            ("--connections", args.connections),
            ("--threads", args.threads),
        ] {
            if value == 0 {
                bail!("{name} must be at least 1");
            }
        }
        if args.threads > args.connections {
            bail!(
                "--threads {} is more than --connections {}: wrk needs a connection per thread",
                args.threads,
                args.connections
            );
        }
        if args.runs < 2 || args.repeat == 0 {
            bail!("--runs must be at least 2 and --repeat at least 1");
        }
        if args.lines == Some(0) {
            bail!("--lines must be at least 1");
        }
        if let Some(rev) = &args.before
            && rev.trim().is_empty()
        {
            bail!("--before (or BEFORE) is empty: give a git revision, such as HEAD~1");
        }
        let targets = args
            .targets
            .map(|t| t.into_iter().filter(|n| !n.is_empty()).collect::<Vec<_>>())
            .filter(|t| !t.is_empty());
        let out = args.out.unwrap_or_else(|| {
            crate::builds::target_dir(&root)
                .join("bench")
                .join(format!("{}.json", suite.name()))
        });
        Ok(Settings {
            suite,
            before: args.before.filter(|rev| !rev.is_empty()),
            rounds,
            duration_s,
            connections: args.connections,
            threads: args.threads,
            targets,
            warm: args.warm,
            settle_s: args.settle,
            runs: args.runs,
            lines: args.lines,
            repeat: args.repeat,
            filter: args.filter,
            out,
            root,
        })
    }

    /// The suite's targets that --targets chose, in the suite's order;
    /// an error names a target the suite does not have.
    pub fn chosen<'a>(&self, all: &[&'a str], default: &[&'a str]) -> Result<Vec<&'a str>> {
        let Some(wanted) = &self.targets else {
            return Ok(default.to_vec());
        };
        if let Some(unknown) = wanted.iter().find(|w| !all.contains(&w.as_str())) {
            bail!(
                "the {} suite has no target {unknown:?}; its targets: {}",
                self.suite.name(),
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

/// `10s` -> 10, `1m` -> 60: whole seconds, as wrk takes them.
fn parse_duration(text: &str) -> Result<u64> {
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = match number.parse() {
        Ok(n) if n > 0 => n,
        _ => bail!(
            "--duration {text:?} is not a time such as 10s or 1m (whole seconds or minutes, at least 1)"
        ),
    };
    match unit {
        "s" | "" => Ok(n),
        "m" => Ok(n * 60),
        _ => bail!(
            "--duration {text:?} has the unit {unit:?}; write seconds as 10s or minutes as 1m"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations_are_whole_seconds_or_minutes() {
        assert_eq!(parse_duration("10s").unwrap(), 10);
        assert_eq!(parse_duration("2").unwrap(), 2);
        assert_eq!(parse_duration("1m").unwrap(), 60);
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("1.5s").is_err());
        assert!(parse_duration("500ms").is_err());
    }
}
