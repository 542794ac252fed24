//! The slug options: what a request, `slugd serve --defaults FILE` or the
//! command line may set ([`RawOptions`], every field optional and
//! unchecked) and what the engine runs with ([`Options`], checked once,
//! defaults filled in). Every check names the field and what is allowed.
//!
//! The options, in the order the engine applies them:
//! - `replacements`: `[from, to]` pairs applied to the title in one pass,
//!   before anything else;
//! - `locale`: the title's letters romanized by CLDR's rules for the
//!   language (`crate::locale`), and its word for `&`;
//! - `symbols`, `separator`, `lowercase`, `preserve`, `decamelize`: how
//!   characters become words (`fooBar APISection` is `foo bar api
//!   section` with `decamelize`) and words a slug;
//! - `stopwords`: whole words dropped from the slug, unless that would
//!   leave nothing;
//! - `max_length`: the slug cut at a word boundary;
//! - `fallback`: what to answer when the slug would be empty.
//!
//! And `rules`, which says which of the engine's rule versions makes the
//! slug ([`Rules`]): slugs are stored in URLs, so what a title becomes
//! changes only in a new version, and a deployment may pin an old one.
//!
//! Stopwords and how each rule version spells them are in
//! `options/stopwords.rs`, replacements in `options/replacements.rs`;
//! their items are re-exported here.

mod replacements;
mod stopwords;

use std::borrow::Cow;
use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::locale::{LocaleError, SlugLocale};
pub use crate::rules::Rules;
use crate::rules::Switch;
pub use replacements::{MAX_REPLACED_BYTES, Replacements, replacements};
pub use stopwords::{Spelling, StopWords, fold_written, given, spelt_stopwords, stopwords};

/// Characters allowed in a separator: the unreserved punctuation of
/// RFC 3986, so a slug never needs percent-encoding.
pub const SEPARATOR_CHARS: &str = "-_.~";

/// The longest separator accepted.
pub const MAX_SEPARATOR_LEN: usize = 8;

/// Characters `preserve` may keep: the same unreserved punctuation.
pub const PRESERVE_CHARS: &str = "._~";

/// Most `replacements` pairs.
pub const MAX_REPLACEMENTS: usize = 100;

/// Longest side of a replacement, in characters.
pub const MAX_REPLACEMENT_CHARS: usize = 64;

/// Most `stopwords`.
pub const MAX_STOPWORDS: usize = 1000;

/// Longest stopword, in characters.
pub const MAX_STOPWORD_CHARS: usize = 64;

/// Longest `fallback`, in characters.
pub const MAX_FALLBACK_CHARS: usize = 256;

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

/// Which of [`PRESERVE_CHARS`] are kept between letters and digits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Preserve(u8);

impl Preserve {
    /// Validates the characters of `preserve`.
    pub fn new(chars: &str) -> Result<Self, OptionError> {
        let mut bits = 0u8;
        for c in chars.chars() {
            match PRESERVE_CHARS.find(c) {
                Some(i) => bits |= 1 << i,
                None => return Err(OptionError::Preserve(c)),
            }
        }
        Ok(Preserve(bits))
    }

    /// Whether `byte` is kept.
    #[inline]
    pub fn contains(self, byte: u8) -> bool {
        self.0 != 0
            && PRESERVE_CHARS
                .bytes()
                .position(|p| p == byte)
                .is_some_and(|i| self.0 & (1 << i) != 0)
    }
}

/// A slug option that cannot be used. Each message names the field and
/// what is allowed.
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
    /// Too many `replacements`.
    #[error("replacements has {0} pairs; at most {MAX_REPLACEMENTS} are allowed")]
    TooManyReplacements(usize),
    /// A replacement's `from` is empty.
    #[error("replacements[{0}]: the text to replace is empty; give at least one character")]
    EmptyReplacement(usize),
    /// A replacement side is too long.
    #[error(
        "replacements[{0}][{1}] is {2} characters long; each side may have at most {MAX_REPLACEMENT_CHARS}"
    )]
    LongReplacement(usize, usize, usize),
    /// Too many `stopwords`.
    #[error("stopwords has {0} words; at most {MAX_STOPWORDS} are allowed")]
    TooManyStopwords(usize),
    /// A stopword that is not one word of a slug.
    #[error(
        "stopwords[{0}] {1:?} is not one word: give letters or digits only, at most {MAX_STOPWORD_CHARS} characters"
    )]
    Stopword(usize, String),
    /// A character `preserve` cannot keep.
    #[error("preserve may hold only the characters \"{PRESERVE_CHARS}\"; {0:?} is not one of them")]
    Preserve(char),
    /// A fallback that would itself give an empty slug.
    #[error(
        "fallback {0:?} has no letters or digits, so its own slug would be empty; give for example \"untitled\""
    )]
    EmptyFallback(String),
    /// A `locale` that is not a tag, or that CLDR has nothing for.
    #[error(transparent)]
    Locale(#[from] LocaleError),
    /// A fallback that is too long.
    #[error("fallback is {0} characters long; at most {MAX_FALLBACK_CHARS} are allowed")]
    LongFallback(usize),
    /// `max_bytes` was 0.
    #[error("max_bytes must be at least 1 (leave it out for no limit)")]
    ZeroMaxBytes,
    /// `ascii: false` by rules that do not have it.
    #[error(
        "ascii: false needs rules {first} or later (rules {0} give ASCII slugs only)",
        first = Rules::first_with(Switch::UnicodeSlugs)
    )]
    UnicodeRules(u64),
    /// A rule version that does not exist.
    #[error("rules {0} does not exist: give {every}", every = Rules::described())]
    Rules(u64),
}

/// Validated slug options. Cheap to clone: the lists are shared.
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
    /// Words dropped from the slug (default none).
    pub stopwords: StopWords,
    /// Applied to the title before anything else (default none).
    pub replacements: Replacements,
    /// Punctuation kept between letters and digits (default none).
    pub preserve: Preserve,
    /// The title slugged instead when the slug would be empty.
    pub fallback: Option<Arc<str>>,
    /// Split words at case changes: `fooBar` reads `foo Bar` (default
    /// false).
    pub decamelize: bool,
    /// CLDR's romanization and word for `&` of a language (default none:
    /// deunicode, and `and`).
    pub locale: Option<SlugLocale>,
    /// Which rule version makes the slug (default the newest).
    pub rules: Rules,
    /// ASCII slugs (default true); false keeps the title's own script
    /// (from rules 3).
    pub ascii: bool,
    /// Longest slug in bytes of its URI form (percent-encoded UTF-8), cut
    /// at a word boundary; for an ASCII slug the same as `max_length` in
    /// bytes.
    pub max_bytes: Option<NonZeroUsize>,
}

impl Options {
    /// The longest ASCII slug in bytes: `max_length` or `max_bytes`,
    /// whichever is less (an ASCII slug's characters are all unreserved, so
    /// its URI form is itself).
    #[inline]
    pub fn ascii_limit(&self) -> Option<NonZeroUsize> {
        match (self.max_length, self.max_bytes) {
            (Some(chars), Some(bytes)) => Some(chars.min(bytes)),
            (chars, bytes) => chars.or(bytes),
        }
    }

    /// Whether Japanese is read by a table's readings (IPADIC's): by
    /// versions with [`Switch::JapaneseReadings`], in ASCII slugs.
    #[inline]
    pub fn reads_japanese(&self) -> bool {
        self.ascii && self.rules.has(Switch::JapaneseReadings)
    }

    /// Whether Persian, Urdu and Arabic without vowel marks are read by
    /// the table's models of their vowels (rules 6, an ASCII slug): a
    /// title with Arabic letters then needs the table, symbols or not.
    #[inline]
    pub fn reads_vowels(&self) -> bool {
        self.ascii
            && crate::readers::vowels::Language::ALL
                .into_iter()
                .any(|l| self.rules.has(l.switch()))
    }

    /// Whether symbols are named as the locale writes them: `ascii:
    /// false` from rules 4 (before, by the romanized names).
    #[inline]
    pub fn names_written(&self) -> bool {
        !self.ascii && self.rules.has(Switch::WrittenNames)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            separator: Separator::default(),
            lowercase: true,
            max_length: None,
            symbols: true,
            stopwords: StopWords::default(),
            replacements: Replacements::default(),
            preserve: Preserve::default(),
            fallback: None,
            decamelize: false,
            locale: None,
            rules: Rules::NEWEST,
            ascii: true,
            max_bytes: None,
        }
    }
}

/// `stopwords`: a JSON list of words, or in a query string words separated
/// by commas.
pub fn words<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    list_or_text(
        d,
        "a list of words (in a query string: words separated by commas)",
        |text| {
            Ok(text
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect())
        },
    )
}

/// `replacements`: a JSON list of `[from, to]` pairs, or in a query string
/// that list as JSON text.
pub fn pairs<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<(String, String)>>, D::Error> {
    list_or_text(
        d,
        "a list of [from, to] pairs (in a query string: that list as JSON)",
        |text| serde_json::from_str(text).map_err(|e| format!("replacements: {e}")),
    )
}

/// A list option: a list in JSON, and in a query string (which has no
/// lists) text that `parse` turns into one; `null` is no value.
fn list_or_text<'de, D, T>(
    d: D,
    expecting: &'static str,
    parse: fn(&str) -> Result<Vec<T>, String>,
) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct ListOrText<T> {
        expecting: &'static str,
        parse: fn(&str) -> Result<Vec<T>, String>,
    }
    impl<'de, T: Deserialize<'de>> Visitor<'de> for ListOrText<T> {
        type Value = Option<Vec<T>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
            (self.parse)(text).map(Some).map_err(E::custom)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(Some(items))
        }
    }
    d.deserialize_any(ListOrText { expecting, parse })
}

/// Options as a request, the `--defaults` file or the command line gives
/// them: each may be missing, and none is checked yet.
/// [`RawOptions::validate_over`] checks those given and takes the others
/// from a base. Unknown fields are refused, so a misspelt option is an
/// error, not a silently ignored wish.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawOptions {
    /// What joins words (default `-`).
    pub separator: Option<String>,
    /// Fold to lowercase (default true).
    pub lowercase: Option<bool>,
    /// Longest slug; 0 is refused.
    pub max_length: Option<usize>,
    /// Spell symbols out by name (default true).
    pub symbols: Option<bool>,
    /// Words to drop: a list, or words separated by commas.
    #[serde(default, deserialize_with = "words")]
    pub stopwords: Option<Vec<String>>,
    /// `[from, to]` pairs: a list, or that list as JSON text.
    #[serde(default, deserialize_with = "pairs")]
    pub replacements: Option<Vec<(String, String)>>,
    /// Characters of `._~` to keep.
    pub preserve: Option<String>,
    /// The title to slug when the slug would be empty.
    pub fallback: Option<String>,
    /// Split words at case changes.
    pub decamelize: Option<bool>,
    /// A BCP 47 tag.
    pub locale: Option<String>,
    /// A rule version's number.
    pub rules: Option<u64>,
    /// ASCII slugs (default true), or the title's own script.
    pub ascii: Option<bool>,
    /// Longest slug in bytes of its URI form; 0 is refused.
    pub max_bytes: Option<usize>,
}

impl RawOptions {
    /// Reads a JSON object of options (the `--defaults` file); the error
    /// names the field that is wrong.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| match e.path().to_string() {
            path if path == "." => e.inner().to_string(),
            path => format!("{path}: {}", e.inner()),
        })
    }
}

/// A fallback as rules 1 to 3 take it: at most [`MAX_FALLBACK_CHARS`]
/// characters, with a letter or digit of ASCII, or a character whose
/// transliteration has one (`ь` and `ʻ` are letters that leave none).
pub fn fallback(text: &str) -> Result<Arc<str>, OptionError> {
    let len = text.chars().count();
    if len > MAX_FALLBACK_CHARS {
        return Err(OptionError::LongFallback(len));
    }
    let has_word = |c: char| {
        c.is_ascii_alphanumeric()
            || (!c.is_ascii()
                && deunicode::deunicode_char(c)
                    .is_some_and(|t| t.bytes().any(|b| b.is_ascii_alphanumeric())))
    };
    if !text.chars().any(has_word) {
        return Err(OptionError::EmptyFallback(text.to_owned()));
    }
    Ok(Arc::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_value_names_its_field() {
        let bad = |raw: RawOptions| raw.validate().unwrap_err().to_string();
        assert!(
            bad(RawOptions {
                separator: Some("/".into()),
                ..Default::default()
            })
            .starts_with("separator")
        );
        assert!(
            bad(RawOptions {
                max_length: Some(0),
                ..Default::default()
            })
            .starts_with("max_length")
        );
        let many = vec![("a".to_owned(), "b".to_owned()); MAX_REPLACEMENTS + 1];
        assert!(
            bad(RawOptions {
                replacements: Some(many),
                ..Default::default()
            })
            .starts_with("replacements has 101")
        );
        let empty = vec![("".to_owned(), "b".to_owned())];
        assert!(
            bad(RawOptions {
                replacements: Some(empty),
                ..Default::default()
            })
            .starts_with("replacements[0]")
        );
        let long = vec![("a".to_owned(), "b".repeat(65))];
        assert!(
            bad(RawOptions {
                replacements: Some(long),
                ..Default::default()
            })
            .starts_with("replacements[0][1] is 65")
        );
        let words = vec!["the".to_owned(), "two words".to_owned()];
        assert!(
            bad(RawOptions {
                stopwords: Some(words),
                ..Default::default()
            })
            .starts_with("stopwords[1]")
        );
        assert!(
            bad(RawOptions {
                preserve: Some("./".into()),
                ..Default::default()
            })
            .contains("'/'")
        );
        assert!(
            bad(RawOptions {
                fallback: Some("!!".into()),
                ..Default::default()
            })
            .starts_with("fallback")
        );
        assert!(
            bad(RawOptions {
                rules: Some(Rules::LAST.number() + 1),
                ..Default::default()
            })
            .starts_with(&format!(
                "rules {} does not exist",
                Rules::LAST.number() + 1
            ))
        );
    }

    #[test]
    fn the_defaults_file_reads_lists_as_a_request_does() {
        let raw = RawOptions::from_json(
            r#"{"stopwords": "a, the", "replacements": "[[\"%\", \" pct\"]]"}"#,
        )
        .unwrap();
        assert_eq!(raw.stopwords, Some(vec!["a".to_owned(), "the".to_owned()]));
        assert_eq!(
            raw.replacements,
            Some(vec![("%".to_owned(), " pct".to_owned())])
        );
        let err = RawOptions::from_json(r#"{"stopwords": 3}"#).unwrap_err();
        assert!(err.starts_with("stopwords: invalid type"), "{err}");
    }

    #[test]
    fn given_fields_override_the_base_and_the_rest_are_kept() {
        let base = RawOptions {
            separator: Some("_".into()),
            stopwords: Some(vec!["The".into(), "für".into()]),
            ..Default::default()
        }
        .validate()
        .unwrap();
        assert!(base.stopwords.contains("the") && base.stopwords.contains("FUR"));
        assert!(!base.stopwords.contains("they"));
        let request = RawOptions {
            max_length: Some(5),
            ..Default::default()
        };
        let merged = request.validate_over(&base).unwrap();
        assert_eq!(merged.separator.as_str(), "_");
        assert_eq!(merged.max_length, NonZeroUsize::new(5));
        assert_eq!(merged.stopwords, base.stopwords);
    }

    #[test]
    fn preserve_keeps_only_what_it_was_given() {
        let p = Preserve::new(".").unwrap();
        assert!(p.contains(b'.') && !p.contains(b'_') && !p.contains(b'a'));
        assert!(!Preserve::default().contains(b'.'));
    }
}
