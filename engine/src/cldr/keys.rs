//! The keys CLDR names: single symbols and emoji sequences (flags, keycaps,
//! ZWJ and skin-tone sequences), each with a number (its index in sorted
//! order) that every locale of a table version shares, and the longest
//! match of a sequence in a title.
//!
//! A service holds the whole set in either mode (3,996 keys in CLDR 41,
//! English's and every other locale's alike): it tells which names a title
//! needs without asking Redis. The keys are kept sorted, back to back in
//! one string, so a key's number is its position and a look-up is a binary
//! search: nothing is hashed, and the built-in default table's set is read
//! in place from the binary ([`KeySet::borrowed`]) with nothing to build at
//! start. Matching ignores U+FE0F, which CLDR's keys leave out and titles
//! often carry.

use std::borrow::Cow;

use crate::membership::Membership;
use crate::named::{self, VS16};

/// Code points in the longest key matched (CLDR 41's longest, the kiss
/// sequences with two skin tones, have 9 without U+FE0F).
const MAX_KEY_CHARS: usize = 16;

/// The lowest member of `words` (a [`Membership`]'s) from 128 on, or
/// `u32::MAX`.
const fn non_ascii_floor(words: &[u64]) -> u32 {
    let mut b = 2;
    while b < words.len() {
        if words[b] != 0 {
            return b as u32 * 64 + words[b].trailing_zeros();
        }
        b += 1;
    }
    u32::MAX
}

/// Every key of a table version, numbered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySet {
    /// The keys in sorted order (so in number order), back to back.
    keys: Cow<'static, str>,
    /// End offset in `keys` of each key.
    ends: Cow<'static, [u32]>,
    /// First characters of keys of two characters or more: a title
    /// position whose character is not one needs no search.
    starts: Membership,
    /// Characters in the longest key.
    longest: usize,
    /// The lowest non-ASCII member of `starts` (`u32::MAX` for none): text
    /// in Latin, Greek, Cyrillic, Arabic or Hebrew letters pays one
    /// comparison a character for emoji sequences ([`KeySet::may_start`]).
    floor: u32,
    /// Whether a key of two characters or more has an ASCII character
    /// second (U+FE0F aside). None of CLDR's has (keycaps start with ASCII,
    /// nothing goes on with it): then a symbol followed by a space, the
    /// usual case, needs no search ([`KeySet::longest`]).
    ascii_second: bool,
}

impl Default for KeySet {
    /// No keys: no sequence starts anywhere.
    fn default() -> Self {
        KeySet::new(Vec::new())
    }
}

impl KeySet {
    /// The set of `keys`, numbered in sorted order; duplicates count once.
    pub fn new(mut keys: Vec<String>) -> Self {
        keys.sort_unstable();
        keys.dedup();
        let mut text = String::with_capacity(keys.iter().map(String::len).sum());
        let mut ends = Vec::with_capacity(keys.len());
        let mut starts = Membership::default();
        let mut longest = 0;
        let mut ascii_second = false;
        for key in &keys {
            let chars = key.chars().count();
            // A longer key keeps its number (numbers are positions) but
            // is never matched.
            if (2..=MAX_KEY_CHARS).contains(&chars) {
                starts.insert(key.chars().next().expect("not empty"));
                longest = longest.max(chars);
                ascii_second |= key
                    .chars()
                    .filter(|&c| c != VS16)
                    .nth(1)
                    .is_some_and(|c| c.is_ascii());
            }
            text.push_str(key);
            ends.push(text.len() as u32);
        }
        starts.shrink_to_fit();
        KeySet {
            keys: Cow::Owned(text),
            ends: Cow::Owned(ends),
            floor: non_ascii_floor(starts.words()),
            ascii_second,
            starts,
            longest,
        }
    }

    /// The set of `keys` sorted and back to back with `ends`, the first
    /// characters of sequences `starts` and the longest `longest`
    /// characters, read in place: what [`KeySet::new`] makes, as
    /// [`KeySet::parts`] gives it, of keys none of which goes on with
    /// ASCII (as CLDR's: the unit test of the built-in table compares it
    /// with the one [`KeySet::new`] makes).
    pub const fn borrowed(
        keys: &'static str,
        ends: &'static [u32],
        starts: &'static [u64],
        longest: usize,
    ) -> Self {
        KeySet {
            keys: Cow::Borrowed(keys),
            ends: Cow::Borrowed(ends),
            starts: Membership::borrowed(starts),
            longest,
            floor: non_ascii_floor(starts),
            ascii_second: false,
        }
    }

    /// Whether a key of two characters or more starts with `c`, a
    /// non-ASCII character: one comparison for most letters, a bit test
    /// above them.
    #[inline]
    pub fn may_start(&self, c: char) -> bool {
        c as u32 >= self.floor && self.starts.contains(c)
    }

    /// The lowest non-ASCII character (as a number) a key of two
    /// characters or more starts with, `u32::MAX` if none does: below it
    /// [`KeySet::may_start`] holds for none.
    #[inline]
    pub fn floor(&self) -> u32 {
        self.floor
    }

    /// What [`KeySet::borrowed`] takes, for writing the built-in table's
    /// source.
    pub fn parts(&self) -> (&str, &[u32], &[u64], usize) {
        (&self.keys, &self.ends, self.starts.words(), self.longest)
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Key number `i`.
    #[inline]
    fn key(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.keys[start..self.ends[i] as usize]
    }

    /// The number of `key` (without U+FE0F).
    pub fn get(&self, key: &str) -> Option<u32> {
        let i = self.first_at_least(0, self.len(), key.as_bytes());
        (i < self.len() && self.key(i) == key).then_some(i as u32)
    }

    /// The first number in `lo..hi` whose key is not below `key` (`hi` if
    /// none).
    #[inline]
    fn first_at_least(&self, lo: usize, hi: usize, key: &[u8]) -> usize {
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            // UTF-8's byte order is the code points' order.
            if self.key(mid).as_bytes() < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The number of the single character `c`.
    #[inline]
    pub fn single(&self, c: char) -> Option<u32> {
        let mut buf = [0u8; 4];
        self.get(c.encode_utf8(&mut buf))
    }

    /// The longest key of two characters or more at the start of `text`,
    /// U+FE0F ignored: its number and the bytes of `text` it covers.
    #[inline]
    pub fn longest(&self, text: &str) -> Option<(u32, usize)> {
        let first = text.chars().next()?;
        if !self.starts.contains(first) {
            return None;
        }
        if !self.ascii_second {
            // No key goes on with what ends the text or an ASCII character.
            let rest = text[first.len_utf8()..].trim_start_matches(VS16);
            if rest.as_bytes().first().is_none_or(u8::is_ascii) {
                return None;
            }
        }
        self.longest_from(text)
    }

    /// The keys that start with the key so far are a run of numbers, the
    /// key itself first if it is one: each character narrows the run, and
    /// the search ends when it is empty.
    #[inline(never)]
    fn longest_from(&self, text: &str) -> Option<(u32, usize)> {
        // On the stack: this runs at every position a sequence may start.
        let mut key = [0u8; 4 * MAX_KEY_CHARS];
        let mut key_len = 0;
        let mut chars = 0;
        let (mut lo, mut hi) = (0, self.len());
        let mut found = None;
        for (at, c) in text.char_indices() {
            if c == VS16 {
                continue;
            }
            if chars == self.longest.min(MAX_KEY_CHARS) {
                break;
            }
            key_len += c.encode_utf8(&mut key[key_len..]).len();
            chars += 1;
            let key = &key[..key_len];
            lo = self.first_at_least(lo, hi, key);
            hi = lo + self.prefixed(lo, hi, key);
            if lo == hi {
                break;
            }
            if chars >= 2 && self.key(lo).as_bytes() == key {
                found = Some((lo as u32, at + c.len_utf8()));
            }
        }
        found
    }

    /// How many keys from `lo` on (below `hi`) start with `prefix`, given
    /// that none from `lo` on is below it.
    #[inline]
    fn prefixed(&self, lo: usize, hi: usize, prefix: &[u8]) -> usize {
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = a + (b - a) / 2;
            if self.key(mid).as_bytes().starts_with(prefix) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        a - lo
    }

    /// Every match in `text` that the engine may use: wherever a name may
    /// start ([`named::may_start_at`]). Overlapping matches are all
    /// listed: what the engine takes depends on what comes before.
    pub fn matches<'t>(&'t self, text: &'t str) -> impl Iterator<Item = u32> + 't {
        // No name starts in ASCII text: most titles are skipped at once.
        let text = if text.is_ascii() { "" } else { text };
        text.char_indices()
            .filter(move |&(at, _)| named::may_start_at(text, at))
            .filter_map(move |(at, _)| self.longest(&text[at..]).map(|(i, _)| i))
    }

    /// The keys in number order, one per line: the form stored in Redis.
    pub fn encode(&self) -> String {
        let mut out = String::with_capacity(self.keys.len() + self.len());
        for i in 0..self.len() {
            out.push_str(self.key(i));
            out.push('\n');
        }
        out
    }

    /// Reads [`KeySet::encode`]'s form.
    pub fn decode(text: &str) -> Result<Self, String> {
        let keys: Vec<String> = text.lines().map(str::to_owned).collect();
        if keys.iter().any(String::is_empty) || !keys.is_sorted() {
            return Err("the CLDR keys are not one sorted key per line".to_owned());
        }
        Ok(KeySet::new(keys))
    }

    /// Bytes the set takes: the keys, their ends and the first characters
    /// (in the binary for the built-in set, else on the heap).
    pub fn heap_bytes(&self) -> usize {
        self.keys.len() + self.ends.len() * 4 + self.starts.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> KeySet {
        KeySet::new(
            [
                "🇩🇪",
                "👨\u{200D}👩\u{200D}👧",
                "👨\u{200D}👩\u{200D}👧\u{200D}👦",
                "1\u{20E3}",
                "☕",
                "👁\u{200D}🗨",
            ]
            .map(String::from)
            .to_vec(),
        )
    }

    #[test]
    fn the_longest_sequence_matches_with_or_without_fe0f() {
        let keys = set();
        let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦 home";
        let (i, len) = keys.longest(family).unwrap();
        assert_eq!(i, keys.get("👨\u{200D}👩\u{200D}👧\u{200D}👦").unwrap());
        assert_eq!(&family[len..], " home");
        let three = "👨\u{200D}👩\u{200D}👧!";
        assert_eq!(
            keys.longest(three),
            Some((keys.get("👨\u{200D}👩\u{200D}👧").unwrap(), three.len() - 1))
        );
        let eye = "👁\u{FE0F}\u{200D}🗨\u{FE0F}";
        let (i, len) = keys.longest(eye).unwrap();
        assert_eq!(i, keys.get("👁\u{200D}🗨").unwrap());
        assert_eq!(&eye[len..], "\u{FE0F}");
        assert_eq!(keys.longest("1\u{FE0F}\u{20E3}").map(|m| m.1), Some(7));
        // Single keys are not sequences.
        assert_eq!(keys.longest("☕"), None);
        assert_eq!(keys.single('☕'), keys.get("☕"));
        assert_eq!(keys.longest("🇩"), None);
        let found: Vec<u32> = keys.matches("a 1\u{20E3} 🇩🇪 12").collect();
        assert_eq!(
            found,
            vec![keys.get("1\u{20E3}").unwrap(), keys.get("🇩🇪").unwrap()]
        );
    }

    #[test]
    fn encodes_and_decodes_in_number_order() {
        let keys = set();
        let back = KeySet::decode(&keys.encode()).unwrap();
        assert_eq!(back, keys);
        // A key too long to match keeps its number, so the numbers of the
        // keys after it do not move.
        let long = "🇦".repeat(MAX_KEY_CHARS + 1);
        let with_long = KeySet::new(vec![long.clone(), "🇩🇪".into()]);
        assert_eq!(with_long.get(&long), Some(0));
        assert_eq!(with_long.get("🇩🇪"), Some(1));
        assert_eq!(KeySet::decode(&with_long.encode()).unwrap(), with_long);
        assert_eq!(with_long.longest(&long), None);
        assert!(KeySet::decode("b\na\n").is_err());
    }
}
