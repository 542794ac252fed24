//! The slugs users get, in both modes, and that both modes agree.

use serde_json::json;

use crate::fixtures::{RedisServer, data_file, load};
use crate::helpers::App;

/// Every example of the product brief, as a user sends it.
const EXAMPLES: &[(&str, &str)] = &[
    ("this is ☃", "this-is-snowman"),
    ("This is my ☃ post!", "this-is-my-snowman-post"),
    ("I ❤ Redis", "i-heavy-heart-redis"),
    ("I ❤\u{FE0F} Redis", "i-heavy-heart-redis"),
    ("⬣", "horizontal-hexagon"),
    ("〠", "postal-mark-face"),
    ("☢", "radioactive"),
    ("Café ☕ Crème", "cafe-hot-beverage-creme"),
    ("Привет, мир", "privet-mir"),
    ("北京", "beijing"),
    ("  --Hello,   World!--  ", "hello-world"),
    ("⚰ COFFIN", "coffin-coffin"),
];

async fn check_examples(app: &App) {
    for (title, want) in EXAMPLES {
        assert_eq!(app.slug(title).await, *want, "title {title:?}");
    }
    let (status, body) = app
        .post("/slug", &json!({"title": "I ❤ Redis", "symbols": false}))
        .await;
    assert_eq!(
        (status, body["slug"].as_str()),
        (200, Some("i-heart-redis"))
    );
    let (status, body) = app
        .post(
            "/slug",
            &json!({"title": "The quick brown fox", "max_length": 12}),
        )
        .await;
    assert_eq!((status, body["slug"].as_str()), (200, Some("the-quick")));
    let (status, body) = app
        .post(
            "/slug",
            &json!({"title": "Hello ☃ World", "separator": "_", "lowercase": false}),
        )
        .await;
    assert_eq!(
        (status, body["slug"].as_str()),
        (200, Some("Hello_snowman_World"))
    );
    let (status, body) = app
        .get("/slug?title=I%20%E2%9D%A4%20Redis&separator=.")
        .await;
    assert_eq!(
        (status, body["slug"].as_str()),
        (200, Some("i.heavy.heart.redis"))
    );
}

#[tokio::test]
async fn in_process_mode_gives_the_documented_slugs() {
    let app = App::in_process().await;
    check_examples(&app).await;
}

#[tokio::test]
async fn redis_mode_gives_the_documented_slugs() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    check_examples(&app).await;
}

#[tokio::test]
async fn a_batch_keeps_order_and_matches_single_requests() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let titles: Vec<String> = EXAMPLES.iter().map(|(t, _)| t.to_string()).collect();
    let slugs = app.slugs(&titles).await;
    let want: Vec<&str> = EXAMPLES.iter().map(|(_, s)| *s).collect();
    assert_eq!(slugs, want);
    assert_eq!(app.slugs(&[]).await, Vec::<String>::new());
}

/// Every symbol of the table one by one, the corpus, and titles mixing
/// scripts and symbols: in-process and Redis give the same slug for each.
#[tokio::test]
async fn both_modes_give_identical_slugs() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let on_redis = App::on_redis(&redis).await;
    let in_process = App::in_process().await;

    let table = slugd::table::MemoryTable::from_file(&data_file(), &Default::default()).unwrap();
    let mut titles: Vec<String> = table
        .entries()
        .map(|(c, _)| format!("Ω {c} {c}\u{FE0F}x"))
        .collect();
    titles.extend(slugd_engine::corpus::titles().map(str::to_owned));
    titles.extend(
        slugd_engine::corpus::titles()
            .zip(table.entries().step_by(37).map(|(c, _)| c))
            .map(|(t, c)| format!("{t} {c}{t}")),
    );
    assert!(titles.len() > 6700);
    for chunk in titles.chunks(1000) {
        let a = on_redis.slugs(chunk).await;
        let b = in_process.slugs(chunk).await;
        assert_eq!(a, b);
    }
    // Long names (over 64 bytes, stored in chunks) come back whole.
    let long: Vec<(char, &str)> = table.entries().filter(|(_, n)| n.len() > 64).collect();
    assert!(long.len() >= 40, "{}", long.len());
    for (c, name) in long {
        assert_eq!(on_redis.slug(&c.to_string()).await, name.replace(' ', "-"));
    }
}
