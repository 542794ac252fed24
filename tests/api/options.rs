//! The slugs people expect: the default rules for ordinary text and
//! currency and maths signs, and every slug option, in both modes, over
//! every endpoint; bad values named; server-wide defaults.

use serde_json::json;
use slugd_engine::options::RawOptions;

use crate::fixtures::{RedisServer, load};
use crate::helpers::{App, assert_says};

/// An in-process app, and an app on a freshly loaded Redis (kept alive by
/// the server handle).
async fn both_modes() -> (RedisServer, [App; 2]) {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let apps = [App::in_process().await, App::on_redis(&redis).await];
    (redis, apps)
}

/// What each default rule does, as docs/api.md's table of rules shows it.
const RULES: &[(&str, &str)] = &[
    ("don't panic", "dont-panic"),
    ("Conway’s Law", "conways-law"),
    ("'Quoted' words", "quoted-words"),
    ("Пьеса", "pyesa"),
    ("Объявление", "obyavlenie"),
    ("Rock & Roll", "rock-and-roll"),
    ("Q&A", "q-and-a"),
    ("1,000,000 views", "1000000-views"),
    ("1, 2, 3", "1-2-3"),
    ("Pi is 3.14", "pi-is-3-14"),
    ("£5", "pound-5"),
    ("Price: 10 €", "price-10-euro"),
    ("x ≤ y", "x-less-than-or-equal-to-y"),
    ("a ≠ b", "a-not-equal-to-b"),
    ("1920×1080", "1920x1080"),
    ("3 × 4", "3-x-4"),
    ("−5 °C", "5-degree-c"),
    ("½ ⁄ 2", "1-2-2"),
    ("a + b = c $5", "a-b-c-5"),
    ("Ｑ＋Ａ", "q-a"),
];

#[tokio::test]
async fn the_default_rules_read_text_as_people_expect_in_both_modes() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (title, want) in RULES {
            assert_eq!(app.slug(title).await, *want, "title {title:?}");
        }
        let titles: Vec<String> = RULES.iter().map(|(t, _)| t.to_string()).collect();
        let want: Vec<&str> = RULES.iter().map(|(_, s)| *s).collect();
        assert_eq!(app.slugs(&titles).await, want);
    }
}

#[tokio::test]
async fn every_option_works_in_both_modes() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        let cases = [
            (
                json!({"title": "The Lord of the Rings", "stopwords": ["the", "OF"]}),
                "lord-rings",
            ),
            (
                json!({"title": "The A", "stopwords": ["the", "a"]}),
                "the-a",
            ),
            (
                json!({"title": "50% off ♥", "replacements": [["%", " percent"], ["♥", " ☃ "]]}),
                "50-percent-off-snowman",
            ),
            (
                json!({"title": "Release v1.2.3", "preserve": "."}),
                "release-v1.2.3",
            ),
            (
                json!({"title": "Hello. World.", "preserve": "."}),
                "hello-world",
            ),
            (
                json!({"title": "!!!", "fallback": "Untitled ☕"}),
                "untitled-hot-beverage",
            ),
            (
                json!({"title": "fooBar APISection", "decamelize": true}),
                "foo-bar-api-section",
            ),
            (json!({"title": "fooBar"}), "foobar"),
            (
                json!({"title": "The Big ☃ Day", "stopwords": ["big"], "separator": "_",
                       "max_length": 11, "lowercase": false}),
                "The_snowman",
            ),
        ];
        for (body, want) in cases {
            assert_eq!(app.slug_of(&body).await, want, "{body}");
        }

        // The same names in a query string: lists as text.
        let (status, body) = app
            .get("/slug?title=The%20Rock%20%26%20Roll%2050%25&stopwords=the,and&replacements=%5B%5B%22%25%22,%22%20pct%22%5D%5D&decamelize=false")
            .await;
        assert_eq!(
            (status, body["slug"].as_str()),
            (200, Some("rock-roll-50-pct")),
            "{body}"
        );

        // And in a batch, each title with the batch's options.
        let (status, body) = app
            .post(
                "/slugs",
                &json!({"titles": ["The ☃", "???"], "stopwords": ["the"], "fallback": "none"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["slugs"], json!(["snowman", "none"]));
    }
}

#[tokio::test]
async fn every_bad_option_is_a_422_that_names_the_field() {
    let app = App::in_process().await;
    let long = "x".repeat(65);
    let many: Vec<[&str; 2]> = vec![["a", "b"]; 101];
    for (body, says) in [
        (json!({"stopwords": {"the": 1}}), "stopwords"),
        (json!({"stopwords": [1]}), "stopwords"),
        (json!({"stopwords": ["two words"]}), "stopwords[0]"),
        (json!({"replacements": [["%"]]}), "replacements"),
        (json!({"replacements": [["", "x"]]}), "replacements[0]"),
        (
            json!({"replacements": [["a", long]]}),
            "replacements[0][1] is 65 characters",
        ),
        (json!({"replacements": many}), "at most 100"),
        (json!({"preserve": "/"}), "preserve may hold only"),
        (json!({"preserve": 1}), "preserve"),
        (json!({"fallback": "!!!"}), "fallback"),
        (json!({"decamelize": "yes"}), "decamelize"),
        (json!({"max_length": 0}), "max_length"),
        (json!({"separator": "/"}), "separator"),
        (json!({"stopword": ["the"]}), "stopword"),
    ] {
        let mut request = body.clone();
        request["title"] = json!("Hello");
        let (status, got) = app.post("/slug", &request).await;
        assert_eq!(status, 422, "{request}: {got}");
        assert_eq!(got["code"], "invalid_request", "{got}");
        assert_says(&got, says);
    }
    let (status, got) = app.get("/slug?title=x&replacements=nope").await;
    assert_eq!(status, 400, "{got}");
    assert_says(&got, "replacements");
}

#[tokio::test]
async fn server_wide_defaults_apply_and_a_request_overrides_them() {
    let defaults = RawOptions {
        stopwords: Some(vec!["the".into()]),
        separator: Some("_".into()),
        fallback: Some("untitled".into()),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    let redis = RedisServer::start().await;
    load(&redis).await;
    for app in [
        App::builder().defaults(defaults.clone()).spawn().await,
        App::builder()
            .redis(&redis)
            .defaults(defaults.clone())
            .spawn()
            .await,
    ] {
        assert_eq!(app.slug("The Big ☃").await, "big_snowman");
        assert_eq!(app.slug("???").await, "untitled");
        assert_eq!(
            app.slug_of(&json!({"title": "The Big ☃", "separator": "-"}))
                .await,
            "big-snowman"
        );
        assert_eq!(
            app.slug_of(&json!({"title": "The Big ☃", "stopwords": []}))
                .await,
            "the_big_snowman"
        );
    }
}

#[tokio::test]
async fn replacements_that_grow_the_title_are_bounded_not_fatal() {
    // Applied again to their own output, five pairs that turn each `a`
    // into 64 would make 10^12 bytes of this title; in one bounded pass
    // the service answers and stays up.
    let app = App::in_process().await;
    let grow = vec![["a".to_owned(), "a".repeat(64)]; 5];
    let body = json!({"title": "a".repeat(10_000), "replacements": grow, "max_length": 10});
    assert_eq!(app.slug_of(&body).await, "aaaaaaaaaa");
    assert_eq!(app.slug("still here").await, "still-here");
}
