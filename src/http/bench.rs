//! `GET /bench?iterations=N[&title=...][&locale=de]`: runs the same titles through the
//! in-process table and the Redis table inside the running service and
//! reports latency percentiles, throughput and table size for each.
//!
//! In Redis mode the in-process table is built from the data file for the
//! run and dropped after it, so the service does not hold it for ever. In
//! in-process mode the Redis side reports why it cannot run. One benchmark
//! runs at a time; a second gets 429.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Query, State};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::error::ApiError;
use super::json::Json;
use crate::cldr::{self, CldrSettings, LocaleSelection};
use crate::corpus;
use crate::locale::SlugLocale;
use crate::options::OptionError;
use crate::slug::Options;
use crate::slugger::Slugger;
use crate::table::{MemoryTable, RedisTable, SymbolTable, TableSettings};
use crate::unicode_data::Categories;

/// What the Redis side says in in-process mode.
const NO_REDIS: &str =
    "this service runs in-process: start it with --redis-url to compare with Redis";

/// The state of `/bench`, apart from the other routes': what it needs to
/// build the backend the service does not run on.
pub struct BenchState {
    slugger: Slugger,
    /// The service's default options: a run measures what requests get.
    options: Options,
    /// The data file, to build an in-process table on demand in Redis mode.
    data: PathBuf,
    /// Categories for that table when Redis does not say its own.
    categories: Categories,
    /// Where CLDR's files are, for that table; it holds the locales of
    /// the live Redis table.
    cldr: CldrSettings,
    /// Most iterations of one run.
    max_iterations: usize,
    /// One run at a time: a run is meant to measure, not to compete.
    running: Semaphore,
    /// Runs started, for `GET /metrics`.
    runs: metrics::Counter,
}

impl BenchState {
    /// State for `/bench` on the service's `slugger`.
    pub fn new(
        slugger: Slugger,
        options: Options,
        table: &TableSettings,
        max_iterations: usize,
        runs: metrics::Counter,
    ) -> Self {
        BenchState {
            slugger,
            options,
            data: table.data.clone(),
            categories: table.categories.clone(),
            cldr: table.cldr.clone(),
            max_iterations,
            running: Semaphore::new(1),
            runs,
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
    /// A `locale` for every title (default: the service's default
    /// options').
    pub locale: Option<String>,
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

/// The bench route, with its own state: any router state may merge it.
pub fn router<S>(state: Arc<BenchState>) -> Router<S> {
    Router::new().route("/bench", get(bench)).with_state(state)
}

async fn bench(
    State(state): State<Arc<BenchState>>,
    query: Result<Query<BenchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query?;
    let max = state.max_iterations;
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
        .running
        .try_acquire()
        .map_err(|_| ApiError::BenchBusy)?;
    state.runs.increment(1);
    let mut options = state.options.clone();
    if let Some(tag) = &query.locale {
        options.locale = Some(SlugLocale::resolve(tag).map_err(OptionError::from)?);
    }

    let in_process = match memory_table(&state).await {
        Ok(table) => run_in_process(table, titles.clone(), options.clone(), iterations).await,
        Err(reason) => Err(reason),
    };
    let in_process = match in_process {
        Ok(stats) => json!(stats),
        Err(reason) => json!({ "error": reason }),
    };
    let redis = match state.slugger.table() {
        SymbolTable::Redis(table, _) => match run_redis(table, &titles, &options, iterations).await
        {
            Ok(stats) => json!(stats),
            Err(reason) => json!({ "error": reason }),
        },
        SymbolTable::InProcess(_) => json!({ "error": NO_REDIS }),
    };
    Ok(Json(json!({
        "mode": state.slugger.table().mode(),
        "iterations": iterations,
        "titles": titles.len(),
        "locale": query.locale,
        "in_process": in_process,
        "redis": redis,
    })))
}

/// The in-process table: the service's own, or one built for this run.
async fn memory_table(state: &BenchState) -> Result<Arc<MemoryTable>, String> {
    let table = match state.slugger.table() {
        SymbolTable::InProcess(table) => return Ok(table.clone()),
        SymbolTable::Redis(table, _) => table,
    };
    // Build it from the same categories and locales as the live Redis
    // table, so both sides name the same characters.
    let (categories, cldr) = match table.version().await {
        Ok(v) => (
            v.meta.categories.clone(),
            CldrSettings {
                dir: state.cldr.dir.clone(),
                // Those the service's --cldr has: a load from another
                // directory may hold more.
                locales: LocaleSelection::List(
                    v.meta
                        .cldr
                        .locales
                        .tags()
                        .iter()
                        .filter(|t| cldr::annotations_file(&state.cldr.dir, t).is_file())
                        .cloned()
                        .collect(),
                ),
            },
        ),
        Err(_) => (state.categories.clone(), state.cldr.clone()),
    };
    MemoryTable::build(state.data.clone(), categories, cldr)
        .await
        .map(Arc::new)
        .map_err(|e| format!("cannot build the in-process table: {e}"))
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
        let slugger = Slugger::new(SymbolTable::InProcess(table));
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
    }
}
