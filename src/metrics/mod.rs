//! The service's Prometheus metrics: one recorder per [`Metrics`] (a
//! `metrics-exporter-prometheus` recorder that is never installed as the
//! process-global one), the handles the table and the reservations count
//! with, the cells every request is counted in ([`cells`]), and the text
//! `GET /metrics` answers.
//!
//! Each service opened gets its own recorder, so several services in one
//! process (the tests) count apart. Code that counts holds a handle
//! registered once ([`RedisCalls`], [`TableMetrics`]); a handle of
//! [`Metrics::noop`] counts nothing (`slugd slugify`).
//!
//! The counts every request makes (requests, their durations, the name
//! cache) are kept per thread by [`cells`] and written by it; the rest go
//! through the exporter.
//!
//! A service's request cells are allocated once and never freed (24 kB a
//! service: 12 routes of 8 copies of 32 eight-byte cells; a process
//! serves one, the tests a few hundred), so that a request reaches them by a plain reference: with both cores
//! serving, a reference count that every request bumped would pass its
//! cache line between them twice a request.
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
//! | `slugd_table_locale` | gauge | `locale` |
//! | `slugd_reservations_total` | counter | `outcome` |
//! | `slugd_reservation_holds_total` | counter | `event` |
//! | `slugd_bench_runs_total` | counter | |
//! | `slugd_http_connections_open`, `slugd_http_connections_max` | gauge | |
//! | `slugd_http_connections_closed_total` | counter | `reason` |

mod cells;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};

use metrics::{Counter, Gauge, Key, Label, Level, Metadata, Recorder};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

pub use self::cells::RouteCells;
use self::cells::{Cache, Requests};

static METADATA: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, None);

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
    /// Holds made, renewed, confirmed and seen lapsed.
    holds: [Counter; 4],
    bench_runs: Counter,
    table_locales: Gauge,
    /// The locales `slugd_table_locale` has shown.
    locales_shown: Mutex<BTreeSet<String>>,
    /// Requests by route, with cells for the routes [`Metrics::routes`]
    /// named.
    requests: OnceLock<&'static Requests>,
    /// The name cache, once there is one (Redis mode).
    cache: OnceLock<Arc<Cache>>,
}

/// The hold events counted one by one, in the order of the counters.
#[derive(Debug, Clone, Copy)]
pub enum HoldCounted {
    /// A new slug, held.
    Made = 0,
    /// A hold given a new lifetime.
    Renewed = 1,
    /// A hold made a reservation for good.
    Confirmed = 2,
}

impl Metrics {
    /// A recorder of its own, with the counters every mode has registered
    /// (so a scrape shows them at 0 from the start). Redis's are registered
    /// by [`Metrics::table`] and [`Metrics::reservation_calls`], in Redis
    /// mode only.
    pub fn new() -> Metrics {
        let recorder = PrometheusBuilder::new().build_recorder();
        describe(&recorder);
        let inner = Inner {
            made: counter(&recorder, "slugd_reservations_total", &[("outcome", "new")]),
            returned: counter(
                &recorder,
                "slugd_reservations_total",
                &[("outcome", "returned")],
            ),
            holds: ["made", "renewed", "confirmed", "lapsed"].map(|event| {
                counter(
                    &recorder,
                    "slugd_reservation_holds_total",
                    &[("event", event)],
                )
            }),
            bench_runs: counter(&recorder, "slugd_bench_runs_total", &[]),
            table_locales: gauge(&recorder, "slugd_table_locales"),
            locales_shown: Mutex::default(),
            requests: OnceLock::new(),
            cache: OnceLock::new(),
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
                cache: Some(inner.cache.get_or_init(Arc::default).clone()),
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

    /// The cells requests are counted in, with cells from the start for
    /// each of `routes`, the route templates the router serves, found
    /// without a lock (any other is counted too, under one): a plain
    /// reference, cheap to copy into every request. Call it once, before
    /// the first request is counted.
    pub fn count_routes<'a>(&self, routes: impl IntoIterator<Item = &'a str>) -> RequestCells {
        let Some(inner) = &self.inner else {
            return RequestCells(None);
        };
        let mut made = false;
        let requests = inner.requests.get_or_init(|| {
            made = true;
            Box::leak(Box::new(Requests::new(routes)))
        });
        debug_assert!(
            made,
            "count_routes is called once, before any request is counted"
        );
        RequestCells(Some(requests))
    }

    /// A request answered with `status` under `route`, counted but not
    /// timed (one no route answered: 404, 405).
    pub fn count_untimed(&self, route: &str, status: u16) {
        if let Some(inner) = &self.inner {
            let requests = RequestCells(Some(inner.requests()));
            requests.for_route(route).count_untimed(status);
        }
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

    /// What a reservation did to a hold (`Made`, `Renewed`, `Confirmed`:
    /// the first three of `slugd_reservation_holds_total`'s events), and
    /// how many lapsed holds it found and freed. The caller names the
    /// event, so that this file knows nothing of the reservations.
    pub fn holds(&self, event: Option<HoldCounted>, lapsed: u64) {
        if let Some(inner) = &self.inner {
            if let Some(event) = event {
                inner.holds[event as usize].increment(1);
            }
            if lapsed > 0 {
                inner.holds[3].increment(lapsed);
            }
        }
    }

    /// The handles of the accept loop: the gauge of connections holding a
    /// slot, with `slugd_http_connections_max` set to `max`, and the
    /// counters of connections the service closed before their client did.
    pub fn connections(&self, max: usize) -> ConnectionMetrics {
        match &self.inner {
            Some(inner) => {
                let r = &inner.recorder;
                gauge(r, "slugd_http_connections_max").set(max as f64);
                let closed = |reason| {
                    counter(
                        r,
                        "slugd_http_connections_closed_total",
                        &[("reason", reason)],
                    )
                };
                ConnectionMetrics {
                    open: gauge(r, "slugd_http_connections_open"),
                    made_room: closed("made_room"),
                    head_timeout: closed("head_timeout"),
                    head_too_large: closed("head_too_large"),
                    http2: closed("http2"),
                    send_timeout: closed("send_timeout"),
                }
            }
            None => ConnectionMetrics {
                open: Gauge::noop(),
                made_room: Counter::noop(),
                head_timeout: Counter::noop(),
                head_too_large: Counter::noop(),
                http2: Counter::noop(),
                send_timeout: Counter::noop(),
            },
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
    /// before Redis answered) and the locales whose names it holds, each a
    /// `slugd_table_locale{locale}` of 1 (0 for one it held before).
    pub fn table_state(&self, version: Option<u64>, locales: &[String]) {
        let Some(inner) = &self.inner else { return };
        if let Some(version) = version {
            gauge(&inner.recorder, "slugd_table_version").set(version as f64);
        }
        inner.table_locales.set(locales.len() as f64);
        let mut shown = inner.locales_shown.lock().expect("lock poisoned");
        for tag in shown.iter() {
            if !locales.contains(tag) {
                locale_gauge(&inner.recorder, tag).set(0.0);
            }
        }
        for tag in locales {
            locale_gauge(&inner.recorder, tag).set(1.0);
            shown.insert(tag.clone());
        }
    }

    /// Everything in Prometheus's text format: the exporter's families,
    /// then the cells' (requests, durations, the name cache). The two
    /// write disjoint families, each whole, so the text is one valid
    /// exposition; `tests/api/operations.rs` parses a real scrape with a
    /// parser of the format and checks every family is there exactly once.
    /// (The cells could not go through the exporter: its histograms take
    /// single samples, not per-thread buckets, and its counters are the
    /// shared atomics the cells exist to avoid.)
    pub fn render(&self) -> String {
        let Some(inner) = &self.inner else {
            return String::new();
        };
        let mut text = inner.handle.render();
        if !text.is_empty() && !text.ends_with("\n\n") {
            text.push('\n');
        }
        inner.requests().render(&mut text);
        if let Some(cache) = inner.cache.get() {
            cache.render(&mut text);
        }
        text
    }
}

impl Inner {
    /// The request cells, made without known routes if
    /// [`Metrics::count_routes`] has not been called.
    fn requests(&self) -> &'static Requests {
        self.requests
            .get_or_init(|| Box::leak(Box::new(Requests::default())))
    }
}

/// Where requests are counted ([`Metrics::requests`]); of
/// [`Metrics::noop`], nowhere.
#[derive(Clone, Copy)]
pub struct RequestCells(Option<&'static Requests>);

impl RequestCells {
    /// The cells of one route template.
    pub fn for_route(self, template: &str) -> RouteCells {
        RouteCells::of(self.0.map(|requests| requests.route(template)))
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

fn locale_gauge(recorder: &PrometheusRecorder, tag: &str) -> Gauge {
    let labels = vec![Label::new("locale", tag.to_owned())];
    recorder.register_gauge(&Key::from_parts("slugd_table_locale", labels), &METADATA)
}

fn gauge(recorder: &PrometheusRecorder, name: &'static str) -> Gauge {
    recorder.register_gauge(&Key::from_static_name(name), &METADATA)
}

/// The `# HELP` lines.
fn describe(recorder: &PrometheusRecorder) {
    let help: &[(&'static str, &'static str)] = &[
        (
            "slugd_redis_round_trips_total",
            "Round trips to Redis: the table's reads and the reservations' function calls.",
        ),
        (
            "slugd_redis_failures_total",
            "Round trips to Redis that got no answer (refused, dropped or timed out).",
        ),
        (
            "slugd_redis_up",
            "1 when the last round trip to Redis was answered, 0 when it was not.",
        ),
        (
            "slugd_table_version",
            "The live table version in Redis (absent in-process).",
        ),
        (
            "slugd_table_locales",
            "How many locales' CLDR names the table in use holds.",
        ),
        (
            "slugd_table_locale",
            "1 for each locale whose CLDR names the table in use holds; 0 for one it held before.",
        ),
        (
            "slugd_reservations_total",
            "Reservations answered: outcome new (a slug newly taken) or returned (the owner's own).",
        ),
        (
            "slugd_reservation_holds_total",
            "Holds: event made, renewed, confirmed (made a reservation for good), or lapsed (a lapsed hold found and freed by a reservation; a hold that lapses is counted when it is found, not when it lapses).",
        ),
        ("slugd_bench_runs_total", "Runs of GET /bench."),
        (
            "slugd_http_connections_open",
            "HTTP connections holding one of the --max-connections slots now.",
        ),
        (
            "slugd_http_connections_max",
            "Most HTTP connections open at once (--max-connections); at it the one waiting longest for a request is closed to make room, or, with every one busy, new ones wait in the listen backlog.",
        ),
        (
            "slugd_http_connections_closed_total",
            "Connections the service closed before their client did: reason made_room (waited longest for a request when the slots were full), head_timeout (no whole request head within --header-timeout-ms), head_too_large (a head over --max-header-bytes or of over 100 headers, answered 431), http2 (HTTP/2, which slugd does not speak), send_timeout (an answer left unread for --send-timeout-ms).",
        ),
    ];
    for &(name, text) in help {
        recorder.describe_counter(name.into(), None, text.into());
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

/// What the accept loop counts (`http::server`).
#[derive(Clone)]
pub struct ConnectionMetrics {
    /// `slugd_http_connections_open`: connections holding a slot.
    pub open: Gauge,
    /// Closed to make room for a new connection.
    pub made_room: Counter,
    /// Closed for sending no whole request head in time.
    pub head_timeout: Counter,
    /// Answered 431 and closed for a head over the limit.
    pub head_too_large: Counter,
    /// Turned away for speaking HTTP/2.
    pub http2: Counter,
    /// Closed for leaving an answer unread past the send timeout.
    pub send_timeout: Counter,
}

/// What the symbol table in Redis counts.
#[derive(Clone)]
pub struct TableMetrics {
    /// Its reads.
    calls: RedisCalls,
    /// The name cache's hits and misses; `None` counts nothing.
    cache: Option<Arc<Cache>>,
}

impl TableMetrics {
    /// Handles that count nothing.
    pub fn noop() -> Self {
        TableMetrics {
            calls: RedisCalls::noop(),
            cache: None,
        }
    }

    /// The handles of its round trips.
    pub fn calls(&self) -> &RedisCalls {
        &self.calls
    }

    /// Of `wanted` names a request needed, `missed` were not in the cache.
    pub fn cache_lookup(&self, wanted: usize, missed: usize) {
        if let Some(cache) = &self.cache {
            cache.lookup(wanted, missed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locale_the_table_no_longer_holds_reads_0() {
        let metrics = Metrics::new();
        let tags = |list: &[&str]| list.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        metrics.table_state(Some(1), &tags(&["en", "de"]));
        metrics.table_state(Some(2), &tags(&["en", "fr"]));
        let text = metrics.render();
        for line in [
            r#"slugd_table_locale{locale="en"} 1"#,
            r#"slugd_table_locale{locale="de"} 0"#,
            r#"slugd_table_locale{locale="fr"} 1"#,
            "slugd_table_locales 2",
            "slugd_table_version 2",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line} in\n{text}");
        }
    }
}
