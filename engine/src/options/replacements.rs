//! Replacements: the `[from, to]` pairs applied to the title before
//! anything else ([`Replacements`]), their check ([`replacements`]) and
//! the bound on what they may make of a title ([`MAX_REPLACED_BYTES`]).

use std::borrow::Cow;
use std::sync::Arc;

use super::{MAX_REPLACEMENT_CHARS, MAX_REPLACEMENTS, OptionError};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
