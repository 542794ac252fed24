//! The slug engine: a pure function from a title, validated options and a
//! way to name table characters to a slug. No I/O happens here: the
//! pipeline (`crate::slugger`) has the table find the names first and hands
//! them in, and the options are checked before they get here
//! (`crate::options`).
//!
//! First `replacements` rewrite the title. Then the steps, in order, for
//! each character:
//! 1. an ASCII letter or digit is kept;
//! 2. in context, a few characters join or read as words:
//!    - an apostrophe (`'`, `’`, `ʼ`) between letters or digits leaves no
//!      trace (`don't` is `dont`); elsewhere it separates, like quotes;
//!    - a comma between digits followed by exactly three digits leaves no
//!      trace (`1,000,000` is `1000000`); other commas separate;
//!    - `&` reads as the word `and` when a word was written before it and
//!      the next character but spaces starts one (a letter, digit or
//!      symbol);
//!    - `×` between digits reads `x`: one word when they touch it
//!      (`1920×1080`), a word of its own across spaces (`3 × 4`);
//!    - a character of `preserve` between letters or digits is kept;
//!    - the Cyrillic soft and hard signs (`ь`, `ъ`) leave no trace, and so
//!      do the primes (`ʹ`, `ʺ`) romanizations write for them;
//! 3. any other ASCII character separates words (ASCII is never looked up
//!    in the table, except as the base of a keycap);
//! 4. when `symbols` is on, an emoji sequence the table names (a flag, a
//!    keycap such as `1️⃣` whose digit stands alone, a ZWJ or skin-tone
//!    sequence: the longest that matches, U+FE0F aside) becomes its CLDR
//!    name, and a character of the symbol table its name, as separate
//!    words;
//! 5. a combining mark, variation selector, joiner or other format character
//!    leaves no trace: only letters or digits of its transliteration are kept
//!    (so `e` + U+0301 is `e`, and U+FE0F after ❤ does nothing);
//! 6. any other character is transliterated by deunicode, and what is not a
//!    letter or digit in the result separates words.
//!
//! Every run of separating characters becomes one separator, never at
//! either end; `decamelize` ends words at case changes of what is written
//! (`fooBar`, `APISection`); `lowercase` folds ASCII case; `stopwords` drops whole words
//! (all of them only if something is left); `max_length` cuts at a word
//! boundary; an empty slug becomes the slug of `fallback` when given.
//!
//! This file holds the entry points (`slugify`, `rewrite`) and the steps
//! around one pass over the title: the extras, the cut, the fallback. The
//! parts:
//! - `names`: the [`SymbolNames`] trait a table implements;
//! - `builder`: the pass over the title's bytes, steps 1 to 6;
//! - `classes`: the character classes and context tests the steps ask, and
//!   the cut at a word boundary;
//! - `writing`: the writing systems romanized word by word (rules 2):
//!   Indic scripts; Thai, Lao, Khmer and Myanmar cut into words; Chinese
//!   by word;
//! - `unicode`: `ascii: false`, the slug in the title's own script (its own
//!   pass, not steps 1 to 6), and the URI form of a slug.

mod builder;
mod classes;
mod entities;
mod names;
mod plain;
#[cfg(test)]
mod tests;
mod unicode;
mod writing;

use std::borrow::Cow;

pub use crate::options::{
    MAX_SEPARATOR_LEN, OptionError, Options, Preserve, RawOptions, SEPARATOR_CHARS, Separator,
    StopWords,
};
pub use crate::rules::{Rules, Switch};
pub use classes::AND;
pub use names::{NoSymbols, SymbolNames};
pub use unicode::{cut as cut_unicode, uri};
pub use writing::{MAX_ROMANIZED_BYTES, MAX_RUN_BYTES, MAX_RUNS};

use crate::japanese;
use crate::locale::SlugLocale;
use builder::{Unrewritten, build};
use classes::{find_byte, is_ampersand, truncate_at_word};

/// The title has nothing a slug can be made of.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the title has no letters, digits or known symbols, so its slug would be empty")]
pub struct EmptySlug;

/// Turns `title` into a slug.
///
/// With no `locale` (the usual options) and no `replacements` that apply
/// to it, the title is read as it is in one pass, and rewritten only when
/// that pass meets what rules 2 rewrite ([`build`]'s `watch`): the same
/// slug as [`slugify_rewritten`] of [`rewrite`], without the survey.
pub fn slugify(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    // `replacements` that do not apply to the title rewrite nothing but
    // what the pass below stops at (a `&` may start an entity that decodes
    // to a `from`): the usual path, too.
    if !(options.locale.is_none() && options.ascii) || options.replacements.applies_to(title) {
        return slugify_rewritten(&rewrite(title, options), options, names);
    }
    let watch = options.rules.has(Switch::Rewrite);
    // A title that starts with a run of the scripts (most titles in them)
    // goes straight to the rewrite, without a pass that stops at once.
    if watch && starts_with_run(title) {
        return slugify_unrewritten(title, options, names);
    }
    match slug_in(title, options, names, watch) {
        Ok(slug) => or_fallback(slug, options, names),
        Err(Unrewritten) => slugify_unrewritten(title, options, names),
    }
}

/// Whether `title` starts with a character of the scripts rules 2
/// romanize.
#[inline]
fn starts_with_run(title: &str) -> bool {
    title
        .as_bytes()
        .first()
        .is_some_and(|&lead| classes::is_wide_lead(lead) && writing::starts_run(title, 0))
}

/// [`slugify`] of a title whose pass met what rules 2 rewrite.
#[cold]
#[inline(never)]
fn slugify_unrewritten(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    slugify_rewritten(&rewrite(title, options), options, names)
}

/// Turns a title that [`rewrite`] has already rewritten into a slug: the
/// pipeline rewrites each title once, to ask the table for what it holds,
/// and hands it on.
pub fn slugify_rewritten(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    if !options.ascii {
        let slug = unicode::slug(title, options, names).ok_or(EmptySlug);
        return or_fallback(slug, options, names);
    }
    let slug = slug_of(&read_japanese(title, options, names), options, names);
    or_fallback(slug, options, names)
}

/// `slug`, or the slug of the `fallback` when it is empty and there is one.
#[inline]
fn or_fallback(
    slug: Result<String, EmptySlug>,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    match (&slug, &options.fallback) {
        (Err(EmptySlug), Some(fallback)) => slug_of_fallback(fallback, options, names),
        _ => slug,
    }
}

/// The slug of the `fallback` title: out of line, so that the usual path
/// inlines one [`slug_of`].
#[cold]
#[inline(never)]
fn slug_of_fallback(
    fallback: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    let rewritten = rewrite(fallback, options);
    if !options.ascii {
        return unicode::slug(&rewritten, options, names).ok_or(EmptySlug);
    }
    slug_of(&read_japanese(&rewritten, options, names), options, names)
}

/// Rules 3's last rewrite, the one that needs the table: Japanese read as
/// Japanese (`crate::japanese`) where the table has IPADIC's readings, in a
/// title with kana, or with a Japanese `locale` in one with kanji. Kanji
/// the dictionary cannot read are left to the engine, which reads them as
/// rules 2 do. With a Japanese `locale` its romanization comes after
/// ([`rewrite`] leaves it out), so without readings rules 3 give rules 2's
/// slugs. Borrowed when nothing changes.
#[inline]
fn read_japanese<'t>(text: &'t str, options: &Options, names: &impl SymbolNames) -> Cow<'t, str> {
    if !options.rules.has(Switch::JapaneseReadings) {
        return Cow::Borrowed(text);
    }
    let locale = options.locale.as_ref().filter(|l| l.is_japanese());
    if locale.is_none() && !names.has_readings() {
        return Cow::Borrowed(text);
    }
    read_japanese_with(text, locale, names)
}

/// [`read_japanese`] where it may change the title.
#[cold]
#[inline(never)]
fn read_japanese_with<'t>(
    text: &'t str,
    japanese_locale: Option<&SlugLocale>,
    names: &impl SymbolNames,
) -> Cow<'t, str> {
    let read = if names.has_readings() && japanese::is_japanese(text, japanese_locale.is_some()) {
        // Only the first bytes are read ([`japanese::MAX_READ_BYTES`]);
        // the Redis pipeline asks for the keys of the same part.
        let (head, tail) = japanese::read_part(text);
        let mut read = japanese::read_to_string(head, |form| names.reading(form));
        read.push_str(tail);
        Cow::Owned(read)
    } else {
        Cow::Borrowed(text)
    };
    let Some(locale) = japanese_locale else {
        return read;
    };
    match locale.romanize_v2(&read) {
        Cow::Borrowed(_) => read,
        Cow::Owned(romanized) => Cow::Owned(romanized),
    }
}

/// The title as the options rewrite it before its characters are read:
/// `replacements`, then the `locale`'s romanization; with rules 2, HTML
/// entities are decoded before anything else, and the scripts the engine
/// cannot read letter by letter are romanized word by word after
/// (`writing`). Borrowed when nothing changes it. The pipeline reads it
/// too, to ask the table for what it holds.
pub fn rewrite<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    if !options.rules.has(Switch::Rewrite) {
        return rewrite_plain(title, options);
    }
    if !options.ascii {
        return rewrite_unicode(title, options);
    }
    match survey(title) {
        // The usual title: nothing but what rules 1 rewrite.
        (false, None) => match replace_and_romanize(title, options, romanizer(options)) {
            Cow::Borrowed(_) => Cow::Borrowed(title),
            Cow::Owned(text) => romanize_replaced(text, options),
        },
        (entity, first_run) => rewrite_marked(title, options, entity, first_run),
    }
}

/// [`rewrite`] of a title the survey marked: it has a `&` (`entity`) or a
/// run of the scripts, the first at `first_run`.
#[cold]
#[inline(never)]
fn rewrite_marked<'t>(
    title: &'t str,
    options: &Options,
    entity: bool,
    first_run: Option<usize>,
) -> Cow<'t, str> {
    let decoded = if entity {
        entities::decode(title)
    } else {
        Cow::Borrowed(title)
    };
    let rewritten = match replace_and_romanize(&decoded, options, romanizer(options)) {
        Cow::Borrowed(_) => decoded,
        Cow::Owned(text) => return romanize_replaced(text, options),
    };
    // Borrowed, the text is the title as it was, whose runs are where the
    // survey found them.
    let romanized = match (&rewritten, first_run) {
        (Cow::Borrowed(_), Some(first)) => writing::romanize_from(title, first, options),
        (Cow::Borrowed(_), None) => return rewritten,
        (Cow::Owned(text), _) => writing::romanize(text, options),
    };
    match romanized {
        Cow::Borrowed(_) => rewritten,
        Cow::Owned(text) => Cow::Owned(text),
    }
}

/// The scripts romanized in a title that `replacements` or the `locale`
/// rewrote, which the survey did not read.
#[cold]
#[inline(never)]
fn romanize_replaced<'t>(text: String, options: &Options) -> Cow<'t, str> {
    match writing::romanize(&text, options) {
        Cow::Borrowed(_) => Cow::Owned(text),
        Cow::Owned(romanized) => Cow::Owned(romanized),
    }
}

/// One scan of `title`'s bytes for what rules 2 rewrite: whether it has a
/// `&` (which may start an entity), and where the first character of the
/// scripts (`writing`) starts. Most titles have neither, and the scan
/// passes over their bytes a block at a time ([`find_byte`]).
#[inline]
fn survey(title: &str) -> (bool, Option<usize>) {
    let bytes = title.as_bytes();
    match writing::first_run_or(title, 0, is_ampersand) {
        None => (false, None),
        Some(at) if bytes[at] == b'&' => (true, writing::first_run(title, at + 1)),
        Some(at) => (find_byte(bytes, at, is_ampersand).is_some(), Some(at)),
    }
}

/// How rules 2 and later romanize the `locale`'s letters in [`rewrite`]:
/// [`SlugLocale::romanize_v2`], except that rules 3 romanize a Japanese
/// locale's only after reading Japanese ([`read_japanese`]), which needs
/// its kana, and rules 4 leave Arabic, Persian and Pashto to the scripts'
/// own reading, as without a locale ([`SlugLocale::drops_letters`]).
#[inline]
fn romanizer(options: &Options) -> for<'a> fn(&SlugLocale, &'a str) -> Cow<'a, str> {
    match &options.locale {
        Some(locale) if options.rules.has(Switch::JapaneseReadings) && locale.is_japanese() => {
            |_, text| Cow::Borrowed(text)
        }
        Some(locale) if options.rules.has(Switch::ArabicScriptAsIs) && locale.drops_letters() => {
            |_, text| Cow::Borrowed(text)
        }
        _ => SlugLocale::romanize_v2,
    }
}

/// [`rewrite`] for `ascii: false`: HTML entities decoded, then
/// `replacements`; nothing is romanized.
#[cold]
#[inline(never)]
fn rewrite_unicode<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    let decoded = match find_byte(title.as_bytes(), 0, is_ampersand) {
        Some(_) => entities::decode(title),
        None => Cow::Borrowed(title),
    };
    match (options.replacements.apply(&decoded), &decoded) {
        (Cow::Owned(text), _) => Cow::Owned(text),
        (Cow::Borrowed(_), _) => decoded,
    }
}

/// [`rewrite`] without [`Switch::Rewrite`]: `replacements`, then the
/// `locale`'s romanization.
fn rewrite_plain<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    replace_and_romanize(title, options, SlugLocale::romanize)
}

/// `replacements`, then the `locale`'s romanization by `romanize` (rules
/// 2 spell a language's own letters first: [`SlugLocale::romanize_v2`]).
#[inline]
fn replace_and_romanize<'t>(
    title: &'t str,
    options: &Options,
    romanize: for<'a> fn(&SlugLocale, &'a str) -> Cow<'a, str>,
) -> Cow<'t, str> {
    let replaced = options.replacements.apply(title);
    let Some(locale) = &options.locale else {
        return replaced;
    };
    match romanize(locale, &replaced) {
        Cow::Borrowed(_) => replaced,
        Cow::Owned(romanized) => Cow::Owned(romanized),
    }
}

/// [`build`] with `stopwords`, `decamelize` or `preserve`: kept apart so the
/// usual path is one call of the plain builder.
#[cold]
#[inline(never)]
fn with_extras(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
    watch: bool,
) -> Result<String, Unrewritten> {
    let stopwords = (!options.stopwords.is_empty()).then_some(&options.stopwords);
    let (slug, dropped) = build::<true>(title, options, names, stopwords, watch)?;
    if slug.is_empty() && dropped {
        // Only stopwords: keep them all rather than answer nothing.
        return Ok(build::<true>(title, options, names, None, watch)?.0);
    }
    Ok(slug)
}

/// The slug of one rewritten title, without the fallback.
#[inline]
fn slug_of(title: &str, options: &Options, names: &impl SymbolNames) -> Result<String, EmptySlug> {
    match slug_in(title, options, names, false) {
        Ok(slug) => slug,
        Err(Unrewritten) => unreachable!("only a watching build stops"),
    }
}

/// The slug of one title, without the fallback; with `watch`, of a title
/// not rewritten, which stops at what rules 2 rewrite ([`build`]).
#[inline]
fn slug_in(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
    watch: bool,
) -> Result<Result<String, EmptySlug>, Unrewritten> {
    let extras = !options.stopwords.is_empty()
        || options.decamelize
        || options.preserve != Preserve::default();
    let mut slug = if extras {
        with_extras(title, options, names, watch)?
    } else {
        build::<false>(title, options, names, None, watch)?.0
    };
    if let Some(max) = options.ascii_limit() {
        truncate_at_word(&mut slug, max.get(), options.separator.as_str());
    }
    if slug.is_empty() {
        return Ok(Err(EmptySlug));
    }
    Ok(Ok(slug))
}
