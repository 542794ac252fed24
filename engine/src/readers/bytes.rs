//! The byte search every fast path of the engine starts with: a title's
//! bytes tested 16 at a time for one that may start what a stage reads.
//! It imports nothing, so that any reader may use it.

/// The first index at or after `from` of a byte of `bytes` for which
/// `wanted` holds. Titles are short and rarely hold such a byte, so the
/// bytes are tested in blocks of 16 without a branch per byte, which the
/// compiler makes a few vector instructions a block (the last block
/// overlaps the one before it); only a block that holds one, and a text
/// shorter than a block, are searched byte by byte. `memchr` costs more on
/// such short texts, and finds one byte only.
#[inline]
pub(crate) fn find_byte(bytes: &[u8], from: usize, wanted: impl Fn(u8) -> bool) -> Option<usize> {
    const BLOCK: usize = 16;
    let holds = |block: &[u8]| block.iter().fold(0u8, |any, &b| any | u8::from(wanted(b))) != 0;
    let find_in = |start: usize, end: usize| {
        (bytes[start..end].iter())
            .position(|&b| wanted(b))
            .map(|k| start + k)
    };
    let mut at = from;
    while at + BLOCK <= bytes.len() {
        if holds(&bytes[at..at + BLOCK]) {
            return find_in(at, at + BLOCK);
        }
        at += BLOCK;
    }
    if at >= bytes.len() {
        return None;
    }
    if bytes.len() >= BLOCK && !holds(&bytes[bytes.len() - BLOCK..]) {
        return None;
    }
    find_in(at, bytes.len())
}
