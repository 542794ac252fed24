//! The two-byte characters (U+0080 to U+07FF: Latin, Greek, Cyrillic,
//! Armenian, Hebrew, Arabic, ...) that deunicode writes as one to four
//! ASCII letters or digits and nothing else, in one table made at first
//! use. Most non-ASCII letters of a title are such characters, and for
//! them the engine's rules come to one thing: write the letters. With the
//! table the engine does so in one look-up ([`Plain::letters`]), instead
//! of asking deunicode and then the rules about each byte; every other
//! character takes the engine's full path, so the slug is the same.

use std::sync::LazyLock;

/// The first code point of the table: two-byte UTF-8 starts here.
const FIRST: u32 = 0x80;

/// The code point after the table's last: three-byte UTF-8 starts here.
const END: u32 = 0x800;

/// For each code point from [`FIRST`], deunicode's letters and digits in
/// the low bytes of a word, in order (so 0 bytes pad it: no letter is 0),
/// or 0 when it writes anything else: nothing, punctuation, a space,
/// more than four bytes.
static TABLE: LazyLock<Box<[u32]>> = LazyLock::new(|| (FIRST..END).map(entry).collect());

/// The table's word for code point `cp`.
fn entry(cp: u32) -> u32 {
    let text = char::from_u32(cp).and_then(deunicode::deunicode_char);
    match text {
        Some(text)
            if (1..=4).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            let mut word = [0u8; 4];
            word[..text.len()].copy_from_slice(text.as_bytes());
            u32::from_le_bytes(word)
        }
        _ => 0,
    }
}

/// The table, looked up once per title.
#[derive(Clone, Copy)]
pub(super) struct Plain(&'static [u32]);

impl Plain {
    /// The table, made at the first call.
    #[inline]
    pub(super) fn get() -> Self {
        Plain(&TABLE)
    }

    /// The letters and digits deunicode writes for code point `cp`, as a
    /// word of up to four bytes, 0 bytes after them; `None` when it writes
    /// anything else, or `cp` is not a two-byte character.
    #[inline]
    pub(super) fn letters(self, cp: u32) -> Option<u32> {
        match self.0.get(cp.wrapping_sub(FIRST) as usize) {
            Some(&word) if word != 0 => Some(word),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(c: char) -> Option<String> {
        let word = Plain::get().letters(c as u32)?;
        let text: Vec<u8> = word
            .to_le_bytes()
            .into_iter()
            .take_while(|&b| b != 0)
            .collect();
        Some(String::from_utf8(text).unwrap())
    }

    #[test]
    fn holds_what_deunicode_writes_as_letters_and_digits_only() {
        assert_eq!(letters('é').as_deref(), Some("e"));
        assert_eq!(letters('ß').as_deref(), Some("ss"));
        assert_eq!(letters('Ж').as_deref(), Some("Zh"));
        assert_eq!(letters('щ').as_deref(), Some("shch"));
        assert_eq!(letters('Ω').as_deref(), Some("O"));
        // A quote, nothing, a symbol's punctuation: the full path.
        assert_eq!(letters('ь'), None);
        assert_eq!(letters('ا'), None);
        assert_eq!(letters('©'), None);
    }
}
