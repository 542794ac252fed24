//! The models of the vowels Persian, Urdu, Arabic and Hebrew do not write
//! ([`slugd_engine::readers::vowels`]), each made from packages a user
//! installs, never from slugd's own files: the language's words (its row
//! of [`slugd_engine::readers::vowels::MODELS`] says which, where and how
//! to get them; `--words LANG=PATH`) and `espeak-ng` (what they sound
//! like, run as a program over the words, two at a time), or, for Hebrew,
//! readings a teacher wrote once (scripts/dictionaries.sh); Arabic's with
//! its lexicon of names ([`read_names`]). Each is made once into a
//! prepared file ([`super::prepared`]) that later starts read; the loader
//! stores the models with the table, the in-process table holds them.

use std::collections::BTreeSet;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use slugd_engine::readers::vowels::names::Names;
use slugd_engine::readers::vowels::{self, Language, VowelModel, WordList};

/// How to get what the model of `language` is made from.
pub const fn how_to_get(language: Language) -> &'static str {
    language.row().how_to_get
}

/// Words sent to one espeak-ng at a time.
const BATCH: usize = 2_000;

/// The longest one espeak-ng may take over a batch (it takes a second or
/// two): past it, it is stopped and the model not made.
const BATCH_TIME: Duration = Duration::from_secs(120);

/// The fewest words espeak-ng must read for a model to be made.
const MIN_WORDS: usize = 1_000;

/// Why a model could not be made.
#[derive(Debug, thiserror::Error)]
pub enum VowelsError {
    /// The word list is not there.
    #[error("no {} word list at {path}", language.name())]
    NoWords {
        /// Its language.
        language: Language,
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The word list could not be read.
    #[error("cannot read the {} word list {path}: {why}", language.name())]
    Read {
        /// Its language.
        language: Language,
        /// The list.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// espeak-ng is not installed.
    #[error("espeak-ng is not installed")]
    NoEspeak,
    /// espeak-ng failed.
    #[error("espeak-ng failed to read {}: {why}", language.name())]
    Espeak {
        /// The language it was reading.
        language: Language,
        /// Why.
        why: String,
    },
}

impl VowelsError {
    /// Whether a package is missing (a warning: the language is then read as
    /// before), not broken.
    pub fn is_missing(&self) -> bool {
        matches!(self, VowelsError::NoWords { .. } | VowelsError::NoEspeak)
    }
}

/// The model of `language`, from its words at `words` read by espeak-ng.
/// Blocking: it reads files and runs espeak-ng for some seconds.
pub fn build(language: Language, words: &Path) -> Result<VowelModel, VowelsError> {
    let started = Instant::now();
    let (words, vocalized) = match language.row().words {
        WordList::Hunspell {
            stems: true,
            vocalized,
        } => (vowels::stems(&read_hunspell(language, words)?), vocalized),
        WordList::Hunspell {
            stems: false,
            vocalized,
        } => (distinct(&read_hunspell(language, words)?), vocalized),
        WordList::JsonFolder(files) => (read_json_words(language, words, files)?, false),
        WordList::Readings => {
            let (words, read) = read_readings(language, words)?;
            return learn(language, words, read, false, started);
        }
    };
    let read = espeak_all(language, &words)?;
    learn(language, words, read, vocalized, started)
}

/// The model of `language` learnt from `words` and their readings (IPA,
/// `None` where the teacher gave none), with `vocalized` only from those
/// with vowels; its lexicon of names added where it has one.
fn learn(
    language: Language,
    words: Vec<String>,
    read: Vec<Option<String>>,
    vocalized: bool,
    started: Instant,
) -> Result<VowelModel, VowelsError> {
    let pairs: Vec<(String, String)> = words
        .into_iter()
        .zip(read)
        .filter_map(|(word, ipa)| Some((word, vowels::fold_ipa_for(language, &ipa?)?)))
        .filter(|(_, ascii)| !ascii.is_empty())
        // espeak-ng's Arabic gives vowels only to the words of its own
        // dictionary, the rest as consonants, which would teach the model
        // to write none.
        .filter(|(_, ascii)| !vocalized || self::vocalized(ascii))
        .collect();
    if pairs.len() < MIN_WORDS {
        return Err(VowelsError::Espeak {
            language,
            why: format!(
                "it read {} of the list's words; a model needs {MIN_WORDS} at least",
                pairs.len()
            ),
        });
    }
    let mut model = vowels::train(language, &pairs);
    if let Some(path) = names_path(language) {
        match read_names(&path) {
            Ok(names) => {
                tracing::info!(
                    language = language.name(),
                    names = names.len(),
                    path = %path.display(),
                    "lexicon of names read"
                );
                model = model.with_names(names);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => tracing::warn!(
                path = %path.display(),
                "no lexicon of {} names: rules 7 read names as other words; to read them as their bearers write them: {NAMES_HOW_TO_GET}",
                language.name()
            ),
            Err(e) => {
                return Err(VowelsError::Read {
                    language,
                    path,
                    why: e.to_string(),
                });
            }
        }
    }
    tracing::info!(
        language = language.name(),
        words = pairs.len(),
        contexts = model.entries(),
        seconds = started.elapsed().as_secs_f64(),
        "vowels learnt"
    );
    Ok(model)
}

/// The files `language`'s model is made from, given its `--words` path:
/// the hunspell list itself, or the word lists in its folder; and its
/// lexicon of names, where it has one and it is installed.
pub fn sources(language: Language, words: &Path) -> Vec<PathBuf> {
    let mut sources = match language.row().words {
        WordList::Hunspell { .. } | WordList::Readings => vec![words.to_owned()],
        WordList::JsonFolder(files) => files.iter().map(|f| words.join(f)).collect(),
    };
    sources.extend(names_path(language).filter(|p| p.is_file()));
    sources
}

/// Where Arabic's lexicon of names is read from by default: the attested
/// spellings of PyPI's arabic-name-romanizer 0.2.0, a row a spelling,
/// which scripts/dictionaries.sh puts there.
pub const NAMES_PATH: &str = "/usr/local/share/slugd/arabic-names/units.tsv";

/// How to get Arabic's lexicon of names.
pub const NAMES_HOW_TO_GET: &str = "run scripts/dictionaries.sh as root, which puts arabic-name-romanizer 0.2.0's spellings (PyPI, MIT; Wikidata's names, CC0) in /usr/local/share/slugd/arabic-names, or set SLUGD_ARABIC_NAMES to such a file";

/// Where `language`'s lexicon of names is read from, for a language that
/// has one (Arabic): $SLUGD_ARABIC_NAMES, or [`NAMES_PATH`].
pub fn names_path(language: Language) -> Option<PathBuf> {
    (language == Language::Arabic).then(|| {
        std::env::var_os("SLUGD_ARABIC_NAMES")
            .filter(|v| !v.is_empty())
            .map_or_else(|| PathBuf::from(NAMES_PATH), PathBuf::from)
    })
}

/// The lexicon learnt from the attested spellings at `path`: a line a
/// spelling, `arabic TAB latin TAB country TAB bearers` (a first line of
/// those names is a header), read a line at a time.
pub fn read_names(path: &Path) -> io::Result<Names> {
    let file = std::fs::File::open(path)?;
    let mut rows: Vec<(String, String, String, u32)> = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line?;
        if n == 0 && line.starts_with("arabic\t") {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [arabic, latin, country, bearers] = fields[..] else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line {}: not arabic, latin, country and bearers: {line:?}",
                    n + 1
                ),
            ));
        };
        let bearers = bearers.parse().map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line {}: bearers not a number: {line:?}", n + 1),
            )
        })?;
        rows.push((arabic.into(), latin.into(), country.into(), bearers));
    }
    Ok(Names::learn(rows.iter().map(|(a, l, c, n)| {
        (a.as_str(), l.as_str(), c.as_str(), *n)
    })))
}

/// Why espeak-ng could not be run for `language`: [`VowelsError::NoEspeak`]
/// when it is not installed.
pub(super) fn espeak_error(language: Language, e: &io::Error) -> VowelsError {
    match e.kind() {
        io::ErrorKind::NotFound => VowelsError::NoEspeak,
        _ => VowelsError::Espeak {
            language,
            why: e.to_string(),
        },
    }
}

/// Why `path`, a source of `language`'s model, cannot be read:
/// [`VowelsError::NoWords`] when it is not there.
pub(super) fn open_error(language: Language, path: &Path, e: io::Error) -> VowelsError {
    match e.kind() {
        io::ErrorKind::NotFound => VowelsError::NoWords {
            language,
            path: path.to_owned(),
        },
        _ => VowelsError::Read {
            language,
            path: path.to_owned(),
            why: e.to_string(),
        },
    }
}

/// The words of `list` (a word a line), each once, sorted.
fn distinct(list: &str) -> Vec<String> {
    let words: BTreeSet<&str> = list.lines().filter(|w| !w.is_empty()).collect();
    words.into_iter().map(str::to_owned).collect()
}

/// Whether `ascii`, a word's reading, has its vowels: no three letters in
/// a row but vowels and `y` (`sh kh th dh gh` one letter each), and a
/// vowel in every three letters or so (`kitab` yes, `mrhba` no).
fn vocalized(ascii: &str) -> bool {
    let folded = ascii
        .replace("sh", "S")
        .replace("kh", "K")
        .replace("th", "T")
        .replace("dh", "D")
        .replace("gh", "G");
    let is_vowel = |c: char| matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y');
    let (mut run, mut vowels, mut letters) = (0, 0, 0);
    for c in folded.chars() {
        letters += 1;
        if is_vowel(c) {
            vowels += 1;
            run = 0;
        } else {
            run += 1;
            if run >= 3 {
                return false;
            }
        }
    }
    letters > 0 && vowels * 10 >= letters * 3
}

/// `path` opened, or why not: [`VowelsError::NoWords`] when it is not
/// there.
fn open(language: Language, path: &Path) -> Result<std::fs::File, VowelsError> {
    std::fs::File::open(path).map_err(|e| open_error(language, path, e))
}

/// The words of a hunspell list, [`Language::normalized`], a line each (a
/// count on the list's first line, then a word a line, each with its
/// flags after a `/`). Read a line at a time.
fn read_hunspell(language: Language, path: &Path) -> Result<String, VowelsError> {
    let file = open(language, path)?;
    let mut words = String::new();
    for line in BufReader::new(file).lines().skip(1) {
        let line = line.map_err(|e| VowelsError::Read {
            language,
            path: path.to_owned(),
            why: e.to_string(),
        })?;
        let word = line.split('/').next().unwrap_or("").trim();
        if !word.is_empty() {
            words.push_str(&language.normalized(word));
            words.push('\n');
        }
    }
    Ok(words)
}

/// The words of the folder `dir`'s JSON `files`, [`Language::normalized`],
/// each once, in order: each object's keys and string values (LughaatNLP's
/// `tokenizer.json` maps its tokenizer's words to numbers,
/// `Urdu_Lemma.json` words to their lemmas), those of the script's letters
/// alone.
fn read_json_words(
    language: Language,
    dir: &Path,
    files: &[&str],
) -> Result<Vec<String>, VowelsError> {
    let read = |name: &str| -> Result<serde_json::Map<String, serde_json::Value>, VowelsError> {
        let path = dir.join(name);
        let file = open(language, &path)?;
        serde_json::from_reader(BufReader::new(file)).map_err(|e| VowelsError::Read {
            language,
            path,
            why: format!("not a JSON object of words: {e}"),
        })
    };
    let mut words = BTreeSet::new();
    for file in files {
        for (word, value) in read(file)? {
            words.insert(language.normalized(&word));
            if let Some(value) = value.as_str() {
                words.insert(language.normalized(value));
            }
        }
    }
    Ok(words
        .into_iter()
        .filter(|w| !w.is_empty() && w.chars().all(vowels::is_letter))
        .collect())
}

/// The words of a file of readings (`word TAB IPA` a line, as a teacher
/// wrote them), [`Language::normalized`], and their readings, in order.
/// Read a line at a time.
fn read_readings(
    language: Language,
    path: &Path,
) -> Result<(Vec<String>, Vec<Option<String>>), VowelsError> {
    let file = open(language, path)?;
    let (mut words, mut read) = (Vec::new(), Vec::new());
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| VowelsError::Read {
            language,
            path: path.to_owned(),
            why: e.to_string(),
        })?;
        let Some((word, ipa)) = line.split_once('\t') else {
            return Err(VowelsError::Read {
                language,
                path: path.to_owned(),
                why: format!("line {}: not a word, a tab and its reading", n + 1),
            });
        };
        words.push(language.normalized(word));
        read.push(Some(ipa.trim().to_owned()).filter(|ipa| !ipa.is_empty()));
    }
    Ok((words, read))
}

/// espeak-ng's IPA for each of `words`, in order (`None` where it gave
/// none), in batches, two espeak-ngs at a time.
fn espeak_all(language: Language, words: &[String]) -> Result<Vec<Option<String>>, VowelsError> {
    let batches: Vec<&[String]> = words.chunks(BATCH).collect();
    let mut read = Vec::with_capacity(words.len());
    for pair in batches.chunks(2) {
        let answers = std::thread::scope(|scope| {
            let running: Vec<_> = pair
                .iter()
                .map(|batch| scope.spawn(move || espeak(language, batch)))
                .collect();
            running
                .into_iter()
                .map(|r| {
                    r.join().unwrap_or_else(|_| {
                        Err(VowelsError::Espeak {
                            language,
                            why: "a reader thread panicked".into(),
                        })
                    })
                })
                .collect::<Vec<_>>()
        });
        for answer in answers {
            read.extend(answer?);
        }
    }
    Ok(read)
}

/// espeak-ng's IPA for each of `words`: one word a paragraph, one line of
/// IPA each; a batch whose lines do not match its words (espeak-ng reads
/// some text as two clauses) is read again in halves, down to one word.
fn espeak(language: Language, words: &[String]) -> Result<Vec<Option<String>>, VowelsError> {
    let input = words.join("\n\n") + "\n";
    let mut child = Command::new("espeak-ng")
        .args(["-v", language.code(), "-q", "--ipa"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| espeak_error(language, &e))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let reader = std::thread::spawn(move || {
        let mut read = Vec::new();
        stdout.read_to_end(&mut read).map(|_| read)
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > BATCH_TIME => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(VowelsError::Espeak {
                    language,
                    why: format!(
                        "it took over {} s for {} words, and was stopped",
                        BATCH_TIME.as_secs(),
                        words.len()
                    ),
                });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                return Err(VowelsError::Espeak {
                    language,
                    why: e.to_string(),
                });
            }
        }
    };
    let _ = writer.join();
    let output = reader
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the reader thread panicked")))
        .map_err(|e| VowelsError::Espeak {
            language,
            why: e.to_string(),
        })?;
    if !status.success() {
        return Err(VowelsError::Espeak {
            language,
            why: format!("it exited with {status}"),
        });
    }
    let text = String::from_utf8_lossy(&output);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    if lines.len() == words.len() {
        return Ok(lines.into_iter().map(|l| Some(l.to_owned())).collect());
    }
    if words.len() == 1 {
        return Ok(vec![(!lines.is_empty()).then(|| lines.join(" "))]);
    }
    if lines.is_empty() {
        return Err(VowelsError::Espeak {
            language,
            why: format!("it printed nothing for {} words", words.len()),
        });
    }
    let (first, second) = words.split_at(words.len() / 2);
    let mut read = espeak(language, first)?;
    read.extend(espeak(language, second)?);
    Ok(read)
}
