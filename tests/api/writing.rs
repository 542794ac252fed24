//! Rules 2's scripts (the engine's `readers::runs`): Indic scripts by CLDR's script
//! transforms, held to CLDR's own test files; Thai, Lao, Khmer and Myanmar
//! cut into words; Chinese by word in pinyin; over HTTP in both modes, and
//! rules 1 as before. Expected slugs come from sources named beside them.

use std::path::Path;

use serde_json::json;
use slugd_engine::options::{Options, Rules};
use slugd_engine::slug::{NoSymbols, rewrite, slugify};

use crate::helpers::both_modes;
use crate::tsv;

/// Rules 2, the version that romanizes writing systems by word.
fn rules_2() -> Rules {
    Rules::numbered(2).expect("rules 2 exist")
}

fn rules(rules: Rules) -> Options {
    Options {
        rules,
        ..Options::default()
    }
}

fn slug(title: &str, rules: Rules) -> Option<String> {
    slugify(title, &self::rules(rules), &NoSymbols).ok()
}

/// The lines of a test file: what is not empty or a `#` comment, as
/// (source, expected).
fn pairs(path: &Path) -> Vec<(String, String)> {
    tsv::read(path)
        .into_iter()
        .map(|fields| match <[String; 2]>::try_from(fields) {
            Ok([a, b]) => (a, b),
            Err(fields) => panic!("{}: not source<TAB>expected: {fields:?}", path.display()),
        })
        .collect()
}

/// CLDR's test files of its script transforms (CLDR 41, unmodified, in
/// `data/cldr-script-transforms-test/`): by rules 2 the title romanizes to
/// CLDR's expected column, and its slug is the slug of that column (folded
/// to ASCII the way rules 1 folds Latin), line for line, but for:
///
/// - Bengali: five lines where CLDR's expected text holds U+E04D, a
///   private-use character ICU's rules use inside and leaked into the
///   file (`ē\u{E04D}yānḍōrā`, Andorra), which rules 1 reads as a
///   separator: ICU4X leaves it out, and the slugs agree but for it;
/// - Malayalam: 125 lines romanized to another Unicode form of the same
///   letters (precomposed or not), whose slugs agree;
/// - Myanmar: CLDR's file lists words, and three differ: two fragments
///   (`ည့်`, `န့်`) ICU4X romanizes otherwise than ICU (`i`, `an` for
///   `eet`, `ant`), and `ဘာ့`, which the segmenter cuts in two (`bh-ar`).
///   Its romanized column is not compared: the title is cut into words
///   first.
#[test]
fn cldr_script_transform_test_files_agree_line_for_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/cldr-script-transforms-test");
    let v2 = rules(rules_2());
    // (file, lines, romanized as CLDR writes it, same slug, same slug but
    // for separators)
    let expected = [
        ("und-Latn-t-und-deva.txt", 980, 980, 980, 980),
        ("und-Latn-t-und-beng.txt", 1367, 1362, 1362, 1367),
        ("und-Latn-t-und-guru.txt", 1715, 1715, 1715, 1715),
        ("und-Latn-t-und-gujr.txt", 1728, 1728, 1728, 1728),
        ("und-Latn-t-und-orya.txt", 1288, 1288, 1288, 1288),
        ("und-Latn-t-und-taml.txt", 1692, 1692, 1692, 1692),
        ("und-Latn-t-und-telu.txt", 1669, 1669, 1669, 1669),
        ("und-Latn-t-und-knda.txt", 1703, 1703, 1703, 1703),
        ("und-Latn-t-und-mlym.txt", 1694, 1569, 1694, 1694),
        ("my-Latn-t-my.txt", 634, 0, 631, 632),
    ];
    let mut found = Vec::new();
    for (file, ..) in expected {
        let lines = pairs(&dir.join(file));
        let (mut romanized, mut slugs, mut joined) = (0, 0, 0);
        for (source, want) in &lines {
            // A few lines hold `&amp;` on both sides (an escape of the
            // XML the files were made from): rules 2 decode it in the
            // title, so it is compared decoded.
            let want = &want.replace("&amp;", "&");
            romanized += usize::from(rewrite(source, &v2) == want.as_str());
            let ours = slug(source, rules_2());
            let theirs = slug(want, Rules::OLDEST);
            slugs += usize::from(ours == theirs);
            let unjoined = |s: &Option<String>| s.as_deref().map(|s| s.replace('-', ""));
            joined += usize::from(unjoined(&ours) == unjoined(&theirs));
        }
        println!(
            "{file}: romanized {romanized}/{n}, slugs {slugs}/{n}, slugs but for separators {joined}/{n}",
            n = lines.len()
        );
        found.push((file, lines.len(), romanized, slugs, joined));
    }
    assert_eq!(found, expected);
}

/// Edit distance between two strings, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Why Thai is romanized by CLDR's Thai-Latin (ISO 11940) and not left to
/// deunicode: held to the RTGS names of Thailand's provinces
/// (`tests/data/th-rtgs.tsv`, the Royal Institute's), letters only,
/// rules 2 is nearer: 6 of 38 exact and 100 letters to change (of 350)
/// where deunicode (rules 1) has 1 and 148. Neither is RTGS, which writes
/// sounds (final `ด` as `t`, the unwritten vowels), not letters.
#[test]
fn thai_by_cldr_reads_nearer_rtgs_than_deunicode() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/th-rtgs.tsv");
    let letters = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let (mut exact, mut apart) = ([0; 2], [0; 2]);
    for (thai, rtgs) in pairs(&path) {
        let want = letters(&rtgs);
        for (k, r) in [Rules::OLDEST, rules_2()].into_iter().enumerate() {
            let ours = letters(&slug(&thai, r).unwrap());
            exact[k] += usize::from(ours == want);
            apart[k] += distance(&ours, &want);
        }
    }
    println!("exact (rules 1, rules 2): {exact:?}; letters to change: {apart:?}");
    assert_eq!((exact, apart), ([1, 6], [148, 100]));
}

/// Pinyin by word, held to the pinyin of China's provinces, regions and
/// their capitals (`tests/data/zh-pinyin.tsv`): 57 of 62 names are one
/// word of the segmenter and read as people write them. Of the five
/// others, four are the readings CLDR's Han-Latin gives characters that
/// have several (`长沙` `zhangsha` for Changsha, `長春`, `成都`
/// `chengdou`, `西藏` `xicang`), and the segmenter cuts `内蒙古` (Inner
/// Mongolia) into `内蒙` + `古`.
#[test]
fn chinese_place_names_read_as_their_pinyin() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zh-pinyin.tsv");
    let lines = pairs(&path);
    let mut wrong = Vec::new();
    for (han, pinyin) in &lines {
        let ours = slug(han, rules_2()).unwrap();
        if Some(&ours) != slug(pinyin, Rules::OLDEST).as_ref() {
            wrong.push(format!("{han} {pinyin} {ours}"));
        }
    }
    println!("{} of {} differ: {wrong:?}", wrong.len(), lines.len());
    assert_eq!(wrong.len(), 5, "{wrong:?}");
}

/// Real titles in Hindi, Bengali, Tamil, Thai, Lao, Khmer, Burmese and
/// Chinese, by rules 2 and pinned to rules 1, over HTTP on
/// both tables.
#[tokio::test]
async fn scripts_are_romanized_by_word_in_both_modes() {
    let (_redis, apps) = both_modes().await;
    // (title, rules 2, rules 1, where rules 2's slug comes from)
    let cases = [
        // hi: Symfony String's AsciiSlugger gives `namaste-duniya`.
        ("नमस्ते दुनिया", "namaste-duniya", "nmste-duniyaa"),
        // hi, bn, ta: CLDR's test files (`ādarśa`, `īrīna`, `akajā`).
        ("आदर्श", "adarsa", "aadrsh"),
        ("ঈরীন", "irina", "iiriin"),
        ("அகஜா", "akaja", "akjaa"),
        // ta: the language's own name, Tamil.
        ("தமிழ்", "tamil", "tmilll"),
        // th: the words of the Royal Institute's dictionary (hello, polite
        // particle, welcome) in ISO 11940 as CLDR's Thai-Latin writes it;
        // Phuket and Pattani as their RTGS names (th-rtgs.tsv).
        (
            "สวัสดีครับ ยินดีต้อนรับ",
            "swasdi-khrab-yindi-txnrab",
            "swasdiikhrab-yindiit-nrab",
        ),
        ("ภูเก็ต ปัตตานี", "phuket-pattani", "phuuekt-pattaanii"),
        // lo: ພາສາລາວ, the Lao language: ພາສາ (language) + ລາວ (Lao).
        ("ພາສາລາວ", "phaasaa-laaw", "phaasaalaaw"),
        // km: the Kingdom of Cambodia: ព្រះរាជាណាចក្រ (kingdom) + កម្ពុជា.
        (
            "ព្រះរាជាណាចក្រកម្ពុជា",
            "brhraajaannaackr-kmbujaa",
            "brhraajaannaackrkmbujaa",
        ),
        // my: CLDR's my-Latn-t-my test file (`ninengan`, `aarrpayy`).
        ("နိုင်ငံ အားပေး", "ninengan-aarrpayy", "niungngn-aaape"),
        // zh: pinyin by word (GB/T 16159), the titles; digits
        // beside Han are words of their own.
        (
            "北京大学的历史",
            "beijing-daxue-de-lishi",
            "bei-jing-da-xue-de-li-shi",
        ),
        ("2024年東京", "2024-nian-dongjing", "2024nian-dong-jing"),
        // The segmenter's dictionary has no 页面 (web page): two words.
        (
            "状态404页面",
            "zhuangtai-404-ye-mian",
            "zhuang-tai-404ye-mian",
        ),
        // People's Daily and Xinhua write their names so.
        ("人民日报", "renmin-ribao", "ren-min-ri-bao"),
        // A title with kana is Japanese (issue 20): Han as in rules 1.
        ("東京の桜", "dong-jing-noying", "dong-jing-noying"),
    ];
    for app in &apps {
        for (title, v2, v1) in cases {
            let by_2 = json!({"title": title, "rules": 2});
            assert_eq!(app.slug_of(&by_2).await, v2, "{title}");
            let pinned = app.slug_of(&json!({"title": title, "rules": 1})).await;
            assert_eq!(pinned, v1, "{title} by rules 1");
        }
        // With a locale too: `hi` has no transform of its own.
        let hindi = json!({"title": "नमस्ते दुनिया", "locale": "hi"});
        assert_eq!(app.slug_of(&hindi).await, "namaste-duniya");
        // Japanese reads Han otherwise: with `ja`, Han as in rules 1.
        let japanese = json!({"title": "東京", "locale": "ja"});
        assert_eq!(app.slug_of(&japanese).await, "dong-jing");
        // Keep-case: a word's first letter is a capital.
        let kept = json!({"title": "北京大学 Tokyo", "lowercase": false});
        assert_eq!(app.slug_of(&kept).await, "Beijing-Daxue-Tokyo");
        let kept = json!({"title": "北京大学", "lowercase": false, "decamelize": true});
        assert_eq!(app.slug_of(&kept).await, "Beijing-Daxue");
    }
}

/// The first table of `docs/writing-systems.md` says what each rule version gives
/// each example title, with no other option: it is what slugd gives.
#[test]
fn the_table_of_scripts_in_the_docs_is_what_slugd_gives() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/writing-systems.md");
    let text = std::fs::read_to_string(path).unwrap();
    let ticked = |cell: &str| {
        cell.trim()
            .strip_prefix('`')?
            .strip_suffix('`')
            .map(str::to_owned)
    };
    let rows: Vec<[String; 3]> = text
        .lines()
        .skip_while(|l| !l.starts_with("| script"))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            // | script | what | title | rules 1 | rules 2 |
            Some([ticked(cells[3])?, ticked(cells[4])?, ticked(cells[5])?])
        })
        .collect();
    assert!(rows.len() >= 25, "{} rows", rows.len());
    for [title, v1, v2] in rows {
        assert_eq!(
            slug(&title, Rules::OLDEST).unwrap(),
            v1,
            "{title} by rules 1"
        );
        assert_eq!(slug(&title, rules_2()).unwrap(), v2, "{title} by rules 2");
    }
}

/// A title's work is bounded: only its first `MAX_ROMANIZED_BYTES` of
/// these scripts are romanized by rules 2, the rest read as rules 1 reads
/// them; a run longer than `MAX_RUN_BYTES` is cut in pieces between
/// words.
#[test]
fn a_long_title_is_romanized_up_to_a_bound() {
    use slugd_engine::slug::{MAX_ROMANIZED_BYTES, MAX_RUN_BYTES};
    let runs = MAX_ROMANIZED_BYTES / "北京".len();
    let title = "北京 ".repeat(runs + 2);
    let slug = slug(&title, rules_2()).unwrap();
    let by_word = "beijing-".repeat(runs);
    assert_eq!(slug, format!("{by_word}bei-jing-bei-jing"));
    // One run of 100 words: pieces of at most MAX_RUN_BYTES.
    let long = "北京".repeat(100);
    let words = slug_words(&long);
    assert!(words.iter().all(|w| w == "beijing"), "{words:?}");
    assert_eq!(words.len(), 100);
    assert!(long.len() > 2 * MAX_RUN_BYTES);
}

fn slug_words(title: &str) -> Vec<String> {
    slug(title, rules_2())
        .unwrap()
        .split('-')
        .map(str::to_owned)
        .collect()
}
