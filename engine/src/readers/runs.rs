//! The scripts the engine cannot read letter by letter, read run by run
//! in stage 3 after the `locale`'s transform (`crate::slug::rewrite`),
//! each run by the reader the table chooses for its script
//! ([`super::choose`]):
//!
//! - Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu,
//!   Kannada, Malayalam and Sinhala by CLDR's script transforms, so their
//!   vowels stay (`नमस्ते` is `namaste`, not deunicode's `nmste`); by rules
//!   5 Devanagari as Hindi, Marathi and Nepali readers write it, without
//!   the schwas speakers leave out (`devanagari`: `भारत` is `bharat`, not
//!   `bharata`), but for Sanskrit;
//! - Thai, Lao, Khmer and Myanmar, written without spaces, cut into words
//!   by ICU4X's word segmenter, each word a slug word: Thai romanized by
//!   CLDR's Thai-Latin rules (by rules 5 in RTGS, `rtgs`), Myanmar by
//!   CLDR's `my-Latn-t-my`, Lao and Khmer left to deunicode word by word
//!   (by rules 5 Lao by the Commission Nationale de Toponymie's letters,
//!   `lao`); by rules 6 Myanmar and Khmer as their countries' lists of
//!   places write them (`burmese`, a run read whole; `khmer`, word by
//!   word), and Sinhala so too (`sinhala`);
//! - Han cut into words by the segmenter's dictionary, each word's pinyin
//!   syllables written together (`北京大学` is `Beijing Daxue`), digits
//!   beside them words of their own. Not in a title that has kana, nor with
//!   a Japanese `locale`: Japanese reads Han otherwise, and such
//!   titles keep rules 1's syllables.
//!
//! The engine's survey (`crate::slug::rewrite`) finds the first run while
//! it looks for a `&` ([`first_run_or`]), in one scan of the title's
//! bytes, 16 at a time, whose mask of first bytes is built from the
//! scripts' blocks ([`super::scan`]): a title without these scripts is
//! borrowed back after it, so they cost titles that do not need them
//! little. Runs are cut in pieces of at most [`MAX_RUN_BYTES`], and only
//! the first [`MAX_ROMANIZED_BYTES`] of them in a title are romanized, so
//! that no title costs more than a bounded amount of work. Each thread
//! remembers the runs each row of the table has read (up to [`MAX_RUNS`]
//! of at most [`MAX_RUN_BYTES`]), and the words it cut them into: the
//! segmenter and ICU4X's transliterator take microseconds per run, and
//! titles repeat words.

use std::borrow::Cow;

use super::scan::{self, Leads};
use super::scan::{find_byte, is_wide_lead};
use super::scripts::{self, Script};
use super::{MAX_RUN_BYTES, MAX_RUNS, READERS, Read, RowId, choices, row_of, run_key};
use crate::options::Options;
use crate::remembered::Memory;

/// Most bytes of these scripts a title has romanized by rules 2: runs past
/// them are left as rules 1 reads them. A title is far shorter; a request
/// of a megabyte of distinct Han characters would otherwise cost a CLDR
/// transliteration (tens of microseconds) per character.
pub const MAX_ROMANIZED_BYTES: usize = 1024;

/// The title with those scripts romanized; borrowed when it has none.
pub(crate) fn romanize<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    match first_run(title, 0) {
        Some(first) => romanize_from(title, first, options),
        None => Cow::Borrowed(title),
    }
}

/// Where the first character of these scripts at or after byte `from` of
/// `text` starts. Every such character is at U+0900 or above, so its
/// UTF-8 starts with a byte of 0xE0 or more: the bytes before one (ASCII,
/// and the two-byte letters of Latin, Greek, Cyrillic, Hebrew and Arabic)
/// are passed over a block at a time, and of the characters from such a
/// byte only those whose first two bytes may start one of the scripts
/// ([`may_start_run`]) are decoded: not punctuation, symbols, emoji or
/// Hangul.
#[inline]
pub(crate) fn first_run(text: &str, from: usize) -> Option<usize> {
    first_run_or(text, from, |_| false)
}

/// [`first_run`], or the first byte before it for which `stop` holds,
/// whichever comes first: the engine's survey finds the first run and a
/// `&` in one scan.
#[inline]
pub(crate) fn first_run_or(text: &str, from: usize, stop: impl Fn(u8) -> bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = from;
    loop {
        let mut at = find_byte(bytes, from, |b| stop(b) | is_wide_lead(b))?;
        if stop(bytes[at]) {
            return Some(at);
        }
        // Wide characters come in runs (kana, Hangul): read on from one to
        // the next without searching again.
        while let Some(&lead) = bytes.get(at)
            && is_wide_lead(lead)
        {
            if starts_run(text, at) {
                return Some(at);
            }
            at += utf8_len(lead);
        }
        from = at;
    }
}

/// Where the first character of these scripts but Han at or after byte
/// `from` of `text` starts: all of them are below U+1800, so their UTF-8
/// starts with 0xE0 or 0xE1, and only such bytes are looked at, a block
/// at a time.
pub(crate) fn first_run_but_han(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = from;
    loop {
        let at = find_byte(bytes, from, |b| (b == 0xE0) | (b == 0xE1))?;
        if starts_run(text, at) {
            return Some(at);
        }
        from = at + 1;
    }
}

/// Whether a character of these scripts starts at byte `at` of `text`,
/// where a byte of 0xE0 or more is.
#[inline(always)]
pub(crate) fn starts_run(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    may_start_run(bytes[at], bytes.get(at + 1).copied().unwrap_or(0))
        && text[at..].chars().next().and_then(Script::of).is_some()
}

/// The length of the UTF-8 of a character whose first byte, of 0xE0 or
/// more, is `lead`.
#[inline(always)]
pub(crate) fn utf8_len(lead: u8) -> usize {
    if lead >= 0xF0 { 4 } else { 3 }
}

/// The first two bytes of the UTF-8 of these scripts' characters.
const RUNS: Leads = scan::leads_of(&[scripts::BLOCKS]);

/// Whether a character whose UTF-8 starts with the bytes `lead` (0xE0 or
/// more) and `next` may be of these scripts ([`Script::of`] says for
/// sure).
#[inline(always)]
fn may_start_run(lead: u8, next: u8) -> bool {
    scan::may_be(&RUNS, lead, next)
}

/// [`romanize`] from byte `first`, where the first run starts. The
/// romanized title is written only once a run is romanized, so a title
/// whose runs all stay (Han beside kana) is borrowed back.
#[cold]
#[inline(never)]
pub(crate) fn romanize_from<'t>(title: &'t str, first: usize, options: &Options) -> Cow<'t, str> {
    let mut han = None;
    let choices = choices(options.locale.as_ref(), options.rules);
    let mut out: Option<String> = None;
    // `title[..copied]` is in `out` (or was left as it is, when `out` is
    // none); `title[at..]` is still to read, and a run starts at `at`.
    let mut copied = 0;
    let mut at = first;
    let mut budget = MAX_ROMANIZED_BYTES;
    loop {
        let rest = &title[at..];
        let Some(script) = rest.chars().next().and_then(Script::of) else {
            break;
        };
        let end = at
            + rest
                .char_indices()
                .find(|&(_, c)| !script.continues(c))
                .map_or(rest.len(), |(i, _)| i);
        let run = &title[at..end];
        let stays = (script == Script::Han
            && !*han.get_or_insert_with(|| reads_han(title, options)))
            || run.len() > budget;
        if !stays {
            budget -= run.len();
            let out = out.get_or_insert_with(|| String::with_capacity(title.len() * 2));
            out.push_str(&title[copied..at]);
            let spaced = script.words_of_their_own();
            for chunk in chunks(script, run) {
                if spaced {
                    out.push(' ');
                }
                read_run(row_of(choices, run_key(script), chunk), script, chunk, out);
            }
            if spaced {
                out.push(' ');
            }
            copied = end;
        }
        // Where Han stays, so does every Han run after: only the other
        // scripts are looked for, past the kana and Han between them.
        let next = match han {
            Some(false) => first_run_but_han(title, end),
            _ => first_run(title, end),
        };
        match next {
            Some(next) => at = next,
            None => break,
        }
    }
    match out {
        Some(mut out) => {
            out.push_str(&title[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(title),
    }
}

/// `run` in pieces of at most [`MAX_RUN_BYTES`]: the segmenter's time
/// grows faster than the length of what it cuts, and a piece is short
/// enough to remember. A run the segmenter cuts into words is cut at the
/// last word boundary within the bound (found in a window of twice it);
/// others, and a word longer than the bound, between characters.
fn chunks(script: Script, run: &str) -> impl Iterator<Item = &str> {
    let mut rest = run;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = if rest.len() <= MAX_RUN_BYTES {
            rest.len()
        } else {
            let mut end = MAX_RUN_BYTES;
            while !rest.is_char_boundary(end) {
                end -= 1;
            }
            if script.words_of_their_own() {
                end = scripts::last_word_end(rest, end).unwrap_or(end);
            }
            end
        };
        let (chunk, after) = rest.split_at(end);
        rest = after;
        Some(chunk)
    })
}

/// Appends `run`, all of `script`, as the table's row `row` reads it
/// (by CLDR's transform of the script where no row does), from this
/// thread's memory of that row's runs, and of the words it cut runs into,
/// when it has them.
fn read_run(row: Option<RowId>, script: Script, run: &str, out: &mut String) {
    thread_local! {
        static RUNS: [Memory; READERS.len()] =
            std::array::from_fn(|_| Memory::new(MAX_RUNS, MAX_RUN_BYTES));
        static WORDS: [Memory; READERS.len()] =
            std::array::from_fn(|_| Memory::new(MAX_RUNS, MAX_RUN_BYTES));
    }
    let Some(row) = row.map(usize::from) else {
        script.romanize(run, out);
        return;
    };
    let read = |out: &mut String| match READERS[row].read {
        Read::Run(read) => read(run, out),
        Read::Segmented { prepare, word } => WORDS.with(|words| {
            scripts::each_word_in(&words[row], &prepare(run), out, word);
        }),
        _ => script.romanize(run, out),
    };
    match READERS[row].remembered {
        super::Remembered::Runs => RUNS.with(|runs| runs[row].remember(run, out, read)),
        _ => read(out),
    }
}

/// Whether Han in `title` is read as Chinese: not in a title with kana, nor
/// with a Japanese `locale`.
fn reads_han(title: &str, options: &Options) -> bool {
    let japanese = options.locale.as_ref().is_some_and(|l| l.is_japanese());
    !japanese && !has_kana(title)
}

/// Whether `title` has kana, which are at U+3040 to U+31FF and U+FF66 to
/// U+FF9D.
pub(crate) fn has_kana(title: &str) -> bool {
    has_wide(title, scripts::is_kana)
}

/// Whether `title` has a character for which `wanted` holds, which must
/// hold only for characters whose UTF-8 starts with 0xE3 or 0xEF (U+3000
/// to U+3FFF, U+F000 to U+FFFF, where kana are): only those characters,
/// found a block of bytes at a time, are decoded.
pub(crate) fn has_wide(title: &str, wanted: impl Fn(char) -> bool) -> bool {
    let bytes = title.as_bytes();
    let mut from = 0;
    while let Some(at) = find_byte(bytes, from, |b| (b == 0xE3) | (b == 0xEF)) {
        if title[at..].chars().next().is_some_and(&wanted) {
            return true;
        }
        from = at + 3;
    }
    false
}

/// For `ascii: false`'s word cuts: which script written without spaces
/// `c` is of (Thai, Lao, Myanmar, Khmer, or Han and kana together, as
/// Japanese writes them in one word), as a number; `None` for the Indic
/// scripts and every other character.
pub(crate) fn unspaced_script(c: char) -> Option<u8> {
    match Script::of(c) {
        Some(Script::Thai) => Some(0),
        Some(Script::Lao) => Some(1),
        Some(Script::Myanmar) => Some(2),
        Some(Script::Khmer) => Some(3),
        Some(Script::Han) => Some(4),
        Some(Script::Indic(_)) => None,
        None => scripts::is_kana(c).then_some(4),
    }
}

/// Whether `c` is of these scripts, for the engine's tests.
#[cfg(test)]
pub(crate) fn is_script(c: char) -> bool {
    Script::of(c).is_some()
}

/// Whether `c` is kana, for the engine's tests.
#[cfg(test)]
pub(crate) fn is_kana(c: char) -> bool {
    scripts::is_kana(c)
}

#[cfg(test)]
pub(crate) mod tests {
    /// Reads 48,000 words of up to 12 characters drawn from `block` (a
    /// seeded xorshift, so every run reads the same) with `read`, and
    /// checks that each gives ASCII letters and digits only.
    pub(in crate::readers) fn reads_any_to_ascii(
        block: std::ops::RangeInclusive<char>,
        read: fn(&str, &mut String),
    ) {
        let chars: Vec<char> = block.collect();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for len in 1..=12 {
            for _ in 0..4000 {
                let word: String = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        chars[(seed % chars.len() as u64) as usize]
                    })
                    .collect();
                let mut out = String::new();
                read(&word, &mut out);
                assert!(
                    out.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
                    "{word}: {out}"
                );
            }
        }
    }
}
