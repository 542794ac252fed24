//! The `locale`'s CLDR transform as a reader (`crate::locale` compiles
//! and runs it through ICU4X): the rows of the table whose reader is
//! [`super::Reader::Transform`] leave their script to it. Stage 3 runs it
//! after the readers of words ([`super::words`]) and before those of runs
//! ([`super::runs`]).

use std::borrow::Cow;

use crate::locale::SlugLocale;
use crate::rules::{Rules, Switch};

/// `text` as the `locale`'s transform writes it under `rules`.
#[inline]
pub(crate) fn romanize<'t>(locale: &SlugLocale, text: &'t str, rules: Rules) -> Cow<'t, str> {
    let romanized = romanizer(locale, rules)(locale, text);
    match rules.has(Switch::TransformsKeepWords) {
        true => join_written_dots(text, romanized),
        false => romanized,
    }
}

/// How the `locale`'s letters are romanized: without [`Switch::Rewrite`],
/// by CLDR's transform alone ([`SlugLocale::romanize`]); with it, a
/// language's own letters first ([`SlugLocale::romanize_v2`]), except that
/// [`Switch::JapaneseReadings`] romanize a Japanese locale's only after
/// reading Japanese (`crate::slug`'s `read_japanese`, which needs its
/// kana), and [`Switch::ArabicScriptAsIs`] leaves Arabic, Persian and
/// Pashto to the script's own reading, as without a locale
/// ([`SlugLocale::drops_letters`]), and [`Switch::OwnReadersFirst`] leaves
/// a language whose script a reader of runs reads to that reader
/// ([`super::reads_own_runs`]), and [`Switch::HebrewVowels`] leaves Hebrew
/// without points to the table's model of its vowels (a title with
/// points is the transform's still).
#[inline]
fn romanizer(
    locale: &SlugLocale,
    rules: Rules,
) -> for<'a> fn(&SlugLocale, &'a str) -> Cow<'a, str> {
    match locale {
        _ if !rules.has(Switch::Rewrite) => SlugLocale::romanize,
        locale if rules.has(Switch::JapaneseReadings) && locale.is_japanese() => {
            |_, text| Cow::Borrowed(text)
        }
        locale if rules.has(Switch::ArabicScriptAsIs) && locale.drops_letters() => {
            |_, text| Cow::Borrowed(text)
        }
        locale if rules.has(Switch::OwnReadersFirst) && super::reads_own_runs(locale, rules) => {
            |_, text| Cow::Borrowed(text)
        }
        locale if rules.has(Switch::HebrewVowels) && locale.language() == "he" => {
            |locale, text| match text
                .chars()
                .any(|c| matches!(c, '\u{05B0}'..='\u{05C2}' | '\u{05C7}'))
            {
                true => locale.romanize_v2(text),
                false => Cow::Borrowed(text),
            }
        }
        _ => SlugLocale::romanize_v2,
    }
}

/// `romanized`, what a transform wrote for `text`, without the middle dots
/// it wrote between letters or digits ([`Switch::TransformsKeepWords`]):
/// BGN writes `t·s` where a Cyrillic `т` and `с` meet, so as not to read
/// them as `ц`. Left as it is when `text` has a middle dot of its own.
fn join_written_dots<'t>(text: &str, romanized: Cow<'t, str>) -> Cow<'t, str> {
    const DOT: char = '\u{B7}';
    if !romanized.contains(DOT) || text.contains(DOT) {
        return romanized;
    }
    let mut joined = String::with_capacity(romanized.len());
    let mut chars = romanized.chars().peekable();
    let mut last = None;
    while let Some(c) = chars.next() {
        let between = c == DOT
            && last.is_some_and(char::is_alphanumeric)
            && chars.peek().is_some_and(|n| n.is_alphanumeric());
        if !between {
            joined.push(c);
        }
        last = Some(c);
    }
    Cow::Owned(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transforms_dots_between_letters_leave_no_trace() {
        assert_eq!(
            join_written_dots("Советская", "Sovet·skaya".into()),
            "Sovetskaya"
        );
        assert_eq!(join_written_dots("x", "a · b".into()), "a · b");
        assert_eq!(
            join_written_dots("col·lecció", "col·lecció".into()),
            "col·lecció"
        );
    }
}
