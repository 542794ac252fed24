//! The streaming reader of IPADIC's CSV sources (EUC-JP, one entry a
//! line) and the reduction of its 392,127 entries to one reading per
//! written form: the lowest-cost entry's.
//!
//! IPADIC's columns: surface, left id, right id, cost, four parts of
//! speech, conjugation type, conjugation form, base form, reading
//! (katakana), pronunciation (katakana). Lower cost means more usual, so
//! the lowest-cost entry of a surface is its likeliest reading out of
//! context (`今日` `キョウ` at 4263, not `コンニチ` at 5290).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::kind::Kind;
use super::reading::{COUNTER_MARK, Reading, SUFFIX_MARK};
use crate::lines::{BoundedLines, Line};

/// Where Debian's `mecab-ipadic` package puts the CSV sources.
pub const DEFAULT_DIR: &str = "/usr/share/mecab/dic/ipadic";

/// How to get the dictionary, for the error that says it is missing.
pub const HOW_TO_GET: &str = "apt-get install mecab-ipadic (Debian's IPADIC 2.7.0, CSV sources in /usr/share/mecab/dic/ipadic)";

/// Longest line read, in bytes: IPADIC's longest is under 300; a longer
/// one is not IPADIC and is reported, not buffered.
const MAX_LINE_BYTES: usize = 4096;

/// Why the dictionary could not be read.
#[derive(Debug, thiserror::Error)]
pub enum IpadicError {
    /// The directory has no `*.csv` file.
    #[error("no IPADIC CSV sources in {dir}: install them with {HOW_TO_GET}")]
    Missing {
        /// The directory looked in.
        dir: PathBuf,
    },
    /// Reading a directory or file failed.
    #[error("cannot read {path}")]
    Io {
        /// The directory or file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A line is not an IPADIC entry.
    #[error("{path}:{line}: {reason}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: u64,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// One line of IPADIC: the columns the readings need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The written form.
    pub surface: String,
    /// Lower is more usual.
    pub cost: i32,
    /// Particle (助詞), verb (動詞) or anything else.
    pub kind: Kind,
    /// The reading, with `ハ`, `ヘ` read `ワ`, `エ` where the
    /// pronunciation column says so ([`spoken_particles`]).
    pub reading: String,
    /// Whether it is a suffix (名詞,接尾), and which.
    pub suffix: Option<Suffix>,
}

/// The suffixes (名詞,接尾) whose readings a table keeps besides a
/// surface's cheapest ([`super::reading`]'s counters and suffixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suffix {
    /// 名詞,接尾,一般: a suffix to a noun (`街` `ガイ`).
    General,
    /// Any other suffix: counters (助数詞), and the like (`時` `ジ`).
    Other,
}

/// The dictionary reduced to one reading per surface, sorted by surface.
#[derive(Debug, Default)]
pub struct Readings {
    /// Entries read, every line of every file.
    pub entries: u64,
    /// Each surface once with its lowest-cost entry's reading, sorted by
    /// surface (bytewise, as Redis sorts keys).
    pub kept: Vec<(Box<str>, Reading)>,
}

impl Readings {
    /// The compact form: one `surface\tvalue\n` line per surface, sorted,
    /// where the value is [`Reading::encode_into`]'s. Loaded as the fields and
    /// values of one Redis hash, a title's keys are one `HMGET`.
    pub fn compact(&self) -> String {
        let mut out = String::with_capacity(self.kept.len() * 24);
        for (surface, reading) in &self.kept {
            out.push_str(surface);
            out.push('\t');
            reading.encode_into(&mut out);
            out.push('\n');
        }
        out
    }
}

/// The longest written form or value a table keeps, in bytes: a Redis
/// hash stays a compact listpack only while its fields and values are at
/// most this long (`hash-max-listpack-value`, as for the symbol table's
/// chunks). IPADIC has 189 longer forms, all long compound names
/// (`アメリカン・エキスプレス・インターナショナル`): both modes leave them out,
/// so that both read every title alike.
pub const MAX_TABLE_BYTES: usize = 64;

/// The readings a table holds: [`read_dir`]'s, without the forms or
/// values over [`MAX_TABLE_BYTES`].
pub fn read_for_table(dir: &Path) -> Result<Readings, IpadicError> {
    let mut readings = read_dir(dir)?;
    readings.kept.retain(|(surface, reading)| {
        surface.len() <= MAX_TABLE_BYTES && reading.encoded_len() <= MAX_TABLE_BYTES
    });
    Ok(readings)
}

/// Reads every `*.csv` under `dir` (in name order, so ties of cost are
/// broken the same way every time: the first file's entry wins).
pub fn read_dir(dir: &Path) -> Result<Readings, IpadicError> {
    let io = |source| IpadicError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut files = Vec::new();
    for item in std::fs::read_dir(dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => IpadicError::Missing {
            dir: dir.to_owned(),
        },
        _ => io(e),
    })? {
        let path = item.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "csv") {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(IpadicError::Missing {
            dir: dir.to_owned(),
        });
    }
    files.sort();
    let mut best = Best::default();
    for path in &files {
        let file = File::open(path).map_err(|source| IpadicError::Io {
            path: path.clone(),
            source,
        })?;
        read_csv(path, BufReader::new(file), &mut best)?;
    }
    Ok(best.finish())
}

/// The lowest-cost entry of each surface seen so far, and of each
/// surface as a counter and as a suffix.
#[derive(Default)]
pub struct Best {
    entries: u64,
    by_surface: HashMap<Box<str>, (i32, Reading)>,
    /// Every suffix (名詞,接尾): what a surface reads after digits.
    counters: HashMap<Box<str>, (i32, Reading)>,
    /// 名詞,接尾,一般: what a surface reads after a noun.
    suffixes: HashMap<Box<str>, (i32, Reading)>,
}

/// Keeps `reading` of cost `cost` for `surface` in `map` if it is the
/// first or cheapest so far.
fn keep_cheapest(
    map: &mut HashMap<Box<str>, (i32, Reading)>,
    surface: &str,
    cost: i32,
    reading: Reading,
) {
    match map.get_mut(surface) {
        Some((kept, _)) if *kept <= cost => {}
        Some(kept) => *kept = (cost, reading),
        None => {
            map.insert(surface.into(), (cost, reading));
        }
    }
}

impl Best {
    /// Keeps `entry` if it is its surface's first or cheapest so far, as
    /// a word, and as a counter or suffix if it is one.
    pub fn add(&mut self, entry: Entry) {
        self.entries += 1;
        let reading = Reading::new(&entry.reading, entry.kind);
        if entry.suffix.is_some() {
            keep_cheapest(
                &mut self.counters,
                &entry.surface,
                entry.cost,
                reading.clone(),
            );
        }
        if entry.suffix == Some(Suffix::General) {
            keep_cheapest(
                &mut self.suffixes,
                &entry.surface,
                entry.cost,
                reading.clone(),
            );
        }
        keep_cheapest(&mut self.by_surface, &entry.surface, entry.cost, reading);
    }

    /// The kept readings, sorted by surface: each surface's cheapest, and
    /// under a marked form (`\u{1}` and the surface for a counter,
    /// `\u{2}` for a suffix) its
    /// cheapest as a counter and as a suffix where that reads otherwise.
    pub fn finish(self) -> Readings {
        let mut marked = Vec::new();
        for (mark, map) in [
            (COUNTER_MARK, &self.counters),
            (SUFFIX_MARK, &self.suffixes),
        ] {
            for (surface, (_, reading)) in map {
                let plain = self.by_surface.get(surface).map(|(_, r)| &r.kana);
                if plain != Some(&reading.kana) {
                    marked.push((format!("{mark}{surface}").into_boxed_str(), reading.clone()));
                }
            }
        }
        let mut kept: Vec<_> = self
            .by_surface
            .into_iter()
            .map(|(surface, (_, reading))| (surface, reading))
            .chain(marked)
            .collect();
        kept.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Readings {
            entries: self.entries,
            kept,
        }
    }
}

/// Streams one CSV source (EUC-JP) into `best`, line by line.
pub fn read_csv(path: &Path, input: impl BufRead, best: &mut Best) -> Result<(), IpadicError> {
    let mut lines = BoundedLines::new(input, MAX_LINE_BYTES);
    let mut line_no = 0;
    let bad = |line, reason| IpadicError::BadLine {
        path: path.to_owned(),
        line,
        reason,
    };
    loop {
        line_no += 1;
        let bytes = match lines.next_line() {
            Ok(None) => return Ok(()),
            Ok(Some(Line::Text { bytes, .. })) => bytes,
            Ok(Some(Line::TooLong)) => return Err(bad(line_no, "the line is too long")),
            Err(source) => {
                return Err(IpadicError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        if bytes.is_empty() {
            continue;
        }
        let text = encoding_rs::EUC_JP
            .decode_without_bom_handling_and_without_replacement(bytes)
            .ok_or_else(|| bad(line_no, "the line is not EUC-JP"))?;
        best.add(parse_line(&text).map_err(|reason| bad(line_no, reason))?);
    }
}

/// One decoded line as an [`Entry`].
pub fn parse_line(line: &str) -> Result<Entry, &'static str> {
    let fields: Vec<&str> = line.split(',').collect();
    let [
        surface,
        _,
        _,
        cost,
        pos1,
        pos2,
        pos3,
        _,
        _,
        _,
        _,
        reading,
        pronunciation,
    ] = fields[..]
    else {
        return Err("the line does not have IPADIC's 13 comma-separated fields");
    };
    if surface.is_empty() {
        return Err("the surface (field 1) is empty");
    }
    let cost = cost
        .parse()
        .map_err(|_| "the cost (field 4) is not an integer")?;
    // Entries without a reading (some symbols) read as their surface.
    let reading = if reading == "*" || reading.is_empty() {
        surface
    } else {
        reading
    };
    let kind = match pos1 {
        "助詞" => Kind::Particle,
        "動詞" => Kind::Verb,
        "助動詞" => Kind::Auxiliary,
        _ => Kind::Other,
    };
    // The one reading IPADIC ranks against usage: `日本` as `ニッポン`
    // (cost 3490) before `ニホン` (11395), where titles, the country's
    // own romanization and its slugs say `nihon` (`nihon-keizai-shinbun`).
    let cost = match (surface, reading) {
        ("日本", "ニホン") => i32::MIN,
        _ => cost,
    };
    let suffix = match (pos1, pos2, pos3) {
        ("名詞", "接尾", "一般") => Some(Suffix::General),
        ("名詞", "接尾", _) => Some(Suffix::Other),
        _ => None,
    };
    Ok(Entry {
        surface: surface.to_owned(),
        cost,
        kind,
        reading: spoken_particles(reading, pronunciation),
        suffix,
    })
}

/// `reading` with each `ハ`, `ヘ` that `pronunciation` says as `ワ`, `エ`
/// written so: the particle `は` (reading `ハ`, pronunciation `ワ`) and
/// the ones inside set phrases (`こんにちは` `コンニチワ`), which Hepburn
/// writes `wa`, `e`. Only where the two columns have as many characters,
/// so that they line up (the pronunciation writes long vowels `ー`, one
/// character for one: `トウキョウ`, `トーキョー`).
pub fn spoken_particles(reading: &str, pronunciation: &str) -> String {
    if reading.chars().count() != pronunciation.chars().count() {
        return reading.to_owned();
    }
    reading
        .chars()
        .zip(pronunciation.chars())
        .map(|pair| match pair {
            ('ハ', 'ワ') => 'ワ',
            ('ヘ', 'エ') => 'エ',
            (written, _) => written,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_its_surface_cost_kind_and_reading() {
        let entry = parse_line("は,261,261,3865,助詞,係助詞,*,*,*,*,は,ハ,ワ").unwrap();
        assert_eq!(
            entry,
            Entry {
                surface: "は".into(),
                cost: 3865,
                kind: Kind::Particle,
                reading: "ワ".into(),
                suffix: None,
            }
        );
        let entry = parse_line(
            "東京,1293,1293,3003,名詞,固有名詞,地域,一般,*,*,東京,トウキョウ,トーキョー",
        )
        .unwrap();
        assert_eq!(
            (entry.kind, entry.reading.as_str()),
            (Kind::Other, "トウキョウ")
        );
        assert!(parse_line("東京,1293,1293").is_err());
        assert!(parse_line("東京,1,1,x,名詞,*,*,*,*,*,東京,トウキョウ,トーキョー").is_err());
    }

    #[test]
    fn set_phrases_keep_the_particle_as_said() {
        assert_eq!(spoken_particles("コンニチハ", "コンニチワ"), "コンニチワ");
        assert_eq!(spoken_particles("ハハ", "ハハ"), "ハハ");
        assert_eq!(spoken_particles("ヘ", "エ"), "エ");
    }

    #[test]
    fn the_cheapest_entry_of_a_surface_is_kept() {
        let mut best = Best::default();
        let lines = "今日,1314,1314,5290,名詞,副詞可能,*,*,*,*,今日,コンニチ,コンニチ\n\
                     今日,1314,1314,4263,名詞,副詞可能,*,*,*,*,今日,キョウ,キョー\n\
                     \n\
                     へ,1285,1285,8956,名詞,一般,*,*,*,*,へ,ヘ,ヘ\n\
                     へ,154,154,3557,助詞,格助詞,一般,*,*,*,へ,ヘ,エ\n";
        let (euc, _, _) = encoding_rs::EUC_JP.encode(lines);
        read_csv(Path::new("t.csv"), &euc[..], &mut best).unwrap();
        let readings = best.finish();
        assert_eq!(readings.entries, 4);
        assert_eq!(readings.compact(), "へ\t*エ\n今日\tキョウ\n");
    }

    /// A suffix's reading is kept apart where the surface's cheapest reads
    /// otherwise: `年` is `トシ` alone, `ネン` after digits; `街` `マチ`
    /// alone, `ガイ` after a noun (IPADIC's own entries).
    #[test]
    fn counters_and_suffixes_keep_their_readings() {
        let mut best = Best::default();
        let lines = "年,1314,1314,7055,名詞,一般,*,*,*,*,年,トシ,トシ\n\
                     年,1314,1314,8465,名詞,接尾,助数詞,*,*,*,年,ネン,ネン\n\
                     年,1314,1314,9827,名詞,接尾,一般,*,*,*,年,ネン,ネン\n\
                     街,1314,1314,5330,名詞,一般,*,*,*,*,街,マチ,マチ\n\
                     街,1314,1314,7885,名詞,接尾,一般,*,*,*,街,ガイ,ガイ\n\
                     周年,1314,1314,9126,名詞,接尾,助数詞,*,*,*,周年,シュウネン,シューネン\n";
        let (euc, _, _) = encoding_rs::EUC_JP.encode(lines);
        read_csv(Path::new("t.csv"), &euc[..], &mut best).unwrap();
        assert_eq!(
            best.finish().compact(),
            "\u{1}年\tネン\n\u{1}街\tガイ\n\u{2}年\tネン\n\u{2}街\tガイ\n周年\tシュウネン\n年\tトシ\n街\tマチ\n"
        );
    }

    #[test]
    fn a_bad_line_is_named_by_file_and_line() {
        let mut best = Best::default();
        let input = b"\xa4\xcf,261,261,3865,\xbd\xf5\xbb\xec,*,*,*,*,*,x,x,x\nbad\n";
        let error = read_csv(Path::new("Postp.csv"), &input[..], &mut best).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Postp.csv:2: the line does not have IPADIC's 13 comma-separated fields"
        );
        let error = read_csv(Path::new("x.csv"), &b"\xff\xff\n"[..], &mut best).unwrap_err();
        assert_eq!(error.to_string(), "x.csv:1: the line is not EUC-JP");
    }

    #[test]
    fn a_missing_directory_says_how_to_get_the_dictionary() {
        let error = read_dir(Path::new("/nonexistent/ipadic")).unwrap_err();
        assert!(error.to_string().contains("apt-get install mecab-ipadic"));
    }
}
