//! The loader: a compact table, atomic switches, harmless reruns, clean
//! failures, and no request ever seeing a partial table.

use std::io::Write;
use std::time::Duration;

use slugd::redis_conn::RedisConfig;

use crate::fixtures::{
    RedisServer, data_file, load, load_settings, load_snowperson, slugd_command,
};
use crate::helpers::{App, Askers};

async fn keys(redis: &RedisServer, pattern: &str) -> Vec<String> {
    let mut found: Vec<String> = redis.query(redis::cmd("KEYS").arg(pattern)).await;
    found.sort();
    found
}

#[tokio::test]
async fn the_default_table_is_small_and_every_bucket_a_listpack() {
    let redis = RedisServer::start().await;
    let report = load(&redis).await;
    assert_eq!(report.entries, 7616);
    assert_eq!(report.locales, 1);
    assert!(report.cldr_names > 3900, "{report}");
    // The target was 250 kB for the 6,634 symbols of category So: the
    // same bytes per name (37.7) now that currency and maths signs and
    // English CLDR names are in the table too.
    let names = report.entries + report.cldr_names;
    assert!(
        report.bytes * 6634 <= 250_000 * names,
        "table takes {} bytes for {names} names",
        report.bytes,
    );
    let buckets = keys(&redis, &format!("slugd:t:{}:*", report.version)).await;
    assert_eq!(buckets.len() as u64, report.keys - 1);
    for key in &buckets {
        let encoding: String = redis
            .query(redis::cmd("OBJECT").arg("ENCODING").arg(key))
            .await;
        assert_eq!(encoding, "listpack", "{key}");
    }
    let current: u64 = redis
        .query(redis::cmd("GET").arg("slugd:{ctl}:current"))
        .await;
    assert_eq!(current, report.version);
}

#[tokio::test]
async fn loading_again_switches_and_removes_the_old_version() {
    let redis = RedisServer::start().await;
    let first = load(&redis).await;
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("☃").await, "snowman");
    let second = load(&redis).await;
    assert_eq!(second.version, first.version + 1);
    assert_eq!(second.removed, vec![first.version]);
    assert!(
        keys(&redis, &format!("slugd:t:{}:*", first.version))
            .await
            .is_empty()
    );
    assert!(
        keys(&redis, &format!("slugd:meta:{}", first.version))
            .await
            .is_empty()
    );
    let versions: Vec<u64> = redis
        .query(redis::cmd("SMEMBERS").arg("slugd:{ctl}:versions"))
        .await;
    assert_eq!(versions, vec![second.version]);
    // The service moves to the new version on its own.
    assert_eq!(app.slug("☃ ⬣").await, "snowman-horizontal-hexagon");
}

#[tokio::test]
async fn a_name_cached_from_one_version_is_not_served_from_the_next() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    // Twice: the second answer comes from the name cache.
    assert_eq!(app.slug("☃").await, "snowman");
    assert_eq!(app.slug("☃").await, "snowman");
    load_snowperson(load_settings(&redis)).await;
    // A name the cache never had moves the service to the new version
    // (the old one is gone), whether or not the switch notice came first.
    assert_eq!(app.slug("⬣").await, "horizontal-hexagon");
    assert_eq!(app.slug("☃").await, "snowperson");
}

#[tokio::test]
async fn a_load_removes_what_an_interrupted_load_left_behind() {
    let redis = RedisServer::start().await;
    // What a loader killed half-way leaves: a version in the set, some
    // buckets, no meta, never switched to.
    let _: () = redis
        .query(redis::cmd("SADD").arg("slugd:{ctl}:versions").arg(41))
        .await;
    let _: () = redis
        .query(
            redis::cmd("HSET")
                .arg("slugd:t:41:98")
                .arg(3)
                .arg("snowman"),
        )
        .await;
    let report = load(&redis).await;
    assert_eq!(report.removed, vec![41]);
    assert!(keys(&redis, "slugd:t:41:*").await.is_empty());
}

#[tokio::test]
async fn a_file_with_bad_lines_is_refused_and_the_live_table_stays() {
    let redis = RedisServer::start().await;
    let good = load(&redis).await;
    let keys_before = keys(&redis, "slugd:*").await;

    let text = std::fs::read_to_string(data_file()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[9000] = "26ZZ;BROKEN;So;0;ON;;;;;N;;;;;";
    lines[9001] = "2604;;So;0;ON;;;;;N;;;;;";
    let mut bad = tempfile::NamedTempFile::new().unwrap();
    bad.write_all(lines.join("\n").as_bytes()).unwrap();
    let mut settings = load_settings(&redis);
    settings.data = bad.path().into();
    let err = slugd::load::run(&settings).await.unwrap_err().to_string();
    let path = bad.path().display().to_string();
    assert!(
        err.contains(&format!(
            "{path}:9001: code point '26ZZ' is not hexadecimal"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("{path}:9002: the name field is empty")),
        "{err}"
    );

    let current: u64 = redis
        .query(redis::cmd("GET").arg("slugd:{ctl}:current"))
        .await;
    assert_eq!(current, good.version);
    assert_eq!(
        keys(&redis, "slugd:*").await,
        keys_before,
        "nothing left behind"
    );
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("☢").await, "radioactive");

    // A missing file is named too, and touches nothing.
    settings.data = "/nonexistent/UnicodeData.txt".into();
    let err = format!("{:#}", slugd::load::run(&settings).await.unwrap_err());
    assert!(
        err.contains("cannot open /nonexistent/UnicodeData.txt"),
        "{err}"
    );
}

/// Requests flow through several loads; every answer is whole and right.
#[tokio::test]
async fn requests_during_loads_never_see_a_partial_table() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    // A generous response timeout: this test is about whole answers. The
    // clients, the service and the loads share the test's one thread, and
    // on a busy machine a slow answer must not become a 503.
    let app = App::builder()
        .redis_config(RedisConfig {
            response_timeout: Duration::from_secs(5),
            ..redis.config()
        })
        .spawn()
        .await;
    let titles: Vec<String> = slugd_engine::corpus::titles()
        .map(|t| format!("{t} ☃ ⬣ 🦄 ♞"))
        .collect();
    let want = App::in_process().await.slugs(&titles).await;

    let clients = Askers::start(
        &app.client,
        vec![app.url("/slugs"); 4],
        &titles,
        move |slugs| {
            let got: Vec<String> = serde_json::from_value(slugs.clone()).unwrap();
            assert_eq!(got, want);
        },
    );
    for _ in 0..5 {
        load(&redis).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    clients.stop().await;
}

/// Line ends and a byte order mark are encodings, not errors: a file saved
/// with CRLF and a BOM loads the same table.
#[tokio::test]
async fn crlf_and_a_byte_order_mark_load_the_same_table() {
    let redis = RedisServer::start().await;
    let text = std::fs::read_to_string(data_file()).unwrap();
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(format!("\u{FEFF}{}", text.replace('\n', "\r\n")).as_bytes())
        .unwrap();
    let mut settings = load_settings(&redis);
    settings.data = file.path().into();
    let report = slugd::load::run(&settings).await.unwrap();
    assert_eq!(report.entries, 7616);
    let app = App::on_redis(&redis).await;
    assert_eq!(
        app.slug("〠 ⬣").await,
        "postal-mark-face-horizontal-hexagon"
    );
}

#[test]
fn the_loader_binary_exits_non_zero_naming_each_bad_line() {
    let text = "2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n2604;;So;0;ON;;;;;N;;;;;\nD800;SURROGATE;So;0;ON;;;;;N;;;;;\n2605;CUT";
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    // The file is checked as it streams; the switch never happens.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let redis = rt.block_on(RedisServer::start());
    let out = slugd_command()
        .args(["load", "--redis-url", &redis.url(), "--data"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let path = file.path().display();
    for want in [
        format!("{path}:2: the name field is empty"),
        format!("{path}:3: code point U+D800 is not a Unicode scalar value"),
        format!("{path}:4: the file ends in the middle of a line"),
    ] {
        assert!(err.contains(&want), "{err}");
    }
    let current: Option<u64> =
        rt.block_on(redis.query(redis::cmd("GET").arg("slugd:{ctl}:current")));
    assert_eq!(current, None, "nothing was switched to");
}
