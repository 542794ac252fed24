//! Rules 2: HTML entities in a title (`&amp;`, `&#38;`, `&eacute;`), as
//! feeds and CMS exports carry them, decoded before anything else reads
//! the title.
//!
//! The decoding is htmlize's, which follows the WHATWG HTML standard's
//! character references as a browser reads text (not an attribute): every
//! named entity of HTML5, the legacy ones without `;` (`&copy`, `&eacute`),
//! decimal and hexadecimal numbers; an unknown entity is left as written.
//! python-slugify decodes entities the same way by default (Python's
//! `html.unescape`).

use std::borrow::Cow;

use super::classes::is_ampersand;
use crate::readers::scan::find_byte;

/// The title with its HTML5 entities decoded; borrowed when it has none
/// (no `&`: one scan of the bytes).
pub(super) fn decode(title: &str) -> Cow<'_, str> {
    if find_byte(title.as_bytes(), 0, is_ampersand).is_none() {
        return Cow::Borrowed(title);
    }
    htmlize::unescape(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_numeric_and_bare_entities_are_decoded_and_unknown_ones_kept() {
        for (title, want) in [
            ("foo &amp; bar", "foo & bar"),
            ("Tom &#38; Jerry", "Tom & Jerry"),
            ("caf&eacute;", "café"),
            ("caf&eacute", "café"),
            ("&#x2603;", "☃"),
            ("&#X2603;", "☃"),
            ("&hearts; &NotEqualTilde;", "♥ ≂̸"),
            ("&madeup; & co", "&madeup; & co"),
            ("R&D", "R&D"),
        ] {
            assert_eq!(decode(title), want, "{title:?}");
        }
        assert!(matches!(decode("no entities"), Cow::Borrowed(_)));
        assert!(matches!(decode("R&D"), Cow::Borrowed(_)));
    }
}
