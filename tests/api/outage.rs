//! Redis going away: a fast, clear 503 for what needs Redis, and slugs as
//! usual for titles that do not.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::{App, RedisServer, load};

#[tokio::test]
async fn redis_down_gives_a_fast_503_and_plain_titles_still_work() {
    let mut redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    redis.kill();

    for _ in 0..3 {
        let started = Instant::now();
        let (s, b) = app.post("/slug", &json!({"title": "I ❤ Redis"})).await;
        // Not a speed figure: a bound far above the 300 ms response timeout
        // that tells a prompt error from a hang.
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "took {:?}",
            started.elapsed()
        );
        assert_eq!(s, 503, "{b}");
        assert_eq!(b["code"], "table_unavailable");
        assert!(b["error"].as_str().unwrap().contains("Redis"), "{b}");
    }
    assert_eq!(app.slug("Привет, мир").await, "privet-mir");
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 503, "{b}");
}
