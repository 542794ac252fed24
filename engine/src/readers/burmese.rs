//! Burmese (Myanmar script) reader: writes a Burmese word the way Myanmar's own
//! place-name lists, maps and signs spell it in Latin letters.
//!
//! The convention is the BGN/PCGN 1970 system for Burmese (itself a restatement of the
//! 1907 *Tables for the Transliteration of Burmese into English*), read by syllable, with
//! the Myanmar government's customary spellings where they differ from it (as used in the
//! General Administration Department / MIMU place-name lists and on signs):
//!
//! - the aspirates as the customary spellings write them: ခ `kh`, ထ `ht`, ဖ `hp` (BGN
//!   writes hk, ht, hp), and ဆ `s` like စ (BGN hs);
//! - vowels by syllable, not by letter: ေ `ay` (Mandalay, Set Ka Lay) but ွေ `we`
//!   (Sittwe, Shwe); ဲ and ယ် `e`; ော `aw`; ို `o`, with visarga ိုး `oe` (Boe, Yoe);
//! - finals: က် `et`, ိုက် `aik`, ောက် `auk`, င် `in`, ိုင် `aing`, ောင် `aung`, စ် `it`,
//!   ဉ် `in`, ည် `e`, တ်/ပ် `at`, ိတ်/ိပ် `eik`, ုတ်/ုပ် `ok`, ွတ် `ut`, န်/မ်/ံ `an`,
//!   ိန် `ein`, ုန် `on` but with visarga ုန်း `one` (Kone), ွန် `un`;
//! - medials: ျ/ြ `y` (ကျ `ky`, ချ `ch`, မြ `my`), ွ `w`, ှ `h` before the letter
//!   (လှ `hl`, မှ `hm`), ရှ/လျှ/သျှ `sh`; a bare အ syllable is `ah` (Ahlone);
//! - stacked (virama) and kinzi letters close the syllable before them (မန္တလေး
//!   `mantalay`, မင်္ဂလာ `mingala`), and an aspirate after a stacked stop loses its h
//!   (မိတ္ထီလာ `meiktila`);
//! - ကြီး "big" is voiced to `gyi` inside a name (တောင်ကြီး `taunggyi`), except right
//!   after a stop when more follows (မြစ်ကြီးနား `myitkyina`).
//!
//! Examples: စစ်တွေ `sittwe`, တောင်ကြီး `taunggyi`, မြစ်ကြီးနား `myitkyina`, မုံရွာ `monywa`.
//!
//! Left out: the voicing of other initials (BGN notes 5-6), which the customary
//! spellings follow word by word (ရန်ကုန် gives `yankon`, not Yangon; မန္တလေး `mantalay`,
//! not Mandalay); the `ar` that village lists write for open ာ (we write `a`, as in
//! Myitkyina, Meiktila); lexical readings (ဘုရား `buya` for hpaya, ပုသိမ် `puthein` for
//! Pathein); Rakhine `r` (Mrauk U); killed letters in loanwords are written as letters
//! (ပါလ်မာ `palma`). Shan, Mon and Karen letters get rough Burmese values only.

/// Whether `c` is read with a Burmese word (its letters, vowel signs, medials, asat,
/// virama/stacking, tone marks; NOT its digits U+1040-1049 nor its punctuation ၊ ။).
pub(crate) fn is_burmese(c: char) -> bool {
    matches!(c, '\u{1000}'..='\u{103F}' | '\u{104C}'..='\u{108F}' | '\u{109A}'..='\u{109F}')
}

/// The vowel of a syllable, from its vowel signs.
#[derive(Clone, Copy, PartialEq)]
enum V {
    A,
    Aa,
    I,
    U,
    E,
    Ai,
    Aw,
    O,
}

/// The final of a syllable (a letter killed by asat or stacked under virama), by sound.
#[derive(Clone, Copy, PartialEq)]
enum Fin {
    No,
    K,
    Ng,
    C,
    Ny,
    Nya,
    T,
    N,
    Y,
    Other,
}

/// How a consonant letter is written at the start of a syllable.
fn onset(c: char) -> &'static str {
    match c {
        'က' | 'ၵ' => "k",
        'ခ' | 'ၶ' => "kh",
        'ဂ' | 'ဃ' | 'ၷ' => "g",
        'င' | 'ၚ' => "ng",
        'စ' | 'ဆ' | 'ၑ' | 'ၸ' => "s",
        'ဇ' | 'ဈ' | 'ၛ' | 'ၹ' => "z",
        'ဉ' | 'ည' | 'ၺ' => "ny",
        'ဋ' | 'တ' => "t",
        'ဌ' | 'ထ' => "ht",
        'ဍ' | 'ဎ' | 'ဒ' | 'ဓ' | 'ၻ' => "d",
        'ဏ' | 'န' | 'ၼ' => "n",
        'ပ' => "p",
        'ဖ' | 'ၽ' => "hp",
        'ၾ' => "f",
        'ဗ' | 'ဘ' | 'ၜ' | 'ၝ' | 'ၿ' => "b",
        'မ' => "m",
        'ယ' | 'ရ' => "y",
        'လ' | 'ဠ' => "l",
        'ဝ' => "w",
        'သ' | 'ဿ' | 'ႀ' => "th",
        'ဟ' | 'ႁ' => "h",
        'ၐ' => "sh",
        _ => "",
    }
}

/// How a killed letter outside the native finals is written (loanwords: ပါလ်မာ Palma).
fn foreign_final(c: char) -> &'static str {
    match c {
        'က' | 'ခ' => "k",
        'ဂ' | 'ဃ' => "g",
        'စ' | 'ဆ' => "s",
        'တ' | 'ထ' | 'ဋ' | 'ဌ' => "t",
        'ပ' => "p",
        'ဖ' => "f",
        'ရ' => "r",
        _ => onset(c),
    }
}

/// Whether `c` is a consonant letter (one that can start a syllable or close one).
fn is_consonant(c: char) -> bool {
    matches!(c, '\u{1000}'..='\u{1021}' | 'ဿ' | '\u{1050}'..='\u{1051}' | '\u{105A}'..='\u{105D}'
        | '\u{1061}' | '\u{1065}'..='\u{1066}' | '\u{106E}'..='\u{1070}' | '\u{1075}'..='\u{1081}'
        | '\u{108E}')
}

/// The final class of consonant `c` when it closes a syllable.
fn final_of(c: char) -> Fin {
    match c {
        'က' | 'ခ' | 'ဂ' | 'ဃ' => Fin::K,
        'င' => Fin::Ng,
        'စ' | 'ဆ' | 'ဇ' | 'ဈ' => Fin::C,
        'ဉ' => Fin::Ny,
        'ည' => Fin::Nya,
        'ဋ' | 'ဌ' | 'ဍ' | 'ဎ' | 'တ' | 'ထ' | 'ဒ' | 'ဓ' => Fin::T,
        'ပ' | 'ဖ' | 'ဗ' | 'ဘ' => Fin::T,
        'ဏ' | 'န' | 'မ' => Fin::N,
        'ယ' => Fin::Y,
        _ => Fin::Other,
    }
}

/// The rime (vowel plus final) of a native syllable; `w` is the medial ွ, `vis` the visarga း.
fn rime(v: V, f: Fin, w: bool, vis: bool) -> Option<&'static str> {
    use Fin::*;
    use V::*;
    Some(match (v, f, w) {
        (A, No, false) | (Aa, No, false) => "a",
        (A, No, true) | (Aa, No, true) => "wa",
        (I, No, false) => "i",
        (I, No, true) => "wi",
        (U, No, _) => "u",
        (E, No, false) => "ay",
        (E, No, true) | (Ai, No, true) | (A, Y, true) => "we",
        (Ai, No, false) | (A | Aa, Y, false) | (A, Nya, false) => "e",
        (Aw, No, _) => "aw",
        (O, No, _) => {
            if vis {
                "oe"
            } else {
                "o"
            }
        }
        (A, K, false) => "et",
        (A, K, true) => "wet",
        (O, K, _) => "aik",
        (Aw, K, _) => "auk",
        (U, K, _) => "ok",
        (A, Ng | Ny, false) | (Aa | I, Ny | Ng, false) => "in",
        (A, Ng | Ny, true) => "win",
        (O, Ng, _) => "aing",
        (Aw, Ng, _) => "aung",
        (A, C, false) => "it",
        (A, C, true) => "wit",
        (I, C, _) => "eik",
        (A | Aa, T, false) => "at",
        (A, T, true) => "ut",
        (I, T, _) => "eik",
        (U, T, _) => "ok",
        (A | Aa, N, false) => "an",
        (A, N, true) => "un",
        (I, N, _) => "ein",
        (U, N, _) => {
            if vis {
                "one"
            } else {
                "on"
            }
        }
        _ => return None,
    })
}

/// Writes a syllable that has no native rime: its bare vowel, then its final as a letter.
fn fallback(v: V, fin: Option<char>, w: bool, out: &mut String) {
    if w {
        out.push('w');
    }
    out.push_str(match v {
        V::A | V::Aa => "a",
        V::I => "i",
        V::U => "u",
        V::E | V::Ai => "e",
        V::Aw => "aw",
        V::O => "o",
    });
    if let Some(c) = fin {
        out.push_str(foreign_final(c));
    }
}

/// Writes the initial of a syllable: letter `base` with medials ျ/ြ (`y`) and ှ (`h`).
fn initial(base: char, ini: &'static str, y: bool, h: bool, out: &mut String) {
    if h && (matches!(base, 'ယ' | 'ရ') || (y && matches!(base, 'လ' | 'သ'))) {
        out.push_str("sh");
        return;
    }
    if h {
        out.push('h');
    }
    out.push_str(match (ini, y) {
        ("k", true) => "ky",
        ("kh", true) => "ch",
        ("g", true) => "gy",
        (_, _) => ini,
    });
    if y && !matches!(ini, "k" | "kh" | "g" | "y") {
        out.push('y');
    }
}

/// Writes `run`, a run of the Myanmar block (and the joiners inside it),
/// to `out`: its words as [`romanize_word`] reads them, syllables
/// joined, Burmese digits as ASCII digits, the joiners as nothing, and a
/// space for anything else (the section marks `၊ ။`).
pub(crate) fn romanize_run(run: &str, out: &mut String) {
    let digit = |c: char| match c {
        '\u{1040}'..='\u{1049}' => Some(c as u32 - 0x1040),
        '\u{1090}'..='\u{1099}' => Some(c as u32 - 0x1090),
        _ => None,
    };
    super::letters::read_letters(run, out, is_burmese, digit, romanize_word);
}

/// Writes `word`, a run of chars for which is_burmese is true, to `out` in lower-case ASCII
/// letters as its readers write it, syllables joined.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    let mut rest = word;
    let mut after_stop = false; // the previous syllable ended in a stop (k, t, it)
    let mut stacked = false; // ... and that stop was stacked over this one (virama)
    let mut first_syllable = true;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        // The onset: a consonant, or an independent vowel read as အ plus its vowel sign.
        let (base, mut v_i, mut v_u, mut v_e, mut v_aa) = match c {
            'ဣ' | 'ဤ' => ('အ', true, false, false, false),
            'ဥ' | 'ဦ' => ('အ', false, true, false, false),
            'ဧ' => ('အ', false, false, true, false),
            'ဩ' | 'ဪ' => ('အ', false, false, true, true),
            '၏' | '၌' | '၍' | '၎' => {
                out.push_str(match c {
                    '၏' => "i",
                    '၌' => "hnaik",
                    '၍' => "ywe",
                    _ => "lagaung",
                });
                if c == '၎' {
                    rest = rest.strip_prefix("င်း").unwrap_or(rest); // ၎င်း is one word
                }
                (after_stop, stacked, first_syllable) = (c == '၌', false, false);
                continue;
            }
            c if is_consonant(c) => (c, false, false, false, false),
            _ => continue, // a stray sign or an unread letter
        };
        let (mut y, mut h, mut w, mut ai, mut anus, mut vis) =
            (false, false, false, false, false, false);
        let (mut fin, mut fin_char, mut stk, mut bare) = (Fin::No, None, false, false);
        let mut first = true;
        while let Some(d) = rest.chars().next() {
            let after = &rest[d.len_utf8()..];
            match d {
                'ျ' | 'ြ' => y = true,
                'ှ' => h = true,
                'ွ' => w = true,
                'ိ' | 'ီ' => v_i = true,
                'ု' | 'ူ' => v_u = true,
                'ေ' => v_e = true,
                'ာ' | 'ါ' => v_aa = true,
                'ဲ' => ai = true,
                'ံ' => anus = true,
                'း' => vis = true,
                '်' => bare |= first, // asat right on the onset: a lone killed letter
                '့' | '္' => {}
                d if is_consonant(d) && fin == Fin::No => {
                    let tail = after.trim_start_matches('့');
                    if let Some(t) = tail.strip_prefix('်') {
                        // a final; a kinzi (င်္) also closes this syllable
                        (fin, fin_char) = (final_of(d), Some(d));
                        rest = t.strip_prefix('္').unwrap_or(t);
                        first = false;
                        continue;
                    } else if let Some(t) = after.strip_prefix('္') {
                        (fin, fin_char, stk, rest) = (final_of(d), Some(d), true, t);
                    }
                    break;
                }
                _ => break,
            }
            first = false;
            rest = after;
        }
        if bare {
            out.push_str(foreign_final(base));
            (after_stop, stacked, first_syllable) = (true, false, false);
            continue;
        }
        let v = if v_e && v_aa {
            V::Aw
        } else if v_i && v_u {
            V::O
        } else if v_e {
            V::E
        } else if v_aa {
            V::Aa
        } else if v_i {
            V::I
        } else if v_u {
            V::U
        } else if ai {
            V::Ai
        } else {
            V::A
        };
        // ကြီး "big" inside a name is voiced (Taunggyi), not right after a stop unless it
        // ends the word (Myitkyina, but Ywathitgyi).
        let gyi = base == 'က' && y && v == V::I && vis && fin == Fin::No;
        let mut ini = if gyi && !first_syllable && (!after_stop || rest.is_empty()) {
            "g"
        } else {
            onset(base)
        };
        if stacked {
            ini = match ini {
                "kh" => "k",
                "ht" => "t",
                "hp" => "p",
                _ => ini,
            };
        }
        if base == 'ဝ' {
            (w, ini) = (true, "");
        }
        initial(base, ini, y, h, out);
        if anus && fin == Fin::No {
            fin = Fin::N;
        }
        let start = out.len();
        if base == 'အ' && v == V::A && fin == Fin::No && !w && !h && !y {
            out.push_str("ah");
        } else if let Some(r) = rime(v, fin, w, vis) {
            out.push_str(r);
        } else if let (true, Some(r)) = (w, rime(v, fin, false, vis)) {
            out.push('w');
            out.push_str(r);
        } else {
            fallback(v, fin_char, w, out);
        }
        if base == 'ဝ' && !out[start..].starts_with('w') {
            out.insert(start, 'w');
        }
        after_stop = matches!(fin, Fin::K | Fin::C | Fin::T);
        stacked = stk && after_stop;
        first_syllable = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads one word.
    fn read(s: &str) -> String {
        let mut out = String::new();
        romanize_word(s, &mut out);
        out
    }

    /// Town names as the government writes them.
    #[test]
    fn government_spellings() {
        // Official English names of towns, as GeoNames gives them
        // (tests/data/standards/my-geonames.tsv).
        assert_eq!(read("စစ်တွေ"), "sittwe");
        assert_eq!(read("တောင်ကြီး"), "taunggyi");
        assert_eq!(read("မြစ်ကြီးနား"), "myitkyina");
        assert_eq!(read("မုံရွာ"), "monywa");
        assert_eq!(read("မိတ္ထီလာ"), "meiktila");
        assert_eq!(read("တိုက်ကြီး"), "taikgyi"); // GeoNames village "Taik Gyi"
        assert_eq!(read("မြဝတီ"), "myawati"); // official Myawaddy (voicing not written)
        assert_eq!(read("ရန်ကုန်"), "yankon"); // official Yangon: voicing left out, see above
    }

    /// Village names in the customary (GAD/MIMU) spelling.
    #[test]
    fn customary_village_spellings() {
        // MIMU / GAD village names as GeoNames carries them
        // (tests/data/standards/my-geonames.tsv).
        assert_eq!(read("စက်ကလေး"), "setkalay"); // Set Ka Lay
        assert_eq!(read("စမ်းချောင်း"), "sanchaung"); // San Chaung
        assert_eq!(read("ညောင်"), "nyaung"); // Nyaung
        assert_eq!(read("ရွှေလင်ဘန်း"), "shwelinban"); // Shwe Lin Ban
        assert_eq!(read("မှော်ဘီ"), "hmawbi"); // Hmaw Bi
        assert_eq!(read("အလယ်"), "ahle"); // Ah Lel (GeoNames); BGN è
        assert_eq!(read("ကုန်းတလပေါင်"), "konetalapaung"); // Kone Ta La Paung
        assert_eq!(read("ပျဉ်းမပင်"), "pyinmapin"); // Pyin Ma Pin
        assert_eq!(read("ညောင်ဝိုင်း"), "nyaungwaing"); // Nyaung Waing
        assert_eq!(read("ဒုံဝန်း"), "donwun"); // Don Wun
        assert_eq!(read("ကျွန်းကလေး"), "kyunkalay"); // Kyun Ka Lay
        assert_eq!(read("ဂွေးတောက်အိုင်"), "gwetaukaing"); // Gway Tauk Aing (ours: Sittwe's we)
        assert_eq!(read("မင်္ဂလွန်း"), "mingalun"); // Min Ga Lun: kinzi
        assert_eq!(read("ဘိုးဘ"), "boeba"); // Boe Ba
        assert_eq!(read("ဥယျာဉ်"), "uyin"); // U Yin
        assert_eq!(read("ပုပ္ပါး"), "pokpa"); // Pok Pa: stacked stop
    }

    /// Examples given in the BGN/PCGN 1970 notes.
    #[test]
    fn bgn_pcgn_examples() {
        // Examples in the notes of the BGN/PCGN 1970 agreement (vowels and finals).
        assert_eq!(read("ကလိ"), "kali");
        assert_eq!(read("မအူ"), "mau"); // BGN ma-u
        assert_eq!(read("အိုဘဲ့"), "obe"); // BGN obè
    }

    /// Loanwords from CLDR, stray signs, and what is_burmese takes.
    #[test]
    fn loanwords_and_odd_input() {
        assert_eq!(read("ပါလ်မာ"), "palma"); // CLDR: Palma
        assert_eq!(read("ကမ်ပါလာ"), "kanpala"); // CLDR: Kampala (m before p not kept)
        assert_eq!(read("်ျ္"), "");
        assert!(!is_burmese('၁') && !is_burmese('၊') && !is_burmese('။') && is_burmese('က'));
    }

    /// Random runs of U+1000-U+109F never panic and give a-z only.
    #[test]
    fn fuzz_never_panics_and_writes_ascii() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..(seed % 12) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push(char::from_u32(0x1000 + (seed % 0xA0) as u32).unwrap_or('က'));
            }
            let mut out = String::new();
            romanize_word(&s, &mut out);
            assert!(
                out.bytes().all(|b| b.is_ascii_lowercase()),
                "{s:?} -> {out:?}"
            );
        }
    }
}
