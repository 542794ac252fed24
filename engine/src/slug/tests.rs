//! Unit tests of the engine: each rule with the titles it is for.

use super::names::{NoSymbols, SymbolNames};
use super::{EmptySlug, slugify};
use crate::options::{OptionError, Options, RawOptions, Rules, Separator};
use std::collections::HashMap;

fn table() -> HashMap<char, String> {
    [
        ('☃', "snowman"),
        ('❤', "heavy heart"),
        ('⬣', "horizontal hexagon"),
        ('〠', "postal mark face"),
        ('☢', "radioactive"),
        ('☕', "hot beverage"),
        ('+', "plus"),
        ('£', "pound"),
        ('×', "multiplication"),
        ('≤', "less-than or equal to"),
    ]
    .into_iter()
    .map(|(c, n)| (c, n.to_owned()))
    .collect()
}

fn slug(title: &str) -> String {
    slugify(title, &Options::default(), &table()).unwrap()
}

#[test]
fn the_examples_of_the_product_brief() {
    assert_eq!(slug("this is ☃"), "this-is-snowman");
    assert_eq!(slug("This is my ☃ post!"), "this-is-my-snowman-post");
    assert_eq!(slug("I ❤ Redis"), "i-heavy-heart-redis");
    assert_eq!(slug("I ❤\u{FE0F} Redis"), "i-heavy-heart-redis");
    assert_eq!(slug("⬣"), "horizontal-hexagon");
    assert_eq!(slug("〠"), "postal-mark-face");
    assert_eq!(slug("☢"), "radioactive");
    assert_eq!(slug("Café ☕ Crème"), "cafe-hot-beverage-creme");
    assert_eq!(slug("Привет, мир"), "privet-mir");
    // Rules 1 read Han syllable by syllable, rules 2 by word (`scripts`).
    assert_eq!(slug("北京"), "beijing");
    let v1 = Options {
        rules: Rules::OLDEST,
        ..Options::default()
    };
    assert_eq!(slugify("北京", &v1, &table()).unwrap(), "bei-jing");
    assert_eq!(slug("  --Hello,   World!--  "), "hello-world");
}

#[test]
fn symbols_off_leaves_everything_to_deunicode() {
    let options = Options {
        symbols: false,
        ..Options::default()
    };
    assert_eq!(
        slugify("I ❤ Redis", &options, &table()).unwrap(),
        "i-heart-redis"
    );
}

#[test]
fn max_length_cuts_at_a_word_boundary() {
    let options = RawOptions {
        max_length: Some(12),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    assert_eq!(
        slugify("The quick brown fox", &options, &NoSymbols).unwrap(),
        "the-quick"
    );
    let options = RawOptions {
        max_length: Some(9),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    assert_eq!(
        slugify("The quick brown fox", &options, &NoSymbols).unwrap(),
        "the-quick"
    );
    let options = RawOptions {
        max_length: Some(4),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    assert_eq!(
        slugify("Supercalifragilistic word", &options, &NoSymbols).unwrap(),
        "supe"
    );
    let options = RawOptions {
        separator: Some("--".to_owned()),
        max_length: Some(3),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    assert_eq!(slugify("ab cd", &options, &NoSymbols).unwrap(), "ab");
    let options = RawOptions {
        separator: Some("".to_owned()),
        max_length: Some(3),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    assert_eq!(slugify("ab cd", &options, &NoSymbols).unwrap(), "abc");
}

#[test]
fn marks_selectors_and_joiners_leave_no_trace() {
    assert_eq!(slug("Cafe\u{301} noir"), "cafe-noir");
    assert_eq!(slug("a\u{200D}b"), "ab");
    assert_eq!(slug("a\u{E0100}b"), "ab");
    assert_eq!(slug("a\u{202E}b\u{202C}c"), "abc");
    assert_eq!(slug("1\u{FE0F}\u{20E3} thing"), "1-thing");
    assert_eq!(slug("☃\u{FE0F}\u{200D}☃"), "snowman-snowman");
}

#[test]
fn symbols_are_their_own_words() {
    assert_eq!(slug("I❤Redis"), "i-heavy-heart-redis");
    assert_eq!(slug("a≤b"), "a-less-than-or-equal-to-b");
    assert_eq!(slug("£5"), "pound-5");
}

#[test]
fn ascii_is_never_looked_up_even_if_a_table_names_it() {
    assert_eq!(slug("a+b"), "a-b");
}

fn with(raw: RawOptions) -> Options {
    raw.validate().unwrap()
}

fn slug_with(title: &str, raw: RawOptions) -> String {
    slugify(title, &with(raw), &table()).unwrap()
}

/// Names keycaps only, as CLDR does (`keycap: 1`).
struct Keycaps;

impl SymbolNames for Keycaps {
    fn name(&self, _: char) -> Option<&str> {
        None
    }

    fn sequence(&self, text: &str) -> Option<(usize, &str)> {
        let base = text.chars().next()?;
        let rest = &text[base.len_utf8()..];
        let mark = rest.strip_prefix('\u{FE0F}').unwrap_or(rest);
        let len = text.len() - mark.strip_prefix('\u{20E3}')?.len();
        let name = match base {
            '1' => "keycap 1",
            '2' => "keycap 2",
            '#' => "keycap",
            _ => return None,
        };
        Some((len, name))
    }
}

#[test]
fn a_keycap_is_named_when_its_digit_stands_alone() {
    let keycap = |title: &str, raw: RawOptions| slugify(title, &with(raw), &Keycaps).unwrap();
    let plain = RawOptions::default;
    assert_eq!(keycap("Step 1\u{FE0F}\u{20E3}", plain()), "step-keycap-1");
    assert_eq!(keycap("1\u{20E3}2\u{20E3}", plain()), "keycap-1-keycap-2");
    assert_eq!(keycap("#\u{FE0F}\u{20E3}tag", plain()), "keycap-tag");
    assert_eq!(keycap("A11\u{FE0F}\u{20E3}", plain()), "a11");
    assert_eq!(keycap("e\u{301}1\u{20E3}", plain()), "e1");
    assert_eq!(keycap("x 11\u{20E3}", plain()), "x-11");
    let sep = |s: &str| RawOptions {
        separator: Some(s.into()),
        ..plain()
    };
    assert_eq!(keycap("Step 1\u{20E3}", sep("")), "stepkeycap1");
    assert_eq!(keycap("1\u{20E3} Step", sep("")), "keycap1step");
    // A digit joined by a preserved character is not alone, even when
    // the separator is that character.
    let kept = |c: &str| RawOptions {
        separator: Some(c.into()),
        preserve: Some(c.into()),
        ..plain()
    };
    assert_eq!(keycap("v1.2\u{FE0F}\u{20E3}", kept(".")), "v1.2");
    assert_eq!(keycap("snake_1\u{FE0F}\u{20E3}", kept("_")), "snake_1");
    assert_eq!(keycap("a 1\u{20E3}", kept(".")), "a.keycap.1");
    let camel = RawOptions {
        decamelize: Some(true),
        ..plain()
    };
    assert_eq!(keycap("fooBar 1\u{20E3}", camel), "foo-bar-keycap-1");
    let stop = RawOptions {
        stopwords: Some(vec!["keycap".into()]),
        ..plain()
    };
    assert_eq!(keycap("Step 1\u{20E3}", stop), "step-1");
}

#[test]
fn apostrophes_inside_words_join_and_quotes_around_them_separate() {
    assert_eq!(slug("don't panic"), "dont-panic");
    assert_eq!(slug("Conway’s Law"), "conways-law");
    assert_eq!(slug("Conwayʼs Law"), "conways-law");
    assert_eq!(slug("rock'n'roll"), "rocknroll");
    assert_eq!(slug("'quoted' words"), "quoted-words");
    assert_eq!(slug("‘quoted’ words"), "quoted-words");
    assert_eq!(slug("it ' s"), "it-s");
    assert_eq!(slug("l’été"), "lete");
}

#[test]
fn cyrillic_soft_and_hard_signs_leave_no_trace() {
    let rules4 = Options {
        rules: Rules::numbered(4).unwrap(),
        ..Options::default()
    };
    let slug4 = |title| slugify(title, &rules4, &table()).unwrap();
    assert_eq!(slug4("Пьеса"), "pesa");
    assert_eq!(slug4("объект"), "obekt");
    assert_eq!(slug4("ПЬЕСА"), "pesa");
    assert_eq!(slug("Yurʹyev Sʺyezd"), "yuryev-syezd");
    // Rules 5 read Russian as Russian sites write it: `е` after a sign is
    // `ye`.
    assert_eq!(slug("Пьеса"), "pyesa");
    assert_eq!(slug("объект"), "obyekt");
    assert_eq!(slug("ПЬЕСА"), "pyesa");
}

#[test]
fn ampersand_between_words_reads_and() {
    assert_eq!(slug("Rock & Roll"), "rock-and-roll");
    assert_eq!(slug("Q&A"), "q-and-a");
    assert_eq!(slug("& more"), "more");
    assert_eq!(slug("this &"), "this");
    assert_eq!(slug("Tom & Жерри"), "tom-and-zherri");
    assert_eq!(slug("Tom & ☃"), "tom-and-snowman");
    assert_eq!(slug("Tom & — Jerry"), "tom-jerry");
    assert_eq!(slug("a &\u{200B}"), "a");
}

#[test]
fn digit_groups_join_and_other_commas_separate() {
    assert_eq!(slug("1,000,000 views"), "1000000-views");
    assert_eq!(slug("12,345"), "12345");
    assert_eq!(slug("1, 2, 3"), "1-2-3");
    assert_eq!(slug("1,2345"), "1-2345");
    assert_eq!(slug("1,00"), "1-00");
    assert_eq!(slug("3.14"), "3-14");
    assert_eq!(slug("a,000"), "a-000");
}

#[test]
fn multiplication_between_digits_reads_x() {
    assert_eq!(slug("1920×1080"), "1920x1080");
    assert_eq!(slug("3 × 4"), "3-x-4");
    assert_eq!(slug("1920 ×1080"), "1920-x-1080");
    assert_eq!(slug("1920× 1080"), "1920-x-1080");
    assert_eq!(slug("a × b"), "a-multiplication-b");
    assert_eq!(slug("×2"), "multiplication-2");
}

#[test]
fn stopwords_drop_whole_words_unless_nothing_would_be_left() {
    let stop = || RawOptions {
        stopwords: Some(vec!["a".into(), "The".into(), "and".into()]),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("The Lord of the Rings", stop()), "lord-of-rings");
    assert_eq!(slug_with("A Theory", stop()), "theory");
    assert_eq!(slug_with("Rock & Roll", stop()), "rock-roll");
    assert_eq!(slug_with("The A", stop()), "the-a");
    // A stopword is taken back before `max_length` is counted.
    let short = |n| RawOptions {
        max_length: Some(n),
        stopwords: Some(vec!["another".into()]),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("foo another day", short(7)), "foo-day");
    assert_eq!(slug_with("Another Day", short(3)), "day");
    // Stopwords are spelt as the engine spells words.
    let russian = RawOptions {
        stopwords: Some(vec!["Пьеса".into(), "l’été".into()]),
        ..RawOptions::default()
    };
    assert_eq!(
        slug_with("Пьеса для l’été фортепиано", russian),
        "dlya-fortepiano"
    );
    assert_eq!(
        slug_with(
            "The ☃ and a ☕",
            RawOptions {
                separator: Some(String::new()),
                ..stop()
            }
        ),
        "snowmanhotbeverage"
    );
    assert_eq!(
        slug_with(
            "the end of THE line",
            RawOptions {
                lowercase: Some(false),
                ..stop()
            }
        ),
        "end-of-line"
    );
}

#[test]
fn replacements_apply_first_and_their_symbols_are_named() {
    let raw = RawOptions {
        replacements: Some(vec![
            ("%".into(), " percent".into()),
            ("<3".into(), "☃".into()),
        ]),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("50% off <3", raw), "50-percent-off-snowman");
}

#[test]
fn preserve_keeps_its_characters_between_letters_and_digits() {
    let dot = || RawOptions {
        preserve: Some(".".into()),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("Release v1.2.3", dot()), "release-v1.2.3");
    assert_eq!(slug_with("Hello. World.", dot()), "hello-world");
    assert_eq!(slug_with(".hidden", dot()), "hidden");
    assert_eq!(slug_with("a_b", dot()), "a-b");
    assert_eq!(
        slug_with(
            "snake_case~x",
            RawOptions {
                preserve: Some("_~".into()),
                ..RawOptions::default()
            }
        ),
        "snake_case~x"
    );
}

#[test]
fn fallback_answers_when_the_slug_would_be_empty() {
    let raw = || RawOptions {
        fallback: Some("Untitled ☃".into()),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("!!!", raw()), "untitled-snowman");
    assert_eq!(slug_with("Hi", raw()), "hi");
    let symbol = RawOptions {
        fallback: Some("☃".into()),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("!!!", symbol), "snowman");
    for empty in ["ь", "ʻ", "!!"] {
        let raw = RawOptions {
            fallback: Some(empty.into()),
            ..RawOptions::default()
        };
        assert!(raw.validate().is_err(), "{empty:?}");
    }
    assert_eq!(
        slugify("!!!", &Options::default(), &table()),
        Err(EmptySlug)
    );
}

#[test]
fn decamelize_splits_at_case_changes() {
    let raw = || RawOptions {
        decamelize: Some(true),
        ..RawOptions::default()
    };
    assert_eq!(slug_with("fooBar APISection", raw()), "foo-bar-api-section");
    assert_eq!(slug_with("getHTTPResponse", raw()), "get-http-response");
    assert_eq!(slug_with("version2Beta", raw()), "version2-beta");
    assert_eq!(slug_with("ÉcoleNormale", raw()), "ecole-normale");
    assert_eq!(slug("fooBar"), "foobar");
}

#[test]
fn separator_and_case_options() {
    let options = RawOptions {
        separator: Some("_".to_owned()),
        lowercase: Some(false),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    assert_eq!(
        slugify("Hello ☃ World", &options, &table()).unwrap(),
        "Hello_snowman_World"
    );
    assert!(matches!(
        Separator::new("/"),
        Err(OptionError::Separator(_))
    ));
    assert!(matches!(
        Separator::new("a"),
        Err(OptionError::Separator(_))
    ));
    assert!(Separator::new("").is_ok());
    assert_eq!(
        RawOptions {
            max_length: Some(0),
            ..RawOptions::default()
        }
        .validate(),
        Err(OptionError::ZeroMaxLength)
    );
}

#[test]
fn a_title_without_letters_digits_or_symbols_is_an_error() {
    assert_eq!(
        slugify("!!! ??", &Options::default(), &table()),
        Err(EmptySlug)
    );
    assert_eq!(slugify("", &Options::default(), &table()), Err(EmptySlug));
    assert_eq!(
        slugify("\u{FE0F}\u{200D}", &Options::default(), &table()),
        Err(EmptySlug)
    );
}

#[test]
fn slugging_a_slug_changes_nothing() {
    for title in [
        "this is ☃",
        "Привет, мир",
        "  --Hello,   World!--  ",
        "北京 ❤ ☕",
    ] {
        let once = slug(title);
        assert_eq!(slug(&once), once);
    }
}

/// `find_byte` finds what a byte-by-byte search finds, from every start,
/// in texts of every length around its blocks of 16, whichever byte is
/// wanted and wherever it is (several of them, or none).
#[test]
fn the_block_search_finds_the_first_wanted_byte() {
    use super::classes::is_ampersand;
    use crate::readers::scan::{find_byte, is_wide_lead};
    for len in 0..=50usize {
        for marks in [
            vec![],
            vec![len / 2],
            vec![0, len / 3, len.saturating_sub(1)],
        ] {
            for mark in 0..len.max(1) {
                let mut bytes = vec![b'a'; len];
                for &at in marks.iter().chain([&mark]).filter(|&&at| at < len) {
                    bytes[at] = if at % 2 == 0 { b'&' } else { 0xE3 };
                }
                for from in 0..=len + 1 {
                    let naive = |wanted: fn(u8) -> bool| (from..len).find(|&i| wanted(bytes[i]));
                    assert_eq!(find_byte(&bytes, from, is_ampersand), naive(is_ampersand));
                    assert_eq!(find_byte(&bytes, from, is_wide_lead), naive(is_wide_lead));
                }
            }
        }
    }
}

/// The scan for the scripts of rules 2 stops at every character that
/// `Script::of` knows and at no other, for every character from U+0080
/// (the bytes it skips without decoding must never start one), and the
/// scan for kana finds exactly the kana.
#[test]
fn the_scans_for_scripts_and_kana_miss_no_character() {
    use crate::readers::runs::{first_run, first_run_but_han, has_kana, is_kana, is_script};
    for c in ('\u{80}'..='\u{3FFFF}').chain(['\u{E0100}', '\u{10FFFF}']) {
        let text = format!("ab {c}{c} z");
        let want = is_script(c).then_some(3);
        assert_eq!(first_run(&text, 0), want, "U+{:04X}", c as u32);
        // Every script but Han is below U+1800, Han above.
        let but_han = want.filter(|_| (c as u32) < 0x1800);
        assert_eq!(first_run_but_han(&text, 0), but_han, "U+{:04X}", c as u32);
        assert_eq!(has_kana(&text), is_kana(c), "U+{:04X}", c as u32);
    }
}

/// Rules 2's rewrite of a title it surveys once is the rewrite of every
/// step in turn: entities decoded, replacements, then the scripts
/// romanized wherever they are, also where a replacement wrote them.
#[test]
fn the_surveyed_rewrite_is_every_step_in_turn() {
    use super::{composed, entities, rewrite};
    use crate::readers::{runs, words};
    use crate::rules::Rules;
    let replacing = with(RawOptions {
        replacements: Some(vec![
            ("<ja>".into(), "日本".into()),
            ("<hi>".into(), "नमस्ते".into()),
            ("<amp>".into(), "&amp;".into()),
        ]),
        ..RawOptions::default()
    });
    let extra = [
        "Tom &amp; Jerry नमस्ते",
        "नमस्ते &amp; สวัสดี",
        "R&D ภาษาไทย",
        "☃ ❤ 서울 北京 and &#x2603;",
        "say <hi> in <ja> <amp> more",
        "<hi>",
        "東京の桜 and 北京",
        "",
    ];
    for options in [Options::default(), replacing] {
        for title in crate::corpus::titles().chain(extra) {
            let decoded = entities::decode(title);
            let composed = composed::compose(&decoded);
            let replaced = options.replacements.apply(&composed).into_owned();
            let read = words::romanize(&replaced, None, Rules::NEWEST);
            let step_by_step = runs::romanize(&read, &options).into_owned();
            assert_eq!(rewrite(title, &options), step_by_step, "{title:?}");
        }
    }
    assert_eq!(
        slug_with(
            "say <hi>",
            RawOptions {
                replacements: Some(vec![("<hi>".into(), "नमस्ते".into())]),
                ..RawOptions::default()
            }
        ),
        "say-namaste"
    );
}

#[test]
fn every_spelled_letter_is_a_letter_and_traceless_is_its_class() {
    use super::classes::{Class, class_of, is_traceless, spelled_letter};
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    // The engine spells such a letter without asking its class.
    let spelled: Vec<char> = ('\0'..=char::MAX)
        .filter(|&c| spelled_letter(c).is_some())
        .collect();
    assert!(spelled.contains(&'ə') && spelled.contains(&'ا'));
    for c in spelled {
        assert_eq!(class_of(c), Class::Letter, "{c:?}");
    }
    for c in ['a', 'Ж', 'ʻ', '北', '한', 'ا'] {
        assert_eq!(class_of(c), Class::Letter, "{c:?}");
    }
    for c in ['\u{301}', '\u{FE0F}', '\u{200D}', '\u{E0100}', '\u{94D}'] {
        assert!(is_traceless(c), "{c:?}");
    }
    for c in ['—', '«', '☃', '1', ' '] {
        assert_eq!(class_of(c), Class::Other, "{c:?}");
    }
    // Letters are what the general category says they are, everywhere.
    for c in ('\0'..=char::MAX).step_by(7) {
        let letter = c.general_category_group() == GeneralCategoryGroup::Letter;
        assert_eq!(class_of(c) == Class::Letter, letter, "{c:?}");
    }
}

#[test]
fn in_its_own_script_a_slug_keeps_the_letters_its_spelling_uses() {
    let own = |rules| RawOptions {
        ascii: Some(false),
        rules: Some(rules),
        ..RawOptions::default()
    };
    // Armenian `և` and Thai sara am: NFKC writes them as two letters.
    assert_eq!(slug_with("Երևան", own(5)), "երևան");
    assert_eq!(slug_with("Երևան", own(4)), "երեւան");
    assert_eq!(slug_with("น้ำ", own(5)), "น้ำ");
    assert_ne!(slug_with("น้ำ", own(4)), "น้ำ");
    // What NFKC is for stays: full-width letters, ligatures.
    assert_eq!(slug_with("Ｑ ﬁne", own(5)), "q-fine");
}

#[test]
fn decomposed_text_gets_the_slug_of_the_composed() {
    let german = |rules| RawOptions {
        locale: Some("de".into()),
        rules: Some(rules),
        ..RawOptions::default()
    };
    let decomposed = "Erla\u{308}uterungsbroschu\u{308}re";
    assert_eq!(slug_with(decomposed, german(5)), "erlaeuterungsbroschuere");
    assert_eq!(
        slug_with("Erläuterungsbroschüre", german(5)),
        "erlaeuterungsbroschuere"
    );
    assert_eq!(slug_with(decomposed, german(4)), "erlauterungsbroschure");
    // Hangul's letters compose into syllables, read as Korean.
    assert_eq!(
        slug("\u{1103}\u{1169}\u{11A8}\u{1105}\u{1175}\u{11B8}"),
        "dongnip"
    );
}

#[test]
fn a_transforms_dots_leave_words_whole() {
    let kyrgyz = |rules| RawOptions {
        locale: Some("ky".into()),
        rules: Some(rules),
        ..RawOptions::default()
    };
    // BGN writes `n·g` for `нг`.
    assert_eq!(slug_with("Мангышлак", kyrgyz(5)), "mangyshlak");
    assert_eq!(slug_with("Мангышлак", kyrgyz(4)), "man-gyshlak");
    // A dot of the title's own separates as before.
    assert_eq!(slug_with("col·lecció", kyrgyz(5)), "col-leccio");
}

#[test]
fn the_one_pass_gives_what_every_stage_gives() {
    use super::{rewrite, slugify_rewritten};
    let extra = [
        "Я люблю Київ",
        "Пьеса «Объявление» 2024",
        "ПРИВЕТ мир Ђоковић",
        "Χανιά, ΚΡΗΤΗ and Αθήνα",
        "독립문 앞 ☃ 강남역",
        "iPhoneЯ",
        "Café e\u{301} Москва",
        "أَبُو ظَبْي and مرحبا",
        "भारत & सड़क",
        "Москва 1\u{FE0F}\u{20E3}",
        "Знам'янка і Мар’їне, Київ",
        "Подъездной ПЬЕСА Новый",
        "Я-люблю-Қазақстан",
        "የዜግነት ክብር, ኢትዮጵያ'ዊ ፲፪ and Ａ",
        "ሰላም።Москва",
        "สวัสดีครับ ๒๕๖๗ ສະບາຍດີ",
        "Λευκωσία, μπαλα ΑΥΓΟ καΐκι Ἀθῆναι Αθ’ηνα άυλος Ευρώπη",
        // Letters no standard has, which deunicode writes with an
        // apostrophe or commas: one title each, so that nothing else in
        // the title makes it rewritten first.
        "x\u{488}y",
        "x\u{489}y",
        "xቇy",
        "xፇy",
        "x\u{385}y",
        "x\u{1FEF}y",
        "ሰላም።Москва",
        "Объезд въЕзд Мар'ев мЕл ёлка Ёж новый КРАСНЫЙ ы'й ь'и Марьина ИЛЬИЧ мыло сЫр",
        // Found by the fuzzer: apostrophes between syllables.
        "n\u{1b}`n\u{1b}d*z'솯'솯44솯d8솯dH\u{b}",
        // Georgian, which rules 5 leave to deunicode.
        "ცხინვალი \u{1C91}ათუმი ⴀ თბილისი",
    ];
    let decamelized = with(RawOptions {
        decamelize: Some(true),
        stopwords: Some(vec!["и".into(), "the".into()]),
        ..RawOptions::default()
    });
    let short = with(RawOptions {
        max_length: Some(9),
        ..RawOptions::default()
    });
    let cased = with(RawOptions {
        lowercase: Some(false),
        ..RawOptions::default()
    });
    let preserved = with(RawOptions {
        preserve: Some("._~".into()),
        ..RawOptions::default()
    });
    // Every character of the blocks rules 5 read, between two letters, and
    // of those only later rules read (Georgian), which rules 5 read as
    // before.
    let between: Vec<String> = ('\u{300}'..='\u{6FF}')
        .chain('\u{10A0}'..='\u{10FF}')
        .chain('\u{1C90}'..='\u{1CBF}')
        .chain('\u{2D00}'..='\u{2D2F}')
        .chain('\u{1200}'..='\u{137F}')
        .chain('\u{1F00}'..='\u{1FFF}')
        .chain('\u{E00}'..='\u{EFF}')
        .map(|c| format!("x{c}y"))
        .collect();
    // The rules being built too, with what they read besides.
    let building = |raw: RawOptions| {
        with(RawOptions {
            rules: Some(Rules::LAST.number()),
            ..raw
        })
    };
    let newer_titles = [
        "Երևան, Գյումրի՝ ինչո՞ւ ԵՎ և",
        "সিলেট গে\u{09BE}পালগঞ্জ র\u{200D}্যাব ১২৩",
        "ちゃんと こんにちは ラーメン 東京",
        "봉천1동 충청북도 종로 2가 2024년",
        "връх Шчучын Қазақстан Магілёў",
        "ცხინვალი \u{1C91}ათუმი ⴀ",
        "စစ်တွေ ပုသိမ် ၁၉၄၈ မြစ်ကြီးနား၊",
        "ស្ទឹងត្រែង ២០២៤ ភ្នំពេញ។",
        "පුත්තලම මොරටුව ෧෨ ශ්\u{200D}රී",
    ];
    let between_newer: Vec<String> = ('\u{530}'..='\u{58F}')
        .chain('\u{980}'..='\u{9FF}')
        .chain('\u{D80}'..='\u{DFF}')
        .chain('\u{1000}'..='\u{109F}')
        .chain('\u{10A0}'..='\u{10FF}')
        .chain('\u{1780}'..='\u{17FF}')
        .chain('\u{1C90}'..='\u{1CBF}')
        .chain('\u{2D00}'..='\u{2D2F}')
        .chain('\u{3040}'..='\u{30FF}')
        .map(|c| format!("x{c}y"))
        .collect();
    let newest = [
        building(RawOptions::default()),
        building(RawOptions {
            decamelize: Some(true),
            ..RawOptions::default()
        }),
        building(RawOptions {
            lowercase: Some(false),
            ..RawOptions::default()
        }),
    ];
    for (options, built) in [Options::default(), decamelized, short, cased, preserved]
        .into_iter()
        .map(|o| (o, false))
        .chain(newest.into_iter().map(|o| (o, true)))
    {
        let mut titles: Vec<&str> = crate::corpus::titles().chain(extra).collect();
        titles.extend(between.iter().map(String::as_str));
        if built {
            titles.extend(newer_titles);
            titles.extend(between_newer.iter().map(String::as_str));
        }
        for title in titles {
            let every_stage =
                slugify_rewritten(title, &rewrite(title, &options), &options, &table());
            assert_eq!(slugify(title, &options, &table()), every_stage, "{title:?}");
        }
    }
}

/// No symbols, and models of Persian's, Urdu's and Arabic's vowels.
struct WithVowels(crate::readers::vowels::VowelModels);

impl SymbolNames for WithVowels {
    fn name(&self, _: char) -> Option<&str> {
        None
    }

    fn vowels(
        &self,
        language: crate::readers::vowels::Language,
    ) -> Option<&crate::readers::vowels::VowelModel> {
        self.0.get(language)
    }
}

#[test]
fn persian_urdu_and_arabic_are_read_by_the_tables_models_in_one_pass_as_in_every_stage() {
    use super::{rewrite, slugify_rewritten};
    use crate::readers::vowels::{self, Language, VowelModels};
    let model = |language: Language, list: &[(&str, &str)]| {
        let pairs: Vec<(String, String)> = list
            .iter()
            .map(|&(word, ipa)| (language.normalized(word), vowels::fold_ipa(ipa).unwrap()))
            .collect();
        std::sync::Arc::new(vowels::train(language, &pairs))
    };
    let names = WithVowels(
        VowelModels::default()
            .with(model(
                Language::Persian,
                &[
                    ("تهران", "tˈehrɑn"),
                    ("کتاب", "ketˈɑb"),
                    ("شیراز", "ʃirˈɑz"),
                    ("کرمان", "kermˈɑn"),
                ],
            ))
            .with(model(
                Language::Urdu,
                &[
                    ("کراچی", "kərˈaːci"),
                    ("ملتان", "mˌʊltˈaːn"),
                    ("کھاریاں", "kʰˈaːrjãː"),
                ],
            ))
            .with(model(
                Language::Arabic,
                &[
                    ("طنطا", "t̪ˈant̪aː"),
                    ("مرحبا", "marħabˈaː"),
                    ("عالم", "ʕˈaːlam"),
                ],
            )),
    );
    let options = |rules: u64, locale: Option<&str>| {
        with(RawOptions {
            rules: Some(rules),
            locale: locale.map(Into::into),
            ..RawOptions::default()
        })
    };
    for rules in [5, 6] {
        for locale in [None, Some("fa"), Some("ar"), Some("ur"), Some("en")] {
            let options = options(rules, locale);
            for title in [
                "تهران",
                "کتاب تهران",
                "Hello شیراز!",
                "مرحبا بالعالم",
                "کتاب\u{200C}ها ۱۲",
                "كتاب مُحَمَّد",
                "x\u{0640}y",
                "کراچی ملتان",
                "کھاریاں مُلتان",
                "مرحبا بالعالم طنطا",
                "جامعة طنطا",
            ] {
                assert_eq!(
                    slugify(title, &options, &names),
                    slugify_rewritten(title, &rewrite(title, &options), &options, &names),
                    "{title} rules {rules} {locale:?}"
                );
            }
        }
    }
    let slug = |title: &str, rules: u64, locale: Option<&str>| {
        slugify(title, &options(rules, locale), &names).unwrap()
    };
    assert_eq!(slug("کراچی", 6, Some("ur")), "karachi");
    assert_eq!(slug("کراچی", 5, Some("ur")), "khrachy");
    // Urdu's own letters show Urdu without a locale; a word with a vowel
    // mark keeps the standard's reading.
    assert_eq!(slug("کھاریاں ملتان", 6, None), "kharyan-multan");
    assert_eq!(slug("کھاریاں مُلتان", 6, None), "kharyan-multan");
    assert_eq!(slug("کتاب تهران", 6, None), "ketab-tehran");
    assert_eq!(slug("کتاب تهران", 5, None), "khtab-thran");
    assert_eq!(slug("تهران", 6, Some("fa")), "tehran");
    // No letter of Persian's own: read as Arabic, by Arabic's model.
    assert_eq!(slug("طنطا", 6, None), "tanta");
    assert_eq!(slug("طنطا", 5, None), "tnta");
    assert_eq!(slug("العالم", 6, Some("ar")), "al-alam");
    assert_ne!(slug("تهران", 6, Some("ar")), "tehran");
    // Without a model, as before.
    assert_eq!(
        slugify("کتاب", &options(6, None), &NoSymbols).unwrap(),
        "khtab"
    );
}

/// Rules 6's kana without readings: only kana are read, found by their
/// bytes whichever block they are in.
#[test]
fn kana_in_hepburn_reads_kana_and_leaves_the_rest() {
    use super::kana_in_hepburn;
    use std::borrow::Cow;
    for text in ["北京大学。「東京」", "ＡＢＣ ａｂｃ", "㇀ strokes", "plain"] {
        assert!(matches!(kana_in_hepburn(text), Cow::Borrowed(_)), "{text}");
    }
    assert_eq!(kana_in_hepburn("ちゃんと"), "chanto");
    assert_eq!(kana_in_hepburn("北京。ちゃんと"), "北京。chanto");
    assert_eq!(kana_in_hepburn("ａｂｃ ｶﾀｶﾅ"), "ａｂｃ katakana");
}
