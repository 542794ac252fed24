//! Operating slugd: `GET /metrics` moves with traffic in both modes, every
//! request has an id that comes back in the response and in its JSON log
//! lines, `slugd probe` tells a ready service from a closed port, and the
//! image's build stage has every file Cargo needs.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fixtures::{RedisServer, load, slugd_command};
use crate::helpers::App;
use crate::serve_process::ServeProcess;

impl App {
    /// Scrapes `/metrics`: its text, after checking the content type.
    pub(crate) async fn scrape(&self) -> String {
        let r = self.client.get(self.url("/metrics")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let kind = r.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
        r.text().await.unwrap()
    }
}

/// The value of the sample `series` (name and labels as Prometheus writes
/// them, `name{a="b"}`), 0 when absent.
pub(crate) fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |v| v.parse().unwrap())
}

/// How much `series` moved from `before` to `after`.
pub(crate) fn moved(before: &str, after: &str, series: &str) -> f64 {
    sample(after, series) - sample(before, series)
}

const SLUG_200: &str = r#"slugd_http_requests_total{route="/slug",status="200"}"#;
pub(crate) const TABLE_TRIPS: &str = r#"slugd_redis_round_trips_total{component="table"}"#;
const HITS: &str = "slugd_name_cache_hits_total";
const MISSES: &str = "slugd_name_cache_misses_total";

/// The table's round trips as an [`App`] on Redis starts: `current` and
/// the version's meta as the service opens, and the watcher's first check
/// of `current`, which runs at once but may come late on a busy machine.
pub(crate) const START_TRIPS: f64 = 3.0;

/// `app`'s `/metrics` once its start's round trips ([`START_TRIPS`]) are
/// all made, so that every later one is a request's: for an app with no
/// periodic check during the test, whose requests so far needed no round
/// trip. Polled rather than slept for, since the watcher's check comes
/// when the machine gets to it; the bound is no speed figure.
pub(crate) async fn after_start(app: &App) -> String {
    let started = Instant::now();
    let mut text = app.scrape().await;
    while sample(&text, TABLE_TRIPS) < START_TRIPS {
        assert!(started.elapsed() < Duration::from_secs(10), "{text}");
        tokio::time::sleep(Duration::from_millis(20)).await;
        text = app.scrape().await;
    }
    text
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status_in_process() {
    let app = App::in_process().await;
    let other = App::in_process().await;
    let before = app.scrape().await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    assert_eq!(app.slug("北京").await, "beijing");
    let (s, _) = app.get("/slug?title=Caf%C3%A9").await;
    assert_eq!(s, 200);
    let (s, _) = app.get("/reservations/posts/hello-world").await;
    assert_eq!(s, 503, "in-process has no reservations");
    let (s, _) = app.get("/no/such/page/12345").await;
    assert_eq!(s, 404);
    let r = app.client.delete(app.url("/slug")).send().await.unwrap();
    assert_eq!(r.status(), 405);
    let after = app.scrape().await;

    assert_eq!(moved(&before, &after, SLUG_200), 3.0, "{after}");
    // The matched template, never the raw path.
    let held = r#"slugd_http_requests_total{route="/reservations/{scope}/{key}",status="503"}"#;
    assert_eq!(sample(&after, held), 1.0, "{after}");
    assert!(!after.contains("hello-world") && !after.contains("12345"));
    let unmatched = r#"slugd_http_requests_total{route="unmatched",status="404"}"#;
    assert_eq!(sample(&after, unmatched), 1.0, "{after}");
    let wrong_method = r#"slugd_http_requests_total{route="unmatched",status="405"}"#;
    assert_eq!(sample(&after, wrong_method), 1.0, "{after}");
    let also_route = r#"slugd_http_requests_total{route="/slug",status="405"}"#;
    assert!(!after.contains(also_route), "counted once: {after}");
    // Every route's count is in its histogram, all buckets up to +Inf.
    let buckets: Vec<f64> = after
        .lines()
        .filter(|l| l.starts_with(r#"slugd_http_request_duration_seconds_bucket{route="/slug","#))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(buckets.len(), 16, "{after}");
    assert!(
        buckets.windows(2).all(|w| w[0] <= w[1]),
        "cumulative: {buckets:?}"
    );
    // A histogram with buckets, so it adds up across instances.
    assert!(after.contains("# TYPE slugd_http_request_duration_seconds histogram"));
    let count = r#"slugd_http_request_duration_seconds_count{route="/slug"}"#;
    assert_eq!(moved(&before, &after, count), 3.0, "{after}");
    let inf = r#"slugd_http_request_duration_seconds_bucket{route="/slug",le="+Inf"}"#;
    assert_eq!(sample(&after, inf), sample(&after, count));
    assert_eq!(sample(&after, "slugd_table_locales"), 1.0);
    assert_eq!(sample(&after, r#"slugd_table_locale{locale="en"}"#), 1.0);
    // In-process: nothing about Redis.
    assert!(!after.contains("slugd_redis_"), "{after}");

    let (s, b) = app.get("/bench?iterations=5").await;
    assert_eq!(s, 200, "{b}");
    let after_bench = app.scrape().await;
    assert_eq!(sample(&after_bench, "slugd_bench_runs_total"), 1.0);

    // Each service counts its own requests.
    let theirs = other.scrape().await;
    assert_eq!(sample(&theirs, SLUG_200), 0.0, "{theirs}");
    assert_eq!(sample(&theirs, "slugd_bench_runs_total"), 0.0);
}

#[tokio::test]
async fn metrics_count_round_trips_cache_and_reservations_on_redis() {
    let mut redis = RedisServer::start().await;
    let report = load(&redis).await;
    // No periodic check during the test but the first: every other round
    // trip is a request's.
    let app = App::builder()
        .redis(&redis)
        .refresh_interval(Duration::from_secs(3600))
        .spawn()
        .await;
    assert_eq!(app.slug("Hello").await, "hello");
    // Start-up's reads, and no other.
    let start = after_start(&app).await;
    assert_eq!(sample(&start, TABLE_TRIPS), START_TRIPS, "{start}");
    assert_eq!(sample(&start, "slugd_redis_up"), 1.0, "{start}");
    assert_eq!(sample(&start, "slugd_table_version"), report.version as f64);
    assert_eq!(sample(&start, "slugd_table_locales"), 1.0);
    assert_eq!(sample(&start, r#"slugd_table_locale{locale="en"}"#), 1.0);

    // First time: the name is read from Redis, in one round trip.
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    let first = app.scrape().await;
    assert_eq!(moved(&start, &first, TABLE_TRIPS), 1.0, "{first}");
    let missed = moved(&start, &first, MISSES);
    assert!(missed >= 1.0, "{first}");
    assert_eq!(moved(&start, &first, HITS), 0.0);
    // Again: from the cache, no round trip.
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    let second = app.scrape().await;
    assert_eq!(moved(&first, &second, TABLE_TRIPS), 0.0, "{second}");
    assert_eq!(moved(&first, &second, HITS), missed);
    assert_eq!(moved(&first, &second, MISSES), 0.0);
    // A title with no symbol costs neither.
    assert_eq!(app.slug("plain words").await, "plain-words");
    let third = app.scrape().await;
    assert_eq!(moved(&second, &third, TABLE_TRIPS), 0.0);
    assert_eq!(
        moved(&second, &third, HITS) + moved(&second, &third, MISSES),
        0.0
    );

    // Reservations: made, then returned to the same owner.
    let ask = json!({"scope": "posts", "owner": "7", "title": "Hello World"});
    assert_eq!(app.post("/reservations", &ask).await.0, 201);
    assert_eq!(app.post("/reservations", &ask).await.0, 200);
    let reserved = app.scrape().await;
    let new = r#"slugd_reservations_total{outcome="new"}"#;
    let returned = r#"slugd_reservations_total{outcome="returned"}"#;
    assert_eq!(
        (sample(&reserved, new), sample(&reserved, returned)),
        (1.0, 1.0)
    );
    let trips = r#"slugd_redis_round_trips_total{component="reservations"}"#;
    assert!(moved(&third, &reserved, trips) >= 2.0, "{reserved}");

    // Redis gone: the round trip fails and Redis is reported down.
    redis.kill();
    let (s, _) = app.post("/slug", &json!({"title": "☃"})).await;
    assert_eq!(s, 503);
    let down = app.scrape().await;
    let failures = r#"slugd_redis_failures_total{component="table"}"#;
    assert!(moved(&reserved, &down, failures) >= 1.0, "{down}");
    assert_eq!(sample(&down, "slugd_redis_up"), 0.0, "{down}");
    let unavailable = r#"slugd_http_requests_total{route="/slug",status="503"}"#;
    assert_eq!(sample(&down, unavailable), 1.0);
}

/// Every metric family of `text` as a Prometheus text parser reads it:
/// name, type, label names (sorted); panics with the parser's complaint
/// and the text if any line does not parse.
fn families(text: &str) -> BTreeMap<String, (String, Vec<String>)> {
    let parsed = openmetrics_parser::prometheus::parse_prometheus(text)
        .unwrap_or_else(|e| panic!("not Prometheus's text format: {e}\n{text}"));
    parsed
        .families
        .into_iter()
        .map(|(name, family)| {
            let mut labels = family.get_label_names().to_vec();
            labels.sort();
            (name, (family.family_type.to_string(), labels))
        })
        .collect()
}

/// The families README.md's Metrics section documents, with their types
/// and labels: all of them on Redis once each has been counted.
const DOCUMENTED: [(&str, &str, &[&str]); 16] = [
    ("slugd_bench_runs_total", "counter", &[]),
    (
        "slugd_http_connections_closed_total",
        "counter",
        &["reason"],
    ),
    ("slugd_http_connections_max", "gauge", &[]),
    ("slugd_http_connections_open", "gauge", &[]),
    (
        "slugd_http_request_duration_seconds",
        "histogram",
        &["route"],
    ),
    ("slugd_http_requests_total", "counter", &["route", "status"]),
    ("slugd_name_cache_hits_total", "counter", &[]),
    ("slugd_name_cache_misses_total", "counter", &[]),
    ("slugd_redis_failures_total", "counter", &["component"]),
    ("slugd_redis_round_trips_total", "counter", &["component"]),
    ("slugd_redis_up", "gauge", &[]),
    ("slugd_reservation_holds_total", "counter", &["event"]),
    ("slugd_reservations_total", "counter", &["outcome"]),
    ("slugd_table_locale", "gauge", &["locale"]),
    ("slugd_table_locales", "gauge", &[]),
    ("slugd_table_version", "gauge", &[]),
];

#[tokio::test]
async fn metrics_parse_as_prometheus_text_with_the_documented_families() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    let ask = json!({"scope": "posts", "owner": "7", "title": "Hello World"});
    assert_eq!(app.post("/reservations", &ask).await.0, 201);
    // A route template with braces in a label value.
    assert_eq!(app.get("/reservations/posts/hello-world").await.0, 200);
    assert_eq!(app.get("/no/such/page").await.0, 404);
    assert_eq!(app.get("/bench?iterations=5").await.0, 200);

    let text = app.scrape().await;
    let want: BTreeMap<String, (String, Vec<String>)> = DOCUMENTED
        .iter()
        .map(|(name, kind, labels)| {
            let labels = labels.iter().map(|l| l.to_string()).collect();
            (name.to_string(), (kind.to_string(), labels))
        })
        .collect();
    assert_eq!(families(&text), want, "{text}");
    let parsed = openmetrics_parser::prometheus::parse_prometheus(&text).unwrap();
    let routes: BTreeSet<String> = parsed.families["slugd_http_requests_total"]
        .iter_samples()
        .map(|s| {
            let labels = s.get_labelset().unwrap();
            labels.get_label_value("route").unwrap().to_owned()
        })
        .collect();
    let want = [
        "/bench",
        "/reservations",
        "/reservations/{scope}/{key}",
        "/slug",
        "unmatched",
    ];
    assert_eq!(routes, want.map(str::to_owned).into(), "{text}");

    // In-process: the text parses too, with no family about Redis.
    let in_process = App::in_process().await;
    assert_eq!(in_process.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    let names: BTreeSet<String> = families(&in_process.scrape().await).into_keys().collect();
    assert!(names.contains("slugd_http_requests_total"), "{names:?}");
    assert!(
        names.iter().all(|n| !n.starts_with("slugd_redis_")),
        "{names:?}"
    );
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = App::in_process().await;
    let id = |r: &reqwest::Response| r.headers()["x-request-id"].to_str().unwrap().to_owned();
    // The client's own, echoed.
    let r = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "cms-7f3a:42")
        .send()
        .await
        .unwrap();
    assert_eq!(id(&r), "cms-7f3a:42");
    // None given: a new one, different each time: the process's 16 hex
    // digits, a dash, and a number in hex.
    let made = |r: &reqwest::Response| {
        let id = id(r);
        let (prefix, n) = id.split_once('-').unwrap_or_else(|| panic!("{id}"));
        assert_eq!(prefix.len(), 16, "{id}");
        let hex = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit());
        assert!(hex(prefix) && hex(n), "{id}");
        id
    };
    let a = made(&app.client.get(app.url("/healthz")).send().await.unwrap());
    let b = made(&app.client.post(app.url("/nope")).send().await.unwrap());
    assert_ne!(a, b);
    assert_eq!(a[..17], b[..17], "one process, one prefix: {a} {b}");
    // One too long or with characters that do not belong in a log line is
    // replaced.
    for bad in ["x".repeat(129), "a b".to_owned(), "a\"}".to_owned()] {
        let r = app
            .client
            .get(app.url("/healthz"))
            .header("x-request-id", &bad)
            .send()
            .await
            .unwrap();
        assert_ne!(id(&r), bad);
        made(&r);
    }
}

fn probe(url: &str) -> std::process::Output {
    slugd_command()
        .args(["probe", "--url", url])
        .output()
        .unwrap()
}

#[tokio::test]
async fn json_log_lines_of_a_request_carry_its_id() {
    let serve = ServeProcess::builder()
        .log("info,slugd::http=debug")
        .args(["--log-format", "json"])
        .start()
        .await;
    let r = reqwest::Client::new()
        .post(serve.url("/slug"))
        .header("x-request-id", "trace-me-1234")
        .json(&json!({"title": "I ❤ Redis"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "trace-me-1234");
    let stderr = serve.stop("TERM").await.log;
    let lines: Vec<Value> = stderr
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["fields"]["message"] == "slugd listening"),
        "every line is JSON: {stderr}"
    );
    let ours: Vec<&Value> = lines
        .iter()
        .filter(|l| l["span"]["id"] == "trace-me-1234")
        .collect();
    assert!(!ours.is_empty(), "{stderr}");
    let answered = &ours[0];
    assert_eq!(answered["span"]["path"], "/slug");
    assert_eq!(answered["fields"]["status"], 200);
}

#[tokio::test]
async fn probe_says_ready_or_why_not() {
    let serve = ServeProcess::builder().start().await;
    serve.wait_until_ok("/readyz").await;
    let out = probe(&serve.url("/readyz"));
    assert!(out.status.success());
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["status"], "ready");
    // Answering, but not 200: not ready, with what it said.
    let out = probe(&serve.url("/nope"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("answered 404 Not Found"), "{err}");
    let addr = serve.addr;
    assert!(serve.stop("TERM").await.status.success());

    // Nothing listening: the port the service had, now closed.
    let closed = format!("http://{addr}/readyz");
    let out = probe(&closed);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("cannot reach {closed}")), "{err}");
    // Not a URL it can ask.
    let out = probe("https://127.0.0.1:1/readyz");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("http:// URL"));
}

/// The Dockerfile's build stage copies every file Cargo needs to read the
/// workspace: its `COPY` lines, copied into an empty directory, give a
/// workspace `cargo metadata` loads (a member the image lacks, such as a
/// new crate of the workspace, fails here, not at a deployment's `docker
/// build`). Only the workspace's own manifests are read (`--no-deps`), from
/// an empty Cargo home: the check needs no crate that an earlier command
/// happened to download (a Windows-only dependency, say), so it passes on a
/// fresh machine as on a warm one.
#[test]
fn the_image_build_stage_copies_the_whole_workspace() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dockerfile = std::fs::read_to_string(root.join("Dockerfile")).unwrap();
    // The stages: what comes after each `FROM`; the first is the build.
    let build_stage = dockerfile.split("\nFROM ").nth(1).unwrap();
    let copy = tempfile::tempdir().unwrap();
    let mut copied = 0;
    for line in build_stage.lines() {
        let Some(args) = line.strip_prefix("COPY ") else {
            continue;
        };
        let words: Vec<&str> = args.split_whitespace().collect();
        let (sources, target) = words.split_at(words.len() - 1);
        for source in sources {
            let to = match target[0] {
                "./" => copy.path().join(source),
                dir => copy.path().join(dir),
            };
            let status = std::process::Command::new("cp")
                .arg("-r")
                .arg(root.join(source))
                .arg(&to)
                .status()
                .unwrap();
            assert!(status.success(), "cp {source} {}", to.display());
            copied += 1;
        }
    }
    assert!(
        copied >= 5,
        "only {copied} COPY sources found: the parse is broken"
    );
    let cargo_home = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .env("CARGO_HOME", cargo_home.path())
        .current_dir(copy.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the Dockerfile's build stage lacks files Cargo needs:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
