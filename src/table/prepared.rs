//! Prepared models: each model of vowels is made once (espeak-ng over a
//! word list, seconds to minutes) into a file of a cache directory, and
//! read from that file by every later start, of `serve`, `slugify`,
//! `load` and `prepare` alike, in milliseconds.
//!
//! A file is named by what its model was made from: the SHA-256 of each
//! source (the word lists, espeak-ng's dictionary of the language), the
//! version line espeak-ng prints and the file format's version, hashed
//! together ([`Identity`]). A changed word list, espeak-ng or format gives
//! another name, so a stale file is never read; it is left where it is
//! (a cache directory is the user's to clear).
//!
//! A file carries a SHA-256 of everything after its checksum line, and the
//! identity it was made for: one that does not match (truncated, damaged,
//! or another model's) is made again and the log says so. A file is
//! written to a temporary name in the same directory and renamed, so two
//! processes starting at once never read half of one. A directory that
//! cannot be written means the model is made in memory, and the log says
//! so once a process.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use sha2::{Digest, Sha256};

use super::vowels::{self, VowelsError};
use slugd_engine::readers::vowels::names::{self, Names};
use slugd_engine::readers::vowels::{Language, VowelModel, VowelModels, WordList};

/// The first line of a prepared file.
const MAGIC: &str = "slugd prepared model";

/// The version of the file's format (its lines, and the model's text form
/// inside): a new one names every file anew.
const FORMAT: u32 = 1;

/// Where prepared files go by default: `$XDG_CACHE_HOME/slugd`, or
/// `$HOME/.cache/slugd` when that is unset; `None` without either.
pub fn default_dir() -> Option<PathBuf> {
    let nonempty = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = nonempty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("slugd"));
    }
    nonempty("HOME").map(|home| PathBuf::from(home).join(".cache").join("slugd"))
}

/// What a model was made from, as text (a line a source) and as the file
/// name it is kept under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The language.
    pub language: Language,
    /// `language fa`, `source PATH SHA256`..., `espeak-ng VERSION`,
    /// `espeak-ng-dict PATH SHA256`, a line each.
    text: String,
}

impl Identity {
    /// What `language`'s model would be made from now: the files of its
    /// word list at `words` and espeak-ng. Reads each source whole to hash
    /// it (milliseconds) and asks espeak-ng its version; a source or
    /// espeak-ng missing is [`VowelsError::is_missing`].
    pub fn of(language: Language, words: &Path) -> Result<Identity, VowelsError> {
        let mut text = format!("language {}\nformat {FORMAT}\n", language.code());
        for source in vowels::sources(language, words) {
            let sha = sha256_file(&source).map_err(|e| vowels::open_error(language, &source, e))?;
            let _ = writeln!(text, "source {} {sha}", source.display());
        }
        if language.row().words == WordList::Readings {
            // Read by a teacher once, into the file itself: no espeak-ng.
            return Ok(Identity { language, text });
        }
        let (version, data) = espeak_version(language)?;
        let _ = writeln!(text, "espeak-ng {version}");
        if let Some(data) = data {
            // What espeak-ng reads the language with: its dictionary.
            let dict = data.join(format!("{}_dict", language.code()));
            match sha256_file(&dict) {
                Ok(sha) => {
                    let _ = writeln!(text, "espeak-ng-dict {} {sha}", dict.display());
                }
                Err(_) => {
                    let _ = writeln!(text, "espeak-ng-dict {} none", dict.display());
                }
            }
        }
        Ok(Identity { language, text })
    }

    /// The file's name: the language and the first 128 bits of the
    /// identity's SHA-256.
    pub fn file_name(&self) -> String {
        let sha = hex(&Sha256::digest(self.text.as_bytes()));
        format!("vowels-{}-{}.model", self.language.code(), &sha[..32])
    }
}

/// How a model was had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Read from its prepared file.
    Read,
    /// Made now and written to its prepared file.
    Made,
    /// Made now, in memory only (no cache directory, or one that cannot
    /// be written).
    InMemory,
}

impl Source {
    /// As the `prepare` report says it.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Read => "already prepared",
            Source::Made => "prepared now",
            Source::InMemory => "made in memory (not written)",
        }
    }
}

/// A model and where it came from.
#[derive(Debug)]
pub struct Prepared {
    /// The model.
    pub model: VowelModel,
    /// Read or made.
    pub source: Source,
    /// Its file, when there is one.
    pub path: Option<PathBuf>,
}

/// The models of `languages`, each from its words, one at a time on a
/// blocking thread: read from its prepared file in `cache` when there is
/// one, else made (seconds to minutes of espeak-ng) and written there
/// . A language whose packages are missing gets a
/// warning that says how to get them, and no model: it is read without
/// vowel marks as by rules 5. espeak-ng failing is an error.
pub async fn prepare_all(
    languages: &[(Language, PathBuf)],
    cache: Option<&Path>,
) -> Result<Vec<Prepared>, VowelsError> {
    let mut models = Vec::new();
    for (language, words) in languages.iter().cloned() {
        let cache = cache.map(Path::to_owned);
        let made = tokio::task::spawn_blocking(move || model(language, &words, cache.as_deref()))
            .await
            .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()));
        match made {
            Ok(prepared) => models.push(prepared),
            Err(e) if e.is_missing() => {
                tracing::warn!(
                    error = %e,
                    "no model of {}'s vowels: {} without vowel marks is read as by rules 5; to read it: {}",
                    language.name(),
                    language.name(),
                    vowels::how_to_get(language)
                );
            }
            Err(e) => return Err(e),
        }
    }
    Ok(models)
}

/// [`prepare_all`]'s models, as a table holds them.
pub async fn build_all(
    languages: &[(Language, PathBuf)],
    cache: Option<&Path>,
) -> Result<VowelModels, VowelsError> {
    Ok(prepare_all(languages, cache)
        .await?
        .into_iter()
        .fold(VowelModels::default(), |models, prepared| {
            models.with(Arc::new(prepared.model))
        }))
}

/// `language`'s model from `words`: read from its prepared file in `cache`
/// when there is a sound one, else made ([`vowels::build`]) and written
/// there. Blocking.
pub fn model(
    language: Language,
    words: &Path,
    cache: Option<&Path>,
) -> Result<Prepared, VowelsError> {
    let identity = Identity::of(language, words)?;
    let Some(dir) = cache else {
        return made_in_memory(language, words);
    };
    let path = dir.join(identity.file_name());
    let started = Instant::now();
    match read(&path, &identity) {
        Ok(Some(model)) => {
            tracing::info!(
                language = language.name(),
                path = %path.display(),
                contexts = model.entries(),
                ms = started.elapsed().as_secs_f64() * 1e3,
                "prepared model of vowels read"
            );
            return Ok(Prepared {
                model,
                source: Source::Read,
                path: Some(path),
            });
        }
        Ok(None) => {}
        Err(why) => tracing::warn!(
            language = language.name(),
            path = %path.display(),
            "the prepared model of {}'s vowels cannot be used ({why}): making it again",
            language.name()
        ),
    }
    let model = vowels::build(language, words)?;
    match write(dir, &path, &identity, &model) {
        Ok(()) => {
            tracing::info!(
                language = language.name(),
                path = %path.display(),
                "prepared model of vowels written: later starts read it"
            );
            Ok(Prepared {
                model,
                source: Source::Made,
                path: Some(path),
            })
        }
        Err(e) => {
            warn_unwritable(dir, &e);
            Ok(Prepared {
                model,
                source: Source::InMemory,
                path: None,
            })
        }
    }
}

/// [`model`] without a directory to keep it in.
fn made_in_memory(language: Language, words: &Path) -> Result<Prepared, VowelsError> {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            "no cache directory (neither $XDG_CACHE_HOME nor $HOME is set, and no --cache-dir): models of vowels are made in memory at every start"
        );
    }
    Ok(Prepared {
        model: vowels::build(language, words)?,
        source: Source::InMemory,
        path: None,
    })
}

/// Says once a process that `dir` cannot be written.
fn warn_unwritable(dir: &Path, e: &io::Error) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            dir = %dir.display(),
            error = %e,
            "cannot write prepared models of vowels there: they are made in memory at every start; give --cache-dir (SLUGD_CACHE_DIR) a directory this user may write"
        );
    }
}

/// The model in `path`, made for `identity`: `None` when there is no such
/// file, an error (why) when there is one that does not hold it whole.
fn read(path: &Path, identity: &Identity) -> Result<Option<VowelModel>, String> {
    let mut bytes = Vec::new();
    match std::fs::File::open(path) {
        Ok(mut file) => file
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read it: {e}"))?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    // The two header lines, then the body the checksum is of: checked as
    // bytes, before anything is read as text.
    let mut parts = bytes.splitn(3, |&b| b == b'\n');
    let (Some(magic), Some(sum), Some(body)) = (parts.next(), parts.next(), parts.next()) else {
        return Err("it has no header".into());
    };
    if magic != MAGIC.as_bytes() {
        return Err("it is not a prepared model".into());
    }
    let sum = sum.strip_prefix(b"sha256 ").ok_or("it has no checksum")?;
    if hex(&Sha256::digest(body)).as_bytes() != sum {
        return Err("its checksum does not match: truncated or damaged".into());
    }
    let body = std::str::from_utf8(body).map_err(|_| "it is not UTF-8".to_owned())?;
    let (made_for, model) = body.split_once("\n\n").ok_or("it has no model")?;
    if made_for != identity.text.trim_end() {
        return Err("it was made from other sources".into());
    }
    let model = decode(model)?;
    if model.language() != identity.language {
        return Err(format!("it holds a model of {}", model.language().name()));
    }
    Ok(Some(model))
}

/// Writes `model`, made for `identity`, to `path` in `dir`: to a
/// temporary file first, synced, then renamed.
fn write(dir: &Path, path: &Path, identity: &Identity, model: &VowelModel) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let body = format!("{}\n\n{}", identity.text.trim_end(), encode(model));
    let sum = hex(&Sha256::digest(body.as_bytes()));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("model");
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let temporary = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(format!("{MAGIC}\nsha256 {sum}\n").as_bytes())?;
        file.write_all(body.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// `model` as a prepared file holds it: its text form, then its lexicon's
/// where it has one.
fn encode(model: &VowelModel) -> String {
    let mut text = model.encode();
    if !model.names().is_empty() {
        text.push_str(&model.names().encode());
    }
    text
}

/// The model of [`encode`]'s text.
fn decode(text: &str) -> Result<VowelModel, String> {
    let marker = format!("\n{}\n", names::FORMAT);
    match text.find(&marker) {
        None => VowelModel::decode(text),
        Some(at) => Ok(VowelModel::decode(&text[..=at])?
            .with_names(Names::decode(&text[at + 1..]).map_err(|e| format!("its names: {e}"))?)),
    }
}

/// The SHA-256 of the file at `path`, in hex, read a block at a time.
fn sha256_file(path: &Path) -> io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut block = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut block)?;
        if n == 0 {
            break;
        }
        hasher.update(&block[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// espeak-ng's version line (`eSpeak NG text-to-speech: 1.51  Data at:
/// ...`) and its data directory, from `espeak-ng --version`.
fn espeak_version(language: Language) -> Result<(String, Option<PathBuf>), VowelsError> {
    let out = Command::new("espeak-ng")
        .arg("--version")
        .output()
        .map_err(|e| vowels::espeak_error(language, &e))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("").trim().to_owned();
    if !out.status.success() || line.is_empty() {
        return Err(VowelsError::Espeak {
            language,
            why: format!("`espeak-ng --version` said nothing ({})", out.status),
        });
    }
    let data = line
        .split_once("Data at:")
        .map(|(_, dir)| PathBuf::from(dir.trim()));
    Ok((line, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> Identity {
        Identity {
            language: Language::Persian,
            text: "language fa\nformat 1\nsource /w abc\nespeak-ng test\n".into(),
        }
    }

    fn a_model() -> VowelModel {
        let pairs: Vec<(String, String)> = [("تهران", "tehran"), ("شیراز", "shiraz")]
            .iter()
            .map(|(w, r)| ((*w).to_owned(), (*r).to_owned()))
            .collect();
        slugd_engine::readers::vowels::train(Language::Persian, &pairs)
    }

    #[test]
    fn a_written_model_reads_back_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(identity().file_name());
        assert_eq!(read(&path, &identity()).unwrap(), None, "no file yet");
        write(dir.path(), &path, &identity(), &a_model()).unwrap();
        assert_eq!(read(&path, &identity()).unwrap(), Some(a_model()));
        // Nothing but the file is left in the directory.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_damaged_truncated_or_foreign_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(identity().file_name());
        write(dir.path(), &path, &identity(), &a_model()).unwrap();
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() - 7]).unwrap();
        let why = read(&path, &identity()).unwrap_err();
        assert!(why.contains("checksum"), "{why}");
        let mut flipped = whole.clone();
        let last = flipped.len() - 2;
        flipped[last] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(read(&path, &identity()).unwrap_err().contains("checksum"));
        std::fs::write(&path, &whole).unwrap();
        let other = Identity {
            text: identity().text.replace("abc", "abd"),
            ..identity()
        };
        assert!(read(&path, &other).unwrap_err().contains("other sources"));
        assert_ne!(other.file_name(), identity().file_name());
    }
}
