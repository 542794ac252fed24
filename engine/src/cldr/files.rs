//! Where CLDR's files are and which locales to read: `--cldr` and
//! `--locales` as [`CldrSettings`], the directories looked in when
//! `--cldr` is not given, the locale whose files hold a tag's names (by
//! CLDR's aliases and parents), the paths of a locale's two files, and
//! why they cannot be used, with a hint that fits where it looked.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::locales::ENGLISH;
use crate::builtin::{self, CLDR_NAME};
use crate::locale::file_candidates;

/// The repository's copy of CLDR's English files, which the binary has
/// built in ([`CldrDir::BuiltIn`]): what is read when `--cldr` is not
/// given and only English is asked for, and the first directory looked in
/// for other locales.
pub const DEFAULT_DIR: &str = "data/cldr";

/// Where Debian's `unicode-cldr-core` package puts CLDR.
pub const DEBIAN_DIR: &str = "/usr/share/unicode/cldr/common";

/// Where CLDR's `common/` sits under a system data directory (Debian's
/// `/usr/share`).
const SYSTEM_SUBDIR: &str = "unicode/cldr/common";

/// The system data directories when `XDG_DATA_DIRS` is unset, as the XDG
/// base directory specification says.
const XDG_DATA_DIRS: &str = "/usr/local/share:/usr/share";

/// Which CLDR names a table holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CldrSettings {
    /// Where CLDR's files are.
    pub dir: CldrDir,
    /// Which locales.
    pub locales: LocaleSelection,
    /// When `--cldr` was not given: the directories looked in, in order
    /// (`dir` is one of them), which an error names. Empty when the
    /// directory was given.
    pub searched: Vec<PathBuf>,
}

/// Where CLDR's annotation files are read from: the directory of
/// `--cldr`, or, without one, the English files built into the binary
/// ([`crate::builtin`]). Both go through the same reader.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CldrDir {
    /// The repository's `data/cldr` (English only), built in.
    #[default]
    BuiltIn,
    /// A directory laid out as CLDR's `common/`.
    Path(PathBuf),
}

/// One annotation file of a locale, to read.
#[derive(Debug, Clone)]
pub enum CldrFile {
    /// A file on disk.
    Path(PathBuf),
    /// A built-in file: its name for errors, and its bytes.
    BuiltIn(String, &'static [u8]),
}

impl CldrFile {
    /// The name errors give it.
    pub fn shown(&self) -> String {
        match self {
            CldrFile::Path(path) => path.display().to_string(),
            CldrFile::BuiltIn(name, _) => name.clone(),
        }
    }
}

impl CldrDir {
    /// Whether `tag` has an annotations file here.
    pub fn has(&self, tag: &str) -> bool {
        match self {
            CldrDir::BuiltIn => tag == ENGLISH,
            CldrDir::Path(dir) => annotations_file(dir, tag).is_file(),
        }
    }

    /// The files of `tag` that exist, `annotations/` first, then
    /// `annotationsDerived/` (not every locale has one); an error if
    /// there is no `annotations/` file.
    pub fn files(&self, tag: &str) -> Result<Vec<CldrFile>, CldrError> {
        // Resolved locales have this file; another tag is the caller's
        // mistake, named as the file it lacks.
        let missing = || CldrError::Io {
            path: self.annotations_shown(tag),
            source: std::io::ErrorKind::NotFound.into(),
        };
        match self {
            CldrDir::BuiltIn if tag == ENGLISH => Ok(vec![
                CldrFile::BuiltIn(
                    format!("{CLDR_NAME}: annotations/en.xml"),
                    builtin::CLDR_ANNOTATIONS_EN,
                ),
                CldrFile::BuiltIn(
                    format!("{CLDR_NAME}: annotationsDerived/en.xml"),
                    builtin::CLDR_DERIVED_EN,
                ),
            ]),
            CldrDir::BuiltIn => Err(missing()),
            CldrDir::Path(dir) => {
                let main = annotations_file(dir, tag);
                if !main.is_file() {
                    return Err(missing());
                }
                let derived = derived_file(dir, tag);
                let mut files = vec![CldrFile::Path(main)];
                if derived.is_file() {
                    files.push(CldrFile::Path(derived));
                }
                Ok(files)
            }
        }
    }

    /// How an error names the annotations file of `tag`.
    fn annotations_shown(&self, tag: &str) -> String {
        match self {
            CldrDir::BuiltIn => format!("annotations/{}.xml built in", tag.replace('-', "_")),
            CldrDir::Path(dir) => annotations_file(dir, tag).display().to_string(),
        }
    }
}

/// The directory's path, or the built-in files' name.
impl fmt::Display for CldrDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CldrDir::BuiltIn => f.write_str(CLDR_NAME),
            CldrDir::Path(dir) => dir.display().fmt(f),
        }
    }
}

impl From<PathBuf> for CldrDir {
    fn from(dir: PathBuf) -> Self {
        CldrDir::Path(dir)
    }
}

impl From<&Path> for CldrDir {
    fn from(dir: &Path) -> Self {
        CldrDir::Path(dir.to_owned())
    }
}

impl From<&str> for CldrDir {
    fn from(dir: &str) -> Self {
        CldrDir::Path(dir.into())
    }
}

/// `--locales`: a comma-separated list of CLDR locales, or `all`. English
/// is always added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocaleSelection {
    /// Every locale with an annotations file in the directory.
    All,
    /// These locales (BCP 47 tags, `de`, `de-CH`, `sr-Latn`).
    List(Vec<String>),
}

impl Default for LocaleSelection {
    fn default() -> Self {
        LocaleSelection::List(vec![ENGLISH.to_owned()])
    }
}

impl FromStr for LocaleSelection {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.trim() == "all" {
            return Ok(LocaleSelection::All);
        }
        let mut tags = Vec::new();
        for tag in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let ok = tag
                .split(['-', '_'])
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()));
            if !ok {
                return Err(format!(
                    "{tag:?} is not a locale: write tags like de, pt-BR or sr-Latn, separated by commas, or all"
                ));
            }
            tags.push(tag.replace('_', "-"));
        }
        if tags.is_empty() {
            return Err("no locale given: write tags like de,fr or all".to_owned());
        }
        Ok(LocaleSelection::List(tags))
    }
}

impl fmt::Display for LocaleSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocaleSelection::All => f.write_str("all"),
            LocaleSelection::List(tags) => f.write_str(&tags.join(",")),
        }
    }
}

/// Why CLDR's files cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CldrError {
    /// The directory has no annotations at all.
    #[error("{dir}: no CLDR annotations here (expected {dir}/annotations/*.xml); {hint}")]
    NoAnnotations {
        /// The directory.
        dir: String,
        /// Where to get them.
        hint: String,
    },
    /// A locale asked for has no annotations file, nor has any locale
    /// CLDR files its names under.
    #[error("locale {tag}: no {files} in {dir}; {hint}")]
    NoLocale {
        /// The locale.
        tag: String,
        /// The files looked for (`nb.xml or no.xml`).
        files: String,
        /// Where they were looked for.
        dir: String,
        /// Where to get them.
        hint: String,
    },
    /// `--locales all`, and English is all there is.
    #[error("--locales all would load 1 locale: {why}")]
    EnglishOnly {
        /// Where it looked, and where to get the others.
        why: String,
    },
    /// A file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not the XML CLDR writes.
    #[error("{path}: not a CLDR annotations file: {why}")]
    BadXml {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
}

/// How to get CLDR when it was looked for in `searched`.
fn install_hint() -> String {
    format!(
        "install Debian's unicode-cldr-core (apt-get install unicode-cldr-core), which puts every locale in {DEBIAN_DIR}, or point --cldr (SLUGD_CLDR) at CLDR's common/ directory"
    )
}

impl CldrSettings {
    /// The settings of `locales` when `--cldr` is not given: the first of
    /// the repository's `data/cldr` and `unicode/cldr/common` under each
    /// system data directory (`$XDG_DATA_DIRS`, by default
    /// `/usr/local/share:/usr/share`, so Debian's unicode-cldr-core) that
    /// holds them, or for `all` a locale besides English; `data/cldr` when
    /// none does, and then [`CldrSettings::resolve`] says where it looked.
    pub fn search(locales: LocaleSelection) -> Self {
        let xdg = std::env::var("XDG_DATA_DIRS")
            .ok()
            .filter(|v| !v.trim().is_empty())
            .unwrap_or_else(|| XDG_DATA_DIRS.to_owned());
        let mut searched = vec![PathBuf::from(DEFAULT_DIR)];
        for base in xdg.split(':').filter(|b| !b.is_empty()) {
            let dir = Path::new(base).join(SYSTEM_SUBDIR);
            if !searched.contains(&dir) {
                searched.push(dir);
            }
        }
        if let LocaleSelection::List(tags) = &locales
            && tags.iter().all(|t| t == ENGLISH)
        {
            // English alone: the built-in files, from any directory.
            return CldrSettings {
                dir: CldrDir::BuiltIn,
                locales,
                searched: Vec::new(),
            };
        }
        let holds = |dir: &Path| match &locales {
            LocaleSelection::All => file_tags(&CldrDir::from(dir))
                .is_some_and(|tags| tags.iter().any(|t| !english_only(t))),
            LocaleSelection::List(tags) => std::iter::once(ENGLISH)
                .chain(tags.iter().map(String::as_str))
                .all(|t| locate(&CldrDir::from(dir), t).is_some()),
        };
        let dir = searched
            .iter()
            .find(|d| holds(d))
            .unwrap_or(&searched[0])
            .clone();
        CldrSettings {
            dir: CldrDir::Path(dir),
            locales,
            searched,
        }
    }

    /// The locales to load, English first, then the others sorted, each
    /// the locale whose annotations file holds the names of a tag asked
    /// for: the tag's own, else the first along CLDR's aliases and parent
    /// locales (`nb` is in `no.xml`; `de-AT` in `de.xml`).
    pub fn resolve(&self) -> Result<Vec<String>, CldrError> {
        let mut tags = match &self.locales {
            LocaleSelection::All => {
                let tags = file_tags(&self.dir).ok_or_else(|| CldrError::NoAnnotations {
                    dir: self.dir.to_string(),
                    hint: self.hint(),
                })?;
                if tags.iter().all(|t| english_only(t)) {
                    let why = match self.searched.is_empty() {
                        true => self.hint(),
                        false => format!(
                            "none of {} holds a locale but English; {}",
                            self.where_looked(),
                            self.hint()
                        ),
                    };
                    return Err(CldrError::EnglishOnly { why });
                }
                tags
            }
            LocaleSelection::List(asked) => {
                let mut tags = Vec::with_capacity(asked.len());
                for tag in asked.iter().map(String::as_str).chain([ENGLISH]) {
                    let Some(found) = locate(&self.dir, tag) else {
                        return Err(self.no_locale(tag));
                    };
                    if found != tag {
                        tracing::info!("locale {tag}: CLDR files its names under {found}");
                    }
                    tags.push(found);
                }
                tags
            }
        };
        tags.retain(|t| t != ENGLISH);
        tags.sort();
        tags.dedup();
        tags.insert(0, ENGLISH.to_owned());
        for tag in &tags {
            if !self.dir.has(tag) {
                return Err(self.no_locale(tag));
            }
        }
        Ok(tags)
    }

    fn no_locale(&self, tag: &str) -> CldrError {
        let mut stems: Vec<String> = std::iter::once(tag.to_owned())
            .chain(file_candidates(tag))
            .map(|t| format!("{}.xml", t.replace('-', "_")))
            .collect();
        stems.dedup();
        CldrError::NoLocale {
            tag: tag.to_owned(),
            files: format!("annotations/{}", stems.join(" or ")),
            dir: match self.searched.is_empty() {
                true => self.where_looked(),
                false => format!("any of {}", self.where_looked()),
            },
            hint: self.hint(),
        }
    }

    /// The directory, or the directories searched.
    fn where_looked(&self) -> String {
        match self.searched.as_slice() {
            [] => self.dir.to_string(),
            dirs => {
                let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                format!("{} (--cldr not given)", dirs.join(", "))
            }
        }
    }

    /// How to get the files, as fits where it looked.
    fn hint(&self) -> String {
        if !self.searched.is_empty() {
            return install_hint();
        }
        let dir = &self.dir;
        match file_tags(&self.dir) {
            None => format!(
                "point --cldr (SLUGD_CLDR) at CLDR's common/ directory, for example {DEBIAN_DIR} from Debian's unicode-cldr-core package"
            ),
            Some(tags) if tags.iter().all(|t| english_only(t)) => format!(
                "{dir} holds English only: install Debian's unicode-cldr-core (apt-get install unicode-cldr-core) and pass --cldr {DEBIAN_DIR}"
            ),
            Some(tags) => format!(
                "neither it nor a locale it falls back to is among the {} in {dir}/annotations",
                tags.len()
            ),
        }
    }
}

/// Whether `tag` adds no language to English: English itself, or `root`.
fn english_only(tag: &str) -> bool {
    tag == ENGLISH || tag == "root"
}

/// The locales with an annotations file in `dir`; `None` when there is no
/// `annotations/` to list.
fn file_tags(dir: &CldrDir) -> Option<Vec<String>> {
    let dir = match dir {
        CldrDir::BuiltIn => return Some(vec![ENGLISH.to_owned()]),
        CldrDir::Path(dir) => dir,
    };
    let entries = std::fs::read_dir(dir.join("annotations")).ok()?;
    Some(
        entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name();
                let stem = name.to_str()?.strip_suffix(".xml")?;
                Some(stem.replace('_', "-"))
            })
            .collect(),
    )
}

/// The locale whose annotations file in `dir` holds `tag`'s names: `tag`
/// when it has one, else the first of its CLDR aliases and parents that
/// has ([`file_candidates`]), never `root`.
pub fn locate(dir: &CldrDir, tag: &str) -> Option<String> {
    std::iter::once(tag.to_owned())
        .chain(file_candidates(tag))
        .find(|t| dir.has(t))
}

/// `annotations/{stem}.xml` of `tag` (`de-CH` is in `de_CH.xml`).
pub fn annotations_file(dir: &Path, tag: &str) -> PathBuf {
    dir.join("annotations")
        .join(format!("{}.xml", tag.replace('-', "_")))
}

/// `annotationsDerived/{stem}.xml` of `tag`; not every locale has one.
pub fn derived_file(dir: &Path, tag: &str) -> PathBuf {
    dir.join("annotationsDerived")
        .join(format!("{}.xml", tag.replace('-', "_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_lists_parse_and_english_comes_first() {
        assert_eq!("all".parse::<LocaleSelection>(), Ok(LocaleSelection::All));
        assert_eq!(
            "de, fr,de_CH".parse::<LocaleSelection>(),
            Ok(LocaleSelection::List(vec![
                "de".into(),
                "fr".into(),
                "de-CH".into()
            ]))
        );
        assert!("de,f r".parse::<LocaleSelection>().is_err());
        assert!(",".parse::<LocaleSelection>().is_err());
        let shipped = CldrSettings::default().resolve().unwrap();
        assert_eq!(shipped, vec!["en".to_owned()]);
        let missing = CldrSettings {
            locales: "de".parse().unwrap(),
            ..CldrSettings::default()
        };
        let err = missing.resolve().unwrap_err().to_string();
        assert!(err.contains("unicode-cldr-core"), "{err}");
    }
}
