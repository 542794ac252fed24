//! How a model reads a word: letter by letter, the widest context it
//! knows first; Arabic's article, its `ة` and a few words said otherwise
//! than written by rule; the endings of place names as names write them;
//! rules 7's Arabic: names by the lexicon, a first hamza's vowel, and in
//! the Maghreb the letters French writes; Hebrew's `ח` as Israel's names
//! write it.

use std::borrow::Cow;

use super::model::{LEVELS, flag, key_at, padded};
use super::names::{self, PARTICLES, Region, SUFFIXES};
use super::{Language, Style, VowelModel, ZWNJ, is_vowel_mark};

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

/// How `word` is said where [`ARABIC_WORDS`] has it.
fn said_otherwise(word: &str) -> Option<&'static str> {
    ARABIC_WORDS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, written)| written)
}

/// `word`'s article (alone or after a proclitic, [`ARTICLES`]): what is
/// written before its consonant, and the rest of the word.
fn article_of(word: &str) -> Option<(&'static str, &str)> {
    ARTICLES.iter().find_map(|&(prefix, written, shortest)| {
        word.strip_prefix(prefix)
            .filter(|after| after.chars().count() >= shortest)
            .map(|after| (written, after))
    })
}

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
    /// Writes `word` (letters of [`Language::is_letter`]) to `out` in ASCII as the
    /// model reads it, a last `ه` said e as eh, and a place name's ending
    /// of [`Language::endings`] as names write it. A letter the model never
    /// saw is written as its likeliest sound, or, for a letter the language
    /// does not write, as it is, for the stages after to write.
    pub fn read(&self, word: &str, out: &mut String) {
        self.read_word(word, false, Style::default(), out);
    }

    /// [`VowelModel::read`], with whether another word of the language
    /// follows (an Arabic noun in construct writes its last `ة` at), in
    /// `style`.
    fn read_word(&self, word: &str, followed: bool, style: Style, out: &mut String) {
        let word = self.language.normalized(word);
        if self.language == Language::Arabic {
            return self.read_arabic(&word, followed, style, out);
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
                // Israel's names write `ח` h (Haifa, Holon), `כ` kh.
                Some(chunk) if letter == 'ח' && chunk.starts_with("kh") => {
                    out.push('h');
                    out.push_str(&chunk[2..]);
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
/// reader of marked words); borrowed when it has none. In `style`'s
/// names (rules 7), an Arabic name unit the lexicon holds is written as
/// its bearers write it.
pub(crate) fn read_words<'t>(text: &'t str, model: &VowelModel, style: Style) -> Cow<'t, str> {
    let language = model.language;
    if !language.has_letters(text) {
        return Cow::Borrowed(text);
    }
    if style.names && language == Language::Arabic {
        return Cow::Owned(read_named(text, model, style));
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| language.is_letter(c) && c != ZWNJ) {
        out.push_str(&rest[..start]);
        let word = &rest[start..];
        let end = word
            .find(|c: char| !(language.is_letter(c) || language.drops(c)))
            .unwrap_or(word.len());
        let word_text = &word[..end];
        if model.language != Language::Persian && word_text.chars().any(is_vowel_mark) {
            out.push_str(word_text);
        } else {
            // Whether another word of the script follows, after spaces.
            let followed = word[end..]
                .trim_start_matches(' ')
                .starts_with(|c: char| language.is_letter(c) && c != ZWNJ);
            model.read_word(word_text, followed, Style::default(), &mut out);
        }
        rest = &word[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The words of `text` an Arabic-script model reads: where each starts
/// and ends.
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let language = Language::Arabic;
    let mut spans = Vec::new();
    let mut at = 0;
    while let Some(start) = text[at..].find(|c: char| language.is_letter(c) && c != ZWNJ) {
        let start = at + start;
        let end = text[start..]
            .find(|c: char| !(language.is_letter(c) || language.drops(c)))
            .map_or(text.len(), |e| start + e);
        spans.push((start, end));
        at = end;
    }
    spans
}

/// Arabic words and particles read as their places' and people's names
/// write them, whatever the model would read, keys as [`names::key`]
/// writes them: the particles of names (`بن` bin, `أبو` abu), `أم` umm;
/// in the Maghreb (the second spelling), the words its places' names are
/// made of as its lists of places write them (`وادي` oued, `عين` ain,
/// `سيدي` sidi, `أولاد` ouled, `قصر` ksar).
const NAME_WORDS: [(&str, &str, &str); 27] = [
    ("بن", "bin", "ben"),
    ("ابن", "ibn", "ben"),
    ("بنت", "bint", "bent"),
    ("ابو", "abu", "bou"),
    ("بو", "bu", "bou"),
    ("عبد", "abd", "abd"),
    ("ام", "umm", "oum"),
    ("بني", "bani", "beni"),
    ("عين", "ayn", "ain"),
    ("وادي", "wadi", "oued"),
    ("واد", "wad", "oued"),
    ("سيدي", "sidi", "sidi"),
    ("سدي", "sidi", "sidi"),
    ("اولاد", "awlad", "ouled"),
    ("قصر", "qasr", "ksar"),
    ("قصور", "qusur", "ksour"),
    ("مولاي", "mawlay", "moulay"),
    ("سوق", "suq", "souk"),
    ("حاسي", "hasi", "hassi"),
    ("راس", "ras", "ras"),
    ("ذراع", "dhira", "draa"),
    ("منزل", "manzil", "menzel"),
    ("حمام", "hammam", "hammam"),
    ("زاويه", "zawiyah", "zaouia"),
    ("تيزي", "tizi", "tizi"),
    ("فم", "fam", "foum"),
    ("خميس", "khamis", "khemis"),
];

/// `text` read as rules 7 read Arabic ([`read_words`] with names): a name
/// unit of the lexicon (a particle and the word after it, `عبد القادر`,
/// or a word and `الله` or `الدين` after it) as its spelling, then each
/// word by [`VowelModel::read_arabic`].
fn read_named(text: &str, model: &VowelModel, style: Style) -> String {
    let spans = word_spans(text);
    let mut out = String::with_capacity(text.len() + 8);
    let mut done = 0;
    let mut i = 0;
    let marked = |k: usize| text[spans[k].0..spans[k].1].chars().any(is_vowel_mark);
    // Whether only spaces are between word `k` and the one after it.
    let joined = |k: usize| {
        k + 1 < spans.len() && text[spans[k].1..spans[k + 1].0].bytes().all(|b| b == b' ')
    };
    let keys: Vec<String> = spans
        .iter()
        .map(|&(s, e)| names::key(&model.language.normalized(&text[s..e])))
        .collect();
    while i < spans.len() {
        let (start, end) = spans[i];
        out.push_str(&text[done..start]);
        if marked(i) {
            out.push_str(&text[start..end]);
            done = end;
            i += 1;
            continue;
        }
        // The longest unit of the lexicon that starts here.
        let mut last = i;
        while joined(last) && !marked(last + 1) && PARTICLES.contains(&keys[last].as_str()) {
            last += 1;
        }
        while joined(last) && !marked(last + 1) && SUFFIXES.contains(&keys[last + 1].as_str()) {
            last += 1;
        }
        let unit = (i + 1..=last).rev().find_map(|j| {
            let key = keys[i..=j].join(" ");
            model.names.get(&key, style.region).map(|s| (j, s))
        });
        if let Some((j, spelling)) = unit {
            out.push_str(spelling);
            done = spans[j].1;
            i = j + 1;
            continue;
        }
        // Followed by another word (an Arabic noun in construct).
        model.read_word(&text[start..end], joined(i), style, &mut out);
        done = end;
        i += 1;
    }
    out.push_str(&text[done..]);
    out
}

impl VowelModel {
    /// Writes the Arabic `word`, normalized, to `out`: a word of
    /// [`ARABIC_WORDS`] as written there; its article `ال` a word of its
    /// own, `al`, or `a` and the sun letter it takes the sound of (`ash`
    /// before `ش`), as BGN/PCGN and rules 5's reading of marked words write
    /// it; the rest as the model reads it; a last `ة` `ah`, as names write
    /// it (Al Qahirah), or `at` where the word is a noun in construct,
    /// `followed` by another word and without the article (`قلعة المضيق`
    /// Qal'at al Madiq, `معرة النعمان` Ma'arrat an Nu'man).
    ///
    /// With `style`'s names (rules 7): a word of [`NAME_WORDS`] or of the
    /// lexicon as written there (the lexicon's spelling of the region's
    /// bearers, the second of [`NAME_WORDS`] in the Maghreb), after the
    /// article a word of [`NAME_WORDS`] only; a first `أ إ آ ؤ ئ` keeps its
    /// vowel and a last `ي` read iy is i; in the Maghreb, in the letters
    /// French writes ([`french`]), the article `el`, a last `ة` a (et in
    /// construct).
    fn read_arabic(&self, word: &str, followed: bool, style: Style, out: &mut String) {
        let region = style.region;
        if let Some(written) = said_otherwise(word) {
            out.push_str(written);
            return;
        }
        let mut rest = word;
        let article = article_of(word);
        if let Some((written, after)) = article {
            let sun = after.chars().next().and_then(sun_letter);
            match region {
                None => {
                    out.push_str(written);
                    out.push_str(sun.unwrap_or("l"));
                }
                Some(_) => {
                    // `el`, `bel`, `oul`; `es`, `ech` before a sun letter.
                    out.push_str(match written {
                        "wa" => "oue",
                        "fa" => "fe",
                        "ka" => "ke",
                        "bi" => "be",
                        "li" => "le",
                        _ => "e",
                    });
                    out.push_str(&sun.map_or("l".to_owned(), |s| french(s, region)));
                }
            }
            out.push(' ');
            rest = after;
        }
        if style.names {
            let key = names::key(rest);
            if let Some(&(_, east, west)) = NAME_WORDS.iter().find(|(w, _, _)| *w == key) {
                out.push_str(if region.is_some() { west } else { east });
                return;
            }
            // A name: not after the article (family names and places with
            // it are read as rules 6 read them, the article kept).
            if let Some(spelling) = self.names.get(&key, region).filter(|_| article.is_none()) {
                out.push_str(spelling);
                return;
            }
        }
        let start = out.len();
        match rest.strip_suffix('ة') {
            Some(stem) if !stem.is_empty() => {
                self.read_letters(stem, out);
                if !out[start..].ends_with('a') {
                    out.push('a');
                }
                let construct = followed && article.is_none();
                match (construct, region) {
                    (true, None) => out.push('t'),
                    (false, None) => out.push('h'),
                    // The Maghreb's `-et` in construct (Ksibet), `-a` else.
                    (true, Some(_)) => {
                        out.pop();
                        out.push_str("et");
                    }
                    (false, Some(_)) => {}
                }
            }
            _ => self.read_letters(rest, out),
        }
        if !style.names {
            return;
        }
        // A first hamza's vowel, which the model leaves out where it
        // does not know the word.
        let vowel = match rest.chars().next() {
            Some('أ' | 'آ') => Some("a"),
            Some('إ') => Some("i"),
            Some('ؤ') => Some("u"),
            Some('ئ') => Some("i"),
            _ => None,
        };
        if let Some(vowel) = vowel
            && !out[start..].starts_with(['a', 'e', 'i', 'o', 'u'])
        {
            out.insert_str(start, vowel);
        }
        // A last `ي` the model reads iy, and `و` uw: i and u.
        if out.len() > start + 2 && (out.ends_with("iy") || out.ends_with("uw")) {
            out.pop();
        }
        if region.is_some() {
            let read = french(&out[start..], region);
            out.truncate(start);
            out.push_str(&read);
        }
    }
}

/// `ascii`, as the model reads Arabic, in the letters French writes the
/// Maghreb's names in: `sh` ch, `u` and `w` ou, `q` k, `th` t, `dh` d, and
/// `j` dj in Algeria.
fn french(ascii: &str, region: Option<Region>) -> String {
    let chars: Vec<char> = ascii.chars().collect();
    let mut out = String::with_capacity(ascii.len() + 4);
    let mut i = 0;
    while i < chars.len() {
        let (written, used) = match (chars[i], chars.get(i + 1)) {
            ('s', Some('h')) => ("ch", 2),
            ('t', Some('h')) => ("t", 2),
            ('d', Some('h')) => ("d", 2),
            ('u', Some('w')) => ("ou", 2),
            ('u', _) => ("ou", 1),
            // A `w` after `ou` is written by it.
            ('w', _) if out.ends_with("ou") => ("", 1),
            ('w', _) => ("ou", 1),
            ('q', _) => ("k", 1),
            ('j', _) if region == Some(Region::Algeria) => ("dj", 1),
            (c, _) => {
                out.push(c);
                i += 1;
                continue;
            }
        };
        out.push_str(written);
        i += used;
    }
    out
}
