//! `GET /bench?iterations=N[&title=...]`: runs the same titles through the
//! in-process table and the Redis table inside the running service and
//! reports latency percentiles, throughput and table size for each.
//!
//! In Redis mode the in-process table is built from the data file for the
//! run and dropped after it, so the service does not hold it for ever. In
//! in-process mode the Redis side reports why it cannot run. One benchmark
//! runs at a time; a second gets 429.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Query, State};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::{ApiError, AppState, BenchSources, Json};
use crate::corpus;
use crate::slug::{self, Options};
use crate::table::{MemoryTable, RedisTable, SymbolTable};

/// What `/bench` keeps between runs.
#[derive(Debug)]
pub struct BenchState {
    sources: BenchSources,
    /// One run at a time: a run is meant to measure, not to compete.
    running: Semaphore,
}

impl BenchState {
    /// State for `/bench`.
    pub fn new(sources: BenchSources) -> Self {
        BenchState {
            sources,
            running: Semaphore::new(1),
        }
    }
}

/// The query of `/bench`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchQuery {
    /// Titles slugged per backend (default 1000).
    pub iterations: Option<usize>,
    /// One title to use instead of the built-in sample corpus.
    pub title: Option<String>,
}

/// The figures of one backend.
#[derive(Debug, Serialize, PartialEq)]
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
}

impl Stats {
    fn from_samples(mut samples: Vec<Duration>, total: Duration, table_bytes: u64) -> Self {
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
        }
    }
}

/// The bench route.
pub fn router() -> Router<AppState> {
    Router::new().route("/bench", get(bench))
}

async fn bench(
    State(state): State<AppState>,
    query: Result<Query<BenchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query?;
    let max = state.limits.bench_iterations;
    let iterations = query.iterations.unwrap_or(1000);
    if iterations == 0 || iterations > max {
        return Err(ApiError::Invalid(format!(
            "iterations must be between 1 and {max}; got {iterations}"
        )));
    }
    let titles: Arc<Vec<String>> = Arc::new(match query.title {
        Some(title) => vec![title],
        None => corpus::titles().map(str::to_owned).collect(),
    });
    let _running = state
        .bench
        .running
        .try_acquire()
        .map_err(|_| ApiError::BenchBusy)?;
    let options = Options::default();

    let in_process = match memory_table(&state).await {
        Ok(table) => {
            let titles = titles.clone();
            let options = options.clone();
            tokio::task::spawn_blocking(move || {
                run_in_process(&table, &titles, &options, iterations)
            })
            .await
            .map_err(|e| ApiError::Internal(format!("bench task failed: {e}")))
            .map(|stats| json!(stats))?
        }
        Err(reason) => json!({ "error": reason }),
    };
    let redis = match &state.table {
        SymbolTable::Redis(table, _) => match run_redis(table, &titles, &options, iterations).await
        {
            Ok(stats) => json!(stats),
            Err(reason) => json!({ "error": reason }),
        },
        SymbolTable::InProcess(_) => json!({ "error": state.bench.sources.no_redis_reason }),
    };
    Ok(Json(json!({
        "mode": state.table.mode(),
        "iterations": iterations,
        "titles": titles.len(),
        "in_process": in_process,
        "redis": redis,
    })))
}

/// The in-process table: the service's own, or one built for this run.
async fn memory_table(state: &AppState) -> Result<Arc<MemoryTable>, String> {
    let table = match &state.table {
        SymbolTable::InProcess(table) => return Ok(table.clone()),
        SymbolTable::Redis(table, _) => table,
    };
    // Build it from the same categories as the live Redis table, so both
    // sides name the same characters.
    let categories = match table.version().await {
        Ok(v) => v.meta.categories.clone(),
        Err(_) => state.bench.sources.categories.clone(),
    };
    let path = state.bench.sources.data.clone();
    tokio::task::spawn_blocking(move || MemoryTable::from_file(&path, &categories))
        .await
        .map_err(|e| format!("building the in-process table failed: {e}"))?
        .map(Arc::new)
        .map_err(|e| format!("cannot build the in-process table: {e}"))
}

fn run_in_process(
    table: &MemoryTable,
    titles: &[String],
    options: &Options,
    iterations: usize,
) -> Stats {
    let mut samples = Vec::with_capacity(iterations);
    let started = Instant::now();
    for title in titles.iter().cycle().take(iterations) {
        let t = Instant::now();
        let slug = slug::slugify(title, options, table);
        samples.push(t.elapsed());
        std::hint::black_box(slug).ok();
    }
    Stats::from_samples(samples, started.elapsed(), table.heap_bytes() as u64)
}

async fn run_redis(
    table: &Arc<RedisTable>,
    titles: &[String],
    options: &Options,
    iterations: usize,
) -> Result<Stats, String> {
    let bytes = table.version().await.map_err(|e| e.to_string())?.meta.bytes;
    // Without the fallback: this measures Redis, or says it is down.
    let backend = SymbolTable::Redis(table.clone(), None);
    let mut samples = Vec::with_capacity(iterations);
    let started = Instant::now();
    for title in titles.iter().cycle().take(iterations) {
        let t = Instant::now();
        let slug = backend
            .slugify(title, options)
            .await
            .map_err(|e| e.to_string())?;
        samples.push(t.elapsed());
        let _ = std::hint::black_box(slug);
    }
    Ok(Stats::from_samples(samples, started.elapsed(), bytes))
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
    }
}
