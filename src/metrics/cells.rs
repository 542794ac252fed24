//! The counts every request makes, kept per thread: requests by route and
//! status, their durations as a Prometheus histogram, and the name cache's
//! hits and misses. Each is a set of atomic cells copied once per shard
//! (one cache line or more apiece); a thread adds to its own shard, and a
//! scrape sums the shards and writes Prometheus's text itself.
//!
//! Why not the exporter's handles here: with two threads counting at once,
//! its histogram and counters are atomics both cores fight over (and its
//! histogram keeps every sample until its next upkeep), where a thread's
//! own cells stay in its core's cache and the memory is fixed.
//! `examples/count_race.rs` measures both; docs/figures.md's "Metrics and
//! request ids" has the figures. The other metrics, counted once per Redis
//! round trip or less often, stay with the exporter.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

/// Copies of each cell. A thread takes the next shard when it first
/// counts, so the service's worker threads (one per core) each have their
/// own unless there are more threads than shards.
const SHARDS: usize = 8;

/// Bucket bounds of the duration histogram, in seconds: from 50 µs (a
/// title with no symbol) to 2.5 s (a `/bench` run or a Redis timeout).
pub const BUCKETS: [f64; 15] = [
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5,
];

/// The statuses the service answers with, each with a cell; any other is
/// counted under a lock (axum or hyper may answer one the API does not
/// list, but rarely).
const STATUSES: [u16; 15] = [
    200, 201, 204, 400, 404, 405, 408, 409, 413, 415, 422, 429, 500, 502, 503,
];

/// A route's cells: one per bucket and one above the last (`+Inf`), the
/// sum of durations in nanoseconds, then one per status of [`STATUSES`].
const SUM: usize = BUCKETS.len() + 1;
const STATUS0: usize = SUM + 1;
const ROUTE_CELLS: usize = STATUS0 + STATUSES.len();

pub const REQUESTS: &str = "slugd_http_requests_total";
pub const DURATION: &str = "slugd_http_request_duration_seconds";
pub const CACHE_HITS: &str = "slugd_name_cache_hits_total";
pub const CACHE_MISSES: &str = "slugd_name_cache_misses_total";

/// `N` counters, each thread adding to its own shard's copy.
pub struct Sharded<const N: usize> {
    shards: Box<[Shard<N>]>,
}

#[repr(align(128))]
struct Shard<const N: usize>([AtomicU64; N]);

impl<const N: usize> Sharded<N> {
    pub fn new() -> Self {
        Sharded {
            shards: (0..SHARDS)
                .map(|_| Shard(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
        }
    }

    /// Adds `n` to counter `i`.
    pub fn add(&self, i: usize, n: u64) {
        self.shards[shard()].0[i].fetch_add(n, Relaxed);
    }

    /// Every counter, summed over the shards.
    pub fn sum(&self) -> [u64; N] {
        let mut total = [0; N];
        for shard in self.shards.iter() {
            for (t, cell) in total.iter_mut().zip(&shard.0) {
                *t += cell.load(Relaxed);
            }
        }
        total
    }
}

impl<const N: usize> Default for Sharded<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// This thread's shard.
fn shard() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static MINE: Cell<usize> = const { Cell::new(usize::MAX) };
    }
    MINE.with(|mine| {
        if mine.get() == usize::MAX {
            mine.set(NEXT.fetch_add(1, Relaxed) % SHARDS);
        }
        mine.get()
    })
}

/// The requests of one route.
pub struct Route {
    cells: Sharded<ROUTE_CELLS>,
    /// Statuses not in [`STATUSES`].
    other: Mutex<HashMap<u16, u64>>,
}

impl Route {
    fn leaked() -> &'static Route {
        Box::leak(Box::new(Route {
            cells: Sharded::new(),
            other: Mutex::default(),
        }))
    }

    /// A request answered with `status` after `took`.
    fn count(&self, status: u16, took: Duration) {
        let seconds = took.as_secs_f64();
        let bucket = BUCKETS
            .iter()
            .position(|&le| seconds <= le)
            .unwrap_or(BUCKETS.len());
        self.cells.add(bucket, 1);
        self.cells.add(SUM, took.as_nanos() as u64);
        self.count_status(status);
    }

    /// A request answered with `status`, not timed.
    fn count_status(&self, status: u16) {
        match STATUSES.iter().position(|&s| s == status) {
            Some(i) => self.cells.add(STATUS0 + i, 1),
            None => {
                *self
                    .other
                    .lock()
                    .expect("lock poisoned")
                    .entry(status)
                    .or_default() += 1
            }
        }
    }
}

/// The cells of one route, or of none (counting nothing).
#[derive(Clone, Copy)]
pub struct RouteCells(Option<&'static Route>);

impl RouteCells {
    pub(super) fn of(route: Option<&'static Route>) -> Self {
        RouteCells(route)
    }

    /// A request answered with `status` after `took`.
    pub fn count(self, status: u16, took: Duration) {
        if let Some(route) = self.0 {
            route.count(status, took);
        }
    }

    /// A request answered with `status`, left out of the histogram.
    pub fn count_untimed(self, status: u16) {
        if let Some(route) = self.0 {
            route.count_status(status);
        }
    }
}

/// Requests by route: the routes known when the router was built, each
/// found without a lock, and any other under one. A route's cells are
/// never freed, so they can be handed out as plain references.
#[derive(Default)]
pub struct Requests {
    known: HashMap<Box<str>, &'static Route>,
    late: Mutex<HashMap<Box<str>, &'static Route>>,
}

impl Requests {
    /// Cells for each of `routes` from the start.
    pub fn new<'a>(routes: impl IntoIterator<Item = &'a str>) -> Self {
        Requests {
            known: routes
                .into_iter()
                .map(|r| (r.into(), Route::leaked()))
                .collect(),
            late: Mutex::default(),
        }
    }

    /// The cells of `route`, made the first time an unknown one is asked
    /// for (route templates are a bounded set).
    pub fn route(&self, route: &str) -> &'static Route {
        match self.known.get(route) {
            Some(cells) => cells,
            None => self
                .late
                .lock()
                .expect("lock poisoned")
                .entry(route.into())
                .or_insert_with(Route::leaked),
        }
    }

    /// A request to `route` answered with `status` after `took`.
    #[cfg(test)]
    fn count(&self, route: &str, status: u16, took: Duration) {
        self.route(route).count(status, took);
    }

    /// The two families in Prometheus's text format, routes in name order;
    /// a route with no request yet is left out, and from the histogram
    /// one whose requests were counted but not timed (`unmatched`).
    pub fn render(&self, out: &mut String) {
        let late = self.late.lock().expect("lock poisoned");
        let mut routes: Vec<Summed> = self
            .known
            .iter()
            .chain(late.iter())
            .map(|(name, route)| Summed {
                name: escape(name),
                cells: route.cells.sum(),
                other: route.other.lock().expect("lock poisoned").clone(),
            })
            .filter(|route| {
                route.cells[STATUS0..].iter().any(|&n| n > 0) || !route.other.is_empty()
            })
            .collect();
        routes.sort_by(|a, b| a.name.cmp(&b.name));
        render_counts(&routes, out);
        render_durations(&routes, out);
    }
}

/// One route's cells, summed over the shards, and its label value.
struct Summed {
    name: String,
    cells: [u64; ROUTE_CELLS],
    other: HashMap<u16, u64>,
}

fn render_counts(routes: &[Summed], out: &mut String) {
    let _ = writeln!(
        out,
        "# HELP {REQUESTS} Requests answered, by route template and status.\n# TYPE {REQUESTS} counter"
    );
    for route in routes {
        let mut statuses: Vec<(u16, u64)> = STATUSES
            .iter()
            .zip(&route.cells[STATUS0..])
            .map(|(&s, &n)| (s, n))
            .chain(route.other.iter().map(|(&s, &n)| (s, n)))
            .filter(|&(_, n)| n > 0)
            .collect();
        statuses.sort_unstable();
        for (status, n) in statuses {
            let name = &route.name;
            let _ = writeln!(
                out,
                "{REQUESTS}{{route=\"{name}\",status=\"{status}\"}} {n}"
            );
        }
    }
}

fn render_durations(routes: &[Summed], out: &mut String) {
    let _ = writeln!(
        out,
        "\n# HELP {DURATION} Time from routing a request to its handler's response, by route template.\n# TYPE {DURATION} histogram"
    );
    for route in routes {
        let (name, cells) = (&route.name, &route.cells);
        let count: u64 = cells[..SUM].iter().sum();
        if count == 0 {
            continue;
        }
        let mut below = 0;
        for (le, n) in BUCKETS.iter().zip(cells) {
            below += n;
            let _ = writeln!(
                out,
                "{DURATION}_bucket{{route=\"{name}\",le=\"{le}\"}} {below}"
            );
        }
        let sum = cells[SUM] as f64 / 1e9;
        let _ = writeln!(
            out,
            "{DURATION}_bucket{{route=\"{name}\",le=\"+Inf\"}} {count}"
        );
        let _ = writeln!(out, "{DURATION}_sum{{route=\"{name}\"}} {sum}");
        let _ = writeln!(out, "{DURATION}_count{{route=\"{name}\"}} {count}");
    }
}

/// A label value as Prometheus's text format writes it: `\`, `"` and line
/// feeds escaped.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The name cache's hits and misses (Redis mode).
#[derive(Default)]
pub struct Cache {
    cells: Sharded<2>,
}

impl Cache {
    /// Of `wanted` names a request needed, `missed` were not in the cache.
    pub fn lookup(&self, wanted: usize, missed: usize) {
        if wanted > missed {
            self.cells.add(0, (wanted - missed) as u64);
        }
        if missed > 0 {
            self.cells.add(1, missed as u64);
        }
    }

    /// Both counters in Prometheus's text format.
    pub fn render(&self, out: &mut String) {
        let [hits, misses] = self.cells.sum();
        let _ = writeln!(
            out,
            "\n# HELP {CACHE_HITS} Symbol names a request needed that the name cache had.\n# TYPE {CACHE_HITS} counter\n{CACHE_HITS} {hits}"
        );
        let _ = writeln!(
            out,
            "\n# HELP {CACHE_MISSES} Symbol names a request needed that had to be read from Redis.\n# TYPE {CACHE_MISSES} counter\n{CACHE_MISSES} {misses}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(requests: &Requests) -> String {
        let mut out = String::new();
        requests.render(&mut out);
        out
    }

    #[test]
    fn shards_add_up_across_threads() {
        let cells: Sharded<2> = Sharded::new();
        std::thread::scope(|s| {
            for _ in 0..12 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        cells.add(0, 1);
                        cells.add(1, 2);
                    }
                });
            }
        });
        assert_eq!(cells.sum(), [12_000, 24_000]);
    }

    #[test]
    fn the_histogram_is_cumulative_and_adds_up() {
        let requests = Requests::new(["/slug", "/healthz"]);
        requests.count("/slug", 200, Duration::from_micros(30));
        requests.count("/slug", 200, Duration::from_micros(300));
        requests.count("/slug", 422, Duration::from_secs(3));
        requests.count("/slug", 418, Duration::from_micros(1));
        requests.count("unmatched", 404, Duration::from_micros(10));
        let text = render(&requests);
        for line in [
            r#"slugd_http_requests_total{route="/slug",status="200"} 2"#,
            r#"slugd_http_requests_total{route="/slug",status="418"} 1"#,
            r#"slugd_http_requests_total{route="/slug",status="422"} 1"#,
            r#"slugd_http_requests_total{route="unmatched",status="404"} 1"#,
            r#"slugd_http_request_duration_seconds_bucket{route="/slug",le="0.00005"} 2"#,
            r#"slugd_http_request_duration_seconds_bucket{route="/slug",le="0.00025"} 2"#,
            r#"slugd_http_request_duration_seconds_bucket{route="/slug",le="0.0005"} 3"#,
            r#"slugd_http_request_duration_seconds_bucket{route="/slug",le="2.5"} 3"#,
            r#"slugd_http_request_duration_seconds_bucket{route="/slug",le="+Inf"} 4"#,
            r#"slugd_http_request_duration_seconds_sum{route="/slug"} 3.000331"#,
            r#"slugd_http_request_duration_seconds_count{route="/slug"} 4"#,
            "# TYPE slugd_http_request_duration_seconds histogram",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line} in\n{text}");
        }
        // A route nobody asked for is not shown.
        assert!(!text.contains("/healthz"), "{text}");
    }

    #[test]
    fn untimed_requests_are_counted_but_not_in_the_histogram() {
        let requests = Requests::new(["unmatched"]);
        let cells = RouteCells::of(Some(requests.route("unmatched")));
        cells.count_untimed(404);
        cells.count_untimed(405);
        let text = render(&requests);
        let line = r#"slugd_http_requests_total{route="unmatched",status="405"} 1"#;
        assert!(text.lines().any(|l| l == line), "{text}");
        assert!(!text.contains("duration_seconds_bucket"), "{text}");
    }

    #[test]
    fn label_values_are_escaped() {
        let requests = Requests::default();
        requests.count("/a\"b\\c\nd", 200, Duration::from_micros(1));
        let text = render(&requests);
        let line = r#"slugd_http_requests_total{route="/a\"b\\c\nd",status="200"} 1"#;
        assert!(text.lines().any(|l| l == line), "{text}");
    }
}
