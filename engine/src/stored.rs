//! How a name is cut into stored chunks, and which names are stored at
//! all: the Redis table keeps a name in fields of at most
//! [`CHUNK_BYTES`] (Redis's stock `hash-max-listpack-value`), and the
//! in-process table leaves out the same names, so that both modes give
//! the same slugs.

/// The longest value stored in one field: Redis's stock
/// `hash-max-listpack-value`.
pub const CHUNK_BYTES: usize = 64;

/// Chunks one name may take: keeps a bucket within 128 fields only if
/// every name fits in two, but names up to 4 chunks are accepted (a bucket
/// with several of them would fall back to a hashtable, still correct).
pub const MAX_CHUNKS: usize = 4;

/// Splits a name into stored chunks of at most [`CHUNK_BYTES`] bytes,
/// each ending at a character boundary: romanized names are ASCII, so
/// theirs are every 64 bytes; a name as written (rules 4's) may end a
/// chunk a few bytes early.
pub fn chunks(name: &str) -> impl Iterator<Item = &str> {
    let mut rest = name;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len().min(CHUNK_BYTES);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let (chunk, after) = rest.split_at(end);
        rest = after;
        Some(chunk)
    })
}

/// Whether a CLDR name is stored: it fits in [`MAX_CHUNKS`] chunks (for
/// an ASCII name, 256 bytes). A longer one is left out in both modes
/// alike (none in CLDR 41), and its key gets the next name along the
/// chain; a longer UnicodeData name fails the load.
pub fn stored(name: &str) -> bool {
    chunks(name).nth(MAX_CHUNKS).is_none()
}
