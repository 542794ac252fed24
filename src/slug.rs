//! The slug engine: a pure function from a title, validated options and a
//! way to name table characters to a slug. No I/O happens here; the table
//! backends (`crate::table`) find the names first and hand them in.
//!
//! The rules, in order, for each character of the title:
//! 1. a character of the symbol table (when `symbols` is on) becomes its
//!    name, as separate words;
//! 2. an ASCII letter or digit is kept, anything else ASCII separates words;
//! 3. a combining mark, variation selector, joiner or other format character
//!    leaves no trace: only letters or digits of its transliteration are kept
//!    (so `e` + U+0301 is `e`, and U+FE0F after ❤ does nothing);
//! 4. any other character is transliterated by deunicode, and what is not a
//!    letter or digit in the result separates words.
//!
//! Every run of separating characters becomes one separator, never at
//! either end; `lowercase` folds ASCII case; `max_length` cuts at a word
//! boundary.

use std::borrow::Cow;
use std::num::NonZeroUsize;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Characters allowed in a separator: the unreserved punctuation of
/// RFC 3986, so a slug never needs percent-encoding.
pub const SEPARATOR_CHARS: &str = "-_.~";

/// The longest separator accepted.
pub const MAX_SEPARATOR_LEN: usize = 8;

/// Names characters of the symbol table. `None` means "not a table
/// character": the engine transliterates it instead.
pub trait SymbolNames {
    /// The trimmed name of `c`, when `c` is a table character.
    fn name(&self, c: char) -> Option<&str>;
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

/// A validated separator: up to [`MAX_SEPARATOR_LEN`] characters of
/// [`SEPARATOR_CHARS`], possibly empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Separator(Cow<'static, str>);

impl Separator {
    /// Validates a separator.
    pub fn new(s: &str) -> Result<Self, OptionError> {
        if s.len() > MAX_SEPARATOR_LEN || !s.chars().all(|c| SEPARATOR_CHARS.contains(c)) {
            return Err(OptionError::Separator(s.to_owned()));
        }
        // The usual separator costs no allocation per request.
        Ok(Separator(match s {
            "-" => Cow::Borrowed("-"),
            _ => Cow::Owned(s.to_owned()),
        }))
    }

    /// The separator text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Separator {
    fn default() -> Self {
        Separator(Cow::Borrowed("-"))
    }
}

/// A slug option that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// The separator has characters a slug must not contain.
    #[error(
        "separator {0:?} is not allowed: use at most {MAX_SEPARATOR_LEN} of the characters \"{SEPARATOR_CHARS}\" (or \"\" for none)"
    )]
    Separator(String),
    /// `max_length` was 0.
    #[error("max_length must be at least 1 (leave it out for no limit)")]
    ZeroMaxLength,
}

/// Validated slug options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// What joins the words (default `-`).
    pub separator: Separator,
    /// Fold ASCII letters to lowercase (default true).
    pub lowercase: bool,
    /// Longest slug in bytes (slugs are ASCII, so also characters), cut at a
    /// word boundary; a first word longer than this is cut hard.
    pub max_length: Option<NonZeroUsize>,
    /// Spell table characters out by name (default true); false leaves every
    /// character to deunicode.
    pub symbols: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            separator: Separator::default(),
            lowercase: true,
            max_length: None,
            symbols: true,
        }
    }
}

/// Options as a request or the command line gives them: each may be
/// missing, and none is checked yet. [`RawOptions::validate`] checks them
/// once and fills in the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawOptions {
    /// What joins words (default `-`).
    pub separator: Option<String>,
    /// Fold to lowercase (default true).
    pub lowercase: Option<bool>,
    /// Longest slug; 0 is refused.
    pub max_length: Option<usize>,
    /// Spell symbols out by name (default true).
    pub symbols: Option<bool>,
}

impl RawOptions {
    /// Checks each option and fills in the defaults.
    pub fn validate(&self) -> Result<Options, OptionError> {
        let separator = match &self.separator {
            Some(s) => Separator::new(s)?,
            None => Separator::default(),
        };
        let max_length = match self.max_length {
            Some(n) => Some(NonZeroUsize::new(n).ok_or(OptionError::ZeroMaxLength)?),
            None => None,
        };
        Ok(Options {
            separator,
            lowercase: self.lowercase.unwrap_or(true),
            max_length,
            symbols: self.symbols.unwrap_or(true),
        })
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

/// Whether the engine asks the table about `c`. ASCII letters, digits and
/// whitespace are never table characters, which keeps the common case free
/// of look-ups.
#[inline]
pub fn may_be_symbol(c: char) -> bool {
    !(c.is_ascii_alphanumeric() || c.is_ascii_whitespace())
}

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
struct Builder<'a> {
    /// ASCII only. A `String` rather than bytes, so that it becomes the
    /// slug without a UTF-8 validation.
    out: String,
    separator: &'a str,
    /// [`LOWERED`] or [`AS_IS`].
    alnum: &'static [u8; 256],
    /// Whether `out` ends with a separator (or is empty): no second one.
    after_separator: bool,
}

impl Builder<'_> {
    /// Appends `byte` if it is an ASCII letter or digit; returns whether
    /// it was.
    #[inline]
    fn push_if_alnum(&mut self, byte: u8) -> bool {
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

    /// Ends the current word.
    #[inline]
    fn separate(&mut self) {
        if !self.after_separator {
            // The usual one-byte separator is a plain push, not a copy of
            // unknown length (a call to memcpy).
            match *self.separator.as_bytes() {
                [byte] => self.out.push(char::from(byte & 0x7F)),
                _ => self.out.push_str(self.separator),
            }
            self.after_separator = true;
        }
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
    #[inline]
    fn push_non_ascii(&mut self, c: char, symbols: bool, names: &impl SymbolNames) {
        if symbols && let Some(name) = names.name(c) {
            return self.push_name(name);
        }
        // Whether `c` is traceless is asked only when its transliteration
        // would separate words: letters and digits are kept either way,
        // and the category look-up is not free.
        let mut traceless = None;
        let mut separates = || !*traceless.get_or_insert_with(|| is_traceless(c));
        match deunicode::deunicode_char(c) {
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

    /// The slug, without a separator at the end.
    #[inline]
    fn finish(mut self) -> String {
        if self.after_separator && !self.out.is_empty() {
            self.out.truncate(self.out.len() - self.separator.len());
        }
        self.out
    }
}

/// Turns `title` into a slug.
pub fn slugify(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    let separator = options.separator.as_str();
    // Enough bytes to know every word boundary at or before `max_length`;
    // checked at word ends only, so a long word may run past it.
    let stop_at = options
        .max_length
        .map_or(usize::MAX, |m| m.get().saturating_add(separator.len() + 1));
    let mut b = Builder {
        out: String::with_capacity(title.len() + 16),
        separator,
        alnum: if options.lowercase { &LOWERED } else { &AS_IS },
        after_separator: true,
    };
    let bytes = title.as_bytes();
    let mut i = 0;
    while let Some(&(mut byte)) = bytes.get(i) {
        if b.alnum[byte as usize] != 0 {
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
            let c = byte as char;
            // `may_be_symbol(c)` for a `c` known not to be a letter or digit.
            let candidate = !byte.is_ascii_whitespace();
            match (options.symbols && candidate)
                .then(|| names.name(c))
                .flatten()
            {
                Some(name) => b.push_name(name),
                None => b.separate(),
            }
            continue;
        }
        let c = title[i..].chars().next().expect("i is on a char boundary");
        i += c.len_utf8();
        b.push_non_ascii(c, options.symbols, names);
    }
    let mut slug = b.finish();
    if let Some(max) = options.max_length {
        truncate_at_word(&mut slug, max.get(), separator);
    }
    if slug.is_empty() {
        return Err(EmptySlug);
    }
    Ok(slug)
}

/// Cuts `slug` to at most `max` bytes at the last word boundary; a first
/// word longer than `max` is cut hard. Slugs are ASCII, so any byte index is
/// a character boundary.
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
        assert_eq!(slug("a+b"), "a-plus-b");
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
