//! Liveness and readiness in both modes.

use crate::fixtures::{RedisServer, load};
use crate::helpers::{App, assert_says};

#[tokio::test]
async fn in_process_is_ready_at_once() {
    let app = App::in_process().await;
    let (s, b) = app.get("/healthz").await;
    assert_eq!((s, b["status"].as_str()), (200, Some("ok")));
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["mode"], "in_process");
    assert_eq!(b["entries"], 7616);
}

#[tokio::test]
async fn redis_mode_is_ready_only_with_a_loaded_table() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let (s, b) = app.get("/healthz").await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 503, "{b}");
    assert_says(&b, "run `slugd load`");
    // A title with a symbol cannot be slugged before a load...
    let (s, b) = app
        .post("/slug", &serde_json::json!({"title": "I ❤ Redis"}))
        .await;
    assert_eq!(s, 503, "{b}");
    assert_eq!(b["code"], "table_unavailable");
    // ...and after one, the service picks the table up without a restart.
    let report = load(&redis).await;
    let (s, b) = app.get("/readyz").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["version"], report.version);
    assert_eq!(b["entries"], 7616);
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
}
