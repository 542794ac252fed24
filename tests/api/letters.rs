//! Rules 2's letters, entities and decamelize (issue 19): every letter
//! deunicode writes with punctuation, found by running it over all of
//! Unicode and kept in `data/letters-as-punctuation.tsv`, stays in its
//! word; real titles in the languages that write such letters, HTML
//! entities and acronyms under `decamelize`, in both modes, beside what
//! rules 1 keep giving.

use std::path::Path;

use serde_json::{Value, json};
use slugd_engine::options::RawOptions;
use slugd_engine::slug::{NoSymbols, slugify};
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::helpers::{App, both_modes};

/// The list's path.
fn list_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/letters-as-punctuation.tsv")
}

/// Every letter (general category L*) whose deunicode transliteration has
/// ASCII that is neither a letter, a digit nor a space, as the list's
/// lines: group `a` when the transliteration has a letter or digit too
/// (`Қ` `K'`), `b` when it has none (`ə` `@`); then what rules 2 make of
/// the letter between `x` and `y`.
fn letters_as_punctuation() -> Vec<String> {
    let rules2 = RawOptions {
        rules: Some(2),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    (0x80..=0x10FFFF)
        .filter_map(char::from_u32)
        .filter(|c| c.general_category_group() == GeneralCategoryGroup::Letter)
        .filter_map(|c| Some((c, deunicode::deunicode_char(c)?)))
        .filter(|(_, t)| t.bytes().any(|b| !b.is_ascii_alphanumeric() && b != b' '))
        .map(|(c, t)| {
            let group = match t.bytes().any(|b| b.is_ascii_alphanumeric()) {
                true => 'a',
                false => 'b',
            };
            let slug = slugify(&format!("x{c}y"), &rules2, &NoSymbols).unwrap();
            format!("{group}\tU+{:04X}\t{c}\t{t:?}\t{slug}", c as u32)
        })
        .collect()
}

/// The list is what deunicode gives today (`SLUGD_WRITE_LETTERS=1`
/// writes it anew, say after a deunicode upgrade), and by rules 2 every
/// letter on it stays in its word: `x{letter}y` is one word, unless its
/// transliteration has a space (`ﷺ` is four words).
#[test]
fn every_letter_deunicode_writes_as_punctuation_stays_in_its_word() {
    let lines = letters_as_punctuation();
    let text = format!(
        "# group\tcode point\tletter\tdeunicode\tslug of x{{letter}}y by rules 2 \
         (made by tests/api/letters.rs)\n{}\n",
        lines.join("\n")
    );
    if std::env::var_os("SLUGD_WRITE_LETTERS").is_some() {
        std::fs::write(list_path(), &text).unwrap();
    }
    let kept = std::fs::read_to_string(list_path()).unwrap();
    assert!(
        kept == text,
        "data/letters-as-punctuation.tsv is not what deunicode gives: run \
         SLUGD_WRITE_LETTERS=1 cargo test --test api letters, and check the diff"
    );
    let (mut a, mut b) = (0, 0);
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let spaced = fields[3].contains(' ');
        // Thai, Lao, Myanmar and Khmer are cut into words by the word
        // segmenter in rules 2: a letter of theirs between two Latin
        // letters is a word of its own, whatever deunicode writes.
        let c = fields[2].chars().next().unwrap();
        let segmented = matches!(c,
            '\u{0E00}'..='\u{0EFF}' | '\u{1000}'..='\u{109F}' | '\u{1780}'..='\u{17FF}'
            | '\u{19E0}'..='\u{19FF}' | '\u{A9E0}'..='\u{A9FF}' | '\u{AA60}'..='\u{AA7F}');
        assert!(
            spaced || segmented || !fields[4].contains('-'),
            "split: {line}"
        );
        match fields[0] {
            "a" => a += 1,
            _ => b += 1,
        }
    }
    println!("{a} letters with punctuation beside letters, {b} with punctuation alone");
    assert!(a > 300 && b > 400, "{a} and {b}");
}

/// The letters deunicode writes as punctuation alone that readers write a
/// letter for are slugs on their own, not refused as empty.
#[test]
fn a_spelled_letter_alone_is_a_slug() {
    let rules2 = RawOptions {
        rules: Some(2),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    for (letter, want) in [("ə", "e"), ("Ə", "e"), ("ә", "a"), ("ة", "h"), ("ا", "a")] {
        assert_eq!(
            slugify(letter, &rules2, &NoSymbols).as_deref(),
            Ok(want),
            "{letter}"
        );
    }
}

/// The slug `app` answers for `body`, and the rules it says made it.
async fn slug_of(app: &App, body: Value) -> (String, u64) {
    let (status, answer) = app.post("/slug", &body).await;
    assert_eq!(status, 200, "{body}: {answer}");
    (
        answer["slug"].as_str().unwrap().to_owned(),
        answer["rules"].as_u64().unwrap(),
    )
}

/// Checks (title, extra fields, slug by rules 2, slug by rules 1) in both
/// modes: `rules: 2` and the default rules (the newest, which read these
/// titles as rules 2 do) give the first, `rules: 1` the second.
async fn check(cases: &[(&str, Value, &str, &str)]) {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (title, extra, v2, v1) in cases {
            let mut body = json!({"title": title});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let newest = slugd_engine::options::Rules::NEWEST.number();
            assert_eq!(slug_of(app, body.clone()).await, ((*v2).to_owned(), newest));
            body["rules"] = json!(2);
            assert_eq!(slug_of(app, body.clone()).await, ((*v2).to_owned(), 2));
            body["rules"] = json!(1);
            assert_eq!(slug_of(app, body).await, ((*v1).to_owned(), 1), "{title}");
        }
    }
}

#[tokio::test]
async fn letters_written_as_punctuation_stay_in_their_words_in_both_modes() {
    let none = json!({});
    check(&[
        // Azerbaijani: the ASCII spelling of its news sites' URLs
        // (report.az and apa.az write İlham Əliyev `ilham-eliyev`,
        // Azərbaycan `azerbaycan`).
        ("Əliyev", none.clone(), "eliyev", "liyev"),
        (
            "İlham Əliyev",
            json!({"locale": "az"}),
            "ilham-eliyev",
            "ilham-liyev",
        ),
        (
            "Azərbaycan Respublikası",
            none.clone(),
            "azerbaycan-respublikasi",
            "az-rbaycan-respublikasi",
        ),
        // Kazakh: with `kk`, CLDR's Kazakh-Latin-BGN (and Kazakhstan's
        // Latin alphabet of 2021) write Q: `Qazaqstan`. (Without a locale,
        // see `kazakh_without_a_locale_is_read_by_its_letters`.)
        (
            "Қазақстан",
            json!({"locale": "kk"}),
            "qazaqstan",
            "qazaqstan",
        ),
        // Uzbek: the turned comma of its Latin alphabet (U+02BB), and the
        // left quote gazeta.uz types for it; `O‘zbekiston` is `ozbekiston`
        // in kun.uz's and gazeta.uz's URLs.
        ("Oʻzbekiston", none.clone(), "ozbekiston", "o-zbekiston"),
        (
            "Oʻzbekiston",
            json!({"locale": "uz"}),
            "ozbekiston",
            "o-zbekiston",
        ),
        (
            "O‘zbekiston Respublikasi",
            json!({"locale": "uz"}),
            "ozbekiston-respublikasi",
            "o-zbekiston-respublikasi",
        ),
        // Georgian: `Tbilisi`, `Sakartvelo` by Georgia's national
        // romanization (2002) and CLDR's Georgian-Latin.
        ("თბილისი", none.clone(), "tbilisi", "t-bilisi"),
        ("თბილისი", json!({"locale": "ka"}), "tbilisi", "tbilisi"),
        ("საქართველო", none.clone(), "sakartvelo", "sak-art-velo"),
        // Hawaiian: the ʻokina (U+02BB) inside a word, as hawaii.gov's
        // and the University of Hawaiʻi's URLs drop it.
        ("Hawaiʻi", none.clone(), "hawaii", "hawai-i"),
        ("Hawaiʻi", json!({"locale": "haw"}), "hawaii", "hawai-i"),
        ("Oʻahu", none.clone(), "oahu", "o-ahu"),
        // Arabic, which deunicode writes without short vowels: alef and
        // alef with hamza are the vowel they carry, teh marbuta `h`
        // (BGN/PCGN's Makkah al-Mukarramah).
        ("أحمد", none.clone(), "ahmd", "hmd"),
        ("مكة المكرمة", none.clone(), "mkh-almkrmh", "mk-lmkrm"),
        ("جامعة القاهرة", none.clone(), "jamh-alqahrh", "jm-lqhr"),
        // Hebrew: alef and ayin, which readers do not write, leave no
        // trace instead of splitting the word (Yisrael, Ivrit).
        ("ישראל", none.clone(), "yshrl", "yshr-l"),
        ("עברית", none.clone(), "bryt", "bryt"),
        ("ישראל", json!({"locale": "he"}), "yshrl", "yshrl"),
    ])
    .await;
}

#[tokio::test]
async fn danish_and_norwegian_letters_follow_their_locale_in_both_modes() {
    // Dansk Sprognævn and Språkrådet: ae, oe, aa where æ, ø, å cannot be
    // written (data/transforms/); `Rød grød med fløde` is the phrase
    // other slug libraries test Danish with.
    let da = json!({"locale": "da"});
    check(&[
        (
            "Rød grød med fløde",
            da.clone(),
            "roed-groed-med-floede",
            "rod-grod-med-flode",
        ),
        ("Ærøskøbing", da.clone(), "aeroeskoebing", "aeroskobing"),
        (
            "Blåbærsyltetøy",
            json!({"locale": "nb"}),
            "blaabaersyltetoey",
            "blabaersyltetoy",
        ),
        ("Ålesund", json!({"locale": "no"}), "aalesund", "alesund"),
        (
            "Østfold & Ålesund",
            json!({"locale": "nn"}),
            "oestfold-og-aalesund",
            "ostfold-og-alesund",
        ),
        // Without a locale, ø is o as before.
        (
            "Rød grød med fløde",
            json!({}),
            "rod-grod-med-flode",
            "rod-grod-med-flode",
        ),
        // Capitals as CLDR's German ASCII transform writes Ä, kept case.
        (
            "ÆRØ Ærø",
            json!({"locale": "da", "lowercase": false}),
            "AEROE-Aeroe",
            "AERO-AEro",
        ),
    ])
    .await;
}

#[tokio::test]
async fn html_entities_are_decoded_in_both_modes() {
    let none = json!({});
    check(&[
        // The titles, as feeds and CMS exports carry them.
        (
            "foo &amp; bar",
            none.clone(),
            "foo-and-bar",
            "foo-and-amp-bar",
        ),
        (
            "Tom &#38; Jerry",
            none.clone(),
            "tom-and-jerry",
            "tom-38-jerry",
        ),
        ("caf&eacute;", none.clone(), "cafe", "caf-and-eacute"),
        // A decoded symbol is named, in Redis mode too: the pipeline reads
        // the decoded title for what to ask the table.
        ("&#x2603;", none.clone(), "snowman", "x2603"),
        (
            "I &hearts; Redis",
            none.clone(),
            "i-heart-suit-redis",
            "i-and-hearts-redis",
        ),
        // Unknown entities are left as written.
        ("&madeup; news", none.clone(), "madeup-news", "madeup-news"),
        (
            "Rock &amp; Roll",
            json!({"locale": "fr"}),
            "rock-et-roll",
            "rock-et-amp-roll",
        ),
    ])
    .await;
}

/// The acronyms, and the examples of sindresorhus/decamelize's
/// test.js (with `-` for its `_`) and sindresorhus/slugify's: all agree
/// but `A2B`, which decamelize splits `a2_b` and rules 2 keep whole, as
/// they keep `U2F`.
#[tokio::test]
async fn decamelize_keeps_acronyms_whole_in_both_modes() {
    let camel = json!({"decamelize": true});
    let mut cases: Vec<(&str, Value, &str, &str)> = [
        ("APIs", "apis", "ap-is"),
        ("IDs and PDFs", "ids-and-pdfs", "i-ds-and-pd-fs"),
        ("3D printing", "3d-printing", "3-d-printing"),
        ("U2F keys", "u2f-keys", "u2-f-keys"),
        ("iPhone 15", "iphone-15", "i-phone-15"),
        ("fooBar", "foo-bar", "foo-bar"),
        ("macOS", "mac-os", "mac-os"),
        ("XMLHttpRequest", "xml-http-request", "xml-http-request"),
        ("getHTTPResponse", "get-http-response", "get-http-response"),
        ("A4Paper", "a4-paper", "a4-paper"),
        ("APIsection", "ap-isection", "ap-isection"),
        // sindresorhus/decamelize test.js.
        ("A", "a", "a"),
        ("A B", "a-b", "a-b"),
        ("a2b", "a2b", "a2b"),
        ("A2B", "a2b", "a2-b"),
        ("myURLstring", "my-ur-lstring", "my-ur-lstring"),
        (
            "unicornsAndRainbows",
            "unicorns-and-rainbows",
            "unicorns-and-rainbows",
        ),
        (
            "UNICORNS AND RAINBOWS",
            "unicorns-and-rainbows",
            "unicorns-and-rainbows",
        ),
        ("thisIsATest", "this-is-a-test", "this-is-a-test"),
        ("myURLString", "my-url-string", "my-url-string"),
        ("URLString", "url-string", "url-string"),
        ("StringURL", "string-url", "string-url"),
        ("testGUILabel", "test-gui-label", "test-gui-label"),
        ("CAPLOCKED1", "caplocked1", "caplocked1"),
        // sindresorhus/slugify test.js.
        ("FooBar", "foo-bar", "foo-bar"),
        ("fooBar 123 $#%", "foo-bar-123", "foo-bar-123"),
        ("Foo Bar2", "foo-bar2", "foo-bar2"),
    ]
    .into_iter()
    .map(|(title, v2, v1)| (title, camel.clone(), v2, v1))
    .collect();
    cases.push(("APIs", json!({}), "apis", "apis"));
    check(&cases).await;
}

/// Kazakh without a locale: rules 2 to 4 spell deunicode's letters (`Қ`
/// `K'`, kept in its word); rules 5 read the title as Kazakh, which its
/// letters show (`қ`, `ә`), by the Latin alphabet of 2021 without its
/// marks (Qazaqstan, Älihan Bökeihan).
#[tokio::test]
async fn kazakh_without_a_locale_is_read_by_its_letters() {
    let (_redis, apps) = both_modes().await;
    for app in &apps {
        for (title, v5, v2, v1) in [
            ("Қазақстан", "qazaqstan", "kazakstan", "k-azak-stan"),
            (
                "Әлихан Бөкейхан",
                "alihan-bokeihan",
                "alikhan-bokeikhan",
                "likhan-bokeikhan",
            ),
        ] {
            for (rules, want) in [(5, v5), (4, v2), (2, v2), (1, v1)] {
                let body = json!({"title": title, "rules": rules});
                assert_eq!(
                    slug_of(app, body).await,
                    (want.to_owned(), rules),
                    "{title}"
                );
            }
        }
    }
}
