//! Several `slugd serve` processes (the real binary) on one Redis: they give
//! the same slugs, and a new table version reaches all of them without a
//! restart, with no request failing or mixing versions on the way.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fixtures::{RedisServer, load, load_settings, load_snowperson};
use crate::helpers::{App, Askers, post_titles};
use crate::serve_process::ServeProcess;

/// A `slugd serve` process on `redis`.
struct Instance {
    serve: ServeProcess,
}

impl Instance {
    async fn start(redis: &RedisServer) -> Instance {
        Self::start_with(redis, &[]).await
    }

    async fn start_with(redis: &RedisServer, extra: &[&str]) -> Instance {
        let serve = ServeProcess::builder()
            .log("warn")
            .args(["--redis-url", &redis.url()])
            .args(extra)
            .start()
            .await;
        serve.wait_until_ok("/readyz").await;
        Instance { serve }
    }

    /// `POST /slugs`: the status and the `slugs` array.
    async fn slugs(&self, client: &reqwest::Client, titles: &[String]) -> (u16, Value) {
        let r = post_titles(client, &self.serve.url("/slugs"), titles).await;
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap_or(Value::Null);
        (status, body["slugs"].clone())
    }
}

#[tokio::test]
async fn three_instances_give_identical_slugs() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let instances = [
        Instance::start(&redis).await,
        Instance::start(&redis).await,
        Instance::start(&redis).await,
    ];
    let titles: Vec<String> = slugd_engine::corpus::titles()
        .map(|t| format!("{t} ☃ ⬣ 🦄 ♞ 〠"))
        .chain(slugd_engine::corpus::titles().map(str::to_owned))
        .collect();
    let client = reqwest::Client::new();
    let (status, first) = instances[0].slugs(&client, &titles).await;
    assert_eq!(status, 200, "{first}");
    for instance in &instances[1..] {
        assert_eq!(instance.slugs(&client, &titles).await, (200, first.clone()));
    }
}

/// A load of a table with one name changed, while three instances serve
/// and clients keep asking: every answer is whole and from one version, and
/// every instance serves the new name soon after the switch.
#[tokio::test]
async fn a_new_table_version_reaches_every_instance_without_a_restart() {
    reload_reaches_three_instances(&[]).await;
}

/// With the periodic check an hour apart, only the loader's notice can
/// bring the new version: it does.
#[tokio::test]
async fn the_loaders_notice_alone_brings_the_new_version() {
    reload_reaches_three_instances(&["--refresh-interval-ms", "3600000"]).await;
}

async fn reload_reaches_three_instances(extra: &[&str]) {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let instances = [
        Instance::start_with(&redis, extra).await,
        Instance::start_with(&redis, extra).await,
        Instance::start_with(&redis, extra).await,
    ];
    let old = json!(["snowman-horizontal-hexagon", "i-heavy-heart-redis"]);
    let new = json!(["snowperson-horizontal-hexagon", "i-heavy-heart-redis"]);
    let titles = vec!["☃ ⬣".to_owned(), "I ❤ Redis".to_owned()];
    let client = reqwest::Client::new();
    for instance in &instances {
        assert_eq!(instance.slugs(&client, &titles).await, (200, old.clone()));
    }

    // Clients asking all the time, on every instance, before, during and
    // after the switch.
    let urls = instances.iter().map(|i| i.serve.url("/slugs")).collect();
    let askers = Askers::start(&client, urls, &titles, {
        let (old, new) = (old.clone(), new.clone());
        move |slugs| assert!(*slugs == old || *slugs == new, "mixed or wrong: {slugs}")
    });
    load_snowperson(load_settings(&redis)).await;
    let switched = Instant::now();
    let mut last = Duration::ZERO;
    for instance in &instances {
        loop {
            let (status, body) = instance.slugs(&client, &titles).await;
            assert_eq!(status, 200);
            if body == new {
                break;
            }
            // A bound that tells "picked up" from "never"; the time itself
            // is not asserted here (no suite of `cargo xtask bench` measures it).
            assert!(
                switched.elapsed() < Duration::from_secs(10),
                "{} still old",
                instance.serve.addr
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        last = last.max(switched.elapsed());
    }
    eprintln!("the last of three instances served the new version {last:?} after the switch");
    askers.stop().await;
}

/// A service given a replica's URL reads from the replica, and stays right
/// after a load on the primary.
#[tokio::test]
async fn a_service_reads_from_a_replica_and_follows_reloads() {
    let (primary, replica) = RedisServer::with_replica().await;
    load(&primary).await;
    let app = App::uncached(replica.config()).await;
    app.wait_for("/readyz", 200, Duration::from_secs(10)).await;
    assert_eq!(app.slug("☃ ⬣").await, "snowman-horizontal-hexagon");
    assert!(replica.hmget_calls().await > 0);
    assert_eq!(primary.hmget_calls().await, 0, "the primary was not read");

    load_snowperson(load_settings(&primary)).await;
    // The replica's reader sees the new version.
    app.wait_for_slug(
        "☃ ⬣",
        "snowperson-horizontal-hexagon",
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(primary.hmget_calls().await, 0, "the primary was not read");
}
