//! The one parser of `UnicodeData.txt` and the rule that trims names.
//!
//! Both the loader (which writes the table into Redis) and the in-process
//! table read the file through [`Reader`], so both give identical names. The
//! reader streams: it holds one line at a time, never the whole file, and a
//! line longer than [`MAX_LINE_BYTES`] is an error rather than a reason to
//! grow a buffer without bound (see `crate::lines`).

use std::collections::HashMap;
use std::fmt;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::lines::{BoundedLines, Line as Lines};
use std::str::FromStr;

/// The longest line the reader accepts. Real lines are under 200 bytes.
pub const MAX_LINE_BYTES: usize = 4096;

/// Whole words removed from every name: they add length, not meaning, to a
/// slug ("HEAVY BLACK HEART" reads as "heavy heart").
pub const FILLER_WORDS: [&str; 8] = [
    "sign", "cross", "of", "symbol", "staff", "hand", "black", "white",
];

/// The two-letter general categories defined by the Unicode Standard.
const GENERAL_CATEGORIES: [&str; 30] = [
    "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi",
    "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
];

/// The two-letter general category of `c`, as UnicodeData.txt writes it
/// (from the `unicode-properties` tables, which may know a newer Unicode
/// version than the data file).
pub fn category_of(c: char) -> &'static str {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    match c.general_category() {
        G::UppercaseLetter => "Lu",
        G::LowercaseLetter => "Ll",
        G::TitlecaseLetter => "Lt",
        G::ModifierLetter => "Lm",
        G::OtherLetter => "Lo",
        G::NonspacingMark => "Mn",
        G::SpacingMark => "Mc",
        G::EnclosingMark => "Me",
        G::DecimalNumber => "Nd",
        G::LetterNumber => "Nl",
        G::OtherNumber => "No",
        G::ConnectorPunctuation => "Pc",
        G::DashPunctuation => "Pd",
        G::OpenPunctuation => "Ps",
        G::ClosePunctuation => "Pe",
        G::InitialPunctuation => "Pi",
        G::FinalPunctuation => "Pf",
        G::OtherPunctuation => "Po",
        G::MathSymbol => "Sm",
        G::CurrencySymbol => "Sc",
        G::ModifierSymbol => "Sk",
        G::OtherSymbol => "So",
        G::SpaceSeparator => "Zs",
        G::LineSeparator => "Zl",
        G::ParagraphSeparator => "Zp",
        G::Control => "Cc",
        G::Format => "Cf",
        G::Surrogate => "Cs",
        G::PrivateUse => "Co",
        G::Unassigned => "Cn",
    }
}

/// One character of the table: the character and its trimmed, lowercase name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The character itself.
    pub ch: char,
    /// Its name, lowercased and trimmed of [`FILLER_WORDS`].
    pub name: String,
    /// The 1-based line of the file it came from.
    pub line: u64,
}

/// The general categories whose characters go into the table (default
/// `So,Sc,Sm`: other symbols, currency and maths signs), less the
/// characters [`belongs`] keeps out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Categories(Vec<String>);

impl Default for Categories {
    fn default() -> Self {
        Categories(vec!["So".to_owned(), "Sc".to_owned(), "Sm".to_owned()])
    }
}

impl Categories {
    /// Whether `category` (a field of UnicodeData.txt) is selected.
    pub fn contains(&self, category: &str) -> bool {
        self.0.iter().any(|c| c == category)
    }
}

/// The categories as written on the command line: `So,Sm`.
impl fmt::Display for Categories {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}

impl FromStr for Categories {
    type Err = String;

    /// Parses a comma-separated list such as `So,Sm`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut seen = Vec::new();
        for part in s.split(',').map(str::trim) {
            if part.is_empty() {
                continue;
            }
            if !GENERAL_CATEGORIES.contains(&part) {
                return Err(format!(
                    "'{part}' is not a Unicode general category; use two-letter codes such as So, Sm, Sc"
                ));
            }
            if !seen.iter().any(|c| c == part) {
                seen.push(part.to_owned());
            }
        }
        if seen.is_empty() {
            return Err("no category given; use for example So or So,Sm".to_owned());
        }
        Ok(Categories(seen))
    }
}

/// Characters of categories Sc and Sm that stand for ASCII punctuation and
/// read better as it (they separate words, as `-`, `/`, `*` do) than by
/// name: the minus sign, slashes, operators that look like `*`, `|`, `:`,
/// `~` and the bullet-like dots, and the fullwidth and small forms of
/// ASCII punctuation (not the fullwidth currency signs and arrows, which
/// are named).
pub fn reads_as_punctuation(c: char) -> bool {
    matches!(
        c,
        '\u{2212}' // MINUS SIGN
            | '\u{2044}' // FRACTION SLASH
            | '\u{2215}' // DIVISION SLASH
            | '\u{2216}' // SET MINUS
            | '\u{2217}' // ASTERISK OPERATOR
            | '\u{2219}' // BULLET OPERATOR
            | '\u{2223}' // DIVIDES
            | '\u{2236}' // RATIO
            | '\u{223C}' // TILDE OPERATOR
            | '\u{22C5}' // DOT OPERATOR
            | '\u{FE50}'..='\u{FE6F}' // small forms
            | '\u{FF01}'..='\u{FF65}' // fullwidth ASCII, halfwidth punctuation
    )
}

/// Whether `c`, of general category `category`, is a table character for
/// `categories`: of one of them, not ASCII (ASCII punctuation separates
/// words; the engine never looks ASCII up), and for currency and maths
/// signs not one of those that [`reads_as_punctuation`].
pub fn belongs(c: char, category: &str, categories: &Categories) -> bool {
    categories.contains(category)
        && !c.is_ascii()
        && !(matches!(category, "Sc" | "Sm") && reads_as_punctuation(c))
}

/// Why one line of the file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line has fewer than the 15 fields the format defines.
    #[error("expected 15 fields separated by ';', found {0}")]
    MissingFields(usize),
    /// The code point field is not hexadecimal.
    #[error("code point '{0}' is not hexadecimal")]
    BadHex(String),
    /// The code point is a surrogate or above U+10FFFF.
    #[error("code point {0} is not a Unicode scalar value (a surrogate or above U+10FFFF)")]
    NotScalar(String),
    /// The name field is empty.
    #[error("the name field is empty")]
    EmptyName,
    /// The name has characters other than A-Z, 0-9, space and hyphen.
    #[error("name '{0}' has characters other than A-Z, 0-9, space and hyphen")]
    BadName(String),
    /// The name is longer than a table may store.
    #[error(
        "the name is {len} bytes long after trimming; a table stores names of at most {max} bytes"
    )]
    NameTooLong {
        /// Its length in bytes.
        len: usize,
        /// The most a table stores.
        max: usize,
    },
    /// The general category is not a two-letter code.
    #[error("general category '{0}' is not a two-letter code")]
    BadCategory(String),
    /// The line is not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error("the line is longer than {MAX_LINE_BYTES} bytes")]
    TooLong,
    /// The same code point appeared on an earlier line.
    #[error("code point U+{0:04X} appears twice (first on line {1})")]
    Duplicate(u32, u64),
    /// The last line stops without a newline and has too few fields: the file
    /// was cut short.
    #[error("the file ends in the middle of a line (truncated?)")]
    Truncated,
}

/// A line that could not be read, with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct BadLine {
    /// 1-based line number in the file.
    pub line: u64,
    /// What was wrong with it.
    pub error: LineError,
}

/// Errors of [`Reader`]: a bad line, or the file could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// One line is malformed; the reader goes on with the next one.
    #[error(transparent)]
    BadLine(#[from] BadLine),
    /// Reading failed; the reader stops.
    #[error("reading failed")]
    Io(#[from] std::io::Error),
}

/// Where UnicodeData.txt is read from: the file of `--data`, or, without
/// one, the copy built into the binary ([`crate::builtin`]). Both go
/// through the same [`Reader`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DataSource {
    /// The repository's `data/UnicodeData.txt`, built in.
    #[default]
    BuiltIn,
    /// A file on disk.
    File(PathBuf),
}

impl DataSource {
    /// The name its errors give it: the file's path, or the built-in
    /// copy's name.
    pub fn path(&self) -> &Path {
        match self {
            DataSource::BuiltIn => Path::new(crate::builtin::UNICODE_DATA_NAME),
            DataSource::File(path) => path,
        }
    }

    /// Opens it for [`Reader`]; only a file can fail to open.
    pub fn open(&self) -> Result<Box<dyn BufRead + Send>, DataError> {
        Ok(match self {
            DataSource::BuiltIn => Box::new(crate::builtin::UNICODE_DATA),
            DataSource::File(path) => {
                let file = std::fs::File::open(path).map_err(|e| DataError::open(path, e))?;
                Box::new(std::io::BufReader::new(file))
            }
        })
    }

    /// Whether it can be read, without reading it: a file that opens and
    /// is not a directory (opening a directory succeeds; reading it does
    /// not). The built-in copy always can.
    pub fn check(&self) -> Result<(), DataError> {
        let DataSource::File(path) = self else {
            return Ok(());
        };
        let mut file = std::fs::File::open(path).map_err(|e| DataError::open(path, e))?;
        std::io::Read::read(&mut file, &mut [0; 1]).map_err(|source| DataError::Read {
            path: path.clone(),
            source,
        })?;
        Ok(())
    }
}

/// The file's path, or the built-in copy's name.
impl fmt::Display for DataSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path().display().fmt(f)
    }
}

impl From<PathBuf> for DataSource {
    fn from(path: PathBuf) -> Self {
        DataSource::File(path)
    }
}

impl From<&Path> for DataSource {
    fn from(path: &Path) -> Self {
        DataSource::File(path.to_owned())
    }
}

impl From<&str> for DataSource {
    fn from(path: &str) -> Self {
        DataSource::File(path.into())
    }
}

/// A UnicodeData.txt file that cannot be used, named by path.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be opened.
    #[error("cannot open {}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Reading failed part way.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Some lines are malformed. Up to [`MAX_REPORTED`] are kept.
    #[error("{}", describe_bad_lines(path, lines, *total))]
    BadLines {
        /// The file.
        path: PathBuf,
        /// The first bad lines.
        lines: Vec<BadLine>,
        /// How many bad lines there are in all.
        total: u64,
    },
}

/// How many bad lines a [`DataError`] names; the rest are counted.
pub const MAX_REPORTED: usize = 20;

fn describe_bad_lines(path: &Path, lines: &[BadLine], total: u64) -> String {
    let mut text = lines
        .iter()
        .map(|b| format!("{}:{}: {}", path.display(), b.line, b.error))
        .collect::<Vec<_>>()
        .join("; ");
    if total > lines.len() as u64 {
        text.push_str(&format!(
            " (and {} more bad lines)",
            total - lines.len() as u64
        ));
    }
    text
}

impl DataError {
    /// The error for a file that cannot be opened.
    pub fn open(path: &Path, source: std::io::Error) -> Self {
        DataError::Open {
            path: path.to_owned(),
            source,
        }
    }

    /// A collector of the bad lines of `path`, for a caller that reads every
    /// line before deciding.
    pub fn collector(path: &Path) -> BadLineCollector {
        BadLineCollector {
            path: path.to_owned(),
            lines: Vec::new(),
            total: 0,
        }
    }
}

/// Gathers the bad lines of one file while it is read; see
/// [`DataError::collector`].
#[derive(Debug)]
pub struct BadLineCollector {
    path: PathBuf,
    lines: Vec<BadLine>,
    total: u64,
}

impl BadLineCollector {
    /// Records one error of [`Reader`]: a bad line is kept for the report,
    /// an I/O error ends the read at once.
    pub fn add(&mut self, error: ReadError) -> Result<(), DataError> {
        match error {
            ReadError::BadLine(bad) => {
                self.total += 1;
                if self.lines.len() < MAX_REPORTED {
                    self.lines.push(bad);
                }
                Ok(())
            }
            ReadError::Io(source) => Err(DataError::Read {
                path: self.path.clone(),
                source,
            }),
        }
    }

    /// Whether any bad line was seen.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// `Ok` when every line was good, else the report.
    pub fn finish(self) -> Result<(), DataError> {
        if self.total == 0 {
            return Ok(());
        }
        Err(DataError::BadLines {
            path: self.path,
            lines: self.lines,
            total: self.total,
        })
    }
}

/// What one well-formed line says, before category selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    /// The code point of field 0 (U+FFFD for a range marker on a
    /// surrogate, which is never used).
    pub ch: char,
    /// The raw name of field 1 (`HEAVY BLACK HEART`, `<control>`).
    pub name: &'a str,
    /// The general category of field 2 (`So`).
    pub category: &'a str,
}

impl Line<'_> {
    /// Whether the line names a single character: range markers such as
    /// `<CJK Ideograph, First>` and labels such as `<control>` do not.
    pub fn is_named(&self) -> bool {
        !self.name.starts_with('<')
    }
}

/// Parses one line (without its line end) of UnicodeData.txt.
pub fn parse_line(line: &str) -> Result<Line<'_>, LineError> {
    // Count the separators instead of collecting 15 fields: only the first
    // three are used, and this runs for each of the file's 35,000 lines.
    let count = line.bytes().filter(|&b| b == b';').count() + 1;
    if count < 15 {
        return Err(LineError::MissingFields(count));
    }
    let mut fields = line.split(';');
    let mut next = || fields.next().unwrap_or_default();
    let (hex, name, category) = (next().trim(), next().trim(), next().trim());
    if hex.is_empty() || hex.len() > 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(LineError::BadHex(hex.to_owned()));
    }
    let value = u32::from_str_radix(hex, 16).map_err(|_| LineError::BadHex(hex.to_owned()))?;
    if name.is_empty() {
        return Err(LineError::EmptyName);
    }
    if category.len() != 2 || !category.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(LineError::BadCategory(category.to_owned()));
    }
    let not_scalar = || LineError::NotScalar(format!("U+{value:04X}"));
    if value > char::MAX as u32 {
        return Err(not_scalar());
    }
    // Range markers may stand on surrogates (`<Non Private Use High
    // Surrogate, First>`); a named character never does.
    let named = !name.starts_with('<');
    let ch = match char::from_u32(value) {
        Some(ch) => ch,
        None if !named => char::REPLACEMENT_CHARACTER,
        None => return Err(not_scalar()),
    };
    let line = Line { ch, name, category };
    if named
        && !name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' ' || b == b'-')
    {
        return Err(LineError::BadName(name.to_owned()));
    }
    Ok(line)
}

/// Lowercases a Unicode name and removes the whole words of
/// [`FILLER_WORDS`], collapsing spaces. If nothing would be left, the whole
/// (lowercased) name is kept.
pub fn trim_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let kept: Vec<&str> = lower
        .split_whitespace()
        .filter(|word| !FILLER_WORDS.contains(word))
        .collect();
    if kept.is_empty() {
        lower.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        kept.join(" ")
    }
}

/// Streams the table entries of the selected categories out of a
/// UnicodeData.txt reader, one line at a time.
///
/// It yields `Err(ReadError::BadLine)` for each malformed line and keeps
/// going, so a caller can report every bad line; it stops after an I/O
/// error. Line ends may be LF or CRLF, and a UTF-8 byte order mark before
/// the first line is ignored.
pub struct Reader<R> {
    lines: BoundedLines<R>,
    categories: Categories,
    line_no: u64,
    /// The selected code points seen so far, with their line, to reject
    /// duplicates: about 6,600 entries for the default categories.
    seen: HashMap<u32, u64>,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` that keeps the characters of `categories`.
    pub fn new(input: R, categories: Categories) -> Self {
        Reader {
            lines: BoundedLines::new(input, MAX_LINE_BYTES),
            categories,
            line_no: 0,
            seen: HashMap::new(),
            done: false,
        }
    }

    /// The entry on the next line, `Ok(None)` for a line to skip.
    fn parse_next(&mut self, line_no: u64) -> Option<Result<Option<Entry>, ReadError>> {
        let (bytes, ended) = match self.lines.next_line() {
            Ok(None) => return None,
            Ok(Some(Lines::Text { bytes, ended })) => (bytes, ended),
            Ok(Some(Lines::TooLong)) => return Some(Err(bad(line_no, LineError::TooLong))),
            Err(e) => return Some(Err(ReadError::Io(e))),
        };
        let mut bytes = bytes;
        if line_no == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Some(Err(bad(line_no, LineError::NotUtf8)));
        };
        if text.trim().is_empty() {
            return Some(Ok(None));
        }
        let line = match parse_line(text) {
            Ok(line) => line,
            Err(LineError::MissingFields(_)) if !ended => {
                return Some(Err(bad(line_no, LineError::Truncated)));
            }
            Err(error) => return Some(Err(bad(line_no, error))),
        };
        if !line.is_named() || !belongs(line.ch, line.category, &self.categories) {
            return Some(Ok(None));
        }
        let cp = line.ch as u32;
        if let Some(&first) = self.seen.get(&cp) {
            return Some(Err(bad(line_no, LineError::Duplicate(cp, first))));
        }
        self.seen.insert(cp, line_no);
        Some(Ok(Some(Entry {
            ch: line.ch,
            name: trim_name(line.name),
            line: line_no,
        })))
    }
}

fn bad(line: u64, error: LineError) -> ReadError {
    ReadError::BadLine(BadLine { line, error })
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Entry, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.line_no += 1;
            match self.parse_next(self.line_no) {
                None => self.done = true,
                Some(Ok(None)) => {}
                Some(Ok(Some(entry))) => return Some(Ok(entry)),
                Some(Err(e)) => {
                    self.done = matches!(e, ReadError::Io(_));
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Vec<Result<(char, String), String>> {
        Reader::new(text.as_bytes(), Categories::default())
            .map(|r| r.map(|e| (e.ch, e.name)).map_err(|e| e.to_string()))
            .collect()
    }

    fn ok(c: char, name: &str) -> Result<(char, String), String> {
        Ok((c, name.to_owned()))
    }

    #[test]
    fn trims_filler_words_as_whole_words_only() {
        assert_eq!(trim_name("HORIZONTAL BLACK HEXAGON"), "horizontal hexagon");
        assert_eq!(trim_name("RADIOACTIVE SIGN"), "radioactive");
        assert_eq!(trim_name("HEAVY BLACK HEART"), "heavy heart");
        assert_eq!(trim_name("COFFIN"), "coffin");
        assert_eq!(trim_name("SIGNAL FLAG"), "signal flag");
        assert_eq!(trim_name("LEFT-POINTING  HAND"), "left-pointing");
    }

    #[test]
    fn keeps_the_whole_name_when_trimming_leaves_nothing() {
        assert_eq!(trim_name("BLACK CROSS"), "black cross");
        assert_eq!(trim_name("SIGN"), "sign");
    }

    #[test]
    fn parses_a_line_of_the_real_format() {
        let line = parse_line("2603;SNOWMAN;So;0;ON;;;;;N;;;;;").unwrap();
        assert_eq!(line.ch, '☃');
        assert_eq!(line.name, "SNOWMAN");
        assert_eq!(line.category, "So");
    }

    #[test]
    fn keeps_only_the_selected_categories_and_skips_ranges() {
        let text = "0041;LATIN CAPITAL LETTER A;Lu;0;L;;;;;N;;;;0061;\n\
                    00C0;LATIN CAPITAL LETTER A WITH GRAVE;Lu;0;L;0041 0300;;;;N;;;;00E0;\n\
                    002B;PLUS SIGN;Sm;0;ES;;;;;N;;;;;\n\
                    00A3;POUND SIGN;Sc;0;ET;;;;;N;;;;;\n\
                    00D7;MULTIPLICATION SIGN;Sm;0;ON;;;;;N;;;;;\n\
                    2212;MINUS SIGN;Sm;0;ES;;;;;N;;;;;\n\
                    2622;RADIOACTIVE SIGN;So;0;ON;;;;;N;;;;;\n\
                    2B23;HORIZONTAL BLACK HEXAGON;So;0;ON;;;;;N;;;;;\n\
                    E000;<Private Use, First>;So;0;L;;;;;N;;;;;\n\
                    F8FF;<Private Use, Last>;So;0;L;;;;;N;;;;;\n\
                    FF0B;FULLWIDTH PLUS SIGN;Sm;0;ES;<wide> 002B;;;;N;;;;;\n";
        // ASCII (+) and the signs that read as punctuation (minus,
        // fullwidth plus) stay out.
        let got = entries(text);
        assert_eq!(
            got,
            vec![
                ok('£', "pound"),
                ok('×', "multiplication"),
                ok('☢', "radioactive"),
                ok('⬣', "horizontal hexagon"),
            ]
        );
        let lu: Categories = "Lu".parse().unwrap();
        let letters: Vec<_> = Reader::new(text.as_bytes(), lu).collect();
        assert_eq!(letters.len(), 1);
    }

    #[test]
    fn reports_each_bad_line_with_its_number_and_goes_on() {
        let text = "2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n\
                    26XX;BAD HEX;So;0;ON;;;;;N;;;;;\n\
                    D800;SURROGATE;So;0;ON;;;;;N;;;;;\n\
                    110000;TOO BIG;So;0;ON;;;;;N;;;;;\n\
                    2604;;So;0;ON;;;;;N;;;;;\n\
                    2605;MISSING FIELDS;So\n\
                    2603;SNOWMAN AGAIN;So;0;ON;;;;;N;;;;;\n\
                    2606;LAST ONE;So;0;ON;;;;;N;;;;;\n";
        let got = entries(text);
        assert_eq!(got.len(), 8);
        assert!(got[0].is_ok());
        assert!(
            got[1]
                .as_ref()
                .unwrap_err()
                .starts_with("line 2: code point '26XX'")
        );
        assert!(
            got[2]
                .as_ref()
                .unwrap_err()
                .contains("line 3: code point U+D800 is not a Unicode scalar")
        );
        assert!(
            got[3]
                .as_ref()
                .unwrap_err()
                .contains("line 4: code point U+110000")
        );
        assert_eq!(
            got[4].as_ref().unwrap_err(),
            "line 5: the name field is empty"
        );
        assert!(
            got[5]
                .as_ref()
                .unwrap_err()
                .starts_with("line 6: expected 15 fields")
        );
        assert_eq!(
            got[6].as_ref().unwrap_err(),
            "line 7: code point U+2603 appears twice (first on line 1)"
        );
        assert!(got[7].is_ok());
    }

    #[test]
    fn accepts_crlf_and_a_byte_order_mark() {
        let text = "\u{FEFF}2603;SNOWMAN;So;0;ON;;;;;N;;;;;\r\n2622;RADIOACTIVE SIGN;So;0;ON;;;;;N;;;;;\r\n";
        let got = entries(text);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], ok('☃', "snowman"));
        assert_eq!(got[1], ok('☢', "radioactive"));
    }

    #[test]
    fn a_cut_off_last_line_is_reported_as_truncated() {
        let text = "2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n2622;RADIOAC";
        let got = entries(text);
        assert_eq!(
            got[1].as_ref().unwrap_err(),
            "line 2: the file ends in the middle of a line (truncated?)"
        );
        // A complete last line without a newline is fine.
        let got = entries("2603;SNOWMAN;So;0;ON;;;;;N;;;;;");
        assert_eq!(got, vec![ok('☃', "snowman")]);
    }

    #[test]
    fn an_overlong_line_is_an_error_not_a_buffer_that_grows() {
        let text = format!(
            "{}\n2603;SNOWMAN;So;0;ON;;;;;N;;;;;\n",
            "x".repeat(MAX_LINE_BYTES * 3)
        );
        let got = entries(&text);
        assert_eq!(
            got[0].as_ref().unwrap_err(),
            &format!("line 1: the line is longer than {MAX_LINE_BYTES} bytes")
        );
        assert_eq!(got[1], ok('☃', "snowman"));
    }

    #[test]
    fn category_codes_match_the_data_file() {
        assert_eq!(category_of('☃'), "So");
        assert_eq!(category_of('+'), "Sm");
        assert_eq!(category_of('a'), "Ll");
        assert_eq!(category_of('\u{301}'), "Mn");
        let file = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/UnicodeData.txt"
        ))
        .unwrap();
        // Other categories moved between Unicode 15 and the crate's
        // version (U+0295 is Lo now, Ll then); every symbol stayed So.
        for line in file
            .lines()
            .map(|l| parse_line(l).unwrap())
            .filter(|l| l.is_named() && l.category == "So")
        {
            assert_eq!(category_of(line.ch), "So", "U+{:04X}", line.ch as u32);
        }
    }

    #[test]
    fn categories_parse_and_reject_unknown_codes() {
        assert_eq!("So,Sm".parse::<Categories>().unwrap().to_string(), "So,Sm");
        assert_eq!(" So , So ".parse::<Categories>().unwrap().to_string(), "So");
        assert!(
            "Xx".parse::<Categories>()
                .unwrap_err()
                .contains("'Xx' is not a Unicode general category")
        );
        assert!("".parse::<Categories>().is_err());
    }

    #[test]
    fn the_shipped_file_has_the_default_table() {
        let file = std::fs::File::open(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/UnicodeData.txt"
        ))
        .unwrap();
        let all: Vec<Entry> = Reader::new(std::io::BufReader::new(file), Categories::default())
            .collect::<Result<_, _>>()
            .unwrap();
        // 6,634 So, 60 Sc and 922 Sm characters.
        assert_eq!(all.len(), 7616);
        let name = |c: char| all.iter().find(|e| e.ch == c).map(|e| e.name.as_str());
        assert_eq!(name('⬣'), Some("horizontal hexagon"));
        assert_eq!(name('〠'), Some("postal mark face"));
        assert_eq!(name('❤'), Some("heavy heart"));
        assert_eq!(name('⚰'), Some("coffin"));
        assert_eq!(name('€'), Some("euro"));
        assert_eq!(name('≤'), Some("less-than or equal to"));
        assert_eq!(name('−'), None);
    }
}
