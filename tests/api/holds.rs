//! Holds: a reservation with a lifetime (`hold_seconds`), for a draft. It
//! lapses by itself and frees its slug, the same owner renews it by asking
//! again with `hold_seconds` and confirms it by asking again without; a
//! confirmed slug is never lost. Against real redis-server processes (one
//! with the append-only file, SIGKILLed) and the app on port 0. The holds
//! here last one to three seconds, so the tests wait that long; no figure
//! of speed is asserted.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::fixtures::RedisServer;
use crate::helpers::App;
use crate::operations::{moved, sample};
use crate::reservations::check_consistent;

const HOLDS: &str = "slugd_reservation_holds_total";

impl App {
    /// `POST /reservations` in scope `posts`, with `hold_seconds` when
    /// given.
    async fn hold(&self, owner: &str, title: &str, hold_seconds: Option<u64>) -> (u16, Value) {
        let extra = match hold_seconds {
            Some(hold) => json!({"hold_seconds": hold}),
            None => json!({}),
        };
        self.reserve_with("posts", owner, title, extra).await
    }

    /// `GET /reservations/posts/{slug}`.
    async fn holder(&self, slug: &str) -> (u16, Value) {
        self.get(&format!("/reservations/posts/{slug}")).await
    }
}

/// `held_until` of a body, in Unix milliseconds.
fn held_until(body: &Value) -> u64 {
    let text = body["held_until"]
        .as_str()
        .unwrap_or_else(|| panic!("no held_until: {body}"));
    let at = humantime::parse_rfc3339(text).unwrap();
    at.duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// Sleeps until `ms` (Unix milliseconds) and `extra` more.
async fn sleep_past(ms: u64, extra: Duration) {
    let left = Duration::from_millis(ms.saturating_sub(now_ms()));
    tokio::time::sleep(left + extra).await;
}

fn holds(text: &str, event: &str) -> f64 {
    sample(text, &format!("{HOLDS}{{event=\"{event}\"}}"))
}

#[tokio::test]
async fn a_hold_lapses_by_itself_and_the_owners_confirmed_slugs_stay() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let before = app.scrape().await;
    let (s, b) = app.hold("1", "Old Post", None).await;
    assert_eq!((s, &b["state"]), (201, &json!("confirmed")), "{b}");
    assert!(b.get("held_until").is_none(), "{b}");

    let asked = now_ms();
    // Two seconds, so that a slow machine still sees it held below.
    let (s, b) = app.hold("1", "Hello World", Some(2)).await;
    assert_eq!(
        (s, &b["slug"], &b["state"]),
        (201, &json!("hello-world"), &json!("held")),
        "{b}"
    );
    let until = held_until(&b);
    assert!(
        until >= asked + 2000 && until <= now_ms() + 2000,
        "{b}: asked at {asked}"
    );
    // While held, it is the owner's: the look-up says until when, and
    // another owner gets the next slug.
    let (s, got) = app.holder("hello-world").await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        (&got["owner"], &got["state"], &got["held_until"]),
        (&json!("1"), &json!("held"), &b["held_until"]),
        "{got}"
    );
    // A hold is not the owner's current slug: its confirmed one is.
    assert_eq!(got["current"], "old-post", "{got}");
    // Another draft, whose owner has nothing else.
    let (s, lost) = app.hold("9", "Lost Draft", Some(2)).await;
    assert_eq!((s, &lost["state"]), (201, &json!("held")), "{lost}");
    let (s, b2) = app.hold("2", "Hello World", None).await;
    assert_eq!((s, &b2["slug"]), (201, &json!("hello-world-2")), "{b2}");

    sleep_past(until, Duration::from_millis(100)).await;
    // Lapsed: nobody holds it, and the next owner takes it.
    let (s, got) = app.holder("hello-world").await;
    assert_eq!((s, &got["code"]), (404, &json!("not_reserved")), "{got}");
    let (s, b3) = app.hold("3", "Hello World", None).await;
    assert_eq!(
        (s, &b3["slug"], &b3["state"]),
        (201, &json!("hello-world"), &json!("confirmed")),
        "{b3}"
    );
    sleep_past(held_until(&lost), Duration::from_millis(100)).await;
    assert_eq!(
        app.hold("10", "Lost Draft", None).await.1["slug"],
        "lost-draft"
    );
    // The draft's owner holds nothing now: releasing it finds nothing.
    let (s, b) = app.delete("/reservations/posts/9").await;
    assert_eq!((s, &b["code"]), (404, &json!("not_reserved")), "{b}");
    assert_eq!(app.holder("lost-draft").await.1["owner"], "10");
    // The first owner's confirmed slug is still its own, and current.
    let (s, got) = app.holder("old-post").await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        (&got["owner"], &got["state"], &got["current"]),
        (&json!("1"), &json!("confirmed"), &json!("old-post")),
        "{got}"
    );
    // Asking again for the lapsed title: the slug it lost is another's
    // now, so a new one, confirmed.
    let (s, b4) = app.hold("1", "Hello World", None).await;
    assert_eq!(
        (s, &b4["slug"], &b4["state"]),
        (201, &json!("hello-world-3"), &json!("confirmed")),
        "{b4}"
    );
    let slugs = check_consistent(&redis, "posts").await;
    let want: BTreeMap<String, String> = [
        ("lost-draft", "10"),
        ("old-post", "1"),
        ("hello-world", "3"),
        ("hello-world-2", "2"),
        ("hello-world-3", "1"),
    ]
    .map(|(s, o)| (s.to_owned(), o.to_owned()))
    .into();
    assert_eq!(slugs, want);

    let after = app.scrape().await;
    assert_eq!(
        moved(&before, &after, &format!("{HOLDS}{{event=\"made\"}}")),
        2.0
    );
    assert_eq!(holds(&after, "lapsed"), 2.0, "{after}");
    assert_eq!(holds(&after, "confirmed"), 0.0, "{after}");
}

#[tokio::test]
async fn asking_again_with_hold_seconds_renews_and_without_confirms() {
    let redis = RedisServer::start().await;
    let app = App::on_redis(&redis).await;
    let (s, b) = app.hold("1", "Draft One", Some(1)).await;
    assert_eq!((s, &b["state"]), (201, &json!("held")), "{b}");
    let first = held_until(&b);
    // Renewed from now, for 3 s: past the first lapse it is still held.
    let (s, b) = app.hold("1", "Draft One", Some(3)).await;
    assert_eq!(
        (s, &b["slug"], &b["state"]),
        (200, &json!("draft-one"), &json!("held")),
        "{b}"
    );
    let renewed = held_until(&b);
    assert!(renewed >= first + 1900, "{first} then {renewed}");
    sleep_past(first, Duration::from_millis(300)).await;
    let (s, got) = app.holder("draft-one").await;
    assert_eq!((s, &got["state"]), (200, &json!("held")), "{got}");
    let (s, b) = app.hold("2", "Draft One", None).await;
    assert_eq!((s, &b["slug"]), (201, &json!("draft-one-2")), "{b}");

    // Confirmed at publish: the owner's for good, past the hold's lapse.
    let (s, b) = app.hold("1", "Draft One", None).await;
    assert_eq!(
        (s, &b["slug"], &b["state"]),
        (200, &json!("draft-one"), &json!("confirmed")),
        "{b}"
    );
    assert!(b.get("held_until").is_none(), "{b}");
    // Asking with hold_seconds again does not make it a hold again.
    let (s, b) = app.hold("1", "Draft One", Some(1)).await;
    assert_eq!((s, &b["state"]), (200, &json!("confirmed")), "{b}");
    sleep_past(renewed, Duration::from_millis(200)).await;
    let (s, got) = app.holder("draft-one").await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        (&got["owner"], &got["state"], &got["current"]),
        (&json!("1"), &json!("confirmed"), &json!("draft-one")),
        "{got}"
    );
    let (s, b) = app.hold("3", "Draft One", None).await;
    assert_eq!((s, &b["slug"]), (201, &json!("draft-one-3")), "{b}");

    // A hold that lapsed while nobody took it: asking again revives it,
    // the same slug.
    let (s, b) = app.hold("1", "Draft Two", Some(1)).await;
    assert_eq!((s, &b["slug"]), (201, &json!("draft-two")), "{b}");
    sleep_past(held_until(&b), Duration::from_millis(100)).await;
    assert_eq!(app.holder("draft-two").await.0, 404);
    let (s, b) = app.hold("1", "Draft Two", None).await;
    assert_eq!(
        (s, &b["slug"], &b["state"]),
        (200, &json!("draft-two"), &json!("confirmed")),
        "{b}"
    );
    // The owner's lapsed holds of other titles are freed when it next
    // reserves: its record keeps only what is its own.
    let (s, b) = app.hold("1", "Draft Three", Some(1)).await;
    assert_eq!(s, 201, "{b}");
    sleep_past(held_until(&b), Duration::from_millis(100)).await;
    assert_eq!(app.hold("1", "Draft Four", None).await.0, 201);
    let slugs = check_consistent(&redis, "posts").await;
    assert!(!slugs.contains_key("draft-three"), "{slugs:?}");

    let text = app.scrape().await;
    assert_eq!(
        [
            holds(&text, "made"),
            holds(&text, "renewed"),
            holds(&text, "confirmed"),
            holds(&text, "lapsed")
        ],
        [3.0, 1.0, 2.0, 1.0],
        "{text}"
    );
}

/// Thirty owners each hold a title's slug for a second; around the
/// moment the holds lapse, each confirms it while another owner reserves
/// the same title, all at once, from two instances. Whichever comes first
/// wins: a confirm before the lapse keeps the slug (200), one after
/// another owner took it gets a new one (201). Never two owners for one
/// slug, every confirmed slug its owner's.
#[tokio::test]
async fn a_confirm_racing_the_lapse_never_gives_a_slug_two_owners() {
    let redis = RedisServer::start().await;
    let apps = std::sync::Arc::new([App::on_redis(&redis).await, App::on_redis(&redis).await]);
    const PAIRS: usize = 30;
    let mut lapse = 0;
    for i in 0..PAIRS {
        let (s, b) = apps[i % 2]
            .hold(&format!("h{i}"), &format!("Race {i}"), Some(1))
            .await;
        assert_eq!(
            (s, b["slug"].clone()),
            (201, json!(format!("race-{i}"))),
            "{b}"
        );
        lapse = lapse.max(held_until(&b));
    }
    // The requests spread over 400 ms around the last lapse.
    let start = lapse - 200;
    let mut tasks = Vec::new();
    for i in 0..PAIRS {
        for (owner, delay) in [
            (format!("h{i}"), i * 13 % 400),
            (format!("n{i}"), i * 29 % 400),
        ] {
            let apps = apps.clone();
            let at = start + delay as u64;
            tasks.push(tokio::spawn(async move {
                sleep_past(at, Duration::ZERO).await;
                let (s, b) = apps[(i + delay) % 2]
                    .hold(&owner, &format!("Race {i}"), None)
                    .await;
                (i, owner, s, b)
            }));
        }
    }
    let mut kept = 0;
    let mut lost = 0;
    let mut slugs = BTreeSet::new();
    for task in tasks {
        let (i, owner, s, b) = task.await.unwrap();
        assert_eq!(b["state"], "confirmed", "{owner}: {b}");
        let slug = b["slug"].as_str().unwrap().to_owned();
        assert!(slugs.insert(slug.clone()), "{slug} given twice: {b}");
        match (owner.starts_with('h'), s) {
            (true, 200) => {
                assert_eq!(slug, format!("race-{i}"));
                kept += 1;
            }
            (true, 201) => lost += 1,
            (false, 201) => {}
            _ => panic!("{owner}: {s} {b}"),
        }
        let (s, got) = apps[0].holder(&slug).await;
        assert_eq!(s, 200, "{got}");
        assert_eq!(
            (&got["owner"], &got["state"]),
            (&json!(owner), &json!("confirmed")),
            "{got}"
        );
    }
    // Each title's slug is one of its two owners', confirmed.
    for i in 0..PAIRS {
        let (s, got) = apps[1].holder(&format!("race-{i}")).await;
        assert_eq!((s, &got["state"]), (200, &json!("confirmed")), "{got}");
        let owner = got["owner"].as_str().unwrap();
        assert!(
            [format!("h{i}"), format!("n{i}")]
                .iter()
                .any(|o| o == owner),
            "{got}"
        );
    }
    eprintln!("{kept} confirms kept their slug, {lost} came after the lapse and lost it");
    assert_eq!(slugs.len(), 2 * PAIRS);
    check_consistent(&redis, "posts").await;
}

#[tokio::test]
async fn holds_and_their_lapse_times_survive_a_sigkill_with_the_append_only_file() {
    let mut redis = RedisServer::builder()
        .args(&["--appendonly", "yes", "--appendfsync", "always"])
        .start()
        .await;
    let app = App::on_redis(&redis).await;
    let (_, long) = app.hold("1", "Long Draft", Some(3600)).await;
    let (_, short) = app.hold("2", "Short Draft", Some(2)).await;
    assert_eq!(app.hold("3", "Published", Some(3600)).await.0, 201);
    assert_eq!(app.hold("3", "Published", None).await.0, 200);
    redis.kill();
    redis.restart_after_kill().await;
    // Polled until the service is back on the restarted server: a generous
    // bound, so that a busy machine's slow reconnection is no failure.
    app.wait_for(
        "/reservations/posts/long-draft",
        200,
        Duration::from_secs(30),
    )
    .await;
    let (s, got) = app.holder("long-draft").await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        (&got["state"], &got["held_until"]),
        (&json!("held"), &long["held_until"]),
        "{got}"
    );
    let (_, got) = app.holder("published").await;
    assert_eq!(
        (&got["owner"], &got["state"]),
        (&json!("3"), &json!("confirmed")),
        "{got}"
    );
    // The short hold lapses on the restarted server as it would have.
    sleep_past(held_until(&short), Duration::from_millis(100)).await;
    assert_eq!(app.holder("short-draft").await.0, 404);
    let (s, b) = app.hold("4", "Short Draft", None).await;
    assert_eq!((s, &b["slug"]), (201, &json!("short-draft")), "{b}");
    check_consistent(&redis, "posts").await;
}

/// What the previous release wrote (its library of functions,
/// `tests/data/reservations/library_1.lua`, run as it ran): this release
/// reads it as it is, with no migration, while that release's functions
/// still serve beside it.
#[tokio::test]
async fn reservations_written_by_the_previous_release_keep_working() {
    let redis = RedisServer::start().await;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = std::fs::read_to_string(root.join("tests/data/reservations/library_1.lua")).unwrap();
    let _: String = redis
        .query(redis::cmd("FUNCTION").arg("LOAD").arg(&old))
        .await;
    let prefix = slugd::reserve::scope_key("slugd:", "posts");
    let old_reserve = async |owner: &str, base: &str| -> Vec<String> {
        redis
            .query(
                redis::cmd("FCALL")
                    .arg("slugd_reserve_1")
                    .arg(0)
                    .arg(&prefix)
                    .arg(owner)
                    .arg(base)
                    .arg("-")
                    .arg("")
                    .arg(5)
                    .arg("*"),
            )
            .await
    };
    assert_eq!(
        old_reserve("1", "hello-world").await,
        ["new", "hello-world", "5"]
    );
    assert_eq!(
        old_reserve("2", "hello-world").await,
        ["new", "hello-world-2", "5"]
    );
    assert_eq!(
        old_reserve("1", "hello-moon").await,
        ["new", "hello-moon", "5"]
    );

    let app = App::on_redis(&redis).await;
    let (s, got) = app.holder("hello-world").await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(
        got,
        json!({"scope": "posts", "slug": "hello-world", "owner": "1", "current": "hello-moon", "rules": 5, "state": "confirmed"})
    );
    // The owner's own slug back, the hint followed, a hold beside them.
    assert_eq!(
        app.hold("1", "Hello World", None).await.1["slug"],
        "hello-world"
    );
    let (s, b) = app.hold("3", "Hello World", Some(60)).await;
    assert_eq!(
        (s, &b["slug"], &b["state"]),
        (201, &json!("hello-world-3"), &json!("held")),
        "{b}"
    );
    // The old functions still work on what this release wrote without
    // holds.
    assert_eq!(
        old_reserve("4", "hello-world").await,
        ["new", "hello-world-4", "5"]
    );
    assert_eq!(app.holder("hello-world-4").await.1["owner"], "4");
    check_consistent(&redis, "posts").await;
    let (s, _) = app.delete("/reservations/posts/1").await;
    assert_eq!(s, 204);
    assert_eq!(app.holder("hello-moon").await.0, 404);
    assert_eq!(
        app.hold("5", "Hello Moon", None).await.1["slug"],
        "hello-moon"
    );
}
