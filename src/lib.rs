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
//! The path of a title runs one way: HTTP or the CLI, then the pipeline,
//! then the sources of names, with the engine beside them.
//!
//! - [`slug`]: the engine, a pure function from title, options and symbol
//!   names to a slug.
//! - [`locale`]: the `locale` option: CLDR's transform, word for `&` and
//!   fallback chain of a language, through ICU4X.
//! - [`cldr`]: CLDR's names of symbols and emoji sequences: reading the
//!   annotation files, the numbered key set with its longest match, and a
//!   request's view of a table's names along its locale's chain.
//! - `membership`: the bitmap with ranks that says which characters a
//!   table holds and which keys a locale names.
//! - [`rules`]: what each rule version does, one table of named switches
//!   the engine asks by name.
//! - [`options`]: the slug options, raw (from a request, `--defaults` or
//!   the command line) and validated, with the check of each field;
//!   [`validate`]: the merge over the defaults, which needs the engine for
//!   rules 4's spelling of stopwords and fallbacks.
//! - [`slugger`]: where a title becomes a slug: pre-scan, names from the
//!   table (one round trip at most), the fallback while Redis is down, the
//!   engine. HTTP, `/bench` and `slugd slugify` all call it.
//! - [`table`]: the sources of names: the in-process table, the Redis
//!   table, the fallback of `--on-redis-down memory`, and the Redis key
//!   layout and meta schema (`table::layout`) the loader writes and the
//!   reader reads.
//! - [`load`]: the loader job as named steps (lock, version, stream,
//!   meta, switch, announce, clean up); its lock is a guard type.
//! - [`unicode_data`]: the streaming parser of UnicodeData.txt and the name
//!   trimming rule, shared by the loader and the in-process table.
//! - [`builtin`]: the data built into the binary, so that it runs from any
//!   directory: UnicodeData.txt and CLDR's English files, which `--data`
//!   and `--cldr` default to, and the default table already made.
//! - [`redis_conn`]: Redis URLs and cluster seed lists (passwords hidden),
//!   timeouts, TLS, and the one connection type over a server or a
//!   cluster, which sends a batch as one pipeline per node.
//! - [`reserve`]: unique slugs per scope shared by every instance: the
//!   reservation pipeline (base slug, stems that leave room for a suffix,
//!   reserved words) and its one atomic Lua script in Redis.
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
//!   `slugd slugify`, `lines` bounded line reading.
//! - [`japanese`]: Japanese read as Japanese (rules 3): IPADIC's readings
//!   (the streaming reader and the compact form), the reading of a title
//!   through a lookup of written forms, Hepburn without macrons. The
//!   tables hold the readings (`table::memory`, `table::redis`, the
//!   loader), the engine reads with them (`slug`).
//! - [`corpus`]: the sample titles shared by bench, benchmarks and tests.
//! - [`metrics`]: the Prometheus recorder of one service and the handles
//!   the table and the reservations count with, and the per-thread cells
//!   requests are counted in; [`telemetry`]: logs
//!   (text or JSON); `probe`: `slugd probe`, the container's health check.
//!
//! Imports between files run one way: no file imports, directly or
//! through others, a file that imports it. A `mod.rs` names its parts and
//! re-exports, and the parts import each other by path, never the
//! `mod.rs` that names them (a part taking back a name its `mod.rs` only
//! re-exports is a circle too). `tests/imports.rs` checks this on every
//! file under `src/`, so CI fails on a circle.

pub mod auth;
pub mod bench;
pub mod builtin;
pub mod cldr;
pub mod cli;
pub(crate) mod commands;
pub mod corpus;
pub mod http;
pub mod japanese;
pub(crate) mod lines;
pub mod load;
pub mod locale;
pub(crate) mod membership;
pub mod metrics;
pub(crate) mod named;
pub mod options;
pub(crate) mod probe;
pub mod redis_conn;
pub(crate) mod remembered;
pub mod reserve;
pub mod rules;
pub mod serve;
pub mod slug;
pub mod slugger;
pub(crate) mod stream;
pub mod table;
pub mod telemetry;
pub mod unicode_data;
pub mod validate;
