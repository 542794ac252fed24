//! Least privilege and secrets: a read-only Redis user for the service and
//! a writer for the loader, passwords kept out of logs, deployments with
//! different prefixes side by side, and graceful shutdown of the binary.

use std::process::Stdio;
use std::time::Duration;

use slugd::load::LoadSettings;
use slugd::redis_conn::RedisConfig;

use crate::fixtures::{
    LOADER, READER, RedisServer, TestCerts, acl, free_port, load, load_settings, send_signal,
    slugd_command, stop_with_sigterm,
};
use crate::helpers::{App, wait_until_ok};

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

/// `slugd` with `args`, its output piped.
fn spawn_slugd(args: &[&str]) -> std::process::Child {
    slugd_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[tokio::test]
async fn passwords_never_reach_the_log() {
    let redis = RedisServer::builder()
        .args(&["--requirepass", "hunter2-secret"])
        .start()
        .await;
    let url = format!("redis://:hunter2-secret@127.0.0.1:{}", redis.port);
    let out = slugd_command()
        .args(["load", "--redis-url", &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let port = free_port().to_string();
    let wrong = format!("redis://:wrong-secret@127.0.0.1:{}", redis.port);
    for url in [&url, &wrong] {
        let child = spawn_slugd(&[
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--redis-url",
            url,
        ]);
        wait_until_ok(&format!("127.0.0.1:{port}"), "/healthz").await;
        let _ = reqwest::get(format!("http://127.0.0.1:{port}/slug?title=%E2%98%83")).await;
        let _ = reqwest::get(format!("http://127.0.0.1:{port}/bench?iterations=5")).await;
        let body = reqwest::get(format!("http://127.0.0.1:{port}/readyz"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let log = stop_with_sigterm(child);
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
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let mut child = spawn_slugd(&["serve", "--listen", &addr, "--redis-url", &redis.url()]);
    let client = reqwest::Client::new();
    wait_until_ok(&addr, "/readyz").await;
    // A slow request: a benchmark of many Redis round trips.
    let in_flight = tokio::spawn(
        client
            .get(format!("http://{addr}/bench?iterations=60000"))
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    send_signal(child.id(), signal);

    let response = in_flight
        .await
        .unwrap()
        .expect("the request in flight is answered");
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["iterations"], 60000);
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status.code(), Some(0));
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
