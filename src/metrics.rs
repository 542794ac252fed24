//! The service's Prometheus metrics: one recorder per [`Metrics`] (a
//! `metrics-exporter-prometheus` recorder that is never installed as the
//! process-global one), the handles the table, the reservations and the
//! HTTP layer count with, and the text `GET /metrics` answers.
//!
//! Each service opened gets its own recorder, so several services in one
//! process (the tests) count apart. Code that counts holds a handle
//! registered once ([`RedisCalls`], [`TableMetrics`]); a handle of
//! [`Metrics::noop`] counts nothing (`slugd slugify`). A request's handles
//! are registered the first time its route and status are seen, and found
//! by them after that without allocating.
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `slugd_http_requests_total` | counter | `route`, `status` |
//! | `slugd_http_request_duration_seconds` | histogram | `route` |
//! | `slugd_redis_round_trips_total` | counter | `component` |
//! | `slugd_redis_failures_total` | counter | `component` |
//! | `slugd_redis_up` | gauge | |
//! | `slugd_name_cache_hits_total`, `..._misses_total` | counter | |
//! | `slugd_table_version`, `slugd_table_locales` | gauge | |
//! | `slugd_reservations_total` | counter | `outcome` |
//! | `slugd_bench_runs_total` | counter | |

use std::collections::HashMap;
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use metrics::{Counter, Gauge, Histogram, Key, Label, Level, Metadata, Recorder, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

/// Bucket bounds of every histogram, in seconds: from 50 µs (a title with
/// no symbol) to 2.5 s (a `/bench` run or a Redis timeout).
const BUCKETS: &[f64] = &[
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5,
];

/// How often histogram samples are folded into their buckets when nobody
/// scrapes, so they never pile up.
const UPKEEP: Duration = Duration::from_secs(5);

static METADATA: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, None);

const REQUESTS: &str = "slugd_http_requests_total";
const DURATION: &str = "slugd_http_request_duration_seconds";

/// The metrics of one service: its recorder and the handles registered
/// with it. Cheap to clone.
#[derive(Clone)]
pub struct Metrics {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    made: Counter,
    returned: Counter,
    bench_runs: Counter,
    table_locales: Gauge,
    /// Request handles by route template, registered on first use: a
    /// bounded set (the routes, `unmatched`, and the statuses they answer).
    routes: RwLock<HashMap<Box<str>, RouteHandles>>,
}

/// The handles of one route.
struct RouteHandles {
    duration: Histogram,
    requests: HashMap<u16, Counter>,
}

impl Metrics {
    /// A recorder of its own, with the counters every mode has registered
    /// (so a scrape shows them at 0 from the start). Redis's are registered
    /// by [`Metrics::table`] and [`Metrics::reservation_calls`], in Redis
    /// mode only.
    pub fn new() -> Metrics {
        let recorder = PrometheusBuilder::new()
            .set_buckets(BUCKETS)
            .expect("the bucket list is not empty")
            .build_recorder();
        describe(&recorder);
        let inner = Inner {
            made: counter(&recorder, "slugd_reservations_total", &[("outcome", "new")]),
            returned: counter(
                &recorder,
                "slugd_reservations_total",
                &[("outcome", "returned")],
            ),
            bench_runs: counter(&recorder, "slugd_bench_runs_total", &[]),
            table_locales: gauge(&recorder, "slugd_table_locales"),
            routes: RwLock::default(),
            handle: recorder.handle(),
            recorder,
        };
        Metrics {
            inner: Some(Arc::new(inner)),
        }
    }

    /// Metrics that count nothing and render nothing.
    pub fn noop() -> Metrics {
        Metrics { inner: None }
    }

    /// The handles of the symbol table in Redis.
    pub fn table(&self) -> TableMetrics {
        match &self.inner {
            Some(inner) => TableMetrics {
                calls: RedisCalls::register(&inner.recorder, "table"),
                cache_hits: counter(&inner.recorder, "slugd_name_cache_hits_total", &[]),
                cache_misses: counter(&inner.recorder, "slugd_name_cache_misses_total", &[]),
            },
            None => TableMetrics::noop(),
        }
    }

    /// The handles of the reservations' round trips.
    pub fn reservation_calls(&self) -> RedisCalls {
        match &self.inner {
            Some(inner) => RedisCalls::register(&inner.recorder, "reservations"),
            None => RedisCalls::noop(),
        }
    }

    /// A request answered: by route (the matched path template, or
    /// `unmatched`), status and how long it took.
    pub fn request(&self, route: &str, status: u16, took: Duration) {
        let Some(inner) = &self.inner else { return };
        let took = took.as_secs_f64();
        if let Some(handles) = inner.routes.read().expect("lock poisoned").get(route)
            && let Some(requests) = handles.requests.get(&status)
        {
            requests.increment(1);
            handles.duration.record(took);
            return;
        }
        let mut routes = inner.routes.write().expect("lock poisoned");
        let handles = routes.entry(route.into()).or_insert_with(|| {
            let key = Key::from_parts(DURATION, vec![Label::new("route", route.to_owned())]);
            RouteHandles {
                duration: inner.recorder.register_histogram(&key, &METADATA),
                requests: HashMap::new(),
            }
        });
        let requests = handles.requests.entry(status).or_insert_with(|| {
            let labels = vec![
                Label::new("route", route.to_owned()),
                Label::new("status", status.to_string()),
            ];
            let key = Key::from_parts(REQUESTS, labels);
            inner.recorder.register_counter(&key, &METADATA)
        });
        requests.increment(1);
        handles.duration.record(took);
    }

    /// A reservation answered: `new`, or the slug the owner already held.
    pub fn reservation(&self, new: bool) {
        if let Some(inner) = &self.inner {
            match new {
                true => inner.made.increment(1),
                false => inner.returned.increment(1),
            }
        }
    }

    /// The counter of `/bench` runs.
    pub fn bench_runs(&self) -> Counter {
        match &self.inner {
            Some(inner) => inner.bench_runs.clone(),
            None => Counter::noop(),
        }
    }

    /// The table in use: its version (Redis mode; `None` in-process or
    /// before Redis answered) and how many locales' names it holds.
    pub fn table_state(&self, version: Option<u64>, locales: usize) {
        if let Some(inner) = &self.inner {
            if let Some(version) = version {
                gauge(&inner.recorder, "slugd_table_version").set(version as f64);
            }
            inner.table_locales.set(locales as f64);
        }
    }

    /// Everything in Prometheus's text format.
    pub fn render(&self) -> String {
        match &self.inner {
            Some(inner) => inner.handle.render(),
            None => String::new(),
        }
    }

    /// Folds histogram samples into their buckets every few seconds until
    /// the last clone of these metrics is dropped.
    pub fn spawn_upkeep(&self) {
        let Some(inner) = &self.inner else { return };
        let weak: Weak<Inner> = Arc::downgrade(inner);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(UPKEEP);
            loop {
                tick.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                inner.handle.run_upkeep();
            }
        });
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("recording", &self.inner.is_some())
            .finish()
    }
}

fn counter(
    recorder: &PrometheusRecorder,
    name: &'static str,
    labels: &[(&'static str, &'static str)],
) -> Counter {
    let labels: Vec<Label> = labels
        .iter()
        .map(|&(k, v)| Label::from_static_parts(k, v))
        .collect();
    recorder.register_counter(&Key::from_parts(name, labels), &METADATA)
}

fn gauge(recorder: &PrometheusRecorder, name: &'static str) -> Gauge {
    recorder.register_gauge(&Key::from_static_name(name), &METADATA)
}

/// The `# HELP` lines.
fn describe(recorder: &PrometheusRecorder) {
    let help: &[(&'static str, Option<Unit>, &'static str)] = &[
        (
            REQUESTS,
            None,
            "Requests answered, by route template and status.",
        ),
        (
            DURATION,
            Some(Unit::Seconds),
            "Time from a request's arrival to its response's headers, by route template.",
        ),
        (
            "slugd_redis_round_trips_total",
            None,
            "Round trips to Redis: the table's reads and the reservations' script calls.",
        ),
        (
            "slugd_redis_failures_total",
            None,
            "Round trips to Redis that got no answer (refused, dropped or timed out).",
        ),
        (
            "slugd_redis_up",
            None,
            "1 when the last round trip to Redis was answered, 0 when it was not.",
        ),
        (
            "slugd_name_cache_hits_total",
            None,
            "Symbol names a request needed that the name cache had.",
        ),
        (
            "slugd_name_cache_misses_total",
            None,
            "Symbol names a request needed that had to be read from Redis.",
        ),
        (
            "slugd_table_version",
            None,
            "The live table version in Redis (absent in-process).",
        ),
        (
            "slugd_table_locales",
            None,
            "How many locales' CLDR names the table in use holds.",
        ),
        (
            "slugd_reservations_total",
            None,
            "Reservations answered: outcome new (a slug newly taken) or returned (the owner's own).",
        ),
        ("slugd_bench_runs_total", None, "Runs of GET /bench."),
    ];
    for &(name, unit, text) in help {
        recorder.describe_counter(name.into(), unit, text.into());
    }
}

/// The round trips of one component to Redis.
#[derive(Clone)]
pub struct RedisCalls {
    round_trips: Counter,
    failures: Counter,
    /// Shared by every component: the latest round trip says.
    up: Gauge,
}

impl RedisCalls {
    fn register(recorder: &PrometheusRecorder, component: &'static str) -> Self {
        let label = [("component", component)];
        RedisCalls {
            round_trips: counter(recorder, "slugd_redis_round_trips_total", &label),
            failures: counter(recorder, "slugd_redis_failures_total", &label),
            up: gauge(recorder, "slugd_redis_up"),
        }
    }

    /// Handles that count nothing.
    pub fn noop() -> Self {
        RedisCalls {
            round_trips: Counter::noop(),
            failures: Counter::noop(),
            up: Gauge::noop(),
        }
    }

    /// A round trip that Redis answered (with a reply or a server error).
    pub fn answered(&self) {
        self.round_trips.increment(1);
        self.up.set(1.0);
    }

    /// A round trip that got no answer: refused, dropped, timed out.
    pub fn failed(&self) {
        self.round_trips.increment(1);
        self.failures.increment(1);
        self.up.set(0.0);
    }
}

/// What the symbol table in Redis counts.
#[derive(Clone)]
pub struct TableMetrics {
    /// Its reads.
    calls: RedisCalls,
    cache_hits: Counter,
    cache_misses: Counter,
}

impl TableMetrics {
    /// Handles that count nothing.
    pub fn noop() -> Self {
        TableMetrics {
            calls: RedisCalls::noop(),
            cache_hits: Counter::noop(),
            cache_misses: Counter::noop(),
        }
    }

    /// The handles of its round trips.
    pub fn calls(&self) -> &RedisCalls {
        &self.calls
    }

    /// Of `wanted` names a request needed, `missed` were not in the cache.
    pub fn cache_lookup(&self, wanted: usize, missed: usize) {
        self.cache_hits.increment((wanted - missed) as u64);
        self.cache_misses.increment(missed as u64);
    }
}
