//! `/bench` compares both tables inside the running service.

use crate::fixtures::{RedisServer, load};
use crate::helpers::{App, assert_says};

fn assert_stats(side: &serde_json::Value) {
    for field in ["p50_us", "p90_us", "p99_us", "max_us", "slugs_per_sec"] {
        assert!(side[field].as_f64().unwrap() > 0.0, "{field} in {side}");
    }
    let p50 = side["p50_us"].as_f64().unwrap();
    assert!(
        p50 <= side["p99_us"].as_f64().unwrap()
            && side["p99_us"].as_f64().unwrap() <= side["max_us"].as_f64().unwrap()
    );
    assert!(side["table_bytes"].as_u64().unwrap() > 100_000, "{side}");
}

#[tokio::test]
async fn redis_mode_measures_both_backends() {
    let redis = RedisServer::start().await;
    let report = load(&redis).await;
    let app = App::on_redis(&redis).await;
    let (s, b) = app.get("/bench?iterations=300").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["iterations"], 300);
    assert_eq!(b["mode"], "redis");
    assert_stats(&b["in_process"]);
    assert_stats(&b["redis"]);
    assert_eq!(b["redis"]["table_bytes"], report.bytes);
    let (s, b) = app
        .get("/bench?iterations=10&title=I%20%E2%9D%A4%20Redis")
        .await;
    assert_eq!((s, b["titles"].as_u64()), (200, Some(1)), "{b}");
    // With a locale, both sides slug the corpus by its rules.
    let (s, b) = app.get("/bench?iterations=50&locale=de").await;
    assert_eq!((s, &b["locale"]), (200, &serde_json::json!("de")), "{b}");
    assert_stats(&b["in_process"]);
    assert_stats(&b["redis"]);
    let (s, b) = app.get("/bench?iterations=50&locale=xx").await;
    assert_eq!(
        (s, &b["code"]),
        (422, &serde_json::json!("unknown_locale")),
        "{b}"
    );
}

#[tokio::test]
async fn in_process_mode_says_why_redis_is_not_measured() {
    let app = App::in_process().await;
    let (s, b) = app.get("/bench?iterations=100").await;
    assert_eq!(s, 200, "{b}");
    assert_stats(&b["in_process"]);
    assert_says(&b["redis"], "--redis-url");
    let (s, b) = app.get("/bench?iterations=0").await;
    assert_eq!(s, 422, "{b}");
    let (s, b) = app.get("/bench?iterations=100000000").await;
    assert_eq!(s, 422, "{b}");
    assert_says(&b, "between 1 and 100000");
}
