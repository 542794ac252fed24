//! The shared symbol table in Redis, as the service reads it.
//!
//! The service keeps only the index of the live version (which characters
//! are in the table, 16 kB; CLDR's numbered key set and which keys each
//! locale names, 0.7 MB more RSS with every locale than with English
//! only, measured by `cargo xtask bench locales`) and a bounded cache
//! of the names it has fetched (`--name-cache`, 1,024 names by default, a
//! few tens of kB at most; a quick_cache, whose reads share a lock and
//! which evicts the names least used when full); the table stays in
//! Redis. A request costs:
//! - no round trip when none of its characters or emoji sequences is in
//!   the table, or all of their names (in the request locale's chain) are
//!   in the cache;
//! - otherwise one `HMGET` per bucket needed, sent as one pipeline: one
//!   round trip to the server, or on a cluster one pipeline to each node
//!   that holds any of those buckets, all in parallel.
//!
//! The reads need no transaction to be one snapshot: every key read belongs
//! to one version, and a version's keys never change once it is live; they
//! are only removed, after `current` has moved on. So the names are all of
//! that version, or some are missing. A missing name means the version was
//! removed under the request: the service then reads `current`, moves to
//! the new version and asks again (the only case with more round trips,
//! once per switch). If the version is still current, the table is damaged
//! and the request fails with that.
//!
//! Every call is bounded by the response timeout, on top of the driver's
//! own, so an unreachable or stalled Redis gives a fast error, never a hang.
//! A call that meets a dead connection (Redis restarted) is read again once
//! on a new one.
//!
//! The read path is here; [`cache`] holds the names already fetched, and
//! [`watch`] which version is live and how a switch is noticed.

mod cache;
mod watch;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;

use redis::Value;

use self::cache::NameCache;
pub use self::cache::{NameKey, Names};
use super::error::TableError;
use super::layout::{self, Keys, Meta, Version};
use crate::metrics::TableMetrics;
use crate::redis_conn::{Conn, RedisConfig, resend_once};
use slugd_engine::cldr::{Chain, KeySet, NameSource, View};
use slugd_engine::locale::SlugLocale;
use slugd_engine::named;
use slugd_engine::options::Options;
use slugd_engine::readers::japanese::{self, Reading};
use slugd_engine::readers::vowels::{Language, VowelModel, VowelModels};
use slugd_engine::unicode_data::Categories;

/// What the service holds of one table version: its id and its meta (the
/// membership index and CLDR's key set are most of it).
#[derive(Debug)]
pub struct LoadedVersion {
    /// The version id.
    pub version: Version,
    /// What the loader recorded of it.
    pub meta: Meta,
}

/// The names `titles` need from `version` with `chain`, sorted: the table
/// characters among their characters, the first CLDR name along the chain
/// of each table character (with a locale) and of each emoji sequence.
fn wanted<T: AsRef<str>>(version: &LoadedVersion, titles: &[T], chain: &Chain) -> Vec<NameKey> {
    let meta = &version.meta;
    fn first_named(meta: &Meta, mut slots: impl Iterator<Item = u16>, key: u32) -> Option<NameKey> {
        slots
            .find(|&slot| meta.cldr.names(slot, key))
            .map(|slot| NameKey::cldr(slot, key))
    }
    let mut wanted = Vec::new();
    for title in titles {
        let title = title.as_ref();
        for c in title.chars().filter(|&c| meta.members.contains(c)) {
            wanted.push(NameKey::char(c));
            if !chain.for_single().is_empty()
                && let Some(key) = meta.cldr.keys.single(c)
                && let Some(name) = first_named(meta, chain.for_single().iter().copied(), key)
            {
                wanted.push(name);
            }
        }
        for key in meta.cldr.keys.matches(title) {
            wanted.extend(first_named(meta, chain.for_sequence(), key));
        }
    }
    wanted.sort_unstable();
    wanted.dedup();
    wanted
}

/// The written forms `titles` (the Japanese ones of a request) may look
/// up, each once: of the part of each that is read
/// ([`japanese::read_part`]), and only those a table can hold (a longer
/// form is in no bucket, and reads as missing in process too).
fn forms_needed<'t>(titles: impl Iterator<Item = &'t str>) -> Vec<Cow<'t, str>> {
    let mut forms: Vec<Cow<'t, str>> = titles
        .flat_map(|t| japanese::keys_needed(japanese::read_part(t).0))
        .filter(|form| form.len() <= japanese::ipadic::MAX_TABLE_BYTES)
        .collect();
    forms.sort_unstable();
    forms.dedup();
    forms
}

/// The Redis backend.
pub struct RedisTable {
    conn: Conn,
    keys: Keys,
    /// Bounds every call, including waits for a reconnect.
    timeout: Duration,
    /// The version in use; `None` until Redis has answered once.
    live: RwLock<Option<Arc<LoadedVersion>>>,
    /// The categories the table is expected to hold, for the time before
    /// Redis has answered once: a title with no character of them needs no
    /// table, so it is slugged even while Redis is down.
    expected: Categories,
    /// Names already fetched, by the version they came from.
    cache: NameCache,
    /// Round trips and cache lookups, for `GET /metrics`.
    metrics: TableMetrics,
}

/// Japanese readings by written form, as one request fetched them.
pub type FormReadings = HashMap<Box<str>, Reading>;

/// What one request read: the names, and the readings of its Japanese
/// written forms when the version has readings (`None` when it has none).
pub struct RequestSource {
    names: Names,
    readings: Option<FormReadings>,
    /// The version's models of Persian's, Urdu's and Arabic's vowels.
    vowels: VowelModels,
}

impl NameSource for RequestSource {
    #[inline]
    fn char_name(&self, c: char) -> Option<&str> {
        self.names.get(&NameKey::char(c)).map(AsRef::as_ref)
    }

    #[inline]
    fn cldr_name(&self, slot: u16, key: u32) -> Option<&str> {
        self.names.get(&NameKey::cldr(slot, key)).map(AsRef::as_ref)
    }

    #[inline]
    fn has_readings(&self) -> bool {
        self.readings.is_some()
    }

    fn reading(&self, form: &str) -> Option<Reading> {
        self.readings.as_ref()?.get(form).cloned()
    }

    #[inline]
    fn vowels(&self, language: Language) -> Option<&VowelModel> {
        self.vowels.get(language)
    }
}

/// The names one request needs, read from Redis (or the cache), with the
/// version's CLDR keys and the request locale's chain: a
/// [`slugd_engine::slug::SymbolNames`] through [`RequestNames::view`].
pub struct RequestNames {
    version: Option<Arc<LoadedVersion>>,
    chain: Chain,
    source: RequestSource,
}

impl RequestNames {
    /// What the engine reads.
    pub fn view(&self) -> View<'_, RequestSource> {
        static NO_KEYS: OnceLock<KeySet> = OnceLock::new();
        View {
            source: &self.source,
            keys: match &self.version {
                Some(v) => &v.meta.cldr.keys,
                None => NO_KEYS.get_or_init(KeySet::default),
            },
            chain: &self.chain,
        }
    }
}

/// What one fetch found.
enum Fetched {
    /// Every name asked for, and the readings of the forms asked for that
    /// the dictionary has.
    Names(Names, FormReadings),
    /// A name the version's index lists, or a bucket of readings, that is
    /// gone: what it is.
    Missing(String),
}

impl RedisTable {
    /// A table on `config`'s Redis under `prefix`. Connects lazily: this
    /// never waits for Redis.
    pub fn new(
        config: &RedisConfig,
        prefix: &str,
        expected: Categories,
        cache_capacity: usize,
        metrics: TableMetrics,
    ) -> Result<Self, TableError> {
        let conn = Conn::for_service(config).map_err(TableError::from_redis)?;
        Ok(RedisTable {
            conn,
            keys: Keys::new(prefix),
            timeout: config.response_timeout,
            live: RwLock::new(None),
            expected,
            cache: NameCache::new(cache_capacity),
            metrics,
        })
    }

    /// The same table with no name cache, so every title with a table
    /// character reads Redis: what `/bench` measures beside the cached
    /// path. It shares the connection and starts on the live version.
    pub fn uncached(&self) -> RedisTable {
        RedisTable {
            conn: self.conn.clone(),
            keys: self.keys.clone(),
            timeout: self.timeout,
            live: RwLock::new(self.live_version()),
            expected: self.expected.clone(),
            cache: NameCache::new(0),
            metrics: self.metrics.clone(),
        }
    }

    /// Runs one Redis call within the response timeout, and counts it.
    async fn call<T, F: Future<Output = redis::RedisResult<T>>>(
        &self,
        f: impl Fn(Conn) -> F,
    ) -> Result<T, TableError> {
        let outcome = self.call_uncounted(f).await;
        match &outcome {
            Err(e) if e.is_outage() => self.metrics.calls().failed(),
            _ => self.metrics.calls().answered(),
        }
        outcome
    }

    /// [`RedisTable::call`] for a call that is no round trip on one server
    /// (the cluster's slot map), kept out of the metrics.
    ///
    /// A call that meets a dead connection (Redis restarted) is sent once
    /// more, on the new connection ([`resend_once`]): every call here is a
    /// read.
    async fn call_uncounted<T, F: Future<Output = redis::RedisResult<T>>>(
        &self,
        f: impl Fn(Conn) -> F,
    ) -> Result<T, TableError> {
        let call = async {
            match f(self.conn.clone()).await {
                Err(e) if resend_once(&e) => {
                    tracing::info!(error = %e, "the connection to Redis was found dead; reading again on a new one");
                    f(self.conn.clone()).await
                }
                other => other,
            }
        };
        match tokio::time::timeout(self.timeout, call).await {
            Ok(result) => result.map_err(TableError::from_redis),
            Err(_) => Err(TableError::Timeout(self.timeout)),
        }
    }

    /// The names `titles` need with `options` (their `locale`), in at most
    /// one round trip (none when no character or sequence of them is in
    /// the table, or the cache has every name).
    ///
    /// When the options read Japanese ([`Options::reads_japanese`]) and the
    /// version has Japanese readings, the readings of the written forms its
    /// Japanese titles may look up ([`japanese::keys_needed`]) come in the
    /// same round trip, one `HMGET` per bucket of forms. They are not
    /// cached. When they name symbols as written
    /// ([`Options::names_written`]), the names as the locale writes them
    /// come first along the chain ([`Chain::new`]).
    pub async fn names<T: AsRef<str>>(
        &self,
        titles: &[T],
        options: &Options,
    ) -> Result<RequestNames, TableError> {
        let locale = options.locale.as_ref();
        let japanese = options.reads_japanese();
        let written = options.names_written();
        let kanji = locale.is_some_and(SlugLocale::is_japanese);
        let is_japanese = |t: &str| japanese && japanese::is_japanese(t, kanji);
        let mut version = match self.version().await {
            Ok(version) => version,
            // Redis has never answered: a title none of whose characters
            // can be in the table is slugged all the same. Japanese (by
            // rules 3) is not: its readings would be in the table; nor
            // Persian, Urdu and Arabic by rules 6, whose models of vowels would be.
            Err(e) => {
                let vowels = options.reads_vowels();
                let needs_table = titles.iter().any(|t| {
                    let t = t.as_ref();
                    named::may_need_table(t, &self.expected)
                        || is_japanese(t)
                        || (vowels && slugd_engine::readers::vowels::has_letters(t))
                });
                return match needs_table {
                    true => Err(e),
                    false => Ok(RequestNames {
                        version: None,
                        chain: Chain::default(),
                        source: RequestSource {
                            names: HashMap::new(),
                            readings: None,
                            vowels: VowelModels::default(),
                        },
                    }),
                };
            }
        };
        // A version switch costs one extra try; several in a row during one
        // request would mean loads back to back, so give up after a few.
        for _ in 0..3 {
            let cldr = &version.meta.cldr;
            let chain = Chain::new(
                locale,
                &cldr.locales,
                cldr.written_offset().filter(|_| written),
            );
            let wanted = wanted(&version, titles, &chain);
            let has_readings = version.meta.readings.any();
            let forms = match has_readings {
                true => forms_needed(titles.iter().map(AsRef::as_ref).filter(|t| is_japanese(t))),
                false => Vec::new(),
            };
            let mut names = HashMap::with_capacity(wanted.len());
            let asked = wanted.len();
            let missing = self.cache.lookup(version.version, wanted, &mut names);
            self.metrics.cache_lookup(asked, missing.len());
            // Moves the version and chain out: each use returns.
            let vowels = version.meta.vowels.clone();
            let done = |version, chain, names, readings| RequestNames {
                version: Some(version),
                chain,
                source: RequestSource {
                    names,
                    readings: has_readings.then_some(readings),
                    vowels,
                },
            };
            if missing.is_empty() && forms.is_empty() {
                return Ok(done(version, chain, names, HashMap::new()));
            }
            let mut fetched = self.fetch(&version, &missing, &forms, true).await?;
            if matches!(fetched, Fetched::Missing(_)) && self.conn.reads_from_replicas() {
                // A replica may lag behind its primary just after a load.
                fetched = self.fetch(&version, &missing, &forms, false).await?;
            }
            match fetched {
                Fetched::Names(fetched, readings) => {
                    self.cache.insert(version.version, &fetched);
                    names.extend(fetched);
                    return Ok(done(version, chain, names, readings));
                }
                Fetched::Missing(what) => {
                    let now = self.refresh().await?;
                    if now.version == version.version {
                        return Err(TableError::Damaged(format!(
                            "version {} has no {what}",
                            version.version
                        )));
                    }
                    version = now;
                }
            }
        }
        Err(TableError::Damaged(
            "the table version changed three times during one request".to_owned(),
        ))
    }

    /// One round trip to each node needed: the names of `wanted` from
    /// `version`, or the first whose name is missing (the version was
    /// removed meanwhile, or is damaged).
    async fn fetch(
        &self,
        version: &LoadedVersion,
        wanted: &[NameKey],
        forms: &[Cow<'_, str>],
        from_replicas: bool,
    ) -> Result<Fetched, TableError> {
        let (v, meta) = (version.version, &version.meta);
        // Hash key -> (name, chunk) per field asked, in field order.
        let mut by_bucket: BTreeMap<String, Vec<(NameKey, u32)>> = BTreeMap::new();
        for &name in wanted {
            let (key, offset, chunks) = match name.unpack() {
                Ok(c) => (
                    self.keys.bucket(v, layout::bucket_of(c)),
                    c as u32,
                    meta.long.chunks_of(c),
                ),
                Err((slot, key)) => (
                    self.keys.cldr_bucket(v, slot, key >> layout::BUCKET_BITS),
                    key,
                    meta.cldr.chunks_of(slot, key),
                ),
            };
            let fields = by_bucket.entry(key).or_default();
            for k in 0..chunks {
                fields.push((name, layout::field_of_index(offset, k)));
            }
        }
        // Bucket key -> forms asked, after the bucket's mark.
        let mut by_form_bucket: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for form in forms {
            let form = form.as_ref();
            let bucket = layout::reading_bucket_of(form, meta.readings.buckets);
            by_form_bucket
                .entry(self.keys.reading_bucket(v, bucket))
                .or_default()
                .push(form);
        }
        let mut cmds: Vec<(String, redis::Cmd)> = by_bucket
            .iter()
            .map(|(key, fields)| {
                let mut cmd = redis::cmd("HMGET");
                cmd.arg(key);
                for &(_, field) in fields {
                    cmd.arg(field);
                }
                (key.clone(), cmd)
            })
            .collect();
        cmds.extend(by_form_bucket.iter().map(|(key, forms)| {
            let mut cmd = redis::cmd("HMGET");
            cmd.arg(key).arg(layout::READING_MARK).arg(forms);
            (key.clone(), cmd)
        }));
        let replies: Vec<Value> = self
            .call(|mut c| {
                let cmds = cmds.clone();
                async move { c.per_node(cmds, from_replicas).await }
            })
            .await?;
        if replies.len() != cmds.len() {
            return Err(TableError::Damaged(format!(
                "{} replies to {} commands",
                replies.len(),
                cmds.len()
            )));
        }
        let mut replies = replies.into_iter();
        let mut names: HashMap<NameKey, String> = HashMap::with_capacity(wanted.len());
        for ((key, fields), reply) in by_bucket.iter().zip(replies.by_ref()) {
            let values: Vec<Option<String>> = redis::from_redis_value(reply)
                .map_err(|e| TableError::Damaged(format!("{key}: {e}")))?;
            if values.len() != fields.len() {
                return Err(TableError::Damaged(format!(
                    "{key} answered {} fields for {}",
                    values.len(),
                    fields.len()
                )));
            }
            for (&(name, _), value) in fields.iter().zip(values) {
                let Some(chunk) = value else {
                    let what = match name.unpack() {
                        Ok(c) => format!("name for U+{:04X}", c as u32),
                        Err((slot, key)) => {
                            format!("name for CLDR key {key} of locale slot {slot}")
                        }
                    };
                    return Ok(Fetched::Missing(what));
                };
                names.entry(name).or_default().push_str(&chunk);
            }
        }
        let mut readings = FormReadings::new();
        for ((key, forms), reply) in by_form_bucket.iter().zip(replies) {
            let values: Vec<Option<String>> = redis::from_redis_value(reply)
                .map_err(|e| TableError::Damaged(format!("{key}: {e}")))?;
            let [mark, values @ ..] = &values[..] else {
                return Err(TableError::Damaged(format!("{key} answered nothing")));
            };
            if values.len() != forms.len() {
                return Err(TableError::Damaged(format!(
                    "{key} answered {} fields for {}",
                    values.len() + 1,
                    forms.len() + 1
                )));
            }
            if mark.is_none() {
                return Ok(Fetched::Missing(format!("bucket of readings {key}")));
            }
            for (&form, value) in forms.iter().zip(values) {
                if let Some(value) = value {
                    readings.insert(form.into(), Reading::decode(value));
                }
            }
        }
        Ok(Fetched::Names(
            names.into_iter().map(|(c, n)| (c, Arc::from(n))).collect(),
            readings,
        ))
    }
}
