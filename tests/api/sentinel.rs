//! Redis Sentinel (`--redis-sentinel`): a primary, its replica and three
//! sentinels of the test's own; the table loaded through the sentinels by
//! `slugd load`, then served and reservations made while the primary is
//! killed. The service follows the failover by itself, with prompt 503s
//! while there is no primary, and loses no acknowledged reservation.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use slugd::redis_conn::{Endpoint, RedisConfig};
use slugd::reserve::{ReservationSettings, WaitReplicas};

use crate::fixtures::{RedisServer, free_port, slugd_command};
use crate::helpers::App;

/// How long a request may take while there is no primary.
const PROMPT: Duration = Duration::from_secs(3);

/// One sentinel: `redis-server CONF --sentinel` on a free loopback port,
/// its configuration (which it rewrites) in a directory of its own.
struct SentinelProcess {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl SentinelProcess {
    fn start(primary: u16) -> SentinelProcess {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let conf: PathBuf = dir.path().join("sentinel.conf");
        std::fs::write(
            &conf,
            format!(
                "port {port}\nbind 127.0.0.1\ndir {dir}\nlogfile {dir}/sentinel.log\n\
                 sentinel monitor mymaster 127.0.0.1 {primary} 2\n\
                 sentinel down-after-milliseconds mymaster 1000\n\
                 sentinel failover-timeout mymaster 3000\n",
                dir = dir.path().display()
            ),
        )
        .unwrap();
        let child = Command::new("redis-server")
            .arg(&conf)
            .arg("--sentinel")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server runs as a sentinel: apt-get install redis-server");
        SentinelProcess { child, port, dir }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("sentinel.log")).unwrap_or_default()
    }
}

impl Drop for SentinelProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A primary with a replica, watched by three sentinels that all know
/// the replica and each other.
async fn watched() -> (RedisServer, RedisServer, Vec<SentinelProcess>) {
    let (primary, replica) = RedisServer::with_replica().await;
    let sentinels: Vec<_> = (0..3)
        .map(|_| SentinelProcess::start(primary.port))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(20);
    for sentinel in &sentinels {
        loop {
            let client =
                redis::Client::open(format!("redis://127.0.0.1:{}", sentinel.port)).unwrap();
            let known = async {
                let mut c = client.get_multiplexed_async_connection().await.ok()?;
                let fields: Vec<String> = redis::cmd("SENTINEL")
                    .arg("master")
                    .arg("mymaster")
                    .query_async(&mut c)
                    .await
                    .ok()?;
                let field = |name: &str| {
                    let i = fields.iter().position(|f| f == name)?;
                    fields.get(i + 1).cloned()
                };
                Some((field("num-slaves")?, field("num-other-sentinels")?))
            };
            if known.await == Some(("1".to_owned(), "2".to_owned())) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the sentinel on {} did not learn the replica and the other sentinels:\n{}",
                sentinel.port,
                sentinel.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    (primary, replica, sentinels)
}

fn seeds(sentinels: &[SentinelProcess]) -> String {
    sentinels
        .iter()
        .map(|s| format!("127.0.0.1:{}", s.port))
        .collect::<Vec<_>>()
        .join(",")
}

/// The table loaded through the sentinels by `slugd load`, and an
/// instance on them whose reservations wait for one replica, reading
/// every symbol from Redis (no name cache), so that the table's reads
/// follow a switch too.
async fn served(primary: &RedisServer, sentinels: &[SentinelProcess]) -> Arc<App> {
    let seeds = seeds(sentinels);
    let out = slugd_command()
        .args(["--log", "warn", "load", "--redis-sentinel", &seeds])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "slugd load --redis-sentinel failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let config = RedisConfig {
        endpoint: Endpoint::sentinel(&seeds, "mymaster").unwrap(),
        ..primary.config()
    };
    let app = App::builder()
        .redis_config(config)
        .name_cache(0)
        .reservations(ReservationSettings {
            wait: Some(WaitReplicas::replicas(1, Duration::from_millis(500))),
            ..Default::default()
        })
        .spawn()
        .await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    Arc::new(app)
}

/// A reservation acknowledged: its owner, its slug, and when.
type Acknowledged = (String, String, Instant);

/// How many clients [`Reservers`] runs.
const RESERVERS: usize = 4;

/// Clients reserving through `app` until stopped, each answer 2xx or 503.
struct Reservers {
    stop: Arc<AtomicBool>,
    /// How many reservations they have had acknowledged so far.
    acknowledged: Arc<AtomicUsize>,
    /// Each client's acknowledged reservations and slowest refusal.
    clients: Vec<tokio::task::JoinHandle<(Vec<Acknowledged>, Duration)>>,
}

impl Reservers {
    fn start(app: &Arc<App>) -> Reservers {
        let stop = Arc::new(AtomicBool::new(false));
        let acknowledged = Arc::new(AtomicUsize::new(0));
        let clients = (0..RESERVERS)
            .map(|client| {
                let (app, stop) = (app.clone(), stop.clone());
                let counted = acknowledged.clone();
                tokio::spawn(async move {
                    let mut acknowledged = Vec::new();
                    let mut slowest_refusal = Duration::ZERO;
                    let mut i = 0;
                    while !stop.load(Ordering::Relaxed) {
                        let owner = format!("{client}-{i}");
                        let body = json!({"scope": "posts", "owner": owner, "title": format!("Post {}", i % 5)});
                        let started = Instant::now();
                        let (s, b) = app.post("/reservations", &body).await;
                        match s {
                            200 | 201 => {
                                let slug = b["slug"].as_str().unwrap().to_owned();
                                acknowledged.push((owner, slug, Instant::now()));
                                counted.fetch_add(1, Ordering::Relaxed);
                            }
                            503 => {
                                slowest_refusal = slowest_refusal.max(started.elapsed());
                                tokio::time::sleep(Duration::from_millis(20)).await;
                            }
                            _ => panic!("{s} {b}"),
                        }
                        i += 1;
                    }
                    (acknowledged, slowest_refusal)
                })
            })
            .collect();
        Reservers {
            stop,
            acknowledged,
            clients,
        }
    }

    /// Waits until some reservation is acknowledged after `since`, when
    /// `counted` had been acknowledged. A client may count one it was told
    /// of just before `since`, so it waits for more than one a client. The
    /// bound is no speed figure: each acknowledgement waits for a replica,
    /// which a busy machine gives late.
    async fn until_acknowledged_after(&self, since: Instant, counted: usize) {
        let deadline = since + Duration::from_secs(20);
        while self.acknowledged.load(Ordering::Relaxed) <= counted + RESERVERS {
            assert!(
                Instant::now() < deadline,
                "no reservation was acknowledged in the 20 s after the switch"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Stops them: every reservation acknowledged, with when, and the
    /// slowest refusal.
    async fn stop(self) -> (Vec<Acknowledged>, Duration) {
        self.stop.store(true, Ordering::Relaxed);
        let mut acknowledged = Vec::new();
        let mut slowest_refusal = Duration::ZERO;
        for client in self.clients {
            let (acks, slowest) = client.await.unwrap();
            acknowledged.extend(acks);
            slowest_refusal = slowest_refusal.max(slowest);
        }
        (acknowledged, slowest_refusal)
    }
}

/// Every reservation in `acknowledged` is `app`'s to look up, with its
/// owner; and some were acknowledged after `since`.
async fn all_there(app: &App, acknowledged: &[Acknowledged], since: Instant) {
    let after = acknowledged.iter().filter(|(_, _, at)| *at > since).count();
    assert!(
        after > 0,
        "no reservation was acknowledged after the switch"
    );
    for (owner, slug, _) in acknowledged {
        let (s, b) = app.get(&format!("/reservations/posts/{slug}")).await;
        assert_eq!((s, &b["owner"]), (200, &json!(owner)), "{slug}: {b}");
    }
}

#[tokio::test]
async fn the_service_follows_a_failover_and_loses_no_acknowledged_reservation() {
    let (mut primary, replica, sentinels) = watched().await;
    let app = served(&primary, &sentinels).await;
    // Clients reserve, each answer timed; the primary is killed meanwhile.
    let reservers = Reservers::start(&app);
    tokio::time::sleep(Duration::from_millis(500)).await;
    primary.kill();

    // The table is served again within seconds, from the replica the
    // sentinels promote, with no restart of the service.
    serve_again(
        &app,
        "/slug",
        json!({"title": "I ❤ Redis"}),
        Duration::from_secs(20),
        &sentinels,
    )
    .await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
    // Reservations wait for a replica, which the new primary lacks until
    // the old one comes back: restarted (empty, as it keeps nothing), the
    // sentinels make it a replica of the new primary.
    primary.restart_after_kill().await;
    reservations_go_on(&app, &sentinels, reservers, "while there was no primary").await;
    // The replica is the primary now, and every acknowledged reservation
    // was found on it.
    assert_eq!(role(&replica).await, "master");
}

/// A planned switch (`SENTINEL FAILOVER`): the replica promoted, the
/// primary demoted to its replica while still up. The service moves to
/// the new primary by itself (a write the demoted one refuses, or a
/// connection the sentinels close, sends it to look again), and every
/// acknowledged reservation is there; reservations that wait for one
/// replica go on, the old primary being it now.
#[tokio::test]
async fn a_planned_switch_is_followed_and_loses_no_acknowledged_reservation() {
    let (primary, replica, sentinels) = watched().await;
    let app = served(&primary, &sentinels).await;
    let reservers = Reservers::start(&app);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sentinel = redis::Client::open(format!("redis://127.0.0.1:{}", sentinels[0].port)).unwrap();
    let mut c = sentinel.get_multiplexed_async_connection().await.unwrap();
    let _: () = redis::cmd("SENTINEL")
        .arg("FAILOVER")
        .arg("mymaster")
        .query_async(&mut c)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if role(&replica).await == "master" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the replica was not promoted:\n{}",
            sentinels[0].log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    reservations_go_on(&app, &sentinels, reservers, "during the switch").await;
    assert_eq!(role(&primary).await, "slave");
}

/// After a switch of primary: reservations through `app` answered again
/// (asked until one is), then a second of `reservers` on the new primary,
/// and on until one of theirs is acknowledged there; no refusal on the way
/// slower than [`PROMPT`] (`when` says when in the failure message), and
/// every reservation acknowledged anywhere found.
async fn reservations_go_on(
    app: &App,
    sentinels: &[SentinelProcess],
    reservers: Reservers,
    when: &str,
) {
    let after = json!({"scope": "posts", "owner": "after", "title": "After"});
    serve_again(
        app,
        "/reservations",
        after,
        Duration::from_secs(20),
        sentinels,
    )
    .await;
    let served = Instant::now();
    let counted = reservers.acknowledged.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(1000)).await;
    reservers.until_acknowledged_after(served, counted).await;
    let (acknowledged, slowest_refusal) = reservers.stop().await;
    assert!(
        slowest_refusal < PROMPT,
        "a refusal took {slowest_refusal:?} {when}"
    );
    all_there(app, &acknowledged, served).await;
}

/// The role `ROLE` gives `server`: `master` or `slave`. Asked again when
/// the connection is closed under it: the sentinels close every client's
/// connection of both servers as they switch (`CLIENT KILL TYPE normal`),
/// and ROLE only reads.
async fn role(server: &RedisServer) -> String {
    let mut tries = 0;
    let role: Vec<redis::Value> = loop {
        let asked = match server.connection().await {
            Ok(mut c) => redis::cmd("ROLE").query_async(&mut c).await,
            Err(e) => Err(e),
        };
        match asked {
            Ok(role) => break role,
            Err(e) if tries < 20 && (e.is_io_error() || e.is_connection_dropped()) => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("ROLE: {e}"),
        }
    };
    match &role[0] {
        redis::Value::BulkString(role) => String::from_utf8_lossy(role).into_owned(),
        other => panic!("ROLE answered {other:?}"),
    }
}

/// Asks `POST path` with `body` until it is answered 2xx (each refusal a
/// 503), or fails the test after `within` with a sentinel's log.
async fn serve_again(
    app: &App,
    path: &str,
    body: serde_json::Value,
    within: Duration,
    sentinels: &[SentinelProcess],
) {
    if app
        .post_until_served(path, &body, None, within)
        .await
        .is_none()
    {
        panic!(
            "{path} was not served again in time:\n{}",
            sentinels[0].log()
        );
    }
}
