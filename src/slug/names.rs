//! How the engine asks for names: the [`SymbolNames`] trait a table
//! implements, and the two simplest implementations (no table, a map).

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
}

/// No table at all: every character is transliterated.
pub struct NoSymbols;

impl SymbolNames for NoSymbols {
    fn name(&self, _: char) -> Option<&str> {
        None
    }
}

impl<V: AsRef<str>, S: std::hash::BuildHasher> SymbolNames
    for std::collections::HashMap<char, V, S>
{
    fn name(&self, c: char) -> Option<&str> {
        self.get(&c).map(AsRef::as_ref)
    }
}
