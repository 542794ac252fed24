//! What a title needs read, found from the table's scripts: the blocks
//! each script's readers read ([`super::Words::blocks`],
//! `super::scripts::BLOCKS`) become, at compile time, a mask of the first
//! two bytes their characters' UTF-8 may start with ([`Leads`]). A scan
//! then passes over every other byte a block of bytes at a time, and
//! decodes only the characters whose first two bytes the mask holds:
//! ASCII, Latin and most other titles are read in one pass.

use super::Words;
pub(crate) use super::bytes::find_byte;

/// Whether a byte of UTF-8 starts a character from U+0800: 0xE0 or more.
#[inline]
pub(crate) fn is_wide_lead(byte: u8) -> bool {
    byte >= 0xE0
}

/// For each first byte of UTF-8, the second bytes (their low six bits,
/// as bits of a word) that may follow it in a character of a set.
pub(crate) type Leads = [u64; 256];

/// [`Leads`] of the characters in `sets` of blocks: exact for characters
/// of two bytes, a block of 64 (or 4,096) characters at a time for longer
/// ones.
pub(crate) const fn leads_of(sets: &[&[(u32, u32)]]) -> Leads {
    let mut leads = [0u64; 256];
    let mut s = 0;
    while s < sets.len() {
        let blocks = sets[s];
        let mut b = 0;
        while b < blocks.len() {
            let (first, last) = blocks[b];
            let mut cp = first;
            while cp <= last {
                let (lead, second, step) = if cp < 0x800 {
                    (0xC0 | (cp >> 6), cp & 0x3F, 1)
                } else if cp < 0x1_0000 {
                    (0xE0 | (cp >> 12), (cp >> 6) & 0x3F, 64 - (cp & 0x3F))
                } else {
                    (0xF0 | (cp >> 18), (cp >> 12) & 0x3F, 4096 - (cp & 0xFFF))
                };
                leads[lead as usize] |= 1 << second;
                cp += step;
            }
            b += 1;
        }
        s += 1;
    }
    leads
}

/// Whether a character whose UTF-8 starts with `lead` and `next` may be
/// one of those `leads` was made of; for two bytes, whether it is.
#[inline(always)]
pub(crate) fn may_be(leads: &Leads, lead: u8, next: u8) -> bool {
    (leads[lead as usize] >> (next & 0x3F)) & 1 != 0
}

/// What composition (NFC) may change or join to the character before:
/// combining marks, Hangul's letters, Greek with breathings, the Ohm,
/// Kelvin and Angstrom signs, CJK compatibility ideographs.
const COMPOSED: &[(u32, u32)] = &[
    (0x300, 0x36F),
    (0x1100, 0x11FF),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x1F00, 0x1FFF),
    (0x2126, 0x2126),
    (0x212A, 0x212B),
    (0xF900, 0xFAFF),
];

/// The scripts read word by word and what composition changes: what the
/// words stage stops at and stage 3 reads.
pub(crate) const WORDS: Leads = {
    let mut sets: [&[(u32, u32)]; Words::ALL.len() + 1] = [COMPOSED; Words::ALL.len() + 1];
    let mut i = 0;
    while i < Words::ALL.len() {
        sets[i] = Words::ALL[i].blocks();
        i += 1;
    }
    leads_of(&sets)
};

/// The first bytes of [`WORDS`], as a table: a test the compiler makes a
/// load.
const WORD_LEADS: [bool; 256] = {
    let mut leads = [false; 256];
    let mut b = 0;
    while b < 256 {
        leads[b] = WORDS[b] != 0;
        b += 1;
    }
    leads
};

/// Whether a character is in `blocks`.
#[inline(always)]
fn within(blocks: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    blocks
        .iter()
        .any(|&(first, last)| (first..=last).contains(&c))
}

/// Whether a reader of a script read word by word reads `c`'s block.
#[inline]
pub(crate) fn reads(c: char) -> bool {
    Words::ALL.iter().any(|w| within(w.blocks(), c))
}

/// Whether composition (NFC) may change `c` or join it to the character
/// before.
#[inline]
pub(crate) fn composes(c: char) -> bool {
    within(COMPOSED, c)
}

/// Whether `text` holds what the readers of words read or composition
/// changes.
#[inline]
pub(crate) fn may_apply(text: &str) -> bool {
    first_of(text, |c| reads(c) || composes(c))
}

/// Whether the two-byte character `cp` (U+0080 to U+07FF) is one the
/// readers of words read or composition changes: the words stage stops
/// there.
#[inline]
pub(crate) fn stops_at(cp: u32) -> bool {
    may_be(&WORDS, (0xC0 | (cp >> 6)) as u8, (cp & 0x3F) as u8)
}

/// Whether the first character of [`WORDS`] for which `wanted` holds
/// exists in `text`.
#[inline]
pub(crate) fn first_of(text: &str, wanted: impl Fn(char) -> bool) -> bool {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = find_byte(bytes, from, |b| WORD_LEADS[b as usize]) {
        let lead = bytes[at];
        let next = bytes.get(at + 1).copied().unwrap_or(0);
        if !may_be(&WORDS, lead, next) {
            from = at + if lead >= 0xE0 { 3 } else { 2 };
            continue;
        }
        let c = text[at..]
            .chars()
            .next()
            .expect("a lead byte starts a char");
        if wanted(c) {
            return true;
        }
        from = at + c.len_utf8();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every letter a script's readers read is in the script's blocks, so
    /// that the scans, built from the blocks, stop at it (a Latin `đ` is
    /// looked for apart, where a locale chooses its reader).
    #[test]
    fn each_scripts_letters_are_in_its_blocks() {
        for c in '\0'..=char::MAX {
            for script in Words::ALL {
                if script != Words::LatinDj && script.has(c) {
                    assert!(within(script.blocks(), c), "{script:?} U+{:04X}", c as u32);
                }
            }
        }
    }

    /// The scan stops at every character the readers of words read or
    /// composition changes, and the words stage at exactly the two-byte
    /// ones.
    #[test]
    fn the_scan_misses_no_character_read() {
        for c in '\u{80}'..='\u{FFFF}' {
            let text = format!("ab {c} z");
            let want = reads(c) || composes(c);
            assert_eq!(may_apply(&text), want, "U+{:04X}", c as u32);
            if (0x80..0x800).contains(&(c as u32)) {
                assert_eq!(stops_at(c as u32), want, "U+{:04X}", c as u32);
            }
        }
    }
}
