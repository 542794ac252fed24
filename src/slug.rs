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

use std::num::NonZeroUsize;

use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

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

impl<S: std::hash::BuildHasher> SymbolNames for std::collections::HashMap<char, String, S> {
    fn name(&self, c: char) -> Option<&str> {
        self.get(&c).map(String::as_str)
    }
}

/// A validated separator: up to [`MAX_SEPARATOR_LEN`] characters of
/// [`SEPARATOR_CHARS`], possibly empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Separator(String);

impl Separator {
    /// Validates a separator.
    pub fn new(s: &str) -> Result<Self, OptionError> {
        if s.len() > MAX_SEPARATOR_LEN || !s.chars().all(|c| SEPARATOR_CHARS.contains(c)) {
            return Err(OptionError::Separator(s.to_owned()));
        }
        Ok(Separator(s.to_owned()))
    }

    /// The separator text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Separator {
    fn default() -> Self {
        Separator("-".to_owned())
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

impl Options {
    /// Builds options from raw values, checking each.
    pub fn new(
        separator: Option<&str>,
        lowercase: Option<bool>,
        max_length: Option<usize>,
        symbols: Option<bool>,
    ) -> Result<Self, OptionError> {
        let separator = match separator {
            Some(s) => Separator::new(s)?,
            None => Separator::default(),
        };
        let max_length = match max_length {
            Some(n) => Some(NonZeroUsize::new(n).ok_or(OptionError::ZeroMaxLength)?),
            None => None,
        };
        Ok(Options {
            separator,
            lowercase: lowercase.unwrap_or(true),
            max_length,
            symbols: symbols.unwrap_or(true),
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
    // Variation selectors 17-256 are not in every table: list them.
    if ('\u{E0100}'..='\u{E01EF}').contains(&c) {
        return true;
    }
    c.general_category_group() == GeneralCategoryGroup::Mark
        || c.general_category() == GeneralCategory::Format
}

/// Whether the engine asks the table about `c`. ASCII letters, digits and
/// whitespace are never table characters, which keeps the common case free
/// of look-ups.
#[inline]
pub fn may_be_symbol(c: char) -> bool {
    !(c.is_ascii_alphanumeric() || c.is_ascii_whitespace())
}

/// Builds the slug, word by word.
struct Builder<'a> {
    out: String,
    separator: &'a str,
    lowercase: bool,
    pending_separator: bool,
    /// Stop once this many bytes are written: enough to know every word
    /// boundary at or before `max_length`.
    stop_at: usize,
}

impl Builder<'_> {
    #[inline]
    fn push_alnum(&mut self, c: char) {
        if self.pending_separator {
            if !self.out.is_empty() {
                self.out.push_str(self.separator);
            }
            self.pending_separator = false;
        }
        self.out.push(if self.lowercase {
            c.to_ascii_lowercase()
        } else {
            c
        });
    }

    /// Pushes transliterated or named text: letters and digits are kept,
    /// anything else separates words.
    fn push_text(&mut self, text: &str) {
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                self.push_alnum(c);
            } else {
                self.pending_separator = true;
            }
        }
    }

    fn full(&self) -> bool {
        self.out.len() >= self.stop_at
    }
}

/// Turns `title` into a slug.
pub fn slugify(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
) -> Result<String, EmptySlug> {
    let separator = options.separator.as_str();
    let mut b = Builder {
        out: String::with_capacity(title.len().min(256)),
        separator,
        lowercase: options.lowercase,
        pending_separator: false,
        stop_at: options
            .max_length
            .map_or(usize::MAX, |m| m.get().saturating_add(separator.len() + 1)),
    };
    for c in title.chars() {
        if b.full() {
            break;
        }
        if c.is_ascii_alphanumeric() {
            b.push_alnum(c);
            continue;
        }
        if options.symbols
            && may_be_symbol(c)
            && let Some(name) = names.name(c)
        {
            b.pending_separator = true;
            b.push_text(name);
            b.pending_separator = true;
            continue;
        }
        if c.is_ascii() {
            b.pending_separator = true;
        } else if is_traceless(c) {
            if let Some(text) = deunicode::deunicode_char(c) {
                text.chars()
                    .filter(char::is_ascii_alphanumeric)
                    .for_each(|c| b.push_alnum(c));
            }
        } else {
            match deunicode::deunicode_char(c) {
                Some(text) => b.push_text(text),
                None => b.pending_separator = true,
            }
        }
    }
    let mut slug = b.out;
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
        let options = Options::new(None, None, Some(12), None).unwrap();
        assert_eq!(
            slugify("The quick brown fox", &options, &NoSymbols).unwrap(),
            "the-quick"
        );
        let options = Options::new(None, None, Some(9), None).unwrap();
        assert_eq!(
            slugify("The quick brown fox", &options, &NoSymbols).unwrap(),
            "the-quick"
        );
        let options = Options::new(None, None, Some(4), None).unwrap();
        assert_eq!(
            slugify("Supercalifragilistic word", &options, &NoSymbols).unwrap(),
            "supe"
        );
        let options = Options::new(Some("--"), None, Some(3), None).unwrap();
        assert_eq!(slugify("ab cd", &options, &NoSymbols).unwrap(), "ab");
        let options = Options::new(Some(""), None, Some(3), None).unwrap();
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
        let options = Options::new(Some("_"), Some(false), None, None).unwrap();
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
            Options::new(None, None, Some(0), None),
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
