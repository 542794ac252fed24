//! Arabic, Persian and Urdu words written with their vowel marks, read by
//! BGN/PCGN's romanizations (Arabic 1956, Persian 1958, Urdu 2007) folded
//! to ASCII: a word that carries a haraka (fatha, damma, kasra, sukun,
//! shadda, tanwin) is read with it, so `أَبُو ظَبْي` is `abu zaby` and
//! `الشَّام` `ash sham`:
//!
//! - short vowels as marked (Arabic and Urdu a, i, u; Persian a, e, o), a
//!   long vowel as its short one (`ُو` u, `ِي` i, `َا` a), `َو` `َي` aw,
//!   ay; shadda doubles its letter, but `ِيّ` and `ُوّ` are `iy`, `uw`;
//! - Arabic's article `ال` a word of its own, assimilated before the sun
//!   letters (`ash`, `ar`, `at`...); `ة` h, or t before a word without
//!   the article (construct: `مُحَافَظَة دِمَشْق` `muhafazat dimashq`);
//! - `ع` and hamza leave no letter, their vowels stay.
//!
//! A word with no mark is read as before (its consonants, as deunicode
//! writes them).

/// A language written in Arabic script that slugd reads with its vowels:
/// the models' languages ([`super::vowels::MODELS`]), one type for the
/// reader of marked words and the models.
pub(crate) use super::vowels::Language;

impl Language {
    /// The language a text's letters show: `ٹ ڈ ڑ ے ں ھ` Urdu (with
    /// `urdu_heh`, rules 6's, also the heh and teh marbuta Urdu writes and
    /// Persian and Arabic do not, `ہ ۂ ۃ`); `پ چ ژ گ ک ی` Persian;
    /// otherwise Arabic.
    pub(crate) fn shown_by(text: &str, urdu_heh: bool) -> Language {
        if text.contains(['ٹ', 'ڈ', 'ڑ', 'ے', 'ں', 'ھ', 'ۓ'])
            || (urdu_heh && text.contains(['ہ', 'ۂ', 'ۃ']))
        {
            Language::Urdu
        } else if text.contains(['پ', 'چ', 'ژ', 'گ', 'ک', 'ی']) {
            Language::Persian
        } else {
            Language::Arabic
        }
    }
}

/// Whether `c` is a letter or mark of the Arabic block.
#[inline]
pub(crate) fn is_arabic(c: char) -> bool {
    matches!(c, '\u{0620}'..='\u{065F}' | '\u{0670}'..='\u{06D3}' | '\u{06D5}')
}

const FATHA: char = '\u{064E}';
const DAMMA: char = '\u{064F}';
const KASRA: char = '\u{0650}';
const SHADDA: char = '\u{0651}';
const SUKUN: char = '\u{0652}';
const DAGGER_ALEF: char = '\u{0670}';

/// Whether `c` is one of the vowel marks (harakat): a word that carries
/// one is read here. Kept with the script's other letter classes, which
/// the models read too.
pub(crate) use super::vowels::is_vowel_mark;

/// A letter and its marks.
#[derive(Clone, Copy, Default)]
struct Letter {
    c: char,
    vowel: Option<char>,
    tanwin: Option<char>,
    shadda: bool,
    sukun: bool,
    dagger: bool,
}

fn letters(word: &str) -> Vec<Letter> {
    let mut letters: Vec<Letter> = Vec::with_capacity(word.len() / 2);
    for c in word.chars() {
        let Some(last) = letters.last_mut().filter(|_| is_mark(c)) else {
            if !is_mark(c) {
                letters.push(Letter {
                    c,
                    ..Letter::default()
                });
            }
            continue;
        };
        match c {
            FATHA | DAMMA | KASRA => last.vowel = Some(c),
            '\u{064B}'..='\u{064D}' => last.tanwin = Some(c),
            SHADDA => last.shadda = true,
            SUKUN => last.sukun = true,
            DAGGER_ALEF => last.dagger = true,
            _ => {}
        }
    }
    letters
}

fn is_mark(c: char) -> bool {
    matches!(c, '\u{064B}'..='\u{065F}' | '\u{0670}')
}

/// The sun letters, before which Arabic's article is assimilated.
fn is_sun(c: char) -> bool {
    "تثدذرزسشصضطظلن".contains(c)
}

/// A consonant in `language`.
fn consonant(language: Language, c: char) -> &'static str {
    let arabic = language == Language::Arabic;
    match c {
        'ب' => "b",
        'ت' | 'ط' | 'ٹ' => "t",
        'ث' if arabic => "th",
        'ث' => "s",
        'ج' => "j",
        'ح' | 'ه' | 'ہ' | 'ھ' | 'ۀ' => "h",
        'خ' => "kh",
        'د' | 'ڈ' => "d",
        'ذ' if arabic => "dh",
        'ض' if arabic => "d",
        'ذ' | 'ض' | 'ظ' | 'ز' => "z",
        'ر' | 'ڑ' => "r",
        'س' | 'ص' => "s",
        'ش' => "sh",
        'غ' => "gh",
        'ف' => "f",
        'ق' => "q",
        'ك' | 'ک' => "k",
        'گ' | 'ڨ' | 'ڴ' => "g",
        'ل' => "l",
        'م' => "m",
        'ن' | 'ں' => "n",
        'و' if language == Language::Persian => "v",
        'و' => "w",
        'ي' | 'ی' | 'ى' => "y",
        'پ' => "p",
        'چ' => "ch",
        'ژ' => "zh",
        'ڤ' => "v",
        'ة' => "h",
        'ے' | 'ۓ' => "e",
        _ => "",
    }
}

/// A short vowel in `language`.
fn short(language: Language, vowel: char) -> &'static str {
    match (vowel, language) {
        (FATHA, _) => "a",
        (KASRA, Language::Persian) => "e",
        (KASRA, _) => "i",
        (DAMMA, Language::Persian) => "o",
        _ => "u",
    }
}

/// A long vowel in `language`, written by the letter after its short one.
fn long(language: Language, vowel: char) -> &'static str {
    match (vowel, language) {
        (FATHA, _) => "a",
        (KASRA, _) => "i",
        _ => "u",
    }
}

/// Writes `word`, a vocalized word, to `out`; `next_has_article` says
/// whether the word after it starts with `ال` (for `ة`), `last` whether
/// there is none.
pub(crate) fn romanize_word(language: Language, word: &str, next: Option<&str>, out: &mut String) {
    let letters = letters(word);
    let mut i = 0;
    // The vowel the letter before ends in, for the long vowels.
    let mut before: Option<char> = None;
    // The name of God, which the article's rule would cut: Allah.
    let bases: Vec<char> = letters.iter().map(|l| l.c).collect();
    if bases == ['ا', 'ل', 'ل', 'ه'] {
        out.push_str("allah");
        return;
    }
    // Arabic's article.
    if letters.len() > 2
        && letters[0].c == 'ا'
        && letters[1].c == 'ل'
        && letters[0].vowel.is_none()
        && letters[1].vowel.is_none()
    {
        let article_vowel = if language == Language::Persian {
            "o"
        } else {
            "a"
        };
        out.push_str(article_vowel);
        let third = letters[2].c;
        if language == Language::Arabic && is_sun(third) && third != 'ل' {
            out.push_str(consonant(language, third));
        } else {
            out.push('l');
        }
        out.push(' ');
        i = 2;
    }
    let article_end = i;
    while i < letters.len() {
        let l = letters[i];
        let first = i == article_end && article_end == 0;
        match l.c {
            'ا' | 'أ' | 'إ' | 'آ' | 'ٱ' => {
                if let Some(vowel) = l.vowel {
                    out.push_str(short(language, vowel));
                    before = Some(vowel);
                } else if l.c == 'آ' || (before != Some(FATHA) && !l.sukun) {
                    // A long a after a consonant without a mark, and every
                    // alef madda.
                    if l.tanwin.is_none() {
                        out.push('a');
                    }
                    before = Some(FATHA);
                } else {
                    before = None;
                }
            }
            'ء' | 'ئ' | 'ؤ' | 'ع' => {
                if let Some(vowel) = l.vowel {
                    out.push_str(short(language, vowel));
                }
                before = l.vowel;
            }
            'و' | 'ي' | 'ی' if l.vowel.is_none() && !l.shadda && !first => {
                let lengthens = match l.c {
                    'و' => DAMMA,
                    _ => KASRA,
                };
                if l.sukun || before == Some(FATHA) || letters[i - 1].sukun {
                    // A diphthong (aw, ay), or a consonant after one with
                    // no vowel (`ظَبْي` zaby).
                    out.push_str(consonant(language, l.c));
                    before = None;
                } else if before == Some(lengthens) {
                    // The long vowel: written by the short one before.
                    if language == Language::Persian {
                        // Persian's short o and e are ū and ī when long.
                        let n = out.len() - 1;
                        out.replace_range(n.., long(language, lengthens));
                    }
                    before = None;
                } else {
                    out.push_str(match (l.c, language) {
                        ('و', Language::Urdu) => "o",
                        ('و', _) => "u",
                        (_, Language::Urdu) => "e",
                        _ => "i",
                    });
                    before = None;
                }
            }
            'ى' => {
                out.push('a');
                before = None;
            }
            'ة' if language == Language::Persian => {
                out.push_str("eh");
                before = None;
            }
            // The hamza Persian writes for the ezafe after `ه` or `ی`: -ye.
            'ٴ' => {
                out.push_str("ye");
                before = None;
            }
            'ة' => {
                if before != Some(FATHA) {
                    out.push('a');
                }
                let construct = language == Language::Arabic
                    && i + 1 == letters.len()
                    && next.is_some_and(|n| !n.starts_with("ال"));
                out.push(if construct { 't' } else { 'h' });
                before = None;
            }
            c => {
                let written = consonant(language, c);
                // The letter the article assimilated is written once.
                let doubled = l.shadda && !(i == article_end && article_end == 2);
                // ِيّ, ُوّ: the long vowel and the consonant, iy and uw.
                let lengthened = l.shadda
                    && matches!((c, before), ('ي' | 'ی', Some(KASRA)) | ('و', Some(DAMMA)));
                out.push_str(written);
                if doubled && !lengthened {
                    out.push_str(written);
                }
                if let Some(vowel) = l.vowel {
                    out.push_str(short(language, vowel));
                }
                before = l.vowel;
            }
        }
        if l.dagger && before != Some(FATHA) {
            out.push('a');
            before = Some(FATHA);
        }
        if let Some(tanwin) = l.tanwin {
            out.push_str(match tanwin {
                '\u{064B}' => "an",
                '\u{064C}' => "un",
                _ => "in",
            });
            before = None;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(language: Language, words: &str) -> String {
        let words: Vec<&str> = words.split(' ').collect();
        let mut out = String::new();
        for (k, word) in words.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            romanize_word(language, word, words.get(k + 1).copied(), &mut out);
        }
        out
    }

    #[test]
    fn bgn_pcgn_with_the_vowels_marked() {
        for (arabic, want) in [
            ("أَبُو ظَبْي", "abu zaby"),
            ("الشَّام", "ash sham"),
            ("المَحْمُودِيَّة", "al mahmudiyah"),
            ("مُحَافَظَة دِمَشْق", "muhafazat dimashq"),
            ("المَدِينَة المُنَوَّرَة", "al madinah al munawwarah"),
            ("بَاب المَنْدَب", "bab al mandab"),
            ("اِيرَان", "iran"),
            ("قُرآن", "quran"),
            ("بِئْر زَيْت", "bir zayt"),
            ("مَكَّة", "makkah"),
            ("الثُّلَيثُوَات", "ath thulaythuwat"),
        ] {
            assert_eq!(read(Language::Arabic, arabic), want, "{arabic}");
        }
        assert_eq!(read(Language::Persian, "مُحَمَّد"), "mohammad");
        assert_eq!(read(Language::Persian, "كُوهِ مَرغُوب"), "kuhe marghub");
        assert_eq!(read(Language::Urdu, "دُرَانِي"), "durani");
    }
}
