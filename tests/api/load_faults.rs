//! The loader meeting faults: killed half-way, or losing Redis half-way.
//! Either way the live table stays whole, and the next load cleans up.

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::fixtures::{RedisServer, data_file, load, load_settings, slugd_command};
use crate::helpers::App;

/// A UnicodeData.txt far larger than the real one (the real file plus
/// 250,000 made-up symbols in planes 2-4), so a load takes long enough to
/// be interrupted.
fn big_data_file() -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    let real = std::fs::read_to_string(data_file()).unwrap();
    let mut out = std::io::BufWriter::new(file.as_file_mut());
    for line in real.lines() {
        let cp = u32::from_str_radix(line.split(';').next().unwrap(), 16).unwrap();
        if cp >= 0x20000 {
            break;
        }
        writeln!(out, "{line}").unwrap();
    }
    for cp in 0x20000u32..0x20000 + 250_000 {
        writeln!(out, "{cp:X};TEST SYMBOL NUMBER {cp};So;0;ON;;;;;N;;;;;").unwrap();
    }
    drop(out);
    file
}

async fn current(redis: &RedisServer) -> u64 {
    redis
        .query(redis::cmd("GET").arg("slugd:{ctl}:current"))
        .await
}

async fn count(redis: &RedisServer, pattern: &str) -> usize {
    let keys: Vec<String> = redis.query(redis::cmd("KEYS").arg(pattern)).await;
    keys.len()
}

/// Waits until the load of version `v` has written some buckets.
async fn wait_for_partial(redis: &RedisServer, v: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while count(redis, &format!("slugd:t:{v}:*")).await < 5 {
        assert!(Instant::now() < deadline, "the load never started writing");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_loader_killed_half_way_leaves_the_live_table_whole() {
    let redis = RedisServer::start().await;
    let good = load(&redis).await;
    let app = App::on_redis(&redis).await;
    let titles: Vec<String> = slugd_engine::corpus::titles()
        .map(|t| format!("{t} ☃ ⬣"))
        .collect();
    let want = app.slugs(&titles).await;

    let big = big_data_file();
    let mut loader = slugd_command()
        .args(["load", "--redis-url", &redis.url(), "--data"])
        .arg(big.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_partial(&redis, good.version + 1).await;
    loader.kill().unwrap();
    loader.wait().unwrap();

    assert_eq!(current(&redis).await, good.version);
    assert_eq!(app.slugs(&titles).await, want);
    assert!(count(&redis, &format!("slugd:t:{}:*", good.version + 1)).await > 0);

    // The next load waits out the dead loader's lock, then succeeds and
    // removes what it left behind.
    let next = load(&redis).await;
    assert_eq!(next.removed, vec![good.version, good.version + 1]);
    assert_eq!(
        count(&redis, &format!("slugd:t:{}:*", good.version + 1)).await,
        0
    );
    assert_eq!(app.slugs(&titles).await, want);
}

#[tokio::test]
async fn a_loader_that_loses_redis_half_way_fails_clearly_and_changes_nothing() {
    let mut redis = RedisServer::start().await;
    let good = load(&redis).await;
    redis.save().await;
    let big = big_data_file();
    let mut settings = load_settings(&redis);
    settings.data = big.path().into();
    let loading = tokio::spawn(async move { slugd::load::run(&settings).await });
    wait_for_partial(&redis, good.version + 1).await;
    redis.kill();
    let started = Instant::now();
    let err = loading.await.unwrap().expect_err("the load must fail");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    let message = format!("{err:#}");
    assert!(message.contains("Redis failed while"), "{message}");

    redis.restart_after_kill().await;
    assert_eq!(current(&redis).await, good.version);
    let app = App::on_redis(&redis).await;
    assert_eq!(app.slug("I ❤ Redis").await, "i-heavy-heart-redis");
}
