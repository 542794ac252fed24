//! The export of a scope: every slug an owner holds, one NDJSON line each
//! (`slug`, `owner`, `state`, `held_until` for a hold, the `rules` kept
//! with it, and `base` where it is not the slug without its number), an
//! owner's slugs oldest first. The scope is read a range of buckets at a
//! time ([`CHUNKS`] calls, each one atomic step that writes nothing), so
//! at most one range's lines are held at once. Importing the export into
//! an empty scope gives the same slugs, owners, states, current slugs and
//! bases. Shared by `slugd export` and `GET /reservations/{scope}`.

use serde::Serialize;

use super::error::ReserveError;
use super::import::rfc3339;
use super::names::Scope;
use super::reserver::split_number;
use super::store::{BUCKETS, Entry, RedisStore};

/// How many buckets one call reads.
const PER_CHUNK: u32 = 128;

/// How many calls read the whole scope.
pub const CHUNKS: u32 = BUCKETS / PER_CHUNK;

/// One line of the export.
#[derive(Serialize)]
struct Line<'a> {
    slug: &'a str,
    owner: &'a str,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    held_until: Option<String>,
    rules: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<&'a str>,
}

/// The lines of the `chunk`th range of buckets of `scope` (from 0 to
/// [`CHUNKS`] - 1), each ending in a newline.
pub async fn chunk(store: &RedisStore, scope: &Scope, chunk: u32) -> Result<Vec<u8>, ReserveError> {
    let from = chunk * PER_CHUNK;
    let entries = store.export(scope, from, from + PER_CHUNK).await?;
    let mut out = Vec::with_capacity(entries.len() * 80);
    for entry in &entries {
        write_line(&mut out, entry);
    }
    Ok(out)
}

/// Appends `entry`'s line to `out`.
pub(crate) fn write_line(out: &mut Vec<u8>, entry: &Entry) {
    let line = Line {
        slug: &entry.slug,
        owner: &entry.owner,
        state: match entry.held_until {
            Some(_) => "held",
            None => "confirmed",
        },
        held_until: entry.held_until.map(rfc3339),
        rules: entry.rules,
        base: (split_number(&entry.slug).0 != entry.base).then_some(entry.base.as_str()),
    };
    // Strings and numbers only: writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &line);
    out.push(b'\n');
}
