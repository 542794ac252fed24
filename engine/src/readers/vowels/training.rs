//! How a model is learnt ([`train`]) from a word list's words and
//! espeak-ng's readings of them ([`fold_ipa`]): each letter aligned with
//! the sounds it gave, then the likeliest reading of each context kept.
//! Built only where models are made (the service's `train` feature) and in
//! tests: a service that reads prepared models carries none of it.

use std::collections::HashMap;

use super::model::{LEVELS, VOWELS, flag, key_at, pack, padded, unpack};
use super::{Language, VowelModel, ZWNJ};

/// How many training words the alignment costs are learnt from.
const EM_WORDS: usize = 10_000;

/// Rounds of learning the alignment costs.
const EM_ROUNDS: usize = 3;

/// `ipa`, espeak-ng's IPA for a word, folded to the ASCII letters readers
/// write for its sounds (`tehrˈɑn` tehran, `ʃiːrˈɑːz` shiraz: stress and
/// length left out, a long consonant doubled, `ʃ` sh, `x` kh, `ɒ ɑ æ` a);
/// `None` where espeak-ng read part of it as another language (`(en)`).
pub fn fold_ipa(ipa: &str) -> Option<String> {
    if ipa.contains('(') {
        return None;
    }
    const VOWEL_SIGNS: &str = "aeiouɑɒæəɛɔɪʊɐʌãẽĩõũā";
    let chars: Vec<char> = ipa
        .chars()
        .filter(|c| !matches!(c, 'ˈ' | 'ˌ' | '.' | '‿' | 'ˑ' | '\u{0361}'))
        .collect();
    let mut out = String::with_capacity(chars.len() + 4);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after = chars.get(i + 2).copied();
        let (text, used) = match (c, next, after) {
            ('t', Some('ʃ'), Some('ʰ')) => ("chh", 3),
            ('t', Some('ʃ'), _) => ("ch", 2),
            ('d', Some('ʒ'), _) => ("j", 2),
            ('c', Some('ʰ'), _) => ("chh", 2),
            ('ɟ', Some('ʱ' | 'ʰ'), _) => ("jh", 2),
            ('ð', Some('ˤ'), _) | ('z', Some('ˤ'), _) => ("z", 2),
            ('s', Some('ˤ'), _) => ("s", 2),
            ('d', Some('ˤ'), _) => ("d", 2),
            ('t', Some('ˤ' | 'ˁ'), _) => ("t", 2),
            ('q', Some('1'), _) => ("q", 2),
            (c, Some('\u{0303}'), _) if VOWEL_SIGNS.contains(c) => {
                out.push_str(single(c));
                ("n", 2)
            }
            ('ː', _, _) => {
                // Length: a long vowel is written once, a long consonant
                // twice.
                let last = chars[..i].iter().rev().find(|c| !c.is_whitespace());
                match last {
                    Some(&last) if !VOWEL_SIGNS.contains(last) => (single(last), 1),
                    _ => ("", 1),
                }
            }
            (c, _, _) => (single(c), 1),
        };
        out.push_str(text);
        i += used;
    }
    Some(
        out.chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect(),
    )
}

/// [`fold_ipa`] for `language`'s teacher: Hebrew's shva (`ə`, g2p2's
/// Hebrew) is written e, as Israel's names write it (Be'er, Netivot); the
/// others' as a, as before.
pub fn fold_ipa_for(language: Language, ipa: &str) -> Option<String> {
    match language {
        Language::Hebrew => fold_ipa(&ipa.replace('ə', "e")),
        _ => fold_ipa(ipa),
    }
}

/// What one IPA character is written as (itself, when ASCII).
fn single(c: char) -> &'static str {
    match c {
        'ɫ' => "l",
        'ʰ' | 'ʱ' | 'ħ' | 'ɦ' => "h",
        'ʕ' | 'ʔ' | 'ʲ' | 'ʷ' => "",
        'ɣ' | 'ġ' => "gh",
        'ʁ' | 'ɽ' | 'ɾ' => "r",
        'χ' | 'x' => "kh",
        'ʃ' | 'š' => "sh",
        'ʒ' => "zh",
        'ʐ' => "z",
        'θ' => "th",
        'ð' => "dh",
        'ɢ' | 'q' => "q",
        'ɡ' | 'g' => "g",
        'j' => "y",
        'c' => "ch",
        'ɟ' => "j",
        'ʈ' => "t",
        'ɖ' => "d",
        'ʋ' => "w",
        'ʂ' => "s",
        'ŋ' | 'ɲ' => "n",
        'ʦ' => "ts",
        'ɑ' | 'ɒ' | 'æ' | 'ə' | 'ɐ' | 'ʌ' | 'ā' => "a",
        'ɪ' | 'ɨ' => "i",
        'ʊ' | 'ɯ' => "u",
        'ɛ' => "e",
        'ɔ' | 'ø' => "o",
        'ã' => "an",
        'ẽ' => "en",
        'ĩ' => "in",
        'õ' => "on",
        'ũ' => "un",
        c if c.is_ascii_alphabetic() => ascii_letter(c),
        _ => "",
    }
}

/// An ASCII letter as a static string.
fn ascii_letter(c: char) -> &'static str {
    const LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    LETTERS.find(c).map_or("", |at| &LETTERS[at..at + 1])
}

/// The training words of a word list: the words without ZWNJ that three
/// or more longer words of the list start with (stems, not their
/// inflections: the model learns more from `دانشگاه` than from its
/// plurals), each once. `list` holds the words, [`normalized`], a line
/// each, in any order: one buffer, not a string a word, since a list has
/// hundreds of thousands.
pub fn stems(list: &str) -> Vec<String> {
    let mut words: Vec<&str> = list.lines().filter(|w| !w.is_empty()).collect();
    words.sort_unstable();
    words.dedup();
    let mut stems = Vec::new();
    for (i, word) in words.iter().enumerate() {
        if word.contains(ZWNJ) {
            continue;
        }
        let longer = words[i + 1..]
            .iter()
            .take(3)
            .take_while(|w| w.starts_with(word))
            .count();
        if longer >= 3 {
            stems.push((*word).to_owned());
        }
    }
    stems
}

/// The alignment of a word's letters with the ASCII they gave.
struct Aligner {
    /// The language whose letters it aligns.
    language: Language,
    /// (letter, ASCII) -> cost, once learnt; `None` before.
    costs: Option<HashMap<(char, Box<str>), f64>>,
}

/// One way a letter may give the ASCII at a position: its text, where it
/// ends, and its cost.
struct Step {
    end: usize,
    cost: f64,
}

impl Aligner {
    /// The cost of a letter giving `sound` (the `rank`th it may have),
    /// doubled or not, then `vowels` vowels, before costs are learnt.
    fn first_cost(&self, c: char, sound: &str, rank: usize, doubled: bool, vowels: usize) -> f64 {
        let mut cost = rank as f64 + if doubled { 1.5 } else { 0.0 } + 0.4 * vowels as f64;
        if sound.is_empty() && self.language.sounds(c).is_some_and(|s| !s.contains(&"")) {
            cost += 3.0;
        }
        cost
    }

    /// The ways letter `c` may give `out` from byte `at`.
    fn steps(&self, c: char, out: &str, at: usize, steps: &mut Vec<Step>) {
        steps.clear();
        let rest = &out[at..];
        let unknown: [&str; 3] = ["", rest.get(..1).unwrap_or(""), rest.get(..2).unwrap_or("")];
        let listed = self.language.sounds(c);
        let mut candidates: Vec<&str> = match listed {
            Some(list) => list.to_vec(),
            None => unknown.to_vec(),
        };
        if !candidates.contains(&"") {
            candidates.push("");
        }
        for (rank, &sound) in candidates.iter().enumerate() {
            for doubled in [false, true] {
                if doubled && sound.is_empty() {
                    continue;
                }
                let len = sound.len() * if doubled { 2 } else { 1 };
                if !rest.starts_with(sound) || (doubled && !rest[sound.len()..].starts_with(sound))
                {
                    continue;
                }
                let mut vowels = 0;
                loop {
                    let end = at + len + vowels;
                    let cost = match &self.costs {
                        None => self.first_cost(c, sound, rank, doubled, vowels),
                        Some(costs) => match costs.get(&(c, Box::from(&out[at..end]))) {
                            Some(&cost) => cost,
                            None => 12.0 + self.first_cost(c, sound, rank, doubled, vowels),
                        },
                    };
                    steps.push(Step { end, cost });
                    if vowels >= 2 || end >= out.len() || !VOWELS.contains(&out.as_bytes()[end]) {
                        break;
                    }
                    vowels += 1;
                }
            }
        }
    }

    /// The ASCII each letter of `word` gave in `out`, by the cheapest
    /// alignment; `None` when there is none.
    fn align(&self, word: &[char], out: &str) -> Option<Vec<Box<str>>> {
        let (n, m) = (word.len(), out.len());
        let mut best = vec![f64::INFINITY; (n + 1) * (m + 1)];
        let mut from = vec![usize::MAX; (n + 1) * (m + 1)];
        best[0] = 0.0;
        let mut steps = Vec::new();
        for (i, &c) in word.iter().enumerate() {
            for j in 0..=m {
                let here = best[i * (m + 1) + j];
                if here.is_infinite() {
                    continue;
                }
                self.steps(c, out, j, &mut steps);
                for step in &steps {
                    let at = (i + 1) * (m + 1) + step.end;
                    if here + step.cost < best[at] {
                        best[at] = here + step.cost;
                        from[at] = j;
                    }
                }
            }
        }
        if best[n * (m + 1) + m].is_infinite() {
            return None;
        }
        let mut chunks = vec![Box::<str>::default(); n];
        let mut j = m;
        for i in (1..=n).rev() {
            let start = from[i * (m + 1) + j];
            chunks[i - 1] = Box::from(&out[start..j]);
            j = start;
        }
        Some(chunks)
    }

    /// Learns the costs from `pairs` by hard EM: each round aligns them
    /// and costs each (letter, ASCII) by how often it was seen.
    fn learn(&mut self, pairs: &[(Vec<char>, String)]) {
        for _ in 0..EM_ROUNDS {
            let mut seen: HashMap<(char, Box<str>), u32> = HashMap::new();
            let mut per_letter: HashMap<char, u32> = HashMap::new();
            for (word, out) in pairs {
                let Some(chunks) = self.align(word, out) else {
                    continue;
                };
                for (&c, chunk) in word.iter().zip(chunks) {
                    *seen.entry((c, chunk)).or_default() += 1;
                    *per_letter.entry(c).or_default() += 1;
                }
            }
            self.costs = Some(
                seen.into_iter()
                    .map(|((c, chunk), n)| {
                        let total = f64::from(per_letter[&c]);
                        ((c, chunk), -((f64::from(n) + 0.5) / (total + 5.0)).ln())
                    })
                    .collect(),
            );
        }
    }
}

/// A training word aligned: its letters' numbers (padded), and each
/// letter's flag and reading's number.
type Aligned = (Vec<u8>, Vec<(u8, u16)>);

/// Learns the model from `pairs`: each a word of the list and the ASCII
/// of espeak-ng's reading of it ([`fold_ipa`]), the words normalized. A
/// pair whose word has anything but [`Language::is_letter`]s, or whose reading
/// anything but `a` to `z`, is left out.
pub fn train(language: Language, pairs: &[(String, String)]) -> VowelModel {
    let pairs: Vec<(Vec<char>, String)> = pairs
        .iter()
        .filter(|(word, out)| {
            !word.is_empty()
                && word.chars().all(|c| language.is_letter(c))
                && out.bytes().all(|b| b.is_ascii_lowercase())
        })
        .map(|(word, out)| (word.chars().collect(), out.clone()))
        .collect();
    let mut aligner = Aligner {
        language,
        costs: None,
    };
    aligner.learn(&pairs[..pairs.len().min(EM_WORDS)]);
    let mut model = VowelModel {
        language,
        ..VowelModel::default()
    };
    let mut chunk_ids: HashMap<Box<str>, u16> = HashMap::new();
    // Each word aligned once.
    let mut aligned: Vec<Aligned> = Vec::with_capacity(pairs.len());
    for (word, out) in &pairs {
        let Some(chunks) = aligner.align(word, out) else {
            continue;
        };
        let padded = padded(word.iter().map(|&c| model.alphabet.learn(c)));
        let mut written = String::new();
        let mut read = Vec::with_capacity(chunks.len());
        for chunk in chunks {
            let flag = flag(&written);
            written.push_str(&chunk);
            let next = u16::try_from(model.chunks.len()).unwrap_or(u16::MAX);
            let id = *chunk_ids.entry(chunk.clone()).or_insert_with(|| {
                model.chunks.push(chunk);
                next
            });
            read.push((flag, id));
        }
        aligned.push((padded, read));
    }
    // A level at a time, the narrowest first (a level's counts are a
    // sixth of all, and gone before the next level's): each context's
    // likeliest reading (ties: the smallest), kept only where it differs
    // from what the narrower levels kept say.
    for level in (0..LEVELS.len()).rev() {
        let mut counts: HashMap<(u64, u16), u32> = HashMap::new();
        for (padded, read) in &aligned {
            for (i, &(flag, id)) in read.iter().enumerate() {
                *counts
                    .entry((key_at(padded, i + 4, level, flag), id))
                    .or_default() += 1;
            }
        }
        let mut best: HashMap<u64, (u16, u32)> = HashMap::with_capacity(counts.len());
        for ((key, id), n) in counts {
            let entry = best.entry(key).or_insert((id, n));
            if n > entry.1
                || (n == entry.1
                    && model.chunks[usize::from(id)] < model.chunks[usize::from(entry.0)])
            {
                *entry = (id, n);
            }
        }
        for (key, (id, _)) in best {
            if level + 1 < LEVELS.len() && model.narrower(key) == Some(id) {
                continue;
            }
            model.contexts.insert(key, id);
        }
    }
    model.contexts.shrink_to_fit();
    model
}

impl VowelModel {
    /// What the levels narrower than `key`'s say for its context.
    fn narrower(&self, key: u64) -> Option<u16> {
        let (level, flag, letters) = unpack(key);
        let (left, _) = LEVELS[level];
        (level + 1..LEVELS.len()).find_map(|narrower| {
            let (l, r) = LEVELS[narrower];
            let flag = if narrower + 1 < LEVELS.len() { flag } else { 0 };
            let key = pack(narrower, flag, &letters[left - l..=left + r]);
            self.contexts.get(&key).copied()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_letters_are_aligned_with_the_sounds_they_gave() {
        let aligner = Aligner {
            language: Language::Persian,
            costs: None,
        };
        let word: Vec<char> = "تهران".chars().collect();
        let chunks = aligner.align(&word, "tehran").unwrap();
        assert_eq!(
            chunks.iter().map(|c| &**c).collect::<Vec<_>>(),
            ["te", "h", "r", "a", "n"]
        );
        let word: Vec<char> = "بنا".chars().collect();
        let chunks = aligner.align(&word, "banna").unwrap();
        assert_eq!(
            chunks.iter().map(|c| &**c).collect::<Vec<_>>(),
            ["ba", "nn", "a"]
        );
    }
}
