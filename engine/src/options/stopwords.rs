//! Stopwords: the words a slug drops, as the slug spells them and as
//! `ascii: false` writes them ([`StopWords`]), the tables that find a
//! word of a title among them with a test or two (`ShortWords` of
//! `packed` words), and how each rule version spells them ([`Spelling`],
//! [`stopwords`], [`spelt_stopwords`], [`fold_written`]).

use std::collections::HashSet;
use std::sync::Arc;

use super::{MAX_STOPWORD_CHARS, MAX_STOPWORDS, OptionError};
use crate::locale::SlugLocale;
use crate::rules::{Rules, Switch};

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
    fn many_stopwords_give_the_same_answers_by_hash_and_in_the_table() {
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
    }
}
