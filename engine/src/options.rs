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

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::locale::{LocaleError, SlugLocale};
pub use crate::rules::Rules;
use crate::rules::Switch;

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

/// Words dropped from slugs, as the slug spells them: ASCII, lowercase.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopWords {
    /// The words of more than 7 bytes (the others are in `short`),
    /// compared one by one while there are few: cheaper than hashing.
    list: Arc<[Box<[u8]>]>,
    /// The same, looked up by hash when there are many.
    set: Option<Arc<HashSet<Box<[u8]>>>>,
    /// Bit `n` set when a stopword is `n` bytes long (63 for longer): most
    /// words of a title are turned away by one test.
    lengths: u64,
    /// The stopwords of up to 7 bytes, each as the number its bytes make
    /// ([`packed`]), in a table of open addressing ([`ShortWords`]): most
    /// stopwords are short, and a word of a title is found or turned away
    /// with a probe or two.
    short: ShortWords,
    /// The words as `ascii: false` writes them (NFKC, lowercase).
    written: Arc<HashSet<Box<str>>>,
    /// The words as given, to spell them again for a request whose
    /// options spell them otherwise than the service's defaults did.
    pub given: Arc<[Box<str>]>,
    /// What spelled them.
    pub spelling: Spelling,
}

/// What spells stopwords: deunicode alone (rules 1 to 3), or the engine
/// itself with a locale and `decamelize` (rules 4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Spelling {
    /// deunicode alone.
    #[default]
    Deunicode,
    /// The engine, with this locale and `decamelize`.
    Engine(Option<SlugLocale>, bool),
}

impl Spelling {
    /// What spells the stopwords of a request with `rules`, `locale` and
    /// `decamelize`.
    pub fn of(rules: Rules, locale: Option<&SlugLocale>, decamelize: bool) -> Self {
        match rules.has(Switch::EngineSpellsWords) {
            false => Spelling::Deunicode,
            true => Spelling::Engine(locale.cloned(), decamelize),
        }
    }
}

/// Words of up to 7 bytes as [`packed`] numbers (never 0), in slots of a
/// power of two at least twice their number: a number's first slot is a
/// multiplicative hash of it, and a search goes on slot by slot to the
/// number or an empty slot (0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct ShortWords {
    slots: Arc<[u64]>,
    /// 64 minus the slots' number as a power of two: the shift that takes
    /// a hash to a slot.
    shift: u32,
}

impl ShortWords {
    fn new(words: impl Iterator<Item = u64>) -> Self {
        let words: Vec<u64> = words.collect();
        let bits = (words.len() * 2)
            .next_power_of_two()
            .max(8)
            .trailing_zeros();
        let mut slots = vec![0u64; 1 << bits];
        let shift = 64 - bits;
        for word in words {
            let mut at = Self::first_slot(word, shift);
            while slots[at] != 0 && slots[at] != word {
                at = (at + 1) & (slots.len() - 1);
            }
            slots[at] = word;
        }
        ShortWords {
            slots: slots.into(),
            shift,
        }
    }

    #[inline]
    fn first_slot(word: u64, shift: u32) -> usize {
        (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
    }

    /// Whether `word`, a [`packed`] number, is one of them.
    #[inline]
    fn contains(&self, word: u64) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut at = Self::first_slot(word, self.shift) & mask;
        loop {
            match self.slots[at] {
                0 => return false,
                slot if slot == word => return true,
                _ => at = (at + 1) & mask,
            }
        }
    }
}

/// `word`'s bytes, ASCII lowercase, as one number (the first byte lowest,
/// its length in the highest), if it has 1 to 7 bytes: two such words are
/// equal but for ASCII case when their numbers are.
#[inline]
fn packed(word: &[u8]) -> Option<u64> {
    if !(1..=7).contains(&word.len()) {
        return None;
    }
    let n = (word.iter().enumerate()).fold((word.len() as u64) << 56, |n, (i, &b)| {
        n | u64::from(b) << (8 * i)
    });
    // Each byte's top bit: in `from_a` when it is `A` or above, in
    // `past_z` when it is above `Z`, for bytes below 0x80 (the sums carry
    // into no other byte); bytes from 0x80 are left as they are.
    const ONES: u64 = u64::MAX / 255;
    let seven_bits = n & (ONES * 0x7F);
    let from_a = seven_bits + ONES * (0x80 - u64::from(b'A'));
    let past_z = seven_bits + ONES * (0x7F - u64::from(b'Z'));
    let upper = from_a & !past_z & !n & (ONES * 0x80);
    Some(n | upper >> 2)
}

/// The longest stopword as the slug spells it, in bytes (a 64-character
/// word may transliterate to more).
const MAX_SPELT_STOPWORD: usize = 256;

/// Up to this many stopwords a scan beats a hash look-up.
const SCANNED_STOPWORDS: usize = 16;

impl StopWords {
    /// The stopwords as the slug spells them (`words`), as `ascii: false`
    /// writes them (`written`) and as given, spelled by `spelling`.
    pub fn new(
        words: HashSet<Box<[u8]>>,
        written: HashSet<Box<str>>,
        given: Arc<[Box<str>]>,
        spelling: Spelling,
    ) -> Self {
        let lengths = words.iter().fold(0, |m, w| m | 1 << w.len().min(63));
        let short = ShortWords::new(words.iter().filter_map(|w| packed(w)));
        let long: HashSet<Box<[u8]>> = words.into_iter().filter(|w| packed(w).is_none()).collect();
        let (list, set) = match long.len() > SCANNED_STOPWORDS {
            true => (Arc::default(), Some(Arc::new(long))),
            false => (long.into_iter().collect(), None),
        };
        StopWords {
            list,
            set,
            lengths,
            short,
            written: Arc::new(written),
            given,
            spelling,
        }
    }

    /// Whether `word`, a word of an `ascii: false` slug (any case), is a
    /// stopword as written.
    pub fn contains_written(&self, word: &str) -> bool {
        if self.written.is_empty() {
            return false;
        }
        self.written.contains(fold_written(word).as_str())
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.lengths == 0
    }

    /// Whether a stopword may be `len` bytes long: most words of a title
    /// are turned away by this one test.
    #[inline]
    pub fn may_have_len(&self, len: usize) -> bool {
        self.lengths & (1 << len.min(63)) != 0
    }

    /// Whether `word` (a word of a slug, any case) is a stopword.
    #[inline]
    pub fn contains(&self, word: &str) -> bool {
        self.contains_bytes(word.as_bytes())
    }

    /// [`StopWords::contains`] of a word's bytes.
    #[inline]
    pub fn contains_bytes(&self, word: &[u8]) -> bool {
        let len = word.len();
        if !self.may_have_len(len) || len > MAX_SPELT_STOPWORD {
            return false;
        }
        if let Some(word) = packed(word) {
            return self.short.contains(word);
        }
        self.contains_long(word)
    }

    /// [`StopWords::contains_bytes`] of a word of more than 7 bytes.
    #[cold]
    fn contains_long(&self, word: &[u8]) -> bool {
        let len = word.len();
        let Some(set) = &self.set else {
            return self.list.iter().any(|w| w.eq_ignore_ascii_case(word));
        };
        let mut lower = [0u8; MAX_SPELT_STOPWORD];
        lower[..len].copy_from_slice(word);
        lower[..len].make_ascii_lowercase();
        set.contains(&lower[..len])
    }
}

/// The longest title replacements may make, in bytes: past it the rest of
/// the title is left out, so no request can make a buffer grow without
/// bound (each `to` may be 64 characters for a one-character `from`).
pub const MAX_REPLACED_BYTES: usize = 1024 * 1024;

/// `[from, to]` pairs applied to the title in one pass from its start: at
/// each place, the first pair (in the order given) whose `from` is there
/// is replaced, and what it put in is not read again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Replacements {
    pairs: Arc<[(Box<str>, Box<str>)]>,
    /// The first bytes of the `from`s, a bit each: a title none of whose
    /// bytes is one (most titles) is passed over in one scan, without a
    /// search for each `from`.
    firsts: [u64; 4],
}

impl Replacements {
    /// Whether there are no pairs.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The title with the pairs applied; borrowed when none applies.
    #[inline]
    pub fn apply<'t>(&self, title: &'t str) -> Cow<'t, str> {
        if !self.applies_to(title) {
            return Cow::Borrowed(title);
        }
        Cow::Owned(self.apply_once(title))
    }

    /// Whether a pair applies to `title`: whether a `from` occurs in it.
    #[inline]
    pub fn applies_to(&self, title: &str) -> bool {
        let first = |b: u8| self.firsts[usize::from(b >> 6)] & (1 << (b & 63)) != 0;
        !self.pairs.is_empty()
            && title.bytes().any(first)
            && self.pairs.iter().any(|(from, _)| title.contains(&**from))
    }

    fn apply_once(&self, title: &str) -> String {
        let mut out = String::with_capacity(title.len().min(MAX_REPLACED_BYTES));
        let mut rest = title;
        while let Some(c) = rest.chars().next() {
            if out.len() >= MAX_REPLACED_BYTES {
                break;
            }
            match self
                .pairs
                .iter()
                .find(|(from, _)| rest.starts_with(&**from))
            {
                Some((from, to)) => {
                    out.push_str(to);
                    rest = &rest[from.len()..];
                }
                None => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        out
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

/// A word as `ascii: false` writes it, to compare words: NFKC, lowercase
/// by the root's rules (Rust's full mapping, as the engine lowercases a
/// language without rules of its own), NFKC again. Stopwords and reserved
/// slugs are compared in this form.
pub fn fold_written(word: &str) -> String {
    if word.is_ascii() {
        return word.to_ascii_lowercase();
    }
    use icu::normalizer::ComposingNormalizer;
    let nfkc = ComposingNormalizer::new_nfkc();
    let lower = nfkc.normalize(word).to_lowercase();
    nfkc.normalize(&lower).into_owned()
}

/// Stopwords as rules 1 to 3 spell them: transliterated and lowercased,
/// so `für` drops the word `fur`.
pub fn stopwords(words: &[String]) -> Result<StopWords, OptionError> {
    spelt_stopwords(words, Spelling::Deunicode, false, deunicode_spelling)
}

/// Stopwords spelt by `spell` (`by` says how, for the defaults' words to
/// be spelt again when a request's spelling differs): each must spell to
/// one word of ASCII letters and digits. With `lenient`, a word that
/// does not is left out instead of refused.
pub fn spelt_stopwords(
    words: &[String],
    by: Spelling,
    lenient: bool,
    spell: impl Fn(&str) -> String,
) -> Result<StopWords, OptionError> {
    if words.len() > MAX_STOPWORDS {
        return Err(OptionError::TooManyStopwords(words.len()));
    }
    let written = words
        .iter()
        .map(|w| fold_written(w.trim()).into_boxed_str())
        .collect();
    let mut out = HashSet::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let spelt = match word.chars().count() > MAX_STOPWORD_CHARS {
            true => String::new(),
            false => spell(word),
        };
        if spelt.len() > MAX_SPELT_STOPWORD
            || spelt.is_empty()
            || !spelt.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            match lenient {
                true => continue,
                false => return Err(OptionError::Stopword(i, word.clone())),
            }
        }
        out.insert(spelt.into_bytes().into_boxed_slice());
    }
    Ok(StopWords::new(out, written, given(words), by))
}

/// A stopword as rules 1 to 3 spell it: transliterated, lowercase, with
/// the apostrophes deunicode writes for `’` or the soft sign dropped.
fn deunicode_spelling(word: &str) -> String {
    deunicode::deunicode(word.trim())
        .chars()
        .filter(|&c| c != '\'')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The words as given, kept to spell them again.
pub fn given(words: &[String]) -> Arc<[Box<str>]> {
    words.iter().map(|w| Box::from(w.as_str())).collect()
}

/// Checks `replacements` pairs.
pub fn replacements(pairs: &[(String, String)]) -> Result<Replacements, OptionError> {
    if pairs.len() > MAX_REPLACEMENTS {
        return Err(OptionError::TooManyReplacements(pairs.len()));
    }
    let mut out = Vec::with_capacity(pairs.len());
    let mut firsts = [0u64; 4];
    for (i, (from, to)) in pairs.iter().enumerate() {
        let Some(&first) = from.as_bytes().first() else {
            return Err(OptionError::EmptyReplacement(i));
        };
        firsts[usize::from(first >> 6)] |= 1 << (first & 63);
        for (side, text) in [(0, from), (1, to)] {
            let len = text.chars().count();
            if len > MAX_REPLACEMENT_CHARS {
                return Err(OptionError::LongReplacement(i, side, len));
            }
        }
        out.push((from.clone().into_boxed_str(), to.clone().into_boxed_str()));
    }
    Ok(Replacements {
        pairs: out.into(),
        firsts,
    })
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
    fn packed_words_are_equal_exactly_when_they_are_but_for_ascii_case() {
        // Every pair of bytes, alone and inside a word of 7.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let same = a.eq_ignore_ascii_case(&b);
                assert_eq!(packed(&[a]) == packed(&[b]), same, "{a} {b}");
                let (x, y) = (
                    [b'Q', a, 0xC3, b'z', b'@', b'[', a],
                    [b'q', b, 0xC3, b'Z', b'@', b'[', b],
                );
                assert_eq!(packed(&x) == packed(&y), same, "{a} {b}");
            }
        }
        assert_ne!(packed(b"a"), packed(b"a\0"));
        assert_eq!(packed(b""), None);
        assert_eq!(packed(b"8 bytes!"), None);
    }

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
                rules: Some(Rules::NEWEST.number() + 1),
                ..Default::default()
            })
            .starts_with(&format!(
                "rules {} does not exist",
                Rules::NEWEST.number() + 1
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
        // Many stopwords are looked up by hash (those of more than 7
        // bytes) or in the short words' table, with the same answers.
        let many: Vec<String> = (0..40)
            .flat_map(|i| [format!("w{i}"), format!("longword{i}")])
            .collect();
        let many = stopwords(&many).unwrap();
        assert!(many.set.is_some());
        assert!(many.contains("W39") && many.contains("w0") && !many.contains("w40"));
        assert!(many.contains("LongWord39") && many.contains("longword0"));
        assert!(!many.contains("longword40") && !many.contains("longword"));
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
    fn replacements_apply_in_one_bounded_pass_and_borrow_when_nothing_changes() {
        let r = replacements(&[
            ("%".into(), " percent".into()),
            ("percent".into(), "pct".into()),
        ])
        .unwrap();
        // One pass: what a pair put in is not replaced again.
        assert_eq!(r.apply("50% off, percent"), "50 percent off, pct");
        assert!(matches!(r.apply("nothing"), Cow::Borrowed(_)));
        let grow = replacements(&[("a".into(), "a".repeat(64))]).unwrap();
        assert_eq!(grow.apply("aa").len(), 128);
        let huge = "a".repeat(MAX_REPLACED_BYTES);
        assert!(grow.apply(&huge).len() < MAX_REPLACED_BYTES + 64);
    }

    #[test]
    fn preserve_keeps_only_what_it_was_given() {
        let p = Preserve::new(".").unwrap();
        assert!(p.contains(b'.') && !p.contains(b'_') && !p.contains(b'a'));
        assert!(!Preserve::default().contains(b'.'));
    }
}
