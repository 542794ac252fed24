//! The questions the engine's steps ask of a character and its context
//! (does it leave no trace, does a word follow, do digits stand around
//! `×`), the word `&` reads as, and the cut at a word boundary.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Whether a byte may start an HTML entity: `&`.
#[inline]
pub(super) fn is_ampersand(byte: u8) -> bool {
    byte == b'&'
}

/// Whether a character should leave no trace: combining marks, variation
/// selectors, joiners, bidi controls and other format characters.
pub(super) fn is_traceless(c: char) -> bool {
    class_of(c) == Class::Traceless
}

/// What rules 2 ask of a character whose transliteration is not all
/// letters and digits, from one look-up of its general category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// A letter (general category L*, modifier letters included).
    Letter,
    /// A combining mark, variation selector, joiner, bidi control or other
    /// format character ([`is_traceless`]).
    Traceless,
    /// Anything else.
    Other,
}

/// The [`Class`] of `c`.
pub(super) fn class_of(c: char) -> Class {
    match c {
        // The big blocks of letters that deunicode spells with a trailing
        // space (CJK ideographs, Hangul syllables): skip the category
        // look-up for them.
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}' => {
            Class::Letter
        }
        // Variation selectors 17-256.
        '\u{E0100}'..='\u{E01EF}' => Class::Traceless,
        _ => match c.general_category() {
            GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
            | GeneralCategory::Format => Class::Traceless,
            GeneralCategory::UppercaseLetter
            | GeneralCategory::LowercaseLetter
            | GeneralCategory::TitlecaseLetter
            | GeneralCategory::ModifierLetter
            | GeneralCategory::OtherLetter => Class::Letter,
            _ => Class::Other,
        },
    }
}

/// Rules 2: the ASCII spelling of a letter (every one is of [`Class::Letter`])
/// that deunicode writes as
/// punctuation alone (`@`, `'`, `~`) or as nothing, where readers write a
/// letter for it; every other such letter leaves no trace. The list of
/// those letters is `data/letters-as-punctuation.tsv` (made and checked by
/// `tests/api/letters.rs`); CLDR's Latin-ASCII transform leaves the schwas
/// as they are, so no data source covers these.
pub(super) fn spelled_letter(c: char) -> Option<&'static str> {
    Some(match c {
        // Schwa: Azerbaijani writes it `e` in ASCII (`Əliyev` is `eliyev`
        // in apa.az's and report.az's URLs, `Azərbaycan` `azerbaycan`);
        // U+01DD, the turned e of Pan-Nigerian alphabets, the same.
        'ə' | 'ǝ' => "e",
        'Ə' => "E",
        // Cyrillic schwa (Kazakh, Tatar, Bashkir) and the Khanty one with a
        // diaeresis: `a`, as BGN/PCGN's Kazakh romanization (`ä`, CLDR's
        // Kazakh-Latin-BGN) and Kazakhstan's Latin alphabet of 2021 (`Ä`)
        // write it, without the mark.
        'ә' | 'ӛ' => "a",
        'Ә' | 'Ӛ' => "A",
        // Arabic alef, alone (deunicode writes nothing), with hamza above
        // or below, and the Kashmiri forms: the vowel it carries (`أحمد`
        // is `ahmd`, `إسلام` `islam`); deunicode writes no short vowels,
        // so without it a word loses its first sound.
        'ا' | 'أ' | 'ٲ' | 'ٵ' | '\u{FE8D}' | '\u{FE8E}' | '\u{FE83}' | '\u{FE84}' => "a",
        'إ' | 'ٳ' | '\u{FE87}' | '\u{FE88}' => "i",
        // Alef maksura: the alef read `a` at the end of a word (`موسى` Musa,
        // `مصطفى` Mustafa; BGN/PCGN write `á` after fatha).
        'ى' | '\u{FEEF}' | '\u{FEF0}' => "a",
        // Teh marbuta (and Urdu's goal form): `h`, as BGN/PCGN and CLDR's
        // Arabic-Latin-BGN write it (`مدينة` `madinah`).
        'ة' | 'ۃ' | '\u{FE93}' | '\u{FE94}' => "h",
        _ => return None,
    })
}

/// The word `&` reads as between words, without a `locale`.
pub const AND: &str = "and";

/// Whether the character starting `rest` is a letter or digit.
pub(super) fn starts_word(rest: &str) -> bool {
    rest.chars().next().is_some_and(char::is_alphanumeric)
}

/// Whether a word follows, spaces aside: a letter or digit, or a character
/// that is neither punctuation, space nor control (a symbol, named).
pub(super) fn word_follows(rest: &str) -> bool {
    use unicode_properties::GeneralCategoryGroup as G;
    match rest.trim_start_matches(' ').chars().next() {
        Some(c) if c.is_ascii() => c.is_ascii_alphanumeric(),
        Some(c) => !matches!(
            c.general_category_group(),
            G::Punctuation | G::Separator | G::Other
        ),
        None => false,
    }
}

/// Whether the comma before `rest` groups digits: exactly three digits
/// follow it. (The caller checks that a digit comes before.)
pub(super) fn groups_digits(rest: &[u8]) -> bool {
    rest.len() >= 3
        && rest[..3].iter().all(u8::is_ascii_digit)
        && !rest.get(3).is_some_and(u8::is_ascii_digit)
}

/// Whether `×` at `bytes[at..at + 2]` stands between digits, spaces
/// allowed.
/// `Some(true)` when digits touch it on both sides, `Some(false)` when
/// there are spaces between.
pub(super) fn between_digits(bytes: &[u8], at: usize) -> Option<bool> {
    let before = &bytes[..at];
    let after = &bytes[at + '×'.len_utf8()..];
    let digit_before = before.iter().rev().find(|&&b| b != b' ');
    let digit_after = after.iter().find(|&&b| b != b' ');
    if !(digit_before.is_some_and(u8::is_ascii_digit)
        && digit_after.is_some_and(u8::is_ascii_digit))
    {
        return None;
    }
    let touching = before.last().is_some_and(u8::is_ascii_digit)
        && after.first().is_some_and(u8::is_ascii_digit);
    Some(touching)
}

/// Cuts `slug` to at most `max` bytes at the last word boundary; a first
/// word longer than `max` is cut hard, and a preserved character it would
/// end with goes too. Slugs are ASCII, so any byte index is a character
/// boundary.
pub(super) fn truncate_at_word(slug: &mut String, max: usize, separator: &str) {
    if slug.len() <= max {
        return;
    }
    let cut = if separator.is_empty() {
        max
    } else {
        slug.match_indices(separator)
            .map(|(i, _)| i)
            .take_while(|&i| i <= max)
            .last()
            .unwrap_or(max)
    };
    slug.truncate(cut);
    while slug.ends_with(|c: char| !c.is_ascii_alphanumeric()) {
        slug.pop();
    }
}
