//! The keys CLDR names: single symbols and emoji sequences (flags, keycaps,
//! ZWJ and skin-tone sequences), each with a number (its index in sorted
//! order) that every locale of a table version shares, and the longest
//! match of a sequence in a title.
//!
//! A service holds the whole set in either mode (3,996 keys in CLDR 41,
//! English's and every other locale's alike): it tells which names a title needs without asking Redis.
//! Matching ignores U+FE0F, which CLDR's keys leave out and titles often
//! carry.

use std::collections::HashMap;

use crate::membership::Membership;
use crate::named::{self, VS16};

/// Code points in the longest key matched (CLDR 41's longest, the kiss
/// sequences with two skin tones, have 9 without U+FE0F).
const MAX_KEY_CHARS: usize = 16;

/// Every key of a table version, numbered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeySet {
    /// Key -> its number.
    index: HashMap<Box<str>, u32>,
    /// First characters of keys of two characters or more: a title
    /// position whose character is not one needs no hashing.
    starts: Membership,
    /// Characters in the longest key.
    longest: usize,
}

impl KeySet {
    /// The set of `keys`, numbered in sorted order; duplicates count once.
    pub fn new(mut keys: Vec<String>) -> Self {
        keys.sort_unstable();
        keys.dedup();
        let mut set = KeySet::default();
        for (i, key) in keys.into_iter().enumerate() {
            let chars = key.chars().count();
            // A longer key keeps its number (numbers are positions) but
            // is never matched.
            if (2..=MAX_KEY_CHARS).contains(&chars) {
                set.starts.insert(key.chars().next().expect("not empty"));
                set.longest = set.longest.max(chars);
            }
            set.index.insert(key.into_boxed_str(), i as u32);
        }
        set
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The number of `key` (without U+FE0F).
    pub fn get(&self, key: &str) -> Option<u32> {
        self.index.get(key).copied()
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
        self.longest_from(text)
    }

    #[inline(never)]
    fn longest_from(&self, text: &str) -> Option<(u32, usize)> {
        // The key so far, and after each character its length there and
        // in `text`.
        let mut key = String::with_capacity(64);
        let mut ends: Vec<(usize, usize)> = Vec::with_capacity(self.longest);
        for (at, c) in text.char_indices() {
            if c == VS16 {
                continue;
            }
            if ends.len() == self.longest {
                break;
            }
            key.push(c);
            ends.push((key.len(), at + c.len_utf8()));
        }
        ends.iter()
            .skip(1)
            .rev()
            .find_map(|&(k, t)| Some((self.get(&key[..k])?, t)))
    }

    /// Every match in `text` that the engine may use: wherever a name may
    /// start ([`named::may_start_at`]). Overlapping matches are all
    /// listed: what the engine takes depends on what comes before.
    pub fn matches<'t>(&'t self, text: &'t str) -> impl Iterator<Item = u32> + 't {
        text.char_indices()
            .filter(move |&(at, _)| named::may_start_at(text, at))
            .filter_map(move |(at, _)| self.longest(&text[at..]).map(|(i, _)| i))
    }

    /// The keys in number order, one per line: the form stored in Redis.
    pub fn encode(&self) -> String {
        let mut keys: Vec<(&u32, &Box<str>)> = self.index.iter().map(|(k, i)| (i, k)).collect();
        keys.sort_unstable();
        let mut out = String::with_capacity(keys.iter().map(|(_, k)| k.len() + 1).sum());
        for (_, key) in keys {
            out.push_str(key);
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

    /// Heap bytes held, roughly: the keys and the map's slots.
    pub fn heap_bytes(&self) -> usize {
        self.index.keys().map(|k| k.len()).sum::<usize>()
            + self.index.capacity() * (std::mem::size_of::<(Box<str>, u32)>() + 1)
            + self.starts.heap_bytes()
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
