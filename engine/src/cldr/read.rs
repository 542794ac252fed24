//! Streams one locale's CLDR annotation files, `annotations/{l}.xml` then
//! `annotationsDerived/{l}.xml`, into (key, name) pairs, and makes a name
//! slug words by the locale's own rules ([`slug_name`]).
//!
//! Only the `type="tts"` names are read (one short name per key; the other
//! annotations are search keywords). Keys are stored without U+FE0F, as
//! CLDR writes most of them; single ASCII characters are left out (ASCII is
//! never looked up) and so is CLDR's `↑↑↑` ("inherit from the parent").
//! Memory stays bounded: one XML event and the keys of one locale.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader};

use quick_xml::escape::resolve_xml_entity;
use quick_xml::events::{BytesRef, Event};

use super::files::{CldrDir, CldrError, CldrFile};
use super::keys::KeySet;
use crate::locale::SlugLocale;
use crate::options::{Options, Rules};
use crate::rules::Switch;
use crate::slug::{self, NoSymbols};

/// Calls `f(key, name)` for each tts name of `tag`, the raw name as CLDR
/// writes it; a key already seen in the locale is skipped. Returns how
/// many names there were.
pub fn for_each_name(
    dir: &CldrDir,
    tag: &str,
    mut f: impl FnMut(&str, &str),
) -> Result<usize, CldrError> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut count = 0;
    for file in dir.files(tag)? {
        read_file(&file, &mut |key, name| {
            if seen.insert(key.to_owned()) {
                count += 1;
                f(key, name);
            }
        })?;
    }
    Ok(count)
}

/// Reads one annotations file, from disk or built in.
fn read_file(file: &CldrFile, f: &mut impl FnMut(&str, &str)) -> Result<(), CldrError> {
    let io = |e| CldrError::Io {
        path: file.shown(),
        source: e,
    };
    match file {
        CldrFile::Path(path) => {
            let len = std::fs::metadata(path).map_err(io)?.len();
            let input = BufReader::new(File::open(path).map_err(io)?);
            read_xml(input, len, &file.shown(), f)
        }
        CldrFile::BuiltIn(name, bytes) => read_xml(*bytes, bytes.len() as u64, name, f),
    }
}

/// Reads the annotations XML of `input`, `len` bytes long; `shown` names
/// it in errors.
fn read_xml(
    input: impl BufRead,
    len: u64,
    shown: &str,
    f: &mut impl FnMut(&str, &str),
) -> Result<(), CldrError> {
    let bad = |why: String| CldrError::BadXml {
        path: shown.to_owned(),
        why,
    };
    let mut reader = quick_xml::Reader::from_reader(input);
    let mut buf = Vec::with_capacity(1024);
    // The key of the tts annotation being read, and its text so far.
    let mut open: Option<(String, String)> = None;
    let mut annotations = 0usize;
    loop {
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| bad(format!("at byte {}: {e}", reader.error_position())))?;
        match event {
            Event::Start(e) if e.name().as_ref() == b"annotation" => {
                annotations += 1;
                let attr = |name: &str| -> Result<Option<String>, CldrError> {
                    match e.try_get_attribute(name) {
                        Ok(Some(a)) => a
                            .unescape_value()
                            .map(|v| Some(v.into_owned()))
                            .map_err(|e| bad(e.to_string())),
                        Ok(None) => Ok(None),
                        Err(e) => Err(bad(e.to_string())),
                    }
                };
                if attr("type")?.as_deref() == Some("tts") {
                    let Some(cp) = attr("cp")? else {
                        return Err(bad("an annotation without cp".to_owned()));
                    };
                    open = Some((cp, String::new()));
                }
            }
            Event::Text(t) => {
                if let Some((_, text)) = &mut open {
                    text.push_str(&t.xml_content().map_err(|e| bad(e.to_string()))?);
                }
            }
            Event::GeneralRef(r) => {
                if let Some((_, text)) = &mut open {
                    push_reference(text, &r).map_err(bad)?;
                }
            }
            Event::End(e) if e.name().as_ref() == b"annotation" => {
                if let Some((cp, name)) = open.take() {
                    let key: String = cp.chars().filter(|&c| c != '\u{FE0F}').collect();
                    let name = name.trim();
                    let single_ascii = key.len() == 1;
                    if !key.is_empty() && !single_ascii && !name.is_empty() && name != "↑↑↑" {
                        f(&key, name);
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if annotations == 0 && len > 4096 {
        return Err(bad("no <annotation> element found".to_owned()));
    }
    Ok(())
}

/// Appends what the reference `&...;` in a name's text stands for, by
/// quick-xml's own rules: a character reference (`&#38;`, `&#x26;`) or one
/// of XML's five predefined entities. CLDR declares no other entity, so any
/// other is an error, not text.
fn push_reference(text: &mut String, r: &BytesRef<'_>) -> Result<(), String> {
    if let Some(c) = r.resolve_char_ref().map_err(|e| e.to_string())? {
        text.push(c);
        return Ok(());
    }
    let name = r.decode().map_err(|e| e.to_string())?;
    match resolve_xml_entity(&name) {
        Some(s) => {
            text.push_str(s);
            Ok(())
        }
        None => Err(format!("unknown entity &{name};")),
    }
}

/// Every key named in any of `tags`, numbered: the first pass of a load,
/// which reads the files without making slug words of the names.
pub fn collect_keys(dir: &CldrDir, tags: &[String]) -> Result<KeySet, CldrError> {
    let mut keys = std::collections::HashSet::new();
    for tag in tags {
        for_each_name(dir, tag, |key, _| {
            if !keys.contains(key) {
                keys.insert(key.to_owned());
            }
        })?;
    }
    Ok(KeySet::new(keys.into_iter().collect()))
}

/// A CLDR name as slug words separated by spaces, the way the engine
/// makes a title of the locale a slug: romanized by the locale's CLDR
/// transform, `&` read as its word, apostrophes inside words dropped, the
/// rest transliterated by deunicode and lowercased. `None` when nothing is
/// left (a name of punctuation only).
pub fn slug_name(name: &str, tag: &str) -> Option<String> {
    slug_words(name, &name_options(tag))
}

/// One locale's names as a table stores them, each sorted by key number.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocaleNames {
    /// Every name, as ASCII slug words ([`slug_name`]).
    pub romanized: Vec<(u32, String)>,
    /// The names whose slug words in the locale's own script
    /// ([`written_name`]) differ from the romanized ones: `ascii: false`
    /// reads these first (rules 4), and a name not here is the same both
    /// ways.
    pub written: Vec<(u32, String)>,
}

/// Every name of `tag` whose key is in `keys`, as slug words both ways:
/// what a table stores of one locale, for the loader and the in-process
/// table alike.
pub fn locale_names(dir: &CldrDir, tag: &str, keys: &KeySet) -> Result<LocaleNames, CldrError> {
    let (options, own) = (name_options(tag), written_options(tag));
    let mut names = LocaleNames::default();
    for_each_name(dir, tag, |key, name| {
        let Some(i) = keys.get(key) else {
            return;
        };
        let romanized = slug_words(name, &options);
        if let Some(written) = slug_words(name, &own)
            && romanized.as_ref() != Some(&written)
        {
            names.written.push((i, written));
        }
        if let Some(romanized) = romanized {
            names.romanized.push((i, romanized));
        }
    })?;
    names.romanized.sort_unstable_by_key(|n| n.0);
    names.written.sort_unstable_by_key(|n| n.0);
    Ok(names)
}

/// A CLDR name as slug words in the locale's own script, separated by
/// spaces, the way `ascii: false` makes a title of the locale a slug
/// (`красное сердце`). `None` when nothing is left.
pub fn written_name(name: &str, tag: &str) -> Option<String> {
    slug_words(name, &written_options(tag))
}

/// The options names of `tag` are slugged with, resolved once per locale.
///
/// Always rules 1: a table's names are made once, when it is loaded, and
/// every request reads the same names whatever its `rules`, so they are
/// the words rules 1 has always given (a Bengali name stays as loaded
/// before rule versions); a later rules' names would need a table of
/// their own.
fn name_options(tag: &str) -> Options {
    Options {
        symbols: false,
        locale: match tag {
            "root" => None,
            _ => SlugLocale::resolve(tag).ok(),
        },
        rules: Rules::OLDEST,
        ..Options::default()
    }
}

/// The options of [`written_name`]: those of [`name_options`] in the
/// reader's own script, by the first rules to read these names (rules 4),
/// so that a table's names stay what they were as versions are added.
fn written_options(tag: &str) -> Options {
    Options {
        ascii: false,
        rules: Rules::first_with(Switch::WrittenNames),
        ..name_options(tag)
    }
}

fn slug_words(name: &str, options: &Options) -> Option<String> {
    let slug = slug::slugify(name, options, &NoSymbols).ok()?;
    Some(slug.replace('-', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_shipped_english_names_without_fe0f() {
        let mut names = std::collections::HashMap::new();
        let count = for_each_name(&CldrDir::BuiltIn, "en", |k, n| {
            names.insert(k.to_owned(), n.to_owned());
        })
        .unwrap();
        assert_eq!(count, names.len());
        assert!(count > 3000, "{count}");
        assert_eq!(names["🇩🇪"], "flag: Germany");
        assert_eq!(names["👨\u{200D}👩\u{200D}👧"], "family: man, woman, girl");
        assert_eq!(names["1\u{20E3}"], "keycap: 1");
        assert_eq!(names["☕"], "hot beverage");
        assert_eq!(names["🇹🇹"], "flag: Trinidad & Tobago");
        assert!(names.keys().all(|k| !k.contains('\u{FE0F}')));
        assert!(!names.contains_key("$"));
    }

    #[test]
    fn names_become_slug_words_by_the_locales_rules() {
        assert_eq!(
            slug_name("flag: Trinidad & Tobago", "en").as_deref(),
            Some("flag trinidad and tobago")
        );
        assert_eq!(
            slug_name("Heißgetränk", "de").as_deref(),
            Some("heissgetraenk")
        );
        assert_eq!(slug_name("man’s shoe", "en").as_deref(), Some("mans shoe"));
        assert_eq!(
            slug_name("горячий напиток", "ru").as_deref(),
            Some("goryachiy napitok")
        );
        assert_eq!(slug_name("…", "en"), None);
    }

    /// Reads the tts names of one annotations file written from `body`.
    fn names_of(body: &str) -> Result<Vec<(String, String)>, CldrError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("xx.xml");
        std::fs::write(
            &path,
            format!("<ldml><annotations>{body}</annotations></ldml>"),
        )
        .unwrap();
        let mut names = Vec::new();
        read_file(&CldrFile::Path(path), &mut |k, n| {
            names.push((k.to_owned(), n.to_owned()))
        })?;
        Ok(names)
    }

    #[test]
    fn entities_and_character_references_are_resolved() {
        let names = names_of(concat!(
            r#"<annotation cp="&#x2603;" type="tts">snow&amp;man &lt;&gt; &quot;x&quot; it&apos;s</annotation>"#,
            r#"<annotation cp="☕" type="tts">hot&#32;&#x62;everage&#38;</annotation>"#,
            r#"<annotation cp="&amp;" type="tts">ampersand</annotation>"#,
            r#"<annotation cp="&lt;&gt;" type="tts">less &#x26; more</annotation>"#,
        ))
        .unwrap();
        assert_eq!(
            names,
            [
                ("☃".to_owned(), r#"snow&man <> "x" it's"#.to_owned()),
                ("☕".to_owned(), "hot beverage&".to_owned()),
                ("<>".to_owned(), "less & more".to_owned()),
            ]
        );
    }

    #[test]
    fn an_unknown_entity_is_an_error_that_names_it() {
        let err = names_of(r#"<annotation cp="☃" type="tts">snow&nbsp;man</annotation>"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown entity &nbsp;"), "{err}");
    }
}
