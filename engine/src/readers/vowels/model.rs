//! A model of vowels, and its text form: what a Redis table's meta and a
//! prepared file hold ([`VowelModel::encode`], [`VowelModel::decode`]).
//! Each context is a letter with the letters around it, packed in a number
//! ([`pack`]), and whether a vowel or a consonant was written last.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Language, MODELS};

/// The vowels Persian and Urdu leave unwritten, as ASCII.
pub(super) const VOWELS: &[u8] = b"aeiou";

/// The contexts, widest first: letters before and after the letter.
pub(super) const LEVELS: [(usize, usize); 6] = [(2, 3), (2, 2), (1, 2), (1, 1), (0, 1), (0, 0)];

/// A model of a language's letters in context: for each context, the
/// ASCII its letter is read as ([`train`] says how it is learnt). Some
/// 12,000 contexts, each a number of eight bytes and a reading's of two.
/// Two models are equal when they read alike (their text forms are
/// equal), however their letters are numbered.
#[derive(Debug, Clone, Default)]
pub struct VowelModel {
    /// The language it reads.
    pub(super) language: Language,
    /// Its letters, numbered.
    pub(super) alphabet: Alphabet,
    /// Context (packed: [`pack`]) -> its reading in `chunks`.
    pub(super) contexts: HashMap<u64, u16>,
    /// The readings, each once.
    pub(super) chunks: Vec<Box<str>>,
    /// Arabic's lexicon of names, which rules 7 read (empty for the other
    /// languages, and where none was loaded): not in [`VowelModel::encode`]'s
    /// text, which rules 6's readers keep reading, but in
    /// [`super::names::Names::encode`]'s.
    pub(super) names: super::names::Names,
}

/// A model's letters as numbers of seven bits: 0 a letter it does not
/// know, 1 and 2 the padding before and after a word, then its letters
/// in the order first seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Alphabet {
    pub(super) letters: Vec<char>,
}

/// A letter the model does not know.
pub(super) const OTHER: u8 = 0;
/// The padding before a word (`^` in the text form).
pub(super) const BEFORE: u8 = 1;
/// The padding after a word (`$`).
pub(super) const AFTER: u8 = 2;
/// How many letters an alphabet holds (ids up to 127).
pub(super) const MAX_LETTERS: usize = 125;

impl Alphabet {
    /// The number of `c`, [`OTHER`] if it does not know it.
    pub(super) fn id(&self, c: char) -> u8 {
        match c {
            '^' => BEFORE,
            '$' => AFTER,
            c => self
                .letters
                .iter()
                .position(|&l| l == c)
                .and_then(|at| u8::try_from(at + 3).ok())
                .unwrap_or(OTHER),
        }
    }

    /// The number of `c`, given one if it has none (while it has room;
    /// `?`, the text form's letter it does not know, has none).
    pub(super) fn learn(&mut self, c: char) -> u8 {
        match self.id(c) {
            OTHER if self.letters.len() < MAX_LETTERS && !matches!(c, '^' | '$' | '?') => {
                self.letters.push(c);
                u8::try_from(self.letters.len() + 2).unwrap_or(OTHER)
            }
            id => id,
        }
    }

    /// The letter of number `id`.
    pub(super) fn char_of(&self, id: u8) -> char {
        match id {
            BEFORE => '^',
            AFTER => '$',
            OTHER => '?',
            id => self.letters[usize::from(id) - 3],
        }
    }
}

/// The flag of what was written last: 1 nothing, 2 a vowel, 3 a
/// consonant (0: no flag, the narrowest level's).
pub(super) fn flag(written: &str) -> u8 {
    match written.as_bytes().last() {
        None => 1,
        Some(b) if VOWELS.contains(b) => 2,
        Some(_) => 3,
    }
}

/// The flag's letter in the text form.
const FLAGS: [char; 4] = ['-', '^', 'V', 'C'];

/// A context as a number: its level in the top byte, the flag below it,
/// then its letters seven bits each (at most six), the last lowest.
pub(super) fn pack(level: usize, flag: u8, letters: &[u8]) -> u64 {
    let mut key = (level as u64) << 56 | u64::from(flag) << 48;
    for (k, &letter) in letters.iter().rev().enumerate() {
        key |= u64::from(letter & 0x7F) << (7 * k);
    }
    key
}

/// A packed context's level, flag and letters.
pub(super) fn unpack(key: u64) -> (usize, u8, Vec<u8>) {
    let level = usize::try_from(key >> 56)
        .unwrap_or(0)
        .min(LEVELS.len() - 1);
    let flag = ((key >> 48) & 0xFF) as u8;
    let (left, right) = LEVELS[level];
    let n = left + 1 + right;
    let letters = (0..n)
        .map(|j| ((key >> (7 * (n - 1 - j))) & 0x7F) as u8)
        .collect();
    (level, flag, letters)
}

/// The key of letter `at` of `padded` (letter numbers, four paddings
/// either side) at `level`, after `flag`.
pub(super) fn key_at(padded: &[u8], at: usize, level: usize, flag: u8) -> u64 {
    let (left, right) = LEVELS[level];
    let flag = if level + 1 < LEVELS.len() { flag } else { 0 };
    pack(level, flag, &padded[at - left..=at + right])
}

/// `word`'s letters as `alphabet` numbers them, four paddings either side.
pub(super) fn padded(word: impl Iterator<Item = u8>) -> Vec<u8> {
    let mut padded = vec![BEFORE; 4];
    padded.extend(word);
    padded.extend([AFTER; 4]);
    padded
}

impl PartialEq for VowelModel {
    fn eq(&self, other: &Self) -> bool {
        self.encode() == other.encode() && self.names == other.names
    }
}

impl Eq for VowelModel {}

impl VowelModel {
    /// The language it reads.
    pub fn language(&self) -> Language {
        self.language
    }

    /// How many contexts it holds.
    pub fn entries(&self) -> usize {
        self.contexts.len()
    }

    /// Its lexicon of names (Arabic's; empty where none was loaded).
    pub fn names(&self) -> &super::names::Names {
        &self.names
    }

    /// With `names` as its lexicon of names.
    pub fn with_names(mut self, names: super::names::Names) -> Self {
        self.names = names;
        self
    }

    /// Heap bytes it holds, roughly: its map's slots, its readings and
    /// its letters.
    pub fn heap_bytes(&self) -> usize {
        self.contexts.capacity() * (std::mem::size_of::<(u64, u16)>() + 1)
            + self
                .chunks
                .iter()
                .map(|c| c.len() + std::mem::size_of::<Box<str>>())
                .sum::<usize>()
            + self.alphabet.letters.capacity() * std::mem::size_of::<char>()
            + self.names.heap_bytes()
    }

    /// The model as text, to store: a header line, then one line per
    /// context, `level TAB context TAB ASCII`, the context its flag (`^`
    /// nothing written yet, `V` a vowel, `C` a consonant; none at the
    /// narrowest level), the letters before, `|`, the letter, `|`, the
    /// letters after; sorted.
    pub fn encode(&self) -> String {
        let mut lines: Vec<String> = self
            .contexts
            .iter()
            .map(|(&key, &id)| {
                let (level, flag, letters) = unpack(key);
                let (left, _) = LEVELS[level];
                let mut line = format!("{level}\t");
                if flag != 0 {
                    line.push(FLAGS[usize::from(flag & 3)]);
                }
                for (j, &letter) in letters.iter().enumerate() {
                    if j == left || j == left + 1 {
                        line.push('|');
                    }
                    line.push(self.alphabet.char_of(letter));
                }
                let _ = write!(line, "\t{}", self.chunks[usize::from(id)]);
                line
            })
            .collect();
        lines.sort_unstable();
        let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum::<usize>() + 20);
        text.push_str(self.language.format());
        text.push('\n');
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// The model from [`VowelModel::encode`]'s text.
    pub fn decode(text: &str) -> Result<Self, String> {
        let mut lines = text.lines();
        let first = lines.next();
        let Some(language) = Language::ALL
            .into_iter()
            .find(|l| first == Some(l.format()))
        else {
            let formats: Vec<String> = MODELS.iter().map(|m| format!("`{}`", m.format)).collect();
            return Err(format!(
                "not a model of vowels (no {} line)",
                formats.join(" or ")
            ));
        };
        let mut model = VowelModel {
            language,
            ..VowelModel::default()
        };
        let mut chunk_ids: HashMap<&str, u16> = HashMap::new();
        for (n, line) in lines.enumerate() {
            let bad = |what: &str| format!("line {}: {what}: {line:?}", n + 2);
            let mut fields = line.split('\t');
            let (Some(level), Some(context), Some(chunk), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(bad("not level, context and reading"));
            };
            let level: usize = level
                .parse()
                .ok()
                .filter(|&l| l < LEVELS.len())
                .ok_or_else(|| bad("no such level"))?;
            if !chunk.bytes().all(|b| b.is_ascii_lowercase()) {
                return Err(bad("a reading not in a-z"));
            }
            let mut chars = context.chars();
            let flag = match level + 1 < LEVELS.len() {
                true => chars
                    .next()
                    .and_then(|c| FLAGS.iter().position(|&f| f == c))
                    .and_then(|f| u8::try_from(f).ok())
                    .filter(|&f| f > 0)
                    .ok_or_else(|| bad("no flag"))?,
                false => 0,
            };
            let letters: Vec<u8> = chars
                .filter(|&c| c != '|')
                .map(|c| model.alphabet.learn(c))
                .collect();
            let (left, right) = LEVELS[level];
            if letters.len() != left + 1 + right {
                return Err(bad("a context of another width"));
            }
            let next = u16::try_from(model.chunks.len()).unwrap_or(u16::MAX);
            let id = *chunk_ids.entry(chunk).or_insert_with(|| {
                model.chunks.push(chunk.into());
                next
            });
            model.contexts.insert(pack(level, flag, &letters), id);
        }
        Ok(model)
    }
}
