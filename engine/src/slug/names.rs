//! How the engine asks for names: the [`SymbolNames`] trait a table
//! implements, and the two simplest implementations (no table, a map).

use crate::readers::japanese::Reading;
use crate::readers::vowels::{Language, VowelModel};

/// Names characters of the symbol table. `None` means "not a table
/// character": the engine transliterates it instead.
pub trait SymbolNames {
    /// The trimmed name of `c`, when `c` is a table character.
    fn name(&self, c: char) -> Option<&str>;

    /// The name of the longest emoji sequence (two characters or more,
    /// U+FE0F aside) at the start of `text`, with the bytes it covers.
    #[inline]
    fn sequence(&self, text: &str) -> Option<(usize, &str)> {
        let _ = text;
        None
    }

    /// Whether a [`SymbolNames::sequence`] may start with `c`, a non-ASCII
    /// character: the engine asks for a sequence only where one may start,
    /// and most characters are letters that start none. Any character
    /// may, unless a table knows better.
    #[inline]
    fn may_start_sequence(&self, c: char) -> bool {
        c as u32 >= self.sequence_floor()
    }

    /// The lowest character (as a number) [`SymbolNames::may_start_sequence`]
    /// may hold for: the engine compares the letters of most scripts with
    /// it once, and asks no more of them. Every non-ASCII character (0x80)
    /// unless a table knows better.
    #[inline]
    fn sequence_floor(&self) -> u32 {
        0x80
    }

    /// Whether the table has Japanese readings (IPADIC's):
    /// without them, rules 3 read Japanese as rules 2 do.
    #[inline]
    fn has_readings(&self) -> bool {
        false
    }

    /// The reading of the Japanese written form `form`, if the table has
    /// one.
    #[inline]
    fn reading(&self, form: &str) -> Option<Reading> {
        let _ = form;
        None
    }

    /// The model of `language`'s unwritten vowels, when the table has one
    /// (rules 6 read Persian, Urdu and Arabic without vowel marks by it).
    #[inline]
    fn vowels(&self, language: Language) -> Option<&VowelModel> {
        let _ = language;
        None
    }
}

/// No table at all: every character is transliterated.
pub struct NoSymbols;

impl SymbolNames for NoSymbols {
    fn name(&self, _: char) -> Option<&str> {
        None
    }

    fn sequence_floor(&self) -> u32 {
        u32::MAX
    }
}

impl<V: AsRef<str>, S: std::hash::BuildHasher> SymbolNames
    for std::collections::HashMap<char, V, S>
{
    fn name(&self, c: char) -> Option<&str> {
        self.get(&c).map(AsRef::as_ref)
    }
}
