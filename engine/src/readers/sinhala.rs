//! Sinhala reader: writes a Sinhala word in plain ASCII the way Sri Lankans write their place
//! and personal names in English, not letter by letter.
//!
//! The letters are those of SLS 1134 (the Sinhala code standard) and ISO 15919; the spelling
//! follows the Sri Lankan English convention of maps, road signs and the Survey Department's
//! and Census Department's lists of districts, divisional secretariats and villages:
//!
//! * every consonant carries its inherent `a` unless a virama (hal kirima) or a vowel sign
//!   follows, **also at the end of a word**: මහරගම `maharagama`, දඹුල්ල `dambulla`,
//!   කුලියාපිටිය `kuliyapitiya`, මොරටුව `moratuwa`;
//! * long vowels are written single (ආ `a`: මාතර `matara`), except ී `ee` and ූ `oo`
//!   (`u` at a word's end) (වීරකැටිය `weeraketiya`, සූරියවැව `sooriyawewa`); æ (ඇ ඈ ැ ෑ) is `e`
//!   (ජා-ඇල `ja ela`, වැලිගම `weligama`); යි after a vowel is just `i` (කයිකාවල `kaikawala`);
//! * retroflex and dental pairs fall together: ඩ ද `d`, ණ න `n`, ළ ල `l` (නුවරඑළිය
//!   `nuwaraeliya`); aspirates add `h` (ධ `dh`: `anuradhapura`);
//! * ට is `t`, ත `th` as the lists of divisions and villages write it (තිස්සමහාරාම
//!   `thissamaharama`, පාතදුම්බර `pathadumbara`, රත්ගම `rathgama`), but doubled `tt`
//!   (වත්තල `wattala`);
//! * ව is `w` (වත්තල `wattala`) but `v` before i and u (දෙවිනුවර `devinuwara`) and in words
//!   spelled as Tamil names (ending in a bare consonant or -ai: තිරුක්කෝවිල් `thirukkovil`);
//! * ඹ ඳ ඬ ඟ are `mb nd nd ng`, ං is `n` (`ng` at the end), ශ ෂ `sh` but ශ්‍රී `sri`;
//! * the districts whose English names are not readings of their letters are written by
//!   name: කොළඹ `colombo`, ගාල්ල `galle`, මහනුවර `kandy`, යාපනය `jaffna`, පුත්තලම `puttalam`,
//!   and those whose names write ත `t` (මාතර `matara`, කළුතර `kalutara`, රත්නපුර
//!   `ratnapura`).
//!
//! Left out: other exonyms and old spellings (මීගමුව gives `meegamuwa`, not Negombo; හලාවත
//! `halawatha`, not Chilaw; තංගල්ල `thangalla`, not Tangalle), the older `t` of towns' names
//! for ත (කතරගම `katharagama`, Kataragama) and Tamil names spelled in Sinhala beyond the
//! `v`/`ai` above (Tamil -ai written ේ stays `e`: කල්මුනේ `kalmune`, not Kalmunai).

const VIRAMA: char = '\u{0DCA}';
const ZWJ: char = '\u{200D}';

/// Whether `c` is read with a Sinhala word: the letters and signs U+0D81-U+0DF3, without the
/// Sinhala Lith digits U+0DE6-U+0DEF (and ෴ U+0DF4 is outside the range).
pub(crate) fn is_sinhala(c: char) -> bool {
    matches!(c, '\u{0D81}'..='\u{0DF3}') && !matches!(c, '\u{0DE6}'..='\u{0DEF}')
}

/// A consonant letter without its vowel; "" for anything that is not a consonant.
/// ත and ශ are also here; `consonant_in` refines them by context.
fn consonant(c: char) -> &'static str {
    match c {
        'ක' => "k",
        'ඛ' => "kh",
        'ග' => "g",
        'ඝ' => "gh",
        'ඞ' => "ng",
        'ඟ' => "ng",
        'ච' => "ch",
        'ඡ' => "chh",
        'ජ' => "j",
        'ඣ' => "jh",
        'ඤ' => "gn",
        'ඥ' => "gn",
        'ඦ' => "nj",
        'ට' => "t",
        'ඨ' => "th",
        'ඩ' => "d",
        'ඪ' => "dh",
        'ණ' => "n",
        'ඬ' => "nd",
        'ත' => "t",
        'ථ' => "th",
        'ද' => "d",
        'ධ' => "dh",
        'න' => "n",
        'ඳ' => "nd",
        'ප' => "p",
        'ඵ' => "ph",
        'බ' => "b",
        'භ' => "bh",
        'ම' => "m",
        'ඹ' => "mb",
        'ය' => "y",
        'ර' => "r",
        'ල' => "l",
        'ව' => "w",
        'ශ' => "sh",
        'ෂ' => "sh",
        'ස' => "s",
        'හ' => "h",
        'ළ' => "l",
        'ෆ' => "f",
        _ => "",
    }
}

/// A dependent vowel sign (pilla) written after its consonant; "" if `c` is not one.
fn vowel_sign(c: char) -> &'static str {
    match c {
        'ා' => "a",
        'ැ' | 'ෑ' => "e",
        'ි' => "i",
        'ී' => "ee",
        'ු' => "u",
        'ූ' => "oo",
        'ෘ' | 'ෲ' => "ru",
        'ෟ' | 'ෳ' => "lu",
        'ෙ' | 'ේ' => "e",
        'ෛ' => "ai",
        'ො' | 'ෝ' => "o",
        'ෞ' => "au",
        _ => "",
    }
}

/// An independent vowel letter, or the signs ං ඃ; "" otherwise.
fn other_letter(c: char) -> &'static str {
    match c {
        'අ' | 'ආ' => "a",
        'ඇ' | 'ඈ' => "e",
        'ඉ' => "i",
        'ඊ' => "i",
        'උ' | 'ඌ' => "u",
        'ඍ' | 'ඎ' => "ri",
        'ඏ' | 'ඐ' => "lu",
        'එ' | 'ඒ' => "e",
        'ඓ' => "ai",
        'ඔ' | 'ඕ' => "o",
        'ඖ' => "au",
        'ං' => "n",
        'ඃ' => "h",
        _ => "",
    }
}

/// The consonant `c` as written in its context: `back` are the chars before it (nearest
/// first, `None` past the word start), `ahead` the chars after it (nearest first).
fn consonant_in(
    c: char,
    tamil: bool,
    back: &[Option<char>; 3],
    ahead: &[Option<char>; 3],
) -> &'static str {
    match c {
        // ව: `v` before i and u (දෙවිනුවර Devinuwara) and in Tamil names, else `w`.
        'ව' if tamil || matches!(ahead[0], Some('ි') | Some('ු') | Some('ූ')) => "v",
        // ත: `th` (තිස්සමහාරාම Thissamaharama, පාතදුම්බර Pathadumbara), as
        // the Survey Department's lists write it, but `tt` doubled
        // (වත්තල Wattala, අගලවත්ත Agalawatta).
        'ත' if (ahead[0] == Some(VIRAMA) && ahead[1] == Some('ත'))
            || (back[0] == Some(VIRAMA) && back[1] == Some('ත')) =>
        {
            "t"
        }
        'ත' => "th",
        // ශ්‍රී / ශ්‍රි: the honorific is written "sri".
        'ශ' if ahead[0] == Some(VIRAMA)
            && ahead[1] == Some('ර')
            && matches!(ahead[2], Some('ී') | Some('ි')) =>
        {
            "s"
        }
        _ => consonant(c),
    }
}

/// Whether `word` is spelled as a Tamil name: it ends in a bare consonant (hal kirima) or
/// in යි, or has ෛ or the Tamil -ai written ෙයි; Sinhala words hardly do.
fn tamil_form(word: &str) -> bool {
    let mut prev = [' '; 2];
    for c in word.chars().filter(|&c| c != ZWJ) {
        if c == 'ෛ' || (prev == ['ෙ', 'ය'] && c == 'ි') {
            return true;
        }
        prev = [prev[1], c];
    }
    prev[1] == VIRAMA || prev == ['ය', 'ි']
}

/// The English name of a district whose name is not a reading of its Sinhala letters
/// (Administrative Districts Act No. 22 of 1955; ISO 3166-2:LK), for its Sinhala spellings.
fn established(word: &str) -> Option<&'static str> {
    const NAMES: &[(&str, &str)] = &[
        ("කොළඹ", "colombo"),
        ("මහනුවර", "kandy"),
        ("ගාල්ල", "galle"),
        ("කෑගල්ල", "kegalle"),
        ("යාපනය", "jaffna"),
        ("මන්නාරම", "mannar"),
        ("වවුනියාව", "vavuniya"),
        ("වවුනියා", "vavuniya"),
        ("මුලතිව්", "mullaitivu"),
        ("මුලතිවු", "mullaitivu"),
        ("මඩකලපුව", "batticaloa"),
        ("ත්රිකුණාමලය", "trincomalee"),
        ("ත්රිකුණාමළය", "trincomalee"),
        ("පුත්තලම", "puttalam"),
        // The districts whose names write `ත` t, as before the lists
        // wrote th.
        ("කළුතර", "kalutara"),
        ("මාතලේ", "matale"),
        ("මාතර", "matara"),
        ("හම්බන්තොට", "hambantota"),
        ("රත්නපුර", "ratnapura"),
    ];
    let plain = || word.chars().filter(|&c| c != ZWJ);
    NAMES
        .iter()
        .find(|(si, _)| plain().eq(si.chars()))
        .map(|&(_, en)| en)
}

/// Whether `c` ends in a vowel when written: a consonant with its inherent `a`, a vowel sign
/// or an independent vowel (so a following යි is just `i`: සයින්දමරුතු Sainthamaruthu).
fn ends_in_vowel(c: Option<char>) -> bool {
    matches!(c, Some(c) if is_sinhala(c) && !matches!(c, VIRAMA | 'ං' | 'ඃ'))
}

/// Writes `run`, a run of the Sinhala block (with the joiners its spelling
/// writes inside words), to `out`: its words as [`romanize_word`] reads
/// them, Sinhala Lith digits as ASCII digits, and a space for anything
/// else (the kunddaliya `෴`).
pub(crate) fn romanize(run: &str, out: &mut String) {
    let in_word = |c: char| is_sinhala(c) || matches!(c, '\u{200C}' | ZWJ);
    let digit = |c: char| matches!(c, '\u{0DE6}'..='\u{0DEF}').then(|| c as u32 - 0x0DE6);
    super::letters::read_letters(run, out, in_word, digit, romanize_word);
}

/// Writes `word`, a run of Sinhala chars (possibly with U+200D), to `out` in lower-case ASCII
/// letters as Sri Lankan readers write it; chars that are not Sinhala letters write nothing.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    if let Some(name) = established(word) {
        out.push_str(name);
        return;
    }
    let tamil = tamil_form(word);
    let mut chars = word.chars().filter(|&c| !matches!(c, ZWJ | '\u{200C}'));
    let mut back: [Option<char>; 3] = [None; 3];
    while let Some(c) = chars.next() {
        let mut peek = chars.clone();
        let ahead = [peek.next(), peek.next(), peek.next()];
        if c == 'ය' && ahead[0] == Some('ි') && ends_in_vowel(back[0]) {
            // "ai", "oi": the glide is not written (කයිකාවල Kaikawala).
        } else if !consonant(c).is_empty() {
            out.push_str(consonant_in(c, tamil, &back, &ahead));
            if !matches!(ahead[0], Some(n) if n == VIRAMA || !vowel_sign(n).is_empty()) {
                out.push('a');
            }
        } else if c == 'ෙ' && ahead[0] == Some('ය') && ahead[1] == Some('ි') {
            out.push('a'); // Tamil -ai written ෙයි: ආනෙයිචේනයි Anaichenai
        } else if c == 'ූ' && (ahead[0].is_none() || tamil) {
            out.push('u'); // ū is `u` at the end of a word and in Tamil names
        } else if c == 'ං' && ahead[0].is_none() {
            out.push_str("ng");
        } else if c == 'ී' && back == [Some('ර'), Some(VIRAMA), Some('ශ')] {
            out.push('i'); // ශ්‍රී `sri`
        } else if !vowel_sign(c).is_empty() {
            out.push_str(vowel_sign(c));
        } else {
            out.push_str(other_letter(c));
        }
        back = [Some(c), back[0], back[1]];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Romanizes a space/hyphen separated name word by word, joining with single spaces.
    fn read(name: &str) -> String {
        let mut out = String::new();
        for (i, w) in name.split([' ', '-']).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            romanize_word(w, &mut out);
        }
        out
    }

    // Districts: English names of the Administrative Districts Act No. 22 of 1955 / ISO 3166-2:LK,
    // Sinhala as in HDX COD-AB LKA v03 (Survey Department of Sri Lanka).
    #[test]
    fn districts() {
        assert_eq!(read("ගම්පහ"), "gampaha");
        assert_eq!(read("කළුතර"), "kalutara");
        assert_eq!(read("මාතලේ"), "matale");
        assert_eq!(read("නුවරඑළිය"), "nuwaraeliya");
        assert_eq!(read("මාතර"), "matara");
        assert_eq!(read("හම්බන්තොට"), "hambantota");
        assert_eq!(read("අනුරාධපුර"), "anuradhapura");
        assert_eq!(read("පොළොන්නරුව"), "polonnaruwa");
        assert_eq!(read("බදුල්ල"), "badulla");
        assert_eq!(read("මොණරාගල"), "monaragala");
        assert_eq!(read("රත්නපුර"), "ratnapura");
        assert_eq!(read("කුරුණෑගල"), "kurunegala");
        assert_eq!(read("කිලිනොච්චි"), "kilinochchi");
        // Established names, with and without ZWJ in ත්‍රි.
        assert_eq!(read("කොළඹ"), "colombo");
        assert_eq!(read("ගාල්ල"), "galle");
        assert_eq!(read("පුත්තලම"), "puttalam");
        assert_eq!(read("මාතර"), "matara");
        assert_eq!(read("මාතලේ"), "matale");
        assert_eq!(read("කළුතර"), "kalutara");
        assert_eq!(read("හම්බන්තොට"), "hambantota");
        assert_eq!(read("ත්‍රිකුණාමලය"), "trincomalee");
        assert_eq!(read("ත්රිකුණාමලය"), "trincomalee");
    }

    // Towns as GeoNames (geonames.org, CC BY 4.0) names them.
    #[test]
    fn towns() {
        assert_eq!(read("මහරගම"), "maharagama");
        assert_eq!(read("මොරටුව"), "moratuwa");
        assert_eq!(read("දඹුල්ල"), "dambulla");
        assert_eq!(read("ජා-ඇල"), "ja ela");
        assert_eq!(read("කඳාන"), "kandana");
        assert_eq!(read("කඩුගන්නාව"), "kadugannawa");
        assert_eq!(read("කුලියාපිටිය"), "kuliyapitiya");
        assert_eq!(read("වවුනියාව"), "vavuniya");
    }

    // Divisional secretariats and GN divisions, English as in HDX COD-AB LKA v03 admin levels 3-4.
    #[test]
    fn divisions() {
        assert_eq!(read("තිස්සමහාරාම"), "thissamaharama");
        assert_eq!(read("සූරියවැව"), "sooriyawewa");
        assert_eq!(read("වීරකැටිය"), "weeraketiya");
        assert_eq!(read("ඉංගිරිය"), "ingiriya");
        assert_eq!(read("වත්තල"), "wattala");
        assert_eq!(read("දෙවිනුවර"), "devinuwara");
        // ත th, but doubled tt.
        assert_eq!(read("පාතදුම්බර"), "pathadumbara");
        assert_eq!(read("අතුරලිය"), "athuraliya");
        assert_eq!(read("රත්ගම"), "rathgama");
        assert_eq!(read("යටවත්ත"), "yatawatta");
        assert_eq!(read("අකුරැස්ස"), "akuressa");
        assert_eq!(read("තිරුක්කෝවිල්"), "thirukkovil"); // DSD Tirukkovil: initial ත is th
        assert_eq!(read("පදවි ශ්‍රී පුර"), "padavi sri pura");
        assert_eq!(read("කයිකාවල"), "kaikawala"); // GN Kaikawala
        assert_eq!(read("ආනෙයිචේනයි"), "anaichenai"); // GN Anaichenai
        assert_eq!(read("ක්‍රිශ්ණපුරම්"), "krishnapuram"); // GN Krishnapuram
    }

    #[test]
    fn char_class() {
        assert!(
            is_sinhala('ක') && is_sinhala('\u{0DCA}') && is_sinhala('\u{0DF3}') && is_sinhala('ං')
        );
        assert!(
            !is_sinhala('෦') && !is_sinhala('෴') && !is_sinhala('\u{200D}') && !is_sinhala('a')
        );
        let mut out = String::new();
        romanize_word("\u{200D}ා්\u{200D}", &mut out);
        assert_eq!(out, "a");
    }

    /// Random sequences of U+0D80-U+0DFF and U+200D never panic and give only a-z.
    #[test]
    fn fuzz() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut word = String::new();
        for _ in 0..20_000 {
            word.clear();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for k in 0..(seed % 12) {
                let r = (seed >> (k * 5)) as u32 % 0x81;
                word.push(if r == 0x80 {
                    ZWJ
                } else {
                    char::from_u32(0x0D80 + r).unwrap()
                });
            }
            let mut out = String::new();
            romanize_word(&word, &mut out);
            assert!(
                out.bytes().all(|b| b.is_ascii_lowercase()),
                "{word:?} -> {out:?}"
            );
        }
    }
}
