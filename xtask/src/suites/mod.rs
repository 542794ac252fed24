//! The suites, one file each: what each starts, in which order its
//! targets run, and what it records. This file holds their table (a
//! suite's name, defaults and run, in one row) and dispatches; what
//! several suites share is in `shared`, so no suite imports this file.

mod bulk;
mod engine;
mod flood;
mod growth;
mod instances;
mod japanese;
mod locales;
mod memory;
mod replicas;
mod request_cost;
mod reservations;
mod rules;
mod shared;
mod soak;
mod startup;
mod throughput;

use std::path::Path;

use anyhow::{Context, Result};

use crate::builds::Builds;
use crate::report::Report;
use crate::settings::Settings;

/// A suite: its name, what it measures (`--help`), its defaults and its
/// run. Adding a suite is a file and a row of [`SUITES`].
pub struct Suite {
    pub name: &'static str,
    pub about: &'static str,
    /// Rounds when --rounds is not given.
    pub rounds: usize,
    /// One wrk run's length in seconds when --duration is not given.
    pub duration_s: u64,
    /// wrk's connections when --connections is not given.
    pub connections: u32,
    /// Warm-up requests per instance when --warm is not given.
    pub warm: usize,
    /// Seconds from warm to settled when --settle is not given.
    pub settle_s: u64,
    /// --repeat when not given.
    pub repeat: usize,
    /// Measures, recording into the report; the builds it ran.
    pub run: fn(&Settings, &Path, &mut Report) -> Result<Builds>,
}

impl Suite {
    /// A suite with the usual defaults (3 rounds of 10 s, 64 connections,
    /// 2,000 warm-up requests, no settling, 5 repeats); a row of
    /// [`SUITES`] overrides the ones it needs.
    const fn new(
        name: &'static str,
        about: &'static str,
        run: fn(&Settings, &Path, &mut Report) -> Result<Builds>,
    ) -> Suite {
        Suite {
            name,
            about,
            rounds: 3,
            duration_s: 10,
            connections: 64,
            warm: 2000,
            settle_s: 0,
            repeat: 5,
            run,
        }
    }
}

/// Every suite. docs/figures.md shows the figures each gave.
pub const SUITES: [Suite; 16] = [
    Suite::new(
        "throughput",
        "wrk over loopback, POST /slug over the corpus: in-process, on \
             Redis and on a 3-primary Redis Cluster (each with and without the \
             name cache) and the bare axum handler of examples/bare.rs; req/s, \
             p50, p99, errors, RSS idle and after the load, the Redis table's \
             size. Targets: in_process redis redis_nocache cluster \
             cluster_nocache bare.",
        throughput::run,
    ),
    Suite {
        settle_s: 15,
        ..Suite::new(
            "memory",
            "One instance at a time, in-process and on Redis: RSS and anonymous \
             memory idle, after --warm requests, and --settle seconds later; \
             the Redis table's used_memory. Targets: in_process redis.",
            memory::run,
        )
    },
    Suite::new(
        "startup",
        "hyperfine: `slugd --version`, `slugd slugify` in-process, from the \
             data files and on Redis; `slugd serve` from spawn to the first \
             200 of GET /readyz, in-process and on Redis; and every reading \
             (--locales all) prepared and cold: serve's ready time, RSS and \
             the PSS of four instances, `slugify --locales fa` to its first \
             line, `slugd load --locales all` (cold runs take minutes).",
        startup::run,
    ),
    Suite {
        duration_s: 5,
        ..Suite::new(
            "growth",
            "How a request's cost grows: wrk with 64, 256 and 1,024 \
             connections; POST /slugs with 1, 10 and 100 titles; one POST /slug \
             of 1 KiB to 1 MiB. Targets: in_process redis.",
            growth::run,
        )
    },
    Suite {
        rounds: 9,
        ..Suite::new(
            "bulk",
            "`slugd slugify` over --lines titles from standard input: wall \
             time, titles/s and peak RSS, then a check that every target wrote \
             the same slugs. Targets: threads1 threads unicode redis.",
            bulk::run,
        )
    },
    Suite {
        rounds: 5,
        ..Suite::new(
            "unicode",
            "What `--unicode` (slugs in the titles' own scripts) costs beside \
             ASCII slugs: the bulk suite's targets threads and unicode over the \
             corpus repeated 2,000 times.",
            bulk::run_unicode,
        )
    },
    Suite {
        rounds: 1,
        ..Suite::new(
            "engine",
            "The engine in-process: criterion's times (benches/engine.rs) and \
             callgrind's instructions per corpus pass through gungraun \
             (benches/engine_instructions.rs; valgrind and gungraun-runner are \
             installed if missing). With --before, the revision counts this \
             tree's instruction cases too, and runs its own criterion cases.",
            engine::run,
        )
    },
    Suite {
        duration_s: 5,
        ..Suite::new(
            "reservations",
            "Reservations on one fresh redis-server: wrk POST /reservations \
             against POST /slug on the same slugd, in turns (req/s, p50, p99, \
             CPU per request of slugd and redis-server, Redis's time per \
             function or script call); three instances contending for 20 titles \
             in one scope (latency, no slug handed out twice); the Redis memory \
             of --held reservations in one scope; `slugd import` of --held \
             lines (lines/s, peak RSS, Redis memory per reservation). Targets \
             (phases): throughput contention memory import, and redis_alone \
             when named: Redis's own time \
             per reservation, the script, library 1, this tree's library and \
             the floor of the key layout by redis-benchmark.",
            reservations::run,
        )
    },
    Suite {
        rounds: 1,
        warm: 500,
        ..Suite::new(
            "instances",
            "RSS of N instances at once in each mode (N from --counts), each \
             after --warm corpus titles, beside the Redis table's size. \
             Targets: in_process redis.",
            instances::run,
        )
    },
    Suite::new(
        "locales",
        "What CLDR's names in every locale cost: `slugd load --locales en` \
             and `all` (time, peak RSS, the table's and its CLDR buckets' \
             memory, the names' raw text), and the RSS of one instance warmed \
             under 12 locales, with English only and with every locale. \
             Targets: redis_en redis_all in_process_en in_process_all. Needs \
             CLDR (unicode-cldr-core).",
        locales::run,
    ),
    Suite {
        settle_s: 30,
        repeat: 200,
        ..Suite::new(
            "japanese",
            "What Japanese readings cost: loads of `--locales en` and `en,ja` \
             (time, peak RSS, memory of the table and of the readings' \
             buckets), RSS of one warmed instance without and with them (right \
             after and --settle s later), and the time per Japanese title of \
             `slugd slugify --locale ja`. Targets: redis_en redis_ja \
             in_process_en in_process_ja slugify_redis slugify_in_process, and \
             reading when named: the engine's time to read each Japanese \
             title (examples/ja_readings.rs), medians over the titles. Needs \
             IPADIC (mecab-ipadic).",
            japanese::run,
        )
    },
    Suite {
        rounds: 1,
        ..Suite::new(
            "request-cost",
            "Instructions per POST /slug, counted by callgrind over a live \
             `slugd serve` with one worker thread: 2,000 then 6,000 corpus \
             titles, the difference over 4,000; whole process and the service \
             path alone (call_app and TrackedAnswer::poll). Targets: in_process \
             redis.",
            request_cost::run,
        )
    },
    Suite {
        rounds: 1,
        duration_s: 60,
        connections: 200,
        ..Suite::new(
            "soak",
            "wrk with --connections for --duration against in-process, Redis, \
             and Redis killed and restarted mid-run (with and without the name \
             cache), a probe every 50 ms during the restarts: errors, RSS after \
             5 s and at the end, how long the restart hurt. Targets: in_process \
             redis redis_restart redis_nocache_restart.",
            soak::run,
        )
    },
    Suite {
        rounds: 1,
        warm: 500,
        ..Suite::new(
            "flood",
            "Connection floods: --flood connections (scripts/lib/flood.py, \
             split over client processes of at most --per-client each) held \
             --hold seconds against a fresh in-process slugd, a probe every 0.2 \
             s: its answers and latency, peak RSS and RSS 30 s after against \
             idle, handshakes the kernel dropped. Targets: silent trickle idle.",
            flood::run,
        )
    },
    Suite {
        duration_s: 5,
        connections: 16,
        ..Suite::new(
            "replicas",
            "What waiting for a replica costs: POST /reservations (wrk, \
             --connections, default 16) to an instance answering once the \
             primary has it and to one with --reservation-replicas 1, in turns, \
             the replica's link --delay-ms away each way through a delaying \
             proxy: req/s, p50, p99, errors, and the ratio of the two rates; \
             then a primary watched by three sentinels killed under \
             reservations: how long until the sentinels name the replica and \
             until reservations are answered again. Targets: wait sentinel.",
            replicas::run,
        )
    },
    Suite {
        rounds: 41,
        ..Suite::new(
            "rules",
            "The engine's time per corpus pass by the newest rule version \
             against --older (default 4), timed in turns in one process \
             (examples/rules_ab.rs, 200 passes a turn, --rounds rounds): the \
             nanoseconds a pass of each and the median of the rounds' ratios. \
             Targets: older newest.",
            rules::run,
        )
    },
];

/// The suite named `name`.
pub fn find(name: &str) -> Option<&'static Suite> {
    SUITES.iter().find(|suite| suite.name == name)
}

/// Runs the suite and writes its report.
pub fn run(settings: &Settings) -> Result<()> {
    let work = tempfile::Builder::new()
        .prefix("slugd-bench-")
        .tempdir()
        .context("could not make the run's work directory")?;
    let mut report = Report::default();
    let suite = find(settings.suite).expect("the settings name a suite of the table");
    let builds: Builds = (suite.run)(settings, work.path(), &mut report)
        .with_context(|| format!("the {} suite failed", suite.name))?;
    report.finish(settings, &builds)
}

#[cfg(test)]
mod tests {
    use super::{SUITES, find};

    #[test]
    fn each_suite_has_a_name_of_its_own_and_the_defaults_help_gives() {
        for (i, suite) in SUITES.iter().enumerate() {
            assert!(
                SUITES[i + 1..].iter().all(|s| s.name != suite.name),
                "{} twice",
                suite.name
            );
        }
        // What --help says of the defaults that differ by suite.
        let get = |name| find(name).expect("a suite of the table");
        assert_eq!(get("bulk").rounds, 9);
        assert_eq!(get("unicode").rounds, 5);
        assert_eq!(get("rules").rounds, 41);
        assert_eq!(get("engine").rounds, 1);
        assert_eq!(get("throughput").rounds, 3);
        assert_eq!((get("soak").duration_s, get("soak").connections), (60, 200));
        assert_eq!(get("reservations").duration_s, 5);
        assert_eq!(get("replicas").connections, 16);
        assert_eq!((get("flood").warm, get("memory").settle_s), (500, 15));
        assert_eq!(
            (get("japanese").settle_s, get("japanese").repeat),
            (30, 200)
        );
        assert!(find("nosuch").is_none());
    }
}
