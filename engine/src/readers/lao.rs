//! Lao as the Commission Nationale de Toponymie's romanization of 1965
//! writes it (the system of Laos's place names, which BGN/PCGN adopted in
//! 1966 and ISO 3166-2 prints), without its accents (rules 5): `ສະບາຍດີ`
//! is `sabaidi` (one word, as the segmenter's dictionary has it),
//! `ວຽງຈັນ` `viangchan`, `ຫລວງພະບາງ` `louangphabang`.
//! Laos has no other standard its readers follow.
//!
//! Lao spells its vowels, so a word (the segmenter has cut it) is read
//! syllable by syllable: a vowel written before the consonant (`ເ ແ ໂ ໄ
//! ໃ`), the consonant (a silent `ຫ` before a sonorant, `ໜ ໝ`, a
//! consonant with the subscript `ຼ` as `l` after it), the vowel marks
//! after it, and a final by its sound (`ກ` k, `ດ` t, `ບ` p, `ຍ` i, `ວ` o).
//! The Commission's letters, folded: `ຊ` x, `ຍ` gn before a vowel, `ວ` v,
//! `ຸ ູ` ou, `ົວ` oua, `ເ` e, `ແ` e (è), `ໂ ົ ໍ` o (ô). A consonant with
//! no vowel written reads `o` before a final and `a` alone. Tone marks
//! are not written; Lao digits are ASCII digits.

use std::borrow::Cow;

/// Appends `word`, Lao letters only, as the Commission writes it.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    // Tone marks and the repetition mark are not read; `ໍ` + `າ` is
    // `ຳ`.
    let letters: Vec<char> = word
        .chars()
        .filter(|c| !matches!(c, '\u{EC8}'..='\u{ECD}' | '\u{EC6}') || *c == '\u{ECD}')
        .collect();
    let mut reader = Reader {
        w: &letters,
        i: 0,
        out,
    };
    let mut last = usize::MAX;
    while reader.i < letters.len() {
        if reader.i == last {
            reader.i += 1;
            continue;
        }
        last = reader.i;
        reader.syllable();
    }
}

/// `run` with `ໍ` + `າ` (a tone mark between them or not) written as the
/// one vowel `ຳ` they spell, so that the segmenter does not cut between
/// them (`ຄໍາ`, `ນໍ້າ`); borrowed when it has none.
pub(crate) fn sara_am(run: &str) -> Cow<'_, str> {
    if !run.contains('\u{ECD}') {
        return Cow::Borrowed(run);
    }
    let mut out = String::with_capacity(run.len());
    let mut chars = run.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{ECD}' {
            let mut rest = chars.clone();
            let tone = rest.next_if(|t| matches!(t, '\u{EC8}'..='\u{ECB}'));
            if rest.next() == Some('າ') {
                out.extend(tone);
                out.push('ຳ');
                chars = rest;
                continue;
            }
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// A Lao consonant.
fn is_consonant(c: char) -> bool {
    matches!(c, '\u{E81}'..='\u{EAE}' | '\u{EDC}'..='\u{EDF}')
}

/// A vowel written before its consonant.
fn is_preposed(c: char) -> bool {
    matches!(c, '\u{EC0}'..='\u{EC4}')
}

/// A vowel mark written after (above, below) its consonant, `ອ` aside.
fn is_vowel_mark(c: char) -> bool {
    matches!(c, '\u{EB0}'..='\u{EBB}' | '\u{ECD}')
}

/// How a consonant starts a syllable.
fn initial(c: char) -> &'static str {
    match c {
        'ກ' => "k",
        'ຂ' | 'ຄ' => "kh",
        'ງ' => "ng",
        'ຈ' => "ch",
        'ສ' | 'ຨ' | 'ຩ' => "s",
        'ຊ' => "x",
        'ຍ' => "gn",
        'ດ' => "d",
        'ຕ' => "t",
        'ຖ' | 'ທ' => "th",
        'ນ' | 'ໜ' => "n",
        'ບ' => "b",
        'ປ' => "p",
        'ຜ' | 'ພ' => "ph",
        'ຝ' | 'ຟ' => "f",
        'ມ' | 'ໝ' => "m",
        'ຢ' => "y",
        'ຣ' => "r",
        'ລ' => "l",
        'ວ' => "v",
        'ຫ' | 'ຮ' => "h",
        _ => "",
    }
}

/// How a consonant ends a syllable.
fn final_of(c: char) -> &'static str {
    match c {
        'ກ' | 'ຂ' | 'ຄ' => "k",
        'ງ' => "ng",
        'ບ' | 'ປ' | 'ພ' | 'ຟ' => "p",
        'ມ' | 'ໝ' => "m",
        'ນ' | 'ໜ' | 'ລ' | 'ຣ' => "n",
        'ຍ' => "i",
        'ວ' => "o",
        'ອ' | 'ຫ' | 'ຮ' => "",
        _ => "t",
    }
}

/// A sonorant a silent `ຫ` leads.
fn led_by_h(c: char) -> bool {
    matches!(c, 'ງ' | 'ຍ' | 'ນ' | 'ມ' | 'ຣ' | 'ລ' | 'ວ')
}

/// The state of reading one word.
struct Reader<'w, 'o> {
    w: &'w [char],
    i: usize,
    out: &'o mut String,
}

impl Reader<'_, '_> {
    fn at(&self, at: usize) -> Option<char> {
        self.w.get(at).copied()
    }

    /// Whether the consonant at `at` starts a syllable: a vowel mark
    /// follows it, or `ອ` or `ວ` as its vowel, or the subscript `ຼ`.
    fn bound(&self, at: usize) -> bool {
        match self.at(at + 1) {
            Some(c) if is_vowel_mark(c) || c == '\u{EBC}' => true,
            Some('ອ' | 'ວ') => self.at(at + 2).is_some_and(is_consonant),
            Some('ຽ') => true,
            _ => false,
        }
    }

    fn syllable(&mut self) {
        let c = self.w[self.i];
        if let '໐'..='໙' = c {
            let digit = c as u32 - '໐' as u32;
            self.out.push(char::from(b'0' + digit as u8));
            self.i += 1;
            return;
        }
        let pre = is_preposed(c).then_some(c);
        if pre.is_some() {
            self.i += 1;
        }
        if !self.at(self.i).is_some_and(is_consonant) {
            if let Some(pre) = pre {
                self.out.push_str(if pre >= 'ໄ' { "ai" } else { "e" });
            }
            return;
        }
        self.onset(pre.is_some());
        let (vowel, used, takes_final) = self.vowel(pre);
        self.out.push_str(vowel);
        self.i += used;
        if takes_final
            && let Some(c) = self.at(self.i).filter(|&c| is_consonant(c))
            && !self.bound(self.i)
        {
            // `ໄຊ` with a `ຍ` after `ai` adds nothing more.
            if !(c == 'ຍ' && self.out.ends_with('i') || c == 'ວ' && self.out.ends_with('o')) {
                self.out.push_str(final_of(c));
            }
            self.i += 1;
        }
    }

    /// Writes the onset at `self.i` and moves past it.
    fn onset(&mut self, pre: bool) {
        let first = self.w[self.i];
        let second = self.at(self.i + 1);
        if first == 'ຫ'
            && let Some(second) = second.filter(|&s| led_by_h(s))
            && (pre || self.bound(self.i + 1) || self.at(self.i + 2).is_some_and(is_consonant))
        {
            self.out.push_str(initial(second));
            self.i += 2;
            return;
        }
        self.out.push_str(initial(first));
        self.i += 1;
        if self.at(self.i) == Some('\u{EBC}') {
            self.out.push('l');
            self.i += 1;
        }
        // `ວ` after a consonant, before its vowel: `ຂວາງ` `khouang`.
        if self.at(self.i) == Some('ວ') && self.at(self.i + 1).is_some_and(is_vowel_mark) {
            self.out.push_str("ou");
            self.i += 1;
        }
    }

    /// The vowel after the onset, with the one written before it: what it
    /// writes, how many letters it takes, whether a final may follow.
    fn vowel(&self, pre: Option<char>) -> (&'static str, usize, bool) {
        let next = [self.at(self.i), self.at(self.i + 1), self.at(self.i + 2)];
        match (pre, next) {
            (Some('ເ'), [Some('ົ'), Some('າ'), _]) => ("ao", 2, false),
            (Some('ເ'), [Some('າ'), Some('ະ'), _]) => ("o", 2, false),
            (Some('ເ'), [Some('ື' | 'ຶ'), Some('ອ'), _]) => ("ua", 2, true),
            (Some('ເ'), [Some('ິ' | 'ີ'), _, _]) => ("eu", 1, true),
            (Some('ເ'), [Some('ຍ'), n, _]) if !n.is_some_and(is_vowel_mark) => ("ia", 1, false),
            (Some('ເ' | 'ແ'), [Some('ະ' | 'ັ'), _, _]) => ("e", 1, true),
            (Some('ເ' | 'ແ'), _) => ("e", 0, true),
            (Some('ໂ'), [Some('ະ'), _, _]) => ("o", 1, false),
            (Some('ໂ'), _) => ("o", 0, true),
            (Some(_), _) => ("ai", 0, true),
            (None, [Some('ົ'), Some('ວ'), _]) => ("oua", 2, true),
            (None, [Some('ັ'), Some('ວ'), _]) => ("oua", 2, true),
            (None, [Some('ໍ'), Some('າ'), _]) | (None, [Some('ຳ'), _, _]) => {
                ("am", if next[0] == Some('ຳ') { 1 } else { 2 }, false)
            }
            (None, [Some('ະ'), _, _]) => ("a", 1, false),
            (None, [Some('ັ' | 'າ'), _, _]) => ("a", 1, true),
            (None, [Some('ິ' | 'ີ'), _, _]) => ("i", 1, true),
            (None, [Some('ຶ' | 'ື'), _, _]) => ("u", 1, true),
            (None, [Some('ຸ' | 'ູ'), _, _]) => ("ou", 1, true),
            (None, [Some('ົ' | 'ໍ'), _, _]) => ("o", 1, true),
            (None, [Some('ຽ'), _, _]) => ("ia", 1, true),
            (None, [Some('ອ'), Some(n), _]) if is_consonant(n) => ("o", 1, true),
            (None, [Some('ວ'), Some(n), _]) if is_consonant(n) => ("oua", 1, true),
            (None, [Some(n), _, _]) if is_consonant(n) && !self.bound(self.i) => ("o", 0, true),
            _ => ("a", 0, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::romanize_word;

    fn lao(word: &str) -> String {
        let mut out = String::new();
        romanize_word(word, &mut out);
        out
    }

    /// Laos's provinces as ISO 3166-2 prints their names (the
    /// Commission's system; `tests/data/standards/lo.tsv`), accents
    /// folded, and the greeting.
    #[test]
    fn reads_the_commissions_letters() {
        for (word, want) in [
            ("ສະບາຍ", "sabai"),
            ("ດີ", "di"),
            ("ວຽງຈັນ", "viangchan"),
            ("ຫລວງພະບາງ", "louangphabang"),
            ("ບໍລິຄໍາໄຊ", "bolikhamxai"),
            ("ຫົວພັນ", "houaphan"),
            ("ສະຫວັນນະເຂດ", "savannakhet"),
            ("ຊຽງຂວາງ", "xiangkhouang"),
            ("ອັດຕະປື", "attapu"),
            ("໒໐໒໔", "2024"),
        ] {
            assert_eq!(lao(word), want, "{word}");
        }
    }

    /// Whatever characters of the block come, in whatever order, the
    /// reader writes ASCII letters and digits and stops.
    #[test]
    fn any_lao_is_read_to_ascii() {
        crate::readers::runs::tests::reads_any_to_ascii('\u{E80}'..='\u{EFF}', romanize_word);
    }
}
