//! `ascii: false` (issue 21): slugs in the reader's own script with their
//! URI form, in both modes: real titles in sixteen languages, the cases
//! Django's `allow_unicode` and python-slugify break (Brahmic vowel signs
//! dropped), `max_bytes` cuts that never break a character or a grapheme
//! cluster, idempotence, the options, the errors and the CLI.

use icu::segmenter::GraphemeClusterSegmenter;
use serde_json::{Value, json};

use crate::fixtures::slugd_command;
use crate::helpers::{App, both_modes};

/// `(language, title, slug)`: headlines and article titles as their
/// readers write them, and the slug a reader of the language would type:
/// the words in their own letters, lowercase where the script has case,
/// joined by `-`.
const TITLES: &[(&str, &str, &str)] = &[
    ("ru", "Война и мир", "война-и-мир"),
    ("uk", "Слава Україні!", "слава-україні"),
    ("el", "Η Ακρόπολη της Αθήνας", "η-ακρόπολη-της-αθήνας"),
    // Final sigma stays final when lowercased.
    ("el", "ΦΙΛΟΣΟΦΟΣ", "φιλοσοφο\u{3C2}"),
    ("ka", "თბილისის ისტორია", "თბილისის-ისტორია"),
    (
        "hy",
        "Հայաստանի Հանրապետություն",
        "հայաստանի-հանրապետություն",
    ),
    ("he", "שלום עולם", "שלום-עולם"),
    ("ar", "مرحبا بالعالم", "مرحبا-بالعالم"),
    // The zero-width non-joiner inside `می‌خواهم` is Persian spelling.
    ("fa", "می‌خواهم به تهران بروم", "می‌خواهم-به-تهران-بروم"),
    // Django 5.2 gives `नमसत-दनय`, python-slugify 9.2 `नमस-त-द-न-य`: the
    // vowel signs and the virama are marks (M), kept here.
    ("hi", "नमस्ते दुनिया", "नमस्ते-दुनिया"),
    ("bn", "বাংলা ভাষা", "বাংলা-ভাষা"),
    ("ta", "தமிழ் மொழி", "தமிழ்-மொழி"),
    // Written without spaces: the word segmenter's words.
    ("th", "ภาษาไทยง่ายนิดเดียว", "ภาษา-ไทย-ง่าย-นิด-เดียว"),
    ("zh", "北京大学的历史", "北京-大学-的-历史"),
    ("ja", "東京タワーへようこそ", "東京-タワー-へ-ようこそ"),
    (
        "ko",
        "서울에서 가장 맛있는 김치찌개",
        "서울에서-가장-맛있는-김치찌개",
    ),
    ("am", "ሰላም ዓለም", "ሰላም-ዓለም"),
    // The example: symbols are still spelled out.
    ("ru", "I ❤ Москва", "i-heavy-heart-москва"),
];

fn unicode(title: &str) -> Value {
    json!({"title": title, "ascii": false})
}

/// The percent-decoding of a URI form.
fn decoded(uri: &str) -> String {
    percent_encoding::percent_decode_str(uri)
        .decode_utf8()
        .unwrap()
        .into_owned()
}

#[tokio::test]
async fn titles_in_sixteen_languages_keep_their_script_in_both_modes() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (language, title, want) in TITLES {
            let (status, answer) = app.post("/slug", &unicode(title)).await;
            assert_eq!(status, 200, "{language} {title}: {answer}");
            assert_eq!(answer["slug"], *want, "{language} {title}");
            assert_eq!(
                answer["rules"],
                slugd_engine::options::Rules::NEWEST.number()
            );
            let uri = answer["uri"].as_str().unwrap();
            assert!(
                uri.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)),
                "{uri}"
            );
            assert_eq!(
                decoded(uri),
                *want,
                "{language}: the uri is the slug's UTF-8"
            );
            // With the language's locale too (its case rules).
            let (status, answer) = app
                .post(
                    "/slug",
                    &json!({"title": title, "ascii": false, "locale": language}),
                )
                .await;
            assert_eq!(status, 200, "{language} {title}: {answer}");
            assert_eq!(answer["slug"], *want, "{language} {title} with its locale");
        }
        // A batch gives the same slugs, and their URIs in order.
        let titles: Vec<&str> = TITLES.iter().map(|t| t.1).collect();
        let (status, answer) = app
            .post("/slugs", &json!({"titles": titles, "ascii": false}))
            .await;
        assert_eq!(status, 200, "{answer}");
        for (k, (_, _, want)) in TITLES.iter().enumerate() {
            assert_eq!(answer["slugs"][k], *want);
            assert_eq!(decoded(answer["uris"][k].as_str().unwrap()), *want);
        }
        // ASCII answers have no `uri`, as before.
        let (_, answer) = app.post("/slug", &json!({"title": "Война и мир"})).await;
        assert_eq!(answer, json!({"slug": "voyna-i-mir", "rules": 6}));
    }
}

#[tokio::test]
async fn brahmic_clusters_keep_every_mark() {
    let (_redis, apps) = both_modes().await;
    // Each word of these titles has vowel signs or a virama that Django and
    // python-slugify drop.
    let titles = [
        "नमस्ते दुनिया",
        "हिन्दी विकिपीडिया",
        "বাংলাদেশের স্বাধীনতা",
        "தமிழ்நாடு அரசு",
        "ગુજરાતી ભાષા",
        "ਪੰਜਾਬੀ ਬੋਲੀ",
        "తెలుగు సినిమా",
        "ಕನ್ನಡ ಸಾಹಿತ್ಯ",
        "മലയാളം വാർത്ത",
    ];
    for app in &apps {
        for title in titles {
            let slug = app.slug_of(&unicode(title)).await;
            let words: Vec<&str> = title.split(' ').collect();
            assert_eq!(slug, words.join("-"), "{title}: every character kept");
        }
    }
}

#[tokio::test]
async fn case_normalization_and_the_locale() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (body, want) in [
            // NFKC: fullwidth letters, a ligature, a circled digit.
            (unicode("Ｆｕｌｌｗｉｄｔｈ ﬁle ①"), "fullwidth-file-1"),
            // Decomposed input gives the composed slug.
            (unicode("Cafe\u{301} au lait"), "café-au-lait"),
            // Turkish and Azerbaijani case rules: `I` is `ı`, `İ` is `i`.
            (
                json!({"title": "DİYARBAKIR IRMAK", "ascii": false, "locale": "tr"}),
                "diyarbakır-ırmak",
            ),
            (
                json!({"title": "İLHAM ƏLİYEV", "ascii": false, "locale": "az"}),
                "ilham-əliyev",
            ),
            // Entities, `&`, apostrophes and thousands as in ASCII mode.
            (unicode("Tom &amp; Jerry"), "tom-and-jerry"),
            (
                unicode("l’amour d'été, 1,000,000 fois"),
                "lamour-dété-1000000-fois",
            ),
            (unicode("Привет,мир"), "привет-мир"),
            // Options work as in ASCII mode.
            (
                json!({"title": "Война и Мир", "ascii": false, "lowercase": false}),
                "Война-и-Мир",
            ),
            (
                json!({"title": "Война и мир", "ascii": false, "separator": "_"}),
                "война_и_мир",
            ),
            (
                json!({"title": "Война и мир", "ascii": false, "stopwords": ["И"]}),
                "война-мир",
            ),
            (
                json!({"title": "приветМир fooBar APIs iPhone", "ascii": false, "decamelize": true}),
                "привет-мир-foo-bar-apis-iphone",
            ),
            (
                json!({"title": "версия v1.2.3", "ascii": false, "preserve": "."}),
                "версия-v1.2.3",
            ),
            (
                json!({"title": "!!!", "ascii": false, "fallback": "без названия"}),
                "без-названия",
            ),
            (
                json!({"title": "Снег ☃", "ascii": false, "symbols": false}),
                "снег",
            ),
        ] {
            assert_eq!(app.slug_of(&body).await, want, "{body}");
        }
    }
}

/// The grapheme cluster boundaries of `text`.
fn clusters(text: &str) -> Vec<usize> {
    GraphemeClusterSegmenter::new().segment_str(text).collect()
}

#[tokio::test]
async fn max_bytes_cuts_at_a_word_or_a_cluster_boundary_never_inside_one() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (_, title, full) in TITLES {
            let full_uri_len = slugd_engine::slug::uri(full).len();
            for max in 1..=full_uri_len + 1 {
                let body = json!({"title": title, "ascii": false, "max_bytes": max});
                let (status, answer) = app.post("/slug", &body).await;
                if status == 422 {
                    // Not even the first cluster fits.
                    let first = &full[..clusters(full)[1]];
                    assert!(
                        slugd_engine::slug::uri(first).len() > max,
                        "{title} {max}: {answer}"
                    );
                    continue;
                }
                assert_eq!(status, 200, "{body}: {answer}");
                let slug = answer["slug"].as_str().unwrap();
                let uri = answer["uri"].as_str().unwrap();
                assert!(uri.len() <= max, "{title} {max}: {uri}");
                assert!(full.starts_with(slug), "{title} {max}: {slug} of {full}");
                // A joiner that would end the slug goes with the cut.
                let joiner = full[slug.len()..].starts_with(['\u{200C}', '\u{200D}']);
                let end = slug.len() + if joiner { 3 } else { 0 };
                assert!(
                    clusters(full).contains(&end),
                    "{title} {max}: {slug} ends inside a cluster"
                );
                // At a word boundary whenever the first word fits.
                let first_word = full.split('-').next().unwrap();
                if slugd_engine::slug::uri(first_word).len() <= max {
                    let rest = &full[slug.len()..];
                    assert!(
                        rest.is_empty() || rest.starts_with('-'),
                        "{title} {max}: {slug}"
                    );
                }
            }
        }
        // WordPress's 200-byte column: 33 Arabic letters and their spaces.
        let title = "عنوان طويل جدا باللغة العربية يتجاوز حدود عمود قاعدة البيانات في ووردبريس";
        let answer = app
            .post(
                "/slug",
                &json!({"title": title, "ascii": false, "max_bytes": 200}),
            )
            .await
            .1;
        let uri = answer["uri"].as_str().unwrap();
        assert!(uri.len() <= 200 && uri.len() > 150, "{uri}");
        // `max_length` counts characters: the conjunct `स्ते` is four.
        let body = json!({"title": "नमस्ते", "ascii": false, "max_length": 3});
        assert_eq!(app.slug_of(&body).await, "नम");
    }
}

#[tokio::test]
async fn a_slug_slugged_again_is_the_same_slug() {
    let (_redis, apps) = both_modes().await;
    let extra = [
        "Ｆｕｌｌｗｉｄｔｈ ﬁle ①",
        "Cafe\u{301} & crème brûlée",
        "İstanbul'da ☃ kış",
        "2024年東京オリンピック",
        "ສະບາຍດີ ພາສາລາວ",
        "ភាសាខ្មែរ",
        "မြန်မာဘာသာ",
        "Hello 👍🏽 world 🇺🇦",
    ];
    for app in &apps {
        for title in TITLES.iter().map(|t| t.1).chain(extra) {
            for options in [
                json!({"ascii": false}),
                json!({"ascii": false, "decamelize": true, "lowercase": false}),
                json!({"ascii": false, "separator": "_"}),
            ] {
                let mut body = options.clone();
                body["title"] = title.into();
                let once = app.slug_of(&body).await;
                body["title"] = once.clone().into();
                assert_eq!(app.slug_of(&body).await, once, "{title} {options}");
            }
        }
    }
}

#[tokio::test]
async fn mistakes_are_explained() {
    let app = App::in_process().await;
    for (body, says) in [
        (
            json!({"title": "x", "ascii": false, "rules": 2}),
            "ascii: false needs rules 3 or later",
        ),
        (
            json!({"title": "x", "ascii": false, "max_bytes": 0}),
            "max_bytes must be at least 1",
        ),
        (json!({"title": "x", "ascii": "no"}), "ascii"),
    ] {
        let (status, answer) = app.post("/slug", &body).await;
        assert_eq!(status, 422, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(says), "{body}: {error}");
    }
}

#[tokio::test]
async fn max_bytes_bounds_ascii_slugs_too_and_long_runs_keep_their_words() {
    let (_redis, apps) = both_modes().await;
    // A long run of Thai and of Han with marks: cut in pieces at word
    // boundaries, never between a letter and its mark.
    let thai = "ภาษาไทยง่ายนิดเดียว".repeat(40);
    let han = "北京大学\u{301}的历史".repeat(60);
    for app in &apps {
        let body = json!({"title": "hello wonderful world", "max_bytes": 15});
        assert_eq!(app.slug_of(&body).await, "hello-wonderful");
        let body = json!({"title": "hello wonderful world", "max_bytes": 15, "max_length": 5});
        assert_eq!(app.slug_of(&body).await, "hello");
        for title in [&thai, &han] {
            let slug = app.slug_of(&unicode(title)).await;
            for word in slug.split('-') {
                let first = word.chars().next().unwrap();
                assert!(
                    !('\u{300}'..='\u{36F}').contains(&first),
                    "{word:?} starts with a mark"
                );
            }
            let letters: String = slug.chars().filter(|&c| c != '-').collect();
            let nfc = icu::normalizer::ComposingNormalizer::new_nfc();
            assert_eq!(letters, nfc.normalize(title), "every letter kept, in order");
            assert_eq!(app.slug_of(&unicode(&slug)).await, slug, "stable");
        }
    }
}

#[test]
fn the_cli_prints_either_form() {
    let run = |args: &[&str]| {
        let out = slugd_command().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run(&["slugify", "--unicode", "Привет, мир"]),
        "привет-мир\n"
    );
    assert_eq!(
        run(&["slugify", "--unicode", "--uri", "Привет, мир"]),
        "%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82-%D0%BC%D0%B8%D1%80\n"
    );
    assert_eq!(
        run(&["slugify", "--unicode", "--max-bytes", "15", "нет"]),
        "не\n"
    );
    let out = slugd_command()
        .args(["slugify", "--unicode", "--rules", "1", "x"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--unicode: ascii: false needs rules 3"));
}
