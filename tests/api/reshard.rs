//! Resharding under load: a real cluster moves the hash slot that holds a
//! scope's reservations from one primary to another, a few keys at a time
//! with the commands `redis-cli --cluster reshard` sends, while three
//! instances reserve in that scope and look slugs up. Nothing acknowledged
//! is lost, no slug is handed out twice, and every answer is 2xx or 503.
//! `scripts/reshard.sh` does the same with `redis-cli` itself, half a
//! primary's slots and more load, and prints its figures.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use slugd::redis_conn::cluster::slot_of;
use slugd::reserve::scope_key;

use crate::fixtures::{RedisCluster, RedisServer, info_number};
use crate::helpers::App;
use crate::reservations::check_consistent;

const TITLES: [&str; 4] = ["Hello World", "I ❤ Redis", "Привет, мир", "Release notes"];

/// What the clients were told, by owner: the slug acknowledged (2xx).
type Acked = Arc<Mutex<BTreeMap<String, String>>>;

/// `POST /reservations` on `app`.
async fn reserve(app: &App, scope: &str, owner: &str, title: &str) -> (u16, Value) {
    app.post(
        "/reservations",
        &json!({ "scope": scope, "owner": owner, "title": title }),
    )
    .await
}

/// A hold of `title`'s slug for a minute (it never lapses in the test).
async fn hold(app: &App, scope: &str, owner: &str, title: &str) -> (u16, Value) {
    app.post(
        "/reservations",
        &json!({ "scope": scope, "owner": owner, "title": title, "hold_seconds": 60 }),
    )
    .await
}

/// The index of the primary holding the keys of `slot`, and of another.
async fn holder_and_other(cluster: &RedisCluster, slot: u16) -> (usize, usize) {
    let mut from = None;
    for (i, node) in cluster.nodes.iter().enumerate() {
        let keys: u64 = node
            .query(redis::cmd("CLUSTER").arg("COUNTKEYSINSLOT").arg(slot))
            .await;
        if keys > 0 {
            from = Some(i);
        }
    }
    let from = from.expect("a node holds the scope's keys");
    (from, (from + 1) % cluster.nodes.len())
}

async fn node_id(node: &RedisServer) -> String {
    node.query(redis::cmd("CLUSTER").arg("MYID")).await
}

/// Moves `slot` from `from` to `to` as `redis-cli --cluster reshard`
/// does: IMPORTING on the target, MIGRATING on the source, the keys ten at
/// a time with MIGRATE, then the slot assigned to the target on every node.
/// Returns how many keys moved.
async fn move_slot(cluster: &RedisCluster, slot: u16, from: usize, to: usize) -> usize {
    let (source, target) = (&cluster.nodes[from], &cluster.nodes[to]);
    let (source_id, target_id) = (node_id(source).await, node_id(target).await);
    let setslot = |state: &str, id: &str| {
        redis::cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg(state)
            .arg(id)
            .clone()
    };
    let _: () = target.query(&mut setslot("IMPORTING", &source_id)).await;
    let _: () = source.query(&mut setslot("MIGRATING", &target_id)).await;
    let mut moved = 0;
    loop {
        let keys: Vec<String> = source
            .query(redis::cmd("CLUSTER").arg("GETKEYSINSLOT").arg(slot).arg(10))
            .await;
        if keys.is_empty() {
            break;
        }
        moved += keys.len();
        let _: () = source
            .query(
                redis::cmd("MIGRATE")
                    .arg("127.0.0.1")
                    .arg(target.port)
                    .arg("")
                    .arg(0)
                    .arg(5000)
                    .arg("KEYS")
                    .arg(&keys),
            )
            .await;
        // Room for reservations to run between two batches, as they do
        // between redis-cli's.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The target first, then the source, then the others, as redis-cli.
    let others = (0..cluster.nodes.len()).filter(|&i| i != from && i != to);
    for i in [to, from].into_iter().chain(others) {
        let _: () = cluster.nodes[i]
            .query(&mut setslot("NODE", &target_id))
            .await;
    }
    moved
}

/// A client of `app` until `stop`: new owners reserving the titles in
/// turn (every other one as a hold), each acknowledged one asked again
/// (which confirms a hold) and looked up. Every answer must be 2xx or
/// 503, a retry must give the same slug and a look-up its owner.
async fn client(
    app: Arc<App>,
    scope: &'static str,
    name: String,
    acked: Acked,
    stop: Arc<AtomicBool>,
) -> usize {
    let mut answers = 0;
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        let owner = format!("{name}-{n}");
        let title = TITLES[n % TITLES.len()];
        n += 1;
        let (status, body) = match n % 2 {
            0 => hold(&app, scope, &owner, title).await,
            _ => reserve(&app, scope, &owner, title).await,
        };
        answers += 1;
        assert!(matches!(status, 200 | 201 | 503), "{status} {body}");
        if status == 503 {
            continue;
        }
        let slug = body["slug"].as_str().unwrap().to_owned();
        acked.lock().unwrap().insert(owner.clone(), slug.clone());
        let (status, body) = reserve(&app, scope, &owner, title).await;
        assert!(matches!(status, 200 | 503), "a retry: {status} {body}");
        if status == 200 {
            assert_eq!(body["slug"], slug.as_str(), "a retry of {owner}");
        }
        let (status, body) = app.get(&format!("/reservations/{scope}/{slug}")).await;
        assert!(matches!(status, 200 | 503), "a look-up: {status} {body}");
        if status == 200 {
            assert_eq!(body["owner"], owner.as_str(), "{slug}");
        }
        answers += 2;
    }
    answers
}

#[tokio::test]
async fn moving_a_scopes_slot_under_reservations_loses_nothing_and_hands_out_nothing_twice() {
    let cluster = RedisCluster::start(3, 0).await;
    cluster.load().await;
    let mut apps = Vec::new();
    for _ in 0..3 {
        let app = App::builder()
            .redis_config(cluster.config(false))
            .spawn()
            .await;
        apps.push(Arc::new(app));
    }
    let scope = "posts";
    let slot = slot_of(scope_key("slugd:", scope).as_bytes());

    // Enough reservations that the slot has a few hundred keys to move.
    let acked: Acked = Arc::default();
    for n in 0..150 {
        let owner = format!("before-{n}");
        let (status, body) = reserve(&apps[n % 3], scope, &owner, TITLES[n % 4]).await;
        assert_eq!(status, 201, "{body}");
        acked
            .lock()
            .unwrap()
            .insert(owner, body["slug"].as_str().unwrap().to_owned());
    }

    let (from, to) = holder_and_other(&cluster, slot).await;
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..6)
        .map(|i| {
            let app = apps[i % 3].clone();
            tokio::spawn(client(
                app,
                scope,
                format!("c{i}"),
                acked.clone(),
                stop.clone(),
            ))
        })
        .collect();
    let moved = move_slot(&cluster, slot, from, to).await;
    // A little more load once the slot is on its new node.
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    let mut answers = 0;
    for c in clients {
        answers += c.await.unwrap();
    }

    // The script refused to run on the half-moved scope (TRYAGAIN) and
    // sent the clients to the new node (MOVED) rather than answer wrong.
    let errors: String = cluster.nodes[from]
        .query(redis::cmd("INFO").arg("errorstats"))
        .await;
    let tryagain = info_number(&errors, "errorstat_TRYAGAIN:count=");
    let redirected = info_number(&errors, "errorstat_MOVED:count=");
    println!(
        "{moved} keys moved; {answers} answers during and after; the source answered TRYAGAIN {tryagain} times, MOVED {redirected}"
    );
    assert!(
        tryagain > 0,
        "no reservation met the slot half-moved: {errors}"
    );

    // Every key of the scope is on the new node and the two sides agree.
    for (i, node) in cluster.nodes.iter().enumerate() {
        let keys: Vec<String> = node
            .query(redis::cmd("KEYS").arg(format!("slugd:r:{{{scope}}}:*")))
            .await;
        assert_eq!(keys.is_empty(), i != to, "node {i}: {} keys", keys.len());
    }
    let held = check_consistent(&cluster.nodes[to], scope).await;

    // Nothing acknowledged lost, read back from Redis and with GET; no slug
    // acknowledged to two owners.
    let acked = acked.lock().unwrap().clone();
    let mut owners_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (owner, slug) in &acked {
        assert_eq!(held.get(slug), Some(owner), "{slug} of {owner} in Redis");
        owners_of.entry(slug).or_default().push(owner);
    }
    for (slug, owners) in &owners_of {
        assert_eq!(owners.len(), 1, "{slug} handed out to {owners:?}");
    }
    for (i, (owner, slug)) in acked.iter().enumerate() {
        let (status, body) = apps[i % 3]
            .get(&format!("/reservations/{scope}/{slug}"))
            .await;
        assert_eq!(
            (status, body["owner"].as_str()),
            (200, Some(owner.as_str())),
            "{body}"
        );
    }
}
