//! One pass over a rewritten title's bytes into a slug: the [`Builder`]
//! that writes words and separators, and [`build`], the loop that applies
//! steps 1 to 6 of the engine (see the parent module's doc) to each
//! character.

use super::classes::{
    AND, Class, between_digits, class_of, groups_digits, is_ampersand, is_traceless,
    spelled_letter, starts_word, word_follows,
};
use super::names::SymbolNames;
use super::plain::Plain;
use crate::named;
use crate::options::{Options, StopWords};
use crate::readers::japanese;
use crate::readers::runs;
use crate::readers::scan;
use crate::readers::words::{self, AtWord, Chosen, Letters};
use crate::rules::Switch;

/// For each byte: itself if an ASCII letter or digit, folded to lowercase
/// when `LOWER`; 0 otherwise. One load replaces range checks and folding.
const fn alnum_table(fold: bool) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        if byte.is_ascii_alphanumeric() {
            table[b] = if fold {
                byte.to_ascii_lowercase()
            } else {
                byte
            };
        }
        b += 1;
    }
    table
}

static LOWERED: [u8; 256] = alnum_table(true);
static AS_IS: [u8; 256] = alnum_table(false);

/// Builds the slug. A separator is written as soon as a word ends and
/// taken back if nothing follows, which keeps the path for letters and
/// digits to one push.
///
/// `EXTRAS` is whether any of `stopwords`, `decamelize` and `preserve` is
/// on: without them (the usual case) their checks are compiled out of the
/// per-byte and per-word paths.
struct Builder<'a, const EXTRAS: bool> {
    /// ASCII only. A `String` rather than bytes, so that it becomes the
    /// slug without a UTF-8 validation.
    out: String,
    separator: &'a str,
    /// [`LOWERED`] or [`AS_IS`].
    alnum: &'static [u8; 256],
    /// Whether `out` ends with a separator (or is empty): no second one,
    /// and no word char before the next character.
    after_separator: bool,
    /// The words to drop as each word ends; `None` when there are none,
    /// so the usual slug pays one branch per word.
    stopwords: Option<&'a StopWords>,
    /// Where the current word starts in `out`.
    word_start: usize,
    /// Whether a stopword was dropped.
    dropped: bool,
    /// `decamelize`: split words at case changes of what is written.
    camel: bool,
    /// With `camel`, the last two letters or digits written in this word,
    /// as they were before folding (0 for none).
    last: [u8; 2],
    /// With `camel` by rules 2: where in `out` the word splits if a
    /// lower-case letter comes next, and whether an `s` was let through
    /// after it (`APIs` and `3D` stay whole, `APIsection` and `3Dprint` split
    /// as rules 1 split them).
    pending: Option<(usize, bool)>,
    /// Rules 2 or later: a letter's transliteration is part of its word
    /// (its punctuation leaves no trace, `spelled_letter` spells the letters
    /// deunicode writes as punctuation alone), `‘` joins like `’`, and
    /// `decamelize` keeps acronyms, plurals of acronyms and `iPhone` whole.
    /// Checked only where rules 1 would separate, so their path is
    /// unchanged.
    letters: bool,
    /// The word `&` reads as (the locale's), or `None` to separate.
    and: Option<&'a str>,
    /// Where in `out` the last run of ASCII letters and digits of the
    /// title began, if it began a word (`usize::MAX` if not): a keycap's
    /// digit must be such a run of its own.
    run_start: usize,
}

impl<const EXTRAS: bool> Builder<'_, EXTRAS> {
    /// Appends `byte` if it is an ASCII letter or digit; returns whether
    /// it was.
    #[inline]
    fn push_if_alnum(&mut self, byte: u8) -> bool {
        if EXTRAS && self.camel {
            return self.push_camel(byte);
        }
        let out = self.alnum[byte as usize];
        if out != 0 {
            // The tables hold ASCII only; the mask shows it to the
            // compiler, so this is a one-byte push.
            self.out.push(char::from(out & 0x7F));
            self.after_separator = false;
        }
        out != 0
    }

    /// Appends the ASCII letters and digits at the start of `bytes`, at
    /// least one; returns how many there were. Most of a title is such
    /// runs, so this loop does no more than look up, push and count.
    #[inline]
    fn push_word(&mut self, bytes: &[u8]) -> usize {
        if EXTRAS && self.camel {
            return bytes.iter().take_while(|&&b| self.push_camel(b)).count();
        }
        self.after_separator = false;
        // Held in a local: for all the compiler knows, each byte written
        // could change the field, which it would then load again each time.
        let alnum = self.alnum;
        let mut n = 0;
        for &byte in bytes {
            let out = alnum[byte as usize];
            if out == 0 {
                break;
            }
            // One byte, as in `push_if_alnum`.
            self.out.push(char::from(out & 0x7F));
            n += 1;
        }
        n
    }

    /// `push_if_alnum` for `decamelize`: a word ends before an upper-case
    /// letter that follows a lower-case letter or a digit (`fooBar`), and
    /// before the last of a run of capitals followed by a lower-case letter
    /// (`APISection`). Judged on what is written, before case folding, so
    /// a slug slugged again splits nowhere new.
    ///
    /// By rules 2, not inside `iPhone` (one lower-case letter, then a
    /// capital), not before a capital after a digit unless a lower-case
    /// letter follows it (`3D`, `U2F`, but `A4Paper`), and not before the
    /// last of a run of capitals followed by an `s` that ends the word
    /// (`APIs`, `IDs`): such splits wait in `pending` for the next byte.
    #[cold]
    fn push_camel(&mut self, byte: u8) -> bool {
        let out = self.alnum[byte as usize];
        if out == 0 {
            return false;
        }
        if let Some((at, s_seen)) = self.pending.take()
            && byte.is_ascii_lowercase()
        {
            if byte == b's' && !s_seen {
                self.pending = Some((at, true));
                self.write_camel(byte, out);
                return true;
            }
            self.split_at(at);
        }
        let [before, last] = self.last;
        if !self.after_separator {
            if byte.is_ascii_uppercase() && last.is_ascii_lowercase() {
                // `iPhone`, `eBay` by rules 2: one lower-case letter so far.
                if !(self.letters && before == 0) {
                    self.separate();
                }
            } else if byte.is_ascii_uppercase() && last.is_ascii_digit() {
                if self.letters {
                    self.pending = Some((self.out.len(), false));
                } else {
                    self.separate();
                }
            } else if byte.is_ascii_lowercase()
                && last.is_ascii_uppercase()
                && before.is_ascii_uppercase()
            {
                let capital = self.out.len() - 1;
                if self.letters && byte == b's' {
                    self.pending = Some((capital, true));
                } else {
                    // The last capital starts the new word.
                    self.split_at(capital);
                }
            }
        }
        self.write_camel(byte, out);
        true
    }

    /// Writes a letter or digit of `push_camel`.
    fn write_camel(&mut self, byte: u8, out: u8) {
        self.out.push(char::from(out & 0x7F));
        self.after_separator = false;
        self.last = [self.last[1], byte];
    }

    /// Ends the word at `out[at]` in the middle of writing it: what was
    /// written from there becomes the start of the next word.
    /// `last` stays what it was: the tail's last letters (one capital, or
    /// a capital and `s`), the only ones of the new word.
    fn split_at(&mut self, at: usize) {
        let tail = self.out.split_off(at);
        let last = self.last;
        self.separate();
        self.out.push_str(&tail);
        self.after_separator = false;
        self.last = match tail.len() {
            1 => [0, last[1]],
            _ => last,
        };
    }

    /// Appends a byte of `preserve` inside a word.
    ///
    /// For `decamelize` it is no letter: what follows is judged as the
    /// start of a word (`x.iPhone` keeps `iPhone` whole by rules 2, as a
    /// slug of it slugged again does).
    fn push_kept(&mut self, byte: u8) {
        self.out.push(char::from(byte & 0x7F));
        self.after_separator = false;
        self.last = [0, 0];
        self.pending = None;
    }

    /// Ends the current word.
    #[inline]
    fn separate(&mut self) {
        if !self.after_separator {
            if EXTRAS {
                self.last = [0, 0];
                self.pending = None;
                // Most words are turned away by their length.
                if let Some(stopwords) = self.stopwords
                    && stopwords.may_have_len(self.out.len() - self.word_start)
                    && self.drop_stopword(stopwords)
                {
                    return;
                }
            }
            // The usual one-byte separator is a plain push, not a copy of
            // unknown length (a call to memcpy).
            match *self.separator.as_bytes() {
                [byte] => self.out.push(char::from(byte & 0x7F)),
                _ => self.out.push_str(self.separator),
            }
            self.after_separator = true;
            if EXTRAS {
                self.word_start = self.out.len();
            }
        }
    }

    /// Takes back the word just ended if it is a stopword.
    #[inline]
    fn drop_stopword(&mut self, stopwords: &StopWords) -> bool {
        if !stopwords.contains_bytes(&self.out.as_bytes()[self.word_start..]) {
            return false;
        }
        self.out.truncate(self.word_start);
        self.after_separator = true;
        self.dropped = true;
        true
    }

    /// Appends transliterated or named text: letters and digits are kept,
    /// anything else separates words.
    #[inline]
    fn push_text(&mut self, text: &str) {
        for &byte in text.as_bytes() {
            if !self.push_if_alnum(byte) {
                self.separate();
            }
        }
    }

    /// Appends what rules 5 read for a word (`words::read_word_at`),
    /// as its ASCII would be read in the title: letters and digits kept in
    /// their word (`words::read_word_at` leaves anything else to the
    /// rewritten title).
    fn push_read(&mut self, text: &[u8]) {
        let mut rest = text;
        while !rest.is_empty() {
            if self.alnum[rest[0] as usize] == 0 {
                self.separate();
                rest = &rest[1..];
                continue;
            }
            self.run_start = usize::MAX;
            let n = self.push_word(rest);
            rest = &rest[n..];
        }
    }

    /// Rules 5's reading of the word at byte `at` of `title`
    /// (`words::read_word_at`): appends it and returns where it ends;
    /// `None` when its letters are read as before, `Unrewritten` when the
    /// title must be rewritten first.
    fn read_national(
        &mut self,
        title: &str,
        at: usize,
        watch: &mut NationalWatch,
    ) -> Result<Option<usize>, Unrewritten> {
        if watch.read.capacity() == 0 {
            watch.read = SPARE_READ.take();
        }
        watch.read.clear();
        match words::read_word_at(title, at, &mut watch.chosen, &mut watch.read) {
            Some(AtWord::Read(end)) => {
                self.push_read(watch.read.as_bytes());
                Ok(Some(end))
            }
            Some(AtWord::AsBefore(end)) => {
                watch.as_before = end;
                Ok(None)
            }
            None => Err(Unrewritten),
        }
    }

    /// Appends the letters and digits of a [`Plain`] word, as
    /// [`Builder::push_text`] would: up to four bytes, 0 bytes after them.
    #[inline]
    fn push_letters(&mut self, word: u32) {
        let len = 4 - (word.leading_zeros() / 8) as usize;
        for &byte in &word.to_le_bytes()[..len] {
            self.push_if_alnum(byte);
        }
    }

    /// Appends a table character's name as words of their own.
    fn push_name(&mut self, name: &str) {
        self.separate();
        self.push_text(name);
        self.separate();
    }

    /// Appends a non-ASCII character: its name, its transliteration, or
    /// nothing.
    ///
    /// The characters with a rule of their own (`’`, `ʼ`, `×`, the soft and
    /// hard signs) are caught where their usual handling would separate or
    /// name them, so the other characters pay nothing for the rules.
    /// `title[at..next]` is `c`.
    #[inline]
    fn push_non_ascii(
        &mut self,
        c: char,
        (title, at, next): (&str, usize, usize),
        symbols: bool,
        names: &impl SymbolNames,
    ) {
        if symbols && let Some(name) = names.name(c) {
            if c == '×' {
                match between_digits(title.as_bytes(), at) {
                    // `1920×1080`: one word.
                    Some(true) => {
                        self.push_if_alnum(b'x');
                        return;
                    }
                    // `3 × 4`, `3 ×4`: a word of its own.
                    Some(false) => return self.push_name("x"),
                    None => {}
                }
            }
            return self.push_name(name);
        }
        // Whether `c` is traceless is asked only when its transliteration
        // would separate words: letters and digits are kept either way,
        // and the category look-up is not free.
        let mut traceless = None;
        let mut separates = || !*traceless.get_or_insert_with(|| is_traceless(c));
        match deunicode::deunicode_char(c) {
            // The soft and hard signs, `’`, `ʼ` and the primes that BGN
            // romanizations write for the signs are written as quotes.
            Some("'" | "\"") if self.joins(c, &title[next..]) => {}
            // Arabic alef, which deunicode writes as nothing.
            Some("") if self.letters => self.push_letter(c, "", 0),
            Some(text) => {
                for (k, &byte) in text.as_bytes().iter().enumerate() {
                    if !self.push_if_alnum(byte) {
                        if self.letters && byte != b' ' {
                            return self.push_letter(c, text, k);
                        }
                        if separates() {
                            self.separate();
                        }
                    }
                }
            }
            // Rules 2: a letter deunicode does not know leaves no trace.
            None if self.letters => {
                if class_of(c) == Class::Other {
                    self.separate();
                }
            }
            None => {
                if separates() {
                    self.separate();
                }
            }
        }
    }

    /// The rest of `c`'s transliteration `text` from `text[from]`, a byte
    /// that is neither a letter, a digit nor a space, by rules 2: when `c`
    /// is a letter, what deunicode writes for it is part of its word, so
    /// its punctuation leaves no trace (`Қ` `K'` and `თ` ``t` `` stay in
    /// their words) and a letter written as punctuation alone is spelled by
    /// [`spelled_letter`] or leaves no trace (`ə` is `e`, `ʻ` nothing);
    /// spaces still separate (`ﷺ` is four words). Any other character
    /// separates as by rules 1.
    #[cold]
    #[inline(never)]
    fn push_letter(&mut self, c: char, text: &str, from: usize) {
        let rest = &text.as_bytes()[from..];
        let alone = !text.bytes().any(|b| b.is_ascii_alphanumeric());
        // Asked first: a spelled letter needs no look-up of its category.
        if alone && let Some(spelling) = spelled_letter(c) {
            for byte in spelling.bytes() {
                self.push_if_alnum(byte);
            }
            return;
        }
        match class_of(c) {
            Class::Letter if alone => {}
            Class::Letter => {
                for &byte in rest {
                    if !self.push_if_alnum(byte) && byte == b' ' {
                        self.separate();
                    }
                }
            }
            class => {
                for &byte in rest {
                    if !self.push_if_alnum(byte) && class != Class::Traceless {
                        self.separate();
                    }
                }
            }
        }
    }

    /// The ASCII characters with a rule of their own, at `title[next - 1]`:
    /// an apostrophe between letters or digits and a comma grouping digits
    /// leave no trace, `&` between words reads `and`; otherwise they
    /// separate. Out of line: the usual separators (spaces, punctuation)
    /// do not pay for it.
    #[inline(never)]
    fn push_in_context(&mut self, byte: u8, title: &str, next: usize) {
        let bytes = title.as_bytes();
        let rest = &bytes[next..];
        let in_word = !self.after_separator;
        match byte {
            b'\'' if in_word && starts_word(&title[next..]) => {}
            b',' if in_word && bytes[next - 2].is_ascii_digit() && groups_digits(rest) => {}
            b'&' if !self.out.is_empty() && word_follows(&title[next..]) => match self.and {
                Some(and) => self.push_name(and),
                None => self.separate(),
            },
            _ => self.separate(),
        }
    }

    /// A keycap (`1️⃣`, `#⃣`): its base, the ASCII character before
    /// `title[at]`, was already handled, so it is taken back and the
    /// sequence's name written instead. Only a base that stands alone (a
    /// digit that is a word of its own, `#` or `*`) makes a keycap. Returns
    /// the bytes the sequence covers from its base.
    #[cold]
    #[inline(never)]
    fn keycap(&mut self, title: &str, at: usize, names: &impl SymbolNames) -> Option<usize> {
        let base = *title.as_bytes().get(at.checked_sub(1)?)?;
        if !named::is_keycap_base(base) {
            return None;
        }
        let (len, name) = names.sequence(&title[at - 1..])?;
        if base.is_ascii_digit() {
            // The digit is the last byte written, and a word alone: the
            // run of letters and digits it ends began a word there.
            let before = self.out.len().checked_sub(1)?;
            if self.after_separator
                || self.run_start != before
                || self.out.as_bytes()[before] != base
            {
                return None;
            }
            self.out.truncate(before);
            self.after_separator = true;
            if EXTRAS {
                self.last = [0, 0];
                self.word_start = before;
            }
        }
        // `#` and `*` always separate (`preserve` cannot keep them).
        self.push_name(name);
        Some(len)
    }

    /// Whether `c`, which deunicode writes as a quote, leaves no trace: the
    /// soft and hard signs and their romanized primes always, `’` and `ʼ`
    /// between letters or digits (`rest` is what follows `c`).
    #[cold]
    fn joins(&self, c: char, rest: &str) -> bool {
        match c {
            'ъ' | 'ь' | 'Ъ' | 'Ь' | 'ʹ' | 'ʺ' => true,
            '\u{2019}' | '\u{02BC}' => !self.after_separator && starts_word(rest),
            // Rules 2: `O‘zbekiston` as Uzbek writes it with a quote.
            '\u{2018}' if self.letters => !self.after_separator && starts_word(rest),
            _ => false,
        }
    }

    /// The slug, without a separator at the end.
    #[inline]
    fn finish(mut self) -> (String, bool) {
        if EXTRAS
            && !self.after_separator
            && let Some(stopwords) = self.stopwords
        {
            self.drop_stopword(stopwords);
        }
        if self.after_separator && !self.out.is_empty() {
            self.out.truncate(self.out.len() - self.separator.len());
        }
        (self.out, self.dropped)
    }
}
/// What the watching pass keeps of rules 5's reading of a title.
struct NationalWatch {
    /// The readers the table chose for the title's scripts, once met.
    chosen: Chosen,
    /// The word last read, before it is pushed.
    read: String,
    /// Before this byte, letters rules 5 leave as they were (Arabic
    /// without vowel marks).
    as_before: usize,
}

thread_local! {
    /// The buffer [`NationalWatch::read`] had in this thread's last title:
    /// a title that reads words by rules 5 takes it, and gives it back,
    /// rather than allocating one of its own.
    static SPARE_READ: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

impl Drop for NationalWatch {
    fn drop(&mut self) {
        // Kept only while small, as a word is.
        if self.read.capacity() != 0 && self.read.capacity() <= 1024 {
            SPARE_READ.set(std::mem::take(&mut self.read));
        }
    }
}

/// A title read as it is, without [`super::rewrite`], had what rules 2
/// rewrite: a `&` (which may start an entity) or a character of the
/// scripts they romanize. It must be rewritten and built again.
#[derive(Debug)]
pub(super) struct Unrewritten;

/// The words of `title` into a slug; also says whether a stopword was
/// dropped.
///
/// `watch`: `title` was not rewritten, and the options rewrite nothing but
/// what rules 2 do. The build stops at the first `&` or character of the
/// romanized scripts (`Unrewritten`), and by rules 3 with a table of
/// Japanese readings at the first kana, and so reads the usual title in one
/// pass instead of a survey and a pass. A build that ends early at
/// `max_length` looks at the rest first: a word it wrote may have looked
/// ahead into what the rewrite would change.
#[inline]
pub(super) fn build<const EXTRAS: bool>(
    title: &str,
    options: &Options,
    names: &impl SymbolNames,
    stopwords: Option<&StopWords>,
    watch: bool,
) -> Result<(String, bool), Unrewritten> {
    let separator = options.separator.as_str();
    // Enough bytes to know every word boundary at or before `max_length`;
    // checked at word ends only, so a long word may run past it.
    // With stopwords, what is written may still be taken back, so read on.
    let stop_at = match (options.ascii_limit(), stopwords) {
        (Some(m), None) => m.get().saturating_add(separator.len() + 1),
        _ => usize::MAX,
    };
    let mut b = Builder::<EXTRAS> {
        out: String::with_capacity(title.len() + 16),
        separator,
        alnum: if options.lowercase { &LOWERED } else { &AS_IS },
        after_separator: true,
        stopwords,
        word_start: 0,
        dropped: false,
        camel: options.decamelize,
        last: [0, 0],
        pending: None,
        letters: options.rules.has(Switch::LettersInWords),
        and: match &options.locale {
            Some(locale) => locale.and(),
            None => Some(AND),
        },
        run_start: usize::MAX,
    };
    let plain = Plain::get();
    // Below it no sequence starts: letters ask for none.
    let sequence_floor = names.sequence_floor();
    // Rules 3 read kana as Japanese where the table has readings; rules 6
    // read it in Hepburn where it has none.
    let kana_stops = watch
        && ((options.rules.has(Switch::JapaneseReadings) && names.has_readings())
            || options.rules.has(Switch::KanaInHepburn));
    // Rules 5 read Greek, Cyrillic, Arabic and Hangul by their standards
    // (rules 6 Armenian and Georgian too), and compose combining marks
    // first.
    let national_stops = watch && options.rules.has(Switch::NationalStandards);
    // Rules 6 read Persian, Urdu and Arabic by the table's models of their
    // vowels, after the table: a title in Arabic script goes through every
    // stage.
    let vowel_models = |script: fn(&crate::readers::vowels::Language) -> bool| {
        watch
            && crate::readers::vowels::Language::ALL
                .into_iter()
                .filter(script)
                .any(|l| options.rules.has(l.switch()) && names.vowels(l).is_some())
    };
    let vowel_stops = vowel_models(|&l| l != crate::readers::vowels::Language::Hebrew);
    // Rules 7 read Hebrew by its model: its letters stop the watch too.
    let hebrew_stops = vowel_models(|&l| l == crate::readers::vowels::Language::Hebrew);
    // The language of the title's Cyrillic, and the words rules 5 read
    // here, written before they are pushed.
    let mut reading = NationalWatch {
        chosen: Chosen::new(crate::readers::choices(None, options.rules)),
        read: String::new(),
        as_before: 0,
    };
    // Where the case of what is written does not matter, rules 5 read
    // Cyrillic letter by letter, and plain Greek words straight into the
    // slug.
    let by_letter = options.lowercase && !options.decamelize;
    let bytes = title.as_bytes();
    let mut i = 0;
    while let Some(&(mut byte)) = bytes.get(i) {
        if b.alnum[byte as usize] != 0 {
            b.run_start = if b.after_separator {
                b.out.len()
            } else {
                usize::MAX
            };
            i += b.push_word(&bytes[i..]);
            // The word ended at the end of the title or at a byte that is
            // not a letter or digit, handled below.
            match bytes.get(i) {
                Some(&next) => byte = next,
                None => break,
            }
        }
        if b.out.len() >= stop_at {
            if watch
                && (runs::first_run_or(title, i, is_ampersand).is_some()
                    || (kana_stops && japanese::is_japanese(&title[i..], false))
                    || (national_stops && scan::may_apply(&title[i..])))
            {
                return Err(Unrewritten);
            }
            break;
        }
        if byte.is_ascii() {
            i += 1;
            match byte {
                b'&' if watch => return Err(Unrewritten),
                b'\'' | b',' | b'&' => b.push_in_context(byte, title, i),
                _ if EXTRAS
                    && !b.after_separator
                    && options.preserve.contains(byte)
                    && bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) =>
                {
                    b.push_kept(byte)
                }
                _ => b.separate(),
            }
            continue;
        }
        if byte < 0xE0 {
            // A two-byte character: most are letters deunicode writes as
            // letters, which is all the rules do with them when the table
            // names no such character and no sequence starts there.
            let cp = (u32::from(byte & 0x1F) << 6) | u32::from(bytes[i + 1] & 0x3F);
            // The letters the models read ([`vowels::is_letter`], from
            // the same table that chooses them).
            if vowel_stops && char::from_u32(cp).is_some_and(crate::readers::vowels::is_letter) {
                return Err(Unrewritten);
            }
            if hebrew_stops
                && char::from_u32(cp).is_some_and(crate::readers::vowels::is_hebrew_letter)
            {
                return Err(Unrewritten);
            }
            if national_stops && cp >= 0x300 && i >= reading.as_before && scan::stops_at(cp) {
                if by_letter
                    && let Some(end) = words::greek_word_at(title, i, cp, |text| {
                        for &byte in text.as_bytes() {
                            b.push_if_alnum(byte);
                        }
                    })
                {
                    i = end;
                    continue;
                }
                if by_letter
                    && let Some(letters) =
                        words::cyrillic_letter_at(title, i, cp, &mut reading.chosen)
                {
                    match letters {
                        Letters::Packed(word) => b.push_letters(word),
                        // As for a word read whole: what is not a letter or
                        // digit is read in the rewritten title's context.
                        Letters::Text(text)
                            if text.bytes().any(|byte| b.alnum[usize::from(byte)] == 0) =>
                        {
                            return Err(Unrewritten);
                        }
                        Letters::Text(text) => {
                            for &byte in text.as_bytes() {
                                b.push_if_alnum(byte);
                            }
                        }
                    }
                    i += 2;
                    continue;
                }
                if let Some(end) = b.read_national(title, i, &mut reading)? {
                    i = end;
                    continue;
                }
            }
            if let Some(word) = plain.letters(cp)
                && !(options.symbols
                    && (cp >= sequence_floor
                        || char::from_u32(cp).and_then(|c| names.name(c)).is_some()))
            {
                b.push_letters(word);
                i += 2;
                continue;
            }
        } else if watch && (runs::starts_run(title, i) || (kana_stops && starts_kana(title, i))) {
            return Err(Unrewritten);
        } else if national_stops
            && i >= reading.as_before
            && scan::may_apply(&title[i..i + runs::utf8_len(byte)])
            && let Some(end) = b.read_national(title, i, &mut reading)?
        {
            i = end;
            continue;
        }
        let c = title[i..].chars().next().expect("i is on a char boundary");
        let at = i;
        if options.symbols {
            if names.may_start_sequence(c)
                && let Some((len, name)) = names.sequence(&title[at..])
            {
                b.push_name(name);
                i += len;
                continue;
            }
            if named::is_keycap_mark(c)
                && let Some(len) = b.keycap(title, at, names)
            {
                i = at - 1 + len;
                continue;
            }
        }
        i += c.len_utf8();
        b.push_non_ascii(c, (title, at, i), options.symbols, names);
    }
    Ok(b.finish())
}

/// Whether kana starts at byte `at` of `title`, where a byte of 0xE0 or
/// more is: kana's UTF-8 starts with 0xE3 or 0xEF.
#[cold]
fn starts_kana(title: &str, at: usize) -> bool {
    matches!(title.as_bytes()[at], 0xE3 | 0xEF)
        && title[at..].chars().next().is_some_and(japanese::is_kana)
}
