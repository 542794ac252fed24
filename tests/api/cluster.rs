//! Redis Cluster: a real cluster of redis-server processes on loopback
//! (made with `redis-cli --cluster create`), loaded by `slugd load
//! --redis-cluster` and served through it. The slugs match a single
//! server's, the buckets spread over every primary, a primary going down
//! stops only the titles that need its slots, and reads go to replicas when
//! asked to.

use std::time::{Duration, Instant};

use slugd::load::LoadSettings;
use slugd::redis_conn::RedisConfig;

use crate::fixtures::{
    LOADER, READER, RedisCluster, RedisServer, TestCerts, acl, data_file, info_number, load,
    load_snowperson, slugd_command,
};
use crate::helpers::{App, assert_says};

/// Keys matching `pattern` on one node (its own keys only).
async fn keys_on(node: &RedisServer, pattern: &str) -> Vec<String> {
    node.query(redis::cmd("KEYS").arg(pattern)).await
}

/// The buckets of UnicodeData's names on `node` (not CLDR's, `t:{v}:L..`,
/// nor Japanese readings, `t:{v}:J..`).
async fn char_buckets_on(node: &RedisServer) -> Vec<String> {
    let mut keys = keys_on(node, "slugd:t:*").await;
    keys.retain(|k| !k.contains(":L") && !k.contains(":J"));
    keys
}

/// `n` characters whose names `app` reads from `node`, each from another
/// of the node's buckets of UnicodeData names: a character counts when
/// slugging it makes the node answer an `HMGET`. Not every character in a
/// bucket does: rules 4 romanize some with their script (U+09F2 BENGALI
/// RUPEE MARK), so their slugs need no Redis. `app` must have no name
/// cache, or a name read once would not be read again.
async fn chars_read_from(app: &App, node: &RedisServer, n: usize) -> Vec<char> {
    let mut conn = node.connection().await.unwrap();
    let mut chars = Vec::new();
    for key in char_buckets_on(node).await {
        let bucket = u32::from_str_radix(key.rsplit(':').next().unwrap(), 16).unwrap();
        let fields: Vec<u32> = node.query(redis::cmd("HKEYS").arg(&key)).await;
        for offset in fields.into_iter().filter(|&f| f < 64) {
            let c = char::from_u32(bucket * 64 + offset).unwrap();
            let (_, before) = reads_and_hmgets(&mut conn).await;
            app.slug(&format!("x {c}")).await;
            let (_, after) = reads_and_hmgets(&mut conn).await;
            if after > before {
                chars.push(c);
                break;
            }
        }
        if chars.len() == n {
            return chars;
        }
    }
    panic!(
        "fewer than {n} buckets on node {} hold a character read from it",
        node.port
    );
}

/// Every symbol of the table, each in a title with other scripts.
fn symbol_titles() -> Vec<String> {
    let table = slugd::table::MemoryTable::from_file(&data_file(), &Default::default()).unwrap();
    let mut titles: Vec<String> = table.entries().map(|(c, _)| format!("Ω {c} x")).collect();
    titles.extend(slugd_engine::corpus::titles().map(str::to_owned));
    titles
}

#[tokio::test]
async fn a_cluster_gives_the_same_slugs_as_one_server_with_buckets_on_every_primary() {
    let cluster = RedisCluster::start(3, 0).await;
    let single = RedisServer::start().await;
    let on_single = load(&single).await;

    // The real binary, configured the way the docs say.
    let out = slugd_command()
        .args(["--log", "warn", "load", "--redis-cluster", &cluster.seeds()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "slugd load --redis-cluster failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("{} entries", on_single.entries)),
        "{stdout}"
    );

    // Same keys as on one server, spread over all three primaries.
    let single_keys = keys_on(&single, "slugd:*").await.len();
    let mut per_node = Vec::new();
    for node in &cluster.nodes {
        per_node.push(char_buckets_on(node).await.len());
    }
    let mut cluster_keys = 0;
    for node in &cluster.nodes {
        cluster_keys += keys_on(node, "slugd:*").await.len();
    }
    assert_eq!(cluster_keys, single_keys, "buckets per node: {per_node:?}");
    assert!(
        per_node.iter().all(|&n| n >= 30),
        "buckets per node: {per_node:?}"
    );

    let on_cluster = App::uncached(cluster.config(false)).await;
    let on_single = App::on_redis(&single).await;
    for chunk in symbol_titles().chunks(1000) {
        assert_eq!(on_cluster.slugs(chunk).await, on_single.slugs(chunk).await);
    }
    assert_eq!(
        on_cluster.slug("This is my ☃ post!").await,
        "this-is-my-snowman-post"
    );

    // A second load switches and removes the first version from every node.
    let report = cluster.load().await;
    assert_eq!(report.removed.len(), 1, "{report:?}");
    for node in &cluster.nodes {
        let old = keys_on(node, &format!("slugd:t:{}:*", report.removed[0])).await;
        assert!(old.is_empty(), "node {} kept {old:?}", node.port);
    }
    assert_eq!(
        on_cluster.slug("I ❤ Redis").await,
        on_single.slug("I ❤ Redis").await
    );
}

#[tokio::test]
async fn a_primary_going_down_stops_only_its_slots_and_its_return_brings_them_back() {
    let mut cluster = RedisCluster::start(3, 0).await;
    cluster.load().await;
    let app = App::uncached(cluster.config(false)).await;
    // Polled, and answered as soon as it is ready: a generous bound, so
    // that a busy machine's slow first connection is no failure.
    app.wait_for("/readyz", 200, Duration::from_secs(30)).await;

    // The victim holds buckets but not the control keys; a survivor's
    // bucket gives a title the restart must not touch.
    let mut victim = None;
    let mut survivor = None;
    for (i, node) in cluster.nodes.iter().enumerate() {
        let control = !keys_on(node, "slugd:{ctl}:*").await.is_empty();
        let c = chars_read_from(&app, node, 1).await[0];
        match (control, victim) {
            (false, None) => victim = Some((i, c)),
            _ => survivor = Some(c),
        }
    }
    let (victim, lost) = victim.unwrap();
    let kept = survivor.unwrap();
    let kept_title = format!("keep {kept}");
    let lost_title = format!("lose {lost}");
    let kept_slug = app.slug(&kept_title).await;
    let lost_slug = app.slug(&lost_title).await;

    cluster.nodes[victim].save().await;
    cluster.nodes[victim].kill();

    // Titles on the other primaries keep working, every time.
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        assert_eq!(app.slug(&kept_title).await, kept_slug);
        let asked = Instant::now();
        let (status, body) = app
            .post("/slug", &serde_json::json!({ "title": lost_title }))
            .await;
        assert!(status == 503 || status == 200, "{status} {body}");
        if status == 503 {
            assert!(asked.elapsed() < Duration::from_secs(2), "slow 503");
            assert_says(&body, "Redis");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, _) = app
        .post("/slug", &serde_json::json!({ "title": lost_title }))
        .await;
    assert_eq!(status, 503, "the down primary's slots cannot answer");

    // It comes back with its data; the service recovers by itself.
    cluster.nodes[victim].restart_after_kill().await;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, body) = app
            .post("/slug", &serde_json::json!({ "title": lost_title }))
            .await;
        if status == 200 {
            assert_eq!(body["slug"], lost_slug.as_str());
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not back after the restart: {status} {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(app.slug(&kept_title).await, kept_slug);
}

/// HMGET calls per node, by node index.
async fn hmgets(cluster: &RedisCluster) -> Vec<u64> {
    let mut out = Vec::new();
    for node in &cluster.nodes {
        out.push(node.hmget_calls().await);
    }
    out
}

#[tokio::test]
async fn reads_go_to_replicas_when_asked_and_stay_right_after_a_reload() {
    let cluster = RedisCluster::start(3, 1).await;
    // The service is up before the first load, as on a fresh deployment:
    // the cluster does not list a replica until it has replicated
    // something, so the service must notice the replicas later.
    let app = App::uncached(cluster.config(true)).await;
    let loader = cluster.load_settings();
    slugd::load::run(&loader).await.unwrap();
    cluster.wait_replicated().await;

    let in_process = App::in_process().await;
    let titles = symbol_titles();
    let primaries = cluster.primaries().await;
    let from_primaries = |before: &[u64], after: &[u64]| -> u64 {
        primaries.iter().map(|&i| after[i] - before[i]).sum()
    };
    // Within a few periodic checks (200 ms here), reads leave the primaries.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let before = hmgets(&cluster).await;
        for chunk in titles.chunks(1000) {
            app.slugs(chunk).await;
        }
        if from_primaries(&before, &hmgets(&cluster).await) == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "reads still reach primaries after 10 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let before = hmgets(&cluster).await;
    for chunk in titles.chunks(1000) {
        assert_eq!(app.slugs(chunk).await, in_process.slugs(chunk).await);
    }
    let after = hmgets(&cluster).await;
    assert_eq!(from_primaries(&before, &after), 0, "HMGETs on primaries");
    let total: u64 = after.iter().zip(&before).map(|(a, b)| a - b).sum();
    assert!(total >= 163, "only {total} HMGETs reached the replicas");

    // A reload with one name changed: served from the replicas once they
    // have it, never a mix and never an error. The bound is generous and
    // the loop ends as soon as the new name comes: the replicas and the
    // periodic check may both be late on a busy machine.
    load_snowperson(loader).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let slug = app.slug("☃").await;
        if slug == "snowperson" {
            break;
        }
        assert_eq!(slug, "snowman");
        assert!(Instant::now() < deadline, "the reload did not arrive");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for chunk in titles.chunks(1000) {
        let (a, b) = (app.slugs(chunk).await, in_process.slugs(chunk).await);
        for ((title, x), y) in chunk.iter().zip(&a).zip(&b) {
            let want = match title.contains('☃') {
                true => y.replace("snowman", "snowperson"),
                false => y.clone(),
            };
            assert_eq!(x, &want, "{title}");
        }
    }
}

/// From one `INFO stats commandstats` on `conn`: `total_reads_processed`
/// (how many times the node read from its clients, so one per pipeline; the
/// INFO itself counts one) and the calls of HMGET.
async fn reads_and_hmgets(conn: &mut slugd::redis_conn::Conn) -> (u64, u64) {
    let info: String = redis::cmd("INFO")
        .arg("stats")
        .arg("commandstats")
        .query_async(conn)
        .await
        .unwrap();
    (
        info_number(&info, "total_reads_processed:"),
        info_number(&info, "cmdstat_hmget:calls="),
    )
}

#[tokio::test]
async fn a_request_asks_each_node_it_needs_once_and_no_other() {
    let cluster = RedisCluster::start(3, 0).await;
    cluster.load().await;
    let app = App::builder()
        .redis_config(cluster.config(false))
        .name_cache(0)
        .refresh_interval(Duration::from_secs(3600))
        .spawn()
        .await;
    app.slug("warm up: ☃").await;

    // Two buckets on node 0, one on node 1, none on node 2.
    let mut title = String::from("mix");
    let on_0 = chars_read_from(&app, &cluster.nodes[0], 2).await;
    let on_1 = chars_read_from(&app, &cluster.nodes[1], 1).await;
    for c in on_0.into_iter().chain(on_1) {
        title.push(' ');
        title.push(c);
    }
    let mut conns = Vec::new();
    let mut before = Vec::new();
    for node in &cluster.nodes {
        let mut conn = node.connection().await.unwrap();
        before.push(reads_and_hmgets(&mut conn).await);
        conns.push(conn);
    }
    app.slug(&title).await;
    let mut asked = Vec::new();
    for (conn, (r, h)) in conns.iter_mut().zip(before) {
        let (r2, h2) = reads_and_hmgets(conn).await;
        // Minus the INFO that measures.
        asked.push((r2 - r - 1, h2 - h));
    }
    assert_eq!(
        asked,
        vec![(1, 2), (1, 1), (0, 0)],
        "(reads, HMGETs) per node"
    );
}

#[tokio::test]
async fn the_loaders_notice_reaches_a_service_on_the_cluster() {
    let cluster = RedisCluster::start(3, 0).await;
    let loader = cluster.load_settings();
    slugd::load::run(&loader).await.unwrap();
    // No periodic check for an hour, and the old name cached: only the
    // loader's notice can bring the new version.
    let app = App::builder()
        .redis_config(cluster.config(false))
        .refresh_interval(Duration::from_secs(3600))
        .spawn()
        .await;
    assert_eq!(app.slug("☃").await, "snowman");
    assert_eq!(app.slug("☃").await, "snowman");

    load_snowperson(loader).await;
    let switched = Instant::now();
    // With no periodic check for an hour, only the notice can bring it
    // within this bound, which is generous so that a busy machine's slow
    // notice is not taken for a lost one.
    app.wait_for_slug("☃", "snowperson", Duration::from_secs(30))
        .await;
    println!(
        "notice reached the service {:?} after the load returned",
        switched.elapsed()
    );
}

#[tokio::test]
async fn when_a_primary_dies_its_replica_takes_over_and_the_service_follows() {
    let mut cluster = RedisCluster::start(3, 1).await;
    cluster.load().await;
    cluster.wait_replicated().await;
    let app = App::uncached(cluster.config(false)).await;

    // A primary without the control keys, and a title that needs it.
    let mut victim = None;
    for i in cluster.primaries().await {
        if keys_on(&cluster.nodes[i], "slugd:{ctl}:*").await.is_empty() {
            victim = Some(i);
            break;
        }
    }
    let victim = victim.unwrap();
    let c = chars_read_from(&app, &cluster.nodes[victim], 1).await[0];
    let title = format!("moved {c}");
    let want = app.slug(&title).await;

    cluster.nodes[victim].kill();
    // The cluster notices (node timeout 5 s), promotes the replica; the
    // service finds the new primary by itself, without a restart.
    let killed = Instant::now();
    let mut failed = 0;
    loop {
        let (status, body) = app
            .post("/slug", &serde_json::json!({ "title": title }))
            .await;
        if status == 200 {
            assert_eq!(body["slug"], want.as_str());
            if failed > 0 {
                break;
            }
        } else {
            assert_eq!(status, 503, "{body}");
            failed += 1;
        }
        // A bound on liveness, not a speed: on a loaded 2-core machine an
        // election after the 5 s node timeout has taken over 30 s.
        assert!(
            killed.elapsed() < Duration::from_secs(90),
            "no failover within 90 s ({failed} answers of 503 so far, last {status}: {body})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "served again {:?} after the primary died ({failed} answers of 503 meanwhile)",
        killed.elapsed()
    );
    for chunk in symbol_titles().chunks(1000) {
        app.slugs(chunk).await;
    }
}

#[tokio::test]
async fn on_a_cluster_the_documented_acl_users_are_enough() {
    let cluster = RedisCluster::start(3, 1).await;
    // docs/operations.md: on a cluster both users also need `cluster|slots`, and a
    // reader from replicas `readonly` and `role`.
    let reader = format!("{READER} +cluster|slots +readonly +role");
    let loader = format!("{LOADER} +cluster|slots");
    for node in &cluster.nodes {
        acl(node, "slugd-reader", &reader).await;
        acl(node, "slugd-loader", &loader).await;
    }
    let load_as = LoadSettings {
        redis: cluster.config_as("slugd-loader", "loader-pw", false),
        ..cluster.load_settings()
    };
    slugd::load::run(&load_as)
        .await
        .expect("the loader user loads");
    slugd::load::run(&load_as)
        .await
        .expect("and loads again, removing the old version");
    cluster.wait_replicated().await;

    let app = App::uncached(cluster.config_as("slugd-reader", "reader-pw", true)).await;
    let in_process = App::in_process().await;
    let titles = symbol_titles();
    // A few periodic checks (with their ROLE questions) run meanwhile.
    let until = Instant::now() + Duration::from_secs(1);
    while Instant::now() < until {
        for chunk in titles.chunks(1000) {
            assert_eq!(app.slugs(chunk).await, in_process.slugs(chunk).await);
        }
    }
    let (status, body) = app.get("/readyz").await;
    assert_eq!(status, 200, "{body}");

    for node in &cluster.nodes {
        let denied: Vec<redis::Value> = node.query(redis::cmd("ACL").arg("LOG")).await;
        assert!(denied.is_empty(), "ACL LOG of {}: {denied:?}", node.port);
    }
}

#[tokio::test]
async fn a_cluster_that_speaks_only_tls_is_loaded_and_read_over_rediss() {
    let certs = TestCerts::make();
    let cluster = RedisCluster::start_tls(3, 1, &certs).await;
    assert!(cluster.seeds().starts_with("rediss://"));
    cluster.load().await;
    cluster.wait_replicated().await;
    let app = App::uncached(cluster.config(true)).await;
    let in_process = App::in_process().await;
    for chunk in symbol_titles().chunks(1000) {
        assert_eq!(app.slugs(chunk).await, in_process.slugs(chunk).await);
    }

    // Without the CA the cluster's certificates are not trusted: a clear
    // 503, not a hang.
    let untrusted = RedisConfig {
        ca_cert: None,
        ..cluster.config(false)
    };
    let app = App::builder().redis_config(untrusted).spawn().await;
    let asked = Instant::now();
    let (status, body) = app
        .post("/slug", &serde_json::json!({ "title": "☃" }))
        .await;
    assert_eq!(status, 503, "{body}");
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}
