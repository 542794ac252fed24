//! Redis going away, stalling and coming back: a prompt, clear 503 for what
//! needs Redis, slugs as usual for titles that do not, and recovery without
//! restarting slugd.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use slugd::metrics::Metrics;
use slugd::slugger::Slugger;
use slugd::table::{OnRedisDown, SymbolTable};

use crate::fixtures::{RedisServer, config_for_port, data_file, free_port, load};
use crate::helpers::{App, assert_says, post_titles, table_settings};

/// An error and its causes on one line, as `slugd` prints them.
fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        out.push_str(&format!(": {c}"));
        cause = c.source();
    }
    out
}

/// POSTs `body` until the answer is 200, for at most 5 s (recovery
/// without a restart of slugd); returns that answer's body.
async fn until_ok(app: &App, path: &str, body: &serde_json::Value) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let (s, b) = app.post(path, body).await;
        if s == 200 {
            return b;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "not back: {s} {b}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Not a speed figure: a bound far above the 300 ms response timeout the
/// tests use, which tells a prompt error from a hang.
const PROMPT: Duration = Duration::from_secs(3);

async fn expect_503(app: &App, title: &str) {
    let started = Instant::now();
    let (s, b) = app.post("/slug", &json!({ "title": title })).await;
    assert!(started.elapsed() < PROMPT, "took {:?}", started.elapsed());
    assert_eq!(s, 503, "{b}");
    assert_eq!(b["code"], "table_unavailable");
    assert_says(&b, "Redis");
}

#[tokio::test]
async fn redis_down_gives_a_fast_503_and_plain_titles_still_work() {
    let mut redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::uncached(redis.config()).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    redis.kill();
    for _ in 0..3 {
        expect_503(&app, "I ❤ Redis").await;
    }
    assert_eq!(app.slug("Привет, мир").await, "privet-mir");
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 503, "{b}");
}

#[tokio::test]
async fn a_service_started_before_redis_serves_plain_titles_and_recovers_by_itself() {
    let port = free_port();
    let app = App::builder()
        .redis_config(config_for_port(port))
        .spawn()
        .await;
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 503, "{b}");
    assert_says(&b, "Redis is unavailable");
    assert_eq!(app.slug("Привет, мир").await, "privet-mir");
    assert_eq!(app.slug("Hello, World!").await, "hello-world");
    expect_503(&app, "I ❤ Redis").await;

    let redis = RedisServer::builder().port(port).start().await;
    load(&redis).await;
    app.wait_for("/readyz", 200, Duration::from_secs(10)).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
}

#[tokio::test]
async fn requests_during_a_redis_restart_end_promptly_and_service_comes_back() {
    let mut redis = RedisServer::start().await;
    load(&redis).await;
    redis.save().await;
    let app = App::uncached(redis.config()).await;
    let titles: Vec<String> = slugd_engine::corpus::titles()
        .map(|t| format!("{t} ☃"))
        .collect();
    let want = App::in_process().await.slugs(&titles).await;

    // Requests flowing all the time, before, during and after the outage;
    // their statuses in order.
    let statuses = Arc::new(Mutex::new(Vec::<u16>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let flowing = {
        let (client, url, titles) = (app.client.clone(), app.url("/slugs"), titles.clone());
        let (statuses, stop) = (statuses.clone(), stop.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let started = Instant::now();
                let r = post_titles(&client, &url, &titles).await;
                assert!(
                    started.elapsed() < PROMPT,
                    "a request took {:?}",
                    started.elapsed()
                );
                statuses.lock().unwrap().push(r.status().as_u16());
            }
        })
    };
    // Each step waits until the flowing requests have seen the one before:
    // answers, then the outage, then answers again after the restart. (If
    // they stopped, a request failed: awaiting them below says why.)
    let seen = async |status: u16, from: usize| {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let so_far = statuses.lock().unwrap()[from..].contains(&status);
            if so_far || flowing.is_finished() {
                return;
            }
            if Instant::now() > deadline {
                panic!("no {status} after the first {from}: {statuses:?}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    seen(200, 0).await;
    let killed_at = statuses.lock().unwrap().len();
    redis.kill();
    seen(503, killed_at).await;
    redis.restart_after_kill().await;
    let back_at = statuses.lock().unwrap().len();
    seen(200, back_at).await;
    stop.store(true, Ordering::Relaxed);
    flowing.await.unwrap();
    let statuses = statuses.lock().unwrap().clone();
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );

    app.wait_for("/readyz", 200, Duration::from_secs(30)).await;
    let b = until_ok(&app, "/slugs", &json!({ "titles": titles })).await;
    assert_eq!(b["slugs"], json!(want));
}

#[tokio::test]
async fn a_stalled_redis_gives_a_prompt_503_and_recovers_when_it_resumes() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::uncached(redis.config()).await;
    assert_eq!(app.slug("☃").await, "snowman");
    redis.signal("STOP");
    expect_503(&app, "I ❤ Redis").await;
    expect_503(&app, "☃").await;
    assert_eq!(app.slug("plain title").await, "plain-title");
    redis.signal("CONT");
    let b = until_ok(&app, "/slug", &json!({ "title": "I ❤ Redis" })).await;
    assert_eq!(b["slug"], "i-heavy-heart-redis");
}

#[tokio::test]
async fn on_redis_down_memory_answers_from_memory_marked_and_returns_to_redis() {
    let mut redis = RedisServer::start().await;
    load(&redis).await;
    redis.save().await;
    let app = App::builder()
        .redis(&redis)
        .on_redis_down(OnRedisDown::Memory)
        .name_cache(0)
        .spawn()
        .await;
    let ask = async |app: &App| {
        let r = app
            .client
            .post(app.url("/slug"))
            .json(&json!({"title": "I ❤ Redis"}))
            .send()
            .await
            .unwrap();
        let degraded = r
            .headers()
            .get("x-slugd-degraded")
            .map(|v| v.to_str().unwrap().to_owned());
        let status = r.status().as_u16();
        let body: serde_json::Value = r.json().await.unwrap();
        (
            status,
            degraded,
            body["slug"].as_str().unwrap_or_default().to_owned(),
        )
    };
    assert_eq!(
        ask(&app).await,
        (200, None, "i-heavy-heart-redis".to_owned())
    );
    redis.kill();
    let degraded = (
        200,
        Some("in-process".to_owned()),
        "i-heavy-heart-redis".to_owned(),
    );
    // The first degraded answer builds the in-process table (a debug
    // build reading files, seconds on a busy machine): not bounded. The
    // answers after it are prompt, each waiting no more than Redis's
    // timeout.
    assert_eq!(ask(&app).await, degraded);
    for _ in 0..3 {
        let started = Instant::now();
        assert_eq!(ask(&app).await, degraded);
        assert!(started.elapsed() < PROMPT);
    }
    let (s, b) = app.post("/slugs", &json!({"titles": ["☃", "⬣"]})).await;
    assert_eq!(
        (s, b["slugs"].clone()),
        (200, json!(["snowman", "horizontal-hexagon"]))
    );
    redis.restart_after_kill().await;
    let started = Instant::now();
    while ask(&app).await.1.is_some() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "still degraded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        ask(&app).await,
        (200, None, "i-heavy-heart-redis".to_owned())
    );
}

#[tokio::test]
async fn names_fetched_once_are_served_from_the_cache_even_while_redis_is_down() {
    let mut redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    redis.kill();
    assert_eq!(app.slug("❤ again").await, "heavy-heart-again");
    expect_503(&app, "☃ was never asked for").await;
}

#[tokio::test]
async fn on_redis_down_memory_with_a_bad_data_file_stops_serve_at_start_naming_it() {
    // No Redis needed: a Redis-mode service starts without it, so the data
    // file is the only thing between it and serving.
    let missing = "/nonexistent/slugd/UnicodeData.txt";
    let e = App::builder()
        .redis_config(config_for_port(free_port()))
        .on_redis_down(OnRedisDown::Memory)
        .data(missing)
        .open()
        .await
        .err()
        .expect("the service refuses to start");
    let said = chain(&e);
    assert!(said.contains("--on-redis-down memory"), "{said}");
    assert!(said.contains(&format!("cannot open {missing}")), "{said}");
    // A directory is no data file either.
    let dir = tempfile::tempdir().unwrap();
    let e = App::builder()
        .redis_config(config_for_port(free_port()))
        .on_redis_down(OnRedisDown::Memory)
        .data(dir.path())
        .open()
        .await
        .err()
        .expect("the service refuses to start");
    assert!(
        chain(&e).contains(&dir.path().display().to_string()),
        "{}",
        chain(&e)
    );
    // With --on-redis-down fail the file is never read: no change there.
    App::builder()
        .redis_config(config_for_port(free_port()))
        .data(missing)
        .open()
        .await
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
}

#[tokio::test]
async fn a_fallback_that_cannot_be_built_says_why_beside_the_outage() {
    let mut redis = RedisServer::start().await;
    load(&redis).await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("UnicodeData.txt");
    std::fs::copy(data_file(), &data).unwrap();
    let settings = slugd::table::TableSettings {
        on_redis_down: OnRedisDown::Memory,
        name_cache: 0,
        data: data.clone().into(),
        ..table_settings(Some(redis.config()))
    };
    let table = SymbolTable::open(&settings, &Metrics::new())
        .await
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    let slugger = Slugger::new(table);
    let options = Default::default();
    assert_eq!(
        slugger.slugify("I ❤ Redis", &options).await.unwrap().slugs,
        [Ok("i-heavy-heart-redis".to_owned())]
    );
    // The file goes away after the start, then Redis does.
    std::fs::remove_file(&data).unwrap();
    redis.kill();
    let e = slugger.slugify("I ❤ Redis", &options).await.unwrap_err();
    let said = chain(&e);
    assert!(said.starts_with("Redis is unavailable"), "{said}");
    assert!(
        said.contains(&format!("cannot open {}", data.display())),
        "{said}"
    );
}
