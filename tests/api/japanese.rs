//! Rules 3's Japanese (issue 20): titles with kana, and with a Japanese
//! `locale` titles of kanji, read by IPADIC's readings, in both modes over
//! HTTP: the readings in Redis (loaded by `slugd load` with `ja`) and in
//! process. The titles and their usual romanizations are
//! `tests/data/ja-titles.tsv`; the subset of IPADIC the repository ships
//! (`data/ipadic-subset/`) has every form they need, and one test reads
//! the full dictionary (Debian's `mecab-ipadic`, which scripts/dictionaries.sh
//! installs) over the held-out titles too.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use slugd::load::LoadSettings;

use slugd::table::OnRedisDown;

use crate::fixtures::{RedisServer, info_number, load, load_settings};
use crate::helpers::App;
use crate::operations::{TABLE_TRIPS, after_start, moved};
use crate::tsv;

/// The subset of IPADIC the repository ships.
fn subset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ipadic-subset")
}

/// Debian's full IPADIC, or `SLUGD_IPADIC`.
fn full_ipadic() -> PathBuf {
    let dir = std::env::var_os("SLUGD_IPADIC")
        .map(PathBuf::from)
        .unwrap_or_else(|| slugd_engine::readers::japanese::ipadic::DEFAULT_DIR.into());
    assert!(
        dir.join("Noun.csv").exists(),
        "this test needs the full IPADIC in {}: install it with `sudo apt-get install \
         mecab-ipadic` (scripts/dictionaries.sh does), or point SLUGD_IPADIC at its CSV sources",
        dir.display()
    );
    dir
}

/// The titles of a data file with the slug slugd gives each: the usual
/// romanization, or the third column where slugd is known to miss it.
fn cases(file: &str) -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    tsv::read(&path)
        .into_iter()
        .map(|fields| {
            let gives = fields.get(2).unwrap_or(&fields[1]);
            (fields[0].clone(), gives.clone())
        })
        .collect()
}

/// A loader of the shipped table with the readings of IPADIC in `dir`.
fn with_readings(redis: &RedisServer, dir: PathBuf) -> LoadSettings {
    LoadSettings {
        japanese: Some(dir),
        ..load_settings(redis)
    }
}

/// A Redis with the readings of `dir` loaded, and an app in each mode
/// with them: in process, and on that Redis.
async fn both_modes_with(dir: PathBuf) -> (RedisServer, [App; 2]) {
    let redis = RedisServer::start().await;
    let report = slugd::load::run(&with_readings(&redis, dir.clone()))
        .await
        .expect("the load with readings");
    assert!(report.japanese_forms > 100, "{report}");
    assert!(report.japanese_bytes > 0, "{report}");
    let apps = [
        App::builder().japanese(dir).spawn().await,
        App::on_redis(&redis).await,
    ];
    (redis, apps)
}

/// The slug of `body` and the rules it says made it.
async fn answer(app: &App, body: Value) -> (String, u64) {
    let (status, answer) = app.post("/slug", &body).await;
    assert_eq!(status, 200, "{body} gave {answer}");
    (
        answer["slug"].as_str().unwrap().to_owned(),
        answer["rules"].as_u64().unwrap(),
    )
}

#[tokio::test]
async fn japanese_titles_are_read_as_japanese_in_both_modes() {
    let (_redis, apps) = both_modes_with(subset()).await;
    let titles = cases("ja-titles.tsv");
    assert!(titles.len() >= 16);
    for app in &apps {
        for (title, want) in &titles {
            // Titles with kana are Japanese by themselves; a title of kanji
            // alone (`日本語`) needs the locale, which every title takes.
            let (slug, rules) = answer(app, json!({"title": title, "locale": "ja"})).await;
            assert_eq!(
                (slug.as_str(), rules),
                (want.as_str(), slugd_engine::options::Rules::NEWEST.number()),
                "{title}"
            );
        }
        // The examples, without a locale where they have kana.
        for (title, want) in [
            ("東京タワーへようこそ", "tokyo-tawa-e-yokoso"),
            ("今日は良い天気", "kyo-wa-yoi-tenki"),
            ("こんにちは世界", "konnichiwa-sekai"),
            ("iPhone 15を買いました", "iphone-15-o-kaimashita"),
        ] {
            assert_eq!(app.slug(title).await, want, "{title}");
        }
        // The locale by CLDR's fallback: `ja-JP` is Japanese.
        let (slug, _) = answer(app, json!({"title": "日本語", "locale": "ja-JP"})).await;
        assert_eq!(slug, "nihongo");
        // Kanji alone without a Japanese locale are Chinese, as by rules 2.
        assert_eq!(app.slug("日本語").await, "ribenyu");
        assert_eq!(app.slug("北京大学").await, "beijing-daxue");
        // Other options apply to what was read.
        let (slug, _) = answer(
            app,
            json!({"title": "東京タワーへようこそ", "separator": "_", "max_length": 12}),
        )
        .await;
        assert_eq!(slug, "tokyo_tawa_e");
        let (slug, _) = answer(
            app,
            json!({"title": "東京タワーへようこそ", "symbols": false, "stopwords": ["e"]}),
        )
        .await;
        assert_eq!(slug, "tokyo-tawa-yokoso");
        // Rules 2, pinned, keep their slugs: kanji as Chinese, kana letter
        // by letter.
        for (title, before) in [
            ("東京タワーへようこそ", "dong-jing-tawaheyoukoso"),
            ("こんにちは世界", "konnitihashi-jie"),
        ] {
            let (slug, rules) = answer(app, json!({"title": title, "rules": 2})).await;
            assert_eq!((slug.as_str(), rules), (before, 2), "{title}");
        }
        // In a batch, each title is read.
        let (status, body) = app
            .post(
                "/slugs",
                &json!({"titles": ["東京タワーへようこそ", "I ❤ 東京のラーメン", "plain"]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["slugs"],
            json!([
                "tokyo-tawa-e-yokoso",
                "i-heavy-heart-tokyo-no-ramen",
                "plain"
            ])
        );
    }
}

#[tokio::test]
async fn a_japanese_title_on_redis_costs_one_round_trip() {
    let redis = RedisServer::start().await;
    slugd::load::run(&with_readings(&redis, subset()))
        .await
        .expect("the load with readings");
    let app = App::builder()
        .redis(&redis)
        .refresh_interval(Duration::from_secs(3600))
        .spawn()
        .await;
    assert_eq!(app.slug("Hello").await, "hello");
    // Wait out start-up's reads (see operations.rs): polled, not slept
    // for, since the watcher's first check may come late.
    let before = after_start(&app).await;
    // Readings and a symbol's name, in one round trip.
    assert_eq!(
        app.slug("☃ 東京タワーへようこそ").await,
        "snowman-tokyo-tawa-e-yokoso"
    );
    let one = app.scrape().await;
    assert_eq!(moved(&before, &one, TABLE_TRIPS), 1.0, "{one}");
    // A batch of Japanese titles: one round trip for all.
    let titles: Vec<String> = cases("ja-titles.tsv").into_iter().map(|(t, _)| t).collect();
    let slugs = app.slugs(&titles).await;
    assert_eq!(slugs.len(), titles.len());
    let batch = app.scrape().await;
    assert_eq!(moved(&one, &batch, TABLE_TRIPS), 1.0, "{batch}");
    // A title that is not Japanese but needs the table asks for its name
    // alone: one HMGET, of the symbol's bucket, and no bucket of readings.
    let hmgets = async || {
        let info: String = redis.query(redis::cmd("INFO").arg("commandstats")).await;
        info_number(&info, "cmdstat_hmget:calls=")
    };
    let before_hmgets = hmgets().await;
    assert_eq!(app.slug("北京 ☕").await, "beijing-hot-beverage");
    assert_eq!(hmgets().await, before_hmgets + 1);
    // A Japanese title with no symbol: the readings' buckets alone.
    let before_hmgets = hmgets().await;
    assert_eq!(app.slug("こんにちは").await, "konnichiwa");
    assert!(hmgets().await > before_hmgets);
}

/// While Redis is down, `--on-redis-down memory` answers from a copy with
/// the live version's readings (from `--ipadic`), so Japanese gets the slug
/// Redis gives; a copy that cannot read them answers 503, not another slug.
#[tokio::test]
async fn the_outage_copy_reads_japanese_as_redis_does_or_not_at_all() {
    let redis = RedisServer::start().await;
    slugd::load::run(&with_readings(&redis, subset()))
        .await
        .expect("the load with readings");
    let missing = tempfile::tempdir().unwrap();
    let with = App::builder()
        .redis(&redis)
        .on_redis_down(OnRedisDown::Memory)
        .ipadic(subset())
        .spawn()
        .await;
    let without = App::builder()
        .redis(&redis)
        .on_redis_down(OnRedisDown::Memory)
        .ipadic(missing.path().join("no-ipadic"))
        .spawn()
        .await;
    let title = "東京タワーへようこそ";
    let ask = async |app: &App, title: &str| {
        let r = app
            .client
            .post(app.url("/slug"))
            .json(&json!({ "title": title }))
            .send()
            .await
            .unwrap();
        let degraded = r.headers().contains_key("x-slugd-degraded");
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap();
        (
            status,
            degraded,
            body["slug"].as_str().unwrap_or("").to_owned(),
        )
    };
    for app in [&with, &without] {
        assert_eq!(
            ask(app, title).await,
            (200, false, "tokyo-tawa-e-yokoso".into())
        );
    }
    let mut redis = redis;
    redis.kill();
    assert_eq!(
        ask(&with, title).await,
        (200, true, "tokyo-tawa-e-yokoso".into())
    );
    // Without the readings there is no copy: what needs the table is a
    // 503, Japanese or not; what does not is answered.
    for title in [title, "I ❤ Redis"] {
        let (status, _, _) = ask(&without, title).await;
        assert_eq!(status, 503, "{title}");
    }
    assert_eq!(
        ask(&without, "plain words").await,
        (200, false, "plain-words".into())
    );
}

#[tokio::test]
async fn a_load_that_adds_japanese_reaches_running_instances() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let apps = [App::on_redis(&redis).await, App::on_redis(&redis).await];
    let title = "東京タワーへようこそ";
    for app in &apps {
        // No readings loaded: Han as rules 2 read it, kana in Hepburn.
        assert_eq!(app.slug(title).await, "dong-jing-tawaheyokoso");
    }
    slugd::load::run(&with_readings(&redis, subset()))
        .await
        .expect("the load with readings");
    for app in &apps {
        app.wait_for_slug(title, "tokyo-tawa-e-yokoso", Duration::from_secs(10))
            .await;
    }
    // And a load without them takes them away again.
    load(&redis).await;
    for app in &apps {
        app.wait_for_slug(title, "dong-jing-tawaheyokoso", Duration::from_secs(10))
            .await;
    }
}

#[tokio::test]
async fn without_the_dictionary_japanese_is_read_as_by_rules_2() {
    let missing = tempfile::tempdir().unwrap();
    let app = App::builder()
        .japanese(missing.path().join("no-ipadic"))
        .spawn()
        .await;
    // Rules 6, the default: kana in Hepburn; rules 5 as rules 2.
    assert_eq!(
        app.slug("東京タワーへようこそ").await,
        "dong-jing-tawaheyokoso"
    );
    let body = json!({"title": "東京タワーへようこそ", "rules": 5});
    assert_eq!(
        answer(&app, body).await,
        ("dong-jing-tawaheyoukoso".to_owned(), 5)
    );
    // With a Japanese locale rules 2 keep rules 1's syllables of Han.
    for rules in [2, 3] {
        let body = json!({"title": "日本語", "locale": "ja", "rules": rules});
        assert_eq!(answer(&app, body).await, ("ri-ben-yu".to_owned(), rules));
        let body = json!({"title": "東京タワーへようこそ", "locale": "ja", "rules": rules});
        let (slug, _) = answer(&app, body).await;
        assert_eq!(slug, "dong-jing-tawaheyokoso", "rules {rules}");
    }

    // A loader without it loads the rest, and says nothing of readings.
    let redis = RedisServer::start().await;
    let report = slugd::load::run(&with_readings(&redis, missing.path().join("no-ipadic")))
        .await
        .expect("a load without the dictionary");
    assert_eq!(report.japanese_forms, 0);
    assert!(!report.to_string().contains("Japanese"), "{report}");
}

/// The full dictionary in both modes: each mode gives the slug the other
/// does for every development and held-out title, and the development
/// titles their usual romanization (the held-out agreement is
/// tests/japanese.rs's and docs/figures.md's).
#[tokio::test]
async fn both_modes_read_every_title_alike_with_the_full_dictionary() {
    let (_redis, [in_process, on_redis]) = both_modes_with(full_ipadic()).await;
    let mut titles = cases("ja-titles.tsv");
    let developed = titles.len();
    titles.extend(cases("ja-heldout.tsv"));
    assert!(titles.len() > 100);
    let texts: Vec<&str> = titles.iter().map(|(t, _)| t.as_str()).collect();
    let slugs = alike_in_both_modes(&in_process, &on_redis, &texts).await;
    for (k, (title, want)) in titles.iter().take(developed).enumerate() {
        assert_eq!(slugs[k], json!(want), "{title}");
    }
    counters_read_as_counters(&in_process, &on_redis).await;
}

/// The slugs of `texts` with `locale: ja`, which both modes must give
/// alike.
async fn alike_in_both_modes(in_process: &App, on_redis: &App, texts: &[&str]) -> Value {
    let mut per_mode = Vec::new();
    for app in [in_process, on_redis] {
        let (status, body) = app
            .post("/slugs", &json!({"titles": texts, "locale": "ja"}))
            .await;
        assert_eq!(status, 200, "{body}");
        per_mode.push(body["slugs"].clone());
    }
    assert_eq!(per_mode[0], per_mode[1]);
    per_mode.swap_remove(0)
}

/// Rules 5: after digits a counter reads as a counter, and a kanji after
/// a kanji word as a suffix (`tests/data/standards/ja-counters.tsv`,
/// JMdict's readings): at least 90% of the examples have their letters,
/// alike in both modes; rules 4 read them as before (`2024-toshi`).
async fn counters_read_as_counters(in_process: &App, on_redis: &App) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/standards/ja-counters.tsv");
    let examples = tsv::read_examples(&path);
    let texts: Vec<&str> = examples.iter().map(|e| e.fields[0].as_str()).collect();
    let letters = |s: &str| -> String { s.chars().filter(char::is_ascii_alphanumeric).collect() };
    let slugs = alike_in_both_modes(in_process, on_redis, &texts).await;
    let mut misses = Vec::new();
    for (k, example) in examples.iter().enumerate() {
        let got = slugs[k].as_str().unwrap_or_default();
        if letters(got) != letters(&example.fields[1]) {
            misses.push(format!(
                "{} -> {got} (want {})",
                example.fields[0], example.fields[1]
            ));
        }
    }
    let agree = examples.len() - misses.len();
    println!(
        "counters: {agree} of {}; misses: {misses:?}",
        examples.len()
    );
    assert!(
        agree * 10 >= examples.len() * 9,
        "{agree} of {}: {misses:?}",
        examples.len()
    );
    for app in [in_process, on_redis] {
        let (status, body) = app
            .post(
                "/slug",
                &json!({"title": "2024年", "locale": "ja", "rules": 4}),
            )
            .await;
        assert_eq!(
            (status, &body["slug"]),
            (200, &json!("2024-toshi")),
            "{body}"
        );
    }
}
