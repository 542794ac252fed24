//! Amharic in Ethiopic script by the BGN/PCGN system of 1967 (rules 5),
//! folded to ASCII as its letters are (`’` and the macrons left out,
//! `š ḥ ḫ` as `s h h`), with the sixth-order vowel written only where it
//! is heard: `የዜግነት` is `yezegnet`, where CLDR's transform, which always
//! writes it, gives `yezegineti`.
//!
//! The standard's note 1 says the sixth order is romanized "with or
//! without the letter i, depending on pronunciation". Amharic sounds it
//! only to break up consonants: so a sixth-order syllable is written
//! without its `i` at the end of a word and after a vowel, and with it at
//! the start of a word before another syllable and after a consonant
//! without a vowel (`ክብር` `kibr`, `ኢትዮጵያ` `ityopya`).
//!
//! The table is CLDR 41's `Amharic-Latin-BGN` (`am-Latn-t-am-m0-bgn`),
//! syllable by syllable, folded. Ethiopic is read so with `locale: am` and
//! without a locale (Amharic is most of what is written in it); the
//! locale of another language written in it keeps its reading.

/// Each syllable of U+1200 to U+137F as the standard writes it, folded;
/// empty where it has none.
const SYLLABLES: [&str; 0x180] = [
    "ha", "hu", "hi", "ha", "he", "hi", "ho", "", // U+1200
    "le", "lu", "li", "la", "le", "li", "lo", "lwa", // U+1208
    "ha", "hu", "hi", "ha", "he", "hi", "ho", "", // U+1210
    "me", "mu", "mi", "ma", "me", "mi", "mo", "mwa", // U+1218
    "se", "su", "si", "sa", "se", "si", "so", "", // U+1220
    "re", "ru", "ri", "ra", "re", "ri", "ro", "rwa", // U+1228
    "se", "su", "si", "sa", "se", "si", "so", "swa", // U+1230
    "she", "shu", "shi", "sha", "she", "shi", "sho", "shwa", // U+1238
    "ke", "ku", "ki", "ka", "ke", "ki", "ko", "", // U+1240
    "ko", "", "kwi", "kwa", "kwe", "kwi", "", "", // U+1248
    "ke", "ku", "ki", "ka", "ke", "ki", "ko", "", // U+1250
    "kwo", "", "kwi", "kwa", "kwe", "kwi", "", "", // U+1258
    "be", "bu", "bi", "ba", "be", "bi", "bo", "bwa", // U+1260
    "ve", "vu", "vi", "va", "ve", "vi", "vo", "vwa", // U+1268
    "te", "tu", "ti", "ta", "te", "ti", "to", "twa", // U+1270
    "che", "chu", "chi", "cha", "che", "chi", "cho", "chwa", // U+1278
    "ha", "hu", "hi", "ha", "he", "hi", "ho", "", // U+1280
    "ho", "", "hwi", "hwa", "hwe", "hwi", "", "", // U+1288
    "ne", "nu", "ni", "na", "ne", "ni", "no", "nwa", // U+1290
    "nye", "nyu", "nyi", "nya", "nye", "nyi", "nyo", "nywa", // U+1298
    "a", "u", "i", "a", "e", "i", "o", "e", // U+12A0
    "ke", "ku", "ki", "ka", "ke", "ki", "ko", "", // U+12A8
    "ko", "", "kwi", "kwa", "kwe", "kwi", "", "", // U+12B0
    "he", "hu", "hi", "ha", "he", "hi", "ho", "", // U+12B8
    "", "", "", "", "", "", "", "", // U+12C0
    "we", "wu", "wi", "wa", "we", "wi", "wo", "", // U+12C8
    "a", "u", "i", "a", "e", "i", "o", "", // U+12D0
    "ze", "zu", "zi", "za", "ze", "zi", "zo", "zwa", // U+12D8
    "zhe", "zhu", "zhi", "zha", "zhe", "zhi", "zho", "zhwa", // U+12E0
    "ye", "yu", "yi", "ya", "ye", "yi", "yo", "", // U+12E8
    "de", "du", "di", "da", "de", "di", "do", "dwa", // U+12F0
    "", "", "", "", "", "", "", "", // U+12F8
    "je", "ju", "ji", "ja", "je", "ji", "jo", "jwa", // U+1300
    "ge", "gu", "gi", "ga", "ge", "gi", "go", "", // U+1308
    "go", "", "gwi", "gwa", "gwe", "gwi", "", "", // U+1310
    "", "", "", "", "", "", "", "", // U+1318
    "te", "tu", "ti", "ta", "te", "ti", "to", "twa", // U+1320
    "che", "chu", "chi", "cha", "che", "chi", "cho", "chwa", // U+1328
    "pe", "pu", "pi", "pa", "pe", "pi", "po", "pwa", // U+1330
    "tse", "tsu", "tsi", "tsa", "tse", "tsi", "tso", "tswa", // U+1338
    "tse", "tsu", "tsi", "tsa", "tse", "tsi", "tso", "", // U+1340
    "fe", "fu", "fi", "fa", "fe", "fi", "fo", "fwa", // U+1348
    "pe", "pu", "pi", "pa", "pe", "pi", "po", "pwa", // U+1350
    "rya", "mya", "fya", "", "", "", "", "", // U+1358
    "", "", "", "", "", "", "", "", // U+1360
    "", "1", "2", "3", "4", "5", "6", "7", // U+1368
    "8", "9", "10", "20", "30", "40", "50", "60", // U+1370
    "70", "80", "90", "100", "", "", "", "", // U+1378
];

/// Whether `c` is in the Ethiopic block.
#[inline]
pub(crate) fn is_ethiopic(c: char) -> bool {
    matches!(c, '\u{1200}'..='\u{137F}')
}

/// What the standard writes for `c`; empty for what it has no letters
/// for, and for what is not Ethiopic.
fn written(c: char) -> &'static str {
    SYLLABLES
        .get((c as u32).wrapping_sub(0x1200) as usize)
        .copied()
        .unwrap_or("")
}

/// Whether `c` is a sixth-order syllable: a consonant whose vowel is
/// heard only between consonants.
fn is_sixth_order(c: char) -> bool {
    let cp = c as u32;
    (0x1200..0x1358).contains(&cp) && (cp - 0x1200) % 8 == 5
}

/// Appends `word`, a run of Ethiopic, as the standard writes it; its
/// numerals as the number they add up to (`፳፻፲፮` `2016`).
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    // Whether the last syllable written ended in a consonant.
    let mut after_consonant = false;
    let mut first = true;
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '\'' | '’' | 'ʼ') {
            continue;
        }
        if numeral(c).is_some() {
            let mut number = vec![c];
            while let Some(n) = chars.next_if(|&n| numeral(n).is_some()) {
                number.push(n);
            }
            push_number(&number, out);
            (after_consonant, first) = (false, true);
            continue;
        }
        let latin = written(c);
        if latin.is_empty() {
            // Punctuation (`።`, `፣`) and what the standard has no letters
            // for: as before rules 5.
            out.push_str(deunicode::deunicode_char(c).unwrap_or(" "));
            (after_consonant, first) = (false, true);
            continue;
        }
        if is_sixth_order(c) {
            let next_is_syllable = chars.peek().is_some_and(|&n| !written(n).is_empty());
            out.push_str(&latin[..latin.len() - 1]);
            let sounded = next_is_syllable && (first || after_consonant);
            if sounded {
                out.push('i');
            }
            after_consonant = !sounded;
        } else {
            out.push_str(latin);
            after_consonant = false;
        }
        first = false;
    }
}

/// The value of an Ethiopic numeral character: 1 to 9, 10 to 90, 100,
/// 10,000.
fn numeral(c: char) -> Option<u64> {
    match c {
        '\u{1369}'..='\u{1371}' => Some(u64::from(c as u32 - 0x1368)),
        '\u{1372}'..='\u{137A}' => Some(10 * u64::from(c as u32 - 0x1371)),
        '\u{137B}' => Some(100),
        '\u{137C}' => Some(10_000),
        _ => None,
    }
}

/// Appends the number Ethiopic numerals write: units and tens add up, a
/// hundred multiplies what is before it in its ten thousand, a ten
/// thousand all before it (`፲፪` 12, `፻፳፫` 123, `፳፻፲፮` 2016).
fn push_number(numerals: &[char], out: &mut String) {
    let (mut total, mut block, mut below_100) = (0u64, 0u64, 0u64);
    for &c in numerals {
        match numeral(c).unwrap_or(0) {
            100 => {
                block = block.saturating_add(below_100.max(1).saturating_mul(100));
                below_100 = 0;
            }
            10_000 => {
                let before = total.saturating_add(block).saturating_add(below_100);
                total = before.max(1).saturating_mul(10_000);
                (block, below_100) = (0, 0);
            }
            v => below_100 = below_100.saturating_add(v),
        }
    }
    let number = total.saturating_add(block).saturating_add(below_100);
    out.push_str(&number.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bgn(word: &str) -> String {
        let mut out = String::new();
        romanize_word(word, &mut out);
        out
    }

    #[test]
    fn the_sixth_order_is_written_where_it_is_heard() {
        for (word, want) in [
            ("የዜግነት", "yezegnet"),
            ("ኢትዮጵያ", "ityopya"),
            ("አዲስ", "adis"),
            ("አበባ", "abeba"),
            ("ክብር", "kibr"),
            ("ሁሉ", "hulu"),
            ("መሠረቱ", "meseretu"),
            ("ኢትዮጵያ'ዊ", "ityopyawi"),
            ("፲፪", "12"),
            ("፻፳፫", "123"),
            ("፳፻፲፮", "2016"),
            ("፼", "10000"),
        ] {
            assert_eq!(bgn(word), want, "{word}");
        }
    }

    #[test]
    fn every_sixth_order_syllable_ends_in_its_vowel() {
        for cp in 0x1200..0x1358u32 {
            let c = char::from_u32(cp).unwrap();
            let written = SYLLABLES[(cp - 0x1200) as usize];
            if is_sixth_order(c) && !written.is_empty() {
                assert!(written.ends_with('i'), "{c} {written}");
            }
        }
    }
}
