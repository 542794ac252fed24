//! Stage 3's national standards ([`Switch::NationalStandards`], rules 5):
//! the languages whose own standard the engine writes, each in the ASCII
//! form its readers write, before the `locale`'s CLDR transform:
//!
//! - `korean`: Hangul in the Revised Romanization, with the sound changes
//!   between syllables; with or without a locale (Hangul is Korean's
//!   alone);
//! - `greek`: ELOT 743; with or without a locale;
//! - `ethiopic`: Amharic by BGN/PCGN, with the sixth-order vowel only
//!   where it is heard; with `am` or without a locale;
//! - `arabic`: Arabic, Persian and Urdu words written with their vowel
//!   marks, by BGN/PCGN; words without marks are read as before;
//! - `cyrillic`: Russian, Ukrainian, Belarusian, Bulgarian, Serbian,
//!   Macedonian, Mongolian and Kazakh by their standards: the `locale`'s
//!   language where it is one of them, else the language the title's
//!   letters show ([`Language::shown_by`]); with the locale of another
//!   language written in Cyrillic (Kyrgyz, Tajik, Tatar...), its CLDR
//!   transform as before. With a Serbian or Bosnian locale, Latin `đ` is
//!   `dj` too.
//!
//! And before every stage that reads letters, [`compose`]
//! ([`Switch::ComposedFirst`]): the title in Unicode's composed form
//! (NFC), so that decomposed text (as macOS writes it) gets the slug of
//! the composed (`a` + U+0308 with `locale: de` is `ae`, as `ä` is).

mod arabic;
mod cyrillic;
mod ethiopic;
mod greek;
mod korean;

use std::borrow::Cow;

use icu::normalizer::ComposingNormalizerBorrowed;

use super::classes::find_byte;
use crate::locale::SlugLocale;
use crate::remembered::Memory;
pub(crate) use cyrillic::{Language, Letters};

#[cfg(doc)]
use crate::rules::Switch;

/// Whether `text` holds what this stage reads or [`compose`] changes.
/// Only characters whose UTF-8 starts with a byte that may start one are
/// decoded, found a block of bytes at a time: ASCII, Latin and most other
/// titles are read in one pass as before.
#[inline]
pub(super) fn may_apply(text: &str) -> bool {
    first_of(text, |c| reads(c) || composes(c))
}

/// Whether the first character for which `wanted` holds exists: looked
/// for only among characters from a lead byte of U+0300 to U+053F, U+0600
/// to U+06FF, U+1000 to U+1FFF, U+2000 to U+2FFF, U+A000 to U+DFFF and
/// U+F000 to U+FFFF.
#[inline]
fn first_of(text: &str, wanted: impl Fn(char) -> bool) -> bool {
    /// The lead bytes looked at, as a table: a test the compiler makes a
    /// load, not six comparisons.
    const LEADS: [bool; 256] = {
        let mut leads = [false; 256];
        let mut b = 0;
        while b < 256 {
            leads[b] = matches!(b, 0xCC..=0xD4 | 0xD8..=0xDB | 0xE1 | 0xE2 | 0xEA..=0xED | 0xEF);
            b += 1;
        }
        leads
    };
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = find_byte(bytes, from, |b| LEADS[b as usize]) {
        // Of three-byte characters, only these blocks hold what is looked
        // for: U+1100-137F, 1AB0-1AFF, 1DC0-1DFF, 1F00-1FFF; U+2126-212B;
        // Hangul syllables; U+F900-FAFF. Vietnamese, symbols and
        // full-width forms are passed over without decoding.
        let second = bytes.get(at + 1).copied().unwrap_or(0);
        let maybe = match bytes[at] {
            0xE1 => matches!(second, 0x84..=0x8D | 0xAA | 0xAB | 0xB7 | 0xBC..=0xBF),
            0xE2 => second == 0x84,
            0xEA => second >= 0xB0,
            0xED => second <= 0x9E,
            0xEF => matches!(second, 0xA4..=0xAB),
            _ => true,
        };
        if !maybe {
            from = at + 3;
            continue;
        }
        let c = text[at..]
            .chars()
            .next()
            .expect("a lead byte starts a char");
        if wanted(c) {
            return true;
        }
        from = at + c.len_utf8();
    }
    false
}

/// For the words stage's watching pass (no `locale`, nothing rewritten):
/// when a word this stage reads letter by letter starts at byte `at` of
/// `title` (Greek, Cyrillic, Hangul), writes it to `out` (empty) as
/// [`romanize`] would and returns where it ends, so the title is read in
/// one pass; `None` when the title must be rewritten first (a combining
/// mark, a vocalized Arabic word, a reading with more than letters and
/// digits).
/// `cyrillic` keeps the language the title's Cyrillic shows, found at its
/// first Cyrillic word (no Cyrillic comes before `at` then).
#[inline]
pub(super) fn read_word_at(
    title: &str,
    at: usize,
    cyrillic: &mut CyrillicSeen,
    out: &mut String,
) -> Option<AtWord> {
    let c = title[at..].chars().next()?;
    let reader = if korean::is_syllable(c) {
        Reader::Korean
    } else if greek::is_greek(c) {
        Reader::Greek
    } else if ethiopic::is_ethiopic(c) {
        Reader::Ethiopic
    } else if cyrillic::is_cyrillic(c) {
        Reader::Cyrillic(cyrillic.language(title, at))
    } else if arabic::is_arabic(c) {
        let (end, vocalized) = arabic_run(title, at);
        return match vocalized {
            true => None,
            false => Some(AtWord::AsBefore(end)),
        };
    } else {
        return None;
    };
    let (end, marked) = run_end_with(title, at, reader.reads(), |_| true, true);
    let run = &title[at..end];
    // A combining mark inside the word, or polytonic Greek (three bytes
    // each, some of which composition rewrites: U+1FEF is `), is read
    // after composition, on the whole title.
    if marked || (matches!(reader, Reader::Greek) && run.bytes().any(|b| b >= 0xE0)) {
        return None;
    }
    remember(reader, run, out);
    // What a reader wrote besides letters and digits (an apostrophe or a
    // comma deunicode writes for a letter no standard has) is read in the
    // rewritten title's context, as every stage in turn reads it. Korean
    // and Greek write letters alone.
    if !matches!(reader, Reader::Korean | Reader::Greek)
        && out.bytes().any(|b| !b.is_ascii_alphanumeric())
    {
        return None;
    }
    Some(AtWord::Read(end))
}

/// For the words pass, where case does not matter: when `cp` (a
/// two-byte character at byte `at` of `title`) is a Cyrillic letter, what
/// rules 5 write for it in lower case, read from its neighbours in the
/// title ([`cyrillic::letter_at`]): the usual Cyrillic title costs a look
/// at each letter, as by rules 4. `cyrillic` keeps the title's language.
#[inline]
pub(super) fn cyrillic_letter_at(
    title: &str,
    at: usize,
    cp: u32,
    cyrillic: &mut CyrillicSeen,
) -> Option<cyrillic::Letters> {
    if !(0x400..=0x52F).contains(&cp) {
        return None;
    }
    let (language, free) = match cyrillic.free {
        Some(free) => (cyrillic.language(title, at), free),
        None => {
            let language = cyrillic.language(title, at);
            let free = cyrillic::context_free(language);
            cyrillic.free = Some(free);
            (language, free)
        }
    };
    Some(cyrillic::letter_at(
        language,
        free,
        title.as_bytes(),
        at,
        cp,
    ))
}

/// What the words pass knows of a title's Cyrillic once it meets some:
/// the language its letters show ([`Language::shown_by`]), and what that
/// language writes for its letters whatever their neighbours.
#[derive(Default)]
pub(crate) struct CyrillicSeen {
    language: Option<Language>,
    free: Option<&'static [u32; 0x130]>,
}

impl CyrillicSeen {
    /// The language of the title's Cyrillic, found from byte `at` of
    /// `title` (its first Cyrillic) the first time.
    #[inline]
    fn language(&mut self, title: &str, at: usize) -> Language {
        *self
            .language
            .get_or_insert_with(|| Language::shown_by(&title[at..]))
    }
}

/// For the words pass, where case does not matter: when a word of
/// monotonic Greek alone starts at byte `at` of `title` (`cp` its first
/// letter), gives `push` what rules 5 write for it in lower case
/// ([`greek::read_plain_word`]) and returns where it ends; `None` for
/// other words, which are read whole.
#[inline]
pub(super) fn greek_word_at(
    title: &str,
    at: usize,
    cp: u32,
    push: impl FnMut(&'static str),
) -> Option<usize> {
    if !(0x386..=0x3CE).contains(&cp) {
        return None;
    }
    greek::read_plain_word(title, at, push)
}

/// Most words each thread remembers for each way of reading them; past
/// it, that memory starts over.
const MAX_WORDS: usize = 512;

/// Longest word remembered, in bytes.
const MAX_WORD_BYTES: usize = 64;

/// Writes `run`, a word of Hangul, Greek or Cyrillic, as `reader` reads
/// it, from the thread's memory of words after the first time: titles
/// repeat their words, and a lookup costs a tenth of a reading.
fn remember(reader: Reader, run: &str, out: &mut String) {
    thread_local! {
        static WORDS: [Memory; 11] =
            std::array::from_fn(|_| Memory::new(MAX_WORDS, MAX_WORD_BYTES));
    }
    let slot = match reader {
        Reader::Korean => 0,
        Reader::Greek => 1,
        Reader::Ethiopic => 2,
        Reader::Cyrillic(language) => 3 + language as usize,
        Reader::Arabic(_) | Reader::LatinDj => unreachable!("not remembered"),
    };
    WORDS.with(|words| {
        words[slot].remember(run, out, |out| match reader {
            Reader::Korean => korean::romanize_word(run, out),
            Reader::Greek => greek::romanize_word(run, out),
            Reader::Ethiopic => ethiopic::romanize_word(run, out),
            Reader::Cyrillic(language) => cyrillic::romanize_word(language, run, out),
            Reader::Arabic(_) | Reader::LatinDj => unreachable!("not remembered"),
        })
    });
}

/// What [`read_word_at`] did with the word at a byte.
pub(super) enum AtWord {
    /// Wrote it, which ends where this says.
    Read(usize),
    /// Nothing: the letters before this byte are read as before (a word
    /// in Arabic script without vowel marks).
    AsBefore(usize),
}

/// Whether the two-byte character `cp` (U+0300 or above) is one this
/// stage reads or [`compose`] changes: the watching pass of the words
/// stage stops there.
#[inline]
pub(super) fn stops_at(cp: u32) -> bool {
    cp <= 0x52F || (0x600..=0x6FF).contains(&cp)
}

/// Whether this stage reads `c`: Hangul, Greek, Cyrillic, Arabic,
/// Ethiopic.
#[inline]
fn reads(c: char) -> bool {
    matches!(c, '\u{0370}'..='\u{052F}' | '\u{0600}'..='\u{06FF}' | '\u{1200}'..='\u{137F}' | '\u{1F00}'..='\u{1FFF}' | '\u{AC00}'..='\u{D7A3}')
}

/// Whether composition (NFC) may change `c` or join it to the character
/// before: combining marks, Hangul's letters, Greek with breathings,
/// the Ohm, Kelvin and Angstrom signs, CJK compatibility ideographs.
#[inline]
fn composes(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{1100}'..='\u{11FF}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{1F00}'..='\u{1FFF}'
            | '\u{2126}'
            | '\u{212A}'
            | '\u{212B}'
            | '\u{F900}'..='\u{FAFF}'
    )
}

/// `text` in Unicode's composed form (NFC); borrowed when it is already.
#[inline]
pub(super) fn compose(text: &str) -> Cow<'_, str> {
    if !first_of(text, composes) {
        return Cow::Borrowed(text);
    }
    ComposingNormalizerBorrowed::new_nfc().normalize(text)
}

/// `romanized`, what a transform wrote for `text`, without the middle dots
/// it wrote between letters or digits ([`Switch::TransformsKeepWords`]):
/// BGN writes `t·s` where a Cyrillic `т` and `с` meet, so as not to read
/// them as `ц`. Left as it is when `text` has a middle dot of its own.
pub(super) fn join_written_dots<'t>(text: &str, romanized: Cow<'t, str>) -> Cow<'t, str> {
    const DOT: char = '\u{B7}';
    if !romanized.contains(DOT) || text.contains(DOT) {
        return romanized;
    }
    let mut joined = String::with_capacity(romanized.len());
    let mut chars = romanized.chars().peekable();
    let mut last = None;
    while let Some(c) = chars.next() {
        let between = c == DOT
            && last.is_some_and(char::is_alphanumeric)
            && chars.peek().is_some_and(|n| n.is_alphanumeric());
        if !between {
            joined.push(c);
        }
        last = Some(c);
    }
    Cow::Owned(joined)
}

/// Languages written in Ethiopic other than Amharic: Blin, Ge'ez,
/// Tigrinya, Tigre, read as before rules 5 when they are the `locale`.
const OTHER_ETHIOPIC: [&str; 4] = ["byn", "gez", "ti", "tig"];

/// Languages written in Cyrillic whose CLDR transform reads their text
/// when they are the `locale`, as before rules 5.
const OTHER_CYRILLIC: [&str; 14] = [
    "ab", "av", "az", "ba", "ce", "cv", "kv", "ky", "os", "sah", "tg", "tk", "tt", "uz",
];

/// `text` with its Hangul, Greek and Cyrillic (as [`Language`] says, by the
/// `locale` or the letters) written by their standards; borrowed when it
/// has none.
pub(super) fn romanize<'t>(text: &'t str, locale: Option<&SlugLocale>) -> Cow<'t, str> {
    if !first_of(text, reads) && !has_latin_dj(text) {
        return Cow::Borrowed(text);
    }
    let language = locale.map(SlugLocale::language);
    // The language of the title's Cyrillic: the locale's, else found at
    // its first Cyrillic letter, from the letters of the whole title.
    let reads_cyrillic = !language.is_some_and(|tag| OTHER_CYRILLIC.contains(&tag));
    let reads_ethiopic = !language.is_some_and(|tag| OTHER_ETHIOPIC.contains(&tag));
    let mut cyrillic = language.and_then(Language::of_tag);
    let latin_dj = language.is_some_and(|tag| Language::of_tag(tag) == Some(Language::Serbian));
    let mut arabic_script = None;
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let reader = if korean::is_syllable(c) {
            Some(Reader::Korean)
        } else if greek::is_greek(c) {
            Some(Reader::Greek)
        } else if ethiopic::is_ethiopic(c) && reads_ethiopic {
            Some(Reader::Ethiopic)
        } else if cyrillic::is_cyrillic(c) && reads_cyrillic {
            Some(Reader::Cyrillic(
                *cyrillic.get_or_insert_with(|| Language::shown_by(text)),
            ))
        } else if latin_dj && matches!(c, 'đ' | 'Đ') {
            Some(Reader::LatinDj)
        } else if arabic::is_arabic(c) {
            let (end, vocalized) = arabic_run(text, at);
            match vocalized {
                true => Some(Reader::Arabic(*arabic_script.get_or_insert_with(|| {
                    language
                        .and_then(arabic::Language::of_tag)
                        .unwrap_or_else(|| arabic::Language::shown_by(text))
                }))),
                false => {
                    at = end;
                    continue;
                }
            }
        } else {
            None
        };
        let Some(reader) = reader else {
            at += c.len_utf8();
            continue;
        };
        let end = run_end(text, at, reader.reads());
        let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 16));
        out.push_str(&text[copied..at]);
        let run = &text[at..end];
        match reader {
            Reader::Korean | Reader::Greek | Reader::Ethiopic | Reader::Cyrillic(_) => {
                remember(reader, run, out);
            }
            Reader::Arabic(language) => {
                let after = text[end..].trim_start_matches(|c: char| c.is_whitespace());
                let next = &after[..run_end(after, 0, arabic::is_arabic)];
                let next = (!next.is_empty()).then_some(next);
                arabic::romanize_word(language, run, next, out);
            }
            Reader::LatinDj => {
                let letters = run.chars().count();
                let capitals = run.chars().filter(|&c| c == 'Đ').count();
                let mut cased = Cased::new(out, letters, capitals);
                for c in run.chars() {
                    cased.push("dj", c == 'Đ');
                }
            }
        }
        copied = end;
        at = end;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// Which standard reads a run.
#[derive(Clone, Copy)]
enum Reader {
    Korean,
    Greek,
    Ethiopic,
    Cyrillic(Language),
    Arabic(arabic::Language),
    LatinDj,
}

impl Reader {
    /// Which characters its runs are made of.
    fn reads(self) -> fn(char) -> bool {
        match self {
            Reader::Korean => korean::is_syllable,
            Reader::Greek => greek::is_greek,
            Reader::Ethiopic => ethiopic::is_ethiopic,
            Reader::Cyrillic(_) => cyrillic::is_cyrillic,
            Reader::Arabic(_) => arabic::is_arabic,
            Reader::LatinDj => |c| matches!(c, 'đ' | 'Đ'),
        }
    }
}

/// Whether `text` has a Latin `đ` (U+0111, U+0110: UTF-8 starting 0xC4).
fn has_latin_dj(text: &str) -> bool {
    find_byte(text.as_bytes(), 0, |b| b == 0xC4).is_some() && text.contains(['đ', 'Đ'])
}

/// Where the run of characters for which `belongs` holds, starting at byte
/// `at` of `text`, ends: marks on them and apostrophes between them are in
/// it. Characters are decoded from the bytes directly (the text is UTF-8).
fn run_end(text: &str, at: usize, belongs: impl Fn(char) -> bool) -> usize {
    run_end_with(text, at, belongs, |_| false, false).0
}

/// Where the run of Arabic script starting at byte `at` of `text` ends,
/// and whether it has vowel marks (is read by [`Reader::Arabic`]).
fn arabic_run(text: &str, at: usize) -> (usize, bool) {
    run_end_with(text, at, arabic::is_arabic, arabic::is_vowel_mark, false)
}

/// [`run_end`], and whether the run has a character for which `wanted`
/// holds, found in the same pass: among its combining marks (`in_marks`)
/// or among its own characters (an Arabic word's vowel marks).
#[inline]
fn run_end_with(
    text: &str,
    at: usize,
    belongs: impl Fn(char) -> bool,
    wanted: impl Fn(char) -> bool,
    in_marks: bool,
) -> (usize, bool) {
    let bytes = text.as_bytes();
    let mut end = at;
    let mut i = at;
    let mut found = false;
    while let Some((c, len)) = char_at(bytes, i) {
        let inside = if belongs(c) {
            if !in_marks {
                found |= wanted(c);
            }
            true
        } else if is_mark(c) {
            if in_marks {
                found |= wanted(c);
            }
            true
        } else {
            matches!(c, '\'' | '’' | 'ʼ')
                && char_at(bytes, i + len).is_some_and(|(next, _)| belongs(next))
        };
        if !inside {
            break;
        }
        i += len;
        end = i;
    }
    (end, found)
}

/// The character at byte `i` of the UTF-8 `bytes`, where one starts, and
/// its length; `None` at the end.
#[inline]
fn char_at(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let lead = *bytes.get(i)?;
    let tail = |k: usize| u32::from(bytes.get(i + k).copied().unwrap_or(0x80) & 0x3F);
    let (cp, len) = match lead {
        0..0x80 => (u32::from(lead), 1),
        0xC0..0xE0 => ((u32::from(lead & 0x1F) << 6) | tail(1), 2),
        0xE0..0xF0 => ((u32::from(lead & 0x0F) << 12) | (tail(1) << 6) | tail(2), 3),
        _ => (
            (u32::from(lead & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3),
            4,
        ),
    };
    Some((char::from_u32(cp).unwrap_or('\u{FFFD}'), len))
}

/// Whether `c` is a combining mark of the blocks Greek and Cyrillic use.
fn is_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}')
}

/// Writes what a standard gives for each letter of a word in the letter's
/// case: a capital's text capitalized (`Щ` `Shch`), and every letter of a
/// word written in capitals in capitals (`ЩИ` `SHCHI`). The letters (a
/// few bytes of ASCII each) gather in a buffer that is written out when
/// full and when the word is done: one copy instead of one a letter.
pub(super) struct Cased<'o> {
    out: &'o mut String,
    all_caps: bool,
    buf: [u8; 64],
    len: usize,
}

impl<'o> Cased<'o> {
    /// For a word of `letters` letters, `capitals` of them capitals.
    pub(super) fn new(out: &'o mut String, letters: usize, capitals: usize) -> Self {
        Cased {
            out,
            all_caps: letters > 1 && capitals == letters,
            buf: [0; 64],
            len: 0,
        }
    }

    /// `text` (ASCII), what a letter is written as, in its case (`upper`).
    #[inline]
    pub(super) fn push(&mut self, text: &str, upper: bool) {
        let bytes = text.as_bytes();
        if self.len + bytes.len() > self.buf.len() {
            self.flush();
            if bytes.len() > self.buf.len() {
                self.out.push_str(text);
                return;
            }
        }
        for (k, &byte) in bytes.iter().enumerate() {
            let capital = upper && (self.all_caps || k == 0);
            self.buf[self.len] = match capital {
                true => byte.to_ascii_uppercase(),
                false => byte,
            };
            self.len += 1;
        }
    }

    /// `first` and then `second`, which two letters make together (`αυ`
    /// `av`), in the first letter's case (`upper`).
    pub(super) fn push_pair(&mut self, first: &str, second: &str, upper: bool) {
        self.push(first, upper);
        self.push(second, upper && self.all_caps);
    }

    /// Writes out what the buffer holds.
    fn flush(&mut self) {
        let written = &self.buf[..self.len];
        // The standards write ASCII; anything else is left out.
        if let Ok(text) = std::str::from_utf8(written) {
            self.out.push_str(text);
        }
        self.len = 0;
    }
}

impl Drop for Cased<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, locale: Option<&str>) -> String {
        let locale = locale.map(|tag| SlugLocale::resolve(tag).expect("a locale"));
        romanize(text, locale.as_ref()).into_owned()
    }

    #[test]
    fn each_script_in_a_title() {
        assert_eq!(read("독립문 앞 ☃", None), "dongnimmun ap ☃");
        assert_eq!(read("Χανιά, Κρήτη", None), "Chania, Kriti");
        // One language a title: ї shows Ukrainian.
        assert_eq!(read("Я люблю Київ", None), "Ya liubliu Kyiv");
        assert_eq!(read("Я люблю", None), "Ya lyublyu");
        assert_eq!(read("Петър", Some("bg")), "Petar");
        assert_eq!(read("Novak Đoković", Some("sr")), "Novak Djoković");
        assert_eq!(read("Novak Đoković", None), "Novak Đoković");
        assert_eq!(read("Знам'янка", Some("uk")), "Znamianka");
        assert_eq!(read("plain text", None), "plain text");
    }

    #[test]
    fn another_cyrillic_languages_locale_leaves_it_to_its_transform() {
        assert_eq!(read("Бишкек", Some("ky")), "Бишкек");
    }

    #[test]
    fn a_transforms_dots_between_letters_leave_no_trace() {
        assert_eq!(
            join_written_dots("Советская", "Sovet·skaya".into()),
            "Sovetskaya"
        );
        assert_eq!(join_written_dots("x", "a · b".into()), "a · b");
        assert_eq!(
            join_written_dots("col·lecció", "col·lecció".into()),
            "col·lecció"
        );
    }

    #[test]
    fn decomposed_text_is_composed() {
        assert_eq!(compose("Erla\u{308}uterung"), "Erläuterung");
        assert!(matches!(compose("Erläuterung"), Cow::Borrowed(_)));
        // Hangul's letters compose into syllables.
        assert_eq!(compose("\u{1100}\u{1161}"), "가");
    }
}
