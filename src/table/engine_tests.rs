//! The engine with the in-process table: the one-pass fast path against
//! the rewrite, and rules 3 against rules 2, over the corpus and the
//! shipped data files with IPADIC's subset. Here rather than in the engine
//! crate, which knows no table.

use crate::table::MemoryTable;
use slugd_engine::options::{Options, RawOptions};
use slugd_engine::slug::slugify;

fn with(raw: RawOptions) -> Options {
    raw.validate().unwrap()
}

/// A title read as it is, in one pass that stops at what rules 2 rewrite,
/// gets the slug of the title rewritten first: for every option set that
/// takes that pass (no `locale`; `replacements` where none applies to the
/// title as it is, also where one applies once an entity is decoded),
/// over the corpus and
/// titles with entities, runs of the scripts, and characters that look
/// ahead (`'`, `’`, `,`, `&`, `×`) next to a run or an entity, cut at
/// every `max_length` up to 24.
#[test]
fn one_pass_over_a_title_as_it_is_gives_the_rewritten_slug() {
    use slugd_engine::slug::{rewrite, slugify_rewritten};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = MemoryTable::shipped(root).expect("the shipped data files");
    let subset = slugd_engine::readers::japanese::read_sorted(&root.join("data/ipadic-subset"))
        .expect("the subset");
    // With Japanese readings, rules 3's pass stops at kana too.
    let reading = plain.clone().with_readings(subset);
    let mut option_sets = vec![
        RawOptions::default(),
        RawOptions {
            rules: Some(1),
            ..RawOptions::default()
        },
        RawOptions {
            stopwords: Some(vec!["the".into(), "and".into(), "beijing".into()]),
            ..RawOptions::default()
        },
        RawOptions {
            decamelize: Some(true),
            preserve: Some(".".into()),
            ..RawOptions::default()
        },
        RawOptions {
            symbols: Some(false),
            separator: Some(String::new()),
            fallback: Some("北京 &amp; untitled".into()),
            ..RawOptions::default()
        },
        RawOptions {
            replacements: Some(vec![
                ("@".into(), " at ".into()),
                ("&".into(), " und ".into()),
                ("ä".into(), "ae".into()),
                ("<hi>".into(), "नमस्ते".into()),
            ]),
            ..RawOptions::default()
        },
        RawOptions {
            rules: Some(1),
            replacements: Some(vec![("%".into(), " percent".into())]),
            ..RawOptions::default()
        },
    ];
    option_sets.extend((1..=24).map(|max| RawOptions {
        max_length: Some(max),
        separator: Some(if max % 2 == 0 { "_" } else { "" }.into()),
        ..RawOptions::default()
    }));
    let extra = [
        "Tom &amp; Jerry नमस्ते",
        "R&D ภาษาไทย",
        "☃ ❤ 서울 北京 and &#x2603;",
        "東京の桜 and 北京",
        "it'北京 don’ภาษา 1,000年 3×4北京 5×नमस्ते",
        "abc'北京",
        "ab,123北京",
        "x&amp;y &",
        "&",
        "🇫🇷 1️⃣ 北京",
        "東京タワーへようこそ",
        "iPhone 15を買いました",
        "ｶﾀｶﾅ and more",
        "mail me &#64; home, 50&#37; off",
        "Käse @ home <hi>",
        "",
        "?!",
    ];
    for table in [&plain, &reading] {
        for raw in &option_sets {
            let options = with(raw.clone());
            for title in slugd_engine::corpus::titles().chain(extra) {
                let rewritten = rewrite(title, &options);
                assert_eq!(
                    slugify(title, &options, table),
                    slugify_rewritten(title, &rewritten, &options, table),
                    "{title:?} with {raw:?}"
                );
            }
        }
    }
}

/// Rules 3 differ from rules 2 only where Japanese is read by a table's
/// readings: without readings they give rules 2's slug for every title and
/// option set, a Japanese locale's included (whose romanization rules 3
/// make after reading); with readings, for every title that is not
/// Japanese (no kana, and no kanji with a Japanese locale).
#[test]
fn rules_3_are_rules_2_but_for_japanese_read_by_readings() {
    use slugd_engine::readers::japanese;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = MemoryTable::shipped(root).expect("the shipped data files");
    let subset = japanese::read_sorted(&root.join("data/ipadic-subset")).expect("the subset");
    let reading = plain.clone().with_readings(subset);
    let sets = [
        RawOptions::default(),
        RawOptions {
            locale: Some("ja".into()),
            ..RawOptions::default()
        },
        RawOptions {
            locale: Some("ja-JP".into()),
            stopwords: Some(vec!["no".into()]),
            ..RawOptions::default()
        },
        RawOptions {
            locale: Some("zh".into()),
            ..RawOptions::default()
        },
        RawOptions {
            locale: Some("de".into()),
            max_length: Some(10),
            ..RawOptions::default()
        },
        RawOptions {
            symbols: Some(false),
            decamelize: Some(true),
            ..RawOptions::default()
        },
    ];
    let extra = [
        "東京タワーへようこそ",
        "日本語",
        "こんにちは世界",
        "カタカナだけ",
        "北京大学的历史",
        "สวัสดีครับ",
        "iPhone 15を買いました &amp; ☃",
        "ｶﾀｶﾅ",
    ];
    let mut read = 0;
    for raw in sets {
        let of = |rules: u64| {
            with(RawOptions {
                rules: Some(rules),
                ..raw.clone()
            })
        };
        let (v2, v3) = (of(2), of(3));
        let kanji = v3.locale.as_ref().is_some_and(|l| l.is_japanese());
        for title in slugd_engine::corpus::titles().chain(extra) {
            let before = slugify(title, &v2, &plain);
            // Rules 2 read nothing of the readings.
            assert_eq!(
                slugify(title, &v2, &reading),
                before,
                "{title:?} with {raw:?}"
            );
            assert_eq!(
                slugify(title, &v3, &plain),
                before,
                "{title:?} with {raw:?}"
            );
            let now = slugify(title, &v3, &reading);
            if japanese::is_japanese(title, kanji) {
                read += usize::from(now != before);
            } else {
                assert_eq!(now, before, "{title:?} with {raw:?}, readings held");
            }
        }
    }
    assert!(read >= 20, "only {read} Japanese titles read otherwise");
}
