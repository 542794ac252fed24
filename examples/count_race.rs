//! What counting one request costs when both cores count at once: the
//! exporter's histogram and counter (one shared atomic each) against
//! slugd's per-thread request cells (`src/metrics/cells.rs`), each called in
//! a tight loop by one thread, then by two at once. The loop is harsher
//! than a service, where counts are microseconds apart, but it is the
//! cache line the two cores pass between them that it shows.
//!
//!   cargo run --release --example count_race [calls per thread]

use std::hint::black_box;
use std::time::{Duration, Instant};

use metrics::{Key, Level, Metadata, Recorder};
use metrics_exporter_prometheus::PrometheusBuilder;

static METADATA: Metadata<'static> = Metadata::new("count_race", Level::INFO, None);

/// Nanoseconds a call, with 1 and then 2 threads calling at once.
fn race(name: &str, calls: u32, f: impl Fn(u32) + Sync) {
    let mut line = format!("{name:<36}");
    for threads in [1, 2] {
        let start = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| (0..calls).for_each(|i| f(black_box(i))));
            }
        });
        let ns = start.elapsed().as_nanos() as f64 / f64::from(calls);
        line += &format!("  {threads} thread(s): {ns:6.1} ns");
    }
    println!("{line}");
}

fn main() {
    let calls = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3_000_000);
    let took = |i: u32| Duration::from_nanos(u64::from(i % 100_000) * 10);

    let recorder = PrometheusBuilder::new()
        .set_buckets(&[0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005])
        .expect("buckets")
        .build_recorder();
    let histogram = recorder.register_histogram(&Key::from_static_name("h"), &METADATA);
    let counter = recorder.register_counter(&Key::from_static_name("c"), &METADATA);
    race("exporter histogram, one sample", calls, |i| {
        histogram.record(took(i).as_secs_f64())
    });
    race("exporter counter, one increment", calls, |_| {
        counter.increment(1)
    });

    let metrics = slugd::metrics::Metrics::new();
    let requests = metrics.count_routes(["/slug"]);
    race("slugd, a request's counts", calls, |i| {
        requests.for_route("/slug").count(200, took(i))
    });
    let cells = requests.for_route("/slug");
    race("slugd, a request's counts, route found", calls, |i| {
        cells.count(200, took(i))
    });
    // The exporter drains its histogram samples when it renders.
    black_box(recorder.handle().render().len());
}
