//! Kana to Hepburn romanization as URLs write it: no macrons, long vowels
//! folded (`トウキョウ` `tokyo`, `オオサカ` `osaka`, `クウコウ` `kuko`,
//! `ラーメン` `ramen`), `ッ` doubling the next consonant (`キッテ`
//! `kitte`, `マッチャ` `matcha`: `ッチ` is `tch`, as Hepburn writes it),
//! `ン` always `n` (`シンブン` `shinbun`, `グンマ` `gunma`), `ヲ` `o`.
//!
//! A table of its own, not CLDR's transforms (ICU4X bakes two):
//! `und-Latn-t-und-kana` (Katakana-Latin) writes long vowels as spelled
//! (`toukyou`), `ー` as a macron, a lone `ッ` as `~tsu`, `ヴァ` as
//! `vu~a`, `ン` before a vowel as `n'`, and reads no hiragana;
//! `ja-Latn-t-ja-hrkt-m0-bgn` (BGN/PCGN, what `locale: ja` runs today)
//! gives `tōkyō`, which folding would fix, but leaves the small vowels of
//! loanwords unread (`ティー` `teィ`, `ファイル` `fuァiru`, `ヴァ` `vァ`).
//! Both need folding steps that know which kana a Latin letter came from;
//! the table is 86 kana and a few rules, and a whole title reads in a
//! few microseconds (docs/figures.md), about what one transliterator call
//! on one word takes (`crate::locale`).
//!
//! `ン` is `n` before `b`, `m`, `p` too (revised Hepburn, the Ministry of
//! Land's and the prefectures' own spellings: `Gunma`, `Nihonbashi`), not
//! traditional Hepburn's `m` (`Gumma`); and without the apostrophe before
//! a vowel or `y` (`kan'i`), which a slug would turn into a separator.

use super::kind::Kind;

/// The syllable of each katakana from `ァ` (U+30A1) to `ヶ` (U+30F6); the
/// small kana are marked by a leading `_` and handled by
/// [`romanize_into`]; `ッ` and `ン` are handled there too.
const SYLLABLES: [&str; 86] = [
    "_a", "a", "_i", "i", "_u", "u", "_e", "e", "_o", "o", // ァ..オ
    "ka", "ga", "ki", "gi", "ku", "gu", "ke", "ge", "ko", "go", // カ..ゴ
    "sa", "za", "shi", "ji", "su", "zu", "se", "ze", "so", "zo", // サ..ゾ
    "ta", "da", "chi", "ji", "_tsu", "tsu", "zu", "te", "de", "to", "do", // タ..ド
    "na", "ni", "nu", "ne", "no", // ナ..ノ
    "ha", "ba", "pa", "hi", "bi", "pi", "fu", "bu", "pu", "he", "be", "pe", "ho", "bo",
    "po", // ハ..ポ
    "ma", "mi", "mu", "me", "mo", // マ..モ
    "_ya", "ya", "_yu", "yu", "_yo", "yo", // ャ..ヨ
    "ra", "ri", "ru", "re", "ro", // ラ..ロ
    "_wa", "wa", "i", "e", "o", "n", "vu", "ka", "ke", // ヮ..ヶ
];

/// Appends the Hepburn romanization of `kana` (hiragana, katakana or
/// halfwidth katakana; anything else is copied) in lower case. A verb's
/// last `ウ` is kept (`オモウ` `omou`, `スウ` `suu`), since there it is
/// the verb's ending, not a long vowel.
pub fn romanize_into(kana: &str, kind: Kind, out: &mut String) {
    if kind == Kind::Particle {
        match kana {
            "ハ" | "は" => return out.push_str("wa"),
            "ヘ" | "へ" => return out.push('e'),
            _ => {}
        }
    }
    let mut syllables: Vec<Syllable> = Vec::with_capacity(kana.len() / 3 + 1);
    let mut double_next = false;
    for c in katakana(kana) {
        let index = (c as u32).wrapping_sub(0x30A1) as usize;
        let Some(&text) = SYLLABLES.get(index) else {
            match c {
                // The long vowel mark: folded.
                'ー' => {}
                // The iteration marks repeat the syllable before.
                'ヽ' | 'ヾ' => {
                    if let Some(last) = syllables.last().cloned() {
                        syllables.push(Syllable {
                            foldable: false,
                            ..last
                        });
                    }
                }
                _ => syllables.push(Syllable::new(c.to_string(), false)),
            }
            continue;
        };
        if text == "_tsu" {
            double_next = true;
            continue;
        }
        let mut syllable = match text.strip_prefix('_') {
            Some(small) => match join_small(syllables.last().map(|s| s.text.as_str()), small) {
                Some(joined) => {
                    syllables.pop();
                    Syllable::new(joined, false)
                }
                None => Syllable::new(small.to_owned(), false),
            },
            None => Syllable::new(text.to_owned(), matches!(c, 'ウ' | 'オ')),
        };
        if double_next {
            double_next = false;
            syllable.text = doubled(&syllable.text);
        }
        syllables.push(syllable);
    }
    let last = syllables.len().saturating_sub(1);
    let mut previous: Option<&str> = None;
    for (i, syllable) in syllables.iter().enumerate() {
        let long = syllable.foldable
            && previous.is_some_and(|p| match syllable.text.as_str() {
                "u" => p.ends_with('o') || p.ends_with('u'),
                _ => p.ends_with('o'),
            });
        let verb_ending = kind == Kind::Verb && i == last && syllable.text == "u";
        if !long || verb_ending {
            out.push_str(&syllable.text);
        }
        previous = Some(&syllable.text);
    }
}

/// `kana` romanized into a new string.
pub fn romanize(kana: &str, kind: Kind) -> String {
    let mut out = String::with_capacity(kana.len());
    romanize_into(kana, kind, &mut out);
    out
}

/// One kana's romanization.
#[derive(Clone)]
struct Syllable {
    text: String,
    /// A full-size `ウ` or `オ`, which folds into an `o` or `u` before it.
    foldable: bool,
}

impl Syllable {
    fn new(text: String, foldable: bool) -> Self {
        Syllable { text, foldable }
    }
}

/// A small kana joined with the syllable before: `キ` `ャ` `kya`, `シ`
/// `ャ` `sha`, `デ` `ュ` `dyu`, `テ` `ィ` `ti`, `フ` `ァ` `fa`, `ウ`
/// `ィ` `wi`, `イ` `ェ` `ye`; `None` when it stands alone.
fn join_small(before: Option<&str>, small: &str) -> Option<String> {
    let before = before?;
    // A syllable may be a character kept as it is (a lone combining
    // voiced mark, U+3099): it ends in no vowel.
    let at = before.len().checked_sub(1)?;
    if !before.is_char_boundary(at) {
        return None;
    }
    let (stem, vowel) = before.split_at(at);
    if !matches!(vowel, "a" | "i" | "u" | "e" | "o") {
        return None;
    }
    if let Some(y_vowel) = small.strip_prefix('y') {
        if stem.is_empty() || !matches!(vowel, "i" | "e") {
            return None;
        }
        return Some(
            if stem.ends_with("sh") || stem.ends_with("ch") || stem.ends_with('j') {
                format!("{stem}{y_vowel}")
            } else {
                format!("{stem}y{y_vowel}")
            },
        );
    }
    if small == "wa" {
        return None;
    }
    let stem = match (stem, vowel) {
        ("", "u") => "w",
        ("", "i") => "y",
        ("", _) => return None,
        (stem, _) => stem,
    };
    Some(format!("{stem}{small}"))
}

/// `syllable` after a `ッ`: its first consonant doubled, `ch` as `tch`.
fn doubled(syllable: &str) -> String {
    match syllable.chars().next() {
        Some('c') => format!("t{syllable}"),
        Some(c) if c.is_ascii_alphabetic() && !"aiueon".contains(c) => format!("{c}{syllable}"),
        _ => syllable.to_owned(),
    }
}

/// The characters of `kana` with hiragana as katakana and halfwidth
/// katakana as fullwidth (NFKC, which also joins `ｶﾞ` into `ガ`).
fn katakana(kana: &str) -> impl Iterator<Item = char> + '_ {
    let widened: Option<String> = kana
        .chars()
        .any(|c| ('\u{FF61}'..='\u{FF9F}').contains(&c))
        .then(|| {
            icu::normalizer::ComposingNormalizerBorrowed::new_nfkc()
                .normalize(kana)
                .into_owned()
        });
    let chars: Vec<char> = widened.as_deref().unwrap_or(kana).chars().collect();
    chars.into_iter().map(|c| match c {
        '\u{3041}'..='\u{3096}' | 'ゝ' | 'ゞ' => char::from_u32(c as u32 + 0x60).unwrap_or(c),
        _ => c,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(kana: &str) -> String {
        romanize(kana, Kind::Other)
    }

    #[test]
    fn the_briefs_examples() {
        assert_eq!(r("トウキョウ"), "tokyo");
        assert_eq!(r("ニホンゴ"), "nihongo");
        assert_eq!(r("キョウ"), "kyo");
        assert_eq!(r("ラーメン"), "ramen");
        assert_eq!(r("キッテ"), "kitte");
        assert_eq!(r("マッチャ"), "matcha");
        assert_eq!(r("オオサカ"), "osaka");
        assert_eq!(r("クウコウ"), "kuko");
        assert_eq!(r("ハネダクウコウ"), "hanedakuko");
    }

    #[test]
    fn n_is_n_everywhere() {
        assert_eq!(r("シンブン"), "shinbun");
        assert_eq!(r("グンマ"), "gunma");
        assert_eq!(r("テンプラ"), "tenpura");
        assert_eq!(r("カンイ"), "kani");
        assert_eq!(r("コンニャク"), "konnyaku");
    }

    #[test]
    fn digraphs_and_the_small_vowels_of_loanwords() {
        assert_eq!(r("シャシン"), "shashin");
        assert_eq!(r("ジュース"), "jusu");
        assert_eq!(r("ギュウニュウ"), "gyunyu");
        assert_eq!(r("チョコレート"), "chokoreto");
        assert_eq!(r("パーティー"), "pati");
        assert_eq!(r("ファイル"), "fairu");
        assert_eq!(r("フォーク"), "foku");
        assert_eq!(r("ディズニー"), "dizuni");
        assert_eq!(r("ウィキペディア"), "wikipedia");
        assert_eq!(r("ヴァイオリン"), "vaiorin");
        assert_eq!(r("シェフ"), "shefu");
        assert_eq!(r("チェック"), "chekku");
        assert_eq!(r("デュエット"), "dyuetto");
        assert_eq!(r("ツアー"), "tsua");
    }

    #[test]
    fn hiragana_halfwidth_and_odd_kana() {
        assert_eq!(r("きょうはいいてんき"), "kyohaiitenki");
        assert_eq!(r("ｶﾞｲﾄﾞ"), "gaido");
        assert_eq!(r("あっ"), "a");
        assert_eq!(r("ヲ"), "o");
        assert_eq!(r("エイガ"), "eiga");
        assert_eq!(r("オカアサン"), "okaasan");
        // A lone combining voiced mark before a small kana (decomposed
        // `ビャ`, as CLDR's test words write it) is kept, not a panic.
        assert_eq!(r("\u{3099}ャ"), "\u{3099}ya");
        assert_eq!(r("ヒ\u{3099}ャ"), "hi\u{3099}ya");
    }

    #[test]
    fn particles_and_verb_endings() {
        assert_eq!(romanize("ハ", Kind::Particle), "wa");
        assert_eq!(romanize("ヘ", Kind::Particle), "e");
        assert_eq!(romanize("ヲ", Kind::Particle), "o");
        assert_eq!(romanize("ハ", Kind::Other), "ha");
        assert_eq!(romanize("オモウ", Kind::Verb), "omou");
        assert_eq!(romanize("スウ", Kind::Verb), "suu");
        assert_eq!(romanize("オモウ", Kind::Other), "omo");
    }
}
