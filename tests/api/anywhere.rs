//! The binary run from an empty directory, as `cargo install` leaves it:
//! no data files beside it and no `SLUGD_DATA` or `SLUGD_CLDR`, so
//! `slugify`, `serve` and `load` read the data built into the binary and
//! give what the repository's files give.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::json;
use slugd::table::MemoryTable;

use crate::fixtures::{RedisServer, load, slugd_command};
use crate::serve_process::ServeProcess;

/// `slugd` in `dir` without the data variables of [`slugd_command`].
fn slugd_in(dir: &Path) -> Command {
    let mut command = slugd_command();
    command
        .env_remove("SLUGD_DATA")
        .env_remove("SLUGD_CLDR")
        .current_dir(dir);
    command
}

/// Runs `command`; panics with its standard error if it fails.
fn succeeds(command: &mut Command) -> String {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&stderr);
    assert!(status.success(), "{command:?}: {status}; {stderr}");
    String::from_utf8(stdout).unwrap()
}

/// What nobody wrote there stays there: a test that left files would not
/// show that none are needed.
fn assert_still_empty(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn slugify_from_an_empty_directory_names_symbols_and_emoji() {
    let empty = tempfile::tempdir().unwrap();
    let title = "I ❤ Redis 🇩🇪 ☃";
    let built_in = succeeds(slugd_in(empty.path()).args(["slugify", title]));
    assert_eq!(built_in, "i-heavy-heart-redis-flag-germany-snowman\n");
    // Other categories than the default are read from the built-in file:
    // the same slugs as from the repository's.
    for args in [["--categories", "So"], ["--categories", "Sc,Lu"]] {
        let title = "a ❤ € ≤ Ä";
        let from_builtin = succeeds(slugd_in(empty.path()).arg("slugify").args(args).arg(title));
        let from_files = succeeds(slugd_command().arg("slugify").args(args).arg(title));
        assert_eq!(from_builtin, from_files, "{args:?}");
    }
    assert_still_empty(empty.path());
}

#[tokio::test]
async fn serve_from_an_empty_directory_answers_post_slug() {
    let empty = tempfile::tempdir().unwrap();
    let serve = ServeProcess::builder()
        .current_dir(empty.path())
        .env_remove("SLUGD_DATA")
        .env_remove("SLUGD_CLDR")
        .start()
        .await;
    let answer = reqwest::Client::new()
        .post(serve.url("/slug"))
        .json(&json!({"title": "I ❤ Redis 🇩🇪"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200, "{}", serve.log());
    let body: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(body["slug"], "i-heavy-heart-redis-flag-germany");
    let log = serve.log();
    assert!(
        log.contains("names=in_process built-in data/UnicodeData.txt"),
        "{log}"
    );
    drop(serve);
    assert_still_empty(empty.path());
}

#[tokio::test]
async fn load_from_an_empty_directory_loads_what_the_files_hold() {
    let empty = tempfile::tempdir().unwrap();
    let redis = RedisServer::start().await;
    let (dir, url) = (empty.path().to_owned(), redis.url());
    let report = tokio::task::spawn_blocking(move || {
        succeeds(slugd_in(&dir).args(["load", "--redis-url", &url]))
    })
    .await
    .unwrap();
    assert!(
        report.starts_with(
            "loaded built-in data/UnicodeData.txt (Unicode 15.0.0) as version 1: 7616 entries and 3992 CLDR names in 1 locale, "
        ),
        "{report}"
    );
    // The same table as a load of the repository's files.
    let from_files = load(&redis).await;
    assert_eq!((from_files.entries, from_files.cldr_names), (7616, 3992));
    let fields = format!(" {} fields, ", from_files.fields);
    assert!(report.contains(&fields), "{report} has not {fields}");
    let (dir, url) = (empty.path().to_owned(), redis.url());
    let slug = tokio::task::spawn_blocking(move || {
        succeeds(slugd_in(&dir).args(["slugify", "--redis-url", &url, "I ❤ Redis 🇩🇪"]))
    })
    .await
    .unwrap();
    assert_eq!(slug, "i-heavy-heart-redis-flag-germany\n");

    // On that Redis, /bench and the fallback's check build their copy of
    // the table from the built-in data: the copy the files would give.
    let serve = ServeProcess::builder()
        .current_dir(empty.path())
        .env_remove("SLUGD_DATA")
        .env_remove("SLUGD_CLDR")
        .args(["--redis-url", &redis.url(), "--on-redis-down", "memory"])
        .start()
        .await;
    let answer = reqwest::get(serve.url("/bench?iterations=10"))
        .await
        .unwrap();
    assert_eq!(answer.status(), 200, "{}", serve.log());
    let bench: serde_json::Value = answer.json().await.unwrap();
    let files = MemoryTable::shipped(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(
        bench["in_process"]["table_bytes"].as_u64(),
        Some(files.heap_bytes() as u64),
        "{bench}"
    );
    drop(serve);
    assert_still_empty(empty.path());
}
