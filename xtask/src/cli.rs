//! The command line (clap derive, so `--help` is the reference) and its
//! validation into [`Settings`]: the suites never see clap types. The
//! suites and their defaults are the table of `suites`; a default that
//! differs by suite is read from it here, in one place.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Parser, Subcommand};

use crate::settings::Settings;
use crate::suites::{self, SUITES};

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

/// `cargo xtask bench`'s options.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The suite to run.
    #[arg(value_parser = suite_names())]
    pub suite: String,

    /// A git revision (commit, tag, branch) to build too, in a git
    /// worktree under a temporary directory, and to measure in the same
    /// rounds as this tree, the order turning each round. Its build is
    /// kept in target/bench/before-target/ between runs.
    #[arg(long, env = "BEFORE", value_name = "GIT-REV")]
    pub before: Option<String>,

    /// Rounds: each round runs every target once, starting one target
    /// further on than the round before. Default: 9 for bulk, 5 for
    /// unicode, 41 for rules, 1 for engine (instruction counts),
    /// instances, request-cost, soak and flood, 3 for the others (for
    /// locales and japanese: instances started per configuration).
    #[arg(long, env = "ROUNDS", value_name = "N")]
    pub rounds: Option<usize>,

    /// Length of one wrk run (throughput, growth, reservations, soak), in
    /// whole seconds with an `s` or minutes with an `m`: 10s, 2s, 1m.
    /// Default: 10s, for growth and reservations 5s, for soak 60s.
    #[arg(long, env = "DURATION", value_name = "TIME")]
    pub duration: Option<String>,

    /// wrk's connections (throughput, reservations, replicas, soak;
    /// growth's batch runs). Default: 64, for replicas 16, for soak 200.
    #[arg(long, env = "CONNECTIONS", value_name = "N")]
    pub connections: Option<u32>,

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

    /// memory, instances, locales, japanese, flood: POST /slug requests
    /// of corpus titles per instance before its memory is read, one after
    /// another on one kept-alive connection. Default: 2,000, for
    /// instances and flood 500.
    #[arg(long, env = "WARM", value_name = "N")]
    pub warm: Option<usize>,

    /// memory, japanese: seconds between the warm reading and the
    /// settled one (jemalloc returns freed pages over 10 s). Default: 15
    /// for memory, 30 for japanese.
    #[arg(long, env = "SETTLE", value_name = "SECONDS")]
    pub settle: Option<u64>,

    /// startup: hyperfine runs of each command, and spawns of `slugd
    /// serve`, per round (after 10 warm-up runs).
    #[arg(long, env = "RUNS", default_value_t = 30, value_name = "N")]
    pub runs: usize,

    /// bulk, unicode: titles on standard input (the corpus repeated).
    /// Default: 1,000,000 for bulk, the corpus 2,000 times for unicode.
    #[arg(long, env = "LINES", value_name = "N")]
    pub lines: Option<usize>,

    /// growth: POST /slug requests per title length and round, of which
    /// the median counts (default 5); japanese: passes over the Japanese
    /// titles for the time per title (default 200).
    #[arg(long, env = "REPEAT", value_name = "N")]
    pub repeat: Option<usize>,

    /// instances: how many instances to run at once, comma-separated.
    #[arg(
        long,
        env = "COUNTS",
        value_name = "N,N...",
        value_delimiter = ',',
        default_value = "1,4,16"
    )]
    pub counts: Vec<usize>,

    /// reservations: connections of each of the three contending wrk runs.
    #[arg(long, env = "CONTENDERS", default_value_t = 16, value_name = "N")]
    pub contenders: u32,

    /// reservations: reservations made in one scope for the memory figure.
    #[arg(long, env = "HELD", default_value_t = 1_000_000, value_name = "N")]
    pub held: usize,

    /// flood: connections in each flood.
    #[arg(long, env = "FLOOD", default_value_t = 20_000, value_name = "N")]
    pub flood: usize,

    /// flood: seconds the flood holds its connections after the last is
    /// opened.
    #[arg(long, env = "HOLD", default_value_t = 20, value_name = "SECONDS")]
    pub hold: u64,

    /// rules: the older rule version timed against the newest.
    #[arg(long, env = "OLDER", default_value_t = 4, value_name = "N")]
    pub older: u64,

    /// replicas: how long the replica's link to its primary is, in
    /// milliseconds each way.
    #[arg(long, env = "DELAY_MS", default_value_t = 3, value_name = "MS")]
    pub delay_ms: u64,

    /// flood: at most this many connections per client process (each needs
    /// an open file; the hard limit must allow this many and 64 more).
    #[arg(long, env = "PER_CLIENT", default_value_t = 8000, value_name = "N")]
    pub per_client: usize,

    /// flood, replicas: more arguments for `slugd serve`, split at
    /// spaces ("--max-connections 4096").
    #[arg(
        long,
        env = "SERVE_ARGS",
        value_name = "ARGS",
        allow_hyphen_values = true
    )]
    pub serve_args: Option<String>,

    /// engine: run only the criterion benchmarks whose names match this
    /// (criterion's own filter); the instruction counts always run whole.
    #[arg(long, value_name = "REGEX")]
    pub filter: Option<String>,

    /// Where to write the JSON. Default: target/bench/<suite>.json (under
    /// $CARGO_TARGET_DIR if set).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl Settings {
    fn new(args: BenchArgs) -> Result<Self> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask/ sits in the workspace")
            .to_path_buf();
        let suite = suites::find(&args.suite).expect("clap takes only the table's names");
        let rounds = args.rounds.unwrap_or(suite.rounds);
        if rounds == 0 {
            bail!("--rounds must be at least 1");
        }
        let duration_s = match &args.duration {
            Some(text) => parse_duration(text)?,
            None => suite.duration_s,
        };
        let connections = args.connections.unwrap_or(suite.connections);
        for (name, value) in [
            ("--connections", connections),
            ("--threads", args.threads),
            ("--contenders", args.contenders),
        ] {
            if value == 0 {
                bail!("{name} must be at least 1");
            }
        }
        if args.threads > connections {
            bail!(
                "--threads {} is more than --connections {connections}: wrk needs a connection per thread",
                args.threads,
            );
        }
        let repeat = args.repeat.unwrap_or(suite.repeat);
        if args.runs < 2 || repeat == 0 {
            bail!("--runs must be at least 2 and --repeat at least 1");
        }
        if suite.name == "japanese" && repeat < 2 {
            bail!(
                "--repeat must be at least 2 for japanese: the time per title is that of the passes after the first"
            );
        }
        if args.counts.is_empty() || args.counts.contains(&0) {
            bail!("--counts must name at least one count, each at least 1 (1,4,16)");
        }
        for (name, value) in [
            ("--held", args.held),
            ("--flood", args.flood),
            ("--per-client", args.per_client),
        ] {
            if value == 0 {
                bail!("{name} must be at least 1");
            }
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
                .join(format!("{}.json", suite.name))
        });
        Ok(Settings {
            suite: suite.name,
            before: args.before.filter(|rev| !rev.is_empty()),
            rounds,
            duration_s,
            connections,
            threads: args.threads,
            targets,
            warm: args.warm.unwrap_or(suite.warm),
            settle_s: args.settle.unwrap_or(suite.settle_s),
            runs: args.runs,
            lines: args.lines,
            repeat,
            filter: args.filter,
            counts: args.counts,
            contenders: args.contenders,
            held: args.held,
            flood: args.flood,
            hold_s: args.hold,
            per_client: args.per_client,
            delay_ms: args.delay_ms,
            older_rules: args.older,
            serve_args: args
                .serve_args
                .map(|a| a.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
            out,
            root,
        })
    }
}

/// The suites' names for clap, each with what it measures for `--help`.
fn suite_names() -> PossibleValuesParser {
    PossibleValuesParser::new(
        SUITES
            .iter()
            .map(|suite| PossibleValue::new(suite.name).help(suite.about)),
    )
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
