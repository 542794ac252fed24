//! `ascii: false` (from rules 3): slugs in the reader's own script, and
//! their URI form.
//!
//! The title, its HTML entities decoded and `replacements` applied
//! ([`super::rewrite`]), is read in one pass:
//! - with `symbols`, an emoji sequence or a character of the table becomes
//!   its name as words of their own, as in ASCII mode (the names are the
//!   table's: English, or the `locale`'s as the table holds them);
//!   `&` between words reads the locale's word for "and", `×` between digits
//!   `x`;
//! - each run of other text is NFKC-normalized, split at case changes with
//!   `decamelize`, and lowercased by the `locale`'s rules (`tr`, `az`:
//!   `I` is `ı`) with `lowercase`; then letters, digits and combining marks
//!   (Unicode L, N and M) are kept, so no cluster of an abugida is broken.
//!   A zero-width joiner or non-joiner between letters is kept (Persian and
//!   Indic spelling write them inside words) in a word of a script written
//!   with spaces; variation selectors, the keycap mark and other
//!   format characters leave no trace; an apostrophe between letters and a
//!   comma grouping digits leave no trace, a `preserve` character between
//!   letters is kept, as in ASCII mode; everything else separates words;
//! - Thai, Lao, Khmer, Myanmar, Han and kana, written without spaces, are
//!   cut into words by ICU4X's word segmenter (its dictionaries, as rules 2
//!   cut them in ASCII mode); a run longer than [`MAX_RUN_BYTES`] is cut
//!   in pieces at word boundaries.
//!
//! `stopwords` are compared with the words as written here, `max_length`
//! counts characters and `max_bytes` the bytes of the URI form; a cut is
//! at a word boundary, or, when the first word alone is too long, at the
//! last grapheme cluster boundary that fits. Slugging a slug gives the
//! same slug: every step is idempotent on its own output. The exception
//! is an empty separator: then a slug does not show where its words ended,
//! and what is judged by word (a joiner or a `preserve` character inside
//! one, a stopword, `decamelize`) may be judged on other words.

use std::borrow::Cow;

use icu::casemap::CaseMapper;
use icu::locale::LanguageIdentifier;
use icu::normalizer::ComposingNormalizer;
use icu::segmenter::options::WordBreakInvariantOptions;
use icu::segmenter::{GraphemeClusterSegmenter, WordSegmenter};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use super::classes::{AND, between_digits, groups_digits, word_follows};
use super::names::SymbolNames;
use crate::named;
use crate::options::{Options, StopWords};
use crate::readers::MAX_RUN_BYTES;
use crate::readers::runs::unspaced_script;
use crate::rules::Switch;

/// The slug of `title`, rewritten by [`super::rewrite`], in its own
/// script, without the fallback; `None` when it is empty.
pub(super) fn slug(title: &str, options: &Options, names: &impl SymbolNames) -> Option<String> {
    let stopwords = (!options.stopwords.is_empty()).then_some(&options.stopwords);
    let (mut slug, dropped) = build(title, options, names, stopwords);
    if slug.is_empty() && dropped {
        // Only stopwords: keep them all rather than answer nothing.
        slug = build(title, options, names, None).0;
    }
    // What left no trace between a letter and its marks (`G`, U+202E,
    // U+0301) may leave them to compose.
    if let Cow::Owned(composed) = ComposingNormalizer::new_nfc().normalize(&slug) {
        slug = composed;
    }
    cut(
        &mut slug,
        options.max_length.map(|n| n.get()),
        options.max_bytes.map(|n| n.get()),
        options.separator.as_str(),
    );
    (!slug.is_empty()).then_some(slug)
}

/// What a slug's URI form leaves as it is: RFC 3986's unreserved
/// characters (ASCII letters, digits and `-._~`, all a separator may hold).
const RESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The URI form of a slug: its UTF-8 percent-encoded, but for the
/// unreserved characters.
pub fn uri(slug: &str) -> String {
    utf8_percent_encode(slug, RESERVED).to_string()
}

/// The length of [`uri`] of `text`, in bytes.
fn uri_len(text: &str) -> usize {
    utf8_percent_encode(text, RESERVED).map(str::len).sum()
}

/// The words of `title` joined by the separator; also says whether a
/// stopword was dropped.
fn build(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
    stopwords: Option<&StopWords>,
) -> (String, bool) {
    let language: LanguageIdentifier = options
        .locale
        .as_ref()
        .and_then(|l| l.fallbacks().first())
        .and_then(|tag| LanguageIdentifier::try_from_str(tag).ok())
        .unwrap_or(LanguageIdentifier::UNKNOWN);
    let mut w = Words {
        out: String::with_capacity(title.len() + 16),
        separator: options.separator.as_str(),
        after_separator: true,
        word_start: 0,
        spaced_letter: false,
        boundary: false,
        stopwords,
        dropped: false,
        options,
        ascii_case: !matches!(language.language.as_str(), "tr" | "az" | "tt" | "kk" | "lt"),
        language,
    };
    let bytes = title.as_bytes();
    // `title[plain..i]` is text not yet written.
    let mut plain = 0;
    let mut i = 0;
    while let Some(c) = title[i..].chars().next() {
        let len = c.len_utf8();
        if options.symbols {
            let keycap = c.is_ascii()
                && named::is_keycap_base(c as u8)
                && title[i + 1..]
                    .chars()
                    .next()
                    .is_some_and(|n| n == '\u{FE0F}' || named::is_keycap_mark(n));
            if (!c.is_ascii() || keycap)
                && let Some((covered, name)) = names.sequence(&title[i..])
            {
                w.text(&title[plain..i]);
                w.name(name);
                i += covered;
                plain = i;
                continue;
            }
            if !c.is_ascii()
                && let Some(name) = names.name(c)
            {
                w.text(&title[plain..i]);
                let times = (c == '×').then(|| between_digits(bytes, i)).flatten();
                match times {
                    // `1920×1080`: one word, as in ASCII mode.
                    Some(true) => w.push('x'),
                    Some(false) => w.name("x"),
                    None => w.name(name),
                }
                i += len;
                plain = i;
                continue;
            }
        }
        if c == '&' {
            w.text(&title[plain..i]);
            plain = i + 1;
            let and = match &options.locale {
                Some(locale) => locale.and_written(),
                None => Some(AND),
            };
            match and {
                Some(and) if !w.out.is_empty() && word_follows(&title[i + 1..]) => w.name(and),
                _ => w.separate(),
            }
        }
        i += len;
    }
    w.text(&title[plain..]);
    w.finish()
}

/// The slug being written.
struct Words<'a> {
    out: String,
    separator: &'a str,
    /// Whether `out` ends with a separator or is empty.
    after_separator: bool,
    /// Where the current word starts in `out`.
    word_start: usize,
    /// Whether the current word has a letter of a script written with
    /// spaces (where a joiner is kept).
    spaced_letter: bool,
    /// Whether the word segmenter ended the word at a character that is
    /// not a letter or digit: the next one starts a new word.
    boundary: bool,
    stopwords: Option<&'a StopWords>,
    dropped: bool,
    options: &'a Options,
    /// The `locale`'s language, for its case rules (root without one).
    language: LanguageIdentifier,
    /// Whether the language lowercases by the root's rules (ASCII as ASCII,
    /// the rest by Rust's full mapping): not Turkish, Azerbaijani, Tatar,
    /// Kazakh and Lithuanian, lowercased by ICU4X's rules for them.
    ascii_case: bool,
}

impl Words<'_> {
    /// Ends the current word, dropping it if it is a stopword.
    fn separate(&mut self) {
        self.boundary = false;
        if self.after_separator {
            return;
        }
        if let Some(stopwords) = self.stopwords
            && stopwords.contains_written(&self.out[self.word_start..])
        {
            self.out.truncate(self.word_start);
            self.dropped = true;
        } else {
            self.out.push_str(self.separator);
        }
        self.after_separator = true;
        self.word_start = self.out.len();
        self.spaced_letter = false;
    }

    fn push(&mut self, c: char) {
        self.push_of(c, Class::of(c));
    }

    /// [`Words::push`] of `c`, of class `class`.
    fn push_of(&mut self, c: char, class: Class) {
        self.out.push(c);
        self.after_separator = false;
        self.spaced_letter |= class == Class::Letter && !unspaced(c);
    }

    /// A name (ASCII words separated by spaces) as words of their own.
    fn name(&mut self, name: &str) {
        self.separate();
        if self.options.rules.has(Switch::WrittenNames) {
            self.name_whole(name);
            return;
        }
        for c in name.chars() {
            if c.is_alphanumeric() {
                if self.options.lowercase {
                    self.out.extend(c.to_lowercase());
                    self.after_separator = false;
                } else {
                    self.push(c);
                }
            } else {
                self.separate();
            }
        }
        self.separate();
    }

    /// [`Words::name`] by rules 4: a name as the locale writes it
    /// (`красное сердце`, `மற்றும்`), every letter, digit, mark and joiner
    /// kept. (Rules 3 kept only what Rust calls alphanumeric, which cut
    /// words at a virama.)
    fn name_whole(&mut self, name: &str) {
        for c in name.chars() {
            match Class::of(c) {
                Class::Letter | Class::Number | Class::Mark => {}
                Class::Format if is_joiner(c) && !self.after_separator => {}
                _ => {
                    self.separate();
                    continue;
                }
            }
            match self.options.lowercase {
                true => self.out.extend(c.to_lowercase()),
                false => self.out.push(c),
            }
            self.after_separator = false;
        }
        self.separate();
    }

    /// A run of text that holds no table character.
    fn text(&mut self, run: &str) {
        if run.is_empty() {
            return;
        }
        let keep = self.options.rules.has(Switch::ScriptLettersKept);
        // ASCII is its own NFKC.
        let mut text = match run.is_ascii() {
            true => Cow::Borrowed(run),
            false => nfkc(run, keep),
        };
        if self.options.decamelize {
            text = decamelize(&text).into();
        }
        if self.options.lowercase {
            if text.is_ascii() && self.ascii_case {
                if text.bytes().any(|b| b.is_ascii_uppercase()) {
                    text = Cow::Owned(text.to_ascii_lowercase());
                }
            } else {
                // Rust's full lowercase mapping (final sigma included) is
                // the root's; ICU4X's for the languages with rules of their
                // own.
                let lower: Cow<'_, str> = match self.ascii_case {
                    true => Cow::Owned(text.to_lowercase()),
                    false => CaseMapper::new().lowercase_to_string(&text, &self.language),
                };
                if lower != text {
                    // Lowercasing may leave text that NFKC writes otherwise.
                    text = nfkc(&lower, keep).into_owned().into();
                }
            }
        }
        let breaks = word_breaks(&text);
        let mut breaks = breaks.iter().peekable();
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            // The usual character, with no look-up of its category.
            if c.is_ascii_alphanumeric() && breaks.peek().is_none() && !self.boundary {
                self.push_of(c, Class::of(c));
                continue;
            }
            while breaks.next_if(|&&b| b < at).is_some() {}
            // The segmenter's boundary ends the word before the next letter
            // or digit: what comes between cannot join across it.
            if breaks.next_if(|&&b| b == at).is_some() {
                self.boundary = true;
            }
            // One look-up of the category per character.
            let class = Class::of(c);
            if self.boundary && matches!(class, Class::Letter | Class::Number) {
                self.separate();
            }
            let next = chars.peek().map(|&(_, n)| n);
            let in_word = !self.after_separator && !self.boundary;
            // Whether the segmenter ends the word right after `c`.
            let ends_here = breaks.peek().is_some_and(|&&b| b == at + c.len_utf8());
            match c {
                // Variation selectors leave no trace.
                _ if is_selector(c) => {}
                '\u{200C}' | '\u{200D}' => {
                    let last = self.out[self.word_start..].chars().next_back();
                    // What follows, past what leaves no trace.
                    let from = at + c.len_utf8();
                    let after = text[from..].char_indices().find(|&(_, n)| {
                        !(is_selector(n)
                            || (Class::of(n) == Class::Format
                                && !matches!(n, '\u{200C}' | '\u{200D}')))
                    });
                    // Not where the segmenter ends the word.
                    let ends =
                        |(k, _): (usize, char)| breaks.peek().is_some_and(|&&b| b <= from + k);
                    if in_word
                        && last.is_some_and(joins)
                        && after.is_some_and(|(_, n)| joins(n))
                        && !after.is_some_and(ends)
                        && self.spaced_letter
                    {
                        self.push(c);
                    }
                }
                '\'' | '\u{2019}' | '\u{2018}'
                    if in_word && next.is_some_and(char::is_alphanumeric) => {}
                ',' if in_word
                    && self.out.ends_with(|p: char| p.is_ascii_digit())
                    && groups_digits(text[at + 1..].as_bytes()) => {}
                _ if c.is_ascii()
                    && in_word
                    && !ends_here
                    && self.options.preserve.contains(c as u8)
                    && next.is_some_and(char::is_alphanumeric) =>
                {
                    self.push(c)
                }
                _ => match class {
                    Class::Letter | Class::Number | Class::Mark => self.push_of(c, class),
                    Class::Format => {}
                    Class::Other => self.separate(),
                },
            }
        }
    }

    /// The slug, without a separator at the end.
    fn finish(mut self) -> (String, bool) {
        self.separate();
        if !self.out.is_empty() {
            self.out.truncate(self.out.len() - self.separator.len());
        }
        (self.out, self.dropped)
    }
}

/// What the pass asks of a character's general category.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Number,
    Mark,
    Format,
    Other,
}

impl Class {
    fn of(c: char) -> Class {
        use GeneralCategory as G;
        if c.is_ascii() {
            return match c {
                'a'..='z' | 'A'..='Z' => Class::Letter,
                '0'..='9' => Class::Number,
                _ => Class::Other,
            };
        }
        match c.general_category() {
            G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter => Class::Letter,
            G::DecimalNumber | G::LetterNumber | G::OtherNumber => Class::Number,
            G::NonspacingMark | G::SpacingMark | G::EnclosingMark => Class::Mark,
            G::Format => Class::Format,
            _ => Class::Other,
        }
    }
}

/// Whether `c` is a zero-width joiner or non-joiner.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Whether a joiner beside `c` is inside a word: `c` is a letter or a
/// mark other than a variation selector.
fn joins(c: char) -> bool {
    !is_selector(c) && matches!(Class::of(c), Class::Letter | Class::Mark)
}

/// Whether `c` is a mark or a format character, which stay with the
/// letter before them.
fn attaches(c: char) -> bool {
    matches!(Class::of(c), Class::Mark | Class::Format)
}

/// Whether `c` is a variation selector, or the keycap mark U+20E3 (which
/// would make a digit before it a keycap when the slug is slugged again):
/// marks that leave no trace.
fn is_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{20E3}' | '\u{E0100}'..='\u{E01EF}')
}

/// Whether `c` is of a script written without spaces between words:
/// Thai, Lao, Myanmar, Khmer, Han, kana.
fn unspaced(c: char) -> bool {
    unspaced_script(c).is_some()
}

/// The byte offsets inside `text`'s runs of unspaced scripts where the
/// word segmenter puts a boundary, in order. A run is of one script
/// ([`unspaced_script`]) and goes on through marks, variation selectors and
/// format characters. A run longer than
/// [`MAX_RUN_BYTES`] is cut in pieces at the last word boundary the
/// segmenter finds within that bound (in a window of twice it), so a long
/// run costs the segmenter linear time, as rules 2 cut them.
fn word_breaks(text: &str) -> Vec<usize> {
    let mut breaks = Vec::new();
    if !text.chars().any(unspaced) {
        return breaks;
    }
    let segmenter = WordSegmenter::new_dictionary(WordBreakInvariantOptions::default());
    let mut rest = text.char_indices().peekable();
    while let Some((start, c)) = rest.next() {
        // A run starts at a letter (not a mark, nor an unassigned point).
        let Some(script) = unspaced_script(c).filter(|_| Class::of(c) == Class::Letter) else {
            continue;
        };
        let mut end = start + c.len_utf8();
        while let Some(&(at, n)) = rest.peek() {
            if !(unspaced_script(n) == Some(script) || attaches(n)) {
                break;
            }
            end = at + n.len_utf8();
            rest.next();
        }
        // A run is a word apart from what touches it, as in ASCII mode.
        if start > 0 {
            breaks.push(start);
        }
        let mut piece = start;
        while piece < end {
            let mut window = (piece + 2 * MAX_RUN_BYTES).min(end);
            while !text.is_char_boundary(window) {
                window -= 1;
            }
            let bounds: Vec<usize> = segmenter
                .segment_str(&text[piece..window])
                .filter(|&b| b > 0)
                .collect();
            let piece_end = match window == end && end - piece <= 2 * MAX_RUN_BYTES {
                // The rest of the run fits the window: all its boundaries.
                true => end - piece,
                false => bounds
                    .iter()
                    .copied()
                    .rfind(|&b| b <= MAX_RUN_BYTES)
                    .unwrap_or_else(|| bounds[0]),
            };
            // Never between a letter and its marks, which the dictionary
            // segmenter of Han would cut.
            let attached = |b: usize| text[b..].chars().next().is_some_and(attaches);
            breaks.extend(
                bounds
                    .iter()
                    .filter(|&&b| b <= piece_end)
                    .map(|&b| piece + b)
                    .filter(|&b| !attached(b)),
            );
            piece += piece_end;
        }
    }
    breaks
}

/// `text` with a space where `decamelize` ends a word: before a capital
/// after a lower-case letter (`fooBar`; not in `iPhone`, one lower-case
/// letter then a capital), before a capital after a digit only when a
/// lower-case letter follows it (`A4Paper`, but `3D`, `U2F`), and before
/// the last of a run of capitals followed by a lower-case letter
/// (`APISection`; not `APIs`, `IDs`, whose `s` ends the word).
fn decamelize(text: &str) -> String {
    // What leaves no trace inside a word (apostrophes, variation selectors,
    // format characters) is not looked at, nor are marks: a letter and its
    // marks are one letter, of the letter's case, composed or not.
    let apostrophe = |c: char| matches!(c, '\'' | '\u{2018}' | '\u{2019}') || attaches(c);
    let chars: Vec<char> = text.chars().filter(|&c| !apostrophe(c)).collect();
    let mut splits = vec![false; chars.len()];
    // Letters and digits of the current word so far.
    let mut in_word = 0;
    for (k, &c) in chars.iter().enumerate() {
        let after = |ahead: usize| chars.get(k + ahead).copied();
        splits[k] = in_word > 0
            && match (chars[k - 1], c) {
                (p, c) if c.is_uppercase() && p.is_lowercase() => in_word > 1,
                (p, c) if c.is_uppercase() && p.is_numeric() => {
                    after(1).is_some_and(char::is_lowercase)
                }
                (p, c) if c.is_uppercase() && p.is_uppercase() => {
                    let next = after(1);
                    // An `s` that ends the word is a plural (`APIs`).
                    let plural = next == Some('s') && !after(2).is_some_and(char::is_alphanumeric);
                    next.is_some_and(char::is_lowercase) && !plural
                }
                _ => false,
            };
        if splits[k] {
            in_word = 0;
        }
        in_word = if c.is_alphanumeric() { in_word + 1 } else { 0 };
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut k = 0;
    for c in text.chars() {
        if !apostrophe(c) {
            if splits[k] {
                out.push(' ');
            }
            k += 1;
        }
        out.push(c);
    }
    out
}

/// Cuts `slug` to at most `max_chars` characters and `max_bytes` bytes of
/// its [`uri`]: at the last word boundary that fits, or, when the first
/// word alone does not, at the last grapheme cluster boundary that does.
/// One pass to the first character that does not fit.
pub fn cut(slug: &mut String, max_chars: Option<usize>, max_bytes: Option<usize>, separator: &str) {
    if max_chars.is_none() && max_bytes.is_none() {
        return;
    }
    let (mut chars, mut bytes) = (0usize, 0usize);
    // The last separator that starts before what does not fit.
    let mut word_end = None;
    let mut over = None;
    for (i, c) in slug.char_indices() {
        if i > 0 && !separator.is_empty() && slug[i..].starts_with(separator) {
            word_end = Some(i);
        }
        chars += 1;
        bytes += uri_len(c.encode_utf8(&mut [0; 4]));
        if max_chars.is_some_and(|m| chars > m) || max_bytes.is_some_and(|m| bytes > m) {
            over = Some(i);
            break;
        }
    }
    let Some(over) = over else {
        return;
    };
    if let Some(end) = word_end {
        slug.truncate(end);
        return;
    }
    // The boundaries up to `over` depend on the characters to it and the
    // one there, not on the rest.
    let upto = over + slug[over..].chars().next().map_or(0, char::len_utf8);
    let end = GraphemeClusterSegmenter::new()
        .segment_str(&slug[..upto])
        .take_while(|&b| b <= over)
        .last()
        .unwrap_or(0);
    slug.truncate(end);
    // A hard cut may end at a `preserve` character or a joiner, which are
    // kept only before a letter or digit (a joiner: a letter or mark).
    while slug.ends_with(|c: char| c.is_ascii_punctuation() || matches!(c, '\u{200C}' | '\u{200D}'))
    {
        slug.pop();
    }
}

/// The letters a script's spelling uses as letters of their own, which
/// NFKC would write as two ([`Switch::ScriptLettersKept`]): Armenian `և`,
/// Thai and Lao sara am, Lao `ໜ ໝ`, Tibetan `ཷ ཹ`.
fn is_kept_letter(c: char) -> bool {
    matches!(
        c,
        '\u{0587}' | '\u{0E33}' | '\u{0EB3}' | '\u{0EDC}' | '\u{0EDD}' | '\u{0F77}' | '\u{0F79}'
    )
}

/// `text` in NFKC; with `keep`, the letters [`is_kept_letter`] says kept
/// as they are (each piece between them normalized: NFKC composes nothing
/// across them).
fn nfkc(text: &str, keep: bool) -> Cow<'_, str> {
    let nfkc = ComposingNormalizer::new_nfkc();
    if !keep || !text.contains(is_kept_letter) {
        return nfkc.normalize(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(is_kept_letter) {
        out.push_str(&nfkc.normalize(&rest[..at]));
        let c = rest[at..].chars().next().expect("a letter at `at`");
        out.push(c);
        rest = &rest[at + c.len_utf8()..];
    }
    out.push_str(&nfkc.normalize(rest));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_is_at_a_word_or_a_cluster_boundary() {
        let cut_of = |slug: &str, chars: Option<usize>, bytes: Option<usize>| {
            let mut slug = slug.to_owned();
            cut(&mut slug, chars, bytes, "-");
            slug
        };
        // न, म and the conjunct स्ते: three clusters of 1, 1 and 4 characters.
        assert_eq!(cut_of("नमस्ते", Some(3), None), "नम");
        assert_eq!(cut_of("नमस्ते", Some(5), None), "नम");
        assert_eq!(cut_of("नमस्ते", Some(6), None), "नमस्ते");
        assert_eq!(cut_of("नमस्ते", None, Some(17)), "न");
        assert_eq!(cut_of("नमस्ते", None, Some(8)), "");
        assert_eq!(cut_of("привет-мир", Some(9), None), "привет");
        assert_eq!(cut_of("привет-мир", None, Some(36)), "привет");
        assert_eq!(cut_of("привет-мир", None, Some(55)), "привет-мир");
        assert_eq!(uri_len("привет-мир"), 55);
    }

    #[test]
    fn the_uri_form_encodes_all_but_the_unreserved() {
        assert_eq!(uri("a-b_c.d~e"), "a-b_c.d~e");
        assert_eq!(uri("мир"), "%D0%BC%D0%B8%D1%80");
        assert_eq!(uri("ç"), "%C3%A7");
    }
}
