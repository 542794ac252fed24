//! slugd turns titles into URL slugs: "This is my ☃ post!" becomes
//! `this-is-my-snowman-post`, "Привет, мир" becomes `privet-mir`. Symbols
//! (general categories So, Sc and Sm outside ASCII by default) are spelled
//! out by their Unicode names, trimmed of filler words; other non-ASCII
//! text is transliterated with deunicode.
//!
//! Emoji sequences (flags, keycaps, ZWJ and skin-tone sequences) get
//! CLDR's English names, and with a `locale` symbols and emoji get CLDR's
//! names in that language.
//!
//! The symbol table is loaded once into Redis by `slugd load` and shared by
//! every service instance, which keeps only an index of which characters
//! and sequences are in it and a bounded cache of names it has fetched. An
//! in-process mode reads the whole table into the
//! service instead: the default when no Redis is configured, and the
//! baseline `/bench` compares Redis against.
//!
//! # Layout
//!
//! The engine is a crate of its own, `slugd-engine` (`engine/`): the
//! slug pipeline, the rule versions, the options and their validation,
//! locales and CLDR's names, Japanese reading, the UnicodeData parser and
//! the name sets. Cargo keeps it pure: no tokio, redis, axum or hyper is
//! in its dependency tree (`scripts/check.sh` checks with `cargo tree`).
//! This crate holds the service around it and names the engine's modules
//! by the engine's own paths (`slugd_engine::slug`,
//! `slugd_engine::readers::japanese`...), never as its own. The path of a title runs one way: HTTP or the CLI,
//! then the pipeline, then the sources of names, with the engine beside
//! them.
//!
//! - [`slugger`]: where a title becomes a slug: pre-scan, names from the
//!   table (one round trip at most), the fallback while Redis is down, the
//!   engine. HTTP, `/bench` and `slugd slugify` all call it.
//! - [`table`]: the sources of names: the in-process table, the Redis
//!   table, the fallback of `--on-redis-down memory`, and the Redis key
//!   layout and meta schema (`table::layout`) the loader writes and the
//!   reader reads.
//! - [`load`]: the loader job as named steps (lock, version, stream,
//!   meta, switch, announce, clean up); its lock is a guard type.
//! - [`redis_conn`]: Redis URLs, cluster seed lists and sentinels
//!   (passwords hidden), timeouts, TLS, and the one connection type over a
//!   server, a cluster (a batch as one pipeline per node) or the primary
//!   sentinels name (followed through a failover); the pool of connections
//!   for calls that wait for replicas.
//! - [`reserve`]: unique slugs per scope shared by every instance: the
//!   reservation pipeline (base slug, stems that leave room for a suffix,
//!   reserved words) and its library of Redis Functions, each call one
//!   atomic step.
//! - [`auth`]: the bearer tokens of `--auth-tokens` (the file, each
//!   token's permissions and scopes, compared in constant time).
//! - [`http`]: the router (with the OpenAPI document its routes carry),
//!   the handlers of each feature, the home page, the one error
//!   type, the JSON extractor, the edge around the router (request ids
//!   and spans), the accept loop and what each connection may hold (its
//!   slot, its head's time and size, an unread answer).
//! - [`serve`]: `slugd serve`: open the service, then run it on a listener
//!   the caller bound until a shutdown future completes (tests take the
//!   same two steps).
//! - [`cli`]: the clap types and their validation into settings, once;
//!   `--help` is the configuration reference. `commands` holds what each
//!   command does with its settings, `stream` the line-by-line
//!   `slugd slugify`.
//! - [`metrics`]: the Prometheus recorder of one service and the handles
//!   the table and the reservations count with, and the per-thread cells
//!   requests are counted in; [`telemetry`]: logs
//!   (text or JSON); `probe`: `slugd probe`, the container's health check.

pub mod auth;
pub mod bench;
pub mod cli;
pub(crate) mod commands;
pub mod http;
pub mod load;
pub mod metrics;
pub(crate) mod probe;
pub mod redis_conn;
pub mod reserve;
pub mod serve;
pub mod slugger;
pub(crate) mod stream;
pub mod table;
pub mod telemetry;
