//! Prepared once, started in milliseconds: a model of vowels is made once
//! into a file of the cache directory (`slugd prepare`, or the first start
//! that needs it) and read by every start after; a damaged file or a
//! changed word list is made again; a directory that cannot be written
//! means the model is made in memory. And a service that listens while
//! its table is read, and answers that say when a title was read letter by
//! letter for want of a model.
//!
//! The models here are made from the first words of Debian's Persian list
//! (enough for a model, a few seconds of espeak-ng), not the whole list.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use crate::fixtures::{RedisServer, data_file, load, slugd_command};
use crate::helpers::App;
use crate::serve_process::ServeProcess;

/// The first `lines` lines of Debian's Persian word list (its count line
/// first), written to `dir`. The model is made from the list's stems (the
/// words longer ones start with): 20,000 lines hold some 2,000.
fn small_persian_list(dir: &Path, lines: usize) -> PathBuf {
    let whole = std::fs::read_to_string(crate::vowels::persian_words()).unwrap();
    let part: Vec<&str> = whole.lines().take(lines).collect();
    let path = dir.join("fa-small.dic");
    std::fs::write(&path, part.join("\n") + "\n").unwrap();
    path
}

/// `slugd` with `args`, its output.
fn slugd(args: &[&str]) -> Output {
    slugd_command().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The prepared files in `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// `slugd prepare --locales fa` of the list `words` into `cache`.
fn prepare(words: &Path, cache: &Path) -> Output {
    slugd(&[
        "prepare",
        "--locales",
        "fa",
        "--words",
        &format!("fa={}", words.display()),
        "--cache-dir",
        &cache.display().to_string(),
    ])
}

/// `slugd slugify --locales fa --locale fa` of `title` with the list
/// `words` and the cache `cache`: its slug and its standard error.
fn slugify_persian(words: &Path, cache: &Path, title: &str) -> (String, String) {
    // CLDR's Persian, which `--locales fa` reads too.
    let cldr = crate::fixtures::debian_cldr("fa");
    let out = slugd(&[
        "slugify",
        "--cldr",
        &cldr.dir.to_string(),
        "--locales",
        "fa",
        "--locale",
        "fa",
        "--words",
        &format!("fa={}", words.display()),
        "--cache-dir",
        &cache.display().to_string(),
        title,
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    (text(&out.stdout).trim().to_owned(), stderr)
}

#[test]
fn a_model_is_prepared_once_and_read_by_every_start_after() {
    let dir = tempfile::tempdir().unwrap();
    let words = small_persian_list(dir.path(), 20_000);
    let cache = dir.path().join("cache");
    let first = prepare(&words, &cache);
    let said = text(&first.stdout);
    assert!(first.status.success(), "{said}{}", text(&first.stderr));
    assert!(said.starts_with("Persian: prepared now, "), "{said}");
    let made = files(&cache);
    assert_eq!(made.len(), 1, "{made:?}");
    let name = made[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("vowels-fa-") && name.ends_with(".model"),
        "{name}"
    );
    assert!(said.contains(&name), "{said}");
    // Again: read, not made.
    let again = prepare(&words, &cache);
    assert!(
        text(&again.stdout).starts_with("Persian: already prepared, "),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(files(&cache), made);
    // A start reads it, and runs no espeak-ng over the list.
    let title = "تهران شیراز";
    let (prepared, log) = slugify_persian(&words, &cache, title);
    assert!(log.contains("prepared model of vowels read"), "{log}");
    assert!(!log.contains("vowels learnt"), "{log}");
    // The model read from the file reads as the one made in memory does
    // (a cache directory below a file cannot be made, so nothing is
    // written there).
    let nowhere = words.join("cache");
    let (in_memory, log) = slugify_persian(&words, &nowhere, title);
    assert!(log.contains("vowels learnt"), "{log}");
    assert!(log.contains("cannot write prepared models"), "{log}");
    assert_eq!(prepared, in_memory);
    assert!(prepared.contains('-') && prepared.is_ascii(), "{prepared}");
}

#[test]
fn a_damaged_file_is_made_again_and_a_changed_list_makes_another() {
    let dir = tempfile::tempdir().unwrap();
    let words = small_persian_list(dir.path(), 20_000);
    let cache = dir.path().join("cache");
    assert!(prepare(&words, &cache).status.success());
    let file = files(&cache).remove(0);
    let whole = std::fs::read(&file).unwrap();
    // Cut short, as by a full disk or a killed copy.
    std::fs::write(&file, &whole[..whole.len() / 2]).unwrap();
    let again = prepare(&words, &cache);
    let log = text(&again.stderr);
    assert!(again.status.success(), "{log}");
    assert!(
        text(&again.stdout).starts_with("Persian: prepared now, "),
        "{}",
        text(&again.stdout)
    );
    assert!(log.contains("cannot be used"), "{log}");
    assert!(log.contains("checksum does not match"), "{log}");
    assert_eq!(std::fs::read(&file).unwrap(), whole, "made again alike");
    // A word more in the list: another model, under another name; the
    // first is never read for it.
    let mut list = std::fs::OpenOptions::new()
        .append(true)
        .open(&words)
        .unwrap();
    writeln!(list, "کتابخانه").unwrap();
    drop(list);
    let changed = prepare(&words, &cache);
    assert!(
        text(&changed.stdout).starts_with("Persian: prepared now, "),
        "{}",
        text(&changed.stdout)
    );
    assert_eq!(files(&cache).len(), 2, "{:?}", files(&cache));
}

#[test]
fn prepare_says_what_it_could_not_prepare() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such.dic");
    let out = prepare(&missing, &dir.path().join("cache"));
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("Persian's model of vowels not prepared"),
        "{said}"
    );
    assert!(said.contains("no-such.dic"), "{said}");
    assert!(said.contains("apt-get install myspell-fa"), "{said}");
    // A cache directory that cannot be written is an error for prepare,
    // whose work is to write it.
    let words = small_persian_list(dir.path(), 20_000);
    let out = prepare(&words, &words.join("cache"));
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("cannot be written"), "{said}");
    // A language no model is made for.
    let out = slugd(&["prepare", "--words", "xx=/tmp/x"]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("LANG is one of fa, ur, ar"), "{said}");
}

#[tokio::test]
async fn serve_listens_while_its_table_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("UnicodeData.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // The table's data comes through a pipe the test holds shut: the
    // service cannot finish reading it until the test writes.
    let serve = ServeProcess::builder()
        .args(["--data", &fifo.display().to_string()])
        .listening()
        .await;
    let client = reqwest::Client::new();
    let healthz = client.get(serve.url("/healthz")).send().await.unwrap();
    assert_eq!(healthz.status(), 200);
    let readyz = client.get(serve.url("/readyz")).send().await.unwrap();
    assert_eq!(readyz.status(), 503);
    let body: Value = readyz.json().await.unwrap();
    assert_eq!(body["code"], "loading", "{body}");
    let slug = client
        .post(serve.url("/slug"))
        .json(&json!({"title": "I ❤ Redis"}))
        .send()
        .await
        .unwrap();
    assert_eq!(slug.status(), 503);
    assert_eq!(
        slug.headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap()),
        Some("1")
    );
    let body: Value = slug.json().await.unwrap();
    assert_eq!(body["code"], "loading", "{body}");
    // The data arrives: the service is ready and slugs.
    let data = data_file();
    let writer = std::thread::spawn(move || {
        let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        pipe.write_all(&std::fs::read(data).unwrap()).unwrap();
    });
    serve.until_loaded().await;
    writer.join().unwrap();
    let slug: Value = client
        .post(serve.url("/slug"))
        .json(&json!({"title": "I ❤ Redis"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(slug["slug"], "i-heavy-heart-redis", "{slug}");
    let readyz = client.get(serve.url("/readyz")).send().await.unwrap();
    assert_eq!(readyz.status(), 200);
}

#[tokio::test]
async fn a_table_that_cannot_be_read_stops_the_service_that_listened() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("UnicodeData.txt");
    std::fs::write(&bad, "2603;SNOWMAN\n").unwrap();
    let serve = ServeProcess::builder()
        .args(["--data", &bad.display().to_string()])
        .listening()
        .await;
    let stopped = serve.wait().await;
    assert_eq!(stopped.status.code(), Some(1), "{}", stopped.log);
    assert!(stopped.log.contains("UnicodeData.txt:1"), "{}", stopped.log);
}

/// The warning of a title read letter by letter for want of `locales`'
/// models, as an answer carries it.
fn not_loaded(body: &Value, locales: &[&str]) {
    let warnings = body["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("no warnings: {body}"));
    assert_eq!(warnings.len(), 1, "{body}");
    assert_eq!(warnings[0]["code"], "reading_not_loaded", "{body}");
    assert_eq!(warnings[0]["locales"], json!(locales), "{body}");
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(message.contains("letter by letter"), "{message}");
    assert!(
        message.contains(&format!("--locales {}", locales.join(","))),
        "{message}"
    );
}

#[tokio::test]
async fn a_title_read_letter_by_letter_for_want_of_a_model_says_so() {
    let app = App::in_process().await;
    // The slug is what rules 6 give without the model; the answer says why.
    let (s, b) = app.post("/slug", &json!({"title": "مرحبا بالعالم"})).await;
    assert_eq!((s, &b["slug"]), (200, &json!("mrhba-balalm")), "{b}");
    not_loaded(&b, &["ar"]);
    let (s, b) = app
        .post("/slug", &json!({"title": "مرحبا بالعالم", "locale": "ur"}))
        .await;
    assert_eq!(s, 200, "{b}");
    not_loaded(&b, &["ur"]);
    let (s, b) = app
        .post(
            "/slugs",
            &json!({"titles": ["Hello", "تهران", "مرحبا"], "locale": "fa"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    not_loaded(&b, &["fa"]);
    // Nothing to warn of: another script, a version before the models,
    // the title's own script, a title with vowel marks read by the
    // standard (Urdu and Arabic).
    for body in [
        json!({"title": "Hello"}),
        json!({"title": "مرحبا", "rules": 5}),
        json!({"title": "مرحبا", "ascii": false}),
    ] {
        let (s, b) = app.post("/slug", &body).await;
        assert_eq!(s, 200, "{b}");
        assert!(b.get("warnings").is_none(), "{body}: {b}");
    }
    // The GET form too.
    let (s, b) = app.get("/slug?title=%D9%85%D8%B1%D8%AD%D8%A8%D8%A7").await;
    assert_eq!(s, 200, "{b}");
    not_loaded(&b, &["ar"]);
    // Rules 7's Hebrew: letter by letter as rules 6 read it, with the
    // warning, without a locale or with `he`; rules 6 read no model of it.
    for locale in [None, Some("he")] {
        let mut body = json!({"title": "תל אביב", "rules": 7});
        let mut before = json!({"title": "תל אביב", "rules": 6});
        if let Some(locale) = locale {
            body["locale"] = json!(locale);
            before["locale"] = json!(locale);
        }
        let (s, b) = app.post("/slug", &body).await;
        assert_eq!(s, 200, "{b}");
        not_loaded(&b, &["he"]);
        let (s, six) = app.post("/slug", &before).await;
        assert_eq!(s, 200, "{six}");
        assert!(six.get("warnings").is_none(), "{six}");
        if locale.is_none() {
            assert_eq!(b["slug"], six["slug"], "{b} {six}");
        }
    }
}

#[tokio::test]
async fn a_loaded_model_leaves_no_warning() {
    let dir = tempfile::tempdir().unwrap();
    let words = small_persian_list(dir.path(), 20_000);
    let app = App::builder().persian(words).spawn().await;
    let (s, b) = app
        .post("/slug", &json!({"title": "تهران", "locale": "fa"}))
        .await;
    assert_eq!(s, 200, "{b}");
    assert!(b.get("warnings").is_none(), "{b}");
    // Arabic's is still not loaded.
    let (_, b) = app.post("/slug", &json!({"title": "مرحبا بالعالم"})).await;
    not_loaded(&b, &["ar"]);
}

#[tokio::test]
async fn a_reservation_of_a_title_read_letter_by_letter_says_so() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let body = json!({"scope": "posts", "owner": "1", "title": "مرحبا بالعالم"});
    let (s, b) = app.post("/reservations", &body).await;
    assert_eq!((s, &b["slug"]), (201, &json!("mrhba-balalm")), "{b}");
    not_loaded(&b, &["ar"]);
    let body = json!({"scope": "posts", "owner": "2", "title": "Hello"});
    let (s, b) = app.post("/reservations", &body).await;
    assert_eq!(s, 201, "{b}");
    assert!(b.get("warnings").is_none(), "{b}");
}

#[test]
fn slugify_warns_once_of_titles_read_letter_by_letter() {
    let mut child = slugd_command()
        .args(["slugify"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("مرحبا\nhello\nبالعالم\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(text(&out.stdout), "mrhba\nhello\nbalalm\n");
    let warned = "slugd: warning (reading_not_loaded)";
    assert_eq!(stderr.matches(warned).count(), 1, "{stderr}");
    assert!(stderr.contains("--locales ar"), "{stderr}");
}
