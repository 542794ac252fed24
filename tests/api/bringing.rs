//! Bringing a site to slugd: its existing slugs imported (`slugd import`,
//! `POST /reservations/{scope}`), an editor's own slug reserved exactly,
//! dry runs, an owner's history and the export, against a real
//! redis-server and the real binary.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Output, Stdio};

use serde_json::{Value, json};

use slugd::reserve::{ReservationSettings, ReservedSlugs};

use crate::fixtures::{RedisCluster, RedisServer, slugd_command};
use crate::helpers::App;
use crate::reservations::{check_consistent, reserve};

/// `slugd import` (or `export`, with `args`) against `redis_args`, with
/// `input` on standard input.
fn slugd(redis_args: &[&str], args: &[&str], input: &[u8]) -> Output {
    let mut child = slugd_command()
        .args(args)
        .args(redis_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn import(redis: &RedisServer, scope: &str, input: &str) -> Output {
    let url = redis.url();
    slugd(
        &["--redis-url", &url],
        &["import", "--scope", scope, "-"],
        input.as_bytes(),
    )
}

fn export(redis: &RedisServer, scope: &str) -> String {
    let url = redis.url();
    let out = slugd(&["--redis-url", &url], &["export", "--scope", scope], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every field of every key of the reservations, to tell that nothing
/// was written.
async fn snapshot(redis: &RedisServer) -> BTreeMap<String, Vec<(String, Vec<u8>)>> {
    let keys: Vec<String> = redis.query(redis::cmd("KEYS").arg("slugd:r:*")).await;
    let mut out = BTreeMap::new();
    for key in keys {
        let mut fields: Vec<(String, Vec<u8>)> = redis.query(redis::cmd("HGETALL").arg(&key)).await;
        fields.sort();
        out.insert(key, fields);
    }
    out
}

#[tokio::test]
async fn an_import_takes_the_good_lines_names_each_bad_one_and_titles_go_on_after_it() {
    let redis = RedisServer::start().await;
    // A hold of a day from now, in Unix milliseconds.
    let day = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        + 86_400_000;
    let draft = format!(r#"{{"owner": "6", "slug": "draft", "held_until": {day}}}"#);
    let lines = [
        r#"{"owner": "1", "slug": "hello-world"}"#,
        r#"{"owner": "2", "slug": "hello-world-7"}"#,
        r#"{"owner": "3", "slug": "Legacy_Post"}"#,
        r#"{"owner": "4", "slug": "hello-world"}"#,
        r#"{"owner": "5", "slug": "has space"}"#,
        r#"not json"#,
        r#"{"slug": "no-owner"}"#,
        "",
        draft.as_str(),
        r#"{"owner": "7", "slug": "a/b"}"#,
        r#"{"owner": "1", "slug": "hello-world-3"}"#,
        r#"{"owner": "10", "slug": "news-20240101"}"#,
    ];
    let input = lines.join("\n") + "\n";
    let out = import(&redis, "posts", &input);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "11 lines, 6 imported, 0 unchanged (the owner's already), 0 holds updated, 5 refused"
        ),
        "{stdout}"
    );
    for said in [
        "line 4: \"hello-world\": taken: the slug is owner \"1\"'s, who keeps it",
        "line 5: \"has space\": not a slug: the slug has whitespace",
        "line 6: not JSON",
        "line 7: \"no-owner\": no owner",
        "line 10: \"a/b\": not a slug: the slug has '/'",
    ] {
        assert!(stderr.contains(said), "{said} not in\n{stderr}");
    }
    // The holder kept its slug; the rest were imported as written.
    let app = App::on_redis(&redis).await;
    for (slug, owner, state) in [
        ("hello-world", "1", "confirmed"),
        ("hello-world-7", "2", "confirmed"),
        ("Legacy_Post", "3", "confirmed"),
        ("draft", "6", "held"),
    ] {
        let (s, b) = app.get(&format!("/reservations/posts/{slug}")).await;
        assert_eq!(s, 200, "{slug}: {b}");
        assert_eq!(
            (b["owner"].as_str(), b["state"].as_str()),
            (Some(owner), Some(state)),
            "{b}"
        );
    }
    assert_eq!(app.get("/reservations/posts/has%20space").await.0, 404);
    // A new title whose slug was imported gets the next free one, after
    // the highest number imported.
    let (s, b) = app
        .reserve_with("posts", "8", "Hello World", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("hello-world-8")), "{b}");
    // An imported owner asking for its title gets its imported slug back.
    let (s, b) = app
        .reserve_with("posts", "2", "Hello World", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("hello-world-7")), "{b}");
    let (s, b) = app
        .reserve_with(
            "posts",
            "3",
            "Legacy_Post",
            json!({"lowercase": false, "separator": "_"}),
        )
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("Legacy_Post")), "{b}");
    // An owner with two slugs of the title gets the newer back.
    let (s, b) = app
        .reserve_with("posts", "1", "Hello World", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("hello-world-3")), "{b}");
    // A number far ahead (a date) is no suffix: titles start from 2.
    for (owner, slug) in [("11", "news"), ("12", "news-2")] {
        let (s, b) = app.reserve_with("posts", owner, "News", json!({})).await;
        assert_eq!((s, b["slug"].as_str()), (201, Some(slug)), "{b}");
    }
    check_consistent(&redis, "posts").await;

    // Imported again: nothing changes, the same lines are refused.
    let before = snapshot(&redis).await;
    let out = import(&redis, "posts", &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(
            "11 lines, 0 imported, 6 unchanged (the owner's already), 0 holds updated, 5 refused"
        ),
        "{}",
        text(&out.stdout)
    );
    // Only the owners' current slugs may move back to what the file
    // says: owner 2 and 3 asked for their titles since, which made
    // nothing new.
    assert_eq!(snapshot(&redis).await, before);

    // A lapsed hold of the title's base does not stand in for the slug
    // the owner holds: owner 1 typed hello-world-9 as a draft, which
    // lapsed.
    let own = json!({"scope": "posts", "owner": "1", "slug": "hello-world-9", "hold_seconds": 1});
    assert_eq!(app.post("/reservations", &own).await.0, 201);
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let (s, b) = app
        .reserve_with("posts", "1", "Hello World", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("hello-world-3")), "{b}");
    // A file of good lines only exits 0.
    let out = import(&redis, "posts", "{\"owner\": \"9\", \"slug\": \"fresh\"}\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[tokio::test]
async fn an_import_racing_live_reservations_of_the_same_titles_gives_no_slug_two_owners() {
    let redis = RedisServer::start().await;
    // A generous response timeout: every live reservation must be
    // answered while the import keeps the same Redis busy, and on a busy
    // machine a slow answer must not become a 503.
    let app = App::builder()
        .redis_config(slugd::redis_conn::RedisConfig {
            response_timeout: std::time::Duration::from_secs(5),
            ..redis.config()
        })
        .spawn()
        .await;
    // The import's lines claim "title-k" and "title-k-2" among other
    // slugs all through its file, while live clients reserve the titles
    // "Title k" for owners l0.. at once.
    let mut input = String::new();
    let mut contested = 0;
    for n in 0..30_000 {
        let slug = match (n % 50, n / 50) {
            (0, c) if c % 2 == 0 => format!("title-{}", (c / 2) % 300),
            (0, c) => format!("title-{}-2", (c / 2) % 300),
            _ => format!("filler-{n}"),
        };
        contested += usize::from(n % 50 == 0);
        input.push_str(&format!("{{\"owner\": \"i{n}\", \"slug\": \"{slug}\"}}\n"));
    }
    let url = redis.url();
    let importing = tokio::task::spawn_blocking(move || {
        slugd(
            &["--redis-url", &url],
            &["import", "--scope", "posts", "-"],
            input.as_bytes(),
        )
    });
    let mut live = Vec::new();
    for client in 0..4 {
        let (url, http) = (app.url(""), app.client.clone());
        live.push(tokio::spawn(async move {
            let mut got = Vec::new();
            for n in 0..150 {
                let owner = format!("l{client}-{n}");
                let title = format!("Title {}", n * 2 % 300);
                let (s, b) = reserve(&url, &http, "posts", &owner, &title, json!({})).await;
                assert_eq!(s, 201, "{b}");
                got.push((owner, b["slug"].as_str().unwrap().to_owned()));
            }
            got
        }));
    }
    let out = importing.await.unwrap();
    // Each title's slug went to one owner: the import's other lines for it
    // were refused, as were those live clients took first.
    let stdout = text(&out.stdout);
    assert!(stdout.contains("30000 lines"), "{stdout}");
    let mut answered = Vec::new();
    for task in live {
        answered.extend(task.await.unwrap());
    }
    let slugs = check_consistent(&redis, "posts").await;
    let mut seen = BTreeMap::new();
    {
        for (owner, slug) in answered {
            assert_eq!(slugs.get(&slug), Some(&owner), "{slug}");
            assert!(seen.insert(slug, owner).is_none());
        }
    }
    for (slug, owner) in &slugs {
        if owner.starts_with('i') {
            assert!(!seen.contains_key(slug), "{slug} has two owners");
        }
    }
    let imported: u64 = stdout
        .split(", ")
        .find_map(|part| part.strip_suffix(" imported")?.parse().ok())
        .unwrap();
    let import_owned = slugs.values().filter(|o| o.starts_with('i')).count() as u64;
    assert_eq!(imported, import_owned, "{stdout}");
    assert_eq!(imported + 600, slugs.len() as u64);
    // Both sides won some of the contested slugs: they did race.
    let won = |live: bool| {
        slugs
            .iter()
            .filter(|(slug, owner)| slug.starts_with("title-") && owner.starts_with('l') == live)
            .count()
    };
    let (by_import, by_live) = (won(false), won(true));
    assert!(
        by_import > 0 && by_import < contested,
        "{by_import} of {contested}"
    );
    assert!(by_live > 0, "{by_live}");
}

#[tokio::test]
async fn an_editors_own_slug_is_reserved_exactly_or_refused_with_the_reason() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let own = |owner: &str, slug: &str, more: Value| {
        let mut body = json!({"scope": "posts", "owner": owner, "slug": slug});
        for (k, v) in more.as_object().cloned().unwrap_or_default() {
            body[k] = v;
        }
        body
    };
    let (s, b) = app
        .post("/reservations", &own("1", "my-own-slug", json!({})))
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("my-own-slug")), "{b}");
    // A retry: the same slug, 200.
    let (s, b) = app
        .post("/reservations", &own("1", "my-own-slug", json!({})))
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("my-own-slug")), "{b}");
    // Another owner: 409, with the next free slug of that base, and
    // nothing reserved.
    let before = snapshot(&redis).await;
    let (s, b) = app
        .post("/reservations", &own("2", "my-own-slug", json!({})))
        .await;
    assert_eq!((s, b["code"].as_str()), (409, Some("slug_taken")), "{b}");
    assert_eq!(b["suggestion"], "my-own-slug-2", "{b}");
    assert!(b["error"].as_str().unwrap().contains("is taken"), "{b}");
    assert_eq!(snapshot(&redis).await, before);
    // Not a slug under the request's options: 422, naming the slug.
    let (s, b) = app
        .post("/reservations", &own("2", "My Own Slug!", json!({})))
        .await;
    assert_eq!((s, b["code"].as_str()), (422, Some("not_a_slug")), "{b}");
    assert_eq!(b["slug"], "my-own-slug", "{b}");
    let (s, b) = app
        .post(
            "/reservations",
            &own("2", "My_Own", json!({"lowercase": false, "separator": "_"})),
        )
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("My_Own")), "{b}");
    let (s, b) = app
        .post(
            "/reservations",
            &json!({"scope": "posts", "owner": "2", "slug": "x", "title": "x"}),
        )
        .await;
    assert_eq!(
        (s, b["code"].as_str()),
        (422, Some("invalid_request")),
        "{b}"
    );
    // Holds: held, renewed, confirmed, as for titles.
    let (s, b) = app
        .post(
            "/reservations",
            &own("3", "draft-slug", json!({"hold_seconds": 60})),
        )
        .await;
    assert_eq!((s, b["state"].as_str()), (201, Some("held")), "{b}");
    let (s, b) = app
        .post("/reservations", &own("4", "draft-slug", json!({})))
        .await;
    assert_eq!(
        (s, b["suggestion"].as_str()),
        (409, Some("draft-slug-2")),
        "{b}"
    );
    let (s, b) = app
        .post("/reservations", &own("3", "draft-slug", json!({})))
        .await;
    assert_eq!((s, b["state"].as_str()), (200, Some("confirmed")), "{b}");
    // A title whose base is the editor's slug gets the next one.
    let (s, b) = app
        .reserve_with("posts", "5", "My Own Slug", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("my-own-slug-2")), "{b}");
    check_consistent(&redis, "posts").await;

    // A reserved word is refused, but to the owner that imported it.
    let app = App::builder()
        .redis(&redis)
        .reservations(ReservationSettings {
            reserved: std::sync::Arc::new(ReservedSlugs::new(["about"])),
            wait: None,
        })
        .spawn()
        .await;
    import(&redis, "posts", "{\"owner\": \"9\", \"slug\": \"about\"}\n");
    let (s, b) = app
        .post("/reservations", &own("9", "about", json!({})))
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("about")), "{b}");
    let (s, b) = app
        .post("/reservations", &own("10", "about", json!({})))
        .await;
    assert_eq!(
        (s, b["code"].as_str(), b["suggestion"].as_str()),
        (409, Some("slug_taken"), Some("about-2")),
        "{b}"
    );
    assert!(
        b["error"].as_str().unwrap().contains("reserved word"),
        "{b}"
    );
}

#[tokio::test]
async fn a_dry_run_answers_what_would_be_and_writes_nothing() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    app.reserve_with("posts", "1", "Hello World", json!({}))
        .await;
    app.reserve_with("posts", "2", "Draft", json!({"hold_seconds": 60}))
        .await;
    let before = snapshot(&redis).await;
    let dry = |owner: &str, what: Value| {
        let mut body = json!({"scope": "posts", "owner": owner, "dry_run": true});
        for (k, v) in what.as_object().cloned().unwrap_or_default() {
            body[k] = v;
        }
        body
    };
    for (owner, what, status, slug, state) in [
        (
            "3",
            json!({"title": "Hello World"}),
            201,
            "hello-world-2",
            "confirmed",
        ),
        (
            "1",
            json!({"title": "Hello World"}),
            200,
            "hello-world",
            "confirmed",
        ),
        (
            "3",
            json!({"title": "New One", "hold_seconds": 5}),
            201,
            "new-one",
            "held",
        ),
        ("2", json!({"title": "Draft"}), 200, "draft", "confirmed"),
        ("3", json!({"slug": "mine"}), 201, "mine", "confirmed"),
    ] {
        let (s, b) = app.post("/reservations", &dry(owner, what.clone())).await;
        assert_eq!(s, status, "{what}: {b}");
        assert_eq!(
            (b["slug"].as_str(), b["state"].as_str()),
            (Some(slug), Some(state)),
            "{b}"
        );
        assert_eq!(b["dry_run"], true, "{b}");
    }
    let (s, b) = app
        .post("/reservations", &dry("3", json!({"slug": "hello-world"})))
        .await;
    assert_eq!(
        (s, b["suggestion"].as_str()),
        (409, Some("hello-world-2")),
        "{b}"
    );
    assert_eq!(snapshot(&redis).await, before, "a dry run wrote");
    // And a real one gives what the dry run said.
    let (s, b) = app
        .reserve_with("posts", "3", "Hello World", json!({}))
        .await;
    assert_eq!(
        (s, b["slug"].as_str(), b.get("dry_run")),
        (201, Some("hello-world-2"), None)
    );
}

#[tokio::test]
async fn an_owners_history_and_the_export_give_back_the_same_scope_when_imported() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    for (owner, title, more) in [
        ("42", "Hello World", json!({})),
        ("42", "Hello Moon", json!({})),
        ("43", "Hello World", json!({})),
        ("44", "Hello Worlds", json!({"max_length": 12})),
        ("48", "Hello Worlds", json!({"max_length": 12})),
        ("45", "Draft", json!({"hold_seconds": 600})),
        ("46", "Привет мир", json!({"ascii": false, "rules": 5})),
    ] {
        let (s, b) = app.reserve_with("posts", owner, title, more).await;
        assert_eq!(s, 201, "{b}");
    }
    import(
        &redis,
        "posts",
        "{\"owner\": \"47\", \"slug\": \"Old_Post-3\"}\n",
    );
    let (s, b) = app.get("/reservations/posts/owners/42").await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b,
        json!({"scope": "posts", "owner": "42", "current": "hello-moon", "slugs": [
            {"slug": "hello-world", "state": "confirmed", "rules": 6},
            {"slug": "hello-moon", "state": "confirmed", "rules": 6}]})
    );
    let (_, b) = app.get("/reservations/posts/owners/45").await;
    assert_eq!(
        (b["current"].as_str(), b["slugs"][0]["state"].as_str()),
        (Some("draft"), Some("held")),
        "{b}"
    );
    assert!(b["slugs"][0]["held_until"].is_string(), "{b}");
    let (s, b) = app.get("/reservations/posts/owners/nobody").await;
    assert_eq!((s, b["code"].as_str()), (404, Some("not_reserved")), "{b}");

    // The export, over HTTP and by the CLI alike.
    let exported = export(&redis, "posts");
    let r = app
        .client
        .get(app.url("/reservations/posts"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    assert_eq!(r.text().await.unwrap(), exported);
    assert_eq!(exported.lines().count(), 8, "{exported}");
    assert!(
        exported.contains(r#"{"slug":"Old_Post-3","owner":"47","state":"confirmed","rules":0}"#),
        "{exported}"
    );
    // A stem cut shorter for max_length keeps its base.
    assert!(
        exported.contains(r#""owner":"48","state":"confirmed","rules":6,"base":"hello-worlds""#),
        "{exported}"
    );

    // Imported into an empty scope (over HTTP): the same scope.
    let (s, b) = app
        .post_raw(
            "/reservations/copy",
            "application/x-ndjson",
            exported.clone().into_bytes(),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["imported"].as_u64(), b["refused"].as_u64()),
        (Some(8), Some(0)),
        "{b}"
    );
    assert_eq!(export(&redis, "copy"), exported);
    for scope in ["posts", "copy"] {
        let (_, b) = app.get(&format!("/reservations/{scope}/hello-world")).await;
        assert_eq!(b["current"], "hello-moon", "{scope}: {b}");
        // The stem cut for max_length stays the base's: the owner gets
        // its slug back.
        let (s, b) = app
            .reserve_with(scope, "48", "Hello Worlds", json!({"max_length": 12}))
            .await;
        assert_eq!(
            (s, b["slug"].as_str()),
            (200, Some("hello-2")),
            "{scope}: {b}"
        );
    }
    check_consistent(&redis, "copy").await;
}

#[tokio::test]
async fn the_import_route_takes_ndjson_within_the_body_limit() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let (s, b) = app
        .post_raw("/reservations/posts", "application/json", b"{}".to_vec())
        .await;
    assert_eq!((s, b["code"].as_str()), (415, Some("not_ndjson")), "{b}");
    let body = "{\"owner\": \"1\", \"slug\": \"a\"}\n{\"owner\": \"2\", \"slug\": \"a\"}\nnope\n";
    let (s, b) = app
        .post_raw("/reservations/posts", "application/x-ndjson", body.into())
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b,
        json!({"scope": "posts", "lines": 3, "imported": 1, "unchanged": 0, "updated": 0, "refused": 2, "refusals": [
            {"line": 2, "slug": "a", "why": "taken: the slug is owner \"1\"'s, who keeps it"},
            {"line": 3, "why": "not JSON: expected ident at line 1 column 2"}]})
    );
    let big = "{\"owner\": \"1\", \"slug\": \"a\"}\n".repeat(40_000);
    let (s, b) = app
        .post_raw("/reservations/posts", "application/x-ndjson", big.into())
        .await;
    assert_eq!((s, b["code"].as_str()), (413, Some("too_large")), "{b}");
    // In-process there is nothing to import into.
    let app = App::in_process().await;
    let (s, b) = app
        .post_raw("/reservations/posts", "application/x-ndjson", body.into())
        .await;
    assert_eq!((s, b["code"].as_str()), (503, Some("needs_redis")), "{b}");
}

#[tokio::test]
async fn on_a_cluster_an_import_and_an_export_go_to_the_scopes_node() {
    let cluster = RedisCluster::start(3, 0).await;
    let seeds = cluster.seeds();
    let mut input = String::new();
    for n in 0..200 {
        input.push_str(&format!("{{\"owner\": \"{n}\", \"slug\": \"post-{n}\"}}\n"));
    }
    let args = ["--redis-cluster", seeds.as_str()];
    let out = slugd(
        &args,
        &["import", "--scope", "posts", "-"],
        input.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let mut holders = Vec::new();
    for node in &cluster.nodes {
        let keys: Vec<String> = node
            .query(redis::cmd("KEYS").arg("slugd:r:{posts}:*"))
            .await;
        if !keys.is_empty() {
            holders.push(node.port);
        }
    }
    assert_eq!(holders.len(), 1, "the scope is spread: {holders:?}");
    let out = slugd(&args, &["export", "--scope", "posts"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut exported: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    exported.sort_by_key(|v| v["owner"].as_str().unwrap().parse::<u32>().unwrap());
    assert_eq!(exported.len(), 200);
    assert_eq!(
        exported[7],
        json!({"slug": "post-7", "owner": "7", "state": "confirmed", "rules": 0})
    );
}

#[tokio::test]
async fn a_case_insensitive_scope_holds_one_slug_whatever_its_case() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let insensitive = json!({"case_insensitive": true});
    let sensitive = json!({"case_insensitive": false});
    let (s, b) = app.put("/reservations/wiki", &insensitive).await;
    assert_eq!(
        (s, b),
        (200, json!({"scope": "wiki", "case_insensitive": true}))
    );
    let upper = json!({"lowercase": false});
    let (s, b) = app
        .reserve_with("wiki", "1", "My Post", upper.clone())
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("My-Post")), "{b}");
    // Another title of another case: the next slug.
    let (s, b) = app.reserve_with("wiki", "2", "my post", json!({})).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("my-post-2")), "{b}");
    let (s, b) = app
        .reserve_with("wiki", "3", "MY POST", upper.clone())
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("MY-POST-3")), "{b}");
    // The owner's title in another case gives its slug back, as written.
    let (s, b) = app.reserve_with("wiki", "1", "my post", json!({})).await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("My-Post")), "{b}");
    // A look-up in any case finds it.
    let (s, b) = app.get("/reservations/wiki/MY-post").await;
    assert_eq!(
        (s, b["owner"].as_str(), b["current"].as_str()),
        (200, Some("1"), Some("My-Post")),
        "{b}"
    );
    // An editor's slug and an import line in another case are taken.
    let own = json!({"scope": "wiki", "owner": "4", "slug": "my-post"});
    let (s, b) = app.post("/reservations", &own).await;
    assert_eq!(
        (s, b["code"].as_str(), b["suggestion"].as_str()),
        (409, Some("slug_taken"), Some("my-post-4")),
        "{b}"
    );
    let out = import(
        &redis,
        "wiki",
        "{\"owner\": \"5\", \"slug\": \"MY-POST\"}\n",
    );
    assert!(
        text(&out.stderr).contains("taken: the slug is owner \"1\"'s"),
        "{}",
        text(&out.stderr)
    );
    // The setting stays once the scope has slugs.
    let (s, b) = app.put("/reservations/wiki", &sensitive).await;
    assert_eq!(
        (s, b["code"].as_str()),
        (409, Some("scope_has_keys")),
        "{b}"
    );
    // A scope's first slug makes its setting: case by case, fixed.
    app.reserve_with("used", "1", "Used", json!({})).await;
    let (s, b) = app.put("/reservations/used", &insensitive).await;
    assert_eq!(
        (s, b["code"].as_str()),
        (409, Some("scope_has_keys")),
        "{b}"
    );
    // A scope slugd wrote before the setting existed (no setting stored)
    // is found to have keys, and stays case by case.
    let sha1: String = redis
        .query(
            redis::cmd("EVAL")
                .arg("return redis.sha1hex(ARGV[1])")
                .arg(0)
                .arg("!case"),
        )
        .await;
    let case_key = format!("slugd:r:{{used}}:{}", &sha1[..4]);
    let removed: u64 = redis
        .query(redis::cmd("HDEL").arg(&case_key).arg("!case"))
        .await;
    assert_eq!(removed, 1);
    let (s, b) = app.put("/reservations/used", &insensitive).await;
    assert_eq!(
        (s, b["code"].as_str()),
        (409, Some("scope_has_keys")),
        "{b}"
    );
    let (s, b) = app.put("/reservations/used", &sensitive).await;
    assert_eq!(s, 200, "{b}");
    // A release frees the slug in every case.
    assert_eq!(app.delete("/reservations/wiki/1").await.0, 204);
    let (s, b) = app.post("/reservations", &own).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("my-post")), "{b}");
    check_consistent(&redis, "wiki").await;
    // Other scopes compare case by case, as before.
    let (s, b) = app.reserve_with("posts", "1", "My Post", upper).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("My-Post")), "{b}");
    let (s, b) = app.reserve_with("posts", "2", "my post", json!({})).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("my-post")), "{b}");
    // The import's flag makes an empty scope so.
    let out = slugd(
        &["--redis-url", &redis.url()],
        &["import", "--case-insensitive", "--scope", "fresh", "-"],
        b"{\"owner\": \"1\", \"slug\": \"A-b\"}\n{\"owner\": \"2\", \"slug\": \"a-B\"}\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("1 imported"),
        "{}",
        text(&out.stdout)
    );
}

#[tokio::test]
async fn an_import_asked_to_wait_for_a_replica_stops_without_one() {
    let (primary, _replica) = RedisServer::with_replica().await;
    let url = primary.url();
    // The replica acknowledges as soon as it has the batch: a generous
    // wait, so that a busy machine's slow acknowledgement is not taken
    // for a missing replica.
    let patient = [
        "import",
        "--reservation-replicas",
        "1",
        "--reservation-wait-ms",
        "60000",
        "--scope",
        "posts",
        "-",
    ];
    let out = slugd(
        &["--redis-url", &url],
        &patient,
        b"{\"owner\": \"1\", \"slug\": \"a\"}\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let args = [
        "import",
        "--reservation-replicas",
        "1",
        "--scope",
        "posts",
        "-",
    ];
    // A server with no replica: the batch stands on it, the import stops
    // saying why.
    let lone = RedisServer::start().await;
    let url = lone.url();
    let out = slugd(
        &["--redis-url", &url],
        &args,
        b"{\"owner\": \"1\", \"slug\": \"a\"}\n",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("replicas asked for"), "{stderr}");
    assert!(
        !text(&out.stdout).contains("imported"),
        "{}",
        text(&out.stdout)
    );
}
