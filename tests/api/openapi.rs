//! `GET /openapi.json` tells the truth: every documented route is served
//! (never the 404/405 of the fallbacks, and only with a documented status),
//! every route docs/api.md names is documented, a documented path answers
//! 405 to a method it does not document, and every documented request
//! example, sent to a real app (in-process and on a real redis-server),
//! gets the documented response example.

use std::collections::BTreeSet;

use reqwest::{Method, Url};
use serde_json::Value;

use crate::fixtures::{RedisServer, load};
use crate::helpers::App;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// The document, as the app serves it.
async fn document(app: &App) -> Value {
    let r = app
        .client
        .get(app.url("/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let content_type = r.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    let doc: Value = r.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    doc
}

/// Every operation of the document: (method, path, operation).
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().unwrap() {
            if METHODS.contains(&method.as_str()) {
                ops.push((method.clone(), path.clone(), op.clone()));
            }
        }
    }
    // Writes before reads before deletes, so the reservation examples
    // build on each other as the document tells them.
    let rank = |m: &str| ["post", "get", "delete"].iter().position(|x| *x == m);
    ops.sort_by_key(|(m, p, _)| (rank(m), p.clone()));
    ops
}

/// The URL of `op` with its parameters' examples: path segments filled,
/// query parameters that have an example set.
fn url_of(app: &App, path: &str, op: &Value) -> Url {
    let mut path = path.to_owned();
    let mut query = Vec::new();
    for p in op["parameters"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap();
        let example = &p["example"];
        let value = match example {
            Value::Null => continue,
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match p["in"].as_str().unwrap() {
            "path" => path = path.replace(&format!("{{{name}}}"), &value),
            "query" => query.push((name.to_owned(), value)),
            other => panic!("a parameter in {other}"),
        }
    }
    assert!(
        !path.contains('{'),
        "{path}: a path parameter has no example"
    );
    let mut url = Url::parse(&app.url(&path)).unwrap();
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query);
    }
    url
}

async fn send(app: &App, method: &str, url: Url, body: Option<&Value>) -> (u16, Value) {
    let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    let mut request = app.client.request(method, url);
    if let Some(body) = body {
        request = request.json(body);
    }
    let r = request.send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn every_documented_route_is_served_and_every_route_is_documented() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let doc = document(&app).await;
    let ops = operations(&doc);

    let mut documented = BTreeSet::new();
    for (method, path, op) in &ops {
        documented.insert(format!("{} {path}", method.to_uppercase()));
        let body = (method == "post").then(|| serde_json::json!({}));
        let (status, answer) = send(&app, method, url_of(&app, path, op), body.as_ref()).await;
        let code = answer["code"].as_str().unwrap_or("");
        assert!(
            code != "not_found" && code != "method_not_allowed",
            "{method} {path} is documented but the router does not serve it: {status} {answer}"
        );
        assert!(
            op["responses"].get(status.to_string()).is_some(),
            "{method} {path} answered {status}, which it does not document: {answer}"
        );
        // The path serves no method it does not document.
        for other in METHODS {
            let served = doc["paths"][path].get(other).is_some();
            if !served {
                let (s, b) = send(&app, other, url_of(&app, path, op), None).await;
                assert_eq!(
                    (s, b["code"].as_str()),
                    (405, Some("method_not_allowed")),
                    "{other} {path} is served but not documented"
                );
            }
        }
    }

    // Every route docs/api.md names in a heading is in the document.
    let api = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let mut named = BTreeSet::new();
    let mut in_code = false;
    let headings = api.lines().filter(|l| {
        // A `#` line inside a fenced block is a shell comment.
        in_code ^= l.starts_with("```");
        !in_code && l.starts_with('#')
    });
    for heading in headings.map(|l| l.trim_start_matches('#')) {
        for quoted in heading.split('`').skip(1).step_by(2) {
            let route = quoted.split('?').next().unwrap();
            let method = route.split(' ').next().unwrap();
            if METHODS.contains(&method.to_lowercase().as_str()) {
                // One path, two names of its last segment.
                named.insert(
                    route
                        .replace("{scope}/{slug}", "{scope}/{key}")
                        .replace("{scope}/{owner}", "{scope}/{key}"),
                );
            }
        }
    }
    assert!(named.len() >= 10, "docs/api.md's routes: {named:?}");
    let missing: Vec<_> = named.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "in docs/api.md but not documented: {missing:?}"
    );
    let unnamed: Vec<_> = documented.difference(&named).collect();
    assert!(
        unnamed.is_empty(),
        "documented but not named in docs/api.md: {unnamed:?}"
    );
}

/// Every error code, with its status, is in the error schema, and each
/// documented error example's code is documented under its status.
#[tokio::test]
async fn the_error_schema_lists_every_code_with_its_status() {
    let app = App::in_process().await;
    let doc = document(&app).await;
    let schema = &doc["components"]["schemas"]["ErrorBody"];
    let codes = schema["properties"]["code"]["enum"].as_array().unwrap();
    let description = schema["description"].as_str().unwrap();
    for (status, code) in [
        (400, "malformed_json"),
        (400, "bad_query"),
        (408, "body_timeout"),
        (413, "too_large"),
        (415, "not_json"),
        (422, "invalid_request"),
        (422, "unknown_locale"),
        (422, "empty_slug"),
        (422, "too_many_titles"),
        (404, "not_found"),
        (404, "not_reserved"),
        (405, "method_not_allowed"),
        (409, "no_free_slug"),
        (401, "unauthorized"),
        (403, "forbidden"),
        (429, "busy"),
        (503, "table_unavailable"),
        (503, "needs_redis"),
        (503, "reservations_unavailable"),
        (503, "not_replicated"),
        (409, "slug_taken"),
        (422, "not_a_slug"),
        (415, "not_ndjson"),
        (409, "scope_has_keys"),
        (503, "loading"),
    ] {
        assert!(codes.contains(&Value::from(code)), "{code} in {codes:?}");
        assert!(
            description.contains(&format!("{status} `{code}`")),
            "{status} {code} in {description}"
        );
    }
    assert_eq!(codes.len(), 25, "{codes:?}");
    for (method, path, op) in operations(&doc) {
        for (status, response) in op["responses"].as_object().unwrap() {
            let examples = &response["content"]["application/json"]["examples"];
            for (name, example) in examples.as_object().into_iter().flatten() {
                if let Some(code) = example["value"]["code"].as_str() {
                    assert!(
                        description.contains(&format!("{status} `{code}`")),
                        "{method} {path} example {name}: {code} is not a {status}"
                    );
                }
            }
        }
    }
}

/// Where the answer is the same in both modes, or which mode it needs.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    InProcess,
    Redis,
}

/// Sends each documented request example that applies in `mode` and
/// compares the answer with the documented response example of the same
/// name; returns how many were compared.
async fn examples_hold(app: &App, doc: &Value, mode: Mode) -> usize {
    let mut compared = 0;
    for (method, path, op) in operations(doc) {
        // The import and the export speak NDJSON, not JSON: their
        // examples are checked by `bringing`'s tests.
        let ndjson = !op["requestBody"]["content"]["application/x-ndjson"].is_null()
            || op["responses"]["200"]["content"]["application/x-ndjson"].is_object();
        if ndjson {
            continue;
        }
        let examples: Vec<(String, Option<Value>)> =
            match op["requestBody"]["content"]["application/json"]["examples"].as_object() {
                Some(named) => named
                    .iter()
                    .map(|(name, e)| (name.clone(), Some(e["value"].clone())))
                    .collect(),
                None => vec![("default".to_owned(), None)],
            };
        for (name, body) in examples {
            let expected = op["responses"]
                .as_object()
                .unwrap()
                .iter()
                .find_map(|(s, r)| {
                    let e = &r["content"]["application/json"]["examples"][&name]["value"];
                    (!e.is_null()).then(|| (s.parse::<u16>().unwrap(), Some(e.clone())))
                });
            let expected = expected.or_else(|| {
                // An answer without a body (204): the one 2xx status.
                let bare: Vec<u16> = op["responses"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(s, r)| s.starts_with('2') && r["content"].is_null())
                    .map(|(s, _)| s.parse().unwrap())
                    .collect();
                (bare.len() == 1).then(|| (bare[0], None))
            });
            let Some((status, want)) = expected else {
                // The home page, this document and the metrics (text):
                // checked elsewhere.
                assert!(
                    path == "/" || path == "/openapi.json" || path == "/metrics",
                    "{method} {path}: request example {name} has no response example"
                );
                continue;
            };
            let code = want.as_ref().and_then(|w| w["code"].as_str());
            let needs = match () {
                _ if code == Some("needs_redis") => Some(Mode::InProcess),
                _ if path.starts_with("/reservations") => Some(Mode::Redis),
                // The figures and the version are the Redis mode's.
                _ if path == "/bench" || path == "/readyz" => Some(Mode::Redis),
                _ => None,
            };
            if needs.is_some_and(|m| m != mode) {
                continue;
            }
            let (got_status, mut got) =
                send(app, &method, url_of(app, &path, &op), body.as_ref()).await;
            let what = format!("{method} {path} example {name:?} ({mode:?})");
            if let Some(want) = &want {
                crate::helpers::as_documented_hold(&mut got, want, &what);
            }
            assert_eq!(got_status, status, "{what}: {got}");
            match want {
                None => {}
                Some(want) if path == "/bench" || path == "/readyz" => {
                    assert_same_shape(&want, &got, &what)
                }
                Some(want) => assert_eq!(got, want, "{what}"),
            }
            compared += 1;
        }
    }
    compared
}

/// The same keys at every level and the same JSON types: for answers
/// whose figures vary from run to run.
fn assert_same_shape(want: &Value, got: &Value, what: &str) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let wk: BTreeSet<_> = w.keys().collect();
            let gk: BTreeSet<_> = g.keys().collect();
            assert_eq!(wk, gk, "{what}: {got}");
            for k in wk {
                assert_same_shape(&w[k], &g[k], what);
            }
        }
        (Value::Array(w), Value::Array(g)) => {
            if let (Some(w), Some(g)) = (w.first(), g.first()) {
                assert_same_shape(w, g, what);
            }
        }
        (Value::Number(_), Value::Number(_))
        | (Value::String(_), Value::String(_))
        | (Value::Bool(_), Value::Bool(_))
        | (Value::Null, Value::Null) => {}
        _ => panic!("{what}: {want} documented, {got} answered"),
    }
}

#[tokio::test]
async fn the_documented_examples_are_what_the_service_answers_in_both_modes() {
    let app = App::in_process().await;
    let doc = document(&app).await;
    let in_process = examples_hold(&app, &doc, Mode::InProcess).await;

    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    // Both modes serve the same document.
    assert_eq!(document(&app).await, doc);
    let on_redis = examples_hold(&app, &doc, Mode::Redis).await;
    // Every slug example, the locales and health in both; reservations,
    // the bench and readiness on Redis; needs_redis in-process.
    assert!(
        in_process >= 13,
        "{in_process} examples compared in-process"
    );
    assert!(on_redis >= 19, "{on_redis} examples compared on Redis");
}

/// Routes are added only through `utoipa_axum::routes!`, which takes each
/// handler's `#[utoipa::path]`: a route added with axum's own `.route()`
/// (or a nested router) would be served without being documented, and
/// the test above, which walks the document, could not see it.
#[test]
fn every_route_is_added_with_its_documentation() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/http");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for call in [".route(", ".route_service(", ".nest(", ".nest_service("] {
                assert!(
                    !text.contains(call),
                    "{}: {call}...) adds a route the OpenAPI document does not see; add it with .routes(routes!(handler)) and a #[utoipa::path]",
                    path.display()
                );
            }
            files += 1;
        }
    }
    assert!(files >= 10, "{files} files in {dir}");
}

#[tokio::test]
async fn every_rules_option_is_bounded_by_the_last_version_and_lists_them_all() {
    let app = App::in_process().await;
    let doc = document(&app).await;
    let newest = slugd_engine::options::Rules::NEWEST.number();
    let last = slugd_engine::options::Rules::LAST.number();
    let body = &doc["components"]["schemas"]["SlugRequest"]["properties"]["rules"];
    assert_eq!(body["minimum"], 1, "{body}");
    assert_eq!(body["maximum"], last, "{body}");
    let description = body["description"].as_str().unwrap();
    for version in &slugd_engine::rules::VERSIONS {
        assert!(
            description.contains(&format!("{} ({}", version.number, version.says))
                || description.contains(&format!(
                    "{} (the newest, the default: {}",
                    version.number, version.says
                )),
            "{description}"
        );
    }
    assert!(
        description.contains(&format!("{newest} (the newest, the default")),
        "{description}"
    );
    let query = doc["paths"]["/slug"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "rules")
        .expect("GET /slug takes rules");
    assert_eq!(query["schema"]["maximum"], last, "{query}");
    assert!(
        query["description"]
            .as_str()
            .unwrap()
            .contains(&format!("{newest} (the newest, the default")),
        "{query}"
    );
}
