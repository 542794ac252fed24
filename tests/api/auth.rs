//! Bearer tokens for the reservation endpoints (issue 23, `--auth-tokens`):
//! each permission, missing and wrong tokens, a token limited to scopes,
//! the endpoints that never ask, the OpenAPI security scheme, and that no
//! token reaches the log, over real HTTP on a real Redis.

use reqwest::StatusCode;
use serde_json::{Value, json};
use slugd::auth::Tokens;

use crate::fixtures::{RedisServer, slugd_command};
use crate::helpers::App;
use crate::serve_process::ServeProcess;

const ALL: &str = "tok-all-0123456789abcdef";
const POSTS: &str = "tok-posts-0123456789abcdef";
const READ: &str = "tok-read-0123456789abcdef";

fn file() -> String {
    format!(
        "# token  may  scopes\n{ALL} read,reserve,release\n\n{POSTS} reserve,read posts,pages\n{READ} read\n"
    )
}

/// One request with `token` (if any): status, code and the body.
async fn call(
    app: &App,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = app.client.request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    if status == StatusCode::UNAUTHORIZED {
        let challenge = response.headers()["www-authenticate"].to_str().unwrap();
        assert!(challenge.starts_with("Bearer"), "{challenge}");
    }
    (status, response.json().await.unwrap_or(Value::Null))
}

fn reservation(scope: &str, owner: &str) -> Option<Value> {
    Some(json!({"scope": scope, "owner": owner, "title": "Hello World"}))
}

#[tokio::test]
async fn each_endpoint_needs_a_token_with_its_permission_and_scope() {
    let redis = RedisServer::start().await;
    crate::fixtures::load(&redis).await;
    let tokens = Tokens::parse(&file(), "tokens").unwrap();
    let app = App::builder().redis(&redis).tokens(tokens).spawn().await;
    use reqwest::Method as M;

    // No token, a wrong one, one a byte short: 401 on every endpoint,
    // before anything of the request is looked at.
    let wrong = "tok-all-0123456789abcdeX";
    for token in [None, Some(wrong), Some(&ALL[..ALL.len() - 1])] {
        for (method, path, body) in [
            (M::POST, "/reservations", reservation("posts", "1")),
            (M::POST, "/reservations", Some(json!("not an object"))),
            (M::GET, "/reservations/posts/hello-world", None),
            (M::DELETE, "/reservations/posts/1", None),
            (M::GET, "/reservations/posts/owners/1", None),
            (M::GET, "/reservations/posts", None),
            (M::POST, "/reservations/posts", None),
            (
                M::PUT,
                "/reservations/posts",
                Some(json!({"case_insensitive": true})),
            ),
        ] {
            let (status, body) = call(&app, method.clone(), path, token, body).await;
            assert_eq!(status, 401, "{method} {path} {token:?}: {body}");
            assert_eq!(body["code"], "unauthorized");
            assert!(
                body["error"]
                    .as_str()
                    .unwrap()
                    .contains("Authorization: Bearer"),
                "{body}"
            );
        }
    }

    // A token limited to posts and pages reserves and reads there only.
    let (status, body) = call(
        &app,
        M::POST,
        "/reservations",
        Some(POSTS),
        reservation("posts", "1"),
    )
    .await;
    assert_eq!(
        (status, &body["slug"]),
        (StatusCode::CREATED, &json!("hello-world")),
        "{body}"
    );
    let (status, _) = call(
        &app,
        M::POST,
        "/reservations",
        Some(POSTS),
        reservation("pages", "1"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = call(
        &app,
        M::POST,
        "/reservations",
        Some(POSTS),
        reservation("users", "1"),
    )
    .await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::FORBIDDEN, &json!("forbidden")),
        "{body}"
    );
    assert!(
        body["error"].as_str().unwrap().contains("scope \"users\""),
        "{body}"
    );
    let (status, body) = call(
        &app,
        M::GET,
        "/reservations/posts/hello-world",
        Some(POSTS),
        None,
    )
    .await;
    assert_eq!(
        (status, &body["owner"]),
        (StatusCode::OK, &json!("1")),
        "{body}"
    );
    let (status, _) = call(
        &app,
        M::GET,
        "/reservations/users/hello-world",
        Some(POSTS),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = call(&app, M::DELETE, "/reservations/posts/1", Some(POSTS), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("may not release"),
        "{body}"
    );

    // A read-only token reads anywhere and changes nothing.
    let (status, _) = call(
        &app,
        M::GET,
        "/reservations/posts/hello-world",
        Some(READ),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for path in ["/reservations/posts/owners/1", "/reservations/users"] {
        let (status, body) = call(&app, M::GET, path, Some(READ), None).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    let (status, _) = call(&app, M::GET, "/reservations/users", Some(POSTS), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for (method, path, body) in [
        (M::POST, "/reservations", reservation("posts", "2")),
        (M::DELETE, "/reservations/posts/1", None),
        (M::POST, "/reservations/posts", None),
        (
            M::PUT,
            "/reservations/posts",
            Some(json!({"case_insensitive": true})),
        ),
    ] {
        let (status, body) = call(&app, method, path, Some(READ), body).await;
        assert_eq!(
            (status, &body["code"]),
            (StatusCode::FORBIDDEN, &json!("forbidden")),
            "{body}"
        );
    }

    // The token with every permission releases; the scheme's case does
    // not matter.
    let response = app
        .client
        .delete(app.url("/reservations/posts/1"))
        .header("authorization", format!("bearer {ALL}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (status, _) = call(
        &app,
        M::GET,
        "/reservations/posts/hello-world",
        Some(READ),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // What needs no token never asks for one.
    for path in [
        "/",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
        "/slug?title=Hello",
        "/locales",
    ] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    let (status, _) = app.post("/slug", &json!({"title": "Hello"})).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn without_the_file_reservations_are_open_as_before() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let (status, body) = app
        .post(
            "/reservations",
            &json!({"scope": "posts", "owner": "1", "title": "Hi"}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, _) = call(
        &app,
        reqwest::Method::DELETE,
        "/reservations/posts/1",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn the_openapi_document_has_the_bearer_scheme_on_the_reservation_endpoints() {
    let app = App::in_process().await;
    let (status, doc) = app.get("/openapi.json").await;
    assert_eq!(status, 200);
    let scheme = &doc["components"]["securitySchemes"]["bearer"];
    assert_eq!(
        (&scheme["type"], &scheme["scheme"]),
        (&json!("http"), &json!("bearer")),
        "{scheme}"
    );
    for (path, method) in [
        ("/reservations", "post"),
        ("/reservations/{scope}/{key}", "get"),
        ("/reservations/{scope}/{key}", "delete"),
    ] {
        let operation = &doc["paths"][path][method];
        assert_eq!(
            operation["security"],
            json!([{"bearer": []}]),
            "{method} {path}"
        );
        assert!(operation["responses"]["401"].is_object(), "{method} {path}");
        assert!(operation["responses"]["403"].is_object(), "{method} {path}");
    }
    assert!(doc["paths"]["/slug"]["post"]["security"].is_null());
}

/// The service logs every request at debug, the failed ones too, and
/// never a token: neither the right ones nor a wrong one.
#[tokio::test]
async fn no_token_is_logged() {
    let redis = RedisServer::start().await;
    crate::fixtures::load(&redis).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens");
    std::fs::write(&path, file()).unwrap();
    let serve = ServeProcess::builder()
        .log("debug")
        .args(["--redis-url", &redis.url(), "--auth-tokens"])
        .args([path.to_str().unwrap()])
        .start()
        .await;
    serve.wait_until_ok("/readyz").await;
    let client = reqwest::Client::new();
    let wrong = "tok-wrong-0123456789abcdef";
    for token in [ALL, POSTS, READ, wrong] {
        for scope in ["posts", "users"] {
            let _ = client
                .post(serve.url("/reservations"))
                .bearer_auth(token)
                .json(&json!({"scope": scope, "owner": "1", "title": "Hello"}))
                .send()
                .await
                .unwrap();
        }
        let _ = client
            .delete(serve.url("/reservations/posts/1"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
    }
    let stopped = serve.stop("TERM").await;
    assert!(
        stopped.log.contains("/reservations"),
        "the requests are logged: {}",
        stopped.log
    );
    for token in [ALL, POSTS, READ, wrong] {
        assert!(
            !stopped.log.contains(token),
            "{token} is in the log:\n{}",
            stopped.log
        );
    }
}

#[test]
fn a_bad_file_stops_serve_and_names_the_line_not_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens");
    std::fs::write(&path, format!("{ALL} read\ntoo-short-token reserve\n")).unwrap();
    let out = slugd_command()
        .args(["serve", "--listen", "127.0.0.1:0", "--auth-tokens"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--auth-tokens") && err.contains("line 2: a token is 16 to 256"),
        "{err}"
    );
    assert!(
        !err.contains("too-short-token") && !err.contains(ALL),
        "{err}"
    );
}
