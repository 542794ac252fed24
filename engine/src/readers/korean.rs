//! Korean in the Revised Romanization of Korean (Ministry of Culture and
//! Tourism notice 2000-8, 2000; amended 2014): Hangul is romanized as it
//! is pronounced within a word, so a syllable's final consonant and the
//! next one's initial are written together as the standard says:
//!
//! - a final before a vowel is read as the next syllable's initial
//!   (`한국어` `hangugeo`); before a consonant or at a word's end, a
//!   final is `k`, `t` or `p` (`옥천` `okcheon`, `합덕` `hapdeok`);
//! - nasalization and `ㄹ`'s changes (`독립문` `dongnimmun`, `종로`
//!   `jongno`, `신라` `silla`, `별내` `byeollae`);
//! - palatalization (`같이` `gachi`, `해돋이` `haedoji`, `굳히다`
//!   `guchida`);
//! - `ㅎ` aspirating the consonant after it (`좋고` `joko`); a `ㄱ`, `ㄷ`
//!   or `ㅂ` before `ㅎ` is written with its `h`, as the standard writes
//!   nouns (`묵호` `Mukho`, `집현전` `Jiphyeonjeon`);
//! - tensed consonants are written as spelled (`낙동강` `nakdonggang`).
//!
//! What the standard leaves to a word's meaning is not read: an `ㄴ`
//! inserted between parts of a compound (`학여울` `hangnyeoul`), verbs'
//! aspiration after `ㄱ`, `ㄷ`, `ㅂ` (`잡혀` `japyeo`), names written
//! without sound changes, and (rules 5) the hyphen before an
//! administrative unit (`삼죽면` `Samjuk-myeon`).
//!
//! Rules 6 ([`romanize_word_units`]) write the hyphen, with no sound
//! change across it, where a unit can be told from the word: a province
//! (`충청북도` `chungcheongbuk-do`, `제주도` `jeju-do`: the nine, a closed
//! list), a town (`신창읍` `sinchang-eup`: no other word ends in `읍`), and
//! a unit alone after a number (`봉천1동` `bongcheon-1-dong`, `종로 2가`
//! `jongno-2-ga`), the digits apart from the syllables
//! (`super::Row::apart_from_digits`), and a city, county, district,
//! township, neighbourhood or village (`시 군 구 면 동 리`) by a list of
//! the places (`삼죽면` `samjuk-myeon`, `당산동` `dangsan-dong`): those
//! syllables end many common words too (`여자친구`, `목소리`, `그러면`),
//! and the list leaves out the names that are words of the language, those
//! of one syllable before the unit (`중동`, the Middle East), and villages
//! with a person's name's shape (`성유리`).

/// The first Hangul syllable, `가`.
const FIRST: u32 = 0xAC00;
/// The last Hangul syllable, `힣`.
const LAST: u32 = 0xD7A3;

/// Whether `c` is a precomposed Hangul syllable.
#[inline]
pub(crate) fn is_syllable(c: char) -> bool {
    (FIRST..=LAST).contains(&(c as u32))
}

/// The initial consonants, in Unicode's order, as written before a vowel.
const INITIALS: [&str; 19] = [
    "g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p",
    "h",
];

/// The vowels, in Unicode's order.
const VOWELS: [&str; 21] = [
    "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we",
    "wi", "yu", "eu", "ui", "i",
];

// Initials by their index in Unicode's order.
const I_G: u8 = 0;
const I_N: u8 = 2;
const I_D: u8 = 3;
const I_R: u8 = 5;
const I_M: u8 = 6;
const I_NONE: u8 = 11;
const I_J: u8 = 12;
const I_H: u8 = 18;
/// The vowel `ㅣ`, before which `ㄷ` and `ㅌ` are palatalized.
const V_I: u8 = 20;

/// A final consonant (or none, 0), by its index in Unicode's order.
type Final = u8;

/// What a final sounds like before a consonant or at a word's end: one of
/// the seven finals the standard writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sound {
    None,
    K,
    T,
    P,
    N,
    L,
    M,
    Ng,
}

/// The sound of final `t` before a consonant or at a word's end.
fn sound(t: Final) -> Sound {
    match t {
        0 => Sound::None,
        // ㄱ ㄲ ㄳ ㄺ ㅋ
        1 | 2 | 3 | 9 | 24 => Sound::K,
        // ㄷ ㅅ ㅆ ㅈ ㅊ ㅌ ㅎ
        7 | 19 | 20 | 22 | 23 | 25 | 27 => Sound::T,
        // ㅂ ㄿ ㅄ ㅍ
        17 | 14 | 18 | 26 => Sound::P,
        // ㄴ ㄵ ㄶ
        4..=6 => Sound::N,
        // ㄹ ㄼ ㄽ ㄾ ㅀ
        8 | 11 | 12 | 13 | 15 => Sound::L,
        // ㅁ ㄻ
        16 | 10 => Sound::M,
        // ㅇ
        _ => Sound::Ng,
    }
}

impl Sound {
    fn written(self) -> &'static str {
        match self {
            Sound::None => "",
            Sound::K => "k",
            Sound::T => "t",
            Sound::P => "p",
            Sound::N => "n",
            Sound::L => "l",
            Sound::M => "m",
            Sound::Ng => "ng",
        }
    }

    /// The sound before `ㄴ` or `ㅁ` (and before an `ㄹ` read as `ㄴ`):
    /// `k`, `t` and `p` nasalized.
    fn nasalized(self) -> Sound {
        match self {
            Sound::K => Sound::Ng,
            Sound::T => Sound::N,
            Sound::P => Sound::M,
            other => other,
        }
    }
}

/// How a syllable's final `t` and the next syllable's initial `l` (before
/// vowel `v`) are written where they meet inside a word: the final's
/// letters and the initial's.
fn join(t: Final, l: u8, v: u8) -> (&'static str, &'static str) {
    let initial = INITIALS[l as usize];
    match l {
        // A vowel: the final is read as the next syllable's initial.
        I_NONE => match t {
            0 => ("", ""),
            1 => ("", "g"),
            2 => ("", "kk"),
            3 => ("k", "s"),
            4 => ("", "n"),
            5 => ("n", "j"),
            6 => ("", "n"),
            7 if v == V_I => ("", "j"),
            7 => ("", "d"),
            8 | 15 => ("", "r"),
            9 => ("l", "g"),
            10 => ("l", "m"),
            11 => ("l", "b"),
            12 => ("l", "s"),
            13 => ("l", "t"),
            14 => ("l", "p"),
            16 => ("", "m"),
            17 => ("", "b"),
            18 => ("p", "s"),
            19 => ("", "s"),
            20 => ("", "ss"),
            21 => ("ng", ""),
            22 => ("", "j"),
            23 => ("", "ch"),
            24 => ("", "k"),
            25 if v == V_I => ("", "ch"),
            25 => ("", "t"),
            26 => ("", "p"),
            _ => ("", ""),
        },
        // ㅎ after a final: `ㄷ` + `히` is `chi`; the others keep both.
        I_H => match t {
            7 if v == V_I => ("", "ch"),
            27 => ("", "h"),
            6 => ("n", "h"),
            15 => ("l", "h"),
            _ => (sound(t).written(), "h"),
        },
        // ㄱ ㄷ ㅈ after ㅎ: aspirated.
        I_G | I_D | I_J if matches!(t, 6 | 15 | 27) => {
            let aspirated = match l {
                I_G => "k",
                I_D => "t",
                _ => "ch",
            };
            (
                match t {
                    6 => "n",
                    15 => "l",
                    _ => "",
                },
                aspirated,
            )
        }
        // ㄴ, ㅁ: nasalization; ㄹ before ㄴ is `ll`.
        I_N | I_M => match sound(t) {
            Sound::L if l == I_N && t != 9 && t != 10 => ("l", "l"),
            s => (s.nasalized().written(), initial),
            // (ㄺ ㄻ before ㄴ sound as their second consonant.)
        },
        // ㄹ: `ll` after ㄴ or ㄹ, else read as ㄴ, nasalizing the final.
        I_R => match sound(t) {
            Sound::None => ("", "r"),
            Sound::N | Sound::L => ("l", "l"),
            s => (s.nasalized().written(), "n"),
        },
        _ => (sound(t).written(), initial),
    }
}

/// A syllable's parts: initial, vowel and final, by their indices in
/// Unicode's order.
fn parts(c: char) -> (u8, u8, Final) {
    let index = c as u32 - FIRST;
    (
        (index / 588) as u8,
        (index % 588 / 28) as u8,
        (index % 28) as u8,
    )
}

/// Writes `word`, a run of Hangul syllables (and the apostrophes and marks
/// a run may hold between them, which are not read), in the Revised
/// Romanization, to `out`, in lower case.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    let mut syllables = word
        .chars()
        .filter(|&c| is_syllable(c))
        .map(parts)
        .peekable();
    let mut onset = None;
    while let Some((l, v, t)) = syllables.next() {
        out.push_str(onset.take().unwrap_or(INITIALS[l as usize]));
        out.push_str(VOWELS[v as usize]);
        match syllables.peek() {
            Some(&(next_l, next_v, _)) => {
                let (coda, next_onset) = join(t, next_l, next_v);
                out.push_str(coda);
                onset = Some(next_onset);
            }
            None => out.push_str(sound(t).written()),
        }
    }
}

/// The stems of the nine provinces (`도`) as the Revised Romanization's
/// own examples and the provinces' names write them.
const PROVINCES: [&str; 9] = [
    "경기",
    "강원",
    "충청북",
    "충청남",
    "전라북",
    "전라남",
    "경상북",
    "경상남",
    "제주",
];

/// Korea's cities, counties, districts, townships, neighbourhoods and
/// villages (`시 군 구 면 동 리`) with two or more syllables before the
/// unit, less the township, neighbourhood and village names that are
/// words of the language too (`목소리`) and the villages that have the
/// shape of a person's name (`성유리`):
/// one a line, sorted by bytes, after comment lines (`#`, which sort
/// before every syllable). `data/ko-places.txt`, made by
/// `scripts/korean_places.py` from the Ministry of the Interior and
/// Safety's legal division codes; 9,606 names, 98 kB of the binary.
const PLACES: &str = include_str!("../../../data/ko-places.txt");

/// Whether `name` is a line of [`PLACES`]: a binary search over the
/// text in place, each probe widened to the line it falls in.
fn is_place(name: &str) -> bool {
    let bytes = PLACES.as_bytes();
    // `low` is a line's start; `high` a line's start or the end.
    let (mut low, mut high) = (0, bytes.len());
    while low < high {
        let middle = low + (high - low) / 2;
        let start = bytes[low..middle]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(low, |at| low + at + 1);
        let end = bytes[middle..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |at| middle + at);
        match PLACES[start..end].cmp(name) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => low = end + 1,
            std::cmp::Ordering::Greater => high = start,
        }
    }
    false
}

/// The administrative units a word may end in, and whether the syllables
/// before it make it one: a province's stem before `도`, a stem of two or
/// more syllables before `읍`, and a place of [`PLACES`] before `시 군 구
/// 면 동 리`.
fn unit_at_end(word: &str) -> Option<(&str, &str)> {
    let (last_at, last) = word.char_indices().next_back()?;
    let stem = &word[..last_at];
    let is_unit = match last {
        '도' => PROVINCES.contains(&stem),
        '읍' => stem.chars().filter(|&c| is_syllable(c)).count() >= 2,
        '시' | '군' | '구' | '면' | '동' | '리' => is_place(word),
        _ => false,
    };
    is_unit.then(|| (stem, &word[last_at..]))
}

/// [`romanize_word`] with the administrative units rules 6 tell
/// (`충청북도` `chungcheongbuk-do`), and a unit syllable that is a word
/// of its own (after a number: `1동`) read alone.
pub(crate) fn romanize_word_units(word: &str, out: &mut String) {
    match unit_at_end(word) {
        Some((stem, unit)) => {
            romanize_word(stem, out);
            out.push('-');
            romanize_word(unit, out);
        }
        None => romanize_word(word, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_rules_6_can_tell_is_written_after_a_hyphen() {
        for (word, want) in [
            ("충청북도", "chungcheongbuk-do"),
            ("제주도", "jeju-do"),
            ("신창읍", "sinchang-eup"),
            ("삼죽면", "samjuk-myeon"),
            ("당산동", "dangsan-dong"),
            ("도봉구", "dobong-gu"),
            ("의정부시", "uijeongbu-si"),
            ("양주군", "yangju-gun"),
            ("역삼동", "yeoksam-dong"),
            ("독도", "dokdo"),
            ("여자친구", "yeojachingu"),
            ("목소리", "moksori"),
            ("성유리", "seongyuri"),
            ("요리", "yori"),
            ("중동", "jungdong"),
            ("서구", "seogu"),
            ("동", "dong"),
        ] {
            let mut out = String::new();
            romanize_word_units(word, &mut out);
            assert_eq!(out, want, "{word}");
        }
    }

    #[test]
    fn the_places_are_sorted_names_of_syllables_and_a_unit() {
        let names: Vec<&str> = PLACES.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(names.len() > 9_000, "{}", names.len());
        assert!(
            names.windows(2).all(|w| w[0] < w[1]),
            "sorted, no name twice"
        );
        for name in &names {
            let syllables: Vec<char> = name.chars().collect();
            assert!(
                syllables.len() >= 3 && syllables.iter().all(|&c| is_syllable(c)),
                "{name}"
            );
            assert!(
                "시군구면동리".contains(syllables[syllables.len() - 1]),
                "{name}"
            );
            assert!(is_place(name), "{name}");
        }
        // Every name found, and nothing between or around them.
        for probe in [
            "",
            "#",
            "가",
            "가가동",
            "힣힣리",
            "삼죽",
            "삼죽면면",
            "목소리",
        ] {
            assert!(!is_place(probe), "{probe}");
        }
    }

    fn rr(word: &str) -> String {
        let mut out = String::new();
        romanize_word(word, &mut out);
        out
    }

    #[test]
    fn what_is_not_a_syllable_is_not_read() {
        // Found by the fuzzer: an apostrophe inside a run of syllables.
        assert_eq!(rr("솯'솯"), "swatswat");
    }

    #[test]
    fn the_standards_sound_changes() {
        for (hangul, want) in [
            ("독립문", "dongnimmun"),
            ("신라", "silla"),
            ("종로", "jongno"),
            ("같이", "gachi"),
            ("불국사", "bulguksa"),
            ("강남역", "gangnamyeok"),
            ("해돋이", "haedoji"),
            ("굳히다", "guchida"),
            ("좋고", "joko"),
            ("놓다", "nota"),
            ("낳지", "nachi"),
            ("묵호", "mukho"),
            ("별내", "byeollae"),
            ("설악", "seorak"),
            ("왕십리", "wangsimni"),
            ("대관령", "daegwallyeong"),
            ("벚꽃", "beotkkot"),
            ("한밭", "hanbat"),
            ("울릉", "ulleung"),
            ("광희문", "gwanghuimun"),
        ] {
            assert_eq!(rr(hangul), want, "{hangul}");
        }
    }
}
