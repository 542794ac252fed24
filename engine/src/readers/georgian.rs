//! Georgian as its readers write it in ASCII (rules 6): Georgia's national
//! romanization of 2002, the one its road signs, maps and government use
//! (`თბილისი` Tbilisi, `ხაშური` Khashuri, `ცხინვალი` Tskhinvali,
//! `წყალტუბო` Tsqaltubo), without the apostrophe it puts after the
//! ejectives (`კ პ ტ წ ჭ` k' p' t' ts' ch'), which readers leave out:
//!
//! - `ჟ` zh, `შ` sh, `ჩ` `ჭ` ch, `ც` `წ` ts, `ძ` dz, `ხ` kh, `ღ` gh,
//!   `ყ` q, `ჯ` j, `ჰ` h;
//! - the aspirates and ejectives alike: `თ` `ტ` t, `ქ` `კ` k, `ფ` `პ` p.
//!
//! Rules 5 and before left Georgian to deunicode, which writes `ხ` x,
//! `ც` `წ` c, `ძ` z and `ღ` g (`ხაშური` `xashuri`). Mkhedruli, the
//! script of today, has no case; its capitals of Unicode 11 (Mtavruli)
//! and the church script's (Asomtavruli, with Nuskhuri) are read as the
//! same letters, Mtavruli and Asomtavruli as capitals. The letters no
//! longer written (`ჱ ჲ ჳ ჴ ჵ ჶ ჷ`) are read as the scholars' editions
//! write them (e y w q o f y).

/// Whether `c` is a Georgian letter: Asomtavruli and Mkhedruli (U+10A0 to
/// U+10FF but the paragraph separator U+10FB), Mtavruli (U+1C90 to
/// U+1CBF) and Nuskhuri (U+2D00 to U+2D2D).
#[inline]
pub(crate) fn is_georgian(c: char) -> bool {
    matches!(
        c,
        '\u{10A0}'..='\u{10C5}'
            | '\u{10C7}'
            | '\u{10CD}'
            | '\u{10D0}'..='\u{10FA}'
            | '\u{10FC}'..='\u{10FF}'
            | '\u{1C90}'..='\u{1CBA}'
            | '\u{1CBD}'..='\u{1CBF}'
            | '\u{2D00}'..='\u{2D25}'
            | '\u{2D27}'
            | '\u{2D2D}'
    )
}

/// `c`, a Georgian letter, as the Mkhedruli letter it is, and whether it
/// was a capital (Mtavruli or Asomtavruli).
#[inline]
fn mkhedruli_of(c: char) -> (char, bool) {
    let code = c as u32;
    let (code, capital) = match code {
        0x10A0..=0x10CD => (code + 0x30, true),
        0x1C90..=0x1CBF => (code - 0xBC0, true),
        0x2D00..=0x2D2D => (code - 0x2D00 + 0x10D0, false),
        _ => (code, false),
    };
    (char::from_u32(code).unwrap_or(c), capital)
}

/// What a Mkhedruli letter is written as.
fn letter(c: char) -> &'static str {
    match c {
        'ა' => "a",
        'ბ' => "b",
        'გ' => "g",
        'დ' => "d",
        'ე' => "e",
        'ვ' => "v",
        'ზ' => "z",
        'თ' => "t",
        'ი' => "i",
        'კ' => "k",
        'ლ' => "l",
        'მ' => "m",
        'ნ' => "n",
        'ო' => "o",
        'პ' => "p",
        'ჟ' => "zh",
        'რ' => "r",
        'ს' => "s",
        'ტ' => "t",
        'უ' => "u",
        'ფ' => "p",
        'ქ' => "k",
        'ღ' => "gh",
        'ყ' => "q",
        'შ' => "sh",
        'ჩ' => "ch",
        'ც' => "ts",
        'ძ' => "dz",
        'წ' => "ts",
        'ჭ' => "ch",
        'ხ' => "kh",
        'ჯ' => "j",
        'ჰ' => "h",
        // The letters no longer written (he, hie, vie, qar, hoe, fi, yn).
        'ჱ' => "e",
        'ჲ' => "y",
        'ჳ' => "w",
        'ჴ' => "q",
        'ჵ' => "o",
        'ჶ' => "f",
        'ჷ' => "y",
        // Letters of other languages written in Georgian (Mingrelian,
        // Svan, Abkhaz): elifi, turned gan, ain, the modifier nar, aen,
        // and the hard and labial signs.
        'ჸ' => "",
        'ჹ' => "g",
        'ჺ' => "",
        'ჼ' => "n",
        'ჽ' => "",
        'ჾ' => "",
        'ჿ' => "",
        _ => "",
    }
}

/// Writes `word`, a run of Georgian letters, to `out` as its readers
/// write it, capitals kept.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    let letters = || word.chars().filter(|&c| is_georgian(c)).map(mkhedruli_of);
    let (count, capitals) = letters().fold((0, 0), |(n, caps), (_, upper)| {
        (n + 1, caps + usize::from(upper))
    });
    let mut cased = super::cased::Cased::new(out, count, capitals);
    for (c, upper) in letters() {
        cased.push(letter(c), upper);
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
    fn as_georgias_own_names_spell_them() {
        // Georgia's towns as its government names them in English.
        for (word, want) in [
            ("თბილისი", "tbilisi"),
            ("ქუთაისი", "kutaisi"),
            ("ხაშური", "khashuri"),
            ("ცხინვალი", "tskhinvali"),
            ("წყალტუბო", "tsqaltubo"),
            ("ჭიათურა", "chiatura"),
            ("ახალციხე", "akhaltsikhe"),
            ("ბორჯომი", "borjomi"),
            ("დიღომი", "dighomi"),
            ("მცხეთა", "mtskheta"),
            ("ზუგდიდი", "zugdidi"),
            ("ჟინვალი", "zhinvali"),
            ("ძალისა", "dzalisa"),
        ] {
            assert_eq!(read(word), want, "{word}");
        }
    }

    #[test]
    fn capitals_of_both_kinds_are_kept() {
        // Mtavruli (U+1C91 is the capital of ბ).
        assert_eq!(read("\u{1C91}ათუმი"), "Batumi");
        assert_eq!(
            read("\u{1C91}\u{1C90}\u{1C97}\u{1CA3}\u{1C9B}\u{1C98}"),
            "BATUMI"
        );
        // Asomtavruli, and Nuskhuri its small letters.
        assert_eq!(read("\u{10A1}\u{2D00}"), "Ba");
    }

    #[test]
    fn every_letter_is_written_in_ascii() {
        for c in ('\u{10A0}'..='\u{10FF}')
            .chain('\u{1C90}'..='\u{1CBF}')
            .chain('\u{2D00}'..='\u{2D2F}')
            .filter(|&c| is_georgian(c))
        {
            let (m, _) = mkhedruli_of(c);
            assert!(letter(m).is_ascii(), "{c}");
            assert!(
                !letter(m).is_empty() || matches!(m, 'ჸ' | 'ჺ' | 'ჽ' | 'ჾ' | 'ჿ'),
                "{c} U+{:04X}",
                c as u32
            );
        }
        assert!(!is_georgian('\u{10FB}'));
    }
}
