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

use super::cased::Cased;

/// Whether `c` is a Greek letter or a mark on one.
#[inline]
pub(crate) fn is_greek(c: char) -> bool {
    matches!(c, '\u{0386}' | '\u{0388}'..='\u{03CE}' | '\u{1F00}'..='\u{1FFC}')
}

/// Whether `c` is a combining mark of the blocks Greek and Cyrillic use.
pub(crate) fn is_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}')
}

/// One letter of a word: its base letter in lower case, and what was on it.
#[derive(Clone, Copy)]
struct Letter {
    base: char,
    upper: bool,
    diaeresis: bool,
    accent: bool,
}

/// A place for a letter.
const NO_LETTER: Letter = Letter {
    base: ' ',
    upper: false,
    diaeresis: false,
    accent: false,
};

/// Writes `word`, a run of Greek letters (with their marks), to `out` as
/// ELOT 743 writes it, capitals kept.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    let letters = letters(word);
    let capitals = letters.iter().filter(|l| l.upper).count();
    spell(&letters, &mut Cased::new(out, letters.len(), capitals));
}

/// Where what [`spell`] writes goes.
trait Written {
    /// A letter's text, in its case (`upper`).
    fn push(&mut self, text: &'static str, upper: bool);
    /// The texts of two letters written together (`αυ` `av`), in the
    /// first letter's case.
    fn push_pair(&mut self, first: &'static str, second: &'static str, upper: bool);
}

impl Written for Cased<'_> {
    fn push(&mut self, text: &'static str, upper: bool) {
        Cased::push(self, text, upper);
    }
    fn push_pair(&mut self, first: &'static str, second: &'static str, upper: bool) {
        Cased::push_pair(self, first, second, upper);
    }
}

/// Writes in lower case, to a function.
struct Lower<F>(F);

impl<F: FnMut(&'static str)> Written for Lower<F> {
    #[inline]
    fn push(&mut self, text: &'static str, _: bool) {
        (self.0)(text);
    }
    #[inline]
    fn push_pair(&mut self, first: &'static str, second: &'static str, _: bool) {
        (self.0)(first);
        (self.0)(second);
    }
}

/// Writes `letters`, a word's, as ELOT 743 writes them.
#[inline]
fn spell(letters: &[Letter], out: &mut impl Written) {
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
                    Some(after) => matches!(
                        after,
                        'θ' | 'κ' | 'ξ' | 'π' | 'σ' | 'τ' | 'φ' | 'χ' | 'ψ' | 'ς'
                    ),
                };
                out.push_pair(first, if voiceless { "f" } else { "v" }, letter.upper);
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
        out.push(text, letter.upper);
        i += len;
    }
}

/// The monotonic Greek letter (U+0386 to U+03CE) whose two bytes start
/// at byte `at` of `bytes`, with its marks, if one does.
#[inline]
fn monotonic_at(bytes: &[u8], at: usize) -> Option<Letter> {
    let lead = *bytes.get(at)?;
    if !matches!(lead, 0xCE | 0xCF) {
        return None;
    }
    let cp = (u32::from(lead & 0x1F) << 6) | u32::from(bytes.get(at + 1)? & 0x3F);
    *MONOTONIC.get(cp.checked_sub(0x386)? as usize)?
}

/// [`monotonic`] of U+0386 to U+03CE, as a table.
static MONOTONIC: [Option<Letter>; 0x49] = {
    let mut table = [None; 0x49];
    let mut n = 0;
    while n < table.len() {
        if let Some(c) = char::from_u32(0x386 + n as u32) {
            table[n] = monotonic(c);
        }
        n += 1;
    }
    table
};

/// Most letters a word read by [`read_plain_word`] has.
const MAX_PLAIN: usize = 32;

/// For the words pass, where case does not matter: when the word starting
/// at byte `at` of `title` is made of monotonic Greek letters alone (two
/// bytes each), gives `push` what [`romanize_word`] writes for it in
/// lower case, a letter or a pair of letters at a time, and returns where
/// it ends. `None`, and nothing pushed, when a combining mark, a
/// polytonic letter or an apostrophe between letters belongs to the word,
/// or it is longer than [`MAX_PLAIN`] letters: [`romanize_word`] reads
/// those.
#[inline]
pub(crate) fn read_plain_word(
    title: &str,
    at: usize,
    push: impl FnMut(&'static str),
) -> Option<usize> {
    let bytes = title.as_bytes();
    let mut letters = [NO_LETTER; MAX_PLAIN];
    let mut n = 0;
    let mut end = at;
    while let Some(letter) = monotonic_at(bytes, end) {
        *letters.get_mut(n)? = letter;
        n += 1;
        end += 2;
    }
    let joined = |c: char| is_greek(c) || is_mark(c);
    let continues = match title[end..].chars().next() {
        Some('\'' | '’' | 'ʼ') => title[end..].chars().nth(1).is_some_and(joined),
        Some(c) => joined(c),
        None => false,
    };
    if n == 0 || continues {
        return None;
    }
    spell(&letters[..n], &mut Lower(push));
    Some(end)
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
const fn monotonic(c: char) -> Option<Letter> {
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
    let base = match (upper, char::from_u32(base as u32 + 0x20)) {
        (true, Some(lower)) => lower,
        _ => base,
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

    /// The words pass's reading of plain words gives what the word's
    /// reading gives, in lower case, wherever it applies.
    #[test]
    fn a_plain_word_reads_as_the_word_does() {
        let letters: Vec<char> = ('\u{0386}'..='\u{03CE}')
            .filter(|&c| monotonic(c).is_some())
            .collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut words: Vec<String> = [
            "Χανιά",
            "Μπαλής",
            "Ευρώπη",
            "άυλος",
            "καΐκι",
            "ΑΥΓΟ",
            "λάμπα",
            "Λευκωσία",
        ]
        .map(String::from)
        .to_vec();
        for _ in 0..5_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 6) as usize;
            // Half the letters from the pairs' own, so that pairs occur.
            let word = (0..len)
                .map(|k| {
                    let pick = (seed >> (8 * k)) as usize;
                    match pick % 2 {
                        0 => ['α', 'ε', 'η', 'υ', 'ο', 'γ', 'κ', 'μ', 'π', 'ύ', 'ϋ', 'ά']
                            [pick / 2 % 12],
                        _ => letters[pick / 2 % letters.len()],
                    }
                })
                .collect();
            words.push(word);
        }
        for word in words {
            let title = format!("a {word} b");
            let mut lower = String::new();
            let end = read_plain_word(&title, 2, |text| lower.push_str(text));
            assert_eq!(end, Some(2 + word.len()), "{word}");
            assert_eq!(lower, elot(&word).to_lowercase(), "{word}");
        }
        // Marks, polytonic letters and apostrophes inside a word, and long
        // words, are left to the word's reading.
        let long = "α".repeat(MAX_PLAIN + 1);
        for title in ["Χανια\u{301}", "Ἀθῆναι", "Αθ\u{2019}ηνα", "λα'μπα", &long]
        {
            let mut pushed = false;
            assert_eq!(
                read_plain_word(title, 0, |_| pushed = true),
                None,
                "{title}"
            );
            assert!(!pushed, "{title}");
        }
        assert_eq!(
            read_plain_word("Χανιά, Κρήτη", 0, |_| {}),
            Some("Χανιά".len())
        );
    }
}
