//! Rule versions: each released version gives the slugs it gave when it was
//! released, byte for byte, held to its record in `tests/data/rulesN/`
//! (made by `scripts/record_rules.py`; rules 1's once, with the binary of
//! main before versions existed); answers say which rules made them; the
//! version is an option like the others (request, `--defaults`,
//! `slugify --rules`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::json;

use crate::fixtures::{RedisServer, slugd_command};
use slugd_engine::options::RawOptions;

use crate::helpers::App;

/// One file of the record: the `slugd slugify` flags it was made with, and
/// (title, slug) rows; an empty slug is a title refused as empty.
struct Recorded {
    name: String,
    flags: Vec<String>,
    rows: Vec<(String, String)>,
}

/// The recorded versions: (N, tests/data/rulesN).
fn record_dirs() -> Vec<(String, PathBuf)> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut dirs: Vec<(String, PathBuf)> = std::fs::read_dir(&data)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let n = path
                .file_name()?
                .to_str()?
                .strip_prefix("rules")?
                .to_owned();
            Some((n, path))
        })
        .collect();
    dirs.sort();
    assert!(
        dirs.iter().any(|(n, _)| n == "1"),
        "rules 1's record is missing"
    );
    dirs
}

fn read_record(path: &Path) -> Recorded {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let flags = header
        .strip_prefix("# flags: ")
        .unwrap_or_else(|| panic!("{}: no flags line", path.display()));
    let flags: Vec<String> = serde_json::from_str(flags).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    // `characters.tsv`, `unicode-characters.tsv`: keys are code points.
    let characters = name.ends_with("characters.tsv");
    let rows = lines
        .map(|line| {
            let (key, slug) = line.split_once('\t').unwrap();
            let title = match characters {
                // `U+XXXX`: that character between two letters.
                true => {
                    let c = u32::from_str_radix(&key[2..], 16).unwrap();
                    format!("x{}y", char::from_u32(c).unwrap())
                }
                false => key.to_owned(),
            };
            (title, slug.to_owned())
        })
        .collect();
    Recorded { name, flags, rows }
}

fn every_record(dir: &Path) -> Vec<Recorded> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 59, "the record has {} files", paths.len());
    paths.iter().map(|p| read_record(p)).collect()
}

/// `slugd slugify EXTRA FLAGS` over the record's titles, one a line; the
/// rows whose slug differs, as lines to show.
fn differences(record: &Recorded, extra: &[&str]) -> Vec<String> {
    let mut child = slugd_command()
        .arg("slugify")
        .args(["--log", "error"])
        .args(extra)
        .args(&record.flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for (title, _) in &record.rows {
        input.push_str(title);
        input.push('\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    // A slugify that stops early closes its input: its own error, in the
    // line count's assertion below, says why.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        got.len(),
        record.rows.len(),
        "{}: slugify answered {} lines for {} titles: {}",
        record.name,
        got.len(),
        record.rows.len(),
        String::from_utf8_lossy(&out.stderr)
    );
    record
        .rows
        .iter()
        .zip(got)
        .filter(|((_, want), got)| want != got)
        .map(|((title, want), got)| {
            format!("{}: {title:?}: recorded {want:?}, now {got:?}", record.name)
        })
        .collect()
}

/// Runs every record through `slugd slugify` with `extra` flags, two at a
/// time, and fails listing the first differences.
fn check_records(records: &[Recorded], extra: &[&str]) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let all: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(record) = records.get(i) else {
                            return out;
                        };
                        out.extend(differences(record, extra));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let titles: usize = records.iter().map(|r| r.rows.len()).sum();
    assert!(
        all.is_empty(),
        "{} of {titles} recorded slugs differ with {extra:?}; the first:\n{}",
        all.len(),
        all[..all.len().min(30)].join("\n")
    );
}

#[test]
fn each_version_gives_the_recorded_slugs_in_process() {
    for (n, dir) in record_dirs() {
        check_records(&every_record(&dir), &["--rules", &n]);
    }
}

#[tokio::test]
async fn each_version_gives_the_recorded_slugs_on_redis() {
    let redis = RedisServer::start().await;
    let url = redis.url();
    // The locales of the record's locale sets that the test checks on
    // Redis too: one of each kind of script, and CLDR's names in them.
    let locales = "de,ru,el,ka,hi,ja,zh,ar,da,kk";
    crate::fixtures::debian_cldr("de");
    let cldr = std::path::PathBuf::from(slugd_engine::cldr::DEBIAN_DIR);
    // Three tables, as the record's kinds of table in process: with
    // IPADIC's readings (the record's Japanese locale sets, made with
    // `--locales ja`, read them), with the model of Arabic's vowels (its
    // Arabic sets, made with `--locales ar`, read it from rules 6 on),
    // and with neither (every other set, made with the English table).
    const PLAIN: &str = "plain:";
    const VOWELS: &str = "vowels:";
    for extra in [
        &["--arabic-words", "/nonexistent"][..],
        &[
            "--key-prefix",
            PLAIN,
            "--ipadic",
            "/nonexistent",
            "--arabic-words",
            "/nonexistent",
        ][..],
        &["--key-prefix", VOWELS, "--ipadic", "/nonexistent"][..],
    ] {
        let (url, cldr) = (url.clone(), cldr.clone());
        let load = tokio::task::spawn_blocking(move || {
            slugd_command()
                .args(["load", "--redis-url", &url, "--locales", locales, "--cldr"])
                .arg(&cldr)
                .args(extra)
                .output()
                .unwrap()
        })
        .await
        .unwrap();
        assert!(
            load.status.success(),
            "{}",
            String::from_utf8_lossy(&load.stderr)
        );
    }
    for (n, dir) in record_dirs() {
        let records: Vec<Recorded> = every_record(&dir)
            .into_iter()
            .filter(|r| match r.flags.iter().position(|f| f == "--locale") {
                Some(at) => locales.split(',').any(|l| r.flags[at + 1] == l),
                None => true,
            })
            .map(|mut r| {
                // On Redis the table holds the loaded locales: the in-process
                // flags that name CLDR's files go.
                if let Some(at) = r.flags.iter().position(|f| f == "--locales") {
                    r.flags.drain(at..);
                }
                r
            })
            .collect();
        // ASCII: every character, the defaults, 10 option sets and the
        // loaded locales'; from rules 3 the same in the reader's own
        // script, and `--max-bytes 40`.
        let loaded = locales.split(',').count();
        let want = match n.as_str() {
            "1" | "2" => 12 + loaded,
            _ => 12 + loaded + 13 + loaded,
        };
        assert_eq!(records.len(), want);
        let (japanese, rest): (Vec<Recorded>, Vec<Recorded>) = records
            .into_iter()
            .partition(|r| r.flags.windows(2).any(|w| w == ["--locale", "ja"]));
        let (arabic, plain): (Vec<Recorded>, Vec<Recorded>) = rest
            .into_iter()
            .partition(|r| r.flags.windows(2).any(|w| w == ["--locale", "ar"]));
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            check_records(&japanese, &["--rules", &n, "--redis-url", &url]);
            let on_vowels = ["--rules", &n, "--redis-url", &url, "--key-prefix", VOWELS];
            check_records(&arabic, &on_vowels);
            let on_plain = ["--rules", &n, "--redis-url", &url, "--key-prefix", PLAIN];
            check_records(&plain, &on_plain);
        })
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn answers_say_which_rules_made_them_and_a_version_can_be_pinned() {
    let app = App::in_process().await;
    let answer = app.post("/slug", &json!({"title": "Hello World"})).await;
    assert_eq!(answer, (200, json!({"slug": "hello-world", "rules": 6})));
    let answer = app
        .post("/slug", &json!({"title": "Hello World", "rules": 1}))
        .await;
    assert_eq!(answer, (200, json!({"slug": "hello-world", "rules": 1})));
    let answer = app.get("/slug?title=Hello&rules=1").await;
    assert_eq!(answer, (200, json!({"slug": "hello", "rules": 1})));
    let answer = app
        .post("/slugs", &json!({"titles": ["a", "b"], "rules": 1}))
        .await;
    assert_eq!(answer, (200, json!({"slugs": ["a", "b"], "rules": 1})));

    let beyond = slugd_engine::options::Rules::LAST.number() + 1;
    let (status, body) = app
        .post("/slug", &json!({"title": "x", "rules": beyond}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "invalid_request");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with(&format!(
            "rules {beyond} does not exist: give 1 (the slugs of"
        )),
        "{body}"
    );
    assert!(error.contains("(the newest, the default"), "{body}");
    let (status, body) = app
        .post("/slug", &json!({"title": "x", "rules": "1"}))
        .await;
    assert_eq!(status, 422, "{body}");

    // A deployment pins a version for every request that names none.
    let pinned = RawOptions {
        rules: Some(1),
        ..Default::default()
    }
    .validate()
    .unwrap();
    let pinned = App::builder().defaults(pinned).spawn().await;
    let answer = pinned.post("/slug", &json!({"title": "Hello"})).await;
    assert_eq!(answer, (200, json!({"slug": "hello", "rules": 1})));
    let (_, body) = pinned
        .post("/slug", &json!({"title": "Hello", "rules": 2}))
        .await;
    assert_eq!(body["rules"], 2);
}

#[test]
fn slugify_takes_rules_and_names_the_flag_when_it_is_wrong() {
    let out = slugd_command()
        .args(["slugify", "--rules", "1", "Hello World"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "hello-world\n");
    let out = slugd_command()
        .args(["slugify", "--rules", "9", "x"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--rules: rules 9 does not exist"), "{err}");
}

/// Rules 4 mend what rules 2 and 3 spell otherwise than their own slugs
/// (issue 19): stopwords are spelled by the engine with the request's
/// rules, locale and decamelize (rules 3: by deunicode alone, so `für`
/// with `locale: de` never met the word `fuer`, and `və` was refused), a
/// fallback is judged the same way (`ə` is `e`), and `locale: ar`, `fa`
/// or `ps` no longer drops a word's first alef. Rules 3 keep their slugs
/// and their errors; in both modes, and with stopwords from `--defaults`
/// that a request's locale spells again.
#[tokio::test]
async fn rules_4_spell_stopwords_and_the_fallback_as_the_slug_does_and_keep_the_alef() {
    let (_redis, apps) = crate::helpers::both_modes().await;
    for app in &apps {
        for (request, by_4, by_3) in [
            (
                json!({"title": "Musik für Elise", "locale": "de", "stopwords": ["für"]}),
                Some("musik-elise"),
                Some("musik-fuer-elise"),
            ),
            (
                json!({"title": "Əliyev və Bakı", "locale": "az", "stopwords": ["və"]}),
                Some("eliyev-baki"),
                None,
            ),
            (
                json!({"title": "भारत का इतिहास", "stopwords": ["का"]}),
                Some("bharata-itihasa"),
                Some("bharata-ka-itihasa"),
            ),
            (
                json!({"title": "Qazaqstan Қазақстан", "stopwords": ["Қазақстан"]}),
                Some("qazaqstan"),
                Some("qazaqstan"),
            ),
            (json!({"title": "!!!", "fallback": "ə"}), Some("e"), None),
            (
                json!({"title": "الإمارات العربية المتحدة", "locale": "ar"}),
                Some("alimarat-alrbyh-almthdh"),
                Some("limarat-lrbyh-lmthdh"),
            ),
            (
                json!({"title": "أحمد", "locale": "ar"}),
                Some("ahmd"),
                Some("hmd"),
            ),
            (
                json!({"title": "ایران", "locale": "fa"}),
                Some("ayran"),
                Some("yran"),
            ),
        ] {
            for (rules, want) in [(4, by_4), (3, by_3)] {
                let mut request = request.clone();
                request["rules"] = json!(rules);
                let (status, body) = app.post("/slug", &request).await;
                match want {
                    Some(want) => assert_eq!(
                        (status, body["slug"].as_str()),
                        (200, Some(want)),
                        "{request}: {body}"
                    ),
                    None => assert_eq!(status, 422, "{request}: {body}"),
                }
            }
        }
    }
    // Stopwords of the service's defaults, spelled again by a request's
    // locale. `və` is a stopword by rules 4 only: a request pinning rules
    // 3 gets no error for it, only rules 3's slug.
    let defaults = RawOptions {
        stopwords: Some(vec!["für".into(), "və".into()]),
        ..Default::default()
    }
    .validate()
    .unwrap();
    let app = App::builder().defaults(defaults).spawn().await;
    for (request, want) in [
        (json!({"title": "Musik für Elise"}), "musik-elise"),
        (
            json!({"title": "Musik für Elise", "locale": "de"}),
            "musik-elise",
        ),
        (
            json!({"title": "Musik für Elise", "locale": "de", "rules": 3}),
            "musik-fuer-elise",
        ),
        (
            json!({"title": "Musik für Elise", "rules": 1}),
            "musik-elise",
        ),
        (
            json!({"title": "Əliyev və Bakı", "locale": "az"}),
            "eliyev-baki",
        ),
        (json!({"title": "Bakı və", "rules": 3}), "baki-ve"),
    ] {
        let (status, body) = app.post("/slug", &request).await;
        assert_eq!(
            (status, body["slug"].as_str()),
            (200, Some(want)),
            "{request}"
        );
    }
}
