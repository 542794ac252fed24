//! The readers: every language or script the engine reads other than
//! letter by letter, one module each, found through one table
//! ([`READERS`]), as `crate::rules` is for versions.
//!
//! A reader reads a script ([`Reads`]): its characters, which the scans
//! for what a title needs read ([`scan`]) are built from at compile time.
//! A row of the table says which reader reads a script for a title:
//!
//! - the reader whose `locales` hold the `locale`'s language, if one does
//!   (a reader named [`Reader::Transform`] leaves the script to that
//!   locale's CLDR transform);
//! - otherwise the reader the title's own letters choose (`by_letters`):
//!   the only one of its script, or for a script of several languages
//!   (Cyrillic, Arabic) the one its letters show;
//! - only among rows whose [`Switch`] the request's rule version has.
//!
//! A row says whether each thread remembers what the reader wrote
//! ([`Remembered`]): each row has its own memory, for the same word reads
//! otherwise by another reader.
//!
//! Readers read in two places, in the engine's stage 3 (`crate::slug`):
//! [`words`] reads the scripts written with spaces word by word (Hangul,
//! Greek, Ethiopic, Cyrillic, Arabic, Armenian, Georgian, a Serbian `đ`),
//! before the locale's transform ([`transforms`]); [`runs`] reads the
//! scripts written without spaces or as Indic clusters run by run, after
//! it. Japanese ([`japanese`]) reads last, once the table's readings are
//! known.
//!
//! A row says, too, how its reader reads ([`Read`]): the function of its
//! module that writes a word or a run, which [`words`] and [`runs`] call.
//!
//! Adding a language: its module here (a function from a word or a run to
//! its ASCII), its [`Reader`] and its row in [`READERS`], and the
//! [`Switch`] of the rule version that brings it in `crate::rules`. A new
//! script adds its blocks and its test of a letter to [`Words`] (or to
//! `scripts::Script`, for a script read run by run).
//!
//! The modules:
//! - `korean`, `greek`, `ethiopic`, `arabic`, `cyrillic`: languages by
//!   their national standards (rules 5), word by word; `armenian` and
//!   `georgian` as their readers write them (rules 6);
//! - `burmese`, `khmer`, `sinhala`: as their countries' lists of places
//!   write them (rules 6), run by run;
//! - `devanagari` (Hindi, Marathi, Nepali without the schwas speakers
//!   drop), `bengali` (the same reading, rules 6), `rtgs` (Thai), `lao`:
//!   scripts by their standards, run by run;
//!   `thai` builds CLDR's Thai-Latin; `letters` splits a run into its
//!   words, digits and punctuation for the readers of Burmese, Khmer and
//!   Sinhala; `scripts` says which script a
//!   character is of and reads a run by CLDR's transforms (Indic, Thai,
//!   Khmer, Myanmar, Han) and ICU4X's word segmenter;
//! - [`japanese`]: IPADIC's readings and Hepburn;
//! - [`transforms`]: the `locale`'s CLDR transform, as a stage;
//! - [`scan`]: what a title needs read, found a block of bytes at a time;
//! - [`words`] and [`runs`]: the two places readers read, which ask this
//!   table; `cased`: a letter's case kept in what a standard writes.

mod arabic;
mod armenian;
mod bengali;
mod burmese;
mod bytes;
mod cased;
mod cyrillic;
mod devanagari;
mod ethiopic;
mod georgian;
mod greek;
pub mod japanese;
mod khmer;
mod korean;
mod lao;
mod letters;
mod rtgs;
pub(crate) mod runs;
pub(crate) mod scan;
mod scripts;
mod sinhala;
mod thai;
pub(crate) mod transforms;
pub mod vowels;
pub(crate) mod words;

use std::borrow::Cow;

use crate::locale::SlugLocale;
use crate::rules::{Rules, Switch, VERSIONS};
pub use scripts::{MAX_RUN_BYTES, MAX_RUNS};

/// A reader: what reads a script for a title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    /// Hangul by the Revised Romanization (`korean`).
    Korean,
    /// Greek by ELOT 743 (`greek`).
    Greek,
    /// Amharic by BGN/PCGN (`ethiopic`).
    Amharic,
    /// A language written in Cyrillic by its standard (`cyrillic`).
    Cyrillic(cyrillic::Language),
    /// Arabic, Persian or Urdu with its vowel marks (`arabic`).
    Arabic(arabic::Language),
    /// A Latin `đ` as `dj`, as Serbian sites write it.
    SerbianLatin,
    /// Armenian as its readers write it (`armenian`).
    Armenian,
    /// Georgian by its national romanization (`georgian`).
    Georgian,
    /// Bengali without the inherent vowels speakers drop (`bengali`).
    Bengali,
    /// Burmese as Myanmar's place names write it (`burmese`).
    Burmese,
    /// Sinhala as Sri Lanka's place names write it (`sinhala`).
    Sinhala,
    /// Khmer as Cambodia's gazetteer writes it (`khmer`).
    Khmer,
    /// Devanagari without the schwas speakers drop (`devanagari`).
    Devanagari(devanagari::Speech),
    /// Thai in RTGS (`rtgs`).
    Rtgs,
    /// Lao by the Commission Nationale de Toponymie's letters (`lao`).
    Lao,
    /// A script by CLDR's transform of it (`scripts`): run by run.
    Cldr,
    /// The script left to the `locale`'s CLDR transform ([`transforms`]).
    Transform,
    /// Japanese by IPADIC's readings ([`japanese`]), where the table has
    /// them.
    Japanese,
}

/// What a reader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reads {
    /// Read word by word ([`words`]).
    Words(Words),
    /// Read run by run ([`runs`]): one script of `scripts`.
    Run(scripts::Script),
    /// Every script read run by run.
    Runs,
    /// Kana, and Han beside it.
    Kana,
}

/// The scripts read word by word, each with its characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Words {
    Hangul,
    Greek,
    Ethiopic,
    Cyrillic,
    Arabic,
    /// A Latin `đ` or `Đ`.
    LatinDj,
    Armenian,
    Georgian,
}

impl Words {
    /// The scripts, in the order [`Words::of`] asks them.
    pub(crate) const ALL: [Words; 8] = [
        Words::Hangul,
        Words::Greek,
        Words::Ethiopic,
        Words::Cyrillic,
        Words::Arabic,
        Words::LatinDj,
        Words::Armenian,
        Words::Georgian,
    ];

    /// The blocks its characters are in, as code point ranges: what the
    /// scans look for ([`scan`]). The Latin `đ` is looked for only where a
    /// locale chooses its reader.
    pub(crate) const fn blocks(self) -> &'static [(u32, u32)] {
        match self {
            Words::Hangul => &[(0xAC00, 0xD7A3)],
            Words::Greek => &[(0x370, 0x3FF), (0x1F00, 0x1FFF)],
            Words::Ethiopic => &[(0x1200, 0x137F)],
            Words::Cyrillic => &[(0x400, 0x52F)],
            Words::Arabic => &[(0x600, 0x6FF)],
            Words::LatinDj => &[],
            Words::Armenian => &[(0x530, 0x58F)],
            Words::Georgian => &[(0x10A0, 0x10FF), (0x1C90, 0x1CBF), (0x2D00, 0x2D2F)],
        }
    }

    /// The script `c` is a letter of, where a reader reads it.
    #[inline]
    pub(crate) fn of(c: char) -> Option<Words> {
        Words::ALL.into_iter().find(|w| w.has(c))
    }

    /// Whether `c` is a letter this script's readers read.
    #[inline]
    pub(crate) fn has(self, c: char) -> bool {
        self.test()(c)
    }

    /// [`Words::has`] of this script, as a function.
    #[inline]
    pub(crate) fn test(self) -> fn(char) -> bool {
        match self {
            Words::Hangul => korean::is_syllable,
            Words::Greek => greek::is_greek,
            Words::Ethiopic => ethiopic::is_ethiopic,
            Words::Cyrillic => cyrillic::is_cyrillic,
            Words::Arabic => arabic::is_arabic,
            Words::LatinDj => |c| matches!(c, 'đ' | 'Đ'),
            Words::Armenian => armenian::is_armenian,
            Words::Georgian => georgian::is_georgian,
        }
    }

    /// For a script of several languages, the reader its letters in
    /// `text` show under `rules`; `None` where one reader alone reads it by
    /// its letters.
    fn shown_by(self, text: &str, rules: Rules) -> Option<Reader> {
        match self {
            Words::Cyrillic => Some(Reader::Cyrillic(cyrillic::Language::shown_by(
                text,
                rules.has(Switch::ReadersAscii),
            ))),
            Words::Arabic => Some(Reader::Arabic(arabic::Language::shown_by(
                text,
                rules.has(Switch::UrduVowels),
            ))),
            _ => None,
        }
    }
}

/// Whether each thread remembers what a reader wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Remembered {
    /// Not remembered: read each time.
    No,
    /// Its words, at most [`words::MAX_WORDS`] of [`words::MAX_WORD_BYTES`].
    Words,
    /// Its runs, and the words the segmenter cuts them into: at most
    /// [`MAX_RUNS`] of [`MAX_RUN_BYTES`] of each.
    Runs,
}

/// How a row's reader reads what its script gives it: the functions of
/// its module the readers' two places call ([`words`], [`runs`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Read {
    /// A word at a time.
    Word(fn(&str, &mut String)),
    /// A word at a time, knowing the word after it (Arabic's `ة`, written
    /// t before a word without the article).
    WordBeforeNext(fn(&str, Option<&str>, &mut String)),
    /// A run at a time.
    Run(fn(&str, &mut String)),
    /// A run cut into words by ICU4X's word segmenter, after `prepare`,
    /// each word read by `word`.
    Segmented {
        prepare: fn(&str) -> Cow<'_, str>,
        word: fn(&str, &mut String),
    },
    /// By CLDR's transform of the run's script (`scripts`).
    Cldr,
    /// Not in these places: the `locale`'s transform reads it, or
    /// Japanese's own stage.
    Elsewhere,
}

/// A row of [`READERS`].
#[derive(Debug)]
pub(crate) struct Row {
    /// The reader.
    pub(crate) reader: Reader,
    /// What it reads.
    pub(crate) reads: Reads,
    /// The languages (BCP 47 language subtags) whose `locale` chooses it.
    pub(crate) locales: &'static [&'static str],
    /// Whether a title's letters choose it when no locale does.
    pub(crate) by_letters: bool,
    /// Whether each thread remembers what it wrote.
    pub(crate) remembered: Remembered,
    /// The switch of the rule versions that read with it.
    pub(crate) switch: Switch,
    /// How it reads.
    pub(crate) read: Read,
    /// Whether its words are written apart from digits beside them
    /// (Korean by rules 6: `봉천1동` `bongcheon-1-dong`).
    pub(crate) apart_from_digits: bool,
}

/// Languages written in Cyrillic whose CLDR transform reads their text
/// when they are the `locale`, as before rules 5.
const CYRILLIC_BY_TRANSFORM: &[&str] = &[
    "ab", "av", "az", "ba", "ce", "cv", "kv", "ky", "os", "sah", "tg", "tk", "tt", "uz",
];

/// A row read word by word by its national standard (rules 5): by
/// `read`, each word remembered.
const fn national(
    reader: Reader,
    script: Words,
    locales: &'static [&'static str],
    read: Read,
) -> Row {
    Row {
        reader,
        reads: Reads::Words(script),
        locales,
        by_letters: true,
        remembered: Remembered::Words,
        switch: Switch::NationalStandards,
        read,
        apart_from_digits: false,
    }
}

/// A row of a script read word by word that leaves it to the `locale`'s
/// transform when the locale is one of `locales` (as before rules 5).
const fn by_transform(script: Words, locales: &'static [&'static str]) -> Row {
    Row {
        reader: Reader::Transform,
        reads: Reads::Words(script),
        locales,
        by_letters: false,
        remembered: Remembered::No,
        switch: Switch::NationalStandards,
        read: Read::Elsewhere,
        apart_from_digits: false,
    }
}

/// A row of a script read run by run (rules 5 unless `switch` says),
/// each run remembered.
const fn by_run(
    reader: Reader,
    script: scripts::Script,
    locales: &'static [&'static str],
    by_letters: bool,
    read: Read,
) -> Row {
    Row {
        reader,
        reads: Reads::Run(script),
        locales,
        by_letters,
        remembered: Remembered::Runs,
        switch: Switch::NationalStandards,
        read,
        apart_from_digits: false,
    }
}

/// Every reader, and what chooses it. For a script, the first row whose
/// locales hold the `locale`'s language, else the first its letters
/// choose, among the rows the rule version has.
pub(crate) const READERS: [Row; 35] = {
    use Words::*;
    use arabic::Language as Ar;
    use cyrillic::Language as Cy;
    use devanagari::Speech;
    use scripts::Script;
    [
        // Rules 6: Korean with its administrative units, apart from digits.
        Row {
            switch: Switch::KoreanUnits,
            apart_from_digits: true,
            ..national(
                Reader::Korean,
                Hangul,
                &["ko"],
                Read::Word(korean::romanize_word_units),
            )
        },
        national(
            Reader::Korean,
            Hangul,
            &["ko"],
            Read::Word(korean::romanize_word),
        ),
        national(
            Reader::Greek,
            Greek,
            &["el"],
            Read::Word(greek::romanize_word),
        ),
        by_transform(Ethiopic, &["byn", "gez", "ti", "tig"]),
        national(
            Reader::Amharic,
            Ethiopic,
            &["am"],
            Read::Word(ethiopic::romanize_word),
        ),
        by_transform(Cyrillic, CYRILLIC_BY_TRANSFORM),
        national(
            Reader::Cyrillic(Cy::Russian),
            Cyrillic,
            &["ru"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Russian, w, out)),
        ),
        national(
            Reader::Cyrillic(Cy::Ukrainian),
            Cyrillic,
            &["uk"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Ukrainian, w, out)),
        ),
        // Rules 6: Belarusian and Kazakh in the ASCII their readers type.
        Row {
            switch: Switch::ReadersAscii,
            ..national(
                Reader::Cyrillic(Cy::BelarusianAscii),
                Cyrillic,
                &["be"],
                Read::Word(|w, out| cyrillic::romanize_word(Cy::BelarusianAscii, w, out)),
            )
        },
        Row {
            switch: Switch::ReadersAscii,
            ..national(
                Reader::Cyrillic(Cy::KazakhAscii),
                Cyrillic,
                &["kk"],
                Read::Word(|w, out| cyrillic::romanize_word(Cy::KazakhAscii, w, out)),
            )
        },
        national(
            Reader::Cyrillic(Cy::Belarusian),
            Cyrillic,
            &["be"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Belarusian, w, out)),
        ),
        national(
            Reader::Cyrillic(Cy::Bulgarian),
            Cyrillic,
            &["bg"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Bulgarian, w, out)),
        ),
        national(
            Reader::Cyrillic(Cy::Serbian),
            Cyrillic,
            SERBIAN,
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Serbian, w, out)),
        ),
        national(
            Reader::Cyrillic(Cy::Macedonian),
            Cyrillic,
            &["mk"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Macedonian, w, out)),
        ),
        national(
            Reader::Cyrillic(Cy::Mongolian),
            Cyrillic,
            &["mn"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Mongolian, w, out)),
        ),
        national(
            Reader::Cyrillic(Cy::Kazakh),
            Cyrillic,
            &["kk"],
            Read::Word(|w, out| cyrillic::romanize_word(Cy::Kazakh, w, out)),
        ),
        // Arabic script is read only where a word has its vowel marks;
        // each reading depends on the word after, so none is remembered.
        Row {
            remembered: Remembered::No,
            ..national(
                Reader::Arabic(Ar::Arabic),
                Arabic,
                &["ar"],
                Read::WordBeforeNext(|w, next, out| {
                    arabic::romanize_word(Ar::Arabic, w, next, out)
                }),
            )
        },
        Row {
            remembered: Remembered::No,
            ..national(
                Reader::Arabic(Ar::Persian),
                Arabic,
                &["fa"],
                Read::WordBeforeNext(|w, next, out| {
                    arabic::romanize_word(Ar::Persian, w, next, out)
                }),
            )
        },
        Row {
            remembered: Remembered::No,
            ..national(
                Reader::Arabic(Ar::Urdu),
                Arabic,
                &["ur"],
                Read::WordBeforeNext(|w, next, out| arabic::romanize_word(Ar::Urdu, w, next, out)),
            )
        },
        // Rules 6: Armenian as its readers write it.
        Row {
            switch: Switch::ArmenianAsWritten,
            ..national(
                Reader::Armenian,
                Armenian,
                &["hy"],
                Read::Word(armenian::romanize_word),
            )
        },
        // Rules 6: Georgian by its national romanization.
        Row {
            switch: Switch::GeorgianAsWritten,
            ..national(
                Reader::Georgian,
                Georgian,
                &["ka"],
                Read::Word(georgian::romanize_word),
            )
        },
        // A Latin `đ`, read only with a Serbian locale.
        Row {
            by_letters: false,
            remembered: Remembered::No,
            ..national(
                Reader::SerbianLatin,
                LatinDj,
                SERBIAN,
                Read::Word(cyrillic::latin_dj),
            )
        },
        by_run(
            Reader::Devanagari(Speech::Hindi),
            Script::DEVANAGARI,
            &["hi"],
            true,
            Read::Run(|run, out| devanagari::romanize(run, Speech::Hindi, out)),
        ),
        by_run(
            Reader::Devanagari(Speech::Marathi),
            Script::DEVANAGARI,
            &["mr"],
            false,
            Read::Run(|run, out| devanagari::romanize(run, Speech::Marathi, out)),
        ),
        by_run(
            Reader::Devanagari(Speech::Nepali),
            Script::DEVANAGARI,
            &["ne"],
            false,
            Read::Run(|run, out| devanagari::romanize(run, Speech::Nepali, out)),
        ),
        by_run(
            Reader::Rtgs,
            Script::Thai,
            &["th"],
            true,
            Read::Segmented {
                prepare: as_it_is,
                word: rtgs::romanize_word,
            },
        ),
        by_run(
            Reader::Lao,
            Script::Lao,
            &["lo"],
            true,
            Read::Segmented {
                prepare: lao::sara_am,
                word: lao::romanize_word,
            },
        ),
        // Rules 6: Burmese as Myanmar's place names write it.
        Row {
            switch: Switch::BurmeseAsWritten,
            ..by_run(
                Reader::Burmese,
                Script::Myanmar,
                &["my"],
                true,
                Read::Run(burmese::romanize_run),
            )
        },
        // Rules 6: Khmer as Cambodia's gazetteer writes it.
        Row {
            switch: Switch::KhmerAsWritten,
            ..by_run(
                Reader::Khmer,
                Script::Khmer,
                &["km"],
                true,
                Read::Segmented {
                    prepare: as_it_is,
                    word: khmer::romanize_segment,
                },
            )
        },
        // Rules 6: Sinhala as Sri Lanka's place names write it.
        Row {
            switch: Switch::SinhalaAsWritten,
            ..by_run(
                Reader::Sinhala,
                Script::SINHALA,
                &["si"],
                true,
                Read::Run(sinhala::romanize),
            )
        },
        // Rules 6: Assamese (its locale) keeps CLDR's reading of its
        // script; Bengali is read as its readers write it.
        Row {
            switch: Switch::BengaliAsSpoken,
            ..by_run(Reader::Cldr, Script::BENGALI, &["as"], false, Read::Cldr)
        },
        Row {
            switch: Switch::BengaliAsSpoken,
            ..by_run(
                Reader::Bengali,
                Script::BENGALI,
                &["bn"],
                true,
                Read::Run(bengali::romanize),
            )
        },
        // Sanskrit keeps every vowel: CLDR's transform.
        Row {
            switch: Switch::Rewrite,
            ..by_run(Reader::Cldr, Script::DEVANAGARI, &["sa"], false, Read::Cldr)
        },
        // Every script read run by run before rules 5, or with no reader
        // of its own, by CLDR.
        Row {
            reads: Reads::Runs,
            switch: Switch::Rewrite,
            ..by_run(Reader::Cldr, Script::Han, &[], true, Read::Cldr)
        },
        // Chosen in its own stage, after the table: by these locales along
        // a locale's fallback chain (`SlugLocale::is_japanese`), or by kana
        // in the title where the table has IPADIC's readings; Han is then
        // left to it (`runs`).
        Row {
            reader: Reader::Japanese,
            reads: Reads::Kana,
            locales: japanese::LOCALES,
            by_letters: true,
            remembered: Remembered::No,
            switch: Switch::JapaneseReadings,
            read: Read::Elsewhere,
            apart_from_digits: false,
        },
    ]
};

/// A run as it is, for a reader that prepares nothing.
fn as_it_is(run: &str) -> Cow<'_, str> {
    Cow::Borrowed(run)
}

/// The tags of Serbian's locales (and those written the same way).
const SERBIAN: &[&str] = &["sr", "bs", "sh", "cnr"];

/// A row of [`READERS`], by its place: the index of the row's memories.
pub(crate) type RowId = u8;

/// The scripts a reader is chosen for: those read word by word
/// ([`Words::ALL`]), then those read run by run (`scripts::Script::ALL`).
pub(crate) const KEYS: usize = Words::ALL.len() + scripts::Script::ALL.len();

/// In a choice ([`Choices`]): no reader of the table reads the script (it
/// is left as it is, or to the locale's transform).
pub(crate) const NONE: u8 = u8::MAX;

/// In a choice: the script's letters in the title show which of its
/// readers reads it ([`Words::shown_by`]).
pub(crate) const SHOWN: u8 = u8::MAX - 1;

/// For each script ([`KEYS`]), the row that reads it for one locale and
/// rule version, [`NONE`] or [`SHOWN`], and last the version's index
/// (which the letters choose under): the table, worked out before any
/// title is read (at compile time without a locale, at a locale's first
/// title with one), so that a title costs a lookup.
pub(crate) type Choices = [u8; KEYS + 1];

/// What the script of `key` is.
const fn reads_of(key: usize) -> Reads {
    if key < Words::ALL.len() {
        Reads::Words(Words::ALL[key])
    } else {
        Reads::Run(scripts::Script::ALL[key - Words::ALL.len()])
    }
}

/// Whether a row that reads `row` reads what `wanted` is.
const fn covers(row: Reads, wanted: Reads) -> bool {
    match (row, wanted) {
        (Reads::Runs, Reads::Run(_)) => true,
        (Reads::Run(a), Reads::Run(b)) => a.index() == b.index(),
        (Reads::Words(a), Reads::Words(b)) => a as u8 == b as u8,
        (Reads::Kana, Reads::Kana) => true,
        _ => false,
    }
}

/// Whether `a` and `b` are the same text.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The choice for the script of `key` with the locale's `language`
/// (`None` without a locale) under `rules`: among the rows of the script
/// whose switch `rules` has, the first whose locales hold the language,
/// else the first the letters choose ([`SHOWN`] where several languages
/// share the script).
const fn choose(key: usize, language: Option<&str>, rules: Rules) -> u8 {
    let reads = reads_of(key);
    let mut i = 0;
    if let Some(language) = language {
        while i < READERS.len() {
            let row = &READERS[i];
            if covers(row.reads, reads) && rules.has(row.switch) {
                let mut l = 0;
                while l < row.locales.len() {
                    if same(row.locales[l], language) {
                        return match row.reader {
                            Reader::Transform => NONE,
                            _ => i as u8,
                        };
                    }
                    l += 1;
                }
            }
            i += 1;
        }
    }
    let shown = matches!(reads, Reads::Words(Words::Cyrillic | Words::Arabic));
    i = 0;
    while i < READERS.len() {
        let row = &READERS[i];
        if covers(row.reads, reads) && rules.has(row.switch) && row.by_letters {
            return if shown { SHOWN } else { i as u8 };
        }
        i += 1;
    }
    NONE
}

/// [`Choices`] of every rule version for `language`, one after another.
const fn choices_of(language: Option<&str>) -> [Choices; VERSIONS.len()] {
    let mut all = [[NONE; KEYS + 1]; VERSIONS.len()];
    let mut v = 0;
    while v < VERSIONS.len() {
        let mut key = 0;
        while key < KEYS {
            all[v][key] = choose(key, language, Rules::at(v));
            key += 1;
        }
        all[v][KEYS] = v as u8;
        v += 1;
    }
    all
}

/// [`Choices`] without a locale, made at compile time.
const WITHOUT_LOCALE: [Choices; VERSIONS.len()] = choices_of(None);

/// The choices for a title with `locale` under `rules`.
#[inline]
pub(crate) fn choices(locale: Option<&SlugLocale>, rules: Rules) -> &Choices {
    let Some(locale) = locale else {
        return &WITHOUT_LOCALE[rules.index()];
    };
    memo(locale)[rules.index() * (KEYS + 1)..][..KEYS + 1]
        .try_into()
        .expect("a memo holds every version's choices")
}

/// `locale`'s memo, made on first use: every version's [`Choices`], one
/// after another, then for each version whether it reads the locale's
/// own runs ([`reads_own_runs`]).
fn memo(locale: &SlugLocale) -> &[u8] {
    locale.readers_memo(|| {
        let language = locale.language();
        let all = choices_of(Some(language));
        let mut memo = all.concat();
        memo.extend(
            all.iter()
                .map(|choices| u8::from(own_runs(choices, language))),
        );
        memo.into_boxed_slice()
    })
}

/// Whether, with `locale` under `rules`, a reader of runs of its own
/// reads the locale's script (Burmese with `my`): a row chosen by the
/// locale's language, not CLDR's reading of every script. Of the
/// languages with such a row, only `my` and `si` have a CLDR transform
/// this keeps from reading first. Looked up in the locale's memo, made
/// once by [`own_runs`].
#[inline]
pub(crate) fn reads_own_runs(locale: &SlugLocale, rules: Rules) -> bool {
    memo(locale)[VERSIONS.len() * (KEYS + 1) + rules.index()] == 1
}

/// [`reads_own_runs`] from a version's `choices` for `language`.
fn own_runs(choices: &Choices, language: &str) -> bool {
    choices[Words::ALL.len()..KEYS]
        .iter()
        .filter(|&&row| row < SHOWN)
        .map(|&row| &READERS[usize::from(row)])
        .any(|row| !matches!(row.reader, Reader::Cldr) && row.locales.contains(&language))
}

/// The language whose unwritten vowels are read in `text`'s Arabic
/// script with `locale` under `rules` (Persian, Urdu or Arabic):
/// the locale's reader of the script, or, where the letters choose, the
/// language the letters of `title` (the title `text` was rewritten from)
/// or of `text` show ([`arabic::Language::shown_by`]).
pub(crate) fn vowels_read_as(
    title: &str,
    text: &str,
    locale: Option<&SlugLocale>,
    rules: Rules,
) -> Option<vowels::Language> {
    use arabic::Language::{Arabic, Persian, Urdu};
    let key = Words::ALL
        .iter()
        .position(|&w| w == Words::Arabic)
        .expect("Arabic is read word by word");
    let language = match choices(locale, rules)[key] {
        NONE => return None,
        // The title's letters before any word was read (those of a word
        // with vowel marks are gone from `text`), and those a stage wrote.
        SHOWN => {
            let urdu_heh = rules.has(Switch::UrduVowels);
            match (
                arabic::Language::shown_by(title, urdu_heh),
                arabic::Language::shown_by(text, urdu_heh),
            ) {
                (Urdu, _) | (_, Urdu) => Urdu,
                (Persian, _) | (_, Persian) => Persian,
                _ => Arabic,
            }
        }
        row => match READERS[usize::from(row)].reader {
            Reader::Arabic(language) => language,
            _ => return None,
        },
    };
    Some(language)
}

/// The row `choices` give the script of `key`, the letters of `text`
/// choosing where they show the language.
#[inline]
pub(crate) fn row_of(choices: &Choices, key: usize, text: &str) -> Option<RowId> {
    match choices[key] {
        NONE => None,
        SHOWN => match reads_of(key) {
            Reads::Words(script) => shown_row(script, text, rules_of(choices)),
            _ => None,
        },
        row => Some(row),
    }
}

/// The rule version `choices` were made for.
#[inline]
pub(crate) fn rules_of(choices: &Choices) -> Rules {
    Rules::at(usize::from(choices[KEYS]))
}

/// The row of the reader the letters of `text` show for `script` under
/// `rules`.
#[cold]
pub(crate) fn shown_row(script: Words, text: &str, rules: Rules) -> Option<RowId> {
    let shown = script.shown_by(text, rules)?;
    READERS
        .iter()
        .position(|row| row.reader == shown)
        .map(|i| i as RowId)
}

/// The key of a script read word by word.
#[inline]
pub(crate) const fn word_key(script: Words) -> usize {
    script as usize
}

/// The key of a script read run by run.
#[inline]
pub(crate) const fn run_key(script: scripts::Script) -> usize {
    Words::ALL.len() + script.index()
}

/// The reader of row `row`.
#[inline]
pub(crate) fn reader(row: RowId) -> Reader {
    READERS[usize::from(row)].reader
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(key: usize, language: Option<&str>, rules: Rules) -> Option<Reader> {
        row_of(&choices_of(language)[rules.index()], key, "").map(reader)
    }

    #[test]
    fn a_locale_chooses_its_reader_and_the_letters_choose_otherwise() {
        let rules = Rules::numbered(5).expect("rules 5");
        let cyrillic = word_key(Words::Cyrillic);
        assert_eq!(
            chosen(cyrillic, Some("uk"), rules),
            Some(Reader::Cyrillic(cyrillic::Language::Ukrainian))
        );
        // Kyrgyz is left to its transform; German to the letters.
        assert_eq!(chosen(cyrillic, Some("ky"), rules), None);
        let german = &choices_of(Some("de"))[rules.index()];
        assert_eq!(
            row_of(german, cyrillic, "Київ").map(reader),
            Some(Reader::Cyrillic(cyrillic::Language::Ukrainian))
        );
        // A Serbian `đ` only with a Serbian locale.
        let dj = word_key(Words::LatinDj);
        assert_eq!(chosen(dj, None, rules), None);
        assert_eq!(chosen(dj, Some("bs"), rules), Some(Reader::SerbianLatin));
        // Devanagari as Hindi, Marathi with its locale, Sanskrit by CLDR,
        // and by CLDR before rules 5; Thai in RTGS whatever the locale.
        let deva = run_key(scripts::Script::DEVANAGARI);
        assert_eq!(
            chosen(deva, None, rules),
            Some(Reader::Devanagari(devanagari::Speech::Hindi))
        );
        assert_eq!(
            chosen(deva, Some("mr"), rules),
            Some(Reader::Devanagari(devanagari::Speech::Marathi))
        );
        assert_eq!(chosen(deva, Some("sa"), rules), Some(Reader::Cldr));
        let thai = run_key(scripts::Script::Thai);
        assert_eq!(chosen(thai, Some("sa"), rules), Some(Reader::Rtgs));
        let four = Rules::numbered(4).expect("rules 4");
        assert_eq!(chosen(deva, Some("mr"), four), Some(Reader::Cldr));
        assert_eq!(chosen(word_key(Words::Greek), None, four), None);
        assert_eq!(
            chosen(run_key(scripts::Script::Khmer), None, rules),
            Some(Reader::Cldr)
        );
        // Rules 6 read Khmer by its own reader.
        let six = Rules::numbered(6).expect("rules 6");
        assert_eq!(
            chosen(run_key(scripts::Script::Khmer), None, six),
            Some(Reader::Khmer)
        );
    }

    /// The letters choose among a script's rows of the table: every
    /// language they may show has its row.
    #[test]
    fn the_letters_choose_only_rows_of_the_table() {
        let none = &WITHOUT_LOCALE[Rules::NEWEST.index()];
        for text in [
            "Київ",
            "Ђоковић",
            "Магілёў",
            "Қоян",
            "Я",
            "Өгөөмөр",
            "Ѓорѓе",
            "връх",
        ] {
            for rules in Rules::all().filter(|r| r.has(Switch::NationalStandards)) {
                let choices = &WITHOUT_LOCALE[rules.index()];
                let row = row_of(choices, word_key(Words::Cyrillic), text).expect("a row");
                let shown = Words::Cyrillic.shown_by(text, rules);
                assert_eq!(Some(reader(row)), shown, "{text}");
                assert!(rules.has(READERS[usize::from(row)].switch), "{text}");
            }
            let row = row_of(none, word_key(Words::Cyrillic), text).expect("a row");
            let shown = Words::Cyrillic.shown_by(text, Rules::NEWEST);
            assert_eq!(Some(reader(row)), shown, "{text}");
        }
        for text in ["کراچی", "تهران", "طنطا"] {
            let row = row_of(none, word_key(Words::Arabic), text).expect("a row");
            let shown = Words::Arabic.shown_by(text, Rules::NEWEST);
            assert_eq!(Some(reader(row)), shown, "{text}");
        }
    }

    /// A locale's choices, worked out at its first title, are those
    /// worked out for its language.
    #[test]
    fn a_locales_memo_holds_its_languages_choices() {
        let locale = SlugLocale::resolve("uk-UA").expect("a locale");
        for rules in Rules::all() {
            assert_eq!(
                choices(Some(&locale), rules),
                &choices_of(Some("uk"))[rules.index()]
            );
            assert!(!reads_own_runs(&locale, rules));
        }
        // Burmese's own reader of runs from rules 6, CLDR's before.
        let burmese = SlugLocale::resolve("my").expect("a locale");
        for rules in Rules::all() {
            let own = own_runs(&choices_of(Some("my"))[rules.index()], "my");
            assert_eq!(reads_own_runs(&burmese, rules), own);
            assert_eq!(own, rules.has(Switch::BurmeseAsWritten), "rules {rules}");
        }
    }

    #[test]
    fn each_script_is_found_by_its_letters() {
        for (c, script) in [
            ('서', Words::Hangul),
            ('λ', Words::Greek),
            ('ሰ', Words::Ethiopic),
            ('ж', Words::Cyrillic),
            ('ب', Words::Arabic),
            ('đ', Words::LatinDj),
            ('Ե', Words::Armenian),
            ('ხ', Words::Georgian),
        ] {
            assert_eq!(Words::of(c), Some(script), "{c}");
        }
        assert_eq!(Words::of('a'), None);
    }
}
