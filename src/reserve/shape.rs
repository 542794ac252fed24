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

/// The characters a stored slug may not have besides whitespace and
/// control characters: `/ ? #` end a URL's path segment, and `: ! @ =`
/// separate the parts of an owner's record in Redis.
pub const NOT_IN_SLUGS: &str = "/?#:!@=";

/// Why `s` cannot be held as a slug as it is written (an imported one,
/// which may have capitals or other punctuation than slugd writes), or
/// `None` when it can.
pub fn why_not_storable(s: &str) -> Option<String> {
    if s.is_empty() {
        return Some("the slug is empty".into());
    }
    if s.len() > MAX_SLUG_BYTES {
        return Some(format!(
            "the slug is {} bytes long; a slug holds at most {MAX_SLUG_BYTES}",
            s.len()
        ));
    }
    if s == "." || s == ".." {
        return Some(format!(
            "the slug {s:?} is a path's own step, which no URL keeps"
        ));
    }
    let bad = s
        .chars()
        .find(|&c| c.is_whitespace() || c.is_control() || NOT_IN_SLUGS.contains(c))?;
    Some(match bad {
        c if c.is_whitespace() => format!("the slug has whitespace ({c:?})"),
        c if c.is_control() => format!("the slug has a control character ({c:?})"),
        c => format!("the slug has {c:?}; a slug has none of {NOT_IN_SLUGS}"),
    })
}

/// Whether `s` can be held as a slug as it is written (see
/// [`why_not_storable`]): every slug slugd makes can.
pub fn is_storable(s: &str) -> bool {
    why_not_storable(s).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_slugs_are_storable_and_what_would_break_a_record_is_not() {
        for s in ["Hello_World", "c++", "50%-off", "привет-мир", "a.b~c"] {
            assert!(is_storable(s), "{s:?}");
        }
        for (s, why) in [
            ("", "empty"),
            ("a b", "whitespace"),
            ("a\u{A0}b", "whitespace"),
            ("a\tb", "whitespace"),
            ("a\u{7}b", "control"),
            ("a/b", "'/'"),
            ("=42", "'='"),
            ("x:y", "':'"),
            ("x@2", "'@'"),
            ("..", "path"),
        ] {
            let said = why_not_storable(s).unwrap_or_default();
            assert!(said.contains(why), "{s:?}: {said}");
        }
        assert!(is_storable(&"a".repeat(MAX_SLUG_BYTES)));
        assert!(!is_storable(&"a".repeat(MAX_SLUG_BYTES + 1)));
        // Every slug-shaped text is storable.
        for s in ["hello-world_2.x~y", "привет-мир-2", "नमस्ते"] {
            assert!(is_slug_shaped(s) && is_storable(s));
        }
    }

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
