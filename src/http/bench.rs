//! `GET /bench?iterations=N[&title=...][&locale=de]`: runs the same titles through the
//! in-process table and the Redis table inside the running service and
//! reports latency percentiles, throughput and table size for each.
//!
//! The runs themselves are [`crate::bench`]'s; this file owns the query,
//! the report's shape and the rule of one run at a time (a second gets
//! 429).

use std::sync::Arc;

use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
use super::json::Json;
use crate::bench::{self, Stats};
use crate::slugger::Slugger;
use crate::table::{CopySource, TableSettings};
use slugd_engine::corpus;
use slugd_engine::locale::SlugLocale;
use slugd_engine::options::OptionError;
use slugd_engine::slug::Options;

/// The state of `/bench`, apart from the other routes': what it needs to
/// build the backend the service does not run on.
pub struct BenchState {
    slugger: Slugger,
    /// The service's default options: a run measures what requests get.
    options: Options,
    /// What the in-process side's table is built from in Redis mode (for
    /// the run, then dropped, so the service does not hold it for ever).
    copy: CopySource,
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
            copy: CopySource::new(table),
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

    let runs = bench::run(
        state.slugger.table(),
        &state.copy,
        titles.clone(),
        &options,
        iterations,
    )
    .await;
    Ok(Json(BenchReport {
        mode: state.slugger.table().mode(),
        iterations,
        titles: titles.len(),
        locale: query.locale,
        in_process: runs.in_process.into(),
        redis: runs.redis.into(),
        redis_uncached: runs.redis_uncached.into(),
    }))
}
