//! The scripts written with spaces, read word by word in stage 3 before
//! the `locale`'s transform ([`super::transforms`]), by the reader the
//! table chooses for each ([`super::choices`]): Hangul, Greek,
//! Ethiopic, Cyrillic, Arabic script with its vowel marks, Armenian,
//! Georgian, and with a Serbian locale a Latin `đ`.
//!
//! Two ways in: [`romanize`], which rewrites a whole title, and the words
//! stage's watching pass (`crate::slug`, no `locale`, nothing rewritten),
//! which reads such a word where it meets it ([`read_word_at`]) and, where
//! case does not matter, Cyrillic a letter at a time
//! ([`cyrillic_letter_at`]) and plain Greek straight into the slug
//! ([`greek_word_at`]): a title is read in one pass. Both remember a
//! word a reader wrote in the thread's memory of its row.

use std::borrow::Cow;

use super::scan::find_byte;
use super::{
    Choices, NONE, READERS, Read, Reader, Remembered, RowId, SHOWN, Words, arabic, choices,
    cyrillic, greek, reader, rules_of, shown_row, word_key,
};
use crate::locale::SlugLocale;
use crate::remembered::Memory;
use crate::rules::Rules;
pub(crate) use cyrillic::Letters;

/// What a title's reading has chosen: for each script read word by word,
/// the table's row that reads it ([`Choices`]), where the letters show
/// the language found at the script's first letter; and, once Cyrillic is
/// met, its language's letters.
pub(crate) struct Chosen {
    rows: [u8; Words::ALL.len()],
    rules: Rules,
    cyrillic: Option<(cyrillic::Language, &'static [u32; 0x130])>,
}

impl Chosen {
    /// The rows `choices` give, before the title's letters are read.
    #[inline]
    pub(crate) fn new(choices: &Choices) -> Self {
        let mut rows = [NONE; Words::ALL.len()];
        rows.copy_from_slice(&choices[..Words::ALL.len()]);
        Chosen {
            rows,
            rules: rules_of(choices),
            cyrillic: None,
        }
    }

    /// The row that reads `script`; where the letters show the language,
    /// chosen the first time from those of `text` (the title from the
    /// script's first letter on).
    #[inline]
    fn row(&mut self, script: Words, text: &str) -> Option<RowId> {
        let key = word_key(script);
        let slot = &mut self.rows[key];
        if *slot == SHOWN {
            *slot = shown_row(script, text, self.rules).unwrap_or(NONE);
        }
        (*slot != NONE).then_some(*slot)
    }
}

/// For the words stage's watching pass (no `locale`, nothing rewritten):
/// when a word a reader reads starts at byte `at` of `title` (Greek,
/// Cyrillic, Hangul, Ethiopic, Armenian, Georgian), writes it to `out` (empty) as
/// [`romanize`] would and returns where it ends, so the title is read in
/// one pass; `None` when the title must be rewritten first (a combining
/// mark, a vocalized Arabic word, a reading with more than letters and
/// digits).
#[inline]
pub(crate) fn read_word_at(
    title: &str,
    at: usize,
    chosen: &mut Chosen,
    out: &mut String,
) -> Option<AtWord> {
    let c = title[at..].chars().next()?;
    let script = Words::of(c)?;
    if script == Words::Arabic {
        let (end, vocalized) = arabic_run(title, at);
        return match vocalized {
            true => None,
            false => Some(AtWord::AsBefore(end)),
        };
    }
    // A script no reader reads under these rules (Armenian before rules
    // 6) is read as before, in this pass.
    let Some(row) = chosen.row(script, &title[at..]) else {
        return Some(AtWord::AsBefore(run_end(title, at, script.test())));
    };
    let (end, marked) = run_end_with(title, at, script.test(), |_| true, true);
    let run = &title[at..end];
    // A word written apart from the digits beside it is read in the
    // rewritten title, where the space between them is.
    if READERS[usize::from(row)].apart_from_digits && beside_digits(title, at, end) {
        return None;
    }
    // A combining mark inside the word, or polytonic Greek (three bytes
    // each, some of which composition rewrites: U+1FEF is `), is read
    // after composition, on the whole title.
    if marked || (script == Words::Greek && run.bytes().any(|b| b >= 0xE0)) {
        return None;
    }
    remember(row, run, out);
    // What a reader wrote besides letters and digits (an apostrophe or a
    // comma deunicode writes for a letter no standard has) is read in the
    // rewritten title's context, as every stage in turn reads it. Greek,
    // Armenian and Georgian write letters alone (Korean, by rules 6, a hyphen
    // before a unit).
    if !matches!(script, Words::Greek | Words::Armenian | Words::Georgian)
        && out.bytes().any(|b| !b.is_ascii_alphanumeric())
    {
        return None;
    }
    Some(AtWord::Read(end))
}

/// For the words pass, where case does not matter: when `cp` (a
/// two-byte character at byte `at` of `title`) is a Cyrillic letter, what
/// its reader writes for it in lower case, read from its neighbours in
/// the title ([`cyrillic::letter_at`]): the usual Cyrillic title costs a
/// look at each letter.
#[inline]
pub(crate) fn cyrillic_letter_at(
    title: &str,
    at: usize,
    cp: u32,
    chosen: &mut Chosen,
) -> Option<Letters> {
    if !(0x400..=0x52F).contains(&cp) {
        return None;
    }
    let (language, free) = match chosen.cyrillic {
        Some(known) => known,
        None => {
            let row = chosen.row(Words::Cyrillic, &title[at..])?;
            let Reader::Cyrillic(language) = reader(row) else {
                return None;
            };
            let known = (language, cyrillic::context_free(language));
            chosen.cyrillic = Some(known);
            known
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

/// For the words pass, where case does not matter: when a word of
/// monotonic Greek alone starts at byte `at` of `title` (`cp` its first
/// letter), gives `push` what its reader writes for it in lower case
/// ([`greek::read_plain_word`]) and returns where it ends; `None` for
/// other words, which are read whole.
#[inline]
pub(crate) fn greek_word_at(
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

/// Most words each thread remembers for each reader that remembers words;
/// past it, that memory starts over.
pub(crate) const MAX_WORDS: usize = 512;

/// Longest word remembered, in bytes.
pub(crate) const MAX_WORD_BYTES: usize = 64;

/// Writes `run`, a word of the script row `row` reads, as its reader
/// reads it: from the thread's memory of that row after the first time
/// where the row says ([`Remembered::Words`]), for titles repeat their
/// words and a lookup costs a tenth of a reading.
fn remember(row: RowId, run: &str, out: &mut String) {
    thread_local! {
        static WORDS: [Memory; READERS.len()] =
            std::array::from_fn(|_| Memory::new(MAX_WORDS, MAX_WORD_BYTES));
    }
    let row = usize::from(row);
    let read = READERS[row].read;
    match READERS[row].remembered {
        Remembered::Words => {
            WORDS.with(|words| words[row].remember(run, out, |out| read_word(read, run, out)));
        }
        _ => read_word(read, run, out),
    }
}

/// Writes `run` as `read` reads a word alone.
fn read_word(read: Read, run: &str, out: &mut String) {
    match read {
        Read::Word(word) => word(run, out),
        Read::WordBeforeNext(word) => word(run, None, out),
        // The table gives the readers of words only these.
        _ => unreachable!("{read:?} does not read a word"),
    }
}

/// What [`read_word_at`] did with the word at a byte.
pub(crate) enum AtWord {
    /// Wrote it, which ends where this says.
    Read(usize),
    /// Nothing: the letters before this byte are read as before (a word
    /// in Arabic script without vowel marks).
    AsBefore(usize),
}

/// `text` with the words of every script a reader of the table reads for
/// it (by the `locale`, else by the letters) written as that reader
/// writes them; borrowed when it has none.
pub(crate) fn romanize<'t>(
    text: &'t str,
    locale: Option<&SlugLocale>,
    rules: Rules,
) -> Cow<'t, str> {
    if !super::scan::first_of(text, super::scan::reads) && !has_latin_dj(text) {
        return Cow::Borrowed(text);
    }
    let mut chosen = Chosen::new(choices(locale, rules));
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let Some(script) = Words::of(c) else {
            at += c.len_utf8();
            continue;
        };
        // Arabic script without vowel marks is read as before.
        if script == Words::Arabic {
            let (end, vocalized) = arabic_run(text, at);
            if !vocalized {
                at = end;
                continue;
            }
        }
        let Some(row) = chosen.row(script, text) else {
            at += c.len_utf8();
            continue;
        };
        let end = run_end(text, at, script.test());
        let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 16));
        out.push_str(&text[copied..at]);
        let run = &text[at..end];
        let apart = READERS[usize::from(row)].apart_from_digits;
        if apart && text[..at].ends_with(|c: char| c.is_ascii_digit()) {
            out.push(' ');
        }
        match READERS[usize::from(row)].read {
            Read::WordBeforeNext(word) => {
                let after = text[end..].trim_start_matches(|c: char| c.is_whitespace());
                let next = &after[..run_end(after, 0, script.test())];
                word(run, (!next.is_empty()).then_some(next), out);
            }
            _ => remember(row, run, out),
        }
        if apart && text[end..].starts_with(|c: char| c.is_ascii_digit()) {
            out.push(' ');
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

/// Whether an ASCII digit stands right before byte `at` or at byte `end`
/// of `title`.
fn beside_digits(title: &str, at: usize, end: usize) -> bool {
    let bytes = title.as_bytes();
    at.checked_sub(1)
        .is_some_and(|before| bytes[before].is_ascii_digit())
        || bytes.get(end).is_some_and(u8::is_ascii_digit)
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
        } else if greek::is_mark(c) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, locale: Option<&str>) -> String {
        let locale = locale.map(|tag| SlugLocale::resolve(tag).expect("a locale"));
        romanize(text, locale.as_ref(), Rules::NEWEST).into_owned()
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
}
