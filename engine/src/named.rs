//! Which parts of a title may get a name from the table: the one
//! definition that the engine (`crate::slug`), the key set's matching
//! (`crate::cldr::KeySet::matches`, which decides what a request fetches)
//! and the Redis table's check while Redis has never answered share, so
//! that what is fetched is what the engine asks for.
//!
//! A name may start at any non-ASCII character (a symbol of the table, the
//! first character of an emoji sequence), or at a keycap's base right
//! before one (`1️⃣` is `1`, U+FE0F, U+20E3). ASCII is never looked up
//! otherwise.

use crate::unicode_data::{self, Categories};

/// The variation selector that asks for emoji presentation. CLDR's keys
/// leave it out; titles often carry it.
pub const VS16: char = '\u{FE0F}';

/// COMBINING ENCLOSING KEYCAP: after a base, a keycap.
pub const KEYCAP: char = '\u{20E3}';

/// Whether `byte` can be a keycap's base: `0`-`9`, `#` or `*`.
#[inline]
pub fn is_keycap_base(byte: u8) -> bool {
    matches!(byte, b'0'..=b'9' | b'#' | b'*')
}

/// Whether `c`, right after a keycap's base, may be part of a keycap.
#[inline]
pub fn is_keycap_mark(c: char) -> bool {
    matches!(c, VS16 | KEYCAP)
}

/// Whether a name may start at byte `at` of `text`, a character boundary.
#[inline]
pub fn may_start_at(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    match bytes.get(at) {
        Some(&byte) if byte.is_ascii() => {
            is_keycap_base(byte) && bytes.get(at + 1).is_some_and(|b| !b.is_ascii())
        }
        Some(_) => true,
        None => false,
    }
}

/// Whether a table of `categories` may name anything in `title`: a
/// character of them, or a keycap (the sequence would be named). Asked
/// while Redis has never answered, when only the categories are known.
pub fn may_need_table(title: &str, categories: &Categories) -> bool {
    title
        .chars()
        .any(|c| c == KEYCAP || unicode_data::belongs(c, unicode_data::category_of(c), categories))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_start_at_non_ascii_and_at_a_keycap_base_before_it() {
        let text = "a 1\u{FE0F}\u{20E3} #x ☕";
        let starts: Vec<usize> = text
            .char_indices()
            .filter(|&(at, _)| may_start_at(text, at))
            .map(|(at, _)| at)
            .collect();
        // `1` before U+FE0F, U+FE0F, U+20E3 and ☕; not `a`, `#` before `x`,
        // or spaces.
        assert_eq!(starts, vec![2, 3, 6, 13]);
    }

    #[test]
    fn a_title_needs_the_table_for_a_symbol_or_a_keycap() {
        let categories = Categories::default();
        assert!(may_need_table("I ❤ Redis", &categories));
        assert!(may_need_table("1\u{20E3}", &categories));
        assert!(!may_need_table("Привет, мир", &categories));
        assert!(!may_need_table("a + b = $5", &categories));
    }
}
