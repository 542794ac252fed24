//! Which of rules 2's scripts a character is in, and how a run of one is
//! romanized: by which CLDR transform, and whether it is first cut into
//! words by ICU4X's word segmenter.

use icu::segmenter::WordSegmenter;
use icu::segmenter::options::WordBreakInvariantOptions;

use super::thai;
use crate::locale::{baked, transliterate_with};
use crate::remembered::Memory;

/// A script rules 2 romanizes run by run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Script {
    /// A Brahmic script of India or Sri Lanka with a CLDR script
    /// transform: the index of its block in [`INDIC`] (a number, so that
    /// comparing scripts, once a character, compares no text).
    Indic(u8),
    Thai,
    Lao,
    Khmer,
    Myanmar,
    Han,
}

/// CLDR's transforms of the Brahmic blocks from U+0900, one per block of
/// 128: Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu,
/// Kannada, Malayalam, Sinhala (CLDR's `si-si_Latn`, the only Sinhala one).
const INDIC: [&str; 10] = [
    "und-Latn-t-und-deva",
    "und-Latn-t-und-beng",
    "und-Latn-t-und-guru",
    "und-Latn-t-und-gujr",
    "und-Latn-t-und-orya",
    "und-Latn-t-und-taml",
    "und-Latn-t-und-telu",
    "und-Latn-t-und-knda",
    "und-Latn-t-und-mlym",
    "si-Latn-t-si",
];

/// The blocks of these scripts, as [`Script::of`] reads them: what the
/// scan for runs looks for (`super::scan`).
pub(crate) const BLOCKS: &[(u32, u32)] = &[
    (0x0900, 0x0DFF),
    (0x0E00, 0x0E7F),
    (0x0E80, 0x0EFF),
    (0x1000, 0x109F),
    (0x1780, 0x17FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x2_0000, 0x3_FFFF),
];

/// Most runs (and words) a thread remembers romanized; past it, it starts
/// over.
pub const MAX_RUNS: usize = 4096;

/// Longest run (or word) remembered, in bytes: longer ones are romanized
/// every time.
pub const MAX_RUN_BYTES: usize = 256;

/// CLDR's romanization of Burmese, baked into ICU4X.
const MYANMAR: &str = "my-Latn-t-my";

/// CLDR's Han-Latin (pinyin with tone marks), baked into ICU4X under the
/// id of simplified Han; it reads traditional characters as well.
const HAN: &str = "und-Latn-t-und-hans";

impl Script {
    /// Every script, in the order of [`Script::index`].
    pub(crate) const ALL: [Script; 15] = [
        Script::Indic(0),
        Script::Indic(1),
        Script::Indic(2),
        Script::Indic(3),
        Script::Indic(4),
        Script::Indic(5),
        Script::Indic(6),
        Script::Indic(7),
        Script::Indic(8),
        Script::Indic(9),
        Script::Thai,
        Script::Lao,
        Script::Khmer,
        Script::Myanmar,
        Script::Han,
    ];

    /// Its place in [`Script::ALL`].
    #[inline]
    pub(crate) const fn index(self) -> usize {
        match self {
            Script::Indic(block) => block as usize,
            Script::Thai => 10,
            Script::Lao => 11,
            Script::Khmer => 12,
            Script::Myanmar => 13,
            Script::Han => 14,
        }
    }

    /// Devanagari, the first of [`INDIC`].
    pub(crate) const DEVANAGARI: Script = Script::Indic(0);
    /// Bengali (and Assamese).
    pub(crate) const BENGALI: Script = Script::Indic(1);
    /// Sinhala, the last of [`INDIC`].
    pub(crate) const SINHALA: Script = Script::Indic(9);

    /// The script of `c`, by its Unicode block; `None` for every other
    /// character.
    #[inline]
    pub(crate) fn of(c: char) -> Option<Script> {
        let c = c as u32;
        if c < 0x900 {
            return None;
        }
        Some(match c {
            0x0900..=0x0DFF => Script::Indic(((c - 0x900) >> 7) as u8),
            0x0E00..=0x0E7F => Script::Thai,
            0x0E80..=0x0EFF => Script::Lao,
            0x1000..=0x109F => Script::Myanmar,
            0x1780..=0x17FF => Script::Khmer,
            0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF => Script::Han,
            _ => return None,
        })
    }

    /// Whether `c` continues a run of `self`: a character of the script,
    /// or a zero-width joiner or non-joiner, which Indic and Myanmar
    /// spelling writes inside words. One range test for the script, not
    /// [`Script::of`]'s search through all of them.
    #[inline]
    pub(crate) fn continues(self, c: char) -> bool {
        let c = c as u32;
        let own = match self {
            Script::Indic(block) => {
                (0x0900..=0x0DFF).contains(&c) && ((c - 0x900) >> 7) as u8 == block
            }
            Script::Thai => (0x0E00..=0x0E7F).contains(&c),
            Script::Lao => (0x0E80..=0x0EFF).contains(&c),
            Script::Myanmar => (0x1000..=0x109F).contains(&c),
            Script::Khmer => (0x1780..=0x17FF).contains(&c),
            Script::Han => matches!(
                c,
                0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF
            ),
        };
        own || matches!(c, 0x200C | 0x200D)
    }

    /// Whether the run's words are slug words of their own, apart from
    /// what touches them: the scripts written without spaces, whose words
    /// the segmenter finds, and Han, beside which a digit is a word.
    pub(crate) fn words_of_their_own(self) -> bool {
        !matches!(self, Script::Indic(_))
    }

    /// Appends `run` romanized: words the segmenter finds are separated by
    /// a space.
    pub(crate) fn romanize(self, run: &str, out: &mut String) {
        match self {
            Script::Indic(block) => {
                out.push_str(&transliterate_with(INDIC[usize::from(block)], run, baked));
            }
            Script::Thai => each_word(run, out, |word, out| {
                out.push_str(&transliterate_with(thai::ID, word, thai::build));
            }),
            Script::Myanmar => each_word(run, out, |word, out| {
                out.push_str(&transliterate_with(MYANMAR, word, baked));
            }),
            // CLDR has no Lao or Khmer romanization: the engine reads each
            // word with deunicode, as rules 1 reads the whole run.
            Script::Lao | Script::Khmer => each_word(run, out, |word, out| out.push_str(word)),
            Script::Han => each_word(run, out, pinyin),
        }
    }
}

/// Calls `write` on each word of `run` by ICU4X's word segmenter, with a
/// space between them.
///
/// The segmenter's dictionaries, not its LSTM models (`new_auto`): on
/// Thai the models cut common words apart (`สวัสดี`, hello, into `สวัส` +
/// `ดี`; `กรุงเทพมหานคร` into `กรุงเทพมหาน` + `คร`), which the
/// dictionary keeps whole; Chinese takes the dictionary either way.
///
/// Each thread remembers the words it has written, so that a long run,
/// which `super`'s memory of runs does not keep, costs the segmenter and a
/// lookup per word it has seen.
fn each_word(run: &str, out: &mut String, write: impl Fn(&str, &mut String)) {
    thread_local! {
        static WORDS: Memory = Memory::new(MAX_RUNS, MAX_RUN_BYTES);
    }
    WORDS.with(|words| each_word_in(words, run, out, write));
}

/// [`each_word`], remembering the words in `memory`.
pub(crate) fn each_word_in(
    words: &Memory,
    run: &str,
    out: &mut String,
    write: impl Fn(&str, &mut String),
) {
    let segmenter = WordSegmenter::new_dictionary(WordBreakInvariantOptions::default());
    let mut start = 0;
    for end in segmenter.segment_str(run).skip(1) {
        if start > 0 {
            out.push(' ');
        }
        let word = &run[start..end];
        words.remember(word, out, |out| write(word, out));
        start = end;
    }
}

/// The last end of a word the segmenter finds in `text` at or before
/// byte `limit` (but not 0), looking at most twice as far.
pub(crate) fn last_word_end(text: &str, limit: usize) -> Option<usize> {
    let mut window = (2 * limit).min(text.len());
    while !text.is_char_boundary(window) {
        window -= 1;
    }
    let segmenter = WordSegmenter::new_dictionary(WordBreakInvariantOptions::default());
    segmenter
        .segment_str(&text[..window])
        .take_while(|&end| end <= limit)
        .filter(|&end| end > 0)
        .last()
}

/// Appends the pinyin of a Han word by CLDR's Han-Latin, its syllables
/// written together as readers write pinyin by word (GB/T 16159): `北京`
/// is `Běijīng`, which the engine folds to `Beijing`.
///
/// CLDR's readings, not deunicode's: on the pinyin names of China's
/// provinces and their capitals (`tests/data/zh-pinyin.tsv`) CLDR's agree
/// on 58 of 62, deunicode's on 52 (`广州` `yanzhou`, `宁夏` `zhuxia`,
/// `武汉` `wuyi`). The word's first letter is a capital, the rest as CLDR
/// writes them (lower case): keep-case slugs read like names (rules 1
/// capitalized every syllable), and `decamelize` keeps the word whole.
fn pinyin(word: &str, out: &mut String) {
    let latin = transliterate_with(HAN, word, baked);
    let mut letters = latin.chars().filter(|c| !c.is_whitespace());
    if let Some(first) = letters.next() {
        out.extend(first.to_uppercase());
    }
    out.extend(letters);
}

/// Whether `c` is kana: hiragana, katakana, their phonetic extensions and
/// the halfwidth katakana.
pub(crate) fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9D}')
}

#[cfg(test)]
mod tests {
    use super::Script;

    #[test]
    fn a_run_continues_with_its_own_script_and_the_joiners_alone() {
        let scripts: Vec<Script> =
            ('\u{900}'..='\u{3FFFF}')
                .filter_map(Script::of)
                .fold(Vec::new(), |mut all, script| {
                    if !all.contains(&script) {
                        all.push(script);
                    }
                    all
                });
        assert_eq!(scripts.len(), 15, "{scripts:?}");
        for script in scripts {
            for c in '\0'..=char::MAX {
                let expected =
                    matches!(c, '\u{200C}' | '\u{200D}') || Script::of(c) == Some(script);
                assert_eq!(script.continues(c), expected, "{script:?} {c:?}");
            }
        }
    }
}
