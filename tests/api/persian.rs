//! Rules 6's Persian without vowel marks, in both modes over HTTP: the
//! model of its vowels made by `slugd load` with `fa` (in Redis) and by
//! the in-process table, from Debian's `myspell-fa` word list read by
//! espeak-ng (scripts/dictionaries.sh installs both). The examples are
//! Iran's towns as GeoNames names them (`tests/data/standards/
//! fa-geonames.tsv`, made by scripts/geonames_examples.py).

use std::path::PathBuf;

use serde_json::{Value, json};
use slugd::load::LoadSettings;

use crate::fixtures::{RedisServer, load_settings};
use crate::helpers::App;
use crate::tsv;

/// Debian's Persian word list, or `SLUGD_PERSIAN_WORDS`, with espeak-ng
/// to read it.
fn persian_words() -> PathBuf {
    let words = std::env::var_os("SLUGD_PERSIAN_WORDS")
        .map(PathBuf::from)
        .unwrap_or_else(|| slugd::table::persian::DEFAULT_WORDS.into());
    assert!(
        words.exists(),
        "this test needs Persian's word list at {}: install it with `sudo apt-get install \
         myspell-fa` (scripts/dictionaries.sh does), or point SLUGD_PERSIAN_WORDS at one",
        words.display()
    );
    let espeak = std::process::Command::new("espeak-ng")
        .arg("--version")
        .output();
    assert!(
        espeak.is_ok_and(|o| o.status.success()),
        "this test needs espeak-ng: install it with `sudo apt-get install espeak-ng` \
         (scripts/dictionaries.sh does)"
    );
    words
}

/// A Redis with the model loaded, and an app in each mode with it: in
/// process, and on that Redis.
async fn both_modes_with_persian() -> (RedisServer, [App; 2]) {
    let words = persian_words();
    let redis = RedisServer::start().await;
    let settings = LoadSettings {
        persian: Some(words.clone()),
        ..load_settings(&redis)
    };
    let report = slugd::load::run(&settings)
        .await
        .expect("the load with Persian");
    assert!(report.persian_contexts > 5_000, "{report}");
    assert!(report.persian_bytes > 0, "{report}");
    let apps = [
        App::builder().persian(words).spawn().await,
        App::on_redis(&redis).await,
    ];
    (redis, apps)
}

/// The slug of `title` with `locale` (or none) under `rules` (or the
/// default).
async fn slug(app: &App, title: &str, locale: Option<&str>, rules: Option<u64>) -> String {
    let mut body = json!({ "title": title });
    if let Some(locale) = locale {
        body["locale"] = Value::from(locale);
    }
    if let Some(rules) = rules {
        body["rules"] = Value::from(rules);
    }
    let (status, answer) = app.post("/slug", &body).await;
    assert_eq!(status, 200, "{body}: {answer}");
    answer["slug"].as_str().unwrap().to_owned()
}

/// The letters and digits of `text`, its marks left out, in lower case.
fn letters(text: &str) -> String {
    let mut plain = String::new();
    for c in text.chars() {
        let folded = deunicode::deunicode_char(c).unwrap_or("");
        plain.extend(folded.chars().filter(char::is_ascii_alphanumeric));
    }
    plain.to_ascii_lowercase()
}

/// How alike `a` and `b` are: 1 less their edit distance over the
/// longer's length.
fn alike(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    1.0 - row[b.len()] as f64 / a.len().max(b.len()).max(1) as f64
}

#[tokio::test]
async fn rules_6_read_persian_without_vowel_marks_in_both_modes() {
    let (_redis, apps) = both_modes_with_persian().await;
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/standards/fa-geonames.tsv");
    let towns = tsv::read(&path);
    let mut scores = Vec::new();
    let mut slugs_of_modes = Vec::new();
    for app in &apps {
        let (mut agree, mut similar, mut misses) = (0, 0.0, Vec::new());
        let mut slugs = Vec::new();
        for town in &towns {
            let (title, name) = (&town[0], &town[1]);
            let slug = slug(app, title, Some("fa"), Some(6)).await;
            if letters(&slug) == letters(name) {
                agree += 1;
            } else {
                similar += alike(&letters(&slug), &letters(name));
                misses.push(format!("{title} -> {slug} (GeoNames {name})"));
            }
            slugs.push(slug);
        }
        let share = agree as f64 / towns.len() as f64;
        println!(
            "Iran's towns with fa by rules 6: {agree} of {} ({:.1}%), the rest {:.2} alike on average; misses: {}",
            towns.len(),
            100.0 * share,
            similar / misses.len().max(1) as f64,
            misses
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        );
        scores.push(share);
        slugs_of_modes.push(slugs);
    }
    assert_eq!(
        slugs_of_modes[0], slugs_of_modes[1],
        "both modes give the same slugs"
    );
    // 46% of 1,071 towns here; rules 5 write the consonants alone (4.2%).
    assert!(scores[0] >= 0.45, "{scores:?}");

    for app in &apps {
        for (title, locale, six, five) in [
            ("تهران", Some("fa"), "tehran", "thran"),
            ("شیراز", None, "shiraz", "shyraz"),
            ("کرمانشاه", Some("fa"), "kermanshah", "khrmanshah"),
            ("اصفهان", Some("fa"), "esfahan", "asfhan"),
            ("کتاب", None, "ketab", "khtab"),
            ("دانشگاه تهران", None, "daneshgah-tehran", "danshgah-thran"),
            ("مشهد ۱۴۰۲", Some("fa"), "mashhad-1402", "mshhd-1402"),
        ] {
            assert_eq!(
                slug(app, title, locale, Some(6)).await,
                six,
                "rules 6: {title}"
            );
            assert_eq!(
                slug(app, title, locale, None).await,
                five,
                "the default: {title}"
            );
        }
        // With symbols off too (no name is asked for, but the model is).
        let body = json!({"title": "تهران", "locale": "fa", "rules": 6, "symbols": false});
        let (status, answer) = app.post("/slug", &body).await;
        assert_eq!(
            (status, answer["slug"].as_str()),
            (200, Some("tehran")),
            "{answer}"
        );
        // Without a locale, a title whose letters do not show Persian is
        // read as Arabic, as before; and Arabic is not read as Persian.
        assert_eq!(slug(app, "تهران", None, Some(6)).await, "thran");
        assert_eq!(
            slug(app, "مرحبا بالعالم", Some("ar"), Some(6)).await,
            "mrhba-balalm"
        );
    }
}

#[tokio::test]
async fn without_the_packages_persian_is_read_as_before_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let redis = RedisServer::start().await;
    let settings = LoadSettings {
        persian: Some(dir.path().join("no-such-list.dic")),
        ..load_settings(&redis)
    };
    let report = slugd::load::run(&settings)
        .await
        .expect("a load without the list");
    assert_eq!(report.persian_contexts, 0, "{report}");
    let apps = [
        App::builder()
            .persian(dir.path().join("no-such-list.dic"))
            .spawn()
            .await,
        App::on_redis(&redis).await,
    ];
    for app in &apps {
        assert_eq!(slug(app, "تهران", Some("fa"), Some(6)).await, "thran");
    }
}
