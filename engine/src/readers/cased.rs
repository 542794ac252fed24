//! A letter's case kept in what a standard writes for it: the readers of
//! words write each letter's ASCII through [`Cased`].

/// Writes what a standard gives for each letter of a word in the letter's
/// case: a capital's text capitalized (`Щ` `Shch`), and every letter of a
/// word written in capitals in capitals (`ЩИ` `SHCHI`). The letters (a
/// few bytes of ASCII each) gather in a buffer that is written out when
/// full and when the word is done: one copy instead of one a letter.
pub(crate) struct Cased<'o> {
    out: &'o mut String,
    all_caps: bool,
    buf: [u8; 64],
    len: usize,
}

impl<'o> Cased<'o> {
    /// For a word of `letters` letters, `capitals` of them capitals.
    pub(crate) fn new(out: &'o mut String, letters: usize, capitals: usize) -> Self {
        Cased {
            out,
            all_caps: letters > 1 && capitals == letters,
            buf: [0; 64],
            len: 0,
        }
    }

    /// `text` (ASCII), what a letter is written as, in its case (`upper`).
    #[inline]
    pub(crate) fn push(&mut self, text: &str, upper: bool) {
        let bytes = text.as_bytes();
        if self.len + bytes.len() > self.buf.len() {
            self.flush();
            if bytes.len() > self.buf.len() {
                self.out.push_str(text);
                return;
            }
        }
        for (k, &byte) in bytes.iter().enumerate() {
            let capital = upper && (self.all_caps || k == 0);
            self.buf[self.len] = match capital {
                true => byte.to_ascii_uppercase(),
                false => byte,
            };
            self.len += 1;
        }
    }

    /// `first` and then `second`, which two letters make together (`αυ`
    /// `av`), in the first letter's case (`upper`).
    pub(crate) fn push_pair(&mut self, first: &str, second: &str, upper: bool) {
        self.push(first, upper);
        self.push(second, upper && self.all_caps);
    }

    /// Writes out what the buffer holds.
    fn flush(&mut self) {
        let written = &self.buf[..self.len];
        // The standards write ASCII; anything else is left out.
        if let Ok(text) = std::str::from_utf8(written) {
            self.out.push_str(text);
        }
        self.len = 0;
    }
}

impl Drop for Cased<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}
