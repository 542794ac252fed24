//! The slug engine: a pure function from a title, validated options and a
//! way to name table characters to a slug. No I/O happens here: the
//! service's pipeline (`slugd::slugger`) has the table find the names
//! first and hands them in, and the options are checked before they get
//! here (`crate::options`). What the rule version turns on is asked by
//! name ([`Switch`], `crate::rules`).
//!
//! A title goes through six stages, in this order, each a function of this
//! file:
//! 1. **entities** ([`decode_entities`]): HTML entities decoded
//!    ([`Switch::Rewrite`]); then the title in Unicode's composed form
//!    ([`compose`], [`Switch::ComposedFirst`]);
//! 2. **replacements** ([`replace`]): the request's `[from, to]` pairs, in
//!    one pass;
//! 3. **the language's reading**, by the readers of `crate::readers`, each
//!    chosen by its table: the scripts read word by word
//!    ([`read_national`], [`Switch::NationalStandards`]), the `locale`'s
//!    transform ([`romanize_language`]), the scripts read run by run
//!    ([`romanize_writing`]), and, once the table is known, Persian, Urdu
//!    and Arabic without vowel marks by the table's models of their vowels
//!    ([`read_vowels`]) and Japanese by IPADIC's readings
//!    ([`read_japanese`]);
//! 4. **words** ([`words`]): steps 1 to 6 below, over each character; with
//!    `ascii: false`, the slug in the title's own script instead
//!    (`unicode`, its own pass);
//! 5. **the cut** ([`cut`]): `max_length` and `max_bytes`, at a word
//!    boundary;
//! 6. **the fallback** ([`fallback`]): an empty slug becomes the slug of
//!    `fallback` when given.
//!
//! Stages 1 to 3 but Persian and Japanese make [`rewrite`], which the service's
//! pipeline calls first to know what to ask the table for; the others make
//! [`slugify_rewritten`]. [`slugify`] runs them all, with one fast path:
//! a title read as it is by stage 4, which stops at anything stages 1 to 3
//! would change.
//!
//! The steps of stage 4, for each character:
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
//! (`fooBar`, `APISection`); `lowercase` folds ASCII case; `stopwords`
//! drops whole words (all of them only if something is left).
//!
//! The parts:
//! - `names`: the [`SymbolNames`] trait a table implements;
//! - `entities`: stage 1's decoder;
//! - `composed`: stage 1's composition (NFC);
//! - stage 3's readers are `crate::readers`, one module a language or
//!   script, found through one table;
//! - `builder`: the pass over the title's bytes, steps 1 to 6;
//! - `classes`: the character classes and context tests the steps ask, and
//!   the cut at a word boundary;
//! - `unicode`: `ascii: false`, the slug in the title's own script (its own
//!   pass, not steps 1 to 6), and the URI form of a slug.

mod builder;
mod classes;
mod composed;
mod entities;
mod names;
mod plain;
#[cfg(test)]
mod tests;
mod unicode;

use std::borrow::Cow;

pub use crate::options::{
    MAX_SEPARATOR_LEN, OptionError, Options, Preserve, RawOptions, SEPARATOR_CHARS, Separator,
    StopWords,
};
pub use crate::readers::runs::MAX_ROMANIZED_BYTES;
pub use crate::readers::{MAX_RUN_BYTES, MAX_RUNS};
pub use crate::rules::{Rules, Switch};
pub use classes::AND;
pub use names::{NoSymbols, SymbolNames};
pub use unicode::{cut as cut_unicode, uri};

use crate::locale::SlugLocale;
use crate::readers::scan::{self, find_byte};
use crate::readers::{japanese, vowels};
use crate::readers::{runs, transforms, words as readers_words};
use builder::{Unrewritten, build};
use classes::{is_ampersand, truncate_at_word};

/// The title has nothing a slug can be made of.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the title has no letters, digits or known symbols, so its slug would be empty")]
pub struct EmptySlug;

/// Turns `title` into a slug: every stage, in order.
///
/// The fast path: with no `locale`, `ascii: true` and no `replacements`
/// that apply to the title (the usual options), the title is first read
/// as it is, in one pass of [`words`] that watches for anything the stages
/// before it would change (an entity, a run of a writing system read by
/// word, kana with readings, and with [`Switch::NationalStandards`] a
/// letter a national standard reads or composition changes) and stops
/// there: then the title goes through
/// every stage. The same slug either way, which the one-pass test proves
/// over the corpus.
pub fn slugify(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    // `replacements` that do not apply to the title rewrite nothing but
    // what the pass below stops at (a `&` may start an entity that decodes
    // to a `from`): the usual path, too.
    if !(options.locale.is_none() && options.ascii) || options.replacements.applies_to(title) {
        return slugify_rewritten(title, &rewrite(title, options), options, names);
    }
    let watch = options.rules.has(Switch::Rewrite);
    // A title that starts with a run of a writing system read by word
    // (most titles in them) goes through every stage at once, without a
    // pass that stops at its first character.
    if watch && starts_with_run(title) {
        return slugify_every_stage(title, options, names);
    }
    match words(title, options, names, watch) {
        Ok(slug) => fallback(slug, options, names),
        Err(Unrewritten) => slugify_every_stage(title, options, names),
    }
}

/// Whether `title` starts with a character of a writing system read by
/// word ([`romanize_writing`]).
#[inline]
fn starts_with_run(title: &str) -> bool {
    title
        .as_bytes()
        .first()
        .is_some_and(|&lead| scan::is_wide_lead(lead) && runs::starts_run(title, 0))
}

/// [`slugify`] of a title its one pass could not read as it is.
#[cold]
#[inline(never)]
fn slugify_every_stage(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    slugify_rewritten(title, &rewrite(title, options), options, names)
}

/// The stages before the table, stages 1 to 3 (but Japanese): the title
/// as [`decode_entities`], [`replace`], [`romanize_language`] and
/// [`romanize_writing`] leave it; borrowed when nothing changes it. The
/// service's pipeline reads it too, to ask the table for what it holds,
/// and hands it to [`slugify_rewritten`].
pub fn rewrite<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    let text = Text::surveyed(title, options);
    let text = decode_entities(text, options);
    let text = compose(text, options);
    let text = replace(text, options);
    let text = read_national(text, options);
    let text = romanize_language(text, options);
    romanize_writing(text, options)
}

/// The stages after the table, on a title [`rewrite`] has rewritten:
/// [`read_japanese`], [`words`] and the cut, [`fallback`].
///
/// `title` is the title as it was before [`rewrite`]: where no `locale`
/// fixes the language of Arabic-script words, its letters choose it, as
/// they chose it for the words rewriting read (a word with vowel marks
/// may hold the only letter that shows Urdu).
pub fn slugify_rewritten(
    title: &str,
    rewritten: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    fallback(
        words_of_rewritten(title, rewritten, options, names),
        options,
        names,
    )
}

/// [`read_japanese`], then [`words`] and the cut, of a rewritten title;
/// with `ascii: false`, the slug in the title's own script
/// (`unicode::slug`, its own words and cut).
#[inline]
fn words_of_rewritten(
    title: &str,
    rewritten: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    if !options.ascii {
        return unicode::slug(rewritten, options, names).ok_or(EmptySlug);
    }
    // Japanese first: the table's readings were fetched for the first
    // bytes of the title as the table saw it.
    let japanese = read_japanese(rewritten, options, names);
    match words(
        &read_vowels(&japanese, title, options, names),
        options,
        names,
        false,
    ) {
        Ok(slug) => slug,
        Err(Unrewritten) => unreachable!("only a watching pass stops"),
    }
}

/// Persian, Urdu and Arabic written without vowel marks, read by the
/// table's model of the language's vowels ([`Switch::PersianVowels`],
/// [`Switch::UrduVowels`], [`Switch::ArabicVowels`];
/// `crate::readers::vowels`) when the title is
/// read in that language, the letters of `title` (before it was
/// rewritten) and of `text` showing it where no `locale` fixes it; then
/// Hebrew without points, by Hebrew's ([`Switch::HebrewVowels`]), without
/// a locale or with `he`; borrowed otherwise. After the table, since the
/// models are the table's.
#[inline]
fn read_vowels<'t>(
    text: &'t str,
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Cow<'t, str> {
    if !options.reads_vowels() {
        return Cow::Borrowed(text);
    }
    let read = match arabic_script_read_as(text, title, options) {
        Some(language) => match names.vowels(language) {
            Some(model) => vowels::read_words(text, model, vowels_style(language, options)),
            None => Cow::Borrowed(text),
        },
        None => Cow::Borrowed(text),
    };
    match (
        hebrew_read(&read, options),
        names.vowels(vowels::Language::Hebrew),
    ) {
        (true, Some(model)) => match vowels::read_words(&read, model, vowels::Style::default()) {
            Cow::Borrowed(_) => read,
            Cow::Owned(hebrew) => Cow::Owned(hebrew),
        },
        _ => read,
    }
}

/// The Arabic-script language whose model reads `text` (rewritten from
/// `title`) under `options`, if any: where it has the script's letters
/// and its version reads that language by a model.
#[inline]
fn arabic_script_read_as(text: &str, title: &str, options: &Options) -> Option<vowels::Language> {
    // The Arabic block's UTF-8 starts with 0xD8 to 0xDB: most titles have
    // none, and then the language need not be read from the letters.
    if find_byte(text.as_bytes(), 0, |b| (0xD8..=0xDB).contains(&b)).is_none()
        || !vowels::has_letters(text)
    {
        return None;
    }
    crate::readers::vowels_read_as(title, text, options.locale.as_ref(), options.rules)
        .filter(|language| options.rules.has(language.switch()))
}

/// Whether `text`'s Hebrew is read by Hebrew's model under `options`:
/// [`Switch::HebrewVowels`], no locale or `he`, and Hebrew letters (whose
/// UTF-8 starts with 0xD7).
#[inline]
fn hebrew_read(text: &str, options: &Options) -> bool {
    options.rules.has(Switch::HebrewVowels)
        && options
            .locale
            .as_ref()
            .is_none_or(|locale| locale.language() == "he")
        && find_byte(text.as_bytes(), 0, |b| b == 0xD7).is_some()
        && vowels::Language::Hebrew.has_letters(text)
}

/// How `options` read `language`'s words beyond its model's letters:
/// rules 7's Arabic names, and the Maghreb's with `ar-DZ`, `ar-MA` or
/// `ar-TN`.
fn vowels_style(language: vowels::Language, options: &Options) -> vowels::Style {
    let names = language == vowels::Language::Arabic && options.rules.has(Switch::ArabicNames);
    let region = match &options.locale {
        Some(locale) if names && options.rules.has(Switch::MaghrebArabic) => {
            vowels::names::Region::of_tags(locale.fallbacks().iter().map(String::as_str))
        }
        _ => None,
    };
    vowels::Style { names, region }
}

/// The language whose model of vowels `title` would be read by, when
/// `has_model` says the table holds no such model: the title's words in
/// that language are then read letter by letter, as rules 5 read them
/// (what the service warns of as `reading_not_loaded`). `None` when the
/// title needs no model or its model is there. The same tests
/// [`read_vowels`] makes, on the title as given.
pub fn reading_not_loaded(
    title: &str,
    options: &Options,
    has_model: impl Fn(vowels::Language) -> bool,
) -> Option<vowels::Language> {
    if !options.reads_vowels() {
        return None;
    }
    arabic_script_read_as(title, title, options)
        .filter(|&language| !has_model(language))
        .or_else(|| {
            (hebrew_read(title, options) && !has_model(vowels::Language::Hebrew))
                .then_some(vowels::Language::Hebrew)
        })
}

/// A title on its way through the stages before the table, with what one
/// scan found in it while it is as it was scanned.
struct Text<'t> {
    text: Cow<'t, str>,
    survey: Survey,
    /// Whether the text may hold what rules 5's composition or national
    /// standards change (`readers::scan::may_apply`): found once, and taken to
    /// be so once a stage changes the text.
    national: bool,
}

/// What the scan of a title found for [`decode_entities`] and
/// [`romanize_writing`]: most titles have neither, and then both stages
/// cost nothing more.
#[derive(Clone, Copy)]
enum Survey {
    /// The title as it was scanned: whether it has a `&` (which may start
    /// an entity), and where its first run of a writing system read by
    /// word starts.
    Scanned {
        entity: bool,
        first_run: Option<usize>,
    },
    /// A stage changed the text: a stage that needs to know looks itself.
    Changed,
}

impl<'t> Text<'t> {
    /// `title`, scanned once, a block of bytes at a time ([`find_byte`]),
    /// when the version rewrites it and the slug is ASCII.
    #[inline]
    fn surveyed(title: &'t str, options: &Options) -> Self {
        let survey = if options.rules.has(Switch::Rewrite) && options.ascii {
            let bytes = title.as_bytes();
            let (entity, first_run) = match runs::first_run_or(title, 0, is_ampersand) {
                None => (false, None),
                Some(at) if bytes[at] == b'&' => (true, runs::first_run(title, at + 1)),
                Some(at) => (find_byte(bytes, at, is_ampersand).is_some(), Some(at)),
            };
            Survey::Scanned { entity, first_run }
        } else {
            Survey::Changed
        };
        Text {
            text: Cow::Borrowed(title),
            survey,
            national: options.rules.has(Switch::ComposedFirst) && scan::may_apply(title),
        }
    }

    /// The text after `stage`: as it was when the stage borrows it, else
    /// what the stage wrote, whose survey no longer holds.
    #[inline]
    fn then(self, stage: impl for<'a> FnOnce(&'a str) -> Cow<'a, str>) -> Self {
        let written = match stage(&self.text) {
            Cow::Borrowed(_) => None,
            Cow::Owned(written) => Some(written),
        };
        match written {
            None => self,
            Some(written) => Text {
                text: Cow::Owned(written),
                survey: Survey::Changed,
                national: true,
            },
        }
    }
}

/// Stage 1, entities: HTML entities decoded, with [`Switch::Rewrite`].
#[inline]
fn decode_entities<'t>(text: Text<'t>, options: &Options) -> Text<'t> {
    let entity = match text.survey {
        Survey::Scanned { entity, .. } => entity,
        // Not scanned (`ascii: false`): look for a `&` alone.
        Survey::Changed => {
            options.rules.has(Switch::Rewrite)
                && find_byte(text.text.as_bytes(), 0, is_ampersand).is_some()
        }
    };
    match entity {
        false => text,
        true => text.then(entities::decode),
    }
}

/// Stage 1, normalization: the title in Unicode's composed form (NFC),
/// with [`Switch::ComposedFirst`] (`composed::compose`).
#[inline]
fn compose<'t>(text: Text<'t>, options: &Options) -> Text<'t> {
    match text.national && options.rules.has(Switch::ComposedFirst) {
        true => text.then(composed::compose),
        false => text,
    }
}

/// Stage 3, the languages read by their national standards, with
/// [`Switch::NationalStandards`] and an ASCII slug (`readers::words`): Korean,
/// Greek, the languages written in Cyrillic, Arabic script with its vowel
/// marks, before the `locale`'s transform. A title the scan found none of
/// them in is passed over, unless a locale (Serbian's) reads Latin `đ`.
#[inline]
fn read_national<'t>(text: Text<'t>, options: &Options) -> Text<'t> {
    match (text.national || options.locale.is_some())
        && options.rules.has(Switch::NationalStandards)
        && options.ascii
    {
        true => text.then(|t| readers_words::romanize(t, options.locale.as_ref(), options.rules)),
        false => text,
    }
}

/// Stage 2, replacements: the request's `[from, to]` pairs, in one pass.
#[inline]
fn replace<'t>(text: Text<'t>, options: &Options) -> Text<'t> {
    text.then(|t| options.replacements.apply(t))
}

/// Stage 3, the `locale`'s transform, for an ASCII slug
/// (`crate::readers::transforms`).
#[inline]
fn romanize_language<'t>(text: Text<'t>, options: &Options) -> Text<'t> {
    match &options.locale {
        Some(locale) if options.ascii => {
            text.then(|t| transforms::romanize(locale, t, options.rules))
        }
        _ => text,
    }
}

/// Stage 3, the reading of writing systems the engine cannot read letter
/// by letter, with [`Switch::Rewrite`] and an ASCII slug: romanized run
/// by run (`readers::runs`). From the run the survey found, when no stage
/// changed the title.
#[inline]
fn romanize_writing<'t>(text: Text<'t>, options: &Options) -> Cow<'t, str> {
    if !(options.rules.has(Switch::Rewrite) && options.ascii) {
        return text.text;
    }
    match (text.survey, text.text) {
        (
            Survey::Scanned {
                first_run: None, ..
            },
            title,
        ) => title,
        (
            Survey::Scanned {
                first_run: Some(first),
                ..
            },
            Cow::Borrowed(title),
        ) => runs::romanize_from(title, first, options),
        (_, title) => romanize_written(title, options),
    }
}

/// [`romanize_writing`] of a text a stage wrote, which the survey did not
/// read.
#[cold]
#[inline(never)]
fn romanize_written<'t>(text: Cow<'t, str>, options: &Options) -> Cow<'t, str> {
    match runs::romanize(&text, options) {
        Cow::Borrowed(_) => text,
        Cow::Owned(romanized) => Cow::Owned(romanized),
    }
}

/// Stage 3's last reading, the one that needs the table: Japanese read as
/// Japanese (`crate::readers::japanese`), with [`Switch::JapaneseReadings`], where
/// the table has IPADIC's readings, in a title with kana, or with a
/// Japanese `locale` in one with kanji. Kanji the dictionary cannot read
/// are left to [`words`], which reads them as Chinese. With a Japanese
/// `locale` its romanization comes after (the transforms stage,
/// `crate::readers::transforms`, leaves it out),
/// so without readings the slug is that of the version before. Borrowed
/// when nothing changes.
#[inline]
fn read_japanese<'t>(text: &'t str, options: &Options, names: &impl SymbolNames) -> Cow<'t, str> {
    if !options.rules.has(Switch::JapaneseReadings) {
        return Cow::Borrowed(text);
    }
    let locale = options.locale.as_ref().filter(|l| l.is_japanese());
    let counters = options.rules.has(Switch::JapaneseCounters);
    if !names.has_readings() && options.rules.has(Switch::KanaInHepburn) {
        return match (kana_in_hepburn(text), locale) {
            (read, None) => read,
            (Cow::Borrowed(text), Some(_)) => read_japanese_with(text, locale, counters, names),
            (Cow::Owned(read), Some(_)) => {
                Cow::Owned(read_japanese_with(&read, locale, counters, names).into_owned())
            }
        };
    }
    if locale.is_none() && !names.has_readings() {
        return Cow::Borrowed(text);
    }
    read_japanese_with(text, locale, counters, names)
}

/// `text` with its kana in Hepburn, as the readings write it without a
/// dictionary to read them by (rules 6, where the table has no readings):
/// each run of kana as one word with what stands beside it, as before.
/// Borrowed when it has none.
#[cold]
fn kana_in_hepburn(text: &str) -> Cow<'_, str> {
    // Kana's UTF-8 starts with 0xE3 or 0xEF: most titles have neither,
    // and only those characters are decoded.
    if !runs::has_wide(text, japanese::is_kana) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(japanese::is_kana) {
        out.push_str(&rest[..start]);
        let run = &rest[start..];
        let end = run.find(|c| !japanese::is_kana(c)).unwrap_or(run.len());
        japanese::hepburn::romanize_into(&run[..end], japanese::Kind::Other, &mut out);
        rest = &run[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// [`read_japanese`] where it may change the title.
#[cold]
#[inline(never)]
fn read_japanese_with<'t>(
    text: &'t str,
    japanese_locale: Option<&SlugLocale>,
    counters: bool,
    names: &impl SymbolNames,
) -> Cow<'t, str> {
    let read = if names.has_readings() && japanese::is_japanese(text, japanese_locale.is_some()) {
        // Only the first bytes are read ([`japanese::MAX_READ_BYTES`]);
        // the Redis pipeline asks for the keys of the same part.
        let (head, tail) = japanese::read_part(text);
        let mut read = japanese::read_to_string(head, counters, |form| names.reading(form));
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

/// Stages 4 and 5, words and the cut: steps 1 to 6 over the title
/// ([`build`]), then `max_length` and `max_bytes` ([`cut`]). With `watch`,
/// of a title no stage before has read, which stops at what they would
/// change ([`build`]).
#[inline]
fn words(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
    watch: bool,
) -> Result<Result<String, EmptySlug>, Unrewritten> {
    let extras = !options.stopwords.is_empty()
        || options.decamelize
        || options.preserve != Preserve::default();
    let mut slug = if extras {
        words_with_extras(title, options, names, watch)?
    } else {
        build::<false>(title, options, names, None, watch)?.0
    };
    cut(&mut slug, options);
    if slug.is_empty() {
        return Ok(Err(EmptySlug));
    }
    Ok(Ok(slug))
}

/// [`build`] with `stopwords`, `decamelize` or `preserve`: kept apart so the
/// usual path is one call of the plain builder.
#[cold]
#[inline(never)]
fn words_with_extras(
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

/// Stage 5, the cut of an ASCII slug: at a word boundary within
/// `max_length` and `max_bytes`.
#[inline]
fn cut(slug: &mut String, options: &Options) {
    if let Some(max) = options.ascii_limit() {
        truncate_at_word(slug, max.get(), options.separator.as_str());
    }
}

/// Stage 6, the fallback: `slug`, or the slug of the `fallback` title
/// (every stage but this one) when it is empty and there is one.
#[inline]
fn fallback(
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
/// inlines one [`words`].
#[cold]
#[inline(never)]
fn slug_of_fallback(
    fallback: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    words_of_rewritten(fallback, &rewrite(fallback, options), options, names)
}
