//! The `locale` option: CLDR's transforms checked against CLDR's own test
//! files, and the option over HTTP in both modes.

use std::path::Path;

use serde_json::{Value, json};
use slugd_engine::cldr::{self, CldrSettings, Locales};
use slugd_engine::locale::{SlugLocale, fallback_chain};
use slugd_engine::options::{Options, RawOptions};
use slugd_engine::slug::{NoSymbols, slugify};

use std::time::{Duration, Instant};

use crate::fixtures::{RedisServer, debian_cldr, info_number, load, load_settings, slugd_command};
use crate::helpers::{App, assert_says, both_modes};
use crate::tsv;

/// Every line of each shipped CLDR test file: the `locale` of the file's
/// language romanizes the source exactly as CLDR says, and so the slug
/// with that locale is the slug of CLDR's romanization: by rules 4, for
/// rules 5 read Bulgarian, Greek, Russian, Serbian and Ukrainian by their
/// own standards, not by CLDR's BGN (`tests/api/standards.rs`); German by
/// the default rules too.
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
            rules: (language != "de").then_some(4),
            ..RawOptions::default()
        }
        .validate()
        .unwrap();
        let (mut total, mut romanized, mut slugged) = (0, 0, 0);
        for fields in tsv::read(&path) {
            let [source, want] = &fields[..] else {
                panic!("{name}: not source<TAB>result: {fields:?}");
            };
            total += 1;
            romanized += usize::from(locale.romanize(source) == want.as_str());
            let slug = slugify(source, &with_locale, &NoSymbols).ok();
            slugged += usize::from(slug == slugify(want, &Options::default(), &NoSymbols).ok());
        }
        println!("{name}: romanized {romanized}/{total}, slugs {slugged}/{total}");
        assert!(total > 10, "{name} has {total} lines");
        assert_eq!((romanized, slugged), (total, total), "{name}");
    }
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
            ("Київ", "uk", "kyiv"),
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

/// The README's examples and the emoji sequences UnicodeData cannot name,
/// without a locale: CLDR's English names from the shipped data/cldr.
#[tokio::test]
async fn emoji_sequences_get_their_english_cldr_names_in_both_modes() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (title, want) in [
            // Flags: a pair of regional indicators, and a tag sequence.
            ("Made in 🇩🇪!", "made-in-flag-germany"),
            ("🇩🇪🇫🇷", "flag-germany-flag-france"),
            (
                "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} fans",
                "flag-england-fans",
            ),
            ("🇹🇹", "flag-trinidad-and-tobago"),
            // ZWJ sequences, the longest first.
            ("👨\u{200D}👩\u{200D}👧 trip", "family-man-woman-girl-trip"),
            (
                "👨\u{200D}👩\u{200D}👧\u{200D}👦",
                "family-man-woman-girl-boy",
            ),
            ("❤\u{FE0F}\u{200D}🔥", "heart-on-fire"),
            // Keycaps with and without U+FE0F, when the digit stands alone.
            ("Step 1\u{FE0F}\u{20E3}", "step-keycap-1"),
            ("1\u{20E3} and 2\u{20E3}", "keycap-1-and-keycap-2"),
            ("#\u{FE0F}\u{20E3}tags", "keycap-tags"),
            ("A11\u{FE0F}\u{20E3}", "a11"),
            // Skin tones.
            ("👋🏽 hi", "waving-hand-medium-skin-tone-hi"),
            // Single symbols keep their UnicodeData names.
            ("This is my ☃ post!", "this-is-my-snowman-post"),
            ("I ❤ Redis", "i-heavy-heart-redis"),
            ("I ❤\u{FE0F} Redis", "i-heavy-heart-redis"),
            ("☕", "hot-beverage"),
            // A lone regional indicator is one symbol.
            ("🇩", "regional-indicator-letter-d"),
        ] {
            assert_eq!(app.slug(title).await, want, "{title:?}");
        }
        let (status, body) = app.get("/locales").await;
        assert_eq!((status, &body), (200, &json!({"locales": ["en"]})));
    }
}

/// Both modes with CLDR's German, Swiss German, French and Russian names.
async fn both_modes_with(locales: &str) -> (RedisServer, [App; 2]) {
    let redis = RedisServer::start().await;
    let mut settings = load_settings(&redis);
    settings.cldr = debian_cldr(locales);
    slugd::load::run(&settings).await.unwrap();
    let apps = [
        App::builder().cldr(debian_cldr(locales)).spawn().await,
        App::on_redis(&redis).await,
    ];
    (redis, apps)
}

#[tokio::test]
async fn a_locale_names_symbols_and_emoji_in_its_language_along_its_fallback_chain() {
    let (_redis, apps) = both_modes_with("de,de-CH,fr,ru").await;
    for app in &apps {
        for (title, locale, want) in [
            ("☕", "de", "heissgetraenk"),
            ("Made in 🇩🇪", "de", "made-in-flagge-deutschland"),
            (
                "👨\u{200D}👩\u{200D}👧",
                "de",
                "familie-mann-frau-und-maedchen",
            ),
            ("I ❤ Berlin", "de", "i-rotes-herz-berlin"),
            ("1\u{FE0F}\u{20E3} Größe", "de", "taste-1-groesse"),
            // de-CH has a name of its own for some symbols, and the rest
            // from de.
            ("🍗", "de-CH", "pouletschenkel"),
            ("🍗", "de", "haehnchenschenkel"),
            ("☃", "de-CH", "schneemann-im-schnee"),
            ("☕", "fr", "boisson-chaude"),
            ("☕ Привет", "ru", "goryachiy-napitok-privet"),
            // A locale with no names loaded: its rules, the default names.
            ("☕ 🇩🇪", "es", "hot-beverage-flag-germany"),
            // Characters outside the table are not named in any locale.
            ("„Hallo“ – Welt", "de", "hallo-welt"),
        ] {
            let (status, body) = slug_with(app, title, locale).await;
            assert_eq!(
                (status, body["slug"].as_str()),
                (200, Some(want)),
                "{title} {locale}: {body}"
            );
        }
        // Without a locale nothing changes.
        assert_eq!(app.slug("☕ 🇩🇪").await, "hot-beverage-flag-germany");
        let (status, body) = app.get("/locales").await;
        assert_eq!(status, 200);
        assert_eq!(body, json!({"locales": ["en", "de", "de-CH", "fr", "ru"]}));
    }
}

/// Issue 21, rules 4: with `ascii: false` a locale's names are spelled as
/// the locale writes them, from the table in both modes; rules 3 keep the
/// romanized names they gave, and a slug slugged again is the same slug.
#[tokio::test]
async fn in_the_readers_own_script_a_locale_names_symbols_as_it_writes_them() {
    let (_redis, apps) = both_modes_with("de,de-CH,ru,ta,hi,zh,fa,el").await;
    let own = |title: &str, locale: Option<&str>, rules: u64| json!({"title": title, "locale": locale, "ascii": false, "rules": rules});
    for app in &apps {
        for (title, locale, want, by_rules_3) in [
            (
                "I ❤ Москва",
                Some("ru"),
                "i-алое-сердце-москва",
                "i-aloye-serdtse-москва",
            ),
            (
                "☕ Größe",
                Some("de"),
                "heißgetränk-größe",
                "heissgetraenk-größe",
            ),
            (
                "☕ Αθήνα",
                Some("el"),
                "ζεστό-ρόφημα-αθήνα",
                "zesto-rofima-αθήνα",
            ),
            (
                "❤ می‌خواهم",
                Some("fa"),
                "قلب-قرمز-می‌خواهم",
                "qlb-qrmz-می‌خواهم",
            ),
            ("☃ नमस्ते", Some("hi"), "स्नोमैन-नमस्ते", "snomain-नमस्ते"),
            (
                "☃ 北京",
                Some("zh"),
                "雪-与-雪人-北京",
                "xue-yu-xue-ren-北京",
            ),
            // The virama of `மற்றும்` (the locale's word for `&`) and of the
            // names stays: rules 3 cut words there.
            (
                "a & b 🇩🇪",
                Some("ta"),
                "a-மற்றும்-b-கொடி-ஜெர்மனி",
                "a-மற-றும-b-kotti-jermnnni",
            ),
            // de-CH's own names, and Swiss spelling: no ß.
            (
                "🍗 ☃ ☕",
                Some("de-CH"),
                "pouletschenkel-schneemann-im-schnee-heissgetränk",
                "pouletschenkel-schneemann-im-schnee-heissgetraenk",
            ),
            // English, with or without a locale the table lacks: its names
            // as written too.
            (
                "🇦🇽 ☃",
                None,
                "flag-åland-islands-snowman",
                "flag-aland-islands-snowman",
            ),
            (
                "☕ 🇨🇼",
                Some("es"),
                "hot-beverage-flag-curaçao",
                "hot-beverage-flag-curacao",
            ),
        ] {
            for (rules, want) in [(4, want), (3, by_rules_3)] {
                let (status, body) = app.post("/slug", &own(title, locale, rules)).await;
                assert_eq!(
                    (status, body["slug"].as_str(), body["rules"].as_u64()),
                    (200, Some(want), Some(rules)),
                    "{title} {locale:?} rules {rules}: {body}"
                );
                let (_, again) = app.post("/slug", &own(want, locale, rules)).await;
                assert_eq!(again["slug"], want, "{want} slugged again");
            }
            // ASCII slugs keep the romanized names.
            let (_, ascii) = app
                .post("/slug", &json!({"title": title, "locale": locale}))
                .await;
            assert!(ascii["slug"].as_str().unwrap().is_ascii(), "{ascii}");
        }
    }
}

#[tokio::test]
async fn a_load_that_adds_a_locale_reaches_running_instances() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let app = App::on_redis(&redis).await;
    let (_, body) = slug_with(&app, "☕", "de").await;
    assert_eq!(body["slug"], "hot-beverage", "{body}");

    let mut settings = load_settings(&redis);
    settings.cldr = debian_cldr("de");
    let report = slugd::load::run(&settings).await.unwrap();
    assert_eq!(report.locales, 2, "{report}");
    // The switch notice moves the instance over at once; allow a refresh.
    // Polled within a generous bound: a busy machine may be slow to do
    // either.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, body) = slug_with(&app, "☕", "de").await;
        if body["slug"] == "heissgetraenk" {
            break;
        }
        assert!(Instant::now() < deadline, "still {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, body) = app.get("/locales").await;
    assert_eq!(body, json!({"locales": ["en", "de"]}));
}

#[test]
fn a_load_of_a_locale_that_is_not_there_says_how_to_get_it_and_changes_nothing() {
    let out = slugd_command()
        .args([
            "load",
            "--redis-url",
            "redis://127.0.0.1:1",
            "--locales",
            "de",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("locale de") && err.contains("apt-get install unicode-cldr-core"),
        "{err}"
    );
    // It failed before connecting: no Redis at port 1 was needed to say so.
    assert!(!err.contains("connect"), "{err}");
}

/// Reads the server has processed (`INFO stats`), asked on `conn`.
async fn reads(conn: &mut slugd::redis_conn::Conn) -> u64 {
    let info: String = redis::cmd("INFO")
        .arg("stats")
        .query_async(conn)
        .await
        .unwrap();
    info_number(&info, "total_reads_processed:")
}

#[tokio::test]
async fn a_request_with_a_locale_costs_one_round_trip_at_most() {
    let redis = RedisServer::start().await;
    let mut settings = load_settings(&redis);
    settings.cldr = debian_cldr("de,de-CH");
    slugd::load::run(&settings).await.unwrap();
    // Redis's count of reads is the server's: the periodic check of the
    // live version (every 200 ms in tests) would land in a measured
    // request now and then, so this app checks once an hour.
    let app = App::builder()
        .redis_config(redis.config())
        .name_cache(0)
        .refresh_interval(Duration::from_secs(3600))
        .spawn()
        .await;
    assert_eq!(app.slug("warm up ☃").await, "warm-up-snowman");
    let mut conn = redis.connection().await.unwrap();
    // The check made at start may still be on its way: wait until Redis
    // sees no read but the INFO that measures for 100 ms.
    loop {
        let before = reads(&mut conn).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        if reads(&mut conn).await == before + 1 {
            break;
        }
    }
    for (title, locale, want, trips) in [
        // Symbols, a sequence and a chain over two locales: one pipeline.
        (
            "☕ 🍗 🇩🇪 👨‍👩‍👧 ☃",
            "de-CH",
            "heissgetraenk-pouletschenkel-flagge-deutschland-familie-mann-frau-und-maedchen-schneemann-im-schnee",
            1,
        ),
        ("Größe", "de", "groesse", 0),
    ] {
        let before = reads(&mut conn).await;
        let (status, body) = slug_with(&app, title, locale).await;
        assert_eq!((status, body["slug"].as_str()), (200, Some(want)), "{body}");
        // Minus the INFO that measures.
        let asked = reads(&mut conn).await - before - 1;
        assert_eq!(asked, trips, "{title}");
    }
}

/// Every locale CLDR has names for is reached by a request with its own
/// tag: the first loaded locale along ICU4X's fallback chain of the tag is
/// the tag's own, or one ICU4X writes the same way (`sr-Cyrl` is `sr`),
/// so no loaded names go unread.
#[test]
fn every_cldr_locale_is_in_its_own_fallback_chain() {
    let settings = debian_cldr("all");
    let tags = settings.resolve().unwrap();
    assert!(tags.len() > 140, "{}", tags.len());
    let locales = Locales::new(tags.clone());
    let icu_form = |tag: &str| fallback_chain(tag).unwrap()[0].clone();
    let mut unreachable = Vec::new();
    let mut unknown = Vec::new();
    for (slot, tag) in tags.iter().enumerate().filter(|(_, t)| *t != "root") {
        let Ok(locale) = SlugLocale::resolve(tag) else {
            unknown.push(tag.clone());
            continue;
        };
        let first = locale.fallbacks().iter().find_map(|t| locales.slot(t));
        let reached = first.map(|s| tags[s as usize].as_str());
        if first != Some(slot as u16) && reached.map(icu_form) != Some(icu_form(tag)) {
            unreachable.push(format!(
                "{tag}: {:?} reaches {reached:?}",
                locale.fallbacks()
            ));
        }
    }
    assert!(unreachable.is_empty(), "{unreachable:#?}");
    assert!(unknown.is_empty(), "tags refused as unknown: {unknown:?}");
}

/// `slugd` with no `--cldr`: it looks in the checkout's data/cldr, then
/// under each of `xdg_data_dirs` (Debian's /usr/share by default).
fn slugd_without_cldr(xdg_data_dirs: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut command = slugd_command();
    command.env_remove("SLUGD_CLDR").args(args);
    match xdg_data_dirs {
        Some(dirs) => command.env("XDG_DATA_DIRS", dirs),
        None => command.env_remove("XDG_DATA_DIRS"),
    };
    command.output().unwrap()
}

#[tokio::test]
async fn locales_all_without_cldr_loads_every_locale_debian_installed() {
    debian_cldr("all");
    let redis = RedisServer::start().await;
    let url = redis.url();
    let out = tokio::task::spawn_blocking(move || {
        slugd_without_cldr(None, &["load", "--redis-url", &url, "--locales", "all"])
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(" in 147 locales"), "{stdout}");
}

#[test]
fn locales_all_with_only_english_to_be_found_fails_with_the_install_hint() {
    // No system data directory with CLDR: data/cldr (English) is all there is.
    for args in [
        &[
            "load",
            "--redis-url",
            "redis://127.0.0.1:1",
            "--locales",
            "all",
        ][..],
        &["slugify", "--locales", "all", "x"],
        &["serve", "--listen", "127.0.0.1:0", "--locales", "all"],
        &[
            "load",
            "--redis-url",
            "redis://127.0.0.1:1",
            "--locales",
            "de",
        ],
    ] {
        let out = slugd_without_cldr(Some("/nonexistent"), args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        for says in [
            "data/cldr, /nonexistent/unicode/cldr/common (--cldr not given)",
            "apt-get install unicode-cldr-core",
        ] {
            assert!(err.contains(says), "{args:?}: {err}");
        }
        assert!(!err.contains("connect"), "{args:?}: {err}");
    }
    // A --cldr that holds English only says so, of that directory.
    let out = slugd_command()
        .args(["slugify", "--locales", "all", "x"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--locales all would load 1 locale") && err.contains("holds English only"),
        "{err}"
    );
}

#[test]
fn a_named_locale_without_cldr_is_found_where_debian_puts_it() {
    debian_cldr("de");
    let out = slugd_without_cldr(
        None,
        &["slugify", "--locales", "de", "--locale", "de", "☕"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "heissgetraenk\n");
}

#[test]
fn norwegian_bokmal_is_read_from_the_file_cldr_files_it_under() {
    // CLDR has no nb.xml: Bokmål's names are its parent `no`'s.
    debian_cldr("no");
    let out = slugd_command()
        .args(["slugify", "--cldr", cldr::DEBIAN_DIR])
        .args(["--locales", "nb", "--locale", "nb", "☕"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "varm-drikke\n");
    // nb and no are one locale of the table; an alias finds its locale too.
    let settings = CldrSettings {
        locales: "nb,no,nob,iw,de-AT".parse().unwrap(),
        ..debian_cldr("en")
    };
    assert_eq!(settings.resolve().unwrap(), ["en", "de", "he", "no"]);
}

#[test]
fn a_missing_locale_is_explained_of_the_directory_searched() {
    let out = slugd_command()
        .args([
            "slugify",
            "--cldr",
            cldr::DEBIAN_DIR,
            "--locales",
            "xx",
            "x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "locale xx: no annotations/xx.xml in {}",
            cldr::DEBIAN_DIR
        )),
        "{err}"
    );
    assert!(
        !err.contains("data/cldr") && !err.contains("English only"),
        "{err}"
    );
    // A directory of English only, not the repository's: named as given.
    let dir = tempfile::tempdir().unwrap();
    for sub in ["annotations", "annotationsDerived"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/cldr")
            .join(sub)
            .join("en.xml");
        std::fs::copy(from, dir.path().join(sub).join("en.xml")).unwrap();
    }
    let given = dir.path().to_str().unwrap();
    let out = slugd_command()
        .args(["slugify", "--cldr", given, "--locales", "nb", "x"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "locale nb: no annotations/nb.xml or no.xml in {given}"
        )) && err.contains(&format!("{given} holds English only"))
            && err.contains("apt-get install unicode-cldr-core"),
        "{err}"
    );
}
