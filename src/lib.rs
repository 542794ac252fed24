//! slugd turns titles into URL slugs: "This is my ☃ post!" becomes
//! `this-is-my-snowman-post`, "Привет, мир" becomes `privet-mir`. Symbols
//! (general category So by default) are spelled out by their Unicode names,
//! trimmed of filler words; other non-ASCII text is transliterated with
//! deunicode.
//!
//! The symbol table is loaded once into Redis by `slugd load` and shared by
//! every service instance, which keeps only a 16 kB index of which
//! characters are in it and a bounded cache of names it has fetched. An
//! in-process mode reads the whole table into the
//! service instead: the default when no Redis is configured, and the
//! baseline `/bench` compares Redis against.
//!
//! # Layout
//!
//! - [`slug`]: the engine, a pure function from title, options and symbol
//!   names to a slug.
//! - [`unicode_data`]: the streaming parser of UnicodeData.txt and the name
//!   trimming rule, shared by the loader and the in-process table.
//! - [`lines`]: line reading with a bound on line length.
//! - [`table`]: the symbol table, one enum over the in-process and Redis
//!   backends, the Redis key layout, and the in-process fallback of
//!   `--on-redis-down memory`.
//! - [`load`]: the loader job: stream, batched writes, atomic switch.
//! - [`redis_conn`]: Redis URLs and cluster seed lists (passwords hidden),
//!   timeouts, and the one connection type over a server or a cluster,
//!   which sends a batch as one pipeline per node.
//! - [`http`]: the router, handlers, the one error type, health, bench.
//! - [`serve`]: `slugd serve`, from settings to a running service.
//! - [`stream`]: `slugd slugify` over standard input.
//! - [`corpus`]: the sample titles shared by bench, benchmarks and tests.
//! - [`cli`]: the command line and `--help`, turned into settings.

pub mod cli;
pub(crate) mod commands;
pub mod corpus;
pub mod http;
pub(crate) mod lines;
pub mod load;
pub mod redis_conn;
pub mod serve;
pub mod slug;
pub mod slugger;
pub(crate) mod stream;
pub mod table;
pub mod unicode_data;
