//! Greek in ELOT 743:2001 (ISO 843, type 2, transcription), which the UN
//! adopted for Greek names in 1987 and Greek passports and road signs use:
//! `Χανιά` `Chania`, `Θεσσαλονίκη` `Thessaloniki`, `Μπαλής` `Balis`.
//!
//! - letters: `β` v, `η` i, `θ` th, `ξ` x, `υ` y, `φ` f, `χ` ch, `ψ` ps,
//!   `ω` o;
//! - pairs: `ου` ou; `αυ`, `ευ`, `ηυ` av, ev, iv before a vowel or a voiced
//!   consonant, af, ef, if before a voiceless one and at a word's end;
//!   `γγ` ng, `γκ` gk, `γξ` nx, `γχ` nch; `μπ` b at a word's start and end,
//!   mp inside;
//! - a diaeresis (`ϊ`, `ϋ`), or an accent on the first vowel, keeps two
//!   vowels apart (`άυλος` `aylos`); accents are not written.

use icu::normalizer::DecomposingNormalizerBorrowed;

use super::Cased;

/// Whether `c` is a Greek letter or a mark on one.
#[inline]
pub(super) fn is_greek(c: char) -> bool {
    matches!(c, '\u{0386}' | '\u{0388}'..='\u{03CE}' | '\u{1F00}'..='\u{1FFC}')
}

/// One letter of a word: its base letter in lower case, and what was on it.
#[derive(Clone, Copy)]
struct Letter {
    base: char,
    upper: bool,
    diaeresis: bool,
    accent: bool,
}

/// Writes `word`, a run of Greek letters (with their marks), to `out` as
/// ELOT 743 writes it, capitals kept.
pub(super) fn romanize_word(word: &str, out: &mut String) {
    let letters = letters(word);
    let capitals = letters.iter().filter(|l| l.upper).count();
    let mut cased = Cased::new(out, letters.len(), capitals);
    let at = |i: usize| letters.get(i).map(|l| l.base);
    let mut i = 0;
    while i < letters.len() {
        let letter = letters[i];
        let next = letters
            .get(i + 1)
            .filter(|n| !n.diaeresis && !letter.accent);
        let (text, len) = match (letter.base, next.map(|n| n.base)) {
            ('α' | 'ε' | 'η', Some('υ')) => {
                let first = match letter.base {
                    'α' => "a",
                    'ε' => "e",
                    _ => "i",
                };
                let voiceless = match at(i + 2) {
                    None => true,
                    Some(after) => "θκξπστφχψς".contains(after),
                };
                cased.push_pair(first, if voiceless { "f" } else { "v" }, letter.upper);
                i += 2;
                continue;
            }
            ('ο', Some('υ')) => ("ou", 2),
            ('γ', Some('γ')) => ("ng", 2),
            ('γ', Some('ξ')) => ("nx", 2),
            ('γ', Some('χ')) => ("nch", 2),
            ('γ', Some('κ')) => ("gk", 2),
            ('μ', Some('π')) if i == 0 || i + 2 == letters.len() => ("b", 2),
            (base, _) => (single(base), 1),
        };
        cased.push(text, letter.upper);
        i += len;
    }
}

/// A letter alone.
fn single(base: char) -> &'static str {
    match base {
        'α' => "a",
        'β' => "v",
        'γ' => "g",
        'δ' => "d",
        'ε' => "e",
        'ζ' => "z",
        'η' => "i",
        'θ' => "th",
        'ι' => "i",
        'κ' => "k",
        'λ' => "l",
        'μ' => "m",
        'ν' => "n",
        'ξ' => "x",
        'ο' => "o",
        'π' => "p",
        'ρ' => "r",
        'σ' | 'ς' => "s",
        'τ' => "t",
        'υ' => "y",
        'φ' => "f",
        'χ' => "ch",
        'ψ' => "ps",
        'ω' => "o",
        _ => "",
    }
}

/// The letters of `word`, their marks read off: monotonic Greek by a
/// table, polytonic and combining marks by Unicode's decomposition.
fn letters(word: &str) -> Vec<Letter> {
    let mut letters = Vec::with_capacity(word.len() / 2);
    for c in word.chars() {
        let Some(letter) = monotonic(c) else {
            return decomposed(word);
        };
        letters.push(letter);
    }
    letters
}

/// A letter of the Greek block (U+0386 to U+03CE) with its marks, if it
/// is one.
fn monotonic(c: char) -> Option<Letter> {
    let (base, diaeresis, accent) = match c {
        'ά' => ('α', false, true),
        'έ' => ('ε', false, true),
        'ή' => ('η', false, true),
        'ί' => ('ι', false, true),
        'ό' => ('ο', false, true),
        'ύ' => ('υ', false, true),
        'ώ' => ('ω', false, true),
        'ϊ' => ('ι', true, false),
        'ϋ' => ('υ', true, false),
        'ΐ' => ('ι', true, true),
        'ΰ' => ('υ', true, true),
        'Ά' => ('Α', false, true),
        'Έ' => ('Ε', false, true),
        'Ή' => ('Η', false, true),
        'Ί' => ('Ι', false, true),
        'Ό' => ('Ο', false, true),
        'Ύ' => ('Υ', false, true),
        'Ώ' => ('Ω', false, true),
        'Ϊ' => ('Ι', true, false),
        'Ϋ' => ('Υ', true, false),
        'Α'..='Ω' | 'α'..='ω' => (c, false, false),
        _ => return None,
    };
    let upper = base <= 'Ω';
    let base = match upper {
        true => char::from_u32(base as u32 + 0x20).unwrap_or(base),
        false => base,
    };
    Some(Letter {
        base,
        upper,
        diaeresis,
        accent,
    })
}

/// [`letters`] of a word with polytonic letters or combining marks.
#[cold]
fn decomposed(word: &str) -> Vec<Letter> {
    let decomposed = DecomposingNormalizerBorrowed::new_nfd().normalize(word);
    let mut letters: Vec<Letter> = Vec::with_capacity(word.len() / 2);
    for c in decomposed.chars() {
        match c {
            // The diaeresis, and the dialytika with a tonos (U+0344).
            '\u{0308}' | '\u{0344}' => {
                if let Some(last) = letters.last_mut() {
                    last.diaeresis = true;
                }
            }
            // Acute, grave, circumflex (perispomeni), tonos.
            '\u{0301}' | '\u{0300}' | '\u{0342}' | '\u{0341}' | '\u{0340}' => {
                if let Some(last) = letters.last_mut() {
                    last.accent = true;
                }
            }
            c if c.is_alphabetic() && !c.is_ascii() && !single(lower(c)).is_empty() => {
                letters.push(Letter {
                    base: lower(c),
                    upper: c.is_uppercase(),
                    diaeresis: false,
                    accent: false,
                });
            }
            // Breathings, iota subscript and other marks: not written.
            _ => {}
        }
    }
    letters
}

/// `c` in lower case (Greek letters have one).
fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elot(word: &str) -> String {
        let mut out = String::new();
        romanize_word(word, &mut out);
        out
    }

    #[test]
    fn letters_pairs_and_case() {
        for (greek, want) in [
            ("Χανιά", "Chania"),
            ("Θεσσαλονίκη", "Thessaloniki"),
            ("Μπαλής", "Balis"),
            ("Γκεσούλης", "Gkesoulis"),
            ("Λευκωσία", "Lefkosia"),
            ("Ευρώπη", "Evropi"),
            ("αυτοκίνητο", "aftokinito"),
            ("Άγγελος", "Angelos"),
            ("άυλος", "aylos"),
            ("Κεντρική", "Kentriki"),
            ("ΑΘΗΝΑ", "ATHINA"),
            ("Ψαρά", "Psara"),
            ("καΐκι", "kaiki"),
        ] {
            assert_eq!(elot(greek), want, "{greek}");
        }
    }
}
