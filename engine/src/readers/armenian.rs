//! Armenian (Eastern) as its readers write it in ASCII (rules 6): the
//! letters as Armenia's own English names of its towns and provinces
//! spell them (`Երևան` `Yerevan`, `Գյումրի` `Gyumri`, `Վաղարշապատ`
//! `Vagharshapat`), which is BGN/PCGN 1981 without its marks and
//! apostrophes:
//!
//! - `ու` u (`յու` yu), `և` yev at a word's start and ev inside it;
//! - `ե` ye and `ո` vo at a word's start (`ո` before `ւ` is the `u`);
//! - `ը` y, `է` e, `օ` o;
//! - `ժ` zh, `խ` kh, `ծ` ts, `ձ` dz, `ղ` gh, `ճ` ch, `շ` sh, `չ` ch,
//!   `ջ` j, `ց` ts, `ռ` r (BGN's rr is not what readers write: `Գավառ`
//!   Gavar);
//! - the aspirates without their apostrophe: `թ` t, `փ` p, `ք` k.
//!
//! Rules 5 and before left Armenian to deunicode, which writes `ու` ow
//! and `և` ew (`Գյումրի` `gyowmri`, `Երևան` `erewan`). The marks Armenian
//! puts on a word's stressed vowel (`՛ ՜ ՞`, emphasis, exclamation,
//! question: `ինչո՞ւ`) are part of the word and leave no trace; its comma
//! (`՝`) separates words.

/// Whether `c` is read with an Armenian word: a letter of U+0531 to
/// U+0588, or a mark written on one of its vowels (emphasis, exclamation,
/// question: U+055B, U+055C, U+055E).
#[inline]
pub(crate) fn is_armenian(c: char) -> bool {
    matches!(c, '\u{0531}'..='\u{0556}' | '\u{055B}' | '\u{055C}' | '\u{055E}' | '\u{0560}'..='\u{0588}')
}

/// Whether `c` is a mark on a vowel, which leaves no trace.
#[inline]
fn is_mark(c: char) -> bool {
    matches!(c, '\u{055B}' | '\u{055C}' | '\u{055E}')
}

/// `c`, an Armenian letter, in lower case, and whether it was a capital.
#[inline]
fn lower_of(c: char) -> (char, bool) {
    match c {
        '\u{0531}'..='\u{0556}' => (char::from_u32(c as u32 + 0x30).unwrap_or(c), true),
        _ => (c, false),
    }
}

/// What a lower-case letter is written as, wherever it stands (the
/// letters read in context are [`in_context`]'s).
fn letter(c: char) -> &'static str {
    match c {
        'ա' => "a",
        'բ' => "b",
        'գ' => "g",
        'դ' => "d",
        'ե' => "e",
        'զ' => "z",
        'է' => "e",
        'ը' => "y",
        'թ' => "t",
        'ժ' => "zh",
        'ի' => "i",
        'լ' => "l",
        'խ' => "kh",
        'ծ' => "ts",
        'կ' => "k",
        'հ' => "h",
        'ձ' => "dz",
        'ղ' => "gh",
        'ճ' => "ch",
        'մ' => "m",
        'յ' => "y",
        'ն' => "n",
        'շ' => "sh",
        'ո' => "o",
        'չ' => "ch",
        'պ' => "p",
        'ջ' => "j",
        'ռ' => "r",
        'ս' => "s",
        'վ' => "v",
        'տ' => "t",
        'ր' => "r",
        'ց' => "ts",
        // Alone, without the `ո` before it.
        'ւ' => "v",
        'փ' => "p",
        'ք' => "k",
        'և' => "ev",
        'օ' => "o",
        'ֆ' => "f",
        // Old letters (U+0560, U+0588: ՠ ֈ).
        'ՠ' => "a",
        'ֈ' => "h",
        _ => "",
    }
}

/// What the letter `c` is written as, after `prev` (`None` at a word's
/// start) and before `next`: `ու` u, and a word's first `ե` `ո` `և` as
/// ye vo yev.
fn in_context(prev: Option<char>, c: char, next: Option<char>) -> &'static str {
    match c {
        'ո' if next == Some('ւ') => "u",
        'ւ' if prev == Some('ո') => "",
        'ե' if prev.is_none() => "ye",
        'ո' if prev.is_none() => "vo",
        'և' if prev.is_none() => "yev",
        _ => letter(c),
    }
}

/// The letters of `word` in lower case, each with whether it was a
/// capital: the marks on its vowels left out.
fn letters_of(word: &str) -> impl Iterator<Item = (char, bool)> + '_ {
    word.chars()
        .filter(|&c| is_armenian(c) && !is_mark(c))
        .map(lower_of)
}

/// Writes `word`, a run of Armenian letters (and the marks on them), to
/// `out` as its readers write it, capitals kept.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    let (letters, capitals) = letters_of(word).fold((0, 0), |(n, caps), (_, upper)| {
        (n + 1, caps + usize::from(upper))
    });
    let mut cased = super::cased::Cased::new(out, letters, capitals);
    let mut prev = None;
    let mut rest = letters_of(word).peekable();
    while let Some((c, upper)) = rest.next() {
        let next = rest.peek().map(|&(next, _)| next);
        cased.push(in_context(prev, c, next), upper);
        prev = Some(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(word: &str) -> String {
        let mut out = String::new();
        romanize_word(word, &mut out);
        out
    }

    #[test]
    fn as_armenias_own_names_spell_them() {
        for (word, want) in [
            ("Երևան", "Yerevan"),
            ("Գյումրի", "Gyumri"),
            ("Վանաձոր", "Vanadzor"),
            ("Վաղարշապատ", "Vagharshapat"),
            ("Իջևան", "Ijevan"),
            ("Չարենցավան", "Charentsavan"),
            ("Եղեգնաձոր", "Yeghegnadzor"),
            ("Ոսկեպար", "Voskepar"),
            ("Ուրցաձոր", "Urtsadzor"),
            ("Գավառ", "Gavar"),
            ("և", "yev"),
            ("ինչո՞ւ", "inchu"),
            ("Ա՜խ", "Akh"),
            ("ՀԱՅԱՍՏԱՆ", "HAYASTAN"),
        ] {
            assert_eq!(read(word), want, "{word}");
        }
    }

    #[test]
    fn every_letter_is_written_in_ascii() {
        for c in ('\u{0561}'..='\u{0587}').chain(['ՠ', 'ֈ']) {
            let text = letter(c);
            assert!(!text.is_empty() && text.is_ascii(), "{c}");
        }
        for c in '\u{0531}'..='\u{0556}' {
            assert!(!letter(lower_of(c).0).is_empty(), "{c}");
        }
    }
}
