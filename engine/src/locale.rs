//! The `locale` option: a BCP 47 tag (`de`, `pt-BR`, `sr-Latn`), resolved
//! once to what CLDR has for its language, through CLDR's fallback
//! (`de-CH` → `de` → root):
//!
//! - a transform that romanizes the language's text by CLDR's rules
//!   (German `Größe` → `Groesse`, the BGN romanizations of Russian,
//!   Ukrainian, Bulgarian, Greek, Serbian and others), run by ICU4X's
//!   transliterator on CLDR's rules baked into the binary; what it leaves
//!   non-ASCII, deunicode transliterates as usual;
//! - the word `&` reads as, from CLDR's list patterns (`de` `und`, `fr`
//!   `et`, `es` `y`), romanized the same way;
//! - by rules 2, for a language whose own letters CLDR has no ASCII
//!   transform for, slugd's rule source in CLDR's syntax (`data/transforms/`,
//!   compiled by ICU4X's `RuleCollection`), run before CLDR's: Danish and
//!   Norwegian write `æ ø å` as `ae oe aa`.
//!
//! A tag whose language CLDR has neither for is unknown. ICU4X's
//! transliterator is neither `Send` nor `Sync`, so each thread keeps its
//! own, built on first use (tens of microseconds) and kept for the life of
//! the thread: one per transform, a few dozen at most.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use icu::experimental::transliterate::{RuleCollection, Transliterator};
use icu::list::ListFormatter;
use icu::list::options::ListFormatterOptions;
use icu::locale::Locale;
use icu::locale::fallback::{LocaleFallbackConfig, LocaleFallbacker};
use icu::locale::{LocaleCanonicalizer, LocaleExpander, TransformResult};

use crate::remembered::Memory;

/// A resolved `locale`. Cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlugLocale(Arc<Resolved>);

#[derive(Debug, PartialEq, Eq)]
struct Resolved {
    /// The CLDR transform that romanizes the language, if it has one.
    transform: Option<String>,
    /// Rules 2: the id of slugd's transform of the language's own letters
    /// ([`OWN_TRANSFORMS`]), if it has one; run before `transform`.
    letters: Option<&'static str>,
    /// The word `&` reads as, romanized; `None` when the language's list
    /// pattern has no word (Japanese joins with `、`): `&` then separates.
    and: Option<Box<str>>,
    /// The same word as the language writes it (`и`), for `ascii: false`.
    and_written: Option<Box<str>>,
    /// CLDR's fallback chain of the tag, most specific first, ending in
    /// `root` (`de-CH`, `de`, `root`): where its symbol names are looked
    /// for.
    fallbacks: Vec<String>,
    /// Which reader reads each script under the locale, in each rule
    /// version: worked out by `crate::readers` at the first title that
    /// needs it, and kept for every title after.
    readers: Memo,
}

/// What [`Resolved::readers`] keeps: bytes only `crate::readers` reads.
/// Two locales are equal whatever their memos hold.
#[derive(Debug, Default)]
pub(crate) struct Memo(OnceLock<Box<[u8]>>);

impl PartialEq for Memo {
    fn eq(&self, _: &Memo) -> bool {
        true
    }
}

impl Eq for Memo {}

/// Why a `locale` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocaleError {
    /// Not a BCP 47 tag.
    #[error(
        "locale {0:?} is not a BCP 47 language tag; use for example \"de\", \"pt-BR\" or \"sr-Latn\""
    )]
    BadTag(String),
    /// A tag CLDR has nothing for.
    #[error(
        "locale {0:?} is unknown: CLDR has no transliteration rules or list patterns for its language"
    )]
    Unknown(String),
}

/// Most resolved tags kept: past it the tags used least make room.
const MAX_RESOLVED: usize = 1024;

impl SlugLocale {
    /// Resolves `tag`, from a process-wide cache after the first time (a
    /// quick_cache: lookups share a read lock, and a client sending endless
    /// new tags only evicts the tags used least).
    pub fn resolve(tag: &str) -> Result<SlugLocale, LocaleError> {
        static CACHE: OnceLock<quick_cache::sync::Cache<String, SlugLocale>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| quick_cache::sync::Cache::new(MAX_RESOLVED));
        if let Some(found) = cache.get(tag) {
            return Ok(found);
        }
        let resolved = SlugLocale(Arc::new(resolve(tag)?));
        cache.insert(tag.to_owned(), resolved.clone());
        Ok(resolved)
    }

    /// The word `&` reads as, if the language has one.
    pub fn and(&self) -> Option<&str> {
        self.0.and.as_deref()
    }

    /// The word `&` reads as in the language's own script (`и`), for
    /// `ascii: false`; `None` as for [`SlugLocale::and`].
    pub fn and_written(&self) -> Option<&str> {
        self.0.and_written.as_deref()
    }

    /// The memo of which reader reads each script under this locale
    /// (`crate::readers`), computed once with `compute`.
    pub(crate) fn readers_memo(&self, compute: impl FnOnce() -> Box<[u8]>) -> &[u8] {
        self.0.readers.0.get_or_init(compute)
    }

    /// CLDR's fallback chain of the tag, most specific first, ending in
    /// `root`.
    pub fn fallbacks(&self) -> &[String] {
        &self.0.fallbacks
    }

    /// The language subtag of the tag (`sr` of `sr-Latn`).
    pub fn language(&self) -> &str {
        let tag = self.fallbacks().first().map_or("", String::as_str);
        tag.split(['-', '_']).next().unwrap_or(tag)
    }

    /// Whether the locale is Japanese (`ja` is along its chain): rules 3
    /// read its kanji as Japanese.
    pub fn is_japanese(&self) -> bool {
        let japanese = crate::readers::japanese::LOCALES;
        self.fallbacks()
            .iter()
            .any(|tag| japanese.contains(&tag.as_str()))
    }

    /// `title` romanized by the language's transform; borrowed when there
    /// is none or the title has no letter outside ASCII for it to change.
    ///
    /// The transform runs word by word: on each run of characters between
    /// ASCII spaces, digits and punctuation that holds a letter outside
    /// ASCII, and each thread remembers the words it has romanized (up to
    /// [`MAX_WORDS`] of at most [`MAX_WORD_BYTES`]). CLDR's rules look at
    /// neighbouring letters, never across a space (CLDR's test files,
    /// phrases included, agree line for line), and ICU4X's transliterator
    /// takes tens of microseconds for a German word: titles repeat words.
    pub fn romanize<'t>(&self, title: &'t str) -> Cow<'t, str> {
        match &self.0.transform {
            Some(id) => romanize_by(id, title),
            None => Cow::Borrowed(title),
        }
    }

    /// Whether the locale's transform loses letters readers read: the BGN
    /// romanizations of Arabic, Persian and Pashto as ICU4X's data has
    /// them write a word's first alef as nothing and leave alef, yeh and
    /// hamza forms as they are (`الإمارات` → `lإmاrاt`, `ایران` →
    /// `یrاn`), so `locale: ar` gave `limarat` where no locale gives
    /// `alimarat`. Rules 4 read these scripts as without a locale.
    pub fn drops_letters(&self) -> bool {
        matches!(
            self.0.transform.as_deref(),
            Some("ar-Latn-t-ar-m0-bgn" | "fa-Latn-t-fa-m0-bgn" | "ps-Latn-t-ps-m0-bgn")
        )
    }

    /// `title` romanized as rules 2 romanize it: the language's own letters
    /// by slugd's transform of them (Danish `Rød` is `Roed`), then as
    /// [`SlugLocale::romanize`]. Borrowed when neither changes it.
    pub fn romanize_v2<'t>(&self, title: &'t str) -> Cow<'t, str> {
        let Some(id) = self.0.letters else {
            return self.romanize(title);
        };
        let spelled = romanize_by(id, title);
        match self.romanize(&spelled) {
            Cow::Borrowed(_) => spelled,
            Cow::Owned(romanized) => Cow::Owned(romanized),
        }
    }
}

/// `title` romanized by transform `id`, word by word, as
/// [`SlugLocale::romanize`] says.
fn romanize_by<'t>(id: &str, title: &'t str) -> Cow<'t, str> {
    if !title.chars().any(needs_romanizing) {
        return Cow::Borrowed(title);
    }
    let mut out = String::with_capacity(title.len() + 8);
    let mut rest = title;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c.is_ascii() && !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        if word.chars().any(needs_romanizing) {
            romanize_word(id, word, &mut out);
        } else {
            out.push_str(word);
        }
        let gap = after
            .find(|c: char| !c.is_ascii() || c.is_ascii_alphabetic())
            .unwrap_or(after.len());
        out.push_str(&after[..gap]);
        rest = &after[gap..];
    }
    Cow::Owned(out)
}

/// slugd's own transforms, in CLDR's rule syntax: (id, the languages that
/// use it, the source). Each source says where its convention comes from.
/// Rules 2 apply them; the ids are CLDR's form for an ASCII transform of a
/// language's letters, which CLDR has none of for these languages.
pub const OWN_TRANSFORMS: &[(&str, &[&str], &str)] = &[
    (
        "da-t-da-d0-ascii",
        &["da"],
        include_str!("../../data/transforms/da-ascii.txt"),
    ),
    (
        "no-t-no-d0-ascii",
        &["no", "nb", "nn"],
        include_str!("../../data/transforms/no-ascii.txt"),
    ),
];

/// The id of slugd's transform of `language`'s own letters, if it has one.
fn own_transform_of(language: &str) -> Option<&'static str> {
    OWN_TRANSFORMS
        .iter()
        .find(|(_, languages, _)| languages.contains(&language))
        .map(|(id, _, _)| *id)
}

/// Compiles one of [`OWN_TRANSFORMS`] with ICU4X's `RuleCollection`.
fn compile_own(id: &Locale, source: &str) -> Transliterator {
    let mut collection = RuleCollection::default();
    collection.register_source(id, source.to_owned(), [], false, true);
    let provider = collection.as_provider();
    Transliterator::try_new_unstable(&provider, &provider, &provider, id)
        .unwrap_or_else(|e| panic!("slugd's transform {id} does not compile: {e}"))
}

/// Most words each thread keeps romanized; past it the thread starts over.
pub const MAX_WORDS: usize = 4096;

/// Longest word kept, in bytes: longer ones are romanized every time.
pub const MAX_WORD_BYTES: usize = 64;

/// Whether a transform may change `c`: a letter outside ASCII. Asked of
/// every character of every title with a locale, so the usual ones are
/// answered without the standard library's search of its tables: the
/// two-byte characters from a bitmap it filled once, the blocks of kana,
/// Han ideographs and Hangul syllables (letters throughout) and of
/// arrows, symbols, dingbats and emoji (none a letter) by range. A unit
/// test holds it to the standard library's answer for every character.
#[inline]
fn needs_romanizing(c: char) -> bool {
    static TWO_BYTE: OnceLock<[u64; 32]> = OnceLock::new();
    match c as u32 {
        0..=0x7F => false,
        n @ 0x80..=0x7FF => {
            let bits = TWO_BYTE.get_or_init(|| {
                let mut bits = [0u64; 32];
                for n in 0x80..0x800u32 {
                    if char::from_u32(n).is_some_and(char::is_alphabetic) {
                        bits[(n / 64) as usize] |= 1 << (n % 64);
                    }
                }
                bits
            });
            bits[(n / 64) as usize] & (1 << (n % 64)) != 0
        }
        0x3041..=0x3096 | 0x30A1..=0x30FA | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3 => true,
        // Symbols, dingbats and emoji: none is a letter.
        0x2190..=0x23FF | 0x2500..=0x27BF | 0x1F300..=0x1FAFF => false,
        _ => c.is_alphabetic(),
    }
}

/// Appends `word` romanized by transform `id`, from this thread's memory
/// of words when it has it (keyed by id and word).
fn romanize_word(id: &str, word: &str, out: &mut String) {
    thread_local! {
        // The length is checked here, on the word alone.
        static WORDS: Memory = Memory::new(MAX_WORDS, usize::MAX);
    }
    if word.len() > MAX_WORD_BYTES {
        out.push_str(&run_transform(id, word));
        return;
    }
    thread_local! {
        /// The key of the word looked up, written again for each word
        /// rather than formatted anew.
        static KEY: RefCell<String> = const { RefCell::new(String::new()) };
    }
    KEY.with_borrow_mut(|key| {
        key.clear();
        key.push_str(id);
        key.push('\0');
        key.push_str(word);
        WORDS.with(|words| words.remember(key, out, |out| out.push_str(&run_transform(id, word))));
    });
}

fn resolve(tag: &str) -> Result<Resolved, LocaleError> {
    let locale: Locale = tag
        .parse()
        .map_err(|_| LocaleError::BadTag(tag.to_owned()))?;
    let language = locale.id.language.as_str().to_owned();
    let transform = transform_of(&language);
    let and = and_word(&locale, transform.as_deref());
    let and_written = written_and_word(&locale);
    if transform.is_none()
        && and.is_none()
        && !has_list_patterns(&locale)
        && !has_likely_subtags(&locale)
    {
        return Err(LocaleError::Unknown(tag.to_owned()));
    }
    Ok(Resolved {
        and_written,
        transform,
        letters: own_transform_of(&language),
        and,
        fallbacks: fallbacks(&locale),
        readers: Memo::default(),
    })
}

/// CLDR's fallback chain of `tag`, as [`SlugLocale::fallbacks`] gives it,
/// without resolving the rest; `None` for a tag that does not parse.
pub fn fallback_chain(tag: &str) -> Option<Vec<String>> {
    tag.parse::<Locale>().ok().map(|l| fallbacks(&l))
}

/// The tags CLDR may file `tag`'s names under, nearest first: `tag`'s
/// fallback chain, then that of its canonical form by CLDR's aliases
/// (ICU4X's canonicalizer: `nob` is `nb`, `iw` is `he`), without `root`
/// (whose names are no language's). `nb` gives `nb`, `no`: CLDR files
/// Norwegian Bokmål's names under its parent `no`. Empty for a tag that
/// does not parse.
pub fn file_candidates(tag: &str) -> Vec<String> {
    let Ok(mut locale) = tag.parse::<Locale>() else {
        return Vec::new();
    };
    let mut tags = fallbacks(&locale);
    LocaleCanonicalizer::new_extended().canonicalize(&mut locale);
    tags.extend(fallbacks(&locale));
    let mut seen = std::collections::HashSet::new();
    tags.retain(|t| t != "root" && seen.insert(t.clone()));
    tags
}

/// CLDR's fallback chain of `locale` (its parent locales, then the
/// language), by ICU4X's fallbacker, then `root`.
fn fallbacks(locale: &Locale) -> Vec<String> {
    let fallbacker = LocaleFallbacker::new();
    let mut steps = fallbacker
        .for_config(LocaleFallbackConfig::default())
        .fallback_for(locale.into());
    let mut chain = Vec::new();
    while !steps.get().is_unknown() && chain.len() < 8 {
        // Some steps change what the tag does not show (extensions).
        let tag = steps.get().to_string();
        if chain.last() != Some(&tag) {
            chain.push(tag);
        }
        steps.step();
    }
    chain.push("root".to_owned());
    chain
}

/// The id of the CLDR transform that romanizes `language`, by the names
/// CLDR gives them: an ASCII transform of the language's own letters
/// (`de`), the BGN romanization (`ru`, `uk`, ...), or a plain Latin one.
fn transform_of(language: &str) -> Option<String> {
    let l = language;
    [
        format!("{l}-t-{l}-d0-ascii"),
        format!("{l}-Latn-t-{l}-m0-bgn"),
        format!("{l}-Latn-t-{l}"),
        format!("{l}-Latn-t-{l}-cyrl"),
        format!("{l}-Latn-t-{l}-hrkt-m0-bgn"),
    ]
    .into_iter()
    .find(|id| {
        id.parse::<Locale>()
            .is_ok_and(|id| Transliterator::try_new(&id).is_ok())
    })
}

/// Runs transform `id` on `text` with this thread's transliterator.
fn run_transform(id: &str, text: &str) -> String {
    transliterate_with(id, text, baked)
}

/// The transliterator of transform `id`: one of slugd's own rule sources
/// ([`OWN_TRANSFORMS`]) compiled, or CLDR's from ICU4X's baked data.
pub fn baked(id: &str) -> Transliterator {
    let locale: Locale = id.parse().expect("a resolved transform id parses");
    match OWN_TRANSFORMS.iter().find(|(own, _, _)| *own == id) {
        Some((_, _, source)) => compile_own(&locale, source),
        None => Transliterator::try_new(&locale).expect("a resolved transform builds"),
    }
}

/// Runs transform `id` on `text` with this thread's transliterator of it,
/// which `make` builds the first time: [`baked`], or one compiled from a
/// rule source (rules 2's Thai, `crate::slug`'s scripts). Each thread
/// keeps the transliterators it has built for its life, one per id.
pub fn transliterate_with(
    id: &str,
    text: &str,
    make: impl FnOnce(&str) -> Transliterator,
) -> String {
    thread_local! {
        static BUILT: RefCell<HashMap<String, Transliterator>> = RefCell::default();
    }
    BUILT.with(|built| {
        let mut built = built.borrow_mut();
        if !built.contains_key(id) {
            built.insert(id.to_owned(), make(id));
        }
        built[id].transliterate(text.to_owned())
    })
}

/// What CLDR's list pattern puts between two items, for `locale`.
fn list_connector(locale: &Locale) -> Option<String> {
    let formatter =
        ListFormatter::try_new_and(locale.into(), ListFormatterOptions::default()).ok()?;
    let joined = formatter.format_to_string(["\u{1}", "\u{2}"].iter());
    let start = joined.find('\u{1}')? + 1;
    let end = joined.find('\u{2}')?;
    Some(joined.get(start..end)?.to_owned())
}

/// Whether CLDR's likely subtags know `locale`'s language (its script and
/// region): so do they for every language CLDR has names of symbols in,
/// some of which have neither a transform nor list patterns (`mi`, `xh`).
fn has_likely_subtags(locale: &Locale) -> bool {
    let mut id = locale.id.clone();
    !id.language.is_unknown()
        && LocaleExpander::new_extended().maximize(&mut id) == TransformResult::Modified
}

/// Whether CLDR has list patterns of `locale`'s own, not only root's.
fn has_list_patterns(locale: &Locale) -> bool {
    let root = list_connector(&Locale::UNKNOWN);
    list_connector(locale).is_some_and(|c| Some(c) != root)
}

/// The word `&` reads as: the letters of the list pattern's connector,
/// romanized; `and` for root.
fn and_word(locale: &Locale, transform: Option<&str>) -> Option<Box<str>> {
    let connector = list_connector(locale)?;
    let connector = match transform {
        Some(id) => run_transform(id, &connector),
        None => connector,
    };
    let word: String = deunicode::deunicode(&connector)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (!word.is_empty()).then(|| word.into_boxed_str())
}

/// The letters and marks of the list pattern's connector, lowercase, as
/// the language writes them; `None` when it has none.
fn written_and_word(locale: &Locale) -> Option<Box<str>> {
    use unicode_properties::{GeneralCategoryGroup as G, UnicodeGeneralCategory};
    let word: String = list_connector(locale)?
        .chars()
        .filter(|c| matches!(c.general_category_group(), G::Letter | G::Mark | G::Number))
        .flat_map(char::to_lowercase)
        .collect();
    (!word.is_empty()).then(|| word.into_boxed_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_romanizing_is_a_letter_outside_ascii_for_every_character() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(
                needs_romanizing(c),
                !c.is_ascii() && c.is_alphabetic(),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn languages_get_their_cldr_transform_and_word_for_and() {
        let de = SlugLocale::resolve("de-CH").unwrap();
        assert_eq!(de.romanize("Größe"), "Groesse");
        assert_eq!(de.and(), Some("und"));
        let ru = SlugLocale::resolve("ru").unwrap();
        assert_eq!(ru.romanize("Привет"), "Privet");
        assert_eq!(ru.and(), Some("i"));
        assert_eq!(ru.and_written(), Some("и"));
        assert_eq!(de.and_written(), Some("und"));
        assert_eq!(SlugLocale::resolve("ja").unwrap().and_written(), None);
        assert_eq!(SlugLocale::resolve("fr").unwrap().and(), Some("et"));
        assert_eq!(SlugLocale::resolve("es").unwrap().and(), Some("y"));
        assert_eq!(SlugLocale::resolve("en").unwrap().and(), Some("and"));
        assert_eq!(SlugLocale::resolve("ja").unwrap().and(), None);
        assert!(matches!(
            SlugLocale::resolve("xx"),
            Err(LocaleError::Unknown(_))
        ));
        // CLDR names symbols in Maori, which has no transform or list
        // patterns: its likely subtags make it known.
        assert_eq!(
            SlugLocale::resolve("mi").unwrap().fallbacks(),
            ["mi", "root"]
        );
        assert!(matches!(
            SlugLocale::resolve("not a tag"),
            Err(LocaleError::BadTag(_))
        ));
        assert!(matches!(de.romanize("plain"), Cow::Borrowed(_)));
        assert_eq!(de.fallbacks(), ["de-CH", "de", "root"]);
        let pt = SlugLocale::resolve("pt-PT").unwrap();
        assert_eq!(pt.fallbacks(), ["pt-PT", "pt", "root"]);
    }

    #[test]
    fn danish_and_norwegian_letters_are_spelled_by_rules_2_only() {
        for tag in ["da", "da-DK", "nb", "nb-NO", "no", "nn"] {
            let locale = SlugLocale::resolve(tag).unwrap();
            for (title, want) in [
                ("Rød grød med fløde", "Roed groed med floede"),
                ("Ærøskøbing", "Aeroeskoebing"),
                ("ÆRØ", "AEROE"),
                ("Å", "AA"),
                ("Ålesund", "Aalesund"),
                ("Blåbærsyltetøy", "Blaabaersyltetoey"),
            ] {
                assert_eq!(locale.romanize_v2(title), want, "{tag} {title:?}");
            }
            assert_eq!(locale.romanize("Rød"), "Rød", "{tag}: rules 1");
            assert!(matches!(locale.romanize_v2("plain"), Cow::Borrowed(_)));
        }
        // Other languages: as `romanize`.
        let de = SlugLocale::resolve("de").unwrap();
        assert_eq!(de.romanize_v2("Größe Rød"), de.romanize("Größe Rød"));
    }
}
