//! Where CLDR's files are and which locales to read: `--cldr` and
//! `--locales` as [`CldrSettings`], checked against the directory, the
//! paths of a locale's two files, and why they cannot be used.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::locales::ENGLISH;
use crate::builtin::{self, CLDR_NAME};

/// The repository's copy of CLDR's English files, which the binary has
/// built in ([`CldrDir::BuiltIn`]) for when `--cldr` is not given.
pub const DEFAULT_DIR: &str = "data/cldr";

/// Where Debian's `unicode-cldr-core` package puts CLDR.
pub const DEBIAN_DIR: &str = "/usr/share/unicode/cldr/common";

/// Which CLDR names a table holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CldrSettings {
    /// Where CLDR's files are.
    pub dir: CldrDir,
    /// Which locales.
    pub locales: LocaleSelection,
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
pub(crate) enum CldrFile {
    /// A file on disk.
    Path(PathBuf),
    /// A built-in file: its name for errors, and its bytes.
    BuiltIn(String, &'static [u8]),
}

impl CldrFile {
    /// The name errors give it.
    pub(crate) fn shown(&self) -> String {
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
    pub(crate) fn files(&self, tag: &str) -> Result<Vec<CldrFile>, CldrError> {
        let missing = || CldrError::NoLocale {
            tag: tag.to_owned(),
            file: self.annotations_shown(tag),
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

    /// Every locale with an annotations file here, for `--locales all`.
    fn tags(&self) -> Result<Vec<String>, CldrError> {
        let dir = match self {
            CldrDir::BuiltIn => return Ok(vec![ENGLISH.to_owned()]),
            CldrDir::Path(dir) => dir,
        };
        let annotations = dir.join("annotations");
        let entries = std::fs::read_dir(&annotations).map_err(|_| CldrError::NoAnnotations {
            dir: dir.display().to_string(),
        })?;
        let mut tags = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| CldrError::Io {
                path: annotations.display().to_string(),
                source: e,
            })?;
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".xml")) else {
                continue;
            };
            tags.push(stem.replace('_', "-"));
        }
        Ok(tags)
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
    #[error(
        "{dir}: no CLDR annotations here (expected {dir}/annotations/*.xml); point --cldr (SLUGD_CLDR) at CLDR's common/ directory, for example {DEBIAN_DIR} from Debian's unicode-cldr-core package"
    )]
    NoAnnotations {
        /// The directory.
        dir: String,
    },
    /// A locale asked for has no annotations file.
    #[error(
        "locale {tag}: no {file}; the repository's data/cldr holds English only: install Debian's unicode-cldr-core (apt-get install unicode-cldr-core) and pass --cldr {DEBIAN_DIR}"
    )]
    NoLocale {
        /// The locale.
        tag: String,
        /// The file looked for.
        file: String,
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

impl CldrSettings {
    /// The locales to load, English first, then the others sorted, each
    /// with its annotations file checked to exist.
    pub fn resolve(&self) -> Result<Vec<String>, CldrError> {
        let mut tags = match &self.locales {
            LocaleSelection::All => self.dir.tags()?,
            LocaleSelection::List(tags) => tags.clone(),
        };
        tags.retain(|t| t != ENGLISH);
        tags.sort();
        tags.dedup();
        tags.insert(0, ENGLISH.to_owned());
        for tag in &tags {
            if !self.dir.has(tag) {
                return Err(CldrError::NoLocale {
                    tag: tag.clone(),
                    file: self.dir.annotations_shown(tag),
                });
            }
        }
        Ok(tags)
    }
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
