//! Persian's model of the vowels it does not write
//! ([`slugd_engine::readers::persian`]), made from two packages a user
//! installs, never from slugd's own files: Debian's `myspell-fa` (the
//! words, `--persian-words`) and `espeak-ng` (what they sound like, run as
//! a program over the list's stems, two at a time). The loader stores the
//! model with the table; the in-process table makes it at start.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use slugd_engine::readers::persian::{self, VowelModel};

/// Where Debian's `myspell-fa` puts its word list.
pub const DEFAULT_WORDS: &str = "/usr/share/hunspell/fa_IR.dic";

/// How to get what the model is made from.
pub const HOW_TO_GET: &str = "install Debian's myspell-fa and espeak-ng (apt-get install myspell-fa espeak-ng, or scripts/dictionaries.sh)";

/// Words sent to one espeak-ng at a time.
const BATCH: usize = 2_000;

/// The longest one espeak-ng may take over a batch (it takes a second or
/// two): past it, it is stopped and the model not made.
const BATCH_TIME: Duration = Duration::from_secs(120);

/// The fewest words espeak-ng must read for a model to be made.
const MIN_WORDS: usize = 1_000;

/// Why the model could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PersianError {
    /// The word list is not there.
    #[error("no Persian word list at {path}")]
    NoWords {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The word list could not be read.
    #[error("cannot read the Persian word list {path}")]
    Read {
        /// The list.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// espeak-ng is not installed.
    #[error("espeak-ng is not installed")]
    NoEspeak,
    /// espeak-ng failed.
    #[error("espeak-ng failed to read Persian: {0}")]
    Espeak(String),
}

impl PersianError {
    /// Whether a package is missing (a warning: Persian is then read as
    /// before), not broken.
    pub fn is_missing(&self) -> bool {
        matches!(self, PersianError::NoWords { .. } | PersianError::NoEspeak)
    }
}

/// The model, from the word list at `words` read by espeak-ng. Blocking:
/// it reads a file and runs espeak-ng for some seconds.
pub fn build(words: &Path) -> Result<VowelModel, PersianError> {
    let started = Instant::now();
    let stems = persian::stems(&read_words(words)?);
    let read = espeak_all(&stems)?;
    let pairs: Vec<(String, String)> = stems
        .into_iter()
        .zip(read)
        .filter_map(|(word, ipa)| Some((word, persian::fold_ipa(&ipa?)?)))
        .filter(|(_, ascii)| !ascii.is_empty())
        .collect();
    if pairs.len() < MIN_WORDS {
        return Err(PersianError::Espeak(format!(
            "it read {} of the list's words; a model needs {MIN_WORDS} at least",
            pairs.len()
        )));
    }
    let model = persian::train(&pairs);
    tracing::info!(
        words = pairs.len(),
        contexts = model.entries(),
        seconds = started.elapsed().as_secs_f64(),
        "Persian's vowels learnt from espeak-ng"
    );
    Ok(model)
}

/// The words of a hunspell list, [`persian::normalized`], a line each (a
/// count on the list's first line, then a word a line, each with its
/// flags after a `/`). Read a line at a time.
fn read_words(path: &Path) -> Result<String, PersianError> {
    let read_error = |source| PersianError::Read {
        path: path.to_owned(),
        source,
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(PersianError::NoWords {
                path: path.to_owned(),
            });
        }
        Err(e) => return Err(read_error(e)),
    };
    let mut words = String::new();
    for line in BufReader::new(file).lines().skip(1) {
        let line = line.map_err(read_error)?;
        let word = line.split('/').next().unwrap_or("").trim();
        if !word.is_empty() {
            words.push_str(&persian::normalized(word));
            words.push('\n');
        }
    }
    Ok(words)
}

/// espeak-ng's IPA for each of `words`, in order (`None` where it gave
/// none), in batches, two espeak-ngs at a time.
fn espeak_all(words: &[String]) -> Result<Vec<Option<String>>, PersianError> {
    let batches: Vec<&[String]> = words.chunks(BATCH).collect();
    let mut read = Vec::with_capacity(words.len());
    for pair in batches.chunks(2) {
        let answers = std::thread::scope(|scope| {
            let running: Vec<_> = pair
                .iter()
                .map(|batch| scope.spawn(move || espeak(batch)))
                .collect();
            running
                .into_iter()
                .map(|r| {
                    r.join().unwrap_or_else(|_| {
                        Err(PersianError::Espeak("a reader thread panicked".into()))
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
fn espeak(words: &[String]) -> Result<Vec<Option<String>>, PersianError> {
    let input = words.join("\n\n") + "\n";
    let mut child = Command::new("espeak-ng")
        .args(["-v", "fa", "-q", "--ipa"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => PersianError::NoEspeak,
            _ => PersianError::Espeak(e.to_string()),
        })?;
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
                return Err(PersianError::Espeak(format!(
                    "it took over {} s for {} words, and was stopped",
                    BATCH_TIME.as_secs(),
                    words.len()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(PersianError::Espeak(e.to_string())),
        }
    };
    let _ = writer.join();
    let output = reader
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the reader thread panicked")))
        .map_err(|e| PersianError::Espeak(e.to_string()))?;
    if !status.success() {
        return Err(PersianError::Espeak(format!("it exited with {status}")));
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
        return Err(PersianError::Espeak(format!(
            "it printed nothing for {} words",
            words.len()
        )));
    }
    let (first, second) = words.split_at(words.len() / 2);
    let mut read = espeak(first)?;
    read.extend(espeak(second)?);
    Ok(read)
}
