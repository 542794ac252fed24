//! Rules 2: the scripts the engine cannot read letter by letter, romanized
//! run by run before it reads the title (`crate::slug::rewrite`, after
//! `replacements` and the `locale`):
//!
//! - Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu,
//!   Kannada, Malayalam and Sinhala by CLDR's script transforms, so their
//!   vowels stay (`नमस्ते` is `namaste`, not deunicode's `nmste`); by rules
//!   5 Devanagari as Hindi, Marathi and Nepali readers write it, without
//!   the schwas speakers leave out (`devanagari`: `भारत` is `bharat`, not
//!   `bharata`), but for Sanskrit;
//! - Thai, Lao, Khmer and Myanmar, written without spaces, cut into words
//!   by ICU4X's word segmenter, each word a slug word: Thai romanized by
//!   CLDR's Thai-Latin rules (by rules 5 in RTGS, `rtgs`), Myanmar by CLDR's `my-Latn-t-my`, Lao and
//!   Khmer left to deunicode word by word (by rules 5 Lao by the
//!   Commission Nationale de Toponymie's letters, `lao`);
//! - Han cut into words by the segmenter's dictionary, each word's pinyin
//!   syllables written together (`北京大学` is `Beijing Daxue`), digits
//!   beside them words of their own. Not in a title that has kana, nor with
//!   a Japanese `locale`: Japanese reads Han otherwise, and such
//!   titles keep rules 1's syllables.
//!
//! The engine's survey (`crate::slug::rewrite`) finds the first run while
//! it looks for a `&` ([`first_run_or`]), in one scan of the title's
//! bytes, 16 at a time: a title without these scripts is borrowed back
//! after it, so rules 2 costs titles that do not need it little. Runs are
//! cut in pieces of at most [`MAX_RUN_BYTES`], and only the first [`MAX_ROMANIZED_BYTES`] of them
//! in a title are romanized, so that no title costs more than a bounded
//! amount of work. Each thread remembers the runs it has
//! romanized (up to [`MAX_RUNS`] of at most [`MAX_RUN_BYTES`]): the
//! segmenter and ICU4X's transliterator take microseconds per run, and
//! titles repeat words.
//!
//! The parts: `script` says which script a character is in and romanizes
//! a run of one; `devanagari` finds the schwas Hindi leaves out; `thai` builds CLDR's Thai-Latin from its rule source; `rtgs` reads Thai by sound; `lao` reads Lao;
//! `memory` is a thread's bounded memory of what it has romanized, of
//! runs here and of words in `script` (so that a long run, which is not
//! kept, costs the segmenter and a lookup per word).

mod devanagari;
mod lao;
mod rtgs;
mod script;
mod thai;

use std::borrow::Cow;

use super::classes::{find_byte, is_wide_lead};
use crate::options::Options;
use crate::remembered::Memory;
use crate::rules::Switch;
use script::Script;
pub use script::{MAX_RUN_BYTES, MAX_RUNS};

/// Most bytes of these scripts a title has romanized by rules 2: runs past
/// them are left as rules 1 reads them. A title is far shorter; a request
/// of a megabyte of distinct Han characters would otherwise cost a CLDR
/// transliteration (tens of microseconds) per character.
pub const MAX_ROMANIZED_BYTES: usize = 1024;

/// The title with those scripts romanized; borrowed when it has none.
pub(super) fn romanize<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
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
pub(super) fn first_run(text: &str, from: usize) -> Option<usize> {
    first_run_or(text, from, |_| false)
}

/// [`first_run`], or the first byte before it for which `stop` holds,
/// whichever comes first: the engine's survey finds the first run and a
/// `&` in one scan.
#[inline]
pub(super) fn first_run_or(text: &str, from: usize, stop: impl Fn(u8) -> bool) -> Option<usize> {
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
pub(super) fn first_run_but_han(text: &str, from: usize) -> Option<usize> {
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
pub(super) fn starts_run(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    may_start_run(bytes[at], bytes.get(at + 1).copied().unwrap_or(0))
        && text[at..].chars().next().and_then(Script::of).is_some()
}

/// The length of the UTF-8 of a character whose first byte, of 0xE0 or
/// more, is `lead`.
#[inline(always)]
pub(super) fn utf8_len(lead: u8) -> usize {
    if lead >= 0xF0 { 4 } else { 3 }
}

/// Whether a character whose UTF-8 starts with the bytes `lead` (0xE0 or
/// more) and `next` may be of these scripts ([`Script::of`] says for
/// sure): the blocks of U+0900 to U+0FFF, U+1000 to U+10BF, U+1780 to
/// U+17FF, U+3400 to U+9FFF, U+F900 to U+FAFF and U+20000 to U+3FFFF.
#[inline(always)]
fn may_start_run(lead: u8, next: u8) -> bool {
    match lead {
        0xE0 => next >= 0xA4,
        0xE1 => matches!(next, 0x80..=0x82 | 0x9E..=0x9F),
        0xE3 => next >= 0x90,
        0xE4..=0xE9 => true,
        0xEF => matches!(next, 0xA4..=0xAB),
        0xF0 => next >= 0xA0,
        _ => false,
    }
}

/// [`romanize`] from byte `first`, where the first run starts. The
/// romanized title is written only once a run is romanized, so a title
/// whose runs all stay (Han beside kana) is borrowed back.
#[cold]
#[inline(never)]
pub(super) fn romanize_from<'t>(title: &'t str, first: usize, options: &Options) -> Cow<'t, str> {
    let mut han = None;
    let mut schwas = None;
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
                match script {
                    Script::DEVANAGARI => match *schwas.get_or_insert_with(|| speech(options)) {
                        Some(speech) => romanize_hindi(chunk, speech, out),
                        None => romanize_run(script, chunk, out),
                    },
                    Script::Thai if options.rules.has(Switch::NationalStandards) => {
                        romanize_by_standard(ByStandard::Thai, chunk, out);
                    }
                    Script::Lao if options.rules.has(Switch::NationalStandards) => {
                        romanize_by_standard(ByStandard::Lao, chunk, out);
                    }
                    _ => romanize_run(script, chunk, out),
                }
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
                end = script::last_word_end(rest, end).unwrap_or(end);
            }
            end
        };
        let (chunk, after) = rest.split_at(end);
        rest = after;
        Some(chunk)
    })
}

/// How Devanagari is read, with the schwas speakers leave out
/// (`devanagari`, [`Switch::NationalStandards`]): as Nepali with `locale:
/// ne`, as Hindi otherwise; `None` for Sanskrit (`locale: sa`), which
/// keeps every vowel, and before rules 5.
fn speech(options: &Options) -> Option<devanagari::Speech> {
    if !options.rules.has(Switch::NationalStandards) {
        return None;
    }
    match options.locale.as_ref().map(|l| l.language()) {
        Some("sa") => None,
        Some("ne") => Some(devanagari::Speech::Nepali),
        Some("mr") => Some(devanagari::Speech::Marathi),
        _ => Some(devanagari::Speech::Hindi),
    }
}

/// The scripts written without spaces whose national standard rules 5
/// write ([`Switch::NationalStandards`]), word by word.
#[derive(Clone, Copy)]
enum ByStandard {
    /// Thai in RTGS (`rtgs`).
    Thai,
    /// Lao by the Commission Nationale de Toponymie's letters (`lao`).
    Lao,
}

/// Appends `run` as `standard` writes it, word by word, from this
/// thread's memory of runs and of words (one of each per standard) when
/// it has them.
fn romanize_by_standard(standard: ByStandard, run: &str, out: &mut String) {
    thread_local! {
        static RUNS: [Memory; 2] = std::array::from_fn(|_| Memory::new(MAX_RUNS, MAX_RUN_BYTES));
        static WORDS: [Memory; 2] = std::array::from_fn(|_| Memory::new(MAX_RUNS, MAX_RUN_BYTES));
    }
    let slot = standard as usize;
    RUNS.with(|runs| {
        runs[slot].remember(run, out, |out| {
            WORDS.with(|words| match standard {
                ByStandard::Thai => {
                    script::each_word_in(&words[slot], run, out, rtgs::romanize_word)
                }
                ByStandard::Lao => {
                    let run = lao::sara_am(run);
                    script::each_word_in(&words[slot], &run, out, lao::romanize_word);
                }
            });
        });
    });
}

/// Whether Han in `title` is read as Chinese: not in a title with kana, nor
/// with a Japanese `locale`.
fn reads_han(title: &str, options: &Options) -> bool {
    let japanese = options
        .locale
        .as_ref()
        .is_some_and(|l| l.fallbacks().iter().any(|t| t == "ja"));
    !japanese && !has_kana(title)
}

/// Whether `title` has kana, which are at U+3040 to U+31FF and U+FF66 to
/// U+FF9D: only characters whose UTF-8 starts with 0xE3 or 0xEF, which
/// are found a block of bytes at a time, are decoded.
pub(super) fn has_kana(title: &str) -> bool {
    let bytes = title.as_bytes();
    let mut from = 0;
    while let Some(at) = find_byte(bytes, from, |b| (b == 0xE3) | (b == 0xEF)) {
        if title[at..].chars().next().is_some_and(script::is_kana) {
            return true;
        }
        from = at + 3;
    }
    false
}

/// Appends `run`, all of `script`, romanized, from this thread's memory of
/// runs when it has it.
fn romanize_run(script: Script, run: &str, out: &mut String) {
    thread_local! {
        static RUNS: Memory = Memory::new(MAX_RUNS, MAX_RUN_BYTES);
    }
    RUNS.with(|runs| runs.remember(run, out, |out| script.romanize(run, out)));
}

/// A run of Devanagari as Hindi readers write it (`devanagari`), from the
/// thread's memory of such runs after the first time (its own: the same
/// run reads otherwise by CLDR's transform).
fn romanize_hindi(run: &str, speech: devanagari::Speech, out: &mut String) {
    thread_local! {
        static HINDI: Memory = Memory::new(MAX_RUNS, MAX_RUN_BYTES);
        static NEPALI: Memory = Memory::new(MAX_RUNS, MAX_RUN_BYTES);
        static MARATHI: Memory = Memory::new(MAX_RUNS, MAX_RUN_BYTES);
    }
    let memory = match speech {
        devanagari::Speech::Hindi => &HINDI,
        devanagari::Speech::Nepali => &NEPALI,
        devanagari::Speech::Marathi => &MARATHI,
    };
    memory.with(|runs| runs.remember(run, out, |out| devanagari::romanize(run, speech, out)));
}

/// For `ascii: false`'s word cuts: which script written without spaces
/// `c` is of (Thai, Lao, Myanmar, Khmer, or Han and kana together, as
/// Japanese writes them in one word), as a number; `None` for the Indic
/// scripts and every other character.
pub(super) fn unspaced_script(c: char) -> Option<u8> {
    match Script::of(c) {
        Some(Script::Thai) => Some(0),
        Some(Script::Lao) => Some(1),
        Some(Script::Myanmar) => Some(2),
        Some(Script::Khmer) => Some(3),
        Some(Script::Han) => Some(4),
        Some(Script::Indic(_)) => None,
        None => script::is_kana(c).then_some(4),
    }
}

/// Whether `c` is of these scripts, for the engine's tests.
#[cfg(test)]
pub(super) fn is_script(c: char) -> bool {
    Script::of(c).is_some()
}

/// Whether `c` is kana, for the engine's tests.
#[cfg(test)]
pub(super) fn is_kana(c: char) -> bool {
    script::is_kana(c)
}

#[cfg(test)]
pub(super) mod tests {
    /// Reads 48,000 words of up to 12 characters drawn from `block` (a
    /// seeded xorshift, so every run reads the same) with `read`, and
    /// checks that each gives ASCII letters and digits only.
    pub(in crate::slug::writing) fn reads_any_to_ascii(
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
