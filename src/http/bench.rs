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

use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
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
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BenchQuery {
    /// Titles slugged per backend (default 1000).
    #[param(example = 200)]
    pub iterations: Option<usize>,
    /// One title to use instead of the built-in sample corpus.
    pub title: Option<String>,
    /// A `locale` for every title (default: the service's default
    /// options').
    pub locale: Option<String>,
}

/// What `/bench` answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct BenchReport {
    /// `in_process` or `redis`: the mode the service runs in.
    mode: &'static str,
    /// Titles slugged per side.
    iterations: usize,
    /// Distinct titles (the corpus, or 1 with `title`).
    titles: usize,
    /// The `locale` of the run, if any.
    locale: Option<String>,
    /// The in-process table.
    in_process: Side,
    /// The Redis table through the service's path, name cache included.
    redis: Side,
    /// The Redis table with the name cache bypassed: every title with a
    /// table character costs a round trip.
    redis_uncached: Side,
}

/// One side of a run: its figures, or why it could not run.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Side {
    /// The side ran.
    Ran(Stats),
    /// The side could not run.
    Unavailable {
        /// Why (in-process mode: no Redis to measure).
        error: String,
    },
}

impl From<Result<Stats, String>> for Side {
    fn from(result: Result<Stats, String>) -> Self {
        match result {
            Ok(stats) => Side::Ran(stats),
            Err(error) => Side::Unavailable { error },
        }
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
            cdf_us: (1..=CDF_POINTS)
                .map(|p| at(p as f64 / CDF_POINTS as f64))
                .collect(),
        }
    }
}

/// The bench route, with its own state: any router state may merge it.
pub fn router<S>(state: Arc<BenchState>) -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(bench))
        .with_state(state)
}

/// Runs the same titles through the in-process and the Redis table inside
/// the running service and reports each side's latency distribution.
#[utoipa::path(get, path = "/bench", tag = "bench", params(BenchQuery),
    responses(
        (status = 200, description = "Each side's figures, or why it could not run (the Redis sides in in-process mode)", body = BenchReport,
            examples(("default" = (value = json!({
                "mode": "redis", "iterations": 200, "titles": 120, "locale": null,
                "in_process": {"p50_us": 0.11, "p90_us": 0.19, "p99_us": 0.44, "max_us": 2.9, "slugs_per_sec": 5686988.2, "table_bytes": 216593, "cdf_us": [0.1, 0.2]},
                "redis": {"p50_us": 0.47, "p90_us": 0.75, "p99_us": 1.0, "max_us": 41.1, "slugs_per_sec": 1553814.4, "table_bytes": 220944, "cdf_us": [0.4, 0.5]},
                "redis_uncached": {"p50_us": 0.5, "p90_us": 60.2, "p99_us": 95.0, "max_us": 180.0, "slugs_per_sec": 60000.0, "table_bytes": 220944, "cdf_us": [0.4, 0.5]}
            }))))),
        (status = 400, description = "`bad_query`", body = ErrorBody),
        (status = 422, description = "`invalid_request` (iterations out of range) or `unknown_locale`", body = ErrorBody),
        (status = 429, description = "`busy`: a run is already going", body = ErrorBody),
    ))]
async fn bench(
    State(state): State<Arc<BenchState>>,
    query: Result<Query<BenchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<BenchReport>, ApiError> {
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
    let (redis, redis_uncached) = match state.slugger.table() {
        SymbolTable::Redis(table, _) => {
            let cached = run_redis(table, &titles, &options, iterations).await;
            let uncached = Arc::new(table.uncached());
            let uncached = run_redis(&uncached, &titles, &options, iterations).await;
            (cached, uncached)
        }
        SymbolTable::InProcess(_) => (Err(NO_REDIS.to_owned()), Err(NO_REDIS.to_owned())),
    };
    Ok(Json(BenchReport {
        mode: state.slugger.table().mode(),
        iterations,
        titles: titles.len(),
        locale: query.locale,
        in_process: in_process.into(),
        redis: redis.into(),
        redis_uncached: redis_uncached.into(),
    }))
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
        assert_eq!(stats.cdf_us.len(), 100);
        assert_eq!((stats.cdf_us[0], stats.cdf_us[49]), (1.0, 50.0));
    }
}
