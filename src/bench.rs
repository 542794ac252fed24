//! The benchmark runner behind `GET /bench`: the same titles through the
//! in-process table and the Redis table, one at a time through the same
//! pipeline a request takes, timed each, with the latency distribution of
//! each side.
//!
//! In Redis mode the in-process side runs on a copy of the live table
//! ([`CopySource`]), built for the run and dropped after it. In in-process
//! mode the Redis sides report why they cannot run.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use utoipa::ToSchema;

use crate::slugger::Slugger;
use crate::table::{CopySource, MemoryTable, RedisTable, SymbolTable};
use slugd_engine::slug::Options;

/// What the Redis sides say in in-process mode.
const NO_REDIS: &str =
    "this service runs in-process: start it with --redis-url to compare with Redis";

/// The three sides of one run: each its figures, or why it could not run.
#[derive(Debug)]
pub struct Runs {
    /// The in-process table.
    pub in_process: Result<Stats, String>,
    /// The Redis table through the service's path, name cache included.
    pub redis: Result<Stats, String>,
    /// The Redis table with the name cache bypassed.
    pub redis_uncached: Result<Stats, String>,
}

/// Runs `titles`, cycled to `iterations`, through each side of `table`
/// (the in-process side built from `copy` in Redis mode) with `options`.
pub async fn run(
    table: &SymbolTable,
    copy: &CopySource,
    titles: Arc<Vec<String>>,
    options: &Options,
    iterations: usize,
) -> Runs {
    let in_process = match table.in_process_copy(copy).await {
        Ok(memory) => run_in_process(memory, titles.clone(), options.clone(), iterations).await,
        Err(e) => Err(format!("cannot build the in-process table: {e}")),
    };
    let (redis, redis_uncached) = match table.redis() {
        Some(redis) => {
            let cached = run_redis(redis, &titles, options, iterations).await;
            let uncached = Arc::new(redis.uncached());
            let uncached = run_redis(&uncached, &titles, options, iterations).await;
            (cached, uncached)
        }
        None => (Err(NO_REDIS.to_owned()), Err(NO_REDIS.to_owned())),
    };
    Runs {
        in_process,
        redis,
        redis_uncached,
    }
}

/// How many points of the latency distribution a side reports.
const CDF_POINTS: usize = 100;

/// The figures of one backend.
#[derive(Debug, Serialize, PartialEq, ToSchema)]
pub struct Stats {
    /// Median latency of one title, in microseconds.
    pub p50_us: f64,
    /// 90th percentile, in microseconds.
    pub p90_us: f64,
    /// 99th percentile, in microseconds.
    pub p99_us: f64,
    /// Slowest title, in microseconds.
    pub max_us: f64,
    /// Titles per second over the whole run.
    pub slugs_per_sec: f64,
    /// In-process: heap bytes of the table; Redis: MEMORY USAGE of the
    /// version's keys, as the loader measured it.
    pub table_bytes: u64,
    /// The latency distribution: the latency at each percentile from 1 to
    /// 100, in microseconds (`cdf_us[49]` is `p50_us`), for charts.
    pub cdf_us: Vec<f64>,
}

impl Stats {
    pub(crate) fn from_samples(
        mut samples: Vec<Duration>,
        total: Duration,
        table_bytes: u64,
    ) -> Self {
        samples.sort_unstable();
        let at = |q: f64| {
            let i = ((samples.len() as f64 * q).ceil() as usize).clamp(1, samples.len()) - 1;
            samples[i].as_nanos() as f64 / 1000.0
        };
        Stats {
            p50_us: at(0.50),
            p90_us: at(0.90),
            p99_us: at(0.99),
            max_us: at(1.0),
            slugs_per_sec: samples.len() as f64 / total.as_secs_f64().max(1e-9),
            table_bytes,
            cdf_us: (1..=CDF_POINTS)
                .map(|p| at(p as f64 / CDF_POINTS as f64))
                .collect(),
        }
    }
}

/// The one timing loop of both sides: slugs `iterations` titles, cycling
/// through `titles`, one at a time through the same pipeline a request
/// takes, and times each.
async fn time_each(
    slugger: &Slugger,
    titles: &[String],
    options: &Options,
    iterations: usize,
    table_bytes: u64,
) -> Result<Stats, String> {
    let mut samples = Vec::with_capacity(iterations);
    let started = Instant::now();
    for title in titles.iter().cycle().take(iterations) {
        let t = Instant::now();
        let slug = slugger
            .slugify(title, options)
            .await
            .map_err(|e| e.to_string())?;
        samples.push(t.elapsed());
        let _ = std::hint::black_box(slug);
    }
    Ok(Stats::from_samples(samples, started.elapsed(), table_bytes))
}

/// The in-process side, on a blocking thread: it never waits, so it would
/// hold an async thread for the whole run.
async fn run_in_process(
    table: Arc<MemoryTable>,
    titles: Arc<Vec<String>>,
    options: Options,
    iterations: usize,
) -> Result<Stats, String> {
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let bytes = table.heap_bytes() as u64;
        let slugger = Slugger::new(SymbolTable::in_process(table));
        runtime.block_on(time_each(&slugger, &titles, &options, iterations, bytes))
    })
    .await
    .map_err(|e| format!("bench task failed: {e}"))?
}

async fn run_redis(
    table: &Arc<RedisTable>,
    titles: &[String],
    options: &Options,
    iterations: usize,
) -> Result<Stats, String> {
    let bytes = table.version().await.map_err(|e| e.to_string())?.meta.bytes;
    // Without the fallback: this measures Redis, or says it is down.
    let slugger = Slugger::new(SymbolTable::Redis(table.clone(), None));
    time_each(&slugger, titles, options, iterations, bytes).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_the_sorted_samples() {
        let samples: Vec<Duration> = (1..=100).rev().map(Duration::from_micros).collect();
        let stats = Stats::from_samples(samples, Duration::from_millis(10), 7);
        assert_eq!(stats.p50_us, 50.0);
        assert_eq!(stats.p90_us, 90.0);
        assert_eq!(stats.p99_us, 99.0);
        assert_eq!(stats.max_us, 100.0);
        assert_eq!(stats.slugs_per_sec, 10_000.0);
        assert_eq!(stats.table_bytes, 7);
        assert_eq!(stats.cdf_us.len(), 100);
        assert_eq!((stats.cdf_us[0], stats.cdf_us[49]), (1.0, 50.0));
    }
}
