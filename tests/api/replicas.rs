//! Reservations that wait for replicas (`--reservation-replicas`) and for
//! the append-only file (`--reservation-fsync`), on Debian's Redis and on
//! Valkey, whose replication differs where it matters: since Redis 7.2 (and
//! in every Valkey) a connection's `WAIT` counts replicas against its own
//! last write, so a retry that writes nothing would be acknowledged
//! without its replicas. Each test runs real servers: a primary and a
//! replica, stopped, cut off, killed and promoted as a failover would.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use slugd::redis_conn::RedisConfig;
use slugd::reserve::{ReservationSettings, WaitReplicas};
use slugd::table::OpenError;

use crate::fixtures::{RedisServer, Server, free_port, info_number};
use crate::helpers::{App, assert_says};

/// Reservations of `owner` for `title` in scope `posts`.
async fn reserve(app: &App, owner: &str, title: &str) -> (u16, Value) {
    app.post(
        "/reservations",
        &json!({ "scope": "posts", "owner": owner, "title": title }),
    )
    .await
}

/// An instance on `redis` whose reservations wait as `wait` says (`None`:
/// not at all), with a response timeout generous enough that a busy
/// machine gives no timeouts.
async fn instance(redis: &RedisServer, wait: Option<WaitReplicas>) -> App {
    App::builder()
        .redis_config(RedisConfig {
            response_timeout: Duration::from_secs(2),
            ..redis.config()
        })
        .reservations(ReservationSettings {
            wait,
            ..Default::default()
        })
        .spawn()
        .await
}

/// How long a replica may take to come into step (a busy machine).
const STEP: Duration = Duration::from_secs(10);

fn replicas(n: u32, ms: u64) -> Option<WaitReplicas> {
    Some(WaitReplicas::replicas(n, Duration::from_millis(ms)))
}

/// Waits until a reservation is acknowledged: the replica is in step.
async fn in_step(app: &App) {
    let body = json!({ "scope": "posts", "owner": "warm-up", "title": "Warm Up" });
    app.post_until_served("/reservations", &body, Some("not_replicated"), STEP)
        .await
        .expect("the replica never confirmed");
}

async fn a_retry_is_acknowledged_only_once_the_replica_has_the_first_write(server: Server) {
    let (primary, replica) = RedisServer::with_replica_on(server).await;
    let first = instance(&primary, replicas(1, 300)).await;
    in_step(&first).await;
    replica.signal("STOP");
    // The reservation is made on the primary; the replica cannot confirm.
    let (s, b) = reserve(&first, "1", "Hello World").await;
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("not_replicated")),
        "{b}"
    );
    assert_says(&b, "hello-world");
    // The client asks again through another instance, on connections
    // that never wrote: the replica still lacks the first write.
    let second = instance(&primary, replicas(1, 300)).await;
    for app in [&second, &first] {
        let (s, b) = reserve(app, "1", "Hello World").await;
        assert_eq!(
            (s, b["code"].as_str()),
            (503, Some("not_replicated")),
            "a retry acknowledged while the replica was stopped, on {server:?}: {b}"
        );
    }
    replica.signal("CONT");
    // Once the replica catches up, the retry answers the same slug.
    let body = json!({ "scope": "posts", "owner": "1", "title": "Hello World" });
    let (s, b) = second
        .post_until_served("/reservations", &body, Some("not_replicated"), STEP)
        .await
        .expect("the replica never caught up");
    assert_eq!((s, &b["slug"]), (200, &json!("hello-world")), "{b}");
}

#[tokio::test]
async fn a_retry_is_acknowledged_only_once_the_replica_has_the_first_write_on_redis() {
    a_retry_is_acknowledged_only_once_the_replica_has_the_first_write(Server::Redis).await;
}

#[tokio::test]
async fn a_retry_is_acknowledged_only_once_the_replica_has_the_first_write_on_valkey() {
    a_retry_is_acknowledged_only_once_the_replica_has_the_first_write(Server::Valkey).await;
}

/// What the clients of [`crash_under_load`] were told: the reservations
/// acknowledged (2xx), as (owner, slug), and how many were refused.
struct Told {
    acknowledged: Vec<(String, String)>,
    refused: usize,
}

/// Clients reserve through two instances waiting for `wait`, each 503
/// asked again through the other instance, as a client behind a load
/// balancer would. Mid-load the replica is cut off from the primary
/// (told to follow a port where nothing listens, so it keeps what it has
/// and gets nothing more), then the primary is killed (SIGKILL) and the
/// replica promoted (`REPLICAOF NO ONE`). Returns what the clients were
/// told, and the promoted replica.
///
/// Cut off rather than stopped (SIGSTOP): a stopped replica's socket
/// still holds what the primary sent it, which it reads when it resumes,
/// so a stopped replica loses nothing on loopback.
///
/// The cut and the kill wait for answers, not for a time, so that a busy
/// machine runs as much load through them as a fast one: the cut comes
/// once more than [`BEFORE_THE_CUT`] reservations are acknowledged, the
/// kill once the clients have had more than two answers each since the
/// cut (at most one each is to a request sent before it).
async fn crash_under_load(server: Server, wait: Option<WaitReplicas>) -> (Told, RedisServer) {
    let (mut primary, replica) = RedisServer::with_replica_on(server).await;
    let apps = Arc::new([
        instance(&primary, wait).await,
        instance(&primary, wait).await,
    ]);
    if wait.is_some() {
        in_step(&apps[0]).await;
    }
    let stop = Arc::new(AtomicBool::new(false));
    // Every answer the clients have had, and the acknowledged ones.
    let answered = Arc::new(AtomicUsize::new(0));
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let (apps, stop) = (apps.clone(), stop.clone());
            let (answered, acknowledged) = (answered.clone(), acknowledged.clone());
            tokio::spawn(async move {
                let mut told = Told {
                    acknowledged: Vec::new(),
                    refused: 0,
                };
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    let owner = format!("{client}-{i}");
                    let title = format!("Post {}", i % 7);
                    for app in [&apps[i % 2], &apps[(i + 1) % 2]] {
                        let (s, b) = reserve(app, &owner, &title).await;
                        answered.fetch_add(1, Ordering::Relaxed);
                        if s == 200 || s == 201 {
                            let slug = b["slug"].as_str().unwrap().to_owned();
                            told.acknowledged.push((owner.clone(), slug));
                            acknowledged.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        assert_eq!(s, 503, "{b}");
                        told.refused += 1;
                    }
                    i += 1;
                }
                told
            })
        })
        .collect();
    until_above(&acknowledged, BEFORE_THE_CUT, "acknowledged before the cut").await;
    let nowhere = free_port().to_string();
    let _: () = replica
        .query(redis::cmd("REPLICAOF").arg("127.0.0.1").arg(&nowhere))
        .await;
    // Each client has at most one request in flight at the cut; every
    // other answer after it is to a request sent after the cut.
    let at_cut = answered.load(Ordering::Relaxed);
    until_above(&answered, at_cut + 2 * CLIENTS, "answered after the cut").await;
    primary.kill();
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, Ordering::Relaxed);
    let mut told = Told {
        acknowledged: Vec::new(),
        refused: 0,
    };
    for client in clients {
        let one = client.await.unwrap();
        told.acknowledged.extend(one.acknowledged);
        told.refused += one.refused;
    }
    let _: () = replica
        .query(redis::cmd("REPLICAOF").arg("NO").arg("ONE"))
        .await;
    (told, replica)
}

/// How many clients [`crash_under_load`] runs.
const CLIENTS: usize = 8;

/// How many reservations are acknowledged before [`crash_under_load`]
/// cuts the replica off; more than that, so the load runs through the cut.
const BEFORE_THE_CUT: usize = 20;

/// Waits until `count` is above `floor`. The bound is no speed figure, only
/// how long a broken build may make the test hang (a client that failed
/// says why when it is awaited, after this).
async fn until_above(count: &AtomicUsize, floor: usize, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while count.load(Ordering::Relaxed) <= floor {
        assert!(
            Instant::now() < deadline,
            "{what}: {} of more than {floor} after 60 s",
            count.load(Ordering::Relaxed)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The acknowledged reservations the promoted `replica` does not have:
/// looked up through an instance on it.
async fn missing(replica: &RedisServer, told: &Told) -> Vec<(String, String)> {
    let app = instance(replica, None).await;
    let mut missing = Vec::new();
    for (owner, slug) in &told.acknowledged {
        let (s, b) = app.get(&format!("/reservations/posts/{slug}")).await;
        if s != 200 || b["owner"] != json!(owner) {
            missing.push((owner.clone(), slug.clone()));
        }
    }
    missing
}

async fn a_crash_loses_no_reservation_the_replica_acknowledged(server: Server) {
    let (told, replica) = crash_under_load(server, replicas(1, 200)).await;
    assert!(
        told.acknowledged.len() > BEFORE_THE_CUT && told.refused > 0,
        "the load did not run through the cut: {} acknowledged, {} refused",
        told.acknowledged.len(),
        told.refused
    );
    let missing = missing(&replica, &told).await;
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged reservations are not on the promoted replica ({server:?}), for example {:?}",
        missing.len(),
        told.acknowledged.len(),
        &missing[..missing.len().min(5)]
    );
}

#[tokio::test]
async fn a_crash_loses_no_reservation_the_replica_acknowledged_on_redis() {
    a_crash_loses_no_reservation_the_replica_acknowledged(Server::Redis).await;
}

#[tokio::test]
async fn a_crash_loses_no_reservation_the_replica_acknowledged_on_valkey() {
    a_crash_loses_no_reservation_the_replica_acknowledged(Server::Valkey).await;
}

/// The control: the same crash without waiting for the replica loses
/// acknowledged reservations, so the check above can fail.
#[tokio::test]
async fn without_waiting_a_crash_loses_acknowledged_reservations() {
    let (told, replica) = crash_under_load(Server::Redis, None).await;
    let missing = missing(&replica, &told).await;
    assert!(
        !missing.is_empty(),
        "all {} acknowledged reservations survived a failover to a replica cut off before the crash: the check cannot see a loss",
        told.acknowledged.len()
    );
}

/// A primary that refuses writes for want of replicas
/// (`min-replicas-to-write`) gives a 503 not_replicated that says so.
#[tokio::test]
async fn a_primary_short_of_replicas_is_a_503_not_replicated() {
    for server in Server::BOTH {
        let primary = RedisServer::builder()
            .server(server)
            .args(&["--min-replicas-to-write", "1"])
            .start()
            .await;
        let app = instance(&primary, None).await;
        let (s, b) = reserve(&app, "1", "Hello World").await;
        assert_eq!(
            (s, b["code"].as_str()),
            (503, Some("not_replicated")),
            "{server:?}: {b}"
        );
        assert_says(&b, "min-replicas-to-write");
        assert_says(&b, "nothing was reserved");
    }
}

fn fsync(replicas: u32) -> Option<WaitReplicas> {
    Some(WaitReplicas {
        fsync: true,
        // appendfsync everysec: up to a second for the file, and a busy
        // machine.
        ..WaitReplicas::replicas(replicas, Duration::from_millis(5000))
    })
}

/// With `--reservation-fsync`, a reservation is answered once the
/// primary's and the replica's append-only files have it on disk (the
/// servers on `appendfsync everysec`, so only WAITAOF makes that so).
#[tokio::test]
async fn fsync_waits_for_the_append_only_files_on_valkey() {
    let aof = ["--appendonly", "yes", "--appendfsync", "everysec"];
    let primary = RedisServer::builder()
        .server(Server::Valkey)
        .args(&aof)
        .start()
        .await;
    let replica = RedisServer::builder()
        .server(Server::Valkey)
        .args(&aof)
        .args(&["--replicaof", "127.0.0.1", &primary.port.to_string()])
        .start()
        .await;
    let app = instance(&primary, fsync(1)).await;
    in_step(&app).await;
    let (s, b) = reserve(&app, "1", "Hello World").await;
    assert_eq!((s, &b["slug"]), (201, &json!("hello-world")), "{b}");
    let stats: String = primary.query(redis::cmd("INFO").arg("commandstats")).await;
    assert!(
        info_number(&stats, "cmdstat_waitaof:calls=") >= 2,
        "no WAITAOF: {stats}"
    );
    // A replica stopped cannot have it on disk: a 503 that says so.
    replica.signal("STOP");
    let (s, b) = reserve(&app, "2", "Hello World").await;
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("not_replicated")),
        "{b}"
    );
    assert_says(&b, "on disk");
    replica.signal("CONT");
}

/// `--reservation-fsync` on a Redis that cannot wait for its append-only
/// file is refused at start, saying why.
#[tokio::test]
async fn fsync_is_refused_at_start_where_redis_cannot_wait_for_its_file() {
    // Valkey without an append-only file.
    let valkey = RedisServer::builder().server(Server::Valkey).start().await;
    let refused = |e: OpenError| e.to_string();
    let err = App::builder()
        .redis(&valkey)
        .reservations(ReservationSettings {
            wait: fsync(0),
            ..Default::default()
        })
        .open()
        .await
        .err()
        .map(refused)
        .expect("serve starts with --reservation-fsync on a Redis without appendonly");
    assert!(err.contains("appendonly yes"), "{err}");
    assert!(err.contains("--reservation-fsync"), "{err}");

    // Debian's Redis: before 7.2 it has no WAITAOF.
    let redis = RedisServer::builder()
        .args(&["--appendonly", "yes"])
        .start()
        .await;
    let info: String = redis.query(redis::cmd("INFO").arg("server")).await;
    let version = info
        .lines()
        .find_map(|l| l.strip_prefix("redis_version:"))
        .unwrap()
        .trim()
        .to_owned();
    let opened = App::builder()
        .redis(&redis)
        .reservations(ReservationSettings {
            wait: fsync(0),
            ..Default::default()
        })
        .open()
        .await;
    let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap()).collect();
    if parts[..2] < [7, 2][..] {
        let err = opened.err().map(refused).expect("Redis before 7.2 refused");
        assert!(err.contains("no WAITAOF"), "{err}");
        assert!(err.contains("7.2"), "{err}");
    } else {
        assert!(opened.is_ok(), "Redis {version} has WAITAOF");
    }
}
