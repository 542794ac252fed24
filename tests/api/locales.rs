//! The `locale` option: CLDR's transforms checked against CLDR's own test
//! files, and the option over HTTP in both modes.

use std::path::Path;

use serde_json::{Value, json};
use slugd::locale::SlugLocale;
use slugd::options::{Options, RawOptions};
use slugd::slug::{NoSymbols, slugify};

use crate::fixtures::{RedisServer, load};
use crate::helpers::{App, assert_says};

/// Every line of each shipped CLDR test file: the `locale` of the file's
/// language romanizes the source exactly as CLDR says, and so the slug
/// with that locale is the slug of CLDR's romanization.
#[test]
fn cldr_transform_test_files_agree_line_for_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/cldr-transforms-test");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 6, "{files:?}");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let language = name.split('-').next().unwrap();
        let locale = SlugLocale::resolve(language).unwrap();
        let with_locale = RawOptions {
            locale: Some(language.to_owned()),
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut total, mut romanized, mut slugged) = (0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (source, want) = line.split_once('\t').expect("source<TAB>result");
            total += 1;
            romanized += usize::from(locale.romanize(source) == want);
            let slug = slugify(source, &with_locale, &NoSymbols).ok();
            slugged += usize::from(slug == slugify(want, &Options::default(), &NoSymbols).ok());
        }
        println!("{name}: romanized {romanized}/{total}, slugs {slugged}/{total}");
        assert!(total > 10, "{name} has {total} lines");
        assert_eq!((romanized, slugged), (total, total), "{name}");
    }
}

async fn both_modes() -> (RedisServer, [App; 2]) {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let apps = [App::in_process().await, App::on_redis(&redis).await];
    (redis, apps)
}

async fn slug_with(app: &App, title: &str, locale: &str) -> (u16, Value) {
    app.post("/slug", &json!({"title": title, "locale": locale}))
        .await
}

#[tokio::test]
async fn a_locale_romanizes_by_cldr_and_reads_and_in_its_language_in_both_modes() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (title, locale, want) in [
            ("Größe & Straße", "de", "groesse-und-strasse"),
            ("Größe", "de-CH", "groesse"),
            ("Größe", "en", "grosse"),
            ("Юрьев Съезд", "ru", "yuryev-syezd"),
            ("Привет ☃ мир", "ru", "privet-snowman-mir"),
            ("Rock & Roll", "fr", "rock-et-roll"),
            ("Rock & Roll", "es", "rock-y-roll"),
            ("Rock & Roll", "ja", "rock-roll"),
            ("Київ", "uk", "kyyiv"),
        ] {
            let (status, body) = slug_with(app, title, locale).await;
            assert_eq!(
                (status, body["slug"].as_str()),
                (200, Some(want)),
                "{title} {locale}: {body}"
            );
        }
        let (status, body) = slug_with(app, "Hello", "xx").await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["code"], "unknown_locale");
        assert_says(&body, "\"xx\" is unknown");
        let (status, body) = slug_with(app, "Hello", "not a tag").await;
        assert_eq!(
            (status, body["code"].as_str()),
            (422, Some("invalid_request")),
            "{body}"
        );
        assert_says(&body, "BCP 47");
        let (status, body) = app
            .post(
                "/slugs",
                &json!({"titles": ["Größe", "Füße"], "locale": "de"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["slugs"], json!(["groesse", "fuesse"]));
    }
    // A server-wide default locale, which a request overrides.
    let defaults = RawOptions {
        locale: Some("de".into()),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    let app = App::builder().defaults(defaults).spawn().await;
    assert_eq!(app.slug("Größe").await, "groesse");
    let (_, body) = slug_with(&app, "Größe", "en").await;
    assert_eq!(body["slug"], "grosse");
}
