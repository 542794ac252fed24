//! The command line: clap types and their turning into validated settings
//! ([`Cli::task`]), once. `slugd --help` and `slugd <command> --help` are
//! the configuration reference: every setting has a flag, an environment
//! variable and a default shown there. Library code past this file never
//! sees clap types; the commands themselves are in [`crate::commands`].

use std::io::Read;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};

use crate::commands::{
    self, ImportSettings, PrepareSettings, ScopeSettings, SlugifySettings, Task,
};
use crate::http::Limits;
use crate::load::LoadSettings;
use crate::probe::{self, ProbeSettings};
use crate::redis_conn::{Endpoint, RedisConfig, RedisUrl};
use crate::reserve::{ReservationSettings, ReservedSlugs, Scope, WaitReplicas};
use crate::serve::ServeSettings;
use crate::table::{OnRedisDown, TableSettings};
use crate::telemetry::LogFormat;
use slugd_engine::cldr::{CldrDir, CldrSettings, LocaleSelection};
use slugd_engine::options::{OptionError, Options, RawOptions};
use slugd_engine::readers::vowels::Language;
use slugd_engine::rules::Rules;
use slugd_engine::unicode_data::{Categories, DataSource};

/// slugd turns titles into URL slugs, spelling symbols out by their Unicode
/// names ("I ❤ Redis" -> i-heavy-heart-redis) and transliterating other
/// scripts ("Привет, мир" -> privet-mir).
///
/// The symbol table lives in Redis, loaded once by `slugd load` and shared
/// by every instance (one server with --redis-url, a Redis Cluster with
/// --redis-cluster); without either it is read into the process instead.
#[derive(Debug, Parser)]
#[command(name = "slugd", version)]
pub struct Cli {
    /// What to log, as a tracing filter (for example `info`, `slugd=debug`).
    /// `info,slugd::http=debug` adds a line for every request answered.
    #[arg(long, env = "SLUGD_LOG", default_value = "info", global = true)]
    pub log: String,

    /// The shape of log lines on standard error: `text` for people, `json`
    /// (one object a line, the request id in its span) for log shippers.
    #[arg(
        long,
        env = "SLUGD_LOG_FORMAT",
        value_enum,
        default_value_t = LogFormat::Text,
        global = true
    )]
    pub log_format: LogFormat,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP service (on Redis with --redis-url or --redis-cluster,
    /// else in-process).
    Serve(ServeArgs),
    /// Load UnicodeData.txt and CLDR's names (--locales) into Redis as a
    /// new table version and switch every service to it atomically.
    Load(LoadArgs),
    /// Slug one title, or each line of standard input onto standard output.
    Slugify(SlugifyArgs),
    /// Prepare the models of vowels of --locales ahead (Persian's, Urdu's
    /// and Arabic's, rules 6) into --cache-dir, so that `serve`, `slugify`
    /// and `load` read them in milliseconds instead of making them (a
    /// container image's build, a deploy step). Exit 0 when every model
    /// asked for is prepared, 1 when one could not be (what to install is
    /// said).
    Prepare(PrepareArgs),
    /// Ask a running service whether it is ready: exit 0 if it answers 200,
    /// else 1 with the reason (a container's health check, without curl).
    Probe(ProbeArgs),
    /// Import a site's existing slugs into a scope of reservations: NDJSON
    /// lines {"owner": "42", "slug": "hello-world"} (with "held_until", an
    /// RFC 3339 time, for a hold), each slug taken as it is written. A line
    /// whose slug another owner holds is refused (the holder keeps it), as
    /// is a malformed one; each refused line is named on standard error,
    /// with a summary at the end. Exit 0 when every line was imported (or
    /// was already so), 1 when any was refused. Importing the same file
    /// again gives the same scope, so a file can be imported again after a
    /// failure.
    Import(ImportArgs),
    /// Write every slug of a scope of reservations to standard output as
    /// NDJSON, one line a slug (slug, owner, state, held_until for a hold,
    /// rules, and base where it is not the slug without its number), each
    /// owner's oldest first. `slugd import` of it into an empty scope gives
    /// the same slugs, owners, states and current slugs (add
    /// --case-insensitive if this scope is so).
    Export(ExportArgs),
}

/// `slugd import`.
#[derive(Debug, Args)]
struct ImportArgs {
    /// The NDJSON file, or - for standard input.
    #[arg(default_value = "-")]
    file: PathBuf,

    #[command(flatten)]
    scope: ScopeArgs,

    /// No progress bar, even on a terminal (there is none when standard
    /// error is not one).
    #[arg(long)]
    quiet: bool,

    /// Wait, after each batch of 500 lines, until this many replicas have
    /// it (Redis's WAIT), as the service's --reservation-replicas: fewer
    /// within --reservation-wait-ms stops the import with an error (the
    /// batch stands on the primary, and importing the file again is
    /// safe). 0: no wait.
    #[arg(long, env = "SLUGD_RESERVATION_REPLICAS", default_value_t = 0)]
    reservation_replicas: u32,

    /// With --reservation-replicas: how long to wait for them, in
    /// milliseconds, on top of --redis-timeout-ms.
    #[arg(long, env = "SLUGD_RESERVATION_WAIT_MS", default_value_t = 100)]
    reservation_wait_ms: u64,

    /// Make the scope compare slugs without regard to the case of ASCII
    /// letters (`My-Post` and `my-post` one slug) before importing, as
    /// `PUT /reservations/{scope}` does: refused unless the scope is so
    /// already or has never been written to (a scope's first slug makes
    /// its setting, case by case unless made so before). Without it, the
    /// scope keeps its setting.
    #[arg(long)]
    case_insensitive: bool,
}

/// `slugd export`.
#[derive(Debug, Args)]
struct ExportArgs {
    #[command(flatten)]
    scope: ScopeArgs,
}

/// A scope of reservations in Redis: `import` and `export`.
#[derive(Debug, Args)]
struct ScopeArgs {
    /// The scope (1 to 200 bytes), as `POST /reservations` names it.
    #[arg(long)]
    scope: String,

    #[command(flatten)]
    redis: RedisArgs,

    /// Prefix of every Redis key, as the service's --key-prefix.
    #[arg(long, env = "SLUGD_KEY_PREFIX", default_value = "slugd:")]
    key_prefix: String,
}

impl ScopeArgs {
    fn settings(&self, command: &str) -> anyhow::Result<ScopeSettings> {
        let redis = self.redis.config(false)?.ok_or_else(|| {
            anyhow::anyhow!(
                "slugd {command} needs the Redis of the reservations: give --redis-url (REDIS_URL), --redis-cluster or --redis-sentinel"
            )
        })?;
        Ok(ScopeSettings {
            redis,
            prefix: key_prefix(&self.key_prefix)?,
            scope: Scope::new(self.scope.clone()).map_err(|e| anyhow::anyhow!("--scope: {e}"))?,
        })
    }
}

/// `slugd prepare`.
#[derive(Debug, Args)]
struct PrepareArgs {
    /// The locales whose models to prepare, as `serve --locales` and
    /// `load --locales` take them: `all`, or a list (fa,ur,ar); locales
    /// without a model of vowels are ignored.
    #[arg(long, env = "SLUGD_LOCALES", default_value = "all")]
    locales: LocaleSelection,

    #[command(flatten)]
    models: ModelArgs,
}

/// `slugd probe`.
#[derive(Debug, Args)]
struct ProbeArgs {
    /// The URL to GET (http:// only).
    #[arg(
        long,
        env = "SLUGD_PROBE_URL",
        default_value = "http://127.0.0.1:8080/readyz"
    )]
    url: String,

    /// How long the whole probe may take, in milliseconds.
    #[arg(long, env = "SLUGD_PROBE_TIMEOUT_MS", default_value_t = 2000)]
    timeout_ms: u64,
}

impl ProbeArgs {
    fn settings(&self) -> anyhow::Result<ProbeSettings> {
        Ok(ProbeSettings {
            url: probe::parse_url(&self.url).map_err(|e| anyhow::anyhow!("--url: {e}"))?,
            timeout: millis("--timeout-ms", self.timeout_ms)?,
        })
    }
}

/// How to reach Redis: every command that talks to it.
#[derive(Debug, Args)]
struct RedisArgs {
    /// Redis URL, redis://[user:password@]host:port[/db] (rediss:// for
    /// TLS). A replica's URL makes a service read from that replica. Without
    /// it, --redis-cluster or --redis-sentinel, `serve` and `slugify` use
    /// an in-process table.
    #[arg(long, env = "REDIS_URL", conflicts_with_all = ["redis_cluster", "redis_sentinel"])]
    redis_url: Option<String>,

    /// A Redis Cluster, by seed nodes: host:port[,host:port...], each node
    /// optionally as redis://[user:password@]host:port or rediss://... The
    /// table's buckets spread over the cluster's slots; a request asks each
    /// node it needs once, all in parallel.
    #[arg(long, env = "REDIS_CLUSTER", conflicts_with = "redis_sentinel")]
    redis_cluster: Option<String>,

    /// Redis Sentinel: the sentinels watching a primary and its replicas,
    /// host:port[,host:port...], each optionally as
    /// redis://[user:password@]host:port[/db] or rediss://... slugd asks
    /// them for the primary of --redis-master-name and follows a failover
    /// by itself: while there is no primary, requests that need Redis get
    /// a prompt 503, and the new primary is used as soon as the sentinels
    /// name it. The primary is reached with the scheme, user, password and
    /// database of the sentinel's entry that named it.
    #[arg(long, env = "REDIS_SENTINEL")]
    redis_sentinel: Option<String>,

    /// With --redis-sentinel: the name the sentinels monitor the primary
    /// by (`sentinel monitor NAME ...` in their configuration).
    #[arg(long, env = "REDIS_MASTER_NAME", default_value = "mymaster")]
    redis_master_name: String,

    /// How long one connection attempt to Redis may take, in milliseconds.
    #[arg(long, env = "SLUGD_REDIS_CONNECT_TIMEOUT_MS", default_value_t = 500)]
    redis_connect_timeout_ms: u64,

    /// How long one Redis round trip may take before the request fails
    /// (503), in milliseconds.
    #[arg(long, env = "SLUGD_REDIS_TIMEOUT_MS", default_value_t = 500)]
    redis_timeout_ms: u64,

    /// For rediss:// URLs: a PEM file with the CA certificate that signed
    /// the Redis server's certificate (default: the system's roots).
    #[arg(long, env = "SLUGD_REDIS_CA_CERT")]
    redis_ca_cert: Option<PathBuf>,
}

/// How the table is read from Redis: `serve` and `slugify`, not `load`,
/// which writes it (always to primaries) and caches nothing.
#[derive(Debug, Args)]
struct ReadArgs {
    /// With --redis-cluster: send table reads to replicas (at random) when
    /// the cluster has them.
    #[arg(long, env = "SLUGD_READ_FROM_REPLICAS")]
    read_from_replicas: bool,

    /// Most symbol names a Redis-mode process keeps once fetched, so that
    /// popular symbols cost no round trip (0 turns the cache off). A version
    /// never changes once loaded, so cached names are never stale; the cache
    /// empties when the table version changes, and when it is full the
    /// names used least make room.
    #[arg(long, env = "SLUGD_NAME_CACHE", default_value_t = 1024)]
    name_cache: usize,
}

/// Where the table comes from.
#[derive(Debug, Args)]
struct TableArgs {
    /// The UnicodeData.txt file: the source of `load` and of the in-process
    /// table. Without it, the copy built into the binary (Unicode 15.0.0,
    /// the repository's data/UnicodeData.txt).
    #[arg(long, env = "SLUGD_DATA")]
    data: Option<PathBuf>,

    /// Prefix of every Redis key, so deployments can share one Redis.
    #[arg(long, env = "SLUGD_KEY_PREFIX", default_value = "slugd:")]
    key_prefix: String,

    /// General categories whose characters are spelled out by name
    /// (comma-separated two-letter codes). A Redis table keeps the
    /// categories it was loaded with; `serve` uses these only before Redis
    /// first answers, to slug titles that cannot need the table.
    #[arg(long, env = "SLUGD_CATEGORIES", default_value = "So,Sc,Sm")]
    categories: Categories,

    /// CLDR's `common/` directory, for the names of symbols and emoji in
    /// other languages (`annotations/` and `annotationsDerived/`). Without
    /// it: CLDR 41's English files built into the binary (the repository's
    /// data/cldr) when only English is asked for; else the first that holds
    /// the --locales asked for of data/cldr and unicode/cldr/common under
    /// each of $XDG_DATA_DIRS (by default /usr/local/share:/usr/share, so
    /// /usr/share/unicode/cldr/common, where Debian's unicode-cldr-core
    /// package installs every locale).
    #[arg(long, env = "SLUGD_CLDR")]
    cldr: Option<PathBuf>,

    /// The locales whose CLDR names the table holds: a comma-separated list
    /// (de,fr,pt-BR) or `all` (147 in CLDR 41; an error where only English
    /// is found). A tag CLDR files under another locale loads that one, by
    /// CLDR's aliases and parents (nb: no, de-AT: de). English is always loaded:
    /// it names emoji sequences (flags, keycaps, families) without a
    /// locale. `load` puts them in Redis; `serve` and `slugify` read them
    /// into the process for the in-process table and the
    /// --on-redis-down fallback (a Redis table holds what its loader
    /// loaded).
    #[arg(long, env = "SLUGD_LOCALES", default_value = "en")]
    locales: LocaleSelection,

    /// IPADIC's CSV sources (EUC-JP), for reading Japanese as Japanese
    /// (rules 3) when --locales is `all` or has `ja`: Debian's
    /// `mecab-ipadic` package puts them here (`apt-get install
    /// mecab-ipadic`). `load` puts their readings in Redis; `serve` and
    /// `slugify` read them into the process for the in-process table (a
    /// Redis table holds what its loader loaded). Without them, a warning,
    /// and Japanese is read as by rules 2.
    #[arg(long, env = "SLUGD_IPADIC", default_value = slugd_engine::readers::japanese::ipadic::DEFAULT_DIR)]
    ipadic: PathBuf,

    #[command(flatten)]
    models: ModelArgs,
}

/// The models of the vowels Persian, Urdu and Arabic (rules 6) and Hebrew
/// (rules 7) do not write: the word lists they are made from, and where
/// they are prepared.
#[derive(Debug, Args)]
struct ModelArgs {
    /// A language's words, from which espeak-ng (Debian's `espeak-ng`)
    /// makes the model of its unwritten vowels when --locales is `all` or
    /// has the language: LANG=PATH, repeated or comma-separated. By
    /// default fa=/usr/share/hunspell/fa_IR.dic (Debian's `myspell-fa`),
    /// ur=/usr/local/share/slugd/LughaatNLP (the folder of PyPI's
    /// LughaatNLP 1.3.1, whose `tokenizer.json` and `Urdu_Lemma.json`
    /// scripts/dictionaries.sh puts there), ar=/usr/share/hunspell/ar.dic
    /// (Debian's `hunspell-ar`) and, for rules 7,
    /// he=/usr/local/share/slugd/hebrew/readings.tsv (hunspell-he's stems
    /// read once by nakdimon: scripts/dictionaries.sh makes it; no
    /// espeak-ng). Rules 7's lexicon of Arabic names is read with Arabic's
    /// model from /usr/local/share/slugd/arabic-names/units.tsv (or
    /// $SLUGD_ARABIC_NAMES), which scripts/dictionaries.sh puts there. A model is made once (ten seconds to a
    /// minute or two) into a file of --cache-dir that every later start
    /// reads in milliseconds; `slugd prepare` makes them ahead. `load`
    /// puts the models in Redis; `serve` and `slugify` hold them in the
    /// process for the in-process table. Without the words or espeak-ng, a
    /// warning, and the language without vowel marks is read as by rules 5.
    #[arg(
        long,
        env = "SLUGD_WORDS",
        value_name = "LANG=PATH",
        value_delimiter = ','
    )]
    words: Vec<WordsArg>,

    /// The same as --words fa=PATH.
    #[arg(long, env = "SLUGD_PERSIAN_WORDS", value_name = "PATH")]
    persian_words: Option<PathBuf>,

    /// The same as --words ur=PATH.
    #[arg(long, env = "SLUGD_URDU_WORDS", value_name = "PATH")]
    urdu_words: Option<PathBuf>,

    /// The same as --words ar=PATH.
    #[arg(long, env = "SLUGD_ARABIC_WORDS", value_name = "PATH")]
    arabic_words: Option<PathBuf>,

    /// Where the models of vowels are prepared: each is made once into a
    /// file named by what it was made from (the word lists' and
    /// espeak-ng's SHA-256, espeak-ng's version), checked when read, and
    /// read by every later start instead of running espeak-ng again. By
    /// default $XDG_CACHE_HOME/slugd, or ~/.cache/slugd. One that cannot be
    /// written means the models are made in memory at every start (the
    /// log says so).
    #[arg(long, env = "SLUGD_CACHE_DIR", value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

/// One `--words LANG=PATH`.
#[derive(Debug, Clone)]
struct WordsArg(Language, PathBuf);

impl std::str::FromStr for WordsArg {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let codes = || {
            Language::ALL
                .iter()
                .map(|l| l.code())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some((code, path)) = s.split_once('=') else {
            return Err(format!(
                "{s:?} is not LANG=PATH (for example fa=/usr/share/hunspell/fa_IR.dic; LANG one of {})",
                codes()
            ));
        };
        let Some(language) = Language::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code.trim()))
        else {
            return Err(format!(
                "no model of vowels is made for {code:?}: LANG is one of {}",
                codes()
            ));
        };
        if path.is_empty() {
            return Err(format!("{s:?} names no path"));
        }
        Ok(WordsArg(language, PathBuf::from(path)))
    }
}

impl ModelArgs {
    /// The word list of `language`: the last --words for it, else its
    /// own flag, else where its package puts it.
    fn words(&self, language: Language) -> PathBuf {
        if let Some(WordsArg(_, path)) = self.words.iter().rev().find(|w| w.0 == language) {
            return path.clone();
        }
        // The flags of the first three model languages, kept as aliases.
        let aliases = [
            (Language::Persian, &self.persian_words),
            (Language::Urdu, &self.urdu_words),
            (Language::Arabic, &self.arabic_words),
        ];
        aliases
            .into_iter()
            .find_map(|(l, path)| path.clone().filter(|_| l == language))
            .unwrap_or_else(|| language.row().default_words.into())
    }

    /// The languages of `locales` whose models of vowels are made, each
    /// with its word list.
    fn vowels(&self, locales: &LocaleSelection) -> Vec<(Language, PathBuf)> {
        Language::ALL
            .into_iter()
            .filter(|l| has_language(locales, l.code()))
            .map(|l| (l, self.words(l)))
            .collect()
    }

    /// Where the models are prepared.
    fn cache_dir(&self) -> Option<PathBuf> {
        self.cache_dir
            .clone()
            .or_else(crate::table::prepared::default_dir)
    }
}

/// Whether `locales` are `all` or have one of `language`.
fn has_language(locales: &LocaleSelection, language: &str) -> bool {
    match locales {
        LocaleSelection::All => true,
        LocaleSelection::List(tags) => tags.iter().any(|tag| {
            let tag_language = tag.split(['-', '_']).next().unwrap_or("");
            tag_language.eq_ignore_ascii_case(language)
        }),
    }
}

/// `slugd serve`.
#[derive(Debug, Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SLUGD_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,

    #[command(flatten)]
    defaults: DefaultsArg,

    #[command(flatten)]
    redis: RedisArgs,

    #[command(flatten)]
    read: ReadArgs,

    #[command(flatten)]
    table: TableArgs,

    /// How often to check Redis for a new table version, in milliseconds.
    #[arg(long, env = "SLUGD_REFRESH_INTERVAL_MS", default_value_t = 1000)]
    refresh_interval_ms: u64,

    /// What to do while Redis cannot answer: `fail` answers 503 for titles
    /// that need the table; `memory` answers from an in-process table built
    /// on demand (about 245 kB while Redis is down) and marks such
    /// responses with the header `X-Slugd-Degraded: in-process`; with
    /// `memory`, `serve` stops at start if --data or CLDR's files cannot
    /// be read.
    #[arg(long, env = "SLUGD_ON_REDIS_DOWN", value_enum, default_value_t = OnRedisDown::Fail)]
    on_redis_down: OnRedisDown,

    /// Largest request body, in bytes (413 above).
    #[arg(long, env = "SLUGD_MAX_BODY_BYTES", default_value_t = 1024 * 1024)]
    max_body_bytes: usize,

    /// Most titles in one POST /slugs.
    #[arg(long, env = "SLUGD_MAX_BATCH", default_value_t = 1000)]
    max_batch: usize,

    /// Most iterations of one GET /bench.
    #[arg(long, env = "SLUGD_MAX_BENCH_ITERATIONS", default_value_t = 100_000)]
    max_bench_iterations: usize,

    /// How long a client may take to send a request body, in milliseconds
    /// (408 after).
    #[arg(long, env = "SLUGD_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    body_timeout_ms: u64,

    /// How long a client may take to send a request head (request line
    /// and headers), in milliseconds: the first counted from when the
    /// connection is accepted, whether nothing arrives or it trickles in;
    /// each next from the previous answer, so it is also how long an idle
    /// keep-alive connection stays open. After it the connection is
    /// closed, with no answer.
    #[arg(long, env = "SLUGD_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    header_timeout_ms: u64,

    /// How long slugd waits for a client to take an answer, in
    /// milliseconds: a write to the connection that makes no progress for
    /// this long closes it. An answer left unread is held no longer.
    #[arg(long, env = "SLUGD_SEND_TIMEOUT_MS", default_value_t = 10_000)]
    send_timeout_ms: u64,

    /// The largest request head (request line and headers), in bytes, at
    /// least 1024: above it, or with more than 100 headers, the client gets
    /// 431 Request Header Fields Too Large, with no body, and the
    /// connection is closed. 32 KiB holds
    /// what browsers and proxies send (nginx's default holds 4 lines of
    /// 8 KiB; hyper's own would buffer about 400 KiB per connection).
    #[arg(long, env = "SLUGD_MAX_HEADER_BYTES", default_value_t = 32 * 1024)]
    max_header_bytes: usize,

    /// Most HTTP connections open at once. One that has sent nothing costs
    /// a socket and a task; once bytes arrive, about 16 kB, and its head
    /// (up to --max-header-bytes). At the cap, the connection that has
    /// waited longest for a request (silent, trickling its head, or idle
    /// on keep-alive) is closed to make room for the new one, so a flood
    /// of idle connections never keeps a client waiting. A connection
    /// whose request is being answered is never closed for room; only
    /// with every one busy does a new connection wait, in the kernel's
    /// listen backlog. Keep the open-files limit (ulimit -n) above twice
    /// this, for the connections still closing and for Redis.
    #[arg(long, env = "SLUGD_MAX_CONNECTIONS", default_value_t = 1024)]
    max_connections: usize,

    #[command(flatten)]
    reservations: ReservationArgs,

    /// A file of bearer tokens for the reservation endpoints, one a line:
    /// TOKEN PERMISSIONS [SCOPES], the permissions of read (GET
    /// /reservations/...), reserve (POST /reservations) and release
    /// (DELETE /reservations/...) separated by commas, the scopes too
    /// (default: every scope); blank lines and lines starting with # are
    /// skipped. A request then needs `Authorization: Bearer TOKEN` (401
    /// without a known token, 403 with one that may not). Without it
    /// anyone who reaches the port may reserve and release, and `serve`
    /// warns at start when it listens beyond loopback. /slug, /slugs, the
    /// home page, /metrics, /healthz and /readyz never ask for a token.
    #[arg(long, env = "SLUGD_AUTH_TOKENS")]
    auth_tokens: Option<PathBuf>,
}

/// How `POST /reservations` hands out slugs (on Redis only).
#[derive(Debug, Args)]
struct ReservationArgs {
    /// A file of slugs POST /reservations never hands out, one a line, for
    /// example the site's own routes (new, edit, admin): a title `New`
    /// then gets new-2. Blank lines and lines starting with # are skipped;
    /// case does not matter.
    #[arg(long, env = "SLUGD_RESERVED_SLUGS")]
    reserved_slugs: Option<PathBuf>,

    /// Answer a reservation only once this many replicas have it (Redis's
    /// WAIT), so that a crash-stop failover to a replica loses no
    /// acknowledged reservation (a retry's too: it waits for the replicas
    /// to have the first write). Fewer within --reservation-wait-ms gives
    /// a 503 not_replicated; the reservation stands, and the same request
    /// answers it again. 0: answer when the primary has it. A partition
    /// can still lose acknowledged writes: see docs/reservations.md.
    #[arg(long, env = "SLUGD_RESERVATION_REPLICAS", default_value_t = 0)]
    reservation_replicas: u32,

    /// With --reservation-replicas or --reservation-fsync: how long to
    /// wait, in milliseconds, on top of --redis-timeout-ms.
    #[arg(long, env = "SLUGD_RESERVATION_WAIT_MS", default_value_t = 100)]
    reservation_wait_ms: u64,

    /// Answer a reservation only once the primary's append-only file has
    /// it on disk, and so has each replica counted by
    /// --reservation-replicas (Redis's WAITAOF), so that a primary on
    /// appendfsync everysec loses no acknowledged reservation when it
    /// restarts, without appendfsync always for every write. Needs Redis
    /// 7.2 or later (or Valkey) with appendonly yes: `serve` refuses to
    /// start, saying why, on a Redis that cannot.
    #[arg(long, env = "SLUGD_RESERVATION_FSYNC")]
    reservation_fsync: bool,

    /// With --reservation-replicas or --reservation-fsync: the most
    /// connections to Redis that wait at once. WAIT holds the connection
    /// it is sent on until the replicas answer, so each waiting
    /// reservation has one to itself; more reservations than this at once
    /// wait for one to be free (within the same timeout).
    #[arg(long, env = "SLUGD_RESERVATION_WAIT_CONNECTIONS", default_value_t = WaitReplicas::CONNECTIONS)]
    reservation_wait_connections: usize,
}

impl ReservationArgs {
    fn settings(&self) -> anyhow::Result<ReservationSettings> {
        let reserved = match &self.reserved_slugs {
            Some(path) => ReservedSlugs::read(path).context("--reserved-slugs")?,
            None => ReservedSlugs::default(),
        };
        let max = crate::redis_conn::pool::MAX_SIZE;
        if !(1..=max).contains(&self.reservation_wait_connections) {
            anyhow::bail!("--reservation-wait-connections must be from 1 to {max}");
        }
        let wait = match (self.reservation_replicas, self.reservation_fsync) {
            (0, false) => None,
            (replicas, fsync) => Some(WaitReplicas {
                replicas,
                timeout: millis("--reservation-wait-ms", self.reservation_wait_ms)?,
                fsync,
                connections: self.reservation_wait_connections,
            }),
        };
        Ok(ReservationSettings {
            reserved: std::sync::Arc::new(reserved),
            wait,
        })
    }
}

/// The server-wide slug options.
#[derive(Debug, Args)]
struct DefaultsArg {
    /// A JSON file of default slug options, with the fields of a request
    /// (separator, lowercase, max_length, symbols, stopwords, replacements,
    /// preserve, fallback, decamelize, locale, rules), for example
    /// {"stopwords": ["a", "the"], "rules": 1}. A request's own
    /// fields (or this command's flags) override them.
    #[arg(long = "defaults", env = "SLUGD_DEFAULTS")]
    file: Option<PathBuf>,
}

/// The most a --defaults file may hold.
const MAX_DEFAULTS_BYTES: u64 = 1024 * 1024;

impl DefaultsArg {
    /// The validated options of the file; without one, the built-in
    /// defaults. The error names the file and the field.
    fn options(&self) -> anyhow::Result<Options> {
        let Some(path) = &self.file else {
            return Ok(Options::default());
        };
        let fail = |why: String| anyhow::anyhow!("--defaults {}: {why}", path.display());
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_DEFAULTS_BYTES + 1).read_to_string(&mut text))
            .map_err(|e| fail(format!("cannot read it: {e}")))?;
        if text.len() as u64 > MAX_DEFAULTS_BYTES {
            return Err(fail(format!("larger than {MAX_DEFAULTS_BYTES} bytes")));
        }
        let raw = RawOptions::from_json(&text).map_err(fail)?;
        raw.validate().map_err(|e| fail(e.to_string()))
    }
}

/// `slugd load`.
#[derive(Debug, Args)]
struct LoadArgs {
    #[command(flatten)]
    redis: RedisArgs,

    #[command(flatten)]
    table: TableArgs,

    /// How long to wait for another running load to finish, in seconds.
    #[arg(long, env = "SLUGD_LOCK_WAIT_SECS", default_value_t = 30)]
    lock_wait_secs: u64,
}

/// `slugd slugify`.
#[derive(Debug, Args)]
struct SlugifyArgs {
    /// The title. Without it, each line of standard input is slugged.
    title: Option<String>,

    #[command(flatten)]
    redis: RedisArgs,

    #[command(flatten)]
    read: ReadArgs,

    #[command(flatten)]
    table: TableArgs,

    #[command(flatten)]
    defaults: DefaultsArg,

    /// What joins words: up to 8 of the characters - _ . ~ (or "" for
    /// none). Default: `-`, or the --defaults file's.
    #[arg(long)]
    separator: Option<String>,

    /// Longest slug in characters, cut at a word boundary.
    #[arg(long)]
    max_length: Option<usize>,

    /// Keep the case of letters instead of lowercasing.
    #[arg(long)]
    keep_case: bool,

    /// Do not spell symbols out by name; transliterate them instead.
    #[arg(long)]
    no_symbols: bool,

    /// A BCP 47 tag (de, pt-BR, sr-Latn): romanize by CLDR's rules for the
    /// language and name symbols in it (with --locales loading its names).
    #[arg(long)]
    locale: Option<String>,

    /// Words dropped from the slug, separated by commas (a stopword is one
    /// word, so it never holds one); may be given again to add more.
    /// `--stopwords ""` drops none, over a --defaults file's.
    #[arg(long, value_name = "WORD,WORD...")]
    stopwords: Vec<String>,

    /// Replace FROM by TO in the title before anything else, in one pass;
    /// two arguments, so either may hold any character (`=`, `,`, spaces)
    /// and TO may be "": --replace % " percent". May be given again: at
    /// each place the first pair given whose FROM is there applies.
    #[arg(
        long,
        num_args = 2,
        value_names = ["FROM", "TO"],
        allow_hyphen_values = true,
        action = clap::ArgAction::Append
    )]
    replace: Vec<String>,

    /// Characters of `._~` kept between letters and digits (v1.2.3 with
    /// `.`: v1.2.3).
    #[arg(long, value_name = "CHARS")]
    preserve: Option<String>,

    /// The title slugged instead when the slug would be empty.
    #[arg(long, value_name = "TITLE")]
    fallback: Option<String>,

    /// Split words at case changes (fooBar: foo-bar); `--decamelize=false`
    /// turns off a --defaults file's.
    #[arg(
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    decamelize: Option<bool>,

    /// The rule version that makes the slugs (the versions are the rule
    /// table's: `rules_help`).
    #[arg(long, value_name = "N", help = rules_help())]
    rules: Option<u64>,

    /// Slugs in the title's own script (ascii: false, from rules 3):
    /// привет-мир, not privet-mir. Prints the IRI form; see --uri.
    #[arg(long)]
    unicode: bool,

    /// With --unicode, print each slug's URI form (percent-encoded UTF-8)
    /// instead.
    #[arg(long, requires = "unicode")]
    uri: bool,

    /// Longest slug in bytes of its URI form, cut at a word boundary.
    #[arg(long, value_name = "BYTES")]
    max_bytes: Option<usize>,

    /// Threads slugging standard input's lines side by side (the output
    /// keeps the input's order). Default: one per core.
    #[arg(long, value_name = "N", env = "SLUGD_THREADS")]
    threads: Option<NonZeroUsize>,
}

/// `--rules`'s help: every version of the rule table and what it does.
fn rules_help() -> String {
    format!(
        "The rule version that makes the slugs: {}. A --defaults file may choose another default.",
        Rules::described()
    )
}

fn millis(name: &str, ms: u64) -> anyhow::Result<Duration> {
    if ms == 0 {
        bail!("{name} must be at least 1 millisecond");
    }
    Ok(Duration::from_millis(ms))
}

impl RedisArgs {
    /// The Redis to talk to, if any; reading the table from replicas if
    /// `read_from_replicas` (of a cluster only).
    fn config(&self, read_from_replicas: bool) -> anyhow::Result<Option<RedisConfig>> {
        if read_from_replicas && self.redis_cluster.is_none() {
            bail!(
                "--read-from-replicas needs --redis-cluster; to read from the replica of one server, give its URL as --redis-url"
            );
        }
        let endpoint = match (&self.redis_url, &self.redis_cluster, &self.redis_sentinel) {
            (Some(url), _, _) => {
                Endpoint::Single(RedisUrl::parse(url).map_err(anyhow::Error::msg)?)
            }
            (None, Some(nodes), _) => Endpoint::cluster(nodes, read_from_replicas)
                .map_err(|e| anyhow::anyhow!("--redis-cluster: {e}"))?,
            (None, None, Some(sentinels)) => Endpoint::sentinel(sentinels, &self.redis_master_name)
                .map_err(|e| anyhow::anyhow!("--redis-sentinel: {e}"))?,
            (None, None, None) => return Ok(None),
        };
        let ca_cert = match &self.redis_ca_cert {
            Some(path) => Some(
                std::fs::read(path)
                    .with_context(|| format!("cannot read --redis-ca-cert {}", path.display()))?,
            ),
            None => None,
        };
        Ok(Some(RedisConfig {
            endpoint,
            ca_cert,
            connect_timeout: millis("--redis-connect-timeout-ms", self.redis_connect_timeout_ms)?,
            response_timeout: millis("--redis-timeout-ms", self.redis_timeout_ms)?,
        }))
    }
}

/// A checked --key-prefix.
fn key_prefix(p: &str) -> anyhow::Result<String> {
    if p.is_empty()
        || p.len() > 64
        || p.chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '{' || c == '}')
    {
        bail!(
            "--key-prefix {p:?} must be 1 to 64 characters without spaces or braces (which would pin every key to one cluster slot), for example \"slugd:\""
        );
    }
    Ok(p.to_owned())
}

impl TableArgs {
    fn prefix(&self) -> anyhow::Result<String> {
        key_prefix(&self.key_prefix)
    }

    fn settings(
        &self,
        redis: &RedisArgs,
        read: &ReadArgs,
        refresh_ms: u64,
    ) -> anyhow::Result<TableSettings> {
        Ok(TableSettings {
            on_redis_down: OnRedisDown::Fail,
            name_cache: read.name_cache,
            redis: redis.config(read.read_from_replicas)?,
            data: self.data(),
            prefix: self.prefix()?,
            categories: self.categories.clone(),
            cldr: self.cldr(),
            ipadic: self.ipadic.clone(),
            japanese: self.japanese(),
            vowels: self.vowels(),
            prepared: self.models.cache_dir(),
            refresh_interval: millis("--refresh-interval-ms", refresh_ms)?,
        })
    }

    fn data(&self) -> DataSource {
        self.data
            .clone()
            .map_or(DataSource::BuiltIn, DataSource::File)
    }

    /// Whether the locales ask for Japanese readings.
    fn japanese(&self) -> bool {
        self.has_language("ja")
    }

    /// The languages whose models of vowels the locales ask for, each
    /// with its word list.
    fn vowels(&self) -> Vec<(Language, PathBuf)> {
        self.models.vowels(&self.locales)
    }

    /// Whether the locales are `all` or have one of `language`.
    fn has_language(&self, language: &str) -> bool {
        has_language(&self.locales, language)
    }

    fn cldr(&self) -> CldrSettings {
        match &self.cldr {
            Some(dir) => CldrSettings {
                dir: CldrDir::Path(dir.clone()),
                locales: self.locales.clone(),
                searched: Vec::new(),
            },
            None => CldrSettings::search(self.locales.clone()),
        }
    }
}

impl ServeArgs {
    fn settings(&self) -> anyhow::Result<ServeSettings> {
        if self.max_batch == 0
            || self.max_body_bytes == 0
            || self.max_bench_iterations == 0
            || self.max_connections == 0
        {
            bail!(
                "--max-batch, --max-body-bytes, --max-bench-iterations and --max-connections must be at least 1"
            );
        }
        if self.max_header_bytes < 1024 {
            bail!(
                "--max-header-bytes is {}; it must be at least 1024, or no browser's request fits",
                self.max_header_bytes
            );
        }
        Ok(ServeSettings {
            listen: self.listen,
            defaults: self.defaults.options()?,
            table: TableSettings {
                on_redis_down: self.on_redis_down,
                ..self
                    .table
                    .settings(&self.redis, &self.read, self.refresh_interval_ms)?
            },
            limits: Limits {
                body_bytes: self.max_body_bytes,
                batch_titles: self.max_batch,
                bench_iterations: self.max_bench_iterations,
                body_timeout: millis("--body-timeout-ms", self.body_timeout_ms)?,
                header_timeout: millis("--header-timeout-ms", self.header_timeout_ms)?,
                header_bytes: self.max_header_bytes,
                send_timeout: millis("--send-timeout-ms", self.send_timeout_ms)?,
                max_connections: self.max_connections,
            },
            reservations: self.reservations.settings()?,
            tokens: match &self.auth_tokens {
                Some(path) => crate::auth::Tokens::read(path).context("--auth-tokens")?,
                None => crate::auth::Tokens::default(),
            },
        })
    }
}

impl LoadArgs {
    fn settings(&self) -> anyhow::Result<LoadSettings> {
        // Writes go to primaries: a cluster's replicas are never asked.
        let Some(redis) = self.redis.config(false)? else {
            bail!(
                "slugd load needs Redis: give --redis-url or --redis-cluster, or set REDIS_URL or REDIS_CLUSTER (try scripts/redis.sh for a local one)"
            );
        };
        Ok(LoadSettings {
            redis,
            data: self.table.data(),
            prefix: self.table.prefix()?,
            categories: self.table.categories.clone(),
            cldr: self.table.cldr(),
            japanese: self.table.japanese().then(|| self.table.ipadic.clone()),
            vowels: self.table.vowels(),
            prepared: self.table.models.cache_dir(),
            lock_wait: Duration::from_secs(self.lock_wait_secs),
        })
    }
}

impl SlugifyArgs {
    /// The options of the flags, checked as a request's are (the same
    /// messages), over the --defaults file's.
    fn raw_options(&self) -> RawOptions {
        let stopwords = (!self.stopwords.is_empty()).then(|| {
            self.stopwords
                .iter()
                .flat_map(|list| list.split(','))
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
        });
        let replacements = (!self.replace.is_empty()).then(|| {
            self.replace
                .chunks_exact(2)
                .map(|pair| (pair[0].clone(), pair[1].clone()))
                .collect()
        });
        RawOptions {
            separator: self.separator.clone(),
            lowercase: self.keep_case.then_some(false),
            max_length: self.max_length,
            symbols: self.no_symbols.then_some(false),
            stopwords,
            replacements,
            preserve: self.preserve.clone(),
            fallback: self.fallback.clone(),
            decamelize: self.decamelize,
            locale: self.locale.clone(),
            rules: self.rules,
            ascii: self.unicode.then_some(false),
            max_bytes: self.max_bytes,
        }
    }

    fn settings(self) -> anyhow::Result<SlugifySettings> {
        let options = self
            .raw_options()
            .validate_over(&self.defaults.options()?)
            .map_err(|e| anyhow::anyhow!("{}: {e}", flag_of(&e)))?;
        Ok(SlugifySettings {
            table: self.table.settings(&self.redis, &self.read, 1000)?,
            options,
            title: self.title,
            uri: self.uri,
            threads: self.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
            }),
        })
    }
}

/// The `slugd slugify` flag a slug option's error is about.
fn flag_of(e: &OptionError) -> &'static str {
    match e {
        OptionError::Separator(_) => "--separator",
        OptionError::ZeroMaxLength => "--max-length",
        OptionError::TooManyReplacements(_)
        | OptionError::EmptyReplacement(_)
        | OptionError::LongReplacement(..) => "--replace",
        OptionError::TooManyStopwords(_) | OptionError::Stopword(..) => "--stopwords",
        OptionError::Preserve(_) => "--preserve",
        OptionError::EmptyFallback(_) | OptionError::LongFallback(_) => "--fallback",
        OptionError::Locale(_) => "--locale",
        OptionError::Rules(_) => "--rules",
        OptionError::UnicodeRules(_) => "--unicode",
        OptionError::ZeroMaxBytes => "--max-bytes",
    }
}

impl Cli {
    /// The command with validated settings, or why they cannot work.
    pub(crate) fn task(self) -> anyhow::Result<Task> {
        Ok(match self.command {
            Command::Serve(args) => Task::Serve(args.settings()?),
            Command::Load(args) => Task::Load(args.settings()?),
            Command::Slugify(args) => Task::Slugify(args.settings()?),
            Command::Probe(args) => Task::Probe(args.settings()?),
            Command::Prepare(args) => Task::Prepare(PrepareSettings {
                vowels: args.models.vowels(&args.locales),
                cache: args.models.cache_dir().context(
                    "no cache directory: neither $XDG_CACHE_HOME nor $HOME is set; give --cache-dir (SLUGD_CACHE_DIR)",
                )?,
            }),
            Command::Import(args) => Task::Import(ImportSettings {
                scope: args.scope.settings("import")?,
                file: match args.file.as_os_str() == "-" {
                    true => None,
                    false => Some(args.file),
                },
                progress: !args.quiet,
                case_insensitive: args.case_insensitive,
                wait: match args.reservation_replicas {
                    0 => None,
                    replicas => Some(WaitReplicas {
                        replicas,
                        timeout: millis("--reservation-wait-ms", args.reservation_wait_ms)?,
                        fsync: false,
                        connections: 1,
                    }),
                },
            }),
            Command::Export(args) => Task::Export(args.scope.settings("export")?),
        })
    }
}

/// Validates the command line and runs the command on the runtime it
/// needs; the error carries its whole cause chain.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    commands::run(cli.task()?)
}
