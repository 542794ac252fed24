//! What a slug a reservation holds may be: its longest length and its
//! characters. Shared by the store, the reserved words and the errors, so
//! it imports nothing.

/// The longest slug a reservation holds, in bytes.
pub const MAX_SLUG_BYTES: usize = 512;

/// The characters slugs are made of besides ASCII letters and digits.
pub(crate) const SLUG_PUNCTUATION: &str = "-_.~";

/// Whether `s` could be a slug: 1 to [`MAX_SLUG_BYTES`] of the characters
/// slugs are made of (ASCII letters, digits and `-_.~`; and, for
/// `ascii: false`, letters, digits and marks of any script and the
/// zero-width joiners). Anything else is never reserved, and is never
/// looked up in Redis (where it might match one of the script's other
/// fields).
pub fn is_slug_shaped(s: &str) -> bool {
    use unicode_properties::{GeneralCategoryGroup as G, UnicodeGeneralCategory};
    (1..=MAX_SLUG_BYTES).contains(&s.len())
        && s.chars().all(|c| match c.is_ascii() {
            true => c.is_ascii_alphanumeric() || SLUG_PUNCTUATION.contains(c),
            false => {
                matches!(c.general_category_group(), G::Letter | G::Number | G::Mark)
                    || matches!(c, '\u{200C}' | '\u{200D}')
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_slug_characters_are_slug_shaped() {
        assert!(is_slug_shaped("hello-world_2.x~y"));
        assert!(is_slug_shaped("привет-мир-2") && is_slug_shaped("नमस्ते"));
        for s in ["", "=42", "#hello", "a b", "a:b", "☃", "a\u{A0}b", "é:"] {
            assert!(!is_slug_shaped(s), "{s:?}");
        }
        assert!(is_slug_shaped(&"a".repeat(MAX_SLUG_BYTES)));
        assert!(!is_slug_shaped(&"a".repeat(MAX_SLUG_BYTES + 1)));
    }
}
