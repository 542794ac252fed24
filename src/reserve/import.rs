//! Importing a site's existing slugs into a scope: NDJSON lines
//! `{"owner": "42", "slug": "hello-world"}` (with `held_until` for a
//! hold), read as a stream, checked line by line, and claimed in batches,
//! each batch one atomic call in Redis. Batches are read and checked while
//! the ones before are in Redis (two at a time, sent in order on one
//! connection), so the file is read once, in order, and at most four
//! batches are held at a time whatever its size.
//! Shared by `slugd import` and `POST /reservations/{scope}`.
//!
//! A line is imported as it is written (a legacy slug may have capitals
//! or underscores); it is refused, and named with its number and why,
//! when it is not JSON of that shape, when its slug cannot be held (see
//! [`why_not_storable`]), or when another owner holds the slug (the
//! holder keeps it). Importing the same lines again gives the same scope
//! (a line imported again makes its slug its owner's current one again).

use std::time::{SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use serde_json::{Map, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use super::error::ReserveError;
use super::names::{Owner, Scope};
use super::reserver::{MAX_HOLD_SECONDS, split_number};
use super::shape::why_not_storable;
use super::store::{Claim, ClaimHold, Claimed, RedisStore};

/// Lines claimed in one call: a call runs alone in Redis, so a batch is
/// kept short enough (a few milliseconds) not to hold up live
/// reservations.
pub const BATCH_LINES: usize = 500;

/// The longest line read, in bytes: a line holds an owner of at most 200
/// bytes and a slug of at most 512, so a longer one is refused unread.
pub const MAX_LINE_BYTES: usize = 8 * 1024;

/// What an import did, line by line.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportCounts {
    /// Lines read (blank lines are not counted).
    pub lines: u64,
    /// Slugs that are the line's owner's now and were nobody's before.
    pub imported: u64,
    /// Lines whose slug was the owner's already, as the line says.
    pub unchanged: u64,
    /// Lines whose slug was the owner's already, with a hold now renewed
    /// to the line's `held_until` or confirmed.
    pub updated: u64,
    /// Lines refused (each named by a [`Refusal`]).
    pub refused: u64,
}

/// A line that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refusal {
    /// Its number in the input, from 1.
    pub line: u64,
    /// Its slug, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Why.
    pub why: String,
}

/// Why an import stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The input could not be read.
    #[error("cannot read line {line} of the input: {source}")]
    Read {
        /// The line being read, from 1.
        line: u64,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Redis failed a batch: whether it was imported is unknown.
    #[error(
        "Redis failed on the batch of lines {first} to {last}, which may or may not be imported ({source}); the lines before it are; importing the input again is safe, as a line imported twice changes nothing"
    )]
    Redis {
        /// The batch's first line, from 1.
        first: u64,
        /// Its last line.
        last: u64,
        /// What Redis did.
        #[source]
        source: ReserveError,
    },
}

/// One line of the input, checked: its claim, or why it is refused.
type Checked = Result<Claim, Refusal>;

/// Imports every line of `input` into `scope`, calling `refused` for each
/// line refused and `progress` with the bytes read so far after each
/// batch; returns the counts.
pub async fn import<R: AsyncBufRead + Unpin>(
    store: &RedisStore,
    scope: &Scope,
    input: R,
    mut refused: impl FnMut(Refusal),
    mut progress: impl FnMut(u64),
) -> Result<ImportCounts, ImportError> {
    // The reader reads and checks batches into a channel of one; the
    // sender keeps two in Redis, so that Redis never waits for the next.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Batch>(1);
    let read = async move {
        let mut reader = Lines::new(input);
        loop {
            let lines = reader.batch(BATCH_LINES).await?;
            if lines.is_empty() {
                return Ok::<_, ImportError>(());
            }
            let mut batch = Batch {
                lines: lines.len() as u64,
                numbers: Vec::with_capacity(lines.len()),
                claims: Vec::with_capacity(lines.len()),
                refused: Vec::new(),
                bytes: reader.bytes,
            };
            for (line, checked) in lines {
                match checked {
                    Ok(claim) => {
                        batch.numbers.push(line);
                        batch.claims.push(claim);
                    }
                    Err(refusal) => batch.refused.push(refusal),
                }
            }
            if tx.send(batch).await.is_err() {
                // The sender stopped on an error, which it returns.
                return Ok(());
            }
        }
    };
    let send = async {
        let mut counts = ImportCounts::default();
        // Sent in order on the one connection, so Redis runs them in the
        // file's order; only a batch sent again (after a dead connection,
        // or while the scope's slot moves) may run after the next, which
        // matters only to lines of the file that contradict each other.
        let mut in_redis = futures_util::stream::FuturesOrdered::new();
        // Calls that wait for replicas go on connections of their own,
        // which keep no order between them: one at a time.
        let in_flight = match store.waits() {
            true => 1,
            false => IN_REDIS,
        };
        let mut open = true;
        loop {
            tokio::select! {
                biased;
                Some((batch, answered)) = in_redis.next(), if !in_redis.is_empty() => {
                    tally(&mut counts, batch, answered, &mut refused, &mut progress)?;
                }
                next = rx.recv(), if open && in_redis.len() < in_flight => match next {
                    Some(mut batch) => {
                        counts.lines += batch.lines;
                        counts.refused += batch.refused.len() as u64;
                        for refusal in batch.refused.drain(..) {
                            refused(refusal);
                        }
                        in_redis.push_back(async move {
                            let answered = match batch.claims.is_empty() {
                                true => Ok(Vec::new()),
                                false => store.claim(scope, &batch.claims, false).await,
                            };
                            (batch, answered)
                        });
                    }
                    None => open = false,
                },
                else => return Ok::<_, ImportError>(counts),
            }
        }
    };
    let ((), counts) = tokio::try_join!(read, send)?;
    Ok(counts)
}

/// Batches in Redis at once.
const IN_REDIS: usize = 2;

/// A batch of lines read and checked.
struct Batch {
    /// How many lines (blank ones not counted).
    lines: u64,
    /// The numbers of the lines claimed.
    numbers: Vec<u64>,
    /// Their claims.
    claims: Vec<Claim>,
    /// The lines refused unread by Redis.
    refused: Vec<Refusal>,
    /// Bytes of the input read with it.
    bytes: u64,
}

/// Counts what Redis answered a batch, naming each line it refused.
fn tally(
    counts: &mut ImportCounts,
    batch: Batch,
    answered: Result<Vec<Claimed>, ReserveError>,
    refused: &mut impl FnMut(Refusal),
    progress: &mut impl FnMut(u64),
) -> Result<(), ImportError> {
    let answers = answered.map_err(|source| ImportError::Redis {
        first: batch.numbers.first().copied().unwrap_or(0),
        last: batch.numbers.last().copied().unwrap_or(0),
        source,
    })?;
    for ((claim, answer), line) in batch.claims.into_iter().zip(answers).zip(batch.numbers) {
        match answer {
            Claimed::Mine { new: true, .. } => counts.imported += 1,
            Claimed::Mine { slug, .. } if slug.hold.is_some() => counts.updated += 1,
            Claimed::Mine { .. } => counts.unchanged += 1,
            Claimed::Taken { owner, held_until } => {
                counts.refused += 1;
                let until = match held_until {
                    Some(ms) => format!(" (held until {})", rfc3339(ms)),
                    None => String::new(),
                };
                refused(Refusal {
                    line,
                    why: format!("taken: the slug is owner {owner:?}'s{until}, who keeps it"),
                    slug: Some(claim.slug),
                });
            }
        }
    }
    progress(batch.bytes);
    Ok(())
}

/// The lines of the input, each at most [`MAX_LINE_BYTES`].
struct Lines<R> {
    input: R,
    /// The line being read.
    buf: Vec<u8>,
    /// The number of the last line read.
    line: u64,
    /// Bytes read so far.
    bytes: u64,
}

impl<R: AsyncBufRead + Unpin> Lines<R> {
    fn new(input: R) -> Self {
        Lines {
            input,
            buf: Vec::with_capacity(1024),
            line: 0,
            bytes: 0,
        }
    }

    /// Up to `max` checked lines, with their numbers (none at the end).
    async fn batch(&mut self, max: usize) -> Result<Vec<(u64, Checked)>, ImportError> {
        let mut out = Vec::with_capacity(max);
        while out.len() < max {
            match self.next().await? {
                None => break,
                Some(None) => {}
                Some(Some(checked)) => out.push((self.line, checked)),
            }
        }
        Ok(out)
    }

    /// The next line checked; `Some(None)` for a blank line, `None` at the
    /// end.
    async fn next(&mut self) -> Result<Option<Option<Checked>>, ImportError> {
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let chunk = self
                .input
                .fill_buf()
                .await
                .map_err(|source| ImportError::Read {
                    line: self.line + 1,
                    source,
                })?;
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match memchr::memchr(b'\n', chunk) {
                Some(at) => (at + 1, true),
                None => (chunk.len(), false),
            };
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.buf.len());
            if take > room {
                too_long = true;
            } else if !too_long {
                self.buf.extend_from_slice(&chunk[..take]);
            }
            self.input.consume(take);
            self.bytes += take as u64;
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line += 1;
        if too_long {
            return Ok(Some(Some(Err(Refusal {
                line: self.line,
                slug: None,
                why: format!("the line is longer than {MAX_LINE_BYTES} bytes"),
            }))));
        }
        let text = self.buf.trim_ascii();
        if text.is_empty() {
            return Ok(Some(None));
        }
        Ok(Some(Some(check(self.line, text, now_ms()))))
    }
}

/// A slug as a look-up finds it: percent-escapes of UTF-8 decoded (a
/// site that stores `caf%C3%A9` serves the URL of `café`, which a look-up
/// decodes), then in NFC, as slugs are compared.
fn as_looked_up(slug: String) -> String {
    let decoded = match slug.contains('%') {
        true => match percent_encoding::percent_decode_str(&slug).decode_utf8() {
            Ok(text) if why_not_storable(&text).is_none() => text.into_owned(),
            _ => slug,
        },
        false => slug,
    };
    icu::normalizer::ComposingNormalizer::new_nfc()
        .normalize(&decoded)
        .into_owned()
}

/// The time now, in Unix milliseconds.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A time in Unix milliseconds as RFC 3339.
pub fn rfc3339(ms: u64) -> String {
    let at = UNIX_EPOCH + std::time::Duration::from_millis(ms);
    humantime::format_rfc3339_millis(at).to_string()
}

/// One line of the input checked (`now` in Unix milliseconds, to refuse a
/// hold that has lapsed already).
pub(crate) fn check(line: u64, text: &[u8], now: u64) -> Checked {
    let refuse = |slug: Option<&str>, why: String| Refusal {
        line,
        slug: slug.map(str::to_owned),
        why,
    };
    let mut fields: Map<String, Value> = match serde_json::from_slice(text) {
        Ok(Value::Object(fields)) => fields,
        Ok(other) => {
            return Err(refuse(
                None,
                format!(
                    "not a JSON object but {other}; write {{\"owner\": \"42\", \"slug\": \"hello-world\"}}"
                ),
            ));
        }
        Err(e) => return Err(refuse(None, format!("not JSON: {e}"))),
    };
    let slug = match fields.remove("slug") {
        Some(Value::String(slug)) => slug,
        Some(other) => return Err(refuse(None, format!("slug must be a string, not {other}"))),
        None => {
            return Err(refuse(
                None,
                "no slug: write {\"owner\": \"42\", \"slug\": \"hello-world\"}".into(),
            ));
        }
    };
    let slug = as_looked_up(slug);
    let refuse_this = |why: String| Err(refuse(Some(&slug), why));
    if let Some(why) = why_not_storable(&slug) {
        return refuse_this(format!("not a slug: {why}"));
    }
    let owner = match fields.remove("owner") {
        Some(Value::String(owner)) => match Owner::new(owner) {
            Ok(owner) => owner,
            Err(e) => return refuse_this(format!("no owner: {e}")),
        },
        Some(other) => {
            return refuse_this(format!("no owner: owner must be a string, not {other}"));
        }
        None => return refuse_this("no owner: the line has no owner".into()),
    };
    let held_until = match fields.remove("held_until") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => match humantime::parse_rfc3339_weak(&text) {
            Ok(at) => Some(
                at.duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64),
            ),
            Err(e) => {
                return refuse_this(format!(
                    "held_until {text:?} is not an RFC 3339 time such as \"2026-12-31T23:00:00Z\": {e}"
                ));
            }
        },
        Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64(),
        Some(other) => {
            return refuse_this(format!(
                "held_until must be an RFC 3339 time or Unix milliseconds, not {other}"
            ));
        }
    };
    if let Some(until) = held_until
        && until <= now
    {
        return refuse_this(format!(
            "held_until {} has passed: the hold has lapsed, and the slug is nobody's",
            rfc3339(until)
        ));
    }
    // A day's slack: the longest hold is counted on Redis's clock.
    let longest = now + (u64::from(MAX_HOLD_SECONDS) + 86_400) * 1000;
    if let Some(until) = held_until
        && until > longest
    {
        return refuse_this(format!(
            "held_until is more than {} days from now; a hold lasts at most that long (leave held_until out to import the slug for good)",
            MAX_HOLD_SECONDS / 86_400
        ));
    }
    match (fields.remove("state"), held_until) {
        (None | Some(Value::Null), _) => {}
        (Some(Value::String(s)), Some(_)) if s == "held" => {}
        (Some(Value::String(s)), None) if s == "confirmed" => {}
        (Some(other), _) => {
            return refuse_this(format!(
                "state {other} does not match the line: \"held\" with held_until, \"confirmed\" without"
            ));
        }
    }
    let (derived, number) = split_number(&slug);
    let base = match fields.remove("base") {
        None | Some(Value::Null) => derived.to_owned(),
        Some(Value::String(base)) if why_not_storable(&base).is_none() => as_looked_up(base),
        Some(other) => return refuse_this(format!("base {other} is not a slug")),
    };
    // The slug's number moves its base's hint only when it is a suffix of
    // that base (or of a stem cut from it for max_length).
    let number = number.filter(|_| base == derived || (base != slug && base.starts_with(derived)));
    let rules = match fields.remove("rules") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) if n.as_u64().is_some_and(|r| r <= 1000) => n.as_u64().unwrap_or(0),
        Some(other) => {
            return refuse_this(format!(
                "rules must be a rule version's number, not {other}"
            ));
        }
    };
    if let Some(field) = fields.keys().next() {
        return refuse_this(format!(
            "unknown field {field:?}: a line has owner, slug and, for a hold, held_until (and the export's state, base and rules)"
        ));
    }
    Ok(Claim {
        owner: owner.as_str().to_owned(),
        base,
        number: if derived.len() < slug.len() {
            number
        } else {
            None
        },
        slug,
        rules,
        hold: match held_until {
            Some(ms) => ClaimHold::Until(ms),
            None => ClaimHold::Confirmed,
        },
        only_owned: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(text: &str) -> String {
        match check(7, text.as_bytes(), 1_000) {
            Ok(claim) => panic!("{text} was taken: {claim:?}"),
            Err(refusal) => {
                assert_eq!(refusal.line, 7);
                refusal.why
            }
        }
    }

    #[test]
    fn a_line_is_taken_as_it_is_written() {
        let claim = check(1, br#"{"owner": "42", "slug": "Hello_World-7"}"#, 0).unwrap();
        assert_eq!(
            (
                claim.owner.as_str(),
                claim.slug.as_str(),
                claim.base.as_str()
            ),
            ("42", "Hello_World-7", "Hello_World")
        );
        assert_eq!(
            (claim.number, claim.rules, claim.hold),
            (Some(7), 0, ClaimHold::Confirmed)
        );
        let held = check(
            1,
            br#"{"owner": "1", "slug": "a", "held_until": "2030-01-01T00:00:00Z", "state": "held"}"#,
            1_893_000_000_000,
        )
        .unwrap();
        assert_eq!(held.hold, ClaimHold::Until(1_893_456_000_000));
        // Percent-escapes of UTF-8 are the URL of the slug they escape.
        let escaped = check(1, br#"{"owner": "1", "slug": "caf%C3%A9-50%-off"}"#, 0).unwrap();
        assert_eq!(escaped.slug, "café-50%-off");
        let escaped = check(1, br#"{"owner": "1", "slug": "caf%c3%a9"}"#, 0).unwrap();
        assert_eq!(escaped.slug, "café");
        // A base of its own keeps the number from its hint.
        let based = check(
            1,
            br#"{"owner": "1", "slug": "top-10", "base": "top-10"}"#,
            0,
        )
        .unwrap();
        assert_eq!((based.base.as_str(), based.number), ("top-10", None));
        // A stem cut for max_length keeps its number for its base's hint.
        let stem = br#"{"owner": "1", "slug": "a-very-long-ti-2", "base": "a-very-long-title"}"#;
        let stem = check(1, stem, 0).unwrap();
        assert_eq!(stem.number, Some(2));
    }

    #[test]
    fn each_fault_of_a_line_is_named() {
        assert!(why("nope").starts_with("not JSON"));
        assert!(why("[1]").starts_with("not a JSON object"));
        assert!(why(r#"{"owner": "1"}"#).starts_with("no slug"));
        assert!(why(r#"{"owner": "1", "slug": "a b"}"#).contains("whitespace"));
        assert!(why(r#"{"owner": "1", "slug": "a/b"}"#).contains("'/'"));
        assert!(why(r#"{"slug": "a"}"#).starts_with("no owner"));
        assert!(why(r#"{"owner": "", "slug": "a"}"#).starts_with("no owner"));
        assert!(why(r#"{"owner": 5, "slug": "a"}"#).starts_with("no owner"));
        assert!(why(r#"{"owner": "1", "slug": "a", "held_until": "soon"}"#).contains("RFC 3339"));
        assert!(why(r#"{"owner": "1", "slug": "a", "held_until": 5}"#).contains("has passed"));
        let far = r#"{"owner": "1", "slug": "a", "held_until": 18446744073709551615}"#;
        assert!(why(far).contains("at most"));
        assert!(why(r#"{"owner": "1", "slug": "a", "state": "held"}"#).starts_with("state"));
        assert!(
            why(r#"{"owner": "1", "slug": "a", "slgu": "b"}"#).contains("unknown field \"slgu\"")
        );
    }
}
