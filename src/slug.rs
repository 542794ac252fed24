//! The slug engine: a pure function from a title, validated options and a
//! way to name table characters to a slug. No I/O happens here: the
//! pipeline (`crate::slugger`) has the table find the names first and hands
//! them in, and the options are checked before they get here
//! (`crate::options`).
//!
//! First `replacements` rewrite the title. Then the rules, in order, for
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

use std::borrow::Cow;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

pub use crate::options::{
    MAX_SEPARATOR_LEN, OptionError, Options, Preserve, RawOptions, SEPARATOR_CHARS, Separator,
    StopWords,
};

/// Names characters of the symbol table. `None` means "not a table
/// character": the engine transliterates it instead.
pub trait SymbolNames {
    /// The trimmed name of `c`, when `c` is a table character.
    fn name(&self, c: char) -> Option<&str>;

    /// The name of the longest emoji sequence (two characters or more,
    /// U+FE0F aside) at the start of `text`, with the bytes it covers.
    #[inline]
    fn sequence(&self, text: &str) -> Option<(usize, &str)> {
        let _ = text;
        None
    }
}

/// No table at all: every character is transliterated.
pub struct NoSymbols;

impl SymbolNames for NoSymbols {
    fn name(&self, _: char) -> Option<&str> {
        None
    }
}

impl<V: AsRef<str>, S: std::hash::BuildHasher> SymbolNames
    for std::collections::HashMap<char, V, S>
{
    fn name(&self, c: char) -> Option<&str> {
        self.get(&c).map(AsRef::as_ref)
    }
}

/// The title has nothing a slug can be made of.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the title has no letters, digits or known symbols, so its slug would be empty")]
pub struct EmptySlug;

/// Whether a character should leave no trace: combining marks, variation
/// selectors, joiners, bidi controls and other format characters.
fn is_traceless(c: char) -> bool {
    match c {
        // The big blocks of letters that deunicode spells with a trailing
        // space (CJK ideographs, Hangul syllables) hold no marks: skip the
        // category look-up for them.
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}' => false,
        // Variation selectors 17-256.
        '\u{E0100}'..='\u{E01EF}' => true,
        _ => matches!(
            c.general_category(),
            GeneralCategory::NonspacingMark
                | GeneralCategory::SpacingMark
                | GeneralCategory::EnclosingMark
                | GeneralCategory::Format
        ),
    }
}

/// The word `&` reads as between words, without a `locale`.
pub const AND: &str = "and";

/// For each byte: itself if an ASCII letter or digit, folded to lowercase
/// when `LOWER`; 0 otherwise. One load replaces range checks and folding.
const fn alnum_table(fold: bool) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        if byte.is_ascii_alphanumeric() {
            table[b] = if fold {
                byte.to_ascii_lowercase()
            } else {
                byte
            };
        }
        b += 1;
    }
    table
}

static LOWERED: [u8; 256] = alnum_table(true);
static AS_IS: [u8; 256] = alnum_table(false);

/// Builds the slug. A separator is written as soon as a word ends and
/// taken back if nothing follows, which keeps the path for letters and
/// digits to one push.
///
/// `EXTRAS` is whether any of `stopwords`, `decamelize` and `preserve` is
/// on: without them (the usual case) their checks are compiled out of the
/// per-byte and per-word paths.
struct Builder<'a, const EXTRAS: bool> {
    /// ASCII only. A `String` rather than bytes, so that it becomes the
    /// slug without a UTF-8 validation.
    out: String,
    separator: &'a str,
    /// [`LOWERED`] or [`AS_IS`].
    alnum: &'static [u8; 256],
    /// Whether `out` ends with a separator (or is empty): no second one,
    /// and no word char before the next character.
    after_separator: bool,
    /// The words to drop as each word ends; `None` when there are none,
    /// so the usual slug pays one branch per word.
    stopwords: Option<&'a StopWords>,
    /// Where the current word starts in `out`.
    word_start: usize,
    /// Whether a stopword was dropped.
    dropped: bool,
    /// `decamelize`: split words at case changes of what is written.
    camel: bool,
    /// With `camel`, the last two letters or digits written in this word,
    /// as they were before folding (0 for none).
    last: [u8; 2],
    /// The word `&` reads as (the locale's), or `None` to separate.
    and: Option<&'a str>,
    /// Where in `out` the last run of ASCII letters and digits of the
    /// title began, if it began a word (`usize::MAX` if not): a keycap's
    /// digit must be such a run of its own.
    run_start: usize,
}

impl<const EXTRAS: bool> Builder<'_, EXTRAS> {
    /// Appends `byte` if it is an ASCII letter or digit; returns whether
    /// it was.
    #[inline]
    fn push_if_alnum(&mut self, byte: u8) -> bool {
        if EXTRAS && self.camel {
            return self.push_camel(byte);
        }
        let out = self.alnum[byte as usize];
        if out != 0 {
            // The tables hold ASCII only; the mask shows it to the
            // compiler, so this is a one-byte push.
            self.out.push(char::from(out & 0x7F));
            self.after_separator = false;
        }
        out != 0
    }

    /// Appends the ASCII letters and digits at the start of `bytes`, at
    /// least one; returns how many there were. Most of a title is such
    /// runs, so this loop does no more than look up, push and count.
    #[inline]
    fn push_word(&mut self, bytes: &[u8]) -> usize {
        if EXTRAS && self.camel {
            return bytes.iter().take_while(|&&b| self.push_camel(b)).count();
        }
        self.after_separator = false;
        // Held in a local: for all the compiler knows, each byte written
        // could change the field, which it would then load again each time.
        let alnum = self.alnum;
        let mut n = 0;
        for &byte in bytes {
            let out = alnum[byte as usize];
            if out == 0 {
                break;
            }
            // One byte, as in `push_if_alnum`.
            self.out.push(char::from(out & 0x7F));
            n += 1;
        }
        n
    }

    /// `push_if_alnum` for `decamelize`: a word ends before an upper-case
    /// letter that follows a lower-case letter or a digit (`fooBar`), and
    /// before the last of a run of capitals followed by a lower-case letter
    /// (`APISection`). Judged on what is written, before case folding, so
    /// a slug slugged again splits nowhere new.
    #[cold]
    fn push_camel(&mut self, byte: u8) -> bool {
        let out = self.alnum[byte as usize];
        if out == 0 {
            return false;
        }
        let [before, last] = self.last;
        if !self.after_separator {
            if byte.is_ascii_uppercase() && (last.is_ascii_lowercase() || last.is_ascii_digit()) {
                self.separate();
            } else if byte.is_ascii_lowercase()
                && last.is_ascii_uppercase()
                && before.is_ascii_uppercase()
            {
                // The last capital starts the new word.
                let capital = self.out.pop().expect("a capital was written");
                self.separate();
                self.out.push(capital);
                self.after_separator = false;
                self.last = [0, last];
            }
        }
        self.out.push(char::from(out & 0x7F));
        self.after_separator = false;
        self.last = [self.last[1], byte];
        true
    }

    /// Appends a byte of `preserve` inside a word.
    fn push_kept(&mut self, byte: u8) {
        self.out.push(char::from(byte & 0x7F));
        self.after_separator = false;
        self.last = [0, byte];
    }

    /// Ends the current word.
    #[inline]
    fn separate(&mut self) {
        if !self.after_separator {
            if EXTRAS {
                self.last = [0, 0];
                if let Some(stopwords) = self.stopwords
                    && self.drop_stopword(stopwords)
                {
                    return;
                }
            }
            // The usual one-byte separator is a plain push, not a copy of
            // unknown length (a call to memcpy).
            match *self.separator.as_bytes() {
                [byte] => self.out.push(char::from(byte & 0x7F)),
                _ => self.out.push_str(self.separator),
            }
            self.after_separator = true;
            if EXTRAS {
                self.word_start = self.out.len();
            }
        }
    }

    /// Takes back the word just ended if it is a stopword.
    #[cold]
    fn drop_stopword(&mut self, stopwords: &StopWords) -> bool {
        if !stopwords.contains(&self.out[self.word_start..]) {
            return false;
        }
        self.out.truncate(self.word_start);
        self.after_separator = true;
        self.dropped = true;
        true
    }

    /// Appends transliterated or named text: letters and digits are kept,
    /// anything else separates words.
    #[inline]
    fn push_text(&mut self, text: &str) {
        for &byte in text.as_bytes() {
            if !self.push_if_alnum(byte) {
                self.separate();
            }
        }
    }

    /// Appends a table character's name as words of their own.
    fn push_name(&mut self, name: &str) {
        self.separate();
        self.push_text(name);
        self.separate();
    }

    /// Appends a non-ASCII character: its name, its transliteration, or
    /// nothing.
    ///
    /// The characters with a rule of their own (`’`, `ʼ`, `×`, the soft and
    /// hard signs) are caught where their usual handling would separate or
    /// name them, so the other characters pay nothing for the rules.
    /// `title[at..next]` is `c`.
    #[inline]
    fn push_non_ascii(
        &mut self,
        c: char,
        (title, at, next): (&str, usize, usize),
        symbols: bool,
        names: &impl SymbolNames,
    ) {
        if symbols && let Some(name) = names.name(c) {
            if c == '×' {
                match between_digits(title.as_bytes(), at) {
                    // `1920×1080`: one word.
                    Some(true) => {
                        self.push_if_alnum(b'x');
                        return;
                    }
                    // `3 × 4`, `3 ×4`: a word of its own.
                    Some(false) => return self.push_name("x"),
                    None => {}
                }
            }
            return self.push_name(name);
        }
        // Whether `c` is traceless is asked only when its transliteration
        // would separate words: letters and digits are kept either way,
        // and the category look-up is not free.
        let mut traceless = None;
        let mut separates = || !*traceless.get_or_insert_with(|| is_traceless(c));
        match deunicode::deunicode_char(c) {
            // The soft and hard signs, `’`, `ʼ` and the primes that BGN
            // romanizations write for the signs are written as quotes.
            Some("'" | "\"") if self.joins(c, &title[next..]) => {}
            Some(text) => {
                for &byte in text.as_bytes() {
                    if !self.push_if_alnum(byte) && separates() {
                        self.separate();
                    }
                }
            }
            None => {
                if separates() {
                    self.separate();
                }
            }
        }
    }

    /// The ASCII characters with a rule of their own, at `title[next - 1]`:
    /// an apostrophe between letters or digits and a comma grouping digits
    /// leave no trace, `&` between words reads `and`; otherwise they
    /// separate. Out of line: the usual separators (spaces, punctuation)
    /// do not pay for it.
    #[inline(never)]
    fn push_in_context(&mut self, byte: u8, title: &str, next: usize) {
        let bytes = title.as_bytes();
        let rest = &bytes[next..];
        let in_word = !self.after_separator;
        match byte {
            b'\'' if in_word && starts_word(&title[next..]) => {}
            b',' if in_word && bytes[next - 2].is_ascii_digit() && groups_digits(rest) => {}
            b'&' if !self.out.is_empty() && word_follows(&title[next..]) => match self.and {
                Some(and) => self.push_name(and),
                None => self.separate(),
            },
            _ => self.separate(),
        }
    }

    /// A keycap (`1️⃣`, `#⃣`): its base, the ASCII character before
    /// `title[at]`, was already handled, so it is taken back and the
    /// sequence's name written instead. Only a base that stands alone (a
    /// digit that is a word of its own, `#` or `*`) makes a keycap. Returns
    /// the bytes the sequence covers from its base.
    #[cold]
    #[inline(never)]
    fn keycap(&mut self, title: &str, at: usize, names: &impl SymbolNames) -> Option<usize> {
        let base = *title.as_bytes().get(at.checked_sub(1)?)?;
        if !matches!(base, b'0'..=b'9' | b'#' | b'*') {
            return None;
        }
        let (len, name) = names.sequence(&title[at - 1..])?;
        if base.is_ascii_digit() {
            // The digit is the last byte written, and a word alone: the
            // run of letters and digits it ends began a word there.
            let before = self.out.len().checked_sub(1)?;
            if self.after_separator
                || self.run_start != before
                || self.out.as_bytes()[before] != base
            {
                return None;
            }
            self.out.truncate(before);
            self.after_separator = true;
            if EXTRAS {
                self.last = [0, 0];
                self.word_start = before;
            }
        }
        // `#` and `*` always separate (`preserve` cannot keep them).
        self.push_name(name);
        Some(len)
    }

    /// Whether `c`, which deunicode writes as a quote, leaves no trace: the
    /// soft and hard signs and their romanized primes always, `’` and `ʼ`
    /// between letters or digits (`rest` is what follows `c`).
    #[cold]
    fn joins(&self, c: char, rest: &str) -> bool {
        match c {
            'ъ' | 'ь' | 'Ъ' | 'Ь' | 'ʹ' | 'ʺ' => true,
            '\u{2019}' | '\u{02BC}' => !self.after_separator && starts_word(rest),
            _ => false,
        }
    }

    /// The slug, without a separator at the end.
    #[inline]
    fn finish(mut self) -> (String, bool) {
        if EXTRAS
            && !self.after_separator
            && let Some(stopwords) = self.stopwords
        {
            self.drop_stopword(stopwords);
        }
        if self.after_separator && !self.out.is_empty() {
            self.out.truncate(self.out.len() - self.separator.len());
        }
        (self.out, self.dropped)
    }
}

/// Turns `title` into a slug.
pub fn slugify(
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
    let slug = slug_of(title, options, names);
    if slug.is_err()
        && let Some(fallback) = &options.fallback
    {
        return slug_of_fallback(fallback, options, names);
    }
    slug
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
    slug_of(&rewrite(fallback, options), options, names)
}

/// The title as the options rewrite it before its characters are read:
/// `replacements`, then the `locale`'s romanization. Borrowed when neither
/// changes it. The pipeline reads it too, to ask the table for what it
/// holds.
pub fn rewrite<'t>(title: &'t str, options: &Options) -> Cow<'t, str> {
    let replaced = options.replacements.apply(title);
    let Some(locale) = &options.locale else {
        return replaced;
    };
    match locale.romanize(&replaced) {
        Cow::Borrowed(_) => replaced,
        Cow::Owned(romanized) => Cow::Owned(romanized),
    }
}

/// [`build`] with `stopwords`, `decamelize` or `preserve`: kept apart so the
/// usual path is one call of the plain builder.
#[cold]
#[inline(never)]
fn with_extras(title: &str, options: &Options, names: &impl SymbolNames) -> String {
    let stopwords = (!options.stopwords.is_empty()).then_some(&options.stopwords);
    let (slug, dropped) = build::<true>(title, options, names, stopwords);
    if slug.is_empty() && dropped {
        // Only stopwords: keep them all rather than answer nothing.
        return build::<true>(title, options, names, None).0;
    }
    slug
}

/// The slug of one rewritten title, without the fallback.
#[inline]
fn slug_of(title: &str, options: &Options, names: &impl SymbolNames) -> Result<String, EmptySlug> {
    let extras = !options.stopwords.is_empty()
        || options.decamelize
        || options.preserve != Preserve::default();
    let mut slug = if extras {
        with_extras(title, options, names)
    } else {
        build::<false>(title, options, names, None).0
    };
    if let Some(max) = options.max_length {
        truncate_at_word(&mut slug, max.get(), options.separator.as_str());
    }
    if slug.is_empty() {
        return Err(EmptySlug);
    }
    Ok(slug)
}

/// Whether the character starting `rest` is a letter or digit.
fn starts_word(rest: &str) -> bool {
    rest.chars().next().is_some_and(char::is_alphanumeric)
}

/// Whether a word follows, spaces aside: a letter or digit, or a character
/// that is neither punctuation, space nor control (a symbol, named).
fn word_follows(rest: &str) -> bool {
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
fn groups_digits(rest: &[u8]) -> bool {
    rest.len() >= 3
        && rest[..3].iter().all(u8::is_ascii_digit)
        && !rest.get(3).is_some_and(u8::is_ascii_digit)
}

/// Whether `×` at `bytes[at..at + 2]` stands between digits, spaces
/// allowed.
/// `Some(true)` when digits touch it on both sides, `Some(false)` when
/// there are spaces between.
fn between_digits(bytes: &[u8], at: usize) -> Option<bool> {
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

/// The words of `title` into a slug; also says whether a stopword was
/// dropped.
#[inline]
fn build<const EXTRAS: bool>(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
    stopwords: Option<&StopWords>,
) -> (String, bool) {
    let separator = options.separator.as_str();
    // Enough bytes to know every word boundary at or before `max_length`;
    // checked at word ends only, so a long word may run past it.
    // With stopwords, what is written may still be taken back, so read on.
    let stop_at = match (options.max_length, stopwords) {
        (Some(m), None) => m.get().saturating_add(separator.len() + 1),
        _ => usize::MAX,
    };
    let mut b = Builder::<EXTRAS> {
        out: String::with_capacity(title.len() + 16),
        separator,
        alnum: if options.lowercase { &LOWERED } else { &AS_IS },
        after_separator: true,
        stopwords,
        word_start: 0,
        dropped: false,
        camel: options.decamelize,
        last: [0, 0],
        and: match &options.locale {
            Some(locale) => locale.and(),
            None => Some(AND),
        },
        run_start: usize::MAX,
    };
    let bytes = title.as_bytes();
    let mut i = 0;
    while let Some(&(mut byte)) = bytes.get(i) {
        if b.alnum[byte as usize] != 0 {
            b.run_start = if b.after_separator {
                b.out.len()
            } else {
                usize::MAX
            };
            i += b.push_word(&bytes[i..]);
            // The word ended at the end of the title or at a byte that is
            // not a letter or digit, handled below.
            match bytes.get(i) {
                Some(&next) => byte = next,
                None => break,
            }
        }
        if b.out.len() >= stop_at {
            break;
        }
        if byte.is_ascii() {
            i += 1;
            match byte {
                b'\'' | b',' | b'&' => b.push_in_context(byte, title, i),
                _ if EXTRAS
                    && !b.after_separator
                    && options.preserve.contains(byte)
                    && bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) =>
                {
                    b.push_kept(byte)
                }
                _ => b.separate(),
            }
            continue;
        }
        let c = title[i..].chars().next().expect("i is on a char boundary");
        let at = i;
        if options.symbols {
            if let Some((len, name)) = names.sequence(&title[at..]) {
                b.push_name(name);
                i += len;
                continue;
            }
            if matches!(c, '\u{FE0F}' | '\u{20E3}')
                && let Some(len) = b.keycap(title, at, names)
            {
                i = at - 1 + len;
                continue;
            }
        }
        i += c.len_utf8();
        b.push_non_ascii(c, (title, at, i), options.symbols, names);
    }
    b.finish()
}

/// Cuts `slug` to at most `max` bytes at the last word boundary; a first
/// word longer than `max` is cut hard, and a preserved character it would
/// end with goes too. Slugs are ASCII, so any byte index is a character
/// boundary.
fn truncate_at_word(slug: &mut String, max: usize, separator: &str) {
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

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(slug("北京"), "bei-jing");
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
        assert_eq!(slug("Пьеса"), "pesa");
        assert_eq!(slug("объект"), "obekt");
        assert_eq!(slug("ПЬЕСА"), "pesa");
        assert_eq!(slug("Yurʹyev Sʺyezd"), "yuryev-syezd");
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
            "dlia-fortepiano"
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
}
