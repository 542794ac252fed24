//! A Japanese title read as words: ICU4X's word segmenter cuts it, each
//! word is looked up in a table of readings (IPADIC's written forms, see
//! `super::ipadic`), and the readings are romanized by `super::hepburn`.
//!
//! In two steps, so that a table in Redis costs one round trip: first
//! [`keys_needed`], the written forms a title may look up (a few more
//! than it uses), fetched at once (`HMGET`); then [`read`] with what was
//! found. An in-process table passes its own lookup to [`read`] and skips
//! the first step; both ask only for keys [`keys_needed`] lists, so they
//! read every title alike.
//!
//! A word the table has is read whole, and split in two where it is a
//! compound whose second word's reading ends its own (`羽田空港`
//! `haneda kuko`). A word it lacks that holds kanji is read as the
//! longest written forms the table has from its start on (what is left
//! after them is one word if it is kana). Kana words one after another
//! are read as the segmenter cut them when the table has them all, and
//! otherwise read again together, by the longest kana words the table
//! has (`ご` `ざいま` `す` is `ござい` `ます`). Kana the table does not
//! read are romanized as written. A kanji the table has no form starting
//! with is left as it is, for the engine to read as it reads Han today.
//! An auxiliary verb is written together with the verb before it
//! (`行き` `まし` `た`, `ikimashita`).

use std::borrow::Cow;

use icu::segmenter::WordSegmenter;
use icu::segmenter::options::WordBreakInvariantOptions;

use super::hepburn;
use super::kind::Kind;

/// The reading of a written form: katakana and its kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reading {
    /// The reading in katakana, particles as said (`ワ`).
    pub kana: Box<str>,
    /// The kind of the entry it is from.
    pub kind: Kind,
}

/// The mark before a written form that asks for its reading as a counter,
/// after digits (`\u{1}年` `ネン`): IPADIC's cheapest suffix (名詞,接尾)
/// entry, kept where it reads otherwise than the form's cheapest.
pub const COUNTER_MARK: char = '\u{1}';

/// The mark before a written form that asks for its reading as a suffix
/// to a noun (`\u{2}街` `ガイ`): IPADIC's cheapest 名詞,接尾,一般 entry,
/// kept where it reads otherwise.
pub const SUFFIX_MARK: char = '\u{2}';

/// Longest counter looked up after digits, in characters (`ヶ月`,
/// `周年`, `年生`).
pub const MAX_COUNTER_CHARS: usize = 3;

/// The mark [`Reading::encode_into`] puts before a particle's reading.
const PARTICLE_MARK: char = '*';
/// The mark [`Reading::encode_into`] puts before a verb's reading.
const VERB_MARK: char = '+';
/// The mark [`Reading::encode_into`] puts before an auxiliary's reading.
const AUXILIARY_MARK: char = '~';

/// Longest written form looked up inside a word, in characters: a word
/// of `n` kanji asks for at most `n` times this many keys. IPADIC's
/// longest forms (26 characters) are compounds that the segmenter keeps
/// whole, and a whole word is always looked up.
pub const MAX_KEY_CHARS: usize = 10;

impl Reading {
    /// A reading of `kana` of kind `kind`.
    pub fn new(kana: &str, kind: Kind) -> Self {
        Reading {
            kana: kana.into(),
            kind,
        }
    }

    /// Appends the reading as one value of the compact form and of a
    /// Redis hash: the katakana, after `*` for a particle, `+` for a
    /// verb or `~` for an auxiliary (no reading starts with any).
    pub fn encode_into(&self, out: &mut String) {
        match self.kind {
            Kind::Particle => out.push(PARTICLE_MARK),
            Kind::Verb => out.push(VERB_MARK),
            Kind::Auxiliary => out.push(AUXILIARY_MARK),
            Kind::Other => {}
        }
        out.push_str(&self.kana);
    }

    /// The length of [`Reading::encode_into`]'s value, in bytes.
    pub fn encoded_len(&self) -> usize {
        self.kana.len() + usize::from(self.kind != Kind::Other)
    }

    /// The reading [`Reading::encode_into`] wrote as `value`.
    pub fn decode(value: &str) -> Reading {
        if let Some(kana) = value.strip_prefix(PARTICLE_MARK) {
            Reading::new(kana, Kind::Particle)
        } else if let Some(kana) = value.strip_prefix(VERB_MARK) {
            Reading::new(kana, Kind::Verb)
        } else if let Some(kana) = value.strip_prefix(AUXILIARY_MARK) {
            Reading::new(kana, Kind::Auxiliary)
        } else {
            Reading::new(value, Kind::Other)
        }
    }

    /// Appends the reading romanized.
    pub fn romanize_into(&self, out: &mut String) {
        hepburn::romanize_into(&self.kana, self.kind, out);
    }
}

/// One word of a title as [`read`] gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word<'t> {
    /// Japanese, romanized (ASCII, lower case).
    Read(String),
    /// Text that is not Japanese (Latin, digits, spaces, punctuation), or
    /// a kanji the table has no reading of: left for the engine.
    Other(&'t str),
}

/// Whether `c` is kana: hiragana, katakana (with `ー`), their phonetic
/// extensions and the halfwidth katakana with their sound marks.
pub fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}')
}

/// Whether `c` is written in kanji: Han, and the iteration mark `々` and
/// `〆`, which IPADIC writes inside kanji words (`人々`).
pub fn is_kanji(c: char) -> bool {
    matches!(c,
        '\u{3005}' | '\u{3006}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{3FFFF}')
}

/// Whether rules 3 read `text` as Japanese: it has kana, or `kanji` (a
/// Japanese `locale`) and kanji.
pub fn is_japanese(text: &str, kanji: bool) -> bool {
    text.chars().any(|c| is_kana(c) || (kanji && is_kanji(c)))
}

/// Longest written form looked up inside a run of kana words
/// (kana words the segmenter found one after another), in characters: IPADIC's kana words are short, and a
/// run of `n` kana asks for at most `n` times this many keys.
pub const MAX_KANA_KEY_CHARS: usize = 6;

/// Most bytes of a title read as Japanese: the rest is left to the engine
/// (as rules 2 read it), so that no title costs more than a bounded amount
/// of work and of keys (a kanji asks for up to [`MAX_KEY_CHARS`] keys).
/// A title is far shorter.
pub const MAX_READ_BYTES: usize = 1024;

/// `text` cut where its reading stops: the first [`MAX_READ_BYTES`] (at a
/// character boundary), and the rest.
pub fn read_part(text: &str) -> (&str, &str) {
    let mut cut = text.len().min(MAX_READ_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.split_at(cut)
}

/// The written forms `title` may look up, each once, in the order met:
/// the words and the forms inside them, and the counter and suffix forms
/// ([`COUNTER_MARK`], [`SUFFIX_MARK`]) of what follows digits and of a
/// kanji after a kanji word.
pub fn keys_needed<'t>(title: &'t str) -> Vec<Cow<'t, str>> {
    let mut keys: Vec<Cow<'t, str>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |key: Cow<'t, str>| {
        if seen.insert(key.clone()) {
            keys.push(key);
        }
    };
    let pieces = pieces(title);
    for (n, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Other(_) => {}
            Piece::Word(word) => {
                add(Cow::Borrowed(word));
                if !word.chars().all(is_kana) {
                    substrings(word, MAX_KEY_CHARS, &mut |k| add(Cow::Borrowed(k)));
                }
            }
            Piece::Kana { run, words } => {
                words.iter().for_each(|w| add(Cow::Borrowed(w)));
                substrings(run, MAX_KANA_KEY_CHARS, &mut |k| add(Cow::Borrowed(k)));
            }
        }
        let before = n.checked_sub(1).map(|b| &pieces[b]);
        if after_digits(before) {
            let rest = &title[offset(title, piece.text())..];
            for form in counter_prefixes(rest) {
                add(Cow::Owned(format!("{COUNTER_MARK}{form}")));
                add(Cow::Borrowed(form));
            }
        }
        if let Some(word) = suffix_word(before, piece) {
            add(Cow::Owned(format!("{SUFFIX_MARK}{word}")));
        }
    }
    keys
}

/// Whether the piece before (if any) ends in a digit.
fn after_digits(before: Option<&Piece<'_>>) -> bool {
    matches!(before, Some(Piece::Other(text)) if text.ends_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c)))
}

/// The word of `piece` when it may read as a suffix to the word before:
/// one kanji, right after a word with kanji.
fn suffix_word<'t>(before: Option<&Piece<'t>>, piece: &Piece<'t>) -> Option<&'t str> {
    match (before, piece) {
        (Some(Piece::Word(noun)), Piece::Word(word))
            if noun.chars().any(is_kanji)
                && word.chars().count() == 1
                && word.chars().all(is_kanji) =>
        {
            Some(word)
        }
        _ => None,
    }
}

/// The byte at which `part`, a slice of `text`, starts in it.
fn offset(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

/// The forms at the start of `rest` a counter may be: one to
/// [`MAX_COUNTER_CHARS`] characters of kanji and kana, longest first.
fn counter_prefixes(rest: &str) -> impl Iterator<Item = &str> {
    let ends: Vec<usize> = rest
        .char_indices()
        .take_while(|&(_, c)| is_kanji(c) || is_kana(c))
        .take(MAX_COUNTER_CHARS)
        .map(|(i, c)| i + c.len_utf8())
        .collect();
    ends.into_iter().rev().map(move |end| &rest[..end])
}

/// Calls `add` on every substring of `text` of at most `max` characters
/// but `text` itself.
fn substrings<'t>(text: &'t str, max: usize, add: &mut dyn FnMut(&'t str)) {
    let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    for (n, &start) in starts.iter().enumerate() {
        for &end in starts[n + 1..].iter().chain([&text.len()]).take(max) {
            if (start, end) != (0, text.len()) {
                add(&text[start..end]);
            }
        }
    }
}

/// `title` as words, looking written forms up with `lookup` (which is
/// only asked for keys [`keys_needed`] lists). With `counters`, what
/// follows digits is read as counters where the table has them, and a
/// kanji after a kanji word as a suffix ([`COUNTER_MARK`],
/// [`SUFFIX_MARK`]).
pub fn read<'t>(
    title: &'t str,
    counters: bool,
    lookup: impl Fn(&str) -> Option<Reading>,
) -> Vec<Word<'t>> {
    let mut out = Words::default();
    let pieces = pieces(title);
    // The title is read up to this byte: a counter may take more than
    // one piece (`3ヶ月`: `ヶ` + `月`).
    let mut read_to = 0;
    for (n, piece) in pieces.iter().enumerate() {
        let start = offset(title, piece.text());
        let end = start + piece.text().len();
        if end <= read_to {
            continue;
        }
        if start < read_to {
            read_word(&title[read_to..end], &lookup, &mut out);
            read_to = end;
            continue;
        }
        let before = n.checked_sub(1).map(|b| &pieces[b]);
        if counters && after_digits(before) {
            let len = read_counter(&title[start..], &lookup, &mut out);
            if len > 0 {
                read_to = start + len;
                if read_to < end {
                    read_word(&title[read_to..end], &lookup, &mut out);
                    read_to = end;
                }
                continue;
            }
        }
        read_to = end;
        if counters
            && let Some(word) = suffix_word(before, piece)
            && let Some(reading) = lookup(&format!("{SUFFIX_MARK}{word}"))
        {
            out.reading(&reading);
            continue;
        }
        match piece {
            Piece::Other(text) => out.other(text),
            Piece::Word(word) => read_word(word, &lookup, &mut out),
            Piece::Kana { run, words } => {
                let found: Vec<Option<Reading>> = words.iter().map(|w| lookup(w)).collect();
                if found.iter().all(Option::is_some) {
                    found
                        .iter()
                        .flatten()
                        .for_each(|reading| out.reading(reading));
                } else {
                    read_kana_run(run, &lookup, &mut out);
                }
            }
        }
    }
    out.words
}

/// Reads the counter at the start of `rest`, which follows digits: the
/// longest form that the table reads as a counter, or has at all (`ヶ月`,
/// which is only a counter); returns its length in bytes, 0 when there is
/// none.
fn read_counter(
    rest: &str,
    lookup: &impl Fn(&str) -> Option<Reading>,
    out: &mut Words<'_>,
) -> usize {
    for form in counter_prefixes(rest) {
        let reading = lookup(&format!("{COUNTER_MARK}{form}")).or_else(|| lookup(form));
        if let Some(reading) = reading {
            out.reading(&reading);
            return form.len();
        }
    }
    0
}

/// Appends a run of kana the segmenter cut into words the table does not
/// all have (`ご` `ざいま` `す`), read again as the longest kana words
/// the table has from each point on (`ござい` `ます`); kana between them
/// is romanized as written, as one word.
fn read_kana_run<'t>(run: &'t str, lookup: &impl Fn(&str) -> Option<Reading>, out: &mut Words<'t>) {
    let mut rest = run;
    let mut unread = 0;
    while !rest.is_empty() {
        let ends = rest
            .char_indices()
            .skip(1)
            .map(|(i, _)| i)
            .chain([rest.len()]);
        let ends: Vec<usize> = ends.take(MAX_KANA_KEY_CHARS).collect();
        // The whole run is a key only as a word of its own: never here.
        let found = ends
            .into_iter()
            .rev()
            .filter(|&end| end != rest.len() || rest.len() != run.len())
            .find_map(|end| lookup(&rest[..end]).map(|reading| (end, reading)));
        match found {
            Some((end, reading)) => {
                if unread > 0 {
                    let start = run.len() - rest.len() - unread;
                    out.kana(&run[start..start + unread]);
                    unread = 0;
                }
                out.reading(&reading);
                rest = &rest[end..];
            }
            None => {
                let first = rest.chars().next().map_or(0, char::len_utf8);
                unread += first;
                rest = &rest[first..];
            }
        }
    }
    if unread > 0 {
        out.kana(&run[run.len() - unread..]);
    }
}

/// The words read so far, with the kind of the last one.
#[derive(Default)]
struct Words<'t> {
    words: Vec<Word<'t>>,
    /// The kind of the last word's reading; `None` after other text or
    /// kana romanized as written.
    last: Option<Kind>,
}

impl<'t> Words<'t> {
    /// Appends a reading: an auxiliary after a verb or auxiliary joins
    /// it, anything else is a word of its own.
    fn reading(&mut self, reading: &Reading) {
        let joins = reading.kind == Kind::Auxiliary
            && matches!(self.last, Some(Kind::Verb | Kind::Auxiliary));
        match self.words.last_mut() {
            Some(Word::Read(text)) if joins => reading.romanize_into(text),
            _ => {
                let mut text = String::with_capacity(reading.kana.len());
                reading.romanize_into(&mut text);
                self.words.push(Word::Read(text));
            }
        }
        self.last = Some(reading.kind);
    }

    /// Appends kana the table has no reading of, romanized as written.
    fn kana(&mut self, kana: &str) {
        self.words
            .push(Word::Read(hepburn::romanize(kana, Kind::Other)));
        self.last = None;
    }

    /// Appends text that is not read.
    fn other(&mut self, text: &'t str) {
        self.words.push(Word::Other(text));
        self.last = None;
    }
}

/// `title` read ([`read`]) into one string: romanized words apart by a
/// space, other text as it was, a space between it and a romanized word
/// where it has none.
pub fn read_to_string(
    title: &str,
    counters: bool,
    lookup: impl Fn(&str) -> Option<Reading>,
) -> String {
    let mut out = String::with_capacity(title.len());
    for word in read(title, counters, lookup) {
        let text = match &word {
            Word::Read(text) => text.as_str(),
            Word::Other(text) => text,
        };
        if text.is_empty() {
            continue;
        }
        let apart = !out.ends_with(char::is_whitespace) && !text.starts_with(char::is_whitespace);
        if !out.is_empty() && apart {
            out.push(' ');
        }
        out.push_str(text);
    }
    out
}

/// A part of a title as [`read`] reads it.
enum Piece<'t> {
    /// Text without kana or kanji.
    Other(&'t str),
    /// A word the segmenter found with kanji in it, or a kana word
    /// between words of other kinds.
    Word(&'t str),
    /// Words of kana alone that the segmenter found one after another,
    /// and the text of them all.
    Kana { run: &'t str, words: Vec<&'t str> },
}

impl<'t> Piece<'t> {
    /// The piece's text.
    fn text(&self) -> &'t str {
        match self {
            Piece::Other(text) | Piece::Word(text) => text,
            Piece::Kana { run, .. } => run,
        }
    }
}

/// The segmenter's words of `title` as [`Piece`]s.
fn pieces<'t>(title: &'t str) -> Vec<Piece<'t>> {
    let segmenter = WordSegmenter::new_dictionary(WordBreakInvariantOptions::default());
    let ends: Vec<usize> = segmenter.segment_str(title).collect();
    let mut pieces = Vec::new();
    let mut kana: Vec<(usize, usize)> = Vec::new();
    let flush = |kana: &mut Vec<(usize, usize)>, pieces: &mut Vec<Piece<'t>>| {
        match kana[..] {
            [] => {}
            [(start, end)] => pieces.push(Piece::Word(&title[start..end])),
            _ => pieces.push(Piece::Kana {
                run: &title[kana[0].0..kana[kana.len() - 1].1],
                words: kana
                    .iter()
                    .map(|&(start, end)| &title[start..end])
                    .collect(),
            }),
        }
        kana.clear();
    };
    for pair in ends.windows(2) {
        let word = &title[pair[0]..pair[1]];
        if word.chars().all(is_kana) {
            kana.push((pair[0], pair[1]));
            continue;
        }
        flush(&mut kana, &mut pieces);
        if word.chars().any(|c| is_kana(c) || is_kanji(c)) {
            pieces.push(Piece::Word(word));
        } else {
            pieces.push(Piece::Other(word));
        }
    }
    flush(&mut kana, &mut pieces);
    pieces
}

/// Appends the words of one segmented word.
fn read_word<'t>(word: &'t str, lookup: &impl Fn(&str) -> Option<Reading>, out: &mut Words<'t>) {
    if let Some(reading) = lookup(word) {
        return compound(word, &reading, lookup, out);
    }
    let mut rest = word;
    // A word of kana alone is only ever asked for whole.
    while !rest.is_empty() {
        if rest.chars().all(is_kana) {
            let whole = (rest.chars().count() <= MAX_KEY_CHARS && rest != word)
                .then(|| lookup(rest))
                .flatten();
            match whole {
                Some(reading) => out.reading(&reading),
                None => out.kana(rest),
            }
            return;
        }
        if let Some((len, reading)) = longest_prefix(rest, lookup) {
            compound(&rest[..len], &reading, lookup, out);
            rest = &rest[len..];
            continue;
        }
        if rest.starts_with(is_kana) {
            let run = rest.find(|c| !is_kana(c)).unwrap_or(rest.len());
            out.kana(&rest[..run]);
            rest = &rest[run..];
        } else {
            let first = rest.chars().next().map_or(0, char::len_utf8);
            out.other(&rest[..first]);
            rest = &rest[first..];
        }
    }
}

/// Appends the reading of a written form the table has, as two words
/// when it is a compound of two words of two kanji or more whose second
/// the table reads as the compound's reading ends (`羽田空港`
/// `ハネダクウコウ` ends as `空港` `クウコウ`: `haneda kuko`, where a
/// one-kanji end such as `日本語`'s `語` stays inside: `nihongo`). The
/// first part keeps the compound's reading of it (`羽田` alone reads
/// `ハタ`), and is split again the same way.
fn compound(
    form: &str,
    reading: &Reading,
    lookup: &impl Fn(&str) -> Option<Reading>,
    out: &mut Words<'_>,
) {
    let starts: Vec<usize> = form.char_indices().map(|(i, _)| i).collect();
    let splittable = reading.kind == Kind::Other && form.chars().any(is_kanji) && starts.len() >= 4;
    if splittable {
        let first_chars = starts.len().saturating_sub(MAX_KEY_CHARS).max(2);
        for &at in &starts[first_chars..starts.len() - 1] {
            let (head, tail) = form.split_at(at);
            let Some(second) = lookup(tail) else { continue };
            let Some(first_kana) = reading.kana.strip_suffix(&*second.kana) else {
                continue;
            };
            if first_kana.is_empty() {
                continue;
            }
            compound(head, &Reading::new(first_kana, Kind::Other), lookup, out);
            out.reading(&second);
            return;
        }
    }
    out.reading(reading);
}

/// The longest written form at the start of `text` that `lookup` has, of
/// at most [`MAX_KEY_CHARS`] characters: its length in bytes and reading.
fn longest_prefix(
    text: &str,
    lookup: &impl Fn(&str) -> Option<Reading>,
) -> Option<(usize, Reading)> {
    let ends: Vec<usize> = text
        .char_indices()
        .skip(1)
        .map(|(i, _)| i)
        .chain([text.len()])
        .take(MAX_KEY_CHARS)
        .collect();
    ends.into_iter()
        .rev()
        .find_map(|end| lookup(&text[..end]).map(|reading| (end, reading)))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// A few of IPADIC's readings, as `super::ipadic` keeps them.
    fn table() -> HashMap<&'static str, Reading> {
        [
            ("東京", "トウキョウ", Kind::Other),
            ("タワー", "タワー", Kind::Other),
            ("へ", "エ", Kind::Particle),
            ("は", "ワ", Kind::Particle),
            ("ようこそ", "ヨウコソ", Kind::Other),
            ("羽田", "ハタ", Kind::Other),
            ("羽田空港", "ハネダクウコウ", Kind::Other),
            ("空港", "クウコウ", Kind::Other),
            ("日本", "ニッポン", Kind::Other),
            ("日本語", "ニホンゴ", Kind::Other),
            ("年", "トシ", Kind::Other),
            ("\u{1}年", "ネン", Kind::Other),
            ("ヶ月", "カゲツ", Kind::Other),
            ("中華", "チュウカ", Kind::Other),
            ("街", "マチ", Kind::Other),
            ("\u{2}街", "ガイ", Kind::Other),
            ("の", "ノ", Kind::Particle),
            ("目標", "モクヒョウ", Kind::Other),
        ]
        .into_iter()
        .map(|(surface, kana, kind)| (surface, Reading::new(kana, kind)))
        .collect()
    }

    /// Reads `title` as Redis would: only the keys it asks for first.
    fn by_keys(title: &str) -> String {
        by_keys_with(title, false)
    }

    /// [`by_keys`], with counters and suffixes read or not.
    fn by_keys_with(title: &str, counters: bool) -> String {
        let table = table();
        let found: HashMap<String, Reading> = keys_needed(title)
            .into_iter()
            .filter_map(|key| {
                table
                    .get(&*key)
                    .map(|reading| (key.into_owned(), reading.clone()))
            })
            .collect();
        let in_process = read_to_string(title, counters, |key| table.get(key).cloned());
        let fetched = read_to_string(title, counters, |key| found.get(key).cloned());
        assert_eq!(in_process, fetched, "{title}");
        fetched
    }

    /// After digits a counter reads as a counter (JMdict's readings in
    /// `tests/data/standards/ja-counters.tsv`), and a kanji after a kanji
    /// word as a suffix; not without `counters` (rules before 5).
    #[test]
    fn counters_and_suffixes_read_as_such() {
        assert_eq!(by_keys_with("2024年の目標", true), "2024 nen no mokuhyo");
        assert_eq!(by_keys_with("3ヶ月", true), "3 kagetsu");
        assert_eq!(by_keys_with("中華街", true), "chuka gai");
        assert_eq!(by_keys_with("年の目標", true), "toshi no mokuhyo");
        assert_eq!(by_keys_with("2024年の目標", false), "2024 toshi no mokuhyo");
        assert_eq!(by_keys_with("中華街", false), "chuka machi");
    }

    #[test]
    fn words_are_read_by_the_table_and_kana_as_written() {
        assert_eq!(by_keys("日本語"), "nihongo");
        assert_eq!(by_keys("東京タワーへようこそ"), "tokyo tawa e yokoso");
        assert_eq!(by_keys("ありがとう"), "arigato");
    }

    #[test]
    fn compounds_split_where_the_second_words_reading_ends_theirs() {
        assert_eq!(by_keys("羽田空港"), "haneda kuko");
        assert_eq!(by_keys("日本語"), "nihongo");
    }

    #[test]
    fn auxiliaries_join_the_verb_before() {
        let table: HashMap<&str, Reading> = [
            ("行き", "イキ", Kind::Verb),
            ("まし", "マシ", Kind::Auxiliary),
            ("た", "タ", Kind::Auxiliary),
            ("田中", "タナカ", Kind::Other),
            ("です", "デス", Kind::Auxiliary),
        ]
        .into_iter()
        .map(|(surface, kana, kind)| (surface, Reading::new(kana, kind)))
        .collect();
        let read = |title| read_to_string(title, true, |key| table.get(key).cloned());
        assert_eq!(read("行きました"), "ikimashita");
        assert_eq!(read("田中です"), "tanaka desu");
    }

    #[test]
    fn other_text_is_left_for_the_engine() {
        assert_eq!(by_keys("iPhone 15は東京へ"), "iPhone 15 wa tokyo e");
        assert_eq!(by_keys("東京 2020"), "tokyo 2020");
        let words = read("東京、鬱", true, |key| table().get(key).cloned());
        assert_eq!(
            words,
            [
                Word::Read("tokyo".into()),
                Word::Other("、"),
                Word::Other("鬱")
            ]
        );
    }

    #[test]
    fn a_word_the_table_lacks_is_read_by_its_longest_forms() {
        let table = table();
        let mut words = Words::default();
        read_word("日本語東京", &|key| table.get(key).cloned(), &mut words);
        read_word("東京へ", &|key| table.get(key).cloned(), &mut words);
        let words: Vec<_> = words.words.iter().map(|w| format!("{w:?}")).collect();
        assert_eq!(
            words,
            [
                r#"Read("nihongo")"#,
                r#"Read("tokyo")"#,
                r#"Read("tokyo")"#,
                r#"Read("e")"#
            ]
        );
    }

    #[test]
    fn keys_are_every_form_inside_a_kanji_word_and_kana_words_whole() {
        assert_eq!(keys_needed("ようこそ"), ["ようこそ"]);
        let keys = keys_needed("日本語");
        for key in ["日本語", "日", "日本", "本", "本語", "語"] {
            assert!(
                keys.contains(&std::borrow::Cow::Borrowed(key)),
                "{key} in {keys:?}"
            );
        }
        assert_eq!(keys.len(), 6);
        assert!(keys_needed("iPhone 15").is_empty());
    }

    #[test]
    fn readings_encode_their_kind() {
        for reading in [
            Reading::new("ワ", Kind::Particle),
            Reading::new("オモウ", Kind::Verb),
            Reading::new("マス", Kind::Auxiliary),
            Reading::new("トウキョウ", Kind::Other),
        ] {
            let mut value = String::new();
            reading.encode_into(&mut value);
            assert_eq!(Reading::decode(&value), reading);
        }
    }
}
