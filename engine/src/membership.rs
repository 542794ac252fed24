//! A bitmap of numbers (code points, or CLDR key numbers) in words of 64
//! bits, with ranks: which characters a table holds, which keys a locale
//! names, and the index of a member among all members. The Redis layout
//! stores it in a version's meta (see `table::layout`); the in-process
//! table and the CLDR key set use it in memory; the built-in default
//! table's are read in place from the binary ([`Membership::borrowed`]).

use std::borrow::Cow;
use std::fmt::Write;

/// Bits per word, as a shift: a word is one Redis bucket of 64 numbers.
const WORD_BITS: u32 = 6;

/// Numbers per word.
const WORD_SIZE: u32 = 1 << WORD_BITS;

/// Which numbers are members (code points in the table, or CLDR keys a
/// locale names): one bit per number, words of 64 bits indexed by bucket,
/// up to the highest member.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Membership {
    /// Built here, or borrowed from the binary (the built-in table's).
    words: Cow<'static, [u64]>,
}

impl Membership {
    /// The membership whose words are `words`, read in place.
    pub const fn borrowed(words: &'static [u64]) -> Self {
        Membership {
            words: Cow::Borrowed(words),
        }
    }

    /// Its words, for writing the built-in table's source.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Drops spare capacity, so that [`Membership::heap_bytes`] is what
    /// the members take.
    pub fn shrink_to_fit(&mut self) {
        if let Cow::Owned(words) = &mut self.words {
            words.shrink_to_fit();
        }
    }

    /// Adds `c`. Returns false if it was already there.
    pub fn insert(&mut self, c: char) -> bool {
        self.insert_index(c as u32)
    }

    /// Adds number `i` (a code point, or a CLDR key's number).
    pub fn insert_index(&mut self, i: u32) -> bool {
        let b = (i >> WORD_BITS) as usize;
        let words = self.words.to_mut();
        if words.len() <= b {
            words.resize(b + 1, 0);
        }
        let bit = 1u64 << (i & (WORD_SIZE - 1));
        let fresh = words[b] & bit == 0;
        words[b] |= bit;
        fresh
    }

    /// Whether `c` is in the table.
    #[inline]
    pub fn contains(&self, c: char) -> bool {
        self.contains_index(c as u32)
    }

    /// Whether number `i` is a member.
    #[inline]
    pub fn contains_index(&self, i: u32) -> bool {
        match self.words.get((i >> WORD_BITS) as usize) {
            Some(word) => word & (1u64 << (i & (WORD_SIZE - 1))) != 0,
            None => false,
        }
    }

    /// How many members come before member `i` (its index among sorted
    /// members). `ranks` holds the number of members before each word.
    #[inline]
    pub fn rank(&self, ranks: &[u32], i: u32) -> usize {
        let b = (i >> WORD_BITS) as usize;
        let below = self.words[b] & ((1u64 << (i & (WORD_SIZE - 1))) - 1);
        ranks[b] as usize + below.count_ones() as usize
    }

    /// The members, in order.
    pub fn indexes(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(b, &w)| {
            (0..WORD_SIZE)
                .filter(move |bit| w & (1u64 << bit) != 0)
                .map(move |bit| ((b as u32) << WORD_BITS) | bit)
        })
    }

    /// The number of members before each word, for [`Membership::rank`].
    pub fn ranks(&self) -> Vec<u32> {
        let mut total = 0u32;
        self.words
            .iter()
            .map(|w| {
                let before = total;
                total += w.count_ones();
                before
            })
            .collect()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The buckets that have members.
    pub fn buckets(&self) -> impl Iterator<Item = u32> + '_ {
        self.words
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0)
            .map(|(b, _)| b as u32)
    }

    /// Bytes the words take (in the binary for a borrowed one); after
    /// [`Membership::shrink_to_fit`], the heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        let words = match &self.words {
            Cow::Borrowed(words) => words.len(),
            Cow::Owned(words) => words.capacity(),
        };
        words * std::mem::size_of::<u64>()
    }

    /// The text form stored in `meta` field `index`: `bucket:mask` pairs in
    /// hex, separated by commas.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        for (b, w) in self.words.iter().enumerate().filter(|(_, w)| **w != 0) {
            if !out.is_empty() {
                out.push(',');
            }
            let _ = write!(out, "{b:x}:{w:x}");
        }
        out
    }

    /// Parses [`Membership::encode`]'s form.
    pub fn decode(text: &str) -> Result<Self, String> {
        let mut m = Membership::default();
        for pair in text.split(',').filter(|p| !p.is_empty()) {
            let parsed = pair.split_once(':').and_then(|(b, w)| {
                Some((
                    u32::from_str_radix(b, 16).ok()?,
                    u64::from_str_radix(w, 16).ok()?,
                ))
            });
            let Some((b, w)) = parsed.filter(|(b, _)| *b <= 0x10FFFF >> WORD_BITS) else {
                return Err(format!("bad index entry '{pair}'"));
            };
            let b = b as usize;
            let words = m.words.to_mut();
            if words.len() <= b {
                words.resize(b + 1, 0);
            }
            words[b] = w;
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn membership_round_trips_and_ranks() {
        let mut m = Membership::default();
        for c in ['☃', '☢', '⬣', '🦄', '©'] {
            assert!(m.insert(c));
        }
        assert!(!m.insert('☃'));
        assert!(
            m.contains('☃') && m.contains('🦄') && !m.contains('a') && !m.contains('\u{10FFFF}')
        );
        assert_eq!(m.len(), 5);
        let back = Membership::decode(&m.encode()).unwrap();
        assert_eq!(back, m);
        let ranks = m.ranks();
        assert_eq!(m.rank(&ranks, '©' as u32), 0);
        assert_eq!(m.rank(&ranks, '☃' as u32), 1);
        assert_eq!(m.rank(&ranks, '🦄' as u32), 4);
        let all: Vec<u32> = m.indexes().collect();
        assert_eq!(all, ['©', '☃', '☢', '⬣', '🦄'].map(|c| c as u32));
        assert!(Membership::decode("zz:1").is_err());
    }
}
