//! Bad input gets a clear JSON error with the right status, never a panic
//! or a 500, and the service goes on answering.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use slugd::http::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{App, assert_says};

fn assert_error(status: u16, body: &Value, want_status: u16, code: &str, says: &str) {
    assert_eq!(status, want_status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_says(body, says);
}

/// Sends `start`, the beginning of a request, and never the rest; returns
/// what the server answers before it ends the connection (or the error
/// that ended it) and how long after the connection was opened that was.
/// A server that has not ended it after 10 s fails the test.
async fn send_only(app: &App, start: &[u8]) -> (std::io::Result<Vec<u8>>, Duration) {
    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream.write_all(start).await.unwrap();
    let mut response = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server ends the connection instead of waiting for ever");
    (read.map(|_| response), started.elapsed())
}

/// The limit the slow-client tests set, and how long after it the
/// connection must be closed: not a speed figure, but slack for a busy
/// machine, and far enough below the default of 10 s that the test fails
/// if the setting is not applied.
const SLOW_LIMIT: Duration = Duration::from_millis(300);
const SLOW_SLACK: Duration = Duration::from_secs(4);

/// The connection was closed after `SLOW_LIMIT`, not long after.
fn assert_cut_off_by_the_limit(took: Duration) {
    assert!(
        took >= SLOW_LIMIT && took < SLOW_LIMIT + SLOW_SLACK,
        "closed after {took:?}, with a limit of {SLOW_LIMIT:?}"
    );
}

#[tokio::test]
async fn malformed_and_mistyped_bodies() {
    let app = App::in_process().await;
    let (s, b) = app
        .post_raw("/slug", "application/json", b"{\"title\": ".to_vec())
        .await;
    assert_error(s, &b, 400, "malformed_json", "EOF");
    let (s, b) = app
        .post_raw(
            "/slug",
            "application/json",
            b"{\"title\": \"\\ud800\"}".to_vec(),
        )
        .await;
    assert_error(s, &b, 400, "malformed_json", "hex escape");
    let (s, b) = app.post("/slug", &json!({})).await;
    assert_error(s, &b, 422, "invalid_request", "missing field `title`");
    let (s, b) = app.post("/slug", &json!({"title": 5})).await;
    assert_error(
        s,
        &b,
        422,
        "invalid_request",
        "invalid type: integer `5`, expected a string",
    );
    let (s, b) = app
        .post("/slug", &json!({"title": "x", "lowercase": "yes"}))
        .await;
    assert_error(s, &b, 422, "invalid_request", "expected a boolean");
    let (s, b) = app
        .post("/slug", &json!({"title": "x", "max_length": -1}))
        .await;
    assert_error(s, &b, 422, "invalid_request", "invalid value: integer `-1`");
    let (s, b) = app
        .post("/slug", &json!({"title": "x", "colour": "red"}))
        .await;
    assert_error(s, &b, 422, "invalid_request", "unknown field `colour`");
    let (s, b) = app
        .post("/slug", &json!({"title": "x", "max_length": 0}))
        .await;
    assert_error(
        s,
        &b,
        422,
        "invalid_request",
        "max_length must be at least 1",
    );
    let (s, b) = app
        .post("/slug", &json!({"title": "x", "separator": "/"}))
        .await;
    assert_error(
        s,
        &b,
        422,
        "invalid_request",
        "separator \"/\" is not allowed",
    );
    let (s, b) = app.post("/slug", &json!({"titles": ["x"]})).await;
    assert_error(s, &b, 422, "invalid_request", "POST /slugs");
    let (s, b) = app
        .post_raw("/slug", "text/plain", b"{\"title\": \"x\"}".to_vec())
        .await;
    assert_error(s, &b, 415, "not_json", "Content-Type: application/json");
    let (s, b) = app.get("/slug?title=x&max_length=abc").await;
    assert_error(s, &b, 400, "bad_query", "max_length");
    let (s, b) = app.get("/slug").await;
    assert_error(s, &b, 422, "invalid_request", "missing field `title`");
    // Deeply nested JSON is refused at its first bracket, not recursed into.
    let deep = format!(
        "{{\"title\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (s, b) = app
        .post_raw("/slug", "application/json", deep.into_bytes())
        .await;
    assert_error(
        s,
        &b,
        422,
        "invalid_request",
        "invalid type: sequence, expected a string",
    );
    assert_eq!(app.slug("still here").await, "still-here");
}

#[tokio::test]
async fn titles_without_a_slug_are_422_and_say_why() {
    let app = App::in_process().await;
    let (s, b) = app.post("/slug", &json!({"title": "!!! ??"})).await;
    assert_error(s, &b, 422, "empty_slug", "slug would be empty");
    let (s, b) = app.post("/slug", &json!({"title": ""})).await;
    assert_error(s, &b, 422, "empty_slug", "slug would be empty");
    let (s, b) = app
        .post("/slugs", &json!({"titles": ["ok", "", "fine", "\u{FE0F}"]}))
        .await;
    assert_error(
        s,
        &b,
        422,
        "empty_slug",
        "titles at index 1, 3 have no letters",
    );
}

#[tokio::test]
async fn limits_on_size_and_batch() {
    let app = App::in_process().await;
    let big = json!({"title": "a".repeat(2 * 1024 * 1024)});
    let (s, b) = app.post("/slug", &big).await;
    assert_error(s, &b, 413, "too_large", "limit of 1048576 bytes");
    let titles: Vec<String> = (0..1001).map(|i| format!("title {i}")).collect();
    let (s, b) = app.post("/slugs", &json!({"titles": titles})).await;
    assert_error(
        s,
        &b,
        422,
        "too_many_titles",
        "at most 1000 titles; this one has 1001",
    );
    let titles: Vec<String> = (0..1000).map(|i| format!("title {i}")).collect();
    let slugs = app.slugs(&titles).await;
    assert_eq!(slugs[999], "title-999");
}

#[tokio::test]
async fn unknown_paths_and_methods_get_json_errors() {
    let app = App::in_process().await;
    let (s, b) = app.get("/nope").await;
    assert_error(s, &b, 404, "not_found", "POST /slug");
    let r = app.client.delete(app.url("/slug")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 405);
    let b: Value = r.json().await.unwrap();
    assert_eq!(b["code"], "method_not_allowed");
}

#[tokio::test]
async fn a_client_sending_its_body_slowly_gets_408() {
    let app = App::builder()
        .limits(Limits {
            body_timeout: SLOW_LIMIT,
            ..Limits::default()
        })
        .spawn()
        .await;
    let (response, took) = send_only(&app, b"POST /slug HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"title\": ")
        .await;
    assert_cut_off_by_the_limit(took);
    let response = response.unwrap();
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"code\":\"body_timeout\""), "{text}");
    assert_eq!(app.slug("still here").await, "still-here");
}

#[tokio::test]
async fn hostile_but_valid_titles_get_correct_slugs() {
    let app = App::in_process().await;
    assert_eq!(app.slug("a\u{0}b\u{7}c\td").await, "a-b-c-d");
    assert_eq!(
        app.slug("\u{202E}evil\u{202C} \u{2066}text\u{2069}").await,
        "evil-text"
    );
    let (s, b) = app
        .post("/slug", &json!({"title": "☃".repeat(200_000)}))
        .await;
    assert_eq!(s, 200, "{b}");
    assert!(b["slug"].as_str().unwrap().starts_with("snowman-snowman"));
    let (s, b) = app
        .post("/slug", &json!({"title": "x".repeat(1024 * 1024)}))
        .await;
    assert_error(s, &b, 413, "too_large", "limit of 1048576 bytes");
    let titles: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    let (s, b) = app.post("/slugs", &json!({"titles": titles})).await;
    assert_error(
        s,
        &b,
        422,
        "too_many_titles",
        "at most 1000 titles; this one has 100000",
    );
}

#[tokio::test]
async fn a_client_sending_its_headers_slowly_is_cut_off() {
    let app = App::builder()
        .limits(Limits {
            header_timeout: SLOW_LIMIT,
            ..Limits::default()
        })
        .spawn()
        .await;
    // Closed or reset: either way the server stopped waiting.
    let (_, took) = send_only(&app, b"POST /slug HTTP/1.1\r\nHost: x\r\nContent-Ty").await;
    assert_cut_off_by_the_limit(took);
    assert_eq!(app.slug("still here").await, "still-here");
}
