//! Reservations: unique slugs per scope, shared by every instance through
//! Redis, with each owner's history. This file only names the parts; none
//! of them imports it.
//!
//! - [`reserver`]: where a reservation is made: the title's base slug
//!   (through [`crate::slugger`]), the stems that leave room for a suffix
//!   under `max_length`, the reserved words, then one atomic step in Redis.
//! - [`store`]: the Redis side: the library of Redis Functions
//!   (`reservations.lua`, which defines the key layout), one call a round
//!   trip, bounded by the response timeout, with `WAIT` for replicas if
//!   asked.
//! - [`import`], [`export`]: a scope's slugs in and out as NDJSON, a
//!   batch or a range of buckets a call (`slugd import`, `slugd export`
//!   and their HTTP routes).
//! - [`names`]: the scope and the owner, checked once.
//! - [`reserved`]: the `--reserved-slugs` file: words never handed out.
//! - [`settings`]: what `slugd serve` configures them with; [`error`]: why
//!   a reservation fails.
//! - [`shape`]: what a reserved slug may be (its length and characters),
//!   which the others share; it imports nothing.
//!
//! # Redis keys (prefix `slugd:` by default)
//!
//! Every key of scope `s` is `{p}r:{s}:<bucket>`, with `%` and `}` of the
//! scope written `%25` and `%7D`, so the text in braces is a hash tag that
//! puts the whole scope in one cluster slot (and one function can touch all
//! of it atomically), and no two scopes share a key. The loader's keys are
//! `{p}{ctl}:…`, `{p}meta:…` and `{p}t:…`; it never matches `{p}r:`, so
//! `slugd load` never touches a reservation. Inside a scope, fields are
//! spread over 65,536 bucket hashes by their SHA-1, so that a scope of a
//! million reservations is about 31 small fields per bucket, each bucket a
//! compact listpack; what the fields hold is documented at the top of
//! `reservations.lua`.

mod error;
pub(crate) mod export;
pub(crate) mod import;
mod names;
mod reserved;
mod reserver;
mod settings;
mod shape;
mod store;

pub use self::error::ReserveError;
pub use self::import::{ImportCounts, ImportError, Refusal};
pub use self::names::{NameError, Owner, Scope};
pub use self::reserved::{ReservedSlugs, ReservedSlugsError};
pub use self::reserver::{Holder, MAX_HOLD_SECONDS, Reservation, Reservations};
pub use self::settings::{ReservationSettings, WaitReplicas};
pub use self::shape::{MAX_SLUG_BYTES, is_slug_shaped};
pub(crate) use self::store::RedisStore;
pub use self::store::{Entry, HoldEvent, scope_key};
