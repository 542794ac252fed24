//! Least privilege and secrets: a read-only Redis user for the service and
//! a writer for the loader, passwords kept out of logs, deployments with
//! different prefixes side by side, and graceful shutdown of the binary.

use std::time::{Duration, Instant};

use slugd::load::LoadSettings;
use slugd::redis_conn::RedisConfig;

use crate::fixtures::{LOADER, READER, RedisServer, TestCerts, acl, load, load_settings};
use crate::helpers::App;
use crate::serve_process::ServeProcess;

#[tokio::test]
async fn the_service_reads_as_a_read_only_user_and_the_loader_writes_as_another() {
    let redis = RedisServer::start().await;
    acl(&redis, "slugd-reader", READER).await;
    acl(&redis, "slugd-loader", LOADER).await;

    let loader = LoadSettings {
        redis: redis.config_as("slugd-loader", "loader-pw"),
        ..load_settings(&redis)
    };
    slugd::load::run(&loader)
        .await
        .expect("the loader works as slugd-loader");
    slugd::load::run(&loader)
        .await
        .expect("and again, removing the old version");

    let app = App::builder()
        .redis_config(redis.config_as("slugd-reader", "reader-pw"))
        .spawn()
        .await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = app.get("/bench?iterations=50").await;
    assert_eq!(s, 200, "{b}");
    assert!(b["redis"]["p50_us"].is_number(), "{b}");

    // Neither user was ever refused anything.
    let denied: Vec<redis::Value> = redis.query(redis::cmd("ACL").arg("LOG")).await;
    assert!(denied.is_empty(), "ACL LOG: {denied:?}");
}

#[tokio::test]
async fn deployments_with_different_prefixes_share_one_redis() {
    let redis = RedisServer::start().await;
    let mut blue = load_settings(&redis);
    blue.prefix = "blue:".to_owned();
    blue.categories = "So".parse().unwrap();
    let mut green = load_settings(&redis);
    green.prefix = "green:".to_owned();
    let blue_report = slugd::load::run(&blue).await.unwrap();
    let green_report = slugd::load::run(&green).await.unwrap();
    assert!(green_report.entries > blue_report.entries);
    // A second load of one leaves the other's keys alone.
    let before: Vec<String> = redis.query(redis::cmd("KEYS").arg("green:*")).await;
    slugd::load::run(&blue).await.unwrap();
    let mut after: Vec<String> = redis.query(redis::cmd("KEYS").arg("green:*")).await;
    let mut before = before;
    before.sort();
    after.sort();
    assert_eq!(before, after);

    let blue_app = App::builder().redis(&redis).prefix("blue:").spawn().await;
    let green_app = App::builder().redis(&redis).prefix("green:").spawn().await;
    assert_eq!(blue_app.slug("a ≤ b ☃").await, "a-b-snowman");
    assert_eq!(
        green_app.slug("a ≤ b ☃").await,
        "a-less-than-or-equal-to-b-snowman"
    );
}

#[tokio::test]
async fn passwords_never_reach_the_log() {
    let redis = RedisServer::builder()
        .args(&["--requirepass", "hunter2-secret"])
        .start()
        .await;
    load(&redis).await;
    let url = format!("redis://:hunter2-secret@127.0.0.1:{}", redis.port);
    let wrong = format!("redis://:wrong-secret@127.0.0.1:{}", redis.port);
    for url in [&url, &wrong] {
        let serve = ServeProcess::builder()
            .args(["--redis-url", url])
            .start()
            .await;
        serve.wait_until_ok("/healthz").await;
        let _ = reqwest::get(serve.url("/slug?title=%E2%98%83")).await;
        let _ = reqwest::get(serve.url("/bench?iterations=5")).await;
        let body = reqwest::get(serve.url("/readyz"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let log = serve.stop("TERM").await.log;
        assert!(
            log.contains("***"),
            "the log names the URL, redacted: {log}"
        );
        for text in [&log, &body] {
            assert!(
                !text.contains("hunter2") && !text.contains("wrong-secret"),
                "{text}"
            );
        }
    }
}

#[tokio::test]
async fn sigterm_lets_requests_in_flight_finish_then_exits_0() {
    drains_then_exits_0_on("TERM").await;
}

#[tokio::test]
async fn ctrl_c_lets_requests_in_flight_finish_then_exits_0() {
    drains_then_exits_0_on("INT").await;
}

async fn drains_then_exits_0_on(signal: &str) {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let serve = ServeProcess::builder()
        .args(["--redis-url", &redis.url()])
        .start()
        .await;
    let client = reqwest::Client::new();
    serve.wait_until_ok("/readyz").await;
    // A slow request: a benchmark of many Redis round trips.
    let in_flight = tokio::spawn(client.get(serve.url("/bench?iterations=60000")).send());
    // The signal comes once the benchmark runs, which it counts as it
    // starts.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let metrics = client.get(serve.url("/metrics")).send().await.unwrap();
        let metrics = metrics.text().await.unwrap();
        if metrics.lines().any(|l| l == "slugd_bench_runs_total 1") {
            break;
        }
        assert!(!in_flight.is_finished(), "the slow request ended first");
        assert!(Instant::now() < deadline, "the slow request never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let addr = serve.addr;
    serve.signal(signal);

    let response = in_flight
        .await
        .unwrap()
        .expect("the request in flight is answered");
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["iterations"], 60000);
    let stopped = serve.wait().await;
    assert_eq!(stopped.status.code(), Some(0), "{}", stopped.log);
    assert!(
        client
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .is_err(),
        "new connections are refused"
    );
}

#[tokio::test]
async fn rediss_urls_work_with_a_given_ca() {
    let certs = TestCerts::make();
    let redis = RedisServer::builder().tls(&certs).start().await;
    assert!(redis.url().starts_with("rediss://"));
    let report = load(&redis).await;
    assert_eq!(report.entries, 7616);
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    // Without the CA the server's certificate is not trusted: a clear 503.
    let untrusted = RedisConfig {
        ca_cert: None,
        ..redis.config()
    };
    let app = App::builder().redis_config(untrusted).spawn().await;
    let (s, b) = app
        .post("/slug", &serde_json::json!({"title": "I ❤ Redis"}))
        .await;
    assert_eq!(s, 503, "{b}");
}
