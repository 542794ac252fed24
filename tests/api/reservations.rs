//! Reservations: unique slugs per scope across every instance, with each
//! owner's history, against real redis-server processes (one server, a
//! cluster, a replica, AOF on disk) and real `slugd serve` processes.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use slugd::load::LoadSettings;
use slugd::redis_conn::RedisConfig;
use slugd::reserve::{ReservationSettings, ReservedSlugs, WaitReplicas};

use crate::fixtures::{
    READER, RedisCluster, RedisServer, acl, load, load_settings, load_with, slugd_command,
};
use crate::helpers::{App, assert_says, path_segment};
use crate::serve_process::ServeProcess;

/// The ACL rules docs/reservations.md documents for a service that reads the table
/// and makes reservations, for prefix `slugd:`, with password `service-pw`.
const SERVICE: &str = "on >service-pw resetkeys %R~slugd:* ~slugd:r:* resetchannels &slugd:* -@all +get +hgetall +hmget +subscribe +ping +fcall +function|load +hget +hset +hsetnx +hexists +hdel +time +wait";

/// Not a speed figure: a bound far above the 300 ms response timeout the
/// tests use, which tells a prompt error from a hang.
const PROMPT: Duration = Duration::from_secs(3);

/// `POST /reservations` of `title` for `owner` in `scope`, with `options`
/// (a JSON object) added to the body.
pub(crate) async fn reserve(
    app_url: &str,
    client: &reqwest::Client,
    scope: &str,
    owner: &str,
    title: &str,
    options: Value,
) -> (u16, Value) {
    let mut body = json!({ "scope": scope, "owner": owner, "title": title });
    for (k, v) in options.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    let r = client
        .post(format!("{app_url}/reservations"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

impl App {
    async fn reserve(&self, owner: &str, title: &str) -> (u16, Value) {
        self.reserve_with("posts", owner, title, json!({})).await
    }

    pub(crate) async fn reserve_with(
        &self,
        scope: &str,
        owner: &str,
        title: &str,
        options: Value,
    ) -> (u16, Value) {
        reserve(&self.url(""), &self.client, scope, owner, title, options).await
    }

    /// The slug reserved; panics unless `status`.
    async fn reserved(&self, owner: &str, title: &str, status: u16) -> String {
        let (s, b) = self.reserve(owner, title).await;
        assert_eq!(s, status, "{owner} {title:?}: {b}");
        assert_eq!(b["owner"], owner);
        assert_eq!(b["scope"], "posts");
        b["slug"].as_str().unwrap().to_owned()
    }

    pub(crate) async fn delete(&self, path: &str) -> (u16, Value) {
        let r = self.client.delete(self.url(path)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }
}

/// A slug field's value: its owner, and when its hold lapses (Unix
/// milliseconds; `None`: confirmed).
pub(crate) fn slug_holder(value: &[u8]) -> (String, Option<u64>) {
    match value.split_first() {
        Some((0xFF, rest)) => {
            let text = std::str::from_utf8(rest).unwrap();
            let (until, owner) = text.split_once(' ').unwrap();
            (owner.to_owned(), Some(until.parse().unwrap()))
        }
        _ => (String::from_utf8(value.to_vec()).unwrap(), None),
    }
}

/// Reads every key of `scope` and checks the two sides agree: every slug's
/// owner lists it, every slug an owner lists as confirmed is held by that
/// owner, confirmed (a hold listed may have been lost to another owner
/// after it lapsed: the owner's next reservation drops it). Returns slug
/// -> owner.
pub(crate) async fn check_consistent(redis: &RedisServer, scope: &str) -> BTreeMap<String, String> {
    let keys: Vec<String> = redis
        .query(redis::cmd("KEYS").arg(format!("slugd:r:{{{scope}}}:*")))
        .await;
    let mut slugs = BTreeMap::new();
    let mut owners: HashMap<String, Vec<(String, bool)>> = HashMap::new();
    // In a scope that compares slugs without regard to case, a slug's
    // field is its lowercase form, and its owner's record has it as
    // written.
    let mut folded = false;
    for key in keys {
        let fields: Vec<(String, Vec<u8>)> = redis.query(redis::cmd("HGETALL").arg(&key)).await;
        for (field, value) in fields {
            if field == "!case" {
                folded = value == b"insensitive";
            } else if let Some(owner) = field.strip_prefix('=') {
                let list = String::from_utf8(value)
                    .unwrap()
                    .split(' ')
                    .map(|e| {
                        let slug = e.split([':', '/', '!', '@']).next().unwrap().to_owned();
                        (slug, e.ends_with('@'))
                    })
                    .collect();
                owners.insert(owner.to_owned(), list);
            } else if !field.starts_with('#') {
                slugs.insert(field, slug_holder(&value));
            }
        }
    }
    if folded {
        for list in owners.values_mut() {
            for (slug, _) in list.iter_mut() {
                *slug = slug.to_ascii_lowercase();
            }
        }
    }
    for (slug, (owner, _)) in &slugs {
        let list = owners
            .get(owner)
            .unwrap_or_else(|| panic!("{slug} held by {owner}, who has no record"));
        assert!(
            list.iter().any(|(s, _)| s == slug),
            "{owner}'s record {list:?} lacks {slug}"
        );
    }
    for (owner, list) in &owners {
        for (slug, hold) in list {
            let holder = slugs.get(slug).map(|(o, until)| (o, until.is_some()));
            if !hold {
                assert_eq!(
                    holder,
                    Some((owner, false)),
                    "{owner} lists {slug} as confirmed"
                );
            }
        }
    }
    slugs
        .into_iter()
        .map(|(slug, (owner, _))| (slug, owner))
        .collect()
}

#[tokio::test]
async fn the_first_free_slug_is_reserved_and_asking_again_gives_it_back() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.reserved("1", "Hello World", 201).await, "hello-world");
    // A retry, and a title with the same base slug: the same slug, 200.
    assert_eq!(app.reserved("1", "Hello World", 200).await, "hello-world");
    assert_eq!(app.reserved("1", "hello, world!", 200).await, "hello-world");
    assert_eq!(app.reserved("2", "Hello World", 201).await, "hello-world-2");
    assert_eq!(app.reserved("3", "Hello World", 201).await, "hello-world-3");
    assert_eq!(app.reserved("2", "Hello World", 200).await, "hello-world-2");
    // Symbols are named as in POST /slug.
    assert_eq!(
        app.reserved("4", "I ❤ Redis", 201).await,
        "i-heavy-heart-redis"
    );
    // A title that is itself numbered takes its own number further.
    assert_eq!(
        app.reserved("5", "Hello World 2", 201).await,
        "hello-world-2-2"
    );
    // Scopes are apart.
    let (s, b) = app
        .reserve_with("pages", "1", "Hello World", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("hello-world")), "{b}");
    check_consistent(&redis, "posts").await;
}

#[tokio::test]
async fn a_new_title_gets_a_new_slug_and_the_old_one_stays_the_owners() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.reserved("42", "Hello World", 201).await, "hello-world");
    assert_eq!(app.reserved("42", "Hello Moon", 201).await, "hello-moon");
    for slug in ["hello-world", "hello-moon"] {
        let (s, b) = app.get(&format!("/reservations/posts/{slug}")).await;
        assert_eq!(s, 200, "{b}");
        assert_eq!(
            b,
            json!({"scope": "posts", "slug": slug, "owner": "42", "current": "hello-moon", "rules": 6, "state": "confirmed"})
        );
    }
    // The old slug is still the owner's: another owner gets the next one.
    assert_eq!(app.reserved("7", "Hello World", 201).await, "hello-world-2");
    // Going back to the old title gives the old slug back, current again.
    assert_eq!(app.reserved("42", "Hello World", 200).await, "hello-world");
    let (_, b) = app.get("/reservations/posts/hello-moon").await;
    assert_eq!(b["current"], "hello-world", "{b}");
    let (s, b) = app.get("/reservations/posts/hello-mars").await;
    assert_eq!(s, 404, "{b}");
    assert_eq!(b["code"], "not_reserved");
    // Text no slug could be is never looked up: the owner records are
    // not reachable through it.
    let (s, _) = app.get("/reservations/posts/=42").await;
    assert_eq!(s, 404);
    check_consistent(&redis, "posts").await;
}

#[tokio::test]
async fn delete_frees_every_slug_of_the_owner_for_others() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    app.reserved("42", "Hello World", 201).await;
    app.reserved("42", "Hello Moon", 201).await;
    app.reserved("7", "Hello Sun", 201).await;
    let (s, b) = app.delete("/reservations/posts/42").await;
    assert_eq!(s, 204, "{b}");
    for slug in ["hello-world", "hello-moon"] {
        let (s, _) = app.get(&format!("/reservations/posts/{slug}")).await;
        assert_eq!(s, 404, "{slug} still held");
    }
    let (s, _) = app.get("/reservations/posts/hello-sun").await;
    assert_eq!(s, 200, "another owner's slug stays");
    assert_eq!(app.reserved("8", "Hello World", 201).await, "hello-world");
    assert_eq!(app.reserved("8", "Hello Moon", 201).await, "hello-moon");
    let (s, b) = app.delete("/reservations/posts/42").await;
    assert_eq!(s, 404, "{b}");
    assert_eq!(b["code"], "not_reserved");
    // An owner with characters a path must encode.
    app.reserved("a/b c", "Slash", 201).await;
    let (s, b) = app.delete("/reservations/posts/a%2Fb%20c").await;
    assert_eq!(s, 204, "{b}");
    let slugs = check_consistent(&redis, "posts").await;
    assert_eq!(slugs.len(), 3, "{slugs:?}");
}

#[tokio::test]
async fn reserved_words_are_never_handed_out() {
    let redis = RedisServer::start().await;
    let app = App::builder()
        .redis(&redis)
        .reservations(ReservationSettings {
            reserved: Arc::new(ReservedSlugs::new(["new", "new-2", "edit", "admin"])),
            ..Default::default()
        })
        .spawn()
        .await;
    assert_eq!(app.reserved("1", "New", 201).await, "new-3");
    assert_eq!(app.reserved("2", "New!", 201).await, "new-4");
    assert_eq!(app.reserved("3", "Edit", 201).await, "edit-2");
    let (s, b) = app
        .reserve_with("posts", "4", "Admin", json!({"lowercase": false}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("Admin-2")), "{b}");
    assert_eq!(app.reserved("5", "Newt", 201).await, "newt");
}

#[tokio::test]
async fn the_binary_reads_reserved_slugs_from_the_file_in_the_environment() {
    let redis = RedisServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reserved.txt");
    std::fs::write(&file, "# our routes\nnew\nedit\n").unwrap();
    let serve = ServeProcess::builder()
        .log("warn")
        .args(["--redis-url", &redis.url()])
        .env("SLUGD_RESERVED_SLUGS", &file)
        .start()
        .await;
    serve.wait_until_ok("/healthz").await;
    let client = reqwest::Client::new();
    let (s, b) = reserve(&serve.url(""), &client, "posts", "1", "New", json!({})).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("new-2")), "{b}");

    std::fs::write(&file, "new\nnot a slug\n").unwrap();
    let out = slugd_command()
        .args(["serve", "--listen", "127.0.0.1:0", "--reserved-slugs"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--reserved-slugs")
            && err.contains("reserved.txt:2: \"not a slug\" is not a slug"),
        "{err}"
    );
}

#[tokio::test]
async fn max_length_leaves_room_for_the_suffix_in_the_requests_separator() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let title = "The quick brown fox";
    let options = json!({"max_length": 12, "separator": "_"});
    let mut got = Vec::new();
    for owner in 0..12 {
        let (s, b) = app
            .reserve_with("posts", &owner.to_string(), title, options.clone())
            .await;
        assert_eq!(s, 201, "{b}");
        got.push(b["slug"].as_str().unwrap().to_owned());
    }
    assert_eq!(got[..3], ["the_quick", "the_quick_2", "the_quick_3"]);
    // Two digits still fit after `the_quick`: 12 characters.
    assert_eq!(got[9], "the_quick_10");
    assert!(got.iter().all(|s| s.len() <= 12), "{got:?}");
    // Where the suffix does not fit, the stem is cut at a word boundary.
    let short = json!({"max_length": 9, "separator": "~"});
    let mut got = Vec::new();
    for owner in ["a", "b", "c"] {
        let (s, b) = app.reserve_with("short", owner, title, short.clone()).await;
        assert_eq!(s, 201, "{b}");
        got.push(b["slug"].as_str().unwrap().to_owned());
    }
    assert_eq!(got, ["the~quick", "the~2", "the~3"]);
    // A retry finds the numbered slug of a cut stem, and of a whole one.
    let (s, b) = app.reserve_with("short", "b", title, short.clone()).await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("the~2")), "{b}");
    let (s, b) = app.reserve_with("posts", "1", title, options).await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("the_quick_2")), "{b}");
    // Nothing fits: a clear 409.
    let one = json!({"max_length": 2});
    assert_eq!(
        app.reserve_with("tiny", "a", "Ab", one.clone()).await.0,
        201
    );
    let (s, b) = app.reserve_with("tiny", "b", "Ab", one).await;
    assert_eq!(s, 409, "{b}");
    assert_eq!(b["code"], "no_free_slug");
    assert_says(&b, "max_length 2");
}

#[tokio::test]
async fn bad_input_is_a_422_that_names_the_field() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let long = "x".repeat(201);
    let cases = [
        (json!({"owner": "1", "title": "t"}), "scope"),
        (json!({"scope": "", "owner": "1", "title": "t"}), "scope"),
        (json!({"scope": long, "owner": "1", "title": "t"}), "scope"),
        (json!({"scope": 5, "owner": "1", "title": "t"}), "scope"),
        (json!({"scope": "p", "title": "t"}), "owner"),
        (json!({"scope": "p", "owner": "", "title": "t"}), "owner"),
        (json!({"scope": "p", "owner": long, "title": "t"}), "owner"),
        (json!({"scope": "p", "owner": 42, "title": "t"}), "owner"),
        (json!({"scope": "p", "owner": "1"}), "title"),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "separator": "/"}),
            "separator",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "max_length": 0}),
            "max_length",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "tilte": "x"}),
            "tilte",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "max_length": "x"}),
            "max_length",
        ),
        (json!({"scope": "p", "owner": "1", "title": 7}), "title"),
        (
            json!({"scope": "p", "owner": "1", "title": "x".repeat(600)}),
            "max_length",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "hold_seconds": 0}),
            "hold_seconds must be a whole number of seconds from 1 to 31536000",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "hold_seconds": -5}),
            "hold_seconds",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "hold_seconds": "60"}),
            "hold_seconds",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "hold_seconds": 1.5}),
            "hold_seconds",
        ),
        (
            json!({"scope": "p", "owner": "1", "title": "t", "hold_seconds": 31536001}),
            "hold_seconds",
        ),
    ];
    for (body, field) in cases {
        let (s, b) = app.post("/reservations", &body).await;
        assert_eq!(s, 422, "{body}: {b}");
        assert_eq!(b["code"], "invalid_request", "{b}");
        assert_says(&b, field);
    }
    let (s, b) = app
        .post(
            "/reservations",
            &json!({"scope": "p", "owner": "1", "title": "!!!"}),
        )
        .await;
    assert_eq!((s, b["code"].as_str()), (422, Some("empty_slug")), "{b}");
    let (s, b) = app.get(&format!("/reservations/{long}/x")).await;
    assert_eq!(s, 422, "{b}");
    assert_says(&b, "scope");
    let (s, b) = app.delete(&format!("/reservations/posts/{long}")).await;
    assert_eq!(s, 422, "{b}");
    assert_says(&b, "owner");
    let (s, b) = app.post("/reservations", &json!(["posts"])).await;
    assert_eq!(s, 422, "{b}");
    // Nothing was reserved by any of it.
    let keys: Vec<String> = redis.query(redis::cmd("KEYS").arg("slugd:r:*")).await;
    assert!(keys.is_empty(), "{keys:?}");
}

#[tokio::test]
async fn in_process_the_routes_say_they_need_redis() {
    let app = App::in_process().await;
    let (s, b) = app
        .post(
            "/reservations",
            &json!({"scope": "p", "owner": "1", "title": "t"}),
        )
        .await;
    assert_eq!(s, 503, "{b}");
    assert_eq!(b["code"], "needs_redis");
    assert_says(&b, "--redis-url");
    let (s, b) = app.get("/reservations/p/t").await;
    assert_eq!((s, b["code"].as_str()), (503, Some("needs_redis")));
    let (s, b) = app.delete("/reservations/p/1").await;
    assert_eq!((s, b["code"].as_str()), (503, Some("needs_redis")));
}

/// `slugd serve` on `redis`, ready; its URL.
async fn instance(redis: &RedisServer) -> (ServeProcess, String) {
    let serve = ServeProcess::builder()
        .log("warn")
        .args(["--redis-url", &redis.url()])
        .start()
        .await;
    serve.wait_until_ok("/readyz").await;
    let url = serve.url("");
    (serve, url)
}

#[tokio::test]
async fn three_instances_and_48_clients_on_the_same_titles_never_share_a_slug() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let instances = [
        instance(&redis).await,
        instance(&redis).await,
        instance(&redis).await,
    ];
    let titles = ["Hello World", "I ❤ Redis", "Breaking news", "New post"];
    let clients = 48;
    let client = reqwest::Client::new();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let url = instances[c % 3].1.clone();
            let other = instances[(c + 1) % 3].1.clone();
            let client = client.clone();
            tokio::spawn(async move {
                let mut got = Vec::new();
                for (t, title) in titles.iter().enumerate() {
                    let owner = format!("c{c}-t{t}");
                    let (s, b) = reserve(&url, &client, "posts", &owner, title, json!({})).await;
                    assert_eq!(s, 201, "{b}");
                    let slug = b["slug"].as_str().unwrap().to_owned();
                    // A retry through another instance: the same slug.
                    let (s, b) = reserve(&other, &client, "posts", &owner, title, json!({})).await;
                    assert_eq!((s, b["slug"].as_str()), (200, Some(slug.as_str())));
                    got.push((owner, t, slug));
                }
                got
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    let distinct: BTreeSet<&str> = all.iter().map(|(_, _, s)| s.as_str()).collect();
    assert_eq!(distinct.len(), all.len(), "a slug was handed out twice");
    // Per title, exactly the base and -2 .. -48.
    let bases = [
        "hello-world",
        "i-heavy-heart-redis",
        "breaking-news",
        "new-post",
    ];
    for (t, base) in bases.iter().enumerate() {
        let got: BTreeSet<&str> = all
            .iter()
            .filter(|(_, i, _)| *i == t)
            .map(|(_, _, s)| s.as_str())
            .collect();
        let want: BTreeSet<String> = std::iter::once(base.to_string())
            .chain((2..=clients).map(|n| format!("{base}-{n}")))
            .collect();
        assert_eq!(got, want.iter().map(String::as_str).collect());
    }
    // Every instance agrees on every holder.
    for (i, (owner, _, slug)) in all.iter().enumerate() {
        let url = format!("{}/reservations/posts/{slug}", instances[i % 3].1);
        let b: Value = client.get(url).send().await.unwrap().json().await.unwrap();
        assert_eq!(b["owner"], owner.as_str(), "{b}");
    }
    assert_eq!(check_consistent(&redis, "posts").await.len(), all.len());
    // The functions' first use on this fresh Redis: the calls that came
    // before the first FUNCTION LOAD landed were refused (the function not
    // loaded yet), each loaded the library and was sent again, and the
    // answers above are right with them.
    let commands: String = redis.query(redis::cmd("INFO").arg("commandstats")).await;
    let stat = |command: &str, field: &str| -> u64 {
        commands
            .lines()
            .find_map(|l| l.strip_prefix(&format!("cmdstat_{command}:")))
            .unwrap_or_default()
            .split(',')
            .find_map(|f| f.strip_prefix(&format!("{field}=")))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    };
    let loads = stat("function|load", "calls");
    assert!(
        (1..=stat("fcall", "failed_calls").max(1)).contains(&loads),
        "{commands}"
    );
    let libraries: redis::Value = redis
        .query(
            redis::cmd("FUNCTION")
                .arg("LIST")
                .arg("LIBRARYNAME")
                .arg("slugd_reservations_*"),
        )
        .await;
    assert!(
        matches!(&libraries, redis::Value::Array(l) if l.len() == 1),
        "{libraries:?}"
    );
}

#[tokio::test]
async fn a_stalled_or_dead_redis_gives_a_prompt_503_and_no_half_made_reservation() {
    let mut redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.reserved("1", "Hello World", 201).await, "hello-world");

    redis.signal("STOP");
    for owner in ["2", "3"] {
        let started = Instant::now();
        let (s, b) = app.reserve(owner, "Hello World").await;
        assert!(started.elapsed() < PROMPT, "took {:?}", started.elapsed());
        assert_eq!(s, 503, "{b}");
        assert_eq!(b["code"], "reservations_unavailable");
        assert_says(&b, "ask again");
    }
    let started = Instant::now();
    let (s, _) = app.get("/reservations/posts/hello-world").await;
    assert!(started.elapsed() < PROMPT);
    assert_eq!(s, 503);
    redis.signal("CONT");
    // Redis may still run what was queued before the stall: asking again
    // gives each owner one slug, whichever request made it. Asked until
    // answered, within a generous bound: a busy machine may be slow to
    // come back.
    let mut seen = BTreeSet::new();
    for owner in ["2", "3"] {
        let deadline = Instant::now() + Duration::from_secs(30);
        let slug = loop {
            let (s, b) = app.reserve(owner, "Hello World").await;
            if s == 200 || s == 201 {
                break b["slug"].as_str().unwrap().to_owned();
            }
            assert!(Instant::now() < deadline, "not back: {s} {b}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(seen.insert(slug));
    }
    let slugs = check_consistent(&redis, "posts").await;
    assert_eq!(slugs.len(), 3, "{slugs:?}");

    redis.kill();
    let started = Instant::now();
    let (s, b) = app.reserve("4", "Hello World").await;
    assert!(started.elapsed() < PROMPT, "took {:?}", started.elapsed());
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("reservations_unavailable")),
        "{b}"
    );
}

/// Every reservation key, sorted.
async fn reservation_keys(redis: &RedisServer) -> Vec<String> {
    let mut keys: Vec<String> = redis.query(redis::cmd("KEYS").arg("slugd:r:*")).await;
    keys.sort();
    keys
}

#[tokio::test]
async fn slugd_load_between_reservations_leaves_them_intact() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let mut want = Vec::new();
    for (owner, title) in [
        ("1", "Hello World"),
        ("2", "Hello World"),
        ("3", "I ❤ Redis"),
    ] {
        want.push((owner, app.reserved(owner, title, 201).await));
    }
    let before = reservation_keys(&redis).await;
    // Two loads: the second removes the first's version and every leftover.
    load(&redis).await;
    load(&redis).await;
    assert_eq!(reservation_keys(&redis).await, before);
    for (owner, slug) in &want {
        let (s, b) = app.get(&format!("/reservations/posts/{slug}")).await;
        assert_eq!((s, b["owner"].as_str()), (200, Some(*owner)), "{b}");
    }
    assert_eq!(app.reserved("4", "Hello World", 201).await, "hello-world-3");
    check_consistent(&redis, "posts").await;
}

#[tokio::test]
async fn with_aof_and_appendfsync_always_a_sigkill_loses_no_acknowledged_reservation() {
    let mut redis = RedisServer::builder()
        .args(&["--appendonly", "yes", "--appendfsync", "always"])
        .start()
        .await;
    let app = App::on_redis(&redis).await;
    sigkill_loses_no_acknowledged_reservation(&mut redis, &app).await;
}

/// docker-compose.yml's Redis, outside Docker: redis-server with every
/// directive of `deploy/redis.conf` and the users of
/// `deploy/redis-users.acl` as `scripts/redis-secrets.sh` makes them into
/// the compose secret (each password as its hash), the loader and the service each
/// under its own user, as the compose file runs them. A SIGKILL of
/// redis-server while clients reserve loses no acknowledged reservation,
/// and no command is refused (`ACL LOG` is empty). Only the `default`
/// user differs: the deployment lets it PING alone; here it is the test's
/// own, for its looks into Redis.
#[tokio::test]
async fn the_compose_redis_settings_keep_reservations_under_the_compose_users() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let conf = std::fs::read_to_string(root.join("deploy/redis.conf")).unwrap();
    let mut args: Vec<String> = Vec::new();
    for line in conf.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        args.push(format!("--{key}"));
        args.push(match value.trim() {
            "\"\"" => String::new(),
            value => value.to_owned(),
        });
    }
    assert!(
        args.windows(2).any(|w| w == ["--appendfsync", "always"]),
        "{args:?}"
    );
    // The secrets as `scripts/redis-secrets.sh` makes them for compose.
    let secrets = tempfile::tempdir().unwrap();
    let made = std::process::Command::new(root.join("scripts/redis-secrets.sh"))
        .arg(secrets.path())
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let env = std::fs::read_to_string(secrets.path().join(".env")).unwrap();
    let password = |name: &str| {
        let line = env.lines().find(|l| l.starts_with(name)).unwrap();
        line[name.len() + 1..].to_owned()
    };
    let (loader_pw, service_pw) = (
        password("SLUGD_LOADER_PASSWORD"),
        password("SLUGD_SERVICE_PASSWORD"),
    );
    let acl_file = secrets.path().join("secrets/redis-users.acl");
    let users = std::fs::read_to_string(&acl_file).unwrap();
    assert!(
        !users.contains(&loader_pw) && !users.contains(&service_pw),
        "the file holds hashes only"
    );
    let default = users
        .lines()
        .find(|l| l.starts_with("user default "))
        .unwrap();
    assert!(default.ends_with("-@all +ping"), "{default}");
    let users = users.replace(default, "user default on nopass ~* &* +@all");
    std::fs::write(&acl_file, users).unwrap();
    args.push("--aclfile".into());
    args.push(acl_file.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut redis = RedisServer::builder().args(&args).start().await;

    load_with(LoadSettings {
        redis: redis.config_as("slugd-loader", &loader_pw),
        ..load_settings(&redis)
    })
    .await;
    let app = App::builder()
        .redis_config(redis.config_as("slugd-service", &service_pw))
        .spawn()
        .await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    sigkill_loses_no_acknowledged_reservation(&mut redis, &app).await;
    let denied: Vec<redis::Value> = redis.query(redis::cmd("ACL").arg("LOG")).await;
    assert!(denied.is_empty(), "ACL LOG: {denied:?}");
}

/// Clients reserve as fast as they can while `redis` (with the
/// append-only file on) is SIGKILLed; after its restart every reservation
/// that was acknowledged is there, and the scope is consistent.
async fn sigkill_loses_no_acknowledged_reservation(redis: &mut RedisServer, app: &App) {
    let acked = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    // Clients reserving as fast as they can while redis-server is killed.
    let tasks: Vec<_> = (0..8)
        .map(|c| {
            let (url, client, acked) = (app.url(""), app.client.clone(), acked.clone());
            tokio::spawn(async move {
                for i in 0.. {
                    let owner = format!("c{c}-{i}");
                    let (s, b) =
                        reserve(&url, &client, "posts", &owner, "Hello World", json!({})).await;
                    match s {
                        201 => acked
                            .lock()
                            .unwrap()
                            .push((owner, b["slug"].as_str().unwrap().to_owned())),
                        503 => return,
                        _ => panic!("{s} {b}"),
                    }
                }
            })
        })
        .collect();
    // Redis is killed once more than ten reservations are acknowledged,
    // with the clients still reserving.
    let deadline = Instant::now() + Duration::from_secs(20);
    while acked.lock().unwrap().len() <= 10 {
        assert!(Instant::now() < deadline, "the clients got no reservations");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    redis.kill();
    for task in tasks {
        task.await.unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() > 10,
        "only {} reservations before the kill",
        acked.len()
    );
    redis.restart_after_kill().await;
    // A 503 means the service is not back on Redis yet, so it is asked
    // again, within a generous bound for all of them: on a busy machine
    // the reconnection may be slow, and a slug it hides is not a lost one.
    let mut lost = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    for (owner, slug) in &acked {
        loop {
            let (s, b) = app.get(&format!("/reservations/posts/{slug}")).await;
            if s == 503 && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            if s != 200 || b["owner"] != owner.as_str() {
                lost.push((owner, slug, s));
            }
            break;
        }
    }
    assert!(
        lost.is_empty(),
        "lost {} of {}: {lost:?}",
        lost.len(),
        acked.len()
    );
    eprintln!(
        "{} acknowledged reservations, all there after SIGKILL and restart",
        acked.len()
    );
    check_consistent(redis, "posts").await;
    // The functions came back with the data: the look-ups above ran them
    // without loading them again.
    let commands: String = redis.query(redis::cmd("INFO").arg("commandstats")).await;
    assert!(commands.contains("cmdstat_fcall:"), "{commands}");
    assert!(!commands.contains("cmdstat_function|load:"), "{commands}");
}

/// `GET` of `url` (a whole URL): status and JSON body.
async fn get(client: &reqwest::Client, url: &str) -> (u16, Value) {
    let r = client.get(url).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn after_redis_restarts_the_first_request_to_each_instance_is_answered() {
    let mut redis = RedisServer::builder()
        .args(&["--appendonly", "yes"])
        .start()
        .await;
    load(&redis).await;
    // Every write on disk before its answer from here on (the table's
    // many writes go faster without).
    let _: () = redis
        .query(
            redis::cmd("CONFIG")
                .arg("SET")
                .arg("appendfsync")
                .arg("always"),
        )
        .await;
    // The table's periodic check (once at start, then once a minute) does
    // not reconnect for the requests: they meet the dead connection first.
    let mut instances = Vec::new();
    for _ in 0..3 {
        let serve = ServeProcess::builder()
            .log("warn")
            .args([
                "--redis-url",
                &redis.url(),
                "--refresh-interval-ms",
                "60000",
            ])
            .start()
            .await;
        serve.wait_until_ok("/readyz").await;
        let url = serve.url("");
        instances.push((serve, url));
    }
    let client = reqwest::Client::new();
    // Each instance reserves, so each has its connections open when Redis
    // dies.
    let mut acked = Vec::new();
    for (i, (_, url)) in instances.iter().enumerate() {
        for title in ["Hello World", "I ❤ Redis"] {
            let owner = format!("i{i}-{title}");
            let (s, b) = reserve(url, &client, "posts", &owner, title, json!({})).await;
            assert_eq!(s, 201, "{b}");
            acked.push((owner, b["slug"].as_str().unwrap().to_owned()));
        }
    }
    let lookup = |i: usize, slug: &str| format!("{}/reservations/posts/{slug}", instances[i].1);

    redis.kill();
    // While Redis is down: a prompt 503, and instance 0 tries to connect
    // anew and fails; a second later its attempts (two, 50 ms apart) are
    // surely over, so its first request once Redis is back meets their
    // "connection refused".
    let started = Instant::now();
    let (s, b) = get(&client, &lookup(0, &acked[0].1)).await;
    assert!(started.elapsed() < PROMPT, "took {:?}", started.elapsed());
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("reservations_unavailable")),
        "{b}"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    redis.restart_after_kill().await;

    // The first request to each instance once Redis is back, one of each
    // kind: a look-up, a retried reservation (200), a new one whose title
    // needs a name the instance has not fetched yet (201).
    let (owner, slug) = &acked[0];
    let (s, b) = get(&client, &lookup(0, slug)).await;
    assert_eq!((s, b["owner"].as_str()), (200, Some(owner.as_str())), "{b}");
    let (owner, slug) = &acked[3];
    let (s, b) = reserve(
        &instances[1].1,
        &client,
        "posts",
        owner,
        "I ❤ Redis",
        json!({}),
    )
    .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some(slug.as_str())), "{b}");
    let (s, b) = reserve(
        &instances[2].1,
        &client,
        "posts",
        "new",
        "Snow ☃ day",
        json!({}),
    )
    .await;
    assert_eq!(
        (s, b["slug"].as_str()),
        (201, Some("snow-snowman-day")),
        "{b}"
    );

    // Every reservation acknowledged before the kill is there.
    for (i, (owner, slug)) in acked.iter().enumerate() {
        let (s, b) = get(&client, &lookup(i % 3, slug)).await;
        assert_eq!((s, b["owner"].as_str()), (200, Some(owner.as_str())), "{b}");
    }
    assert_eq!(
        check_consistent(&redis, "posts").await.len(),
        acked.len() + 1
    );
}

#[tokio::test]
async fn on_a_cluster_each_scope_lives_on_one_node() {
    let cluster = RedisCluster::start(3, 0).await;
    cluster.load().await;
    let app = App::builder()
        .redis_config(cluster.config(false))
        .spawn()
        .await;
    let scopes = ["posts", "pages", "a}b", "{x}", "%7D"];
    for scope in scopes {
        for owner in 0..30 {
            let (s, b) = app
                .reserve_with(
                    scope,
                    &owner.to_string(),
                    &format!("Title {}", owner % 3),
                    json!({}),
                )
                .await;
            assert_eq!(s, 201, "{scope}: {b}");
        }
        let encoded = scope.replace('%', "%25").replace('}', "%7D");
        let mut holders = Vec::new();
        for node in &cluster.nodes {
            let keys: Vec<String> = node
                .query(redis::cmd("KEYS").arg(format!("slugd:r:{{{encoded}}}:*")))
                .await;
            if !keys.is_empty() {
                holders.push((node.port, keys.len()));
            }
        }
        assert_eq!(holders.len(), 1, "{scope} is spread: {holders:?}");
        let (s, b) = app
            .get(&format!("/reservations/{}/title-1-2", path_segment(scope)))
            .await;
        assert_eq!((s, b["owner"].as_str()), (200, Some("4")), "{scope}: {b}");
    }
    let (s, _) = app.delete("/reservations/posts/4").await;
    assert_eq!(s, 204);
    assert_eq!(app.get("/reservations/posts/title-1-2").await.0, 404);
    // Suffixes go on from the highest handed out: a freed number is not
    // handed out again to another title.
    assert_eq!(app.reserve("99", "Title 1").await.1["slug"], "title-1-11");
    // But a title whose own slug it is gets it.
    assert_eq!(app.reserve("98", "Title 1 2").await.1["slug"], "title-1-2");
    // Holds read the node's clock in the function; one is held, then
    // confirmed, on the scope's node.
    let (s, b) = app
        .reserve_with("pages", "97", "Draft", json!({"hold_seconds": 60}))
        .await;
    assert_eq!((s, &b["state"]), (201, &json!("held")), "{b}");
    let (_, b) = app.get("/reservations/pages/draft").await;
    assert_eq!(
        (&b["owner"], &b["state"]),
        (&json!("97"), &json!("held")),
        "{b}"
    );
    let (s, b) = app.reserve_with("pages", "97", "Draft", json!({})).await;
    assert_eq!((s, &b["state"]), (200, &json!("confirmed")), "{b}");
}

#[tokio::test]
async fn wait_answers_once_the_replica_has_it_and_503_without_one() {
    let (primary, replica) = RedisServer::with_replica().await;
    let wait = |replicas, ms| ReservationSettings {
        wait: Some(WaitReplicas::replicas(replicas, Duration::from_millis(ms))),
        ..Default::default()
    };
    // A generous response timeout: this test is about what WAIT says, and
    // a busy test machine must not turn that into a timeout.
    let generous = RedisConfig {
        response_timeout: Duration::from_secs(2),
        ..primary.config()
    };
    let app = App::builder()
        .redis_config(generous.clone())
        // WAIT answers as soon as the replica has the write: a generous
        // wait, so that a busy machine's slow acknowledgement is not taken
        // for a missing replica. With the response timeout it stays well
        // inside the test client's timeout of 20 s.
        .reservations(wait(1, 10_000))
        .spawn()
        .await;
    // The replica is in sync once it has acknowledged a write.
    let body = json!({ "scope": "posts", "owner": "1", "title": "Hello World" });
    let (_, b) = app
        .post_until_served(
            "/reservations",
            &body,
            Some("not_replicated"),
            Duration::from_secs(30),
        )
        .await
        .expect("the replica never confirmed");
    assert_eq!(b["slug"], "hello-world");
    assert_eq!(app.reserved("2", "Hello World", 201).await, "hello-world-2");
    // Both are on the replica already.
    let mut on_replica = 0;
    for key in reservation_keys(&replica).await {
        let fields: Vec<String> = replica.query(redis::cmd("HKEYS").arg(&key)).await;
        on_replica += fields
            .iter()
            .filter(|f| f.starts_with("hello-world"))
            .count();
    }
    assert_eq!(on_replica, 2);

    // Two replicas asked for, one there: a prompt 503 that says so, and the
    // same request answers the same slug again.
    let app = App::builder()
        .redis_config(generous)
        .reservations(wait(2, 200))
        .spawn()
        .await;
    let started = Instant::now();
    let (s, b) = app.reserve("3", "Hello World").await;
    assert!(started.elapsed() < PROMPT);
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("not_replicated")),
        "{b}"
    );
    assert_says(&b, "hello-world-3");
    assert_says(&b, "only 1 of the 2 replicas");
    let (s, b) = app.reserve("3", "Hello World").await;
    assert_eq!(s, 503, "{b}");
    assert_says(&b, "hello-world-3");
}

#[tokio::test]
async fn the_documented_service_user_reserves_and_cannot_write_the_table() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    acl(&redis, "slugd-service", SERVICE).await;
    acl(&redis, "slugd-reader", READER).await;
    let app = App::builder()
        .redis_config(redis.config_as("slugd-service", "service-pw"))
        .spawn()
        .await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    assert_eq!(
        app.reserved("1", "I ❤ Redis", 201).await,
        "i-heavy-heart-redis"
    );
    assert_eq!(
        app.reserved("2", "I ❤ Redis", 201).await,
        "i-heavy-heart-redis-2"
    );
    let (s, b) = app.get("/reservations/posts/i-heavy-heart-redis-2").await;
    assert_eq!(s, 200, "{b}");
    // A hold reads the server's time (TIME) inside the function.
    let (s, b) = app
        .reserve_with("posts", "3", "I ❤ Redis", json!({"hold_seconds": 60}))
        .await;
    assert_eq!((s, &b["state"]), (201, &json!("held")), "{b}");
    let (s, b) = app.get("/reservations/posts/i-heavy-heart-redis-3").await;
    assert_eq!((s, &b["state"]), (200, &json!("held")), "{b}");
    assert_eq!(app.delete("/reservations/posts/2").await.0, 204);
    // Bringing a site needs nothing more: an import, an editor's slug, a
    // dry run, the history and the export.
    let (s, b) = app
        .post_raw(
            "/reservations/posts",
            "application/x-ndjson",
            b"{\"owner\": \"4\", \"slug\": \"Old_Post\"}\n".to_vec(),
        )
        .await;
    assert_eq!((s, &b["imported"]), (200, &json!(1)), "{b}");
    let own = json!({"scope": "posts", "owner": "5", "slug": "own", "dry_run": true});
    assert_eq!(app.post("/reservations", &own).await.0, 201);
    let own = json!({"scope": "posts", "owner": "5", "slug": "own"});
    assert_eq!(app.post("/reservations", &own).await.0, 201);
    let (s, b) = app.get("/reservations/posts/owners/1").await;
    assert_eq!(
        (s, &b["current"]),
        (200, &json!("i-heavy-heart-redis")),
        "{b}"
    );
    let exported = app
        .client
        .get(app.url("/reservations/posts"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(exported.lines().count(), 4, "{exported}");
    let denied: Vec<redis::Value> = redis.query(redis::cmd("ACL").arg("LOG")).await;
    assert!(denied.is_empty(), "ACL LOG: {denied:?}");

    // Neither the service's user nor the reader's may write the table.
    let version: String = redis
        .query(redis::cmd("GET").arg("slugd:{ctl}:current"))
        .await;
    let bucket = format!("slugd:t:{version}:26");
    for (user, password) in [
        ("slugd-service", "service-pw"),
        ("slugd-reader", "reader-pw"),
    ] {
        let mut conn = slugd::redis_conn::Conn::for_loader(&redis.config_as(user, password))
            .await
            .unwrap();
        for cmd in [
            redis::cmd("HSET").arg(&bucket).arg(3).arg("x").clone(),
            redis::cmd("EVAL")
                .arg("return redis.call('HSET', KEYS[1], 3, 'x')")
                .arg(1)
                .arg(&bucket)
                .clone(),
            redis::cmd("HDEL")
                .arg("slugd:{ctl}:current")
                .arg("x")
                .clone(),
        ] {
            let r: redis::RedisResult<redis::Value> = cmd.query_async(&mut conn).await;
            let e = r.expect_err("a write to the table must be refused");
            let e = e.to_string();
            assert!(
                e.contains("NOPERM") || e.contains("permission") || e.contains("can't"),
                "{user}: {e}"
            );
        }
    }
    // The reader's user cannot make reservations either.
    let reader = App::builder()
        .redis_config(redis.config_as("slugd-reader", "reader-pw"))
        .spawn()
        .await;
    let (s, b) = reader.reserve("3", "Hello").await;
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("reservations_unavailable")),
        "{b}"
    );
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
}

#[tokio::test]
async fn on_a_cluster_a_down_node_stops_only_its_scopes() {
    let mut cluster = RedisCluster::start(3, 0).await;
    let app = App::builder()
        .redis_config(cluster.config(false))
        .spawn()
        .await;
    // Scopes until two nodes hold some: the node of each.
    let mut node_of = Vec::new();
    for i in 0..20 {
        let scope = format!("scope{i}");
        let (s, b) = app
            .reserve_with(&scope, "1", "Hello World", json!({}))
            .await;
        assert_eq!(s, 201, "{b}");
        for (n, node) in cluster.nodes.iter().enumerate() {
            let keys: Vec<String> = node
                .query(redis::cmd("KEYS").arg(format!("slugd:r:{{{scope}}}:*")))
                .await;
            if !keys.is_empty() {
                node_of.push((scope.clone(), n));
            }
        }
    }
    let (lost, victim) = node_of[0].clone();
    let (kept, _) = node_of
        .iter()
        .find(|(_, n)| *n != victim)
        .expect("scopes on two nodes")
        .clone();
    cluster.nodes[victim].save().await;
    cluster.nodes[victim].kill();

    let started = Instant::now();
    let mut owner = 2;
    while started.elapsed() < Duration::from_secs(2) {
        owner += 1;
        let (s, b) = app
            .reserve_with(&kept, &owner.to_string(), "Hello World", json!({}))
            .await;
        assert_eq!(s, 201, "{kept}: {b}");
        let asked = Instant::now();
        let (s, b) = app
            .reserve_with(&lost, &owner.to_string(), "Hello World", json!({}))
            .await;
        assert!(asked.elapsed() < PROMPT, "took {:?}", asked.elapsed());
        assert_eq!(
            (s, b["code"].as_str()),
            (503, Some("reservations_unavailable")),
            "{lost}: {b}"
        );
    }

    // It comes back with its data; the service follows by itself.
    cluster.nodes[victim].restart_after_kill().await;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (s, b) = app.get(&format!("/reservations/{lost}/hello-world")).await;
        if s == 200 {
            assert_eq!(b["owner"], "1");
            break;
        }
        assert!(Instant::now() < deadline, "not back: {s} {b}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The rule version is kept with each reservation: a record written with
/// rules 1 is what slugd wrote before versions existed (no marker), one
/// written with rules 2 says so, and records written before versions
/// existed read as rules 1.
#[tokio::test]
async fn reservations_keep_the_rule_version_that_made_them() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let (s, b) = app
        .reserve_with("posts", "1", "Hello World", json!({"rules": 1}))
        .await;
    assert_eq!(
        (s, &b["slug"], &b["rules"]),
        (201, &json!("hello-world"), &json!(1)),
        "{b}"
    );
    let (s, b) = app
        .reserve_with("posts", "2", "Hello World", json!({"rules": 2}))
        .await;
    assert_eq!(
        (s, &b["slug"], &b["rules"]),
        (201, &json!("hello-world-2"), &json!(2)),
        "{b}"
    );
    // A retry with the other version gives the same base: the slug held,
    // with the version that made it first.
    let (s, b) = app
        .reserve_with("posts", "1", "Hello World", json!({"rules": 2}))
        .await;
    assert_eq!((s, &b["rules"]), (200, &json!(1)), "{b}");
    let (_, b) = app.get("/reservations/posts/hello-world").await;
    assert_eq!(b["rules"], 1, "{b}");
    let (_, b) = app.get("/reservations/posts/hello-world-2").await;
    assert_eq!(b["rules"], 2, "{b}");

    // What is stored: rules 1's record has no marker, rules 2's has `!2`.
    let records = check_consistent(&redis, "posts").await;
    assert_eq!(records.len(), 2);
    let keys: Vec<String> = redis
        .query(redis::cmd("KEYS").arg("slugd:r:{posts}:*"))
        .await;
    let mut owners = Vec::new();
    for key in keys {
        let fields: Vec<(String, String)> = redis.query(redis::cmd("HGETALL").arg(&key)).await;
        owners.extend(fields.into_iter().filter(|(f, _)| f.starts_with('=')));
    }
    owners.sort();
    assert_eq!(
        owners,
        [
            ("=1".to_owned(), "hello-world".to_owned()),
            ("=2".to_owned(), "hello-world-2/11!2".to_owned())
        ]
    );

    // A record as slugd wrote it before rule versions: rules 1.
    // (A field's bucket is the first 4 hex digits of its SHA-1.)
    let bucket = async |field: &str| {
        let sha: String = redis
            .query(
                redis::cmd("EVAL")
                    .arg("return redis.sha1hex(ARGV[1])")
                    .arg(0)
                    .arg(field),
            )
            .await;
        format!("slugd:r:{{posts}}:{}", &sha[..4])
    };
    let _: () = redis
        .query(
            redis::cmd("HSET")
                .arg(bucket("=old").await)
                .arg("=old")
                .arg("before"),
        )
        .await;
    let _: () = redis
        .query(
            redis::cmd("HSET")
                .arg(bucket("before").await)
                .arg("before")
                .arg("old"),
        )
        .await;
    let (_, b) = app.get("/reservations/posts/before").await;
    assert_eq!(
        b,
        json!({"scope": "posts", "slug": "before", "owner": "old", "current": "before", "rules": 1, "state": "confirmed"})
    );
}

/// `ascii: false` (issue 21): slugs in their own script are reserved and
/// numbered like ASCII ones, the limits leave room for the suffix in
/// characters and in bytes of the URI form, and a slug is found by any of
/// its forms that NFC makes equal.
#[tokio::test]
async fn slugs_in_their_own_script_are_reserved_and_found_by_their_nfc_form() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    // The new slugs `owners` get in turn, each a 201 by the newest rules.
    let newest = json!(slugd_engine::options::Rules::NEWEST.number());
    let new_slugs = async |scope: &str, owners: &[&str], title: &str, options: &Value| {
        let mut got = Vec::new();
        for owner in owners {
            let (s, b) = app.reserve_with(scope, owner, title, options.clone()).await;
            assert_eq!((s, &b["rules"]), (201, &newest), "{owner} {title}: {b}");
            got.push(b["slug"].as_str().unwrap().to_owned());
        }
        got
    };
    let own = json!({"ascii": false});
    let got = new_slugs("posts", &["1", "2", "3"], "Привет, мир", &own).await;
    assert_eq!(got, ["привет-мир", "привет-мир-2", "привет-мир-3"]);
    // A retry gives the owner's slug back.
    let (s, b) = app
        .reserve_with("posts", "2", "Привет, мир", own.clone())
        .await;
    assert_eq!((s, b["slug"].as_str()), (200, Some("привет-мир-2")), "{b}");
    // The ASCII slug of the same title is another slug.
    let (s, b) = app
        .reserve_with("posts", "4", "Привет, мир", json!({}))
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("privet-mir")), "{b}");

    // `café` composed and decomposed is one slug, whichever form the title
    // or the lookup has.
    let (s, b) = app.reserve_with("menu", "a", "Café", own.clone()).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("café")), "{b}");
    let (s, b) = app
        .reserve_with("menu", "b", "Cafe\u{301}", own.clone())
        .await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("café-2")), "{b}");
    for form in ["café", "cafe\u{301}"] {
        let (s, b) = app
            .get(&format!("/reservations/menu/{}", path_segment(form)))
            .await;
        assert_eq!((s, b["owner"].as_str()), (200, Some("a")), "{form:?}: {b}");
    }

    // Limits: 8 characters hold `привет` and `-2`; 32 bytes of URI form
    // hold `нет-да` (18 + 1 + 12) but not with `-2`, so the second is
    // `нет-2`.
    let chars = json!({"ascii": false, "max_length": 8});
    let got = new_slugs("short", &["a", "b"], "Привет мир", &chars).await;
    assert_eq!(got, ["привет", "привет-2"]);
    let bytes = json!({"ascii": false, "max_bytes": 32});
    let got = new_slugs("bytes", &["a", "b"], "нет да", &bytes).await;
    assert_eq!(got, ["нет-да", "нет-2"]);
    assert!(
        got.iter()
            .all(|slug| slugd_engine::slug::uri(slug).len() <= 32),
        "{got:?}"
    );
    // A fallback title's stems are cut from its base, never the fallback
    // again: `स्ते` is one cluster of 36 bytes, so no suffix fits.
    let tight = json!({"ascii": false, "max_bytes": 36, "fallback": "untitled"});
    let (s, b) = app.reserve_with("tight", "a", "स्ते", tight.clone()).await;
    assert_eq!((s, b["slug"].as_str()), (201, Some("स्ते")), "{b}");
    let (s, b) = app.reserve_with("tight", "b", "स्ते", tight).await;
    assert_eq!(s, 409, "{b}");
    for scope in ["posts", "menu", "short", "bytes", "tight"] {
        check_consistent(&redis, scope).await;
    }
}
