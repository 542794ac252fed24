//! Stage 1's normalization ([`Switch::ComposedFirst`], rules 5): the
//! title in Unicode's composed form (NFC) before every stage that reads
//! letters, so that decomposed text (as macOS writes it) gets the slug of
//! the composed (`a` + U+0308 with `locale: de` is `ae`, as `ä` is).

use std::borrow::Cow;

use icu::normalizer::ComposingNormalizerBorrowed;

use crate::readers::scan;

#[cfg(doc)]
use crate::rules::Switch;

/// `text` in Unicode's composed form (NFC); borrowed when it is already.
#[inline]
pub(super) fn compose(text: &str) -> Cow<'_, str> {
    if !scan::first_of(text, scan::composes) {
        return Cow::Borrowed(text);
    }
    ComposingNormalizerBorrowed::new_nfc().normalize(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decomposed_text_is_composed() {
        assert_eq!(compose("Erla\u{308}uterung"), "Erläuterung");
        assert!(matches!(compose("Erläuterung"), Cow::Borrowed(_)));
        // Hangul's letters compose into syllables.
        assert_eq!(compose("\u{1100}\u{1161}"), "가");
    }
}
