//! Redis Cluster: a real cluster of redis-server processes on loopback
//! (made with `redis-cli --cluster create`), loaded by `slugd load
//! --redis-cluster` and served through it. The slugs match a single
//! server's, the buckets spread over every primary, a primary going down
//! stops only the titles that need its slots, and reads go to replicas when
//! asked to.

use std::process::Command;
use std::time::{Duration, Instant};

use slugd::load::{LoadReport, LoadSettings};
use slugd::redis_conn::{Endpoint, RedisConfig};

use crate::helpers::{
    App, RedisServer, TestCerts, data_file, free_port, info_number, load, load_settings,
    settings_for, snowman_renamed,
};

/// A Redis Cluster of the test's own; every node is killed on drop.
pub struct RedisCluster {
    pub nodes: Vec<RedisServer>,
    replicas: usize,
    /// The CA file, when the nodes speak only TLS.
    tls_ca: Option<std::path::PathBuf>,
}

impl RedisCluster {
    /// `primaries` primaries with `replicas` replicas each, all slots
    /// assigned, every node agreeing the cluster is ok.
    pub async fn start(primaries: usize, replicas: usize) -> RedisCluster {
        Self::start_maybe_tls(primaries, replicas, None).await
    }

    /// The same, every node speaking only TLS (clients, cluster bus and
    /// replication), with certificates from `certs`.
    pub async fn start_tls(primaries: usize, replicas: usize, certs: &TestCerts) -> RedisCluster {
        Self::start_maybe_tls(primaries, replicas, Some(certs)).await
    }

    async fn start_maybe_tls(
        primaries: usize,
        replicas: usize,
        certs: Option<&TestCerts>,
    ) -> RedisCluster {
        let mut nodes = Vec::new();
        for _ in 0..primaries * (1 + replicas) {
            let bus = free_port().to_string();
            let mut args = vec![
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-port",
                &bus,
                // Long enough that a busy test machine marks no node
                // as failing.
                "--cluster-node-timeout",
                "5000",
                // Slots of a primary that is down stop; the others go on.
                "--cluster-require-full-coverage",
                "no",
            ];
            let node = match certs {
                Some(certs) => {
                    args.extend(["--tls-cluster", "yes", "--tls-replication", "yes"]);
                    RedisServer::start_tls_with(certs, &args).await
                }
                None => RedisServer::start_with(&args).await,
            };
            nodes.push(node);
        }
        let tls_ca = certs.map(|c| c.ca.clone());
        let cluster = RedisCluster {
            nodes,
            replicas,
            tls_ca,
        };
        let mut cli = Command::new("redis-cli");
        if let Some(ca) = &cluster.tls_ca {
            cli.arg("--tls").arg("--cacert").arg(ca);
        }
        let out = cli
            .arg("--cluster")
            .arg("create")
            .args(cluster.addresses())
            .args(["--cluster-replicas", &replicas.to_string(), "--cluster-yes"])
            .output()
            .expect("redis-cli makes the test cluster: apt-get install redis-tools (scripts/test.sh does)");
        assert!(
            out.status.success(),
            "redis-cli --cluster create failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        cluster.wait_ok().await;
        cluster
    }

    fn addresses(&self) -> Vec<String> {
        self.nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect()
    }

    /// The seed list as `--redis-cluster` takes it.
    pub fn seeds(&self) -> String {
        let scheme = match self.tls_ca {
            Some(_) => "rediss://",
            None => "",
        };
        self.addresses()
            .iter()
            .map(|a| format!("{scheme}{a}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Waits until every node says the cluster is ok, knows every other
    /// node in its role with no failure flag, and every replica is in sync
    /// with its primary.
    pub async fn wait_ok(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let primaries = self.nodes.len() / (1 + self.replicas);
        for node in &self.nodes {
            loop {
                let info: String = node.query(redis::cmd("CLUSTER").arg("INFO")).await;
                let repl: String = node.query(redis::cmd("INFO").arg("replication")).await;
                let nodes: String = node.query(redis::cmd("CLUSTER").arg("NODES")).await;
                let flags: Vec<&str> = nodes.lines().filter_map(|l| l.split(' ').nth(2)).collect();
                let count = |role: &str| flags.iter().filter(|f| f.contains(role)).count();
                let healthy = flags.iter().all(|f| {
                    !f.contains("fail") && !f.contains("handshake") && !f.contains("noaddr")
                });
                if info.contains("cluster_state:ok")
                    && count("master") == primaries
                    && count("slave") == self.nodes.len() - primaries
                    && healthy
                    && (repl.contains("role:master") || repl.contains("master_link_status:up"))
                {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "node {} not ready:\n{info}\n{repl}",
                    node.port
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }

    /// How the tests reach the cluster: 1 s timeouts.
    pub fn config(&self, read_from_replicas: bool) -> RedisConfig {
        RedisConfig {
            endpoint: Endpoint::cluster(&self.seeds(), read_from_replicas).unwrap(),
            // 1 s, not the 300 ms of single-server tests: opening a cluster
            // connection (TLS handshakes with six nodes) on a machine busy
            // with several test clusters takes longer, and these tests are
            // about routing, not timeouts. The outage tests still bound
            // every answer well inside their limits.
            connect_timeout: Duration::from_secs(1),
            response_timeout: Duration::from_secs(1),
            ..self.nodes[0].config()
        }
    }

    /// Load settings for the cluster with the shipped data file.
    pub fn load_settings(&self) -> LoadSettings {
        LoadSettings {
            redis: self.config(false),
            ..load_settings(&self.nodes[0])
        }
    }

    /// Loads the shipped data file into the cluster.
    pub async fn load(&self) -> LoadReport {
        slugd::load::run(&self.load_settings())
            .await
            .unwrap_or_else(|e| panic!("load into the cluster failed: {e:#}"))
    }

    /// An app on the cluster with the name cache off, so every title with
    /// a symbol reads the cluster.
    pub async fn uncached_app(&self, read_from_replicas: bool) -> App {
        let mut settings = settings_for(Some(self.config(read_from_replicas)));
        settings.table.name_cache = 0;
        App::spawn(settings).await
    }

    /// Indexes of the nodes that are primaries now.
    pub async fn primaries(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let repl: String = node.query(redis::cmd("INFO").arg("replication")).await;
            if repl.contains("role:master") {
                out.push(i);
            }
        }
        out
    }

    /// Waits until each primary's replica has all its writes.
    pub async fn wait_replicated(&self) {
        for primary in self.primaries().await {
            let acked: i64 = self.nodes[primary]
                .query(redis::cmd("WAIT").arg(1).arg(5000))
                .await;
            assert_eq!(acked, 1, "the replica of {} lags", self.nodes[primary].port);
        }
    }
}

/// Keys matching `pattern` on one node (its own keys only).
async fn keys_on(node: &RedisServer, pattern: &str) -> Vec<String> {
    node.query(redis::cmd("KEYS").arg(pattern)).await
}

/// A table character stored in bucket key `key` on `node`.
async fn char_in_bucket(node: &RedisServer, key: &str) -> char {
    let bucket = u32::from_str_radix(key.rsplit(':').next().unwrap(), 16).unwrap();
    let fields: Vec<u32> = node.query(redis::cmd("HKEYS").arg(key)).await;
    let offset = fields.into_iter().find(|f| *f < 64).unwrap();
    char::from_u32(bucket * 64 + offset).unwrap()
}

/// Every symbol of the table, each in a title with other scripts.
fn symbol_titles() -> Vec<String> {
    let table = slugd::table::MemoryTable::from_file(&data_file(), &Default::default()).unwrap();
    let mut titles: Vec<String> = table.entries().map(|(c, _)| format!("Ω {c} x")).collect();
    titles.extend(slugd::corpus::titles().map(str::to_owned));
    titles
}

#[tokio::test]
async fn a_cluster_gives_the_same_slugs_as_one_server_with_buckets_on_every_primary() {
    let cluster = RedisCluster::start(3, 0).await;
    let single = RedisServer::start().await;
    let on_single = load(&single).await;

    // The real binary, configured the way the docs say.
    let out = Command::new(env!("CARGO_BIN_EXE_slugd"))
        .args(["--log", "warn", "load", "--redis-cluster", &cluster.seeds()])
        .env("SLUGD_DATA", data_file())
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
        per_node.push(keys_on(node, "slugd:t:*").await.len());
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

    let on_cluster = cluster.uncached_app(false).await;
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
    let app = cluster.uncached_app(false).await;
    app.wait_for("/readyz", 200, Duration::from_secs(5)).await;

    // The victim holds buckets but not the control keys; a survivor's
    // bucket gives a title the restart must not touch.
    let mut victim = None;
    let mut survivor = None;
    for (i, node) in cluster.nodes.iter().enumerate() {
        let control = !keys_on(node, "slugd:{ctl}:*").await.is_empty();
        let bucket = keys_on(node, "slugd:t:*").await.remove(0);
        let c = char_in_bucket(node, &bucket).await;
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
            assert!(body["error"].as_str().unwrap().contains("Redis"), "{body}");
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
    let app = cluster.uncached_app(true).await;
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
    // have it, never a mix and never an error.
    let changed = snowman_renamed();
    slugd::load::run(&slugd::load::LoadSettings {
        data: changed.path().to_owned(),
        ..loader
    })
    .await
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
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
    let mut settings = settings_for(Some(cluster.config(false)));
    settings.table.name_cache = 0;
    settings.table.refresh_interval = Duration::from_secs(3600);
    let app = App::spawn(settings).await;
    app.slug("warm up: ☃").await;

    // Two buckets on node 0, one on node 1, none on node 2.
    let on_0 = keys_on(&cluster.nodes[0], "slugd:t:*").await;
    let on_1 = keys_on(&cluster.nodes[1], "slugd:t:*").await;
    let mut title = String::from("mix");
    for (node, key) in [(0, &on_0[0]), (0, &on_0[1]), (1, &on_1[0])] {
        title.push(' ');
        title.push(char_in_bucket(&cluster.nodes[node], key).await);
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
    let mut settings = settings_for(Some(cluster.config(false)));
    settings.table.refresh_interval = Duration::from_secs(3600);
    let app = App::spawn(settings).await;
    assert_eq!(app.slug("☃").await, "snowman");
    assert_eq!(app.slug("☃").await, "snowman");

    let changed = snowman_renamed();
    slugd::load::run(&slugd::load::LoadSettings {
        data: changed.path().to_owned(),
        ..loader
    })
    .await
    .unwrap();
    let switched = Instant::now();
    while app.slug("☃").await != "snowperson" {
        assert!(
            switched.elapsed() < Duration::from_secs(1),
            "no notice within 1 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
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
    let app = cluster.uncached_app(false).await;

    // A primary without the control keys, and a title that needs it.
    let mut victim = None;
    for i in cluster.primaries().await {
        if keys_on(&cluster.nodes[i], "slugd:{ctl}:*").await.is_empty() {
            victim = Some(i);
            break;
        }
    }
    let victim = victim.unwrap();
    let bucket = keys_on(&cluster.nodes[victim], "slugd:t:*").await.remove(0);
    let title = format!(
        "moved {}",
        char_in_bucket(&cluster.nodes[victim], &bucket).await
    );
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
        assert!(
            killed.elapsed() < Duration::from_secs(30),
            "no failover within 30 s"
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
    use crate::security::{LOADER, READER, acl};
    let cluster = RedisCluster::start(3, 1).await;
    // README: on a cluster both users also need `cluster|slots`, and a
    // reader from replicas `readonly` and `role`.
    let reader = format!("{READER} +cluster|slots +readonly +role");
    let loader = format!("{LOADER} +cluster|slots");
    for node in &cluster.nodes {
        acl(node, "slugd-reader", &reader).await;
        acl(node, "slugd-loader", &loader).await;
    }
    let seeds = |user: &str, password: &str| {
        cluster
            .nodes
            .iter()
            .map(|n| format!("redis://{user}:{password}@127.0.0.1:{}", n.port))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut load_as = cluster.load_settings();
    load_as.redis.endpoint = Endpoint::cluster(&seeds("slugd-loader", "loader-pw"), false).unwrap();
    slugd::load::run(&load_as)
        .await
        .expect("the loader user loads");
    slugd::load::run(&load_as)
        .await
        .expect("and loads again, removing the old version");
    cluster.wait_replicated().await;

    let mut config = cluster.config(true);
    config.endpoint = Endpoint::cluster(&seeds("slugd-reader", "reader-pw"), true).unwrap();
    let mut settings = settings_for(Some(config));
    settings.table.name_cache = 0;
    let app = App::spawn(settings).await;
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
    let app = cluster.uncached_app(true).await;
    let in_process = App::in_process().await;
    for chunk in symbol_titles().chunks(1000) {
        assert_eq!(app.slugs(chunk).await, in_process.slugs(chunk).await);
    }

    // Without the CA the cluster's certificates are not trusted: a clear
    // 503, not a hang.
    let mut untrusted = cluster.config(false);
    untrusted.ca_cert = None;
    let app = App::spawn(settings_for(Some(untrusted))).await;
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
