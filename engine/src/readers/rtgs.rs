//! Thai as the Royal Institute's Royal Thai General System of
//! Transcription writes it (RTGS, 1999; rules 5): by sound, not letter by
//! letter as ISO 11940 does. `สวัสดีครับ` is `sawatdi khrap`, not
//! `swasdi khrab`.
//!
//! A word (the segmenter has cut it) is read syllable by syllable, left to
//! right, as Thai spelling is read:
//!
//! - a syllable starts with a vowel written before its consonant (`เ แ
//!   โ ใ ไ`) or with its consonant, or two: a cluster (`กร` `kr`, `ปล`
//!   `pl`, `คว` `khw`), a silent `ห` leading a sonorant (`หน` `n`), or
//!   the false clusters read as one consonant (`ทร` `s`, `จร` `ch`, `ศร`
//!   `s`, `สร` `s`);
//! - its vowel is the marks after the consonant, with the one before it
//!   (`เ-ีย` `ia`, `เ-ือ` `uea`, `-ัว` `ua`, `เ-า` `ao`...), or none
//!   written: then `o` where a final closes the syllable (`นก` `nok`) and
//!   `a` where none does (`สวัสดี` `sa-wat-di`); a run of consonants with
//!   no vowel between them is read in pairs from its end (`สกล` `sa-kon`,
//!   `มณฑล` `mon-thon`);
//! - its final consonant is written by its sound: `k`, `t`, `p`, `n`,
//!   `m`, `ng`, `i` for `ย` and `o` for `ว` (`ไทย` `thai`, `แก้ว` `kaeo`);
//! - letters under the thanthakhat (`์`) are silent, and the consonants
//!   between a final and it (`จันทร์` `chan`); so is a `ร` after a final
//!   (`สมุทร` `samut`, `เพชร` `phet`);
//! - a final of the letters Pali and Sanskrit words end their stems in
//!   (`ช ฐ ฒ ธ ภ ษ ศ`), with a consonant after it in the word, is read
//!   again with the vowel `a` that joins compounds (`ราชบุรี` `ratchaburi`,
//!   `พิษณุโลก` `phitsanulok`).
//!
//! Tone marks are not written, as RTGS does not write tones; the
//! repetition mark `ๆ` and the abbreviation mark `ฯ` are left out; Thai
//! digits are ASCII digits.
//!
//! What rules cannot know is left as they read it: the vowels some
//! loanwords leave unwritten (`อุตรดิตถ์` is `utdit` here, `Uttaradit`
//! in RTGS), and which compounds join with `a`.

/// A letter of the word being read, with whether it is silent.
#[derive(Clone, Copy)]
struct Letter {
    c: char,
    silent: bool,
}

/// Appends `word`, Thai letters only, in RTGS.
pub(crate) fn romanize_word(word: &str, out: &mut String) {
    let letters = letters_of(word);
    let mut reader = Reader {
        w: &letters,
        i: 0,
        out,
    };
    reader.read();
}

/// The letters of `word` that are read, each marked silent where the
/// thanthakhat silences it: tone marks, `ๆ` and `ฯ` left out.
fn letters_of(word: &str) -> Vec<Letter> {
    let mut letters: Vec<Letter> = Vec::with_capacity(word.len() / 3 + 1);
    for c in word.chars() {
        match c {
            '\u{E48}'..='\u{E4B}' | '\u{E46}' | '\u{E2F}' => {}
            '\u{E4C}' => silence(&mut letters),
            _ => letters.push(Letter { c, silent: false }),
        }
    }
    letters
}

/// The thanthakhat: the consonant before it is silent, with a vowel mark
/// on it (`ธิ์`), and the bare consonants between it and the last vowel or
/// final (`จันทร์`: `ทร`).
fn silence(letters: &mut [Letter]) {
    let mut at = letters.len();
    // The letter under the mark, and a vowel written on it.
    while at > 0 {
        at -= 1;
        letters[at].silent = true;
        if is_consonant(letters[at].c) {
            break;
        }
    }
    // Bare consonants before it, back to a final: `นทร์` leaves `น`.
    while at >= 2
        && is_consonant(letters[at - 1].c)
        && !letters[at - 1].silent
        && is_consonant(letters[at - 2].c)
        && letters[at - 2].c != 'อ'
        && closes(letters, at - 2)
    {
        at -= 1;
        letters[at].silent = true;
    }
}

/// Whether the consonant at `at` ends a syllable with a vowel before it,
/// so that a consonant after it, before a thanthakhat, has no syllable of
/// its own.
fn closes(letters: &[Letter], at: usize) -> bool {
    at >= 1 && is_vowel_mark(letters[at - 1].c) || at >= 2 && is_preposed(letters[at - 2].c)
}

/// A Thai consonant (`ก` to `ฮ`, `ฤ` and `ฦ` aside).
fn is_consonant(c: char) -> bool {
    matches!(c, '\u{E01}'..='\u{E2E}') && !matches!(c, 'ฤ' | 'ฦ')
}

/// A vowel written before its consonant.
fn is_preposed(c: char) -> bool {
    matches!(c, 'เ' | 'แ' | 'โ' | 'ใ' | 'ไ')
}

/// A vowel mark or letter written after (above, below) its consonant.
fn is_vowel_mark(c: char) -> bool {
    matches!(c, '\u{E30}'..='\u{E3A}' | '\u{E45}' | '\u{E47}')
}

/// How a consonant starts a syllable.
fn initial(c: char) -> &'static str {
    match c {
        'ก' => "k",
        'ข' | 'ฃ' | 'ค' | 'ฅ' | 'ฆ' => "kh",
        'ง' => "ng",
        'จ' | 'ฉ' | 'ช' | 'ฌ' => "ch",
        'ซ' | 'ศ' | 'ษ' | 'ส' => "s",
        'ญ' | 'ย' => "y",
        'ฎ' | 'ด' => "d",
        'ฏ' | 'ต' => "t",
        'ฐ' | 'ฑ' | 'ฒ' | 'ถ' | 'ท' | 'ธ' => "th",
        'ณ' | 'น' => "n",
        'บ' => "b",
        'ป' => "p",
        'ผ' | 'พ' | 'ภ' => "ph",
        'ฝ' | 'ฟ' => "f",
        'ม' => "m",
        'ร' => "r",
        'ล' | 'ฬ' => "l",
        'ว' => "w",
        'ห' | 'ฮ' => "h",
        _ => "",
    }
}

/// How a consonant ends a syllable, by its sound.
fn final_of(c: char) -> &'static str {
    match c {
        'ก' | 'ข' | 'ฃ' | 'ค' | 'ฅ' | 'ฆ' => "k",
        'ง' => "ng",
        'บ' | 'ป' | 'ผ' | 'ฝ' | 'พ' | 'ฟ' | 'ภ' => "p",
        'ม' => "m",
        'ญ' | 'ณ' | 'น' | 'ร' | 'ล' | 'ฬ' => "n",
        'ย' => "i",
        'ว' => "o",
        'อ' | 'ห' | 'ฮ' => "",
        _ => "t",
    }
}

/// Whether `first` and `second` are a cluster RTGS writes as two letters.
fn is_cluster(first: char, second: char) -> bool {
    match second {
        'ร' => matches!(
            first,
            'ก' | 'ข' | 'ค' | 'ต' | 'ป' | 'พ' | 'ผ' | 'บ' | 'ด' | 'ฟ'
        ),
        'ล' => matches!(first, 'ก' | 'ข' | 'ค' | 'ป' | 'พ' | 'ผ' | 'บ' | 'ฟ'),
        'ว' => matches!(first, 'ก' | 'ข' | 'ค'),
        _ => false,
    }
}

/// The false clusters, read as one consonant: `ทร` `s`, `จร` `ch`, `ศร`
/// `สร` `ซร` `s`.
fn false_cluster(first: char, second: char) -> Option<&'static str> {
    match (first, second) {
        ('ท', 'ร') | ('ศ', 'ร') | ('ส', 'ร') | ('ซ', 'ร') => Some("s"),
        ('จ', 'ร') => Some("ch"),
        _ => None,
    }
}

/// Whether `c` is a sonorant a silent `ห` leads (`หน` `n`, `หล` `l`).
fn led_by_h(c: char) -> bool {
    matches!(c, 'ง' | 'ญ' | 'น' | 'ม' | 'ย' | 'ร' | 'ล' | 'ว')
}

/// The finals Pali and Sanskrit stems end in, read again with `a` before
/// another consonant of the word.
fn joins_with_a(c: char) -> bool {
    matches!(c, 'ช' | 'ฐ' | 'ฒ' | 'ธ' | 'ภ' | 'ษ' | 'ศ')
}

/// The state of reading one word.
struct Reader<'w, 'o> {
    w: &'w [Letter],
    i: usize,
    out: &'o mut String,
}

impl Reader<'_, '_> {
    /// The letter at `at`, if it is read.
    fn at(&self, at: usize) -> Option<char> {
        self.w.get(at).filter(|l| !l.silent).map(|l| l.c)
    }

    /// Whether the letter at `at` is a consonant that is read.
    fn consonant_at(&self, at: usize) -> bool {
        self.at(at).is_some_and(is_consonant)
    }

    /// Whether the consonant at `at` starts a syllable of its own: a vowel
    /// mark follows it, or a vowel it carries (`อ`, `ว` between it and a
    /// final), or it leads a sonorant, or it ends the word.
    fn bound(&self, at: usize) -> bool {
        match self.next_read(at + 1).map(|n| (n, self.w[n].c)) {
            Some((_, c)) if is_vowel_mark(c) => true,
            Some((n, c)) if is_consonant(c) => {
                let after = self.next_read(n + 1).map(|a| self.w[a].c);
                match c {
                    // `ทอง`, `น้อย`: `อ` is the vowel, unless a vowel is
                    // written on it.
                    'อ' => !after.is_some_and(is_vowel_mark),
                    // `รร` is a vowel, but not before a vowel of its own
                    // (`นครราช`: `นคร` + `ราช`).
                    'ร' if after == Some('ร') => !self
                        .next_read(n + 2)
                        .is_some_and(|v| is_vowel_mark(self.w[v].c)),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The next letter at or after `at` that is read.
    fn next_read(&self, mut at: usize) -> Option<usize> {
        while at < self.w.len() {
            if !self.w[at].silent {
                return Some(at);
            }
            at += 1;
        }
        None
    }

    fn read(&mut self) {
        let mut last = self.i;
        while let Some(i) = self.next_read(self.i) {
            self.i = i;
            self.syllable();
            if self.i == last {
                // A letter no rule reads (a lone vowel mark): past it.
                self.i += 1;
            }
            last = self.i;
        }
    }

    /// Reads one syllable from `self.i`.
    fn syllable(&mut self) {
        let c = self.w[self.i].c;
        match c {
            'ฤ' | 'ฦ' => {
                let long = self.at(self.i + 1) == Some('\u{E45}');
                self.out.push_str(if c == 'ฤ' { "rue" } else { "lue" });
                self.i += 1 + usize::from(long);
                self.finals_after_vowel(false);
                return;
            }
            _ if is_preposed(c) => {
                self.i += 1;
                self.preposed(c);
                return;
            }
            '๐'..='๙' => {
                let digit = c as u32 - '๐' as u32;
                self.out.push(char::from(b'0' + digit as u8));
                self.i += 1;
                return;
            }
            _ if !is_consonant(c) => return,
            _ => {}
        }
        if self.consonant_with_vowel() {
            return;
        }
        self.bare_run();
    }

    /// Writes the onset at `self.i` (one consonant, a cluster, a led
    /// sonorant) and moves past it; `pre` says a vowel was written before
    /// it, which makes a consonant after a non-cluster the final.
    fn onset(&mut self, pre: bool) {
        let first = self.w[self.i].c;
        let second = self.at(self.i + 1);
        if let Some(second) = second.filter(|&s| is_consonant(s)) {
            let then = self.at(self.i + 2);
            let vowel_follows = pre && (second != 'ว' || then.is_some())
                || then.is_some_and(|t| is_vowel_mark(t) || t == 'อ')
                || second != 'ว' && then.is_some_and(is_consonant) && !self.bound(self.i + 2);
            if first == 'ห' && led_by_h(second) && (vowel_follows || self.bound(self.i + 1)) {
                self.out.push_str(initial(second));
                self.i += 2;
                return;
            }
            // `อยู่`, `อย่า`, `อย่าง`, `อยาก`.
            if first == 'อ' && second == 'ย' && matches!(then, Some('ู' | 'า')) {
                self.out.push('y');
                self.i += 2;
                return;
            }
            if vowel_follows && !(second == 'ร' && then == Some('ร')) {
                if let Some(one) = false_cluster(first, second) {
                    self.out.push_str(one);
                    self.i += 2;
                    return;
                }
                if is_cluster(first, second) {
                    self.out.push_str(initial(first));
                    self.out.push_str(initial(second));
                    self.i += 2;
                    return;
                }
            }
        }
        self.out.push_str(initial(first));
        self.i += 1;
    }

    /// A consonant (or cluster) at `self.i` with a vowel written after it:
    /// reads the syllable and returns true; false (nothing read) when no
    /// vowel is written.
    fn consonant_with_vowel(&mut self) -> bool {
        let start = self.i;
        let out_len = self.out.len();
        // `ฤ` after a consonant is its vowel: `กฤษณ์` `krit`.
        if self.at(start + 1) == Some('ฤ') {
            let first = self.w[start].c;
            self.out.push_str(initial(first));
            self.out.push_str(match first {
                'ค' | 'น' | 'พ' | 'ม' | 'ห' => "rue",
                _ => "ri",
            });
            self.i = start + 2;
            self.finals_after_vowel(false);
            return true;
        }
        self.onset(false);
        let at = self.i;
        let (vowel, used, takes_final) = match (self.at(at), self.at(at + 1), self.at(at + 2)) {
            (Some('ั'), Some('ว'), Some('ะ')) => ("ua", 3, false),
            (Some('ั'), Some('ว'), _) => ("ua", 2, true),
            (Some('ั'), _, _) => ("a", 1, true),
            (Some('ะ'), _, _) => ("a", 1, false),
            (Some('า'), _, _) => ("a", 1, true),
            (Some('ำ'), _, _) => ("am", 1, false),
            (Some('ิ'), _, _) | (Some('ี'), _, _) => ("i", 1, true),
            (Some('ึ'), _, _) => ("ue", 1, true),
            (Some('ื'), Some('อ'), _) => ("ue", 2, true),
            (Some('ื'), _, _) => ("ue", 1, true),
            (Some('ุ'), _, _) | (Some('ู'), _, _) => ("u", 1, true),
            (Some('็'), Some('อ'), _) => ("o", 2, true),
            // `ก็`, the one word so written.
            (Some('็'), _, _) => ("o", 1, false),
            (Some('อ'), n, _) if !n.is_some_and(is_vowel_mark) => ("o", 1, true),
            (Some('ร'), Some('ร'), n) => {
                // `รร`: `a`, and `n` where no final follows.
                let final_follows = n.is_some_and(is_consonant) && !self.bound(at + 2);
                self.out.push('a');
                self.i = at + 2;
                if final_follows {
                    self.final_consonant();
                } else {
                    self.out.push('n');
                }
                return true;
            }
            (Some('ว'), Some(n), _) if is_consonant(n) && !self.bound(at + 1) => ("ua", 1, true),
            _ => {
                self.i = start;
                self.out.truncate(out_len);
                return false;
            }
        };
        self.out.push_str(vowel);
        self.i = at + used;
        if takes_final {
            self.finals_after_vowel(matches!(vowel, "a") && used == 1 && self.w[at].c != 'า');
        }
        true
    }

    /// After a written vowel: the final, unless the next consonant starts
    /// a syllable, or the bare consonants after the vowel pair off among
    /// themselves (`อุดร` `u-don`, `ปรากฏ` `pra-kot`). `ั` and `็` always
    /// take one.
    fn finals_after_vowel(&mut self, must: bool) {
        let Some(at) = self.next_read(self.i) else {
            return;
        };
        self.i = at;
        if !self.consonant_at(at) || self.bound(at) {
            return;
        }
        let run = self.run_from(at);
        if matches!(self.w[at].c, 'อ' | 'ห' | 'ฮ') {
            return;
        }
        let stem_r = run.len() >= 2
            && self.w[run[1]].c == 'ร'
            && matches!(self.w[run[0]].c, 'ต' | 'ท' | 'ก' | 'ช');
        // An even run that a `ร` or `ล` ends, or that ends the word, pairs
        // off: `อุดร` `u-don`, `ปรากฏ` `pra-kot` (but `ชุมพร` `chum-phon`).
        let last = run[run.len() - 1];
        let pairs_off = run.len().is_multiple_of(2)
            && (matches!(self.w[last].c, 'ร' | 'ล') || self.next_read(last + 1).is_none());
        if must || !pairs_off || stem_r {
            self.final_consonant();
        }
    }

    /// Writes the final at `self.i` and what follows it: a silent `ร`
    /// after a stop (`สมุทร`, `เพชร`), a stem's joining `a` (`ราชบุรี`,
    /// `พัทยา`).
    fn final_consonant(&mut self) {
        let c = self.w[self.i].c;
        let after_short = self.out.ends_with(['a', 'i', 'u']);
        // `ไทย`, `ใหม่`: a `ย` after `ai` adds nothing.
        if !(c == 'ย' && self.out.ends_with("ai") || c == 'ว' && self.out.ends_with('o')) {
            self.out.push_str(final_of(c));
        }
        self.i += 1;
        if self.at(self.i) == Some('ร') && matches!(c, 'ต' | 'ท' | 'ก' | 'ช') && !self.bound(self.i)
        {
            self.i += 1;
            // The stem ends there: `สมุทรสาคร` `samut-sakhon`.
            if c != 'ช' {
                return;
            }
        }
        if (joins_with_a(c) || c == 'ท' && after_short) && self.consonant_at(self.i) {
            self.out.push_str(initial(c));
            self.out.push('a');
        }
    }

    /// The consonants from `at` with no vowel written on them: up to one
    /// with a vowel of its own, or one that starts a cluster with it
    /// (`สงขลา`: `สง`), or a letter that is not a consonant.
    fn run_from(&self, mut at: usize) -> Vec<usize> {
        let mut run = vec![at];
        while let Some(next) = self.next_read(at + 1).filter(|&n| self.consonant_at(n)) {
            if self.bound(next) || self.bound(at) && run.len() == 1 {
                break;
            }
            // A consonant whose next one carries a vowel and joins it
            // into one onset belongs to that syllable.
            if let Some(then) = self.next_read(next + 1).filter(|&t| self.consonant_at(t))
                && self.bound(then)
                && one_onset(self.w[next].c, self.w[then].c)
            {
                break;
            }
            run.push(next);
            at = next;
        }
        run
    }

    /// A syllable with a vowel written before its consonant, `pre`.
    fn preposed(&mut self, pre: char) {
        if !self.consonant_at(self.i) {
            self.out.push_str(match pre {
                'แ' => "ae",
                'โ' => "o",
                'เ' => "e",
                _ => "ai",
            });
            return;
        }
        // A consonant leading another, with the vowel `a` (`เจริญ`
        // `charoen`, `เสมอ` `samoe`): the second carries the vowel.
        let first = self.w[self.i].c;
        if let Some(second) = self.at(self.i + 1).filter(|&s| is_consonant(s))
            && (!one_onset(first, second) || (first, second) == ('จ', 'ร'))
            && self.bound(self.i + 1)
            && self.at(self.i + 2).is_some_and(|n| match pre {
                'เ' if n == 'อ' => self.next_read(self.i + 3).is_none(),
                'เ' => matches!(n, 'ิ' | 'ี' | 'ื' | 'า' | 'ะ' | '็'),
                'แ' | 'โ' => matches!(n, 'ะ' | '็'),
                _ => false,
            })
        {
            self.out.push_str(initial(first));
            self.out.push('a');
            self.i += 1;
        }
        self.onset(true);
        let at = self.i;
        let next = [self.at(at), self.at(at + 1), self.at(at + 2)];
        let (vowel, used, takes_final) = match (pre, next) {
            ('เ', [Some('ี'), Some('ย'), Some('ะ')]) => ("ia", 3, false),
            ('เ', [Some('ี'), Some('ย'), _]) => ("ia", 2, true),
            ('เ', [Some('ื'), Some('อ'), Some('ะ')]) => ("uea", 3, false),
            ('เ', [Some('ื'), Some('อ'), _]) => ("uea", 2, true),
            ('เ', [Some('า'), Some('ะ'), _]) => ("o", 2, false),
            ('เ', [Some('า'), _, _]) => ("ao", 1, false),
            ('เ', [Some('อ'), Some('ะ'), _]) => ("oe", 2, false),
            ('เ', [Some('อ'), _, _]) => ("oe", 1, true),
            ('เ', [Some('ิ'), _, _]) => ("oe", 1, true),
            ('เ', [Some('็'), _, _]) => ("e", 1, true),
            ('เ', [Some('ะ'), _, _]) => ("e", 1, false),
            ('เ', [Some('ย'), n, _]) if !n.is_some_and(is_vowel_mark) => ("oei", 1, false),
            ('เ', _) => ("e", 0, true),
            ('แ', [Some('็'), _, _]) => ("ae", 1, true),
            ('แ', [Some('ะ'), _, _]) => ("ae", 1, false),
            ('แ', _) => ("ae", 0, true),
            ('โ', [Some('ะ'), _, _]) => ("o", 1, false),
            ('โ', _) => ("o", 0, true),
            _ => ("ai", 0, true),
        };
        self.out.push_str(vowel);
        self.i = at + used;
        if takes_final {
            self.finals_after_vowel(matches!(vowel, "a") && used == 1 && self.w[at].c != 'า');
        }
    }

    /// A run of consonants with no vowel written, from `self.i`: `o`
    /// between the two of a pair, `a` after one alone (`สกล` `sa-kon`,
    /// `มณฑล` `mon-thon`, `สกลนคร` `sa-kon-na-khon`): an odd run starts
    /// with one alone, a run of six or more is read as runs of three.
    fn bare_run(&mut self) {
        let run = self.run_from(self.i);
        let (first, second) = (self.w[run[0]].c, run.get(1).map(|&s| self.w[s].c));
        // A cluster starting a run of three reads as one syllable (`กรม`
        // `krom`, `หมด` `mot`).
        if run.len() == 3 && second.is_some_and(|second| one_onset(first, second)) {
            self.onset(true);
            self.out.push('o');
            self.i = run[2];
            self.final_consonant();
            return;
        }
        // Before a syllable, the run's last consonant is one alone (`นนท`
        // `non-tha` before `บุรี`), but for a `ร`, which ends a pair.
        let last = run[run.len() - 1];
        let before_syllable = self.next_read(last + 1).is_some();
        let alone_last = before_syllable && run.len() >= 3 && self.w[last].c != 'ร';
        let paired = &run[..run.len() - usize::from(alone_last)];
        let mut parts: Vec<&[usize]> = if paired.len() >= 6 {
            paired.chunks(3).collect()
        } else {
            vec![paired]
        };
        if alone_last {
            parts.push(&run[run.len() - 1..]);
        }
        for part in parts {
            let mut k = 0;
            if !part.len().is_multiple_of(2) {
                self.i = part[0];
                self.onset(false);
                self.out.push('a');
                k = 1;
            }
            while k + 1 < part.len() {
                self.out.push_str(initial(self.w[part[k]].c));
                self.out.push('o');
                self.i = part[k + 1];
                if self.w[part[k + 1]].c == 'ร' {
                    self.out.push('n');
                    self.i += 1;
                } else {
                    self.final_consonant();
                }
                k += 2;
            }
        }
        self.i = self.i.max(run[run.len() - 1] + 1);
    }
}

/// Whether `first` and `second` start a syllable as one onset: a cluster,
/// a false cluster, a sonorant led by `ห`.
fn one_onset(first: char, second: char) -> bool {
    is_cluster(first, second)
        || false_cluster(first, second).is_some()
        || first == 'ห' && led_by_h(second)
}

#[cfg(test)]
mod tests {
    use super::romanize_word;

    fn rtgs(word: &str) -> String {
        let mut out = String::new();
        romanize_word(word, &mut out);
        out
    }

    /// Examples of the Royal Institute's announcement and its consonant
    /// table (`tests/data/standards/th-rtgs.tsv` has them all, with their
    /// sources), and the greeting RTGS is known by.
    #[test]
    fn reads_by_sound() {
        for (thai, want) in [
            ("สวัสดี", "sawatdi"),
            ("ครับ", "khrap"),
            ("จันทร์", "chan"),
            ("แก้ว", "kaeo"),
            ("นก", "nok"),
            ("สงฆ์", "song"),
            ("กฤษณ์", "krit"),
            ("ปรากฏ", "prakot"),
            ("มณฑล", "monthon"),
            ("เสิร์ฟ", "soep"),
            ("เลี้ยว", "liao"),
            ("ทราย", "sai"),
            ("หลวง", "luang"),
            ("ไทย", "thai"),
            ("เจริญ", "charoen"),
            ("สกลนคร", "sakonnakhon"),
            ("ราชบุรี", "ratchaburi"),
            ("สมุทรสาคร", "samutsakhon"),
            ("อุดรธานี", "udonthani"),
            ("สุพรรณบุรี", "suphanburi"),
            ("เสมอ", "samoe"),
            ("เพชร", "phet"),
            ("พิษณุโลก", "phitsanulok"),
            ("๒๕๖๗", "2567"),
        ] {
            assert_eq!(rtgs(thai), want, "{thai}");
        }
    }

    /// Whatever characters of the block come, in whatever order, the
    /// reader writes ASCII letters and digits and stops.
    #[test]
    fn any_thai_is_read_to_ascii() {
        crate::readers::runs::tests::reads_any_to_ascii('\u{E01}'..='\u{E5B}', romanize_word);
    }
}
