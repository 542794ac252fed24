//! How a model reads a word: letter by letter, the widest context it
//! knows first; Arabic's article, its `ة` and a few words said otherwise
//! than written by rule; the endings of place names as names write them.

use std::borrow::Cow;

use super::model::{LEVELS, flag, key_at, padded};
use super::{Language, VowelModel, ZWNJ, has_letters, is_dropped, is_letter, is_vowel_mark};

/// Arabic words read as they are said, not as their letters look: the
/// name of God, alone and after a proclitic (its `ل` is no sun letter's
/// assimilation), and the relative pronouns, whose `لل` is one `l`
/// written twice.
const ARABIC_WORDS: [(&str, &str); 7] = [
    ("الله", "allah"),
    ("لله", "lillah"),
    ("بالله", "billah"),
    ("والله", "wallah"),
    ("الذي", "alladhi"),
    ("التي", "allati"),
    ("الذين", "alladhina"),
];

/// Arabic's article `ال`, alone or after a proclitic (`و ف ك ب` and,
/// `ل` for, whose `لل` takes the article's alif): what is written before
/// the article's consonant (`a`l, `wa`l, `bi`l), and the fewest letters
/// the rest must have for the letters to be taken as the article (`والدين`
/// is walidayn, not wa-d-din).
const ARTICLES: [(&str, &str, usize); 6] = [
    ("ال", "a", 2),
    ("وال", "wa", 4),
    ("فال", "fa", 4),
    ("كال", "ka", 4),
    ("بال", "bi", 3),
    ("لل", "li", 3),
];

/// How Arabic's article sounds before a sun letter `c` (`ش` sh: `ash`),
/// as BGN/PCGN writes it; `None` before a moon letter (`al`).
fn sun_letter(c: char) -> Option<&'static str> {
    Some(match c {
        'ت' | 'ط' => "t",
        'ث' => "th",
        'د' | 'ض' => "d",
        'ذ' => "dh",
        'ر' => "r",
        'ز' | 'ظ' => "z",
        'س' | 'ص' => "s",
        'ش' => "sh",
        'ل' => "l",
        'ن' => "n",
        _ => return None,
    })
}

impl VowelModel {
    /// Writes `word` (letters of [`is_letter`]) to `out` in ASCII as the
    /// model reads it, a last `ه` said e as eh, and a place name's ending
    /// of [`Language::endings`] as names write it. A letter the model never
    /// saw is written as its likeliest sound, or, for a letter the language
    /// does not write, as it is, for the stages after to write.
    pub fn read(&self, word: &str, out: &mut String) {
        self.read_word(word, false, out);
    }

    /// [`VowelModel::read`], with whether another word of the language
    /// follows (an Arabic noun in construct writes its last `ة` at).
    fn read_word(&self, word: &str, followed: bool, out: &mut String) {
        let word = self.language.normalized(word);
        if self.language == Language::Arabic {
            return self.read_arabic(&word, followed, out);
        }
        for &(ending, written) in self.language.endings() {
            if let Some(stem) = word
                .strip_suffix(ending)
                .filter(|stem| stem.chars().count() >= 2)
            {
                self.read_letters(stem, out);
                out.push_str(written);
                return;
            }
        }
        self.read_letters(&word, out);
    }

    /// Writes the Arabic `word`, normalized, to `out`: a word of
    /// [`ARABIC_WORDS`] as written there; its article `ال` a word of its
    /// own, `al`, or `a` and the sun letter it takes the sound of (`ash`
    /// before `ش`), as BGN/PCGN and rules 5's reading of marked words write
    /// it; the rest as the model reads it; a last `ة` `ah`, as names write
    /// it (Al Qahirah), or `at` where the word is a noun in construct,
    /// `followed` by another word and without the article (`قلعة المضيق`
    /// Qal'at al Madiq, `معرة النعمان` Ma'arrat an Nu'man).
    fn read_arabic(&self, word: &str, followed: bool, out: &mut String) {
        if let Some(&(_, written)) = ARABIC_WORDS.iter().find(|(w, _)| *w == word) {
            out.push_str(written);
            return;
        }
        let mut rest = word;
        let article = ARTICLES.iter().find_map(|&(prefix, written, shortest)| {
            word.strip_prefix(prefix)
                .filter(|after| after.chars().count() >= shortest)
                .map(|after| (written, after))
        });
        if let Some((written, after)) = article {
            let sun = after.chars().next().and_then(sun_letter);
            out.push_str(written);
            out.push_str(sun.unwrap_or("l"));
            out.push(' ');
            rest = after;
        }
        match rest.strip_suffix('ة') {
            Some(stem) if !stem.is_empty() => {
                let start = out.len();
                self.read_letters(stem, out);
                if !out[start..].ends_with('a') {
                    out.push('a');
                }
                out.push(if followed && article.is_none() {
                    't'
                } else {
                    'h'
                });
            }
            _ => self.read_letters(rest, out),
        }
    }

    /// Writes `word`, normalized, to `out` as the model reads it, letter
    /// by letter ([`VowelModel::read`]).
    fn read_letters(&self, word: &str, out: &mut String) {
        let letters: Vec<char> = word.chars().collect();
        let padded = padded(letters.iter().map(|&c| self.alphabet.id(c)));
        let start = out.len();
        for (i, &letter) in letters.iter().enumerate() {
            let flag = flag(&out[start..]);
            let found = (0..LEVELS.len())
                .find_map(|level| self.contexts.get(&key_at(&padded, i + 4, level, flag)))
                .map(|&id| &*self.chunks[usize::from(id)]);
            match found {
                Some(chunk) if letter == 'غ' && chunk.starts_with('q') => {
                    out.push_str("gh");
                    out.push_str(&chunk[1..]);
                }
                // A Persian word's last `ه` said e is written eh, as names
                // write it (`ساوه` Saveh, `مراغه` Maragheh).
                Some("e")
                    if letter == 'ه'
                        && i + 1 == letters.len()
                        && self.language == Language::Persian =>
                {
                    out.push_str("eh");
                }
                Some(chunk) => out.push_str(chunk),
                None => match self.language.sounds(letter) {
                    Some(sounds) => out.push_str(sounds[0]),
                    None => out.push(letter),
                },
            }
        }
    }
}

/// `text` with each word of the model's language read by `model`, but an
/// Urdu or Arabic word written with a vowel mark (left to the standard's
/// reader of marked words); borrowed when it has none.
pub(crate) fn read_words<'t>(text: &'t str, model: &VowelModel) -> Cow<'t, str> {
    if !has_letters(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| is_letter(c) && c != ZWNJ) {
        out.push_str(&rest[..start]);
        let word = &rest[start..];
        let end = word
            .find(|c: char| !(is_letter(c) || is_dropped(c)))
            .unwrap_or(word.len());
        let word_text = &word[..end];
        if model.language != Language::Persian && word_text.chars().any(is_vowel_mark) {
            out.push_str(word_text);
        } else {
            // Whether another word of the script follows, after spaces.
            let followed = word[end..]
                .trim_start_matches(' ')
                .starts_with(|c: char| is_letter(c) && c != ZWNJ);
            model.read_word(word_text, followed, &mut out);
        }
        rest = &word[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}
