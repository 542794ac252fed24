//! Rules 2: the scripts the engine cannot read letter by letter, romanized
//! run by run before it reads the title (`crate::slug::rewrite`, after
//! `replacements` and the `locale`):
//!
//! - Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu,
//!   Kannada, Malayalam and Sinhala by CLDR's script transforms, so their
//!   vowels stay (`नमस्ते` is `namaste`, not deunicode's `nmste`);
//! - Thai, Lao, Khmer and Myanmar, written without spaces, cut into words
//!   by ICU4X's word segmenter, each word a slug word: Thai romanized by
//!   CLDR's Thai-Latin rules, Myanmar by CLDR's `my-Latn-t-my`, Lao and
//!   Khmer left to deunicode word by word;
//! - Han cut into words by the segmenter's dictionary, each word's pinyin
//!   syllables written together (`北京大学` is `Beijing Daxue`), digits
//!   beside them words of their own. Not in a title that has kana, nor with
//!   a Japanese `locale`: Japanese reads Han otherwise (issue 20), and such
//!   titles keep rules 1's syllables.
//!
//! A title without any of these scripts is borrowed back after one scan of
//! its characters (none for ASCII), so rules 2 costs titles that do not
//! need it next to nothing. Runs are cut in pieces of at most
//! [`MAX_RUN_BYTES`], and only the first [`MAX_ROMANIZED_BYTES`] of them
//! in a title are romanized, so that no title costs more than a bounded
//! amount of work. Each thread remembers the runs it has
//! romanized (up to [`MAX_RUNS`] of at most [`MAX_RUN_BYTES`]): the
//! segmenter and ICU4X's transliterator take microseconds per run, and
//! titles repeat words.
//!
//! The parts: `script` says which script a character is in and romanizes
//! a run of one; `thai` builds CLDR's Thai-Latin from its rule source;
//! `memory` is a thread's bounded memory of what it has romanized, of
//! runs here and of words in `script` (so that a long run, which is not
//! kept, costs the segmenter and a lookup per word).

mod script;
mod thai;

use std::borrow::Cow;

use crate::options::Options;
use crate::remembered::Memory;
use script::Script;
pub use script::{MAX_RUN_BYTES, MAX_RUNS};

/// Most bytes of these scripts a title has romanized by rules 2: runs past
/// them are left as rules 1 reads them. A title is far shorter; a request
/// of a megabyte of distinct Han characters would otherwise cost a CLDR
/// transliteration (tens of microseconds) per character.
pub const MAX_ROMANIZED_BYTES: usize = 1024;

/// The title with those scripts romanized; borrowed when it has none.
pub(super) fn romanize<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    if title.is_ascii() {
        return Cow::Borrowed(title);
    }
    let Some(first) = title.find(|c| Script::of(c).is_some()) else {
        return Cow::Borrowed(title);
    };
    rewrite_runs(title, first, options)
}

/// [`romanize`] from byte `first`, where the first run starts.
#[cold]
#[inline(never)]
fn rewrite_runs<'t>(title: &'t str, first: usize, options: &Options) -> Cow<'t, str> {
    let mut han = None;
    let mut out = String::with_capacity(title.len() * 2);
    out.push_str(&title[..first]);
    let mut rest = &title[first..];
    let mut changed = false;
    let mut budget = MAX_ROMANIZED_BYTES;
    while let Some(c) = rest.chars().next() {
        let Some(script) = Script::of(c) else {
            let end = rest.find(|c| Script::of(c).is_some()).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        };
        let end = rest
            .char_indices()
            .find(|&(_, c)| !script.continues(c))
            .map_or(rest.len(), |(i, _)| i);
        let (run, after) = rest.split_at(end);
        rest = after;
        if script == Script::Han && !*han.get_or_insert_with(|| reads_han(title, options)) {
            out.push_str(run);
            continue;
        }
        if run.len() > budget {
            out.push_str(run);
            continue;
        }
        budget -= run.len();
        changed = true;
        let spaced = script.words_of_their_own();
        for chunk in chunks(script, run) {
            if spaced {
                out.push(' ');
            }
            romanize_run(script, chunk, &mut out);
        }
        if spaced {
            out.push(' ');
        }
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(title)
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

/// Whether Han in `title` is read as Chinese: not in a title with kana, nor
/// with a Japanese `locale`.
fn reads_han(title: &str, options: &Options) -> bool {
    let japanese = options
        .locale
        .as_ref()
        .is_some_and(|l| l.fallbacks().iter().any(|t| t == "ja"));
    !japanese && !title.chars().any(script::is_kana)
}

/// Appends `run`, all of `script`, romanized, from this thread's memory of
/// runs when it has it.
fn romanize_run(script: Script, run: &str, out: &mut String) {
    thread_local! {
        static RUNS: Memory = Memory::new(MAX_RUNS, MAX_RUN_BYTES);
    }
    RUNS.with(|runs| runs.remember(run, out, |out| script.romanize(run, out)));
}
