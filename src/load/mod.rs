//! The loader job (`slugd load`): streams UnicodeData.txt into a new table
//! version in Redis, then switches readers to it atomically.
//!
//! The steps, and why each is safe for a service reading meanwhile:
//! 1. Take the load lock (`{p}lock`, with an expiry it keeps renewing), so
//!    two loaders never interleave; see [`lock`].
//! 2. Take a fresh version id and record it in `{p}versions`.
//! 3. Stream the file line by line, writing buckets in pipelined batches of
//!    [`BATCH_FIELDS`] fields ([`batch`]). Readers do not see the version yet. Then
//!    CLDR's names of each locale of `--locales` (their keys were numbered
//!    in a first pass over the files, before the lock), one locale at a
//!    time, into buckets of their own; then IPADIC's Japanese readings
//!    (read and reduced before the lock too), bucket by bucket.
//! 4. On any bad line, read on to report them all, then remove what was
//!    written and leave the live table as it was.
//! 5. Write the version's `meta` (index, counts, measured memory).
//! 6. Switch `{p}current` to the new version with a script that first
//!    checks the lock is still ours: the one atomic step readers observe.
//! 7. Remove every other version (the previous one and any a killed loader
//!    left behind). Readers of the old version notice the switch in their
//!    next round trip and move over; see `table::redis`.
//!
//! Memory stays bounded: one line, one batch and the membership bitmap;
//! for CLDR, the key set and one locale's names; for Japanese, the reduced
//! dictionary, which one reading per written form needs whole (the
//! loader's peak RSS is 83 MB with it, 14 MB without: docs/figures.md).
//!
//! [`run`] reads as those steps, each a method of [`Load`]; the lock is a
//! guard type of its own ([`lock`]) and the errors are in [`error`].

mod batch;
mod error;
mod lock;

use std::fmt;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redis::{AsyncCommands, Script};

pub use self::batch::BATCH_FIELDS;
use self::batch::Batch;
pub use self::error::LoadError;
use self::error::redis_err;
pub use self::lock::LOCK_TTL;
use self::lock::LoadLock;
use crate::redis_conn::{Conn, RedisConfig};
use crate::table::layout::{self, CldrMeta, Keys, LongNames, Membership, Meta, Version};
use crate::table::prepared;
use slugd_engine::cldr::{self, CldrError, CldrSettings, KeySet, Locales};
use slugd_engine::readers::japanese::{self, IpadicError, Readings};
use slugd_engine::readers::vowels::{Language, VowelModels};
use slugd_engine::unicode_data::{
    BadLine, Categories, DataError, DataSource, LineError, ReadError, Reader,
};

/// What `slugd load` needs.
#[derive(Debug, Clone)]
pub struct LoadSettings {
    /// Where Redis is.
    pub redis: RedisConfig,
    /// UnicodeData.txt: `--data`, or the built-in copy.
    pub data: DataSource,
    /// The key prefix of the deployment.
    pub prefix: String,
    /// Which general categories to keep.
    pub categories: Categories,
    /// Which CLDR names to load.
    pub cldr: CldrSettings,
    /// IPADIC's directory, when Japanese readings are loaded (`--locales`
    /// has `ja` or is `all`).
    pub japanese: Option<PathBuf>,
    /// The languages whose models of vowels are made, each with its word
    /// list (`--locales` has `fa`, `ur`, `ar`, or is `all`).
    pub vowels: Vec<(Language, PathBuf)>,
    /// Where the models of vowels are prepared once and read from after
    /// (`--cache-dir`); `None`: made in memory each load.
    pub prepared: Option<PathBuf>,
    /// How long to wait for another loader's lock.
    pub lock_wait: Duration,
}

/// A model of vowels a load put in the meta.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelReport {
    /// Its language.
    pub language: Language,
    /// Its contexts.
    pub contexts: u64,
    /// Its bytes in the meta hash (part of the load's `bytes`), its
    /// lexicon's included.
    pub bytes: u64,
    /// The words and units of its lexicon of names (Arabic's; 0 without
    /// one).
    pub names: u64,
}

/// What a load did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadReport {
    /// What was loaded.
    pub data: DataSource,
    /// The version now live.
    pub version: Version,
    /// Characters in the table.
    pub entries: u64,
    /// The CLDR locales loaded.
    pub locales: usize,
    /// CLDR names loaded, over every locale.
    pub cldr_names: u64,
    /// Redis keys of the version (buckets and meta).
    pub keys: u64,
    /// Hash fields written (names and name chunks).
    pub fields: u64,
    /// MEMORY USAGE summed over the version's keys.
    pub bytes: u64,
    /// Japanese written forms loaded with their readings (0: none).
    pub japanese_forms: u64,
    /// MEMORY USAGE summed over the buckets of Japanese readings (part of
    /// `bytes`).
    pub japanese_bytes: u64,
    /// The models of vowels loaded, in the order of [`Language::ALL`].
    pub models: Vec<ModelReport>,
    /// Versions removed after the switch.
    pub removed: Vec<Version>,
    /// Wall time of the whole load.
    pub elapsed: Duration,
}

/// What `slugd load` prints.
impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "loaded {} as version {}: {} entries and {} CLDR names in {} locale{}, {} keys, {} fields, {} bytes of Redis memory ({:.1} bytes per name), {:.3} s",
            self.data,
            self.version,
            self.entries,
            self.cldr_names,
            self.locales,
            if self.locales == 1 { "" } else { "s" },
            self.keys,
            self.fields,
            self.bytes,
            self.bytes as f64 / (self.entries + self.cldr_names).max(1) as f64,
            self.elapsed.as_secs_f64(),
        )?;
        if self.japanese_forms > 0 {
            write!(
                f,
                "\nJapanese readings of {} written forms, {} bytes of Redis memory",
                self.japanese_forms, self.japanese_bytes
            )?;
        }
        for model in &self.models {
            write!(
                f,
                "\n{}'s model of vowels: {} contexts, {} bytes in the meta",
                model.language.name(),
                model.contexts,
                model.bytes
            )?;
            if model.names > 0 {
                write!(f, " (a lexicon of {} names among them)", model.names)?;
            }
        }
        if !self.removed.is_empty() {
            write!(f, "\nremoved old versions {:?}", self.removed)?;
        }
        Ok(())
    }
}

/// Switches `current` if the lock is still ours; returns the old version.
const SWITCH: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('LOSTLOCK the load lock is not ours')
end
local old = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[2], ARGV[2])
return old";

/// Runs a load. On success the new version is live and the old ones are
/// gone; on failure the live table is untouched.
pub async fn run(settings: &LoadSettings) -> Result<LoadReport, LoadError> {
    let started = Instant::now();
    let file = settings.data.open()?;
    // Every key numbered before anything is written: a missing or broken
    // CLDR file fails the load here.
    let cldr = settings.cldr.clone();
    let (tags, cldr_keys) = tokio::task::spawn_blocking(move || {
        let tags = cldr.resolve()?;
        let keys = cldr::collect_keys(&cldr.dir, &tags)?;
        Ok::<_, CldrError>((tags, keys))
    })
    .await
    .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))?;
    // IPADIC read and reduced before the lock too (seconds, tens of MB):
    // a broken dictionary fails the load here, and the lock is not held
    // idle while it is read.
    let readings = read_readings(settings).await?;
    // The models of vowels too: read from their prepared files, or made
    // (some seconds of espeak-ng each) and prepared for the next load.
    let vowels = prepared::build_all(&settings.vowels, settings.prepared.as_deref())
        .await
        .map_err(LoadError::Vowels)?;
    let conn = Conn::for_loader(&settings.redis)
        .await
        .map_err(redis_err("connecting"))?;
    let keys = Keys::new(&settings.prefix);
    let lock = LoadLock::acquire(conn.clone(), &keys, settings.lock_wait).await?;
    let mut load = Load {
        conn,
        keys,
        lock,
        settings,
    };
    let result = load
        .steps(file, (tags, cldr_keys), readings, vowels, started)
        .await;
    load.lock.release().await;
    result
}

/// IPADIC's readings, when the locales ask for them and the dictionary is
/// there ([`japanese::read_for_table`], on a blocking thread). Without the
/// dictionary, or with one that holds no reading, a warning that says how
/// to get it, and none.
async fn read_readings(settings: &LoadSettings) -> Result<Option<Readings>, LoadError> {
    let Some(dir) = settings.japanese.clone() else {
        return Ok(None);
    };
    let read = tokio::task::spawn_blocking(move || japanese::read_for_table(&dir))
        .await
        .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()));
    match read {
        Ok(readings) if !readings.kept.is_empty() => Ok(Some(readings)),
        Ok(_) => {
            tracing::warn!("IPADIC's files hold no reading: none loaded");
            Ok(None)
        }
        Err(e @ IpadicError::Missing { .. }) => {
            tracing::warn!(
                error = %e,
                "no Japanese readings loaded: Japanese is read as by rules 2; to read it as Japanese: {}",
                japanese::ipadic::HOW_TO_GET
            );
            Ok(None)
        }
        Err(e) => Err(LoadError::Japanese(e)),
    }
}

/// One load in progress, holding the lock.
struct Load<'a> {
    conn: Conn,
    keys: Keys,
    lock: LoadLock,
    settings: &'a LoadSettings,
}

/// What writing CLDR's names wrote.
#[derive(Default)]
struct CldrWritten {
    meta: CldrMeta,
    /// Every bucket key written, for measuring.
    buckets: Vec<String>,
    fields: u64,
}

/// What writing the Japanese readings wrote.
#[derive(Default)]
struct ReadingsWritten {
    meta: layout::Readings,
    /// Every bucket key written, for measuring.
    buckets: Vec<String>,
    fields: u64,
}

/// What streaming the file wrote.
struct Written {
    members: Membership,
    long: LongNames,
    fields: u64,
}

impl Load<'_> {
    /// The steps of the module doc, in order.
    async fn steps(
        &mut self,
        file: Box<dyn BufRead + Send>,
        (tags, cldr_keys): (Vec<String>, KeySet),
        readings: Option<Readings>,
        vowels: VowelModels,
        started: Instant,
    ) -> Result<LoadReport, LoadError> {
        let version = self.new_version().await?;
        let written = match self.write_entries(file, version).await {
            Ok(written) => match self.write_cldr(version, tags, cldr_keys).await {
                Ok(cldr) => match self.write_readings(version, readings).await {
                    Ok(readings) => Ok((written, cldr, readings)),
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        };
        let (written, cldr, readings) = match written {
            Ok(written) => written,
            Err(e) => {
                // Leave nothing half-written behind; a later load also
                // cleans up if this fails too.
                self.discard(version).await;
                return Err(e);
            }
        };
        let fields = written.fields + cldr.fields + readings.fields;
        let (meta, keys, reading_bytes) = self
            .write_meta(
                version,
                written.members,
                written.long,
                cldr,
                readings,
                vowels,
            )
            .await?;
        self.switch(version).await?;
        self.announce(version).await;
        let removed = self.remove_others(version).await?;
        let models = meta
            .vowels
            .iter()
            .map(|m| ModelReport {
                language: m.language(),
                contexts: m.entries() as u64,
                bytes: (m.encode().len()
                    + if m.names().is_empty() {
                        0
                    } else {
                        m.names().encode().len()
                    }) as u64,
                names: m.names().len() as u64,
            })
            .collect();
        Ok(LoadReport {
            data: self.settings.data.clone(),
            version,
            entries: meta.entries,
            locales: meta.cldr.locales.len(),
            cldr_names: meta.cldr.names,
            keys,
            fields,
            bytes: meta.bytes,
            japanese_forms: meta.readings.forms,
            japanese_bytes: reading_bytes,
            models,
            removed,
            elapsed: started.elapsed(),
        })
    }

    /// Takes a fresh version id and records it, so a killed load's leftovers
    /// can be found.
    async fn new_version(&mut self) -> Result<Version, LoadError> {
        let version: Version = self
            .conn
            .incr(self.keys.seq(), 1)
            .await
            .map_err(redis_err("taking a version id"))?;
        let _: i64 = self
            .conn
            .sadd(self.keys.versions(), version)
            .await
            .map_err(redis_err("recording the version"))?;
        Ok(version)
    }

    /// Streams the file into the version's buckets.
    async fn write_entries(
        &mut self,
        file: Box<dyn BufRead + Send>,
        version: Version,
    ) -> Result<Written, LoadError> {
        let settings = self.settings;
        let mut bad = DataError::collector(settings.data.path());
        let mut written = Written {
            members: Membership::default(),
            long: LongNames::default(),
            fields: 0,
        };
        let mut batch = Batch::default();
        let reader = Reader::new(file, settings.categories.clone());
        for item in reader {
            let entry = match item {
                Ok(entry) => entry,
                Err(e) => {
                    bad.add(e)?;
                    continue;
                }
            };
            let chunks: Vec<&str> = layout::chunks(&entry.name).collect();
            if chunks.len() > layout::MAX_CHUNKS {
                bad.add(ReadError::BadLine(BadLine {
                    line: entry.line,
                    error: LineError::NameTooLong {
                        len: entry.name.len(),
                        max: layout::MAX_CHUNKS * layout::CHUNK_BYTES,
                    },
                }))?;
                continue;
            }
            // Once a line is bad the load will not switch: only read on, to
            // report every bad line.
            if !bad.is_empty() {
                continue;
            }
            written.members.insert(entry.ch);
            if chunks.len() > 1 {
                written.long.0.insert(entry.ch, chunks.len() as u8);
            }
            let key = self.keys.bucket(version, layout::bucket_of(entry.ch));
            let fields = chunks.iter().enumerate();
            written.fields += batch.add(
                key,
                fields.map(|(k, chunk)| (layout::field_of(entry.ch, k), *chunk)),
            );
            if batch.is_full() {
                self.write(&mut batch).await?;
            }
        }
        bad.finish()?;
        self.write(&mut batch).await?;
        if written.members.is_empty() {
            return Err(LoadError::Empty {
                path: settings.data.to_string(),
                categories: settings.categories.to_string(),
            });
        }
        Ok(written)
    }

    /// Writes CLDR's names of each locale in `tags`, one locale at a time:
    /// read and made slug words on a blocking thread, then written in
    /// batches like the entries.
    async fn write_cldr(
        &mut self,
        version: Version,
        tags: Vec<String>,
        keys: KeySet,
    ) -> Result<CldrWritten, LoadError> {
        let keys = Arc::new(keys);
        let mut written = CldrWritten::default();
        let locales = tags.len() as u16;
        for (slot, tag) in tags.iter().enumerate() {
            let slot = slot as u16;
            let dir = self.settings.cldr.dir.clone();
            let (tag_owned, keys_owned) = (tag.clone(), keys.clone());
            let names = tokio::task::spawn_blocking(move || {
                cldr::locale_names(&dir, &tag_owned, &keys_owned)
            })
            .await
            .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()))?;
            let named = self
                .write_locale(version, slot, &names.romanized, &mut written)
                .await?;
            written.meta.names += named.len() as u64;
            written.meta.named.push(named);
            // The names as written, in the slot past every locale's.
            let own = self
                .write_locale(version, locales + slot, &names.written, &mut written)
                .await?;
            written.meta.written.push(own);
        }
        written.meta.locales = Locales::new(tags);
        written.meta.keys = Arc::try_unwrap(keys).unwrap_or_else(|shared| (*shared).clone());
        Ok(written)
    }

    /// Writes one slot's CLDR names, in buckets of key numbers; returns
    /// which keys it holds. A name over [`layout::MAX_CHUNKS`] chunks is
    /// left out (none in CLDR 41): such a key gets the next name along the
    /// chain instead, as in-process.
    async fn write_locale(
        &mut self,
        version: Version,
        slot: u16,
        names: &[(u32, String)],
        written: &mut CldrWritten,
    ) -> Result<Membership, LoadError> {
        let mut named = Membership::default();
        let mut batch = Batch::default();
        for (i, name) in names {
            let i = *i;
            if !layout::stored(name) {
                continue;
            }
            let chunks: Vec<&str> = layout::chunks(name).collect();
            named.insert_index(i);
            if chunks.len() > 1 {
                written.meta.long.insert((slot, i), chunks.len() as u8);
            }
            let bucket = self
                .keys
                .cldr_bucket(version, slot, i >> layout::BUCKET_BITS);
            if written.buckets.last().is_none_or(|b| *b != bucket) {
                written.buckets.push(bucket.clone());
            }
            let fields = chunks.iter().enumerate();
            written.fields += batch.add(
                bucket,
                fields.map(|(k, chunk)| (layout::field_of_index(i, k), *chunk)),
            );
            if batch.is_full() {
                self.write(&mut batch).await?;
            }
        }
        self.write(&mut batch).await?;
        Ok(named)
    }

    /// Writes IPADIC's Japanese readings ([`read_readings`]'s), when there
    /// are any, into buckets by written form
    /// ([`layout::reading_bucket_of`]), each bucket in one `HSET` with its
    /// mark.
    async fn write_readings(
        &mut self,
        version: Version,
        readings: Option<Readings>,
    ) -> Result<ReadingsWritten, LoadError> {
        let Some(readings) = readings else {
            return Ok(ReadingsWritten::default());
        };
        let meta = layout::Readings::for_forms(readings.kept.len() as u64);
        let mut order: Vec<(u32, usize)> = readings
            .kept
            .iter()
            .enumerate()
            .map(|(i, (form, _))| (layout::reading_bucket_of(form, meta.buckets), i))
            .collect();
        order.sort_unstable();
        let mut written = ReadingsWritten {
            meta,
            ..ReadingsWritten::default()
        };
        let mut batch: Batch<String> = Batch::default();
        let mut rest = &order[..];
        // Every bucket gets its mark, one without forms too: a reader
        // takes a bucket without it for one that is gone.
        for bucket in 0..meta.buckets {
            let here = rest.iter().take_while(|(b, _)| *b == bucket).count();
            let (group, after) = rest.split_at(here);
            rest = after;
            let key = self.keys.reading_bucket(version, bucket);
            written.buckets.push(key.clone());
            let values: Vec<String> = group
                .iter()
                .map(|&(_, i)| {
                    let mut value = String::new();
                    readings.kept[i].1.encode_into(&mut value);
                    value
                })
                .collect();
            let mark = (layout::READING_MARK.to_owned(), layout::READING_MARK_VALUE);
            let forms = group
                .iter()
                .zip(&values)
                .map(|(&(_, i), value)| (readings.kept[i].0.to_string(), value.as_str()));
            written.fields += batch.add(key, std::iter::once(mark).chain(forms));
            if batch.is_full() {
                self.write(&mut batch).await?;
            }
        }
        self.write(&mut batch).await?;
        Ok(written)
    }

    /// Writes what `batch` holds, in one pipeline per node, and renews the
    /// lock.
    async fn write<F: redis::ToRedisArgs>(
        &mut self,
        batch: &mut Batch<F>,
    ) -> Result<(), LoadError> {
        let cmds = batch.take();
        if cmds.is_empty() {
            return Ok(());
        }
        self.conn
            .per_node(cmds, false)
            .await
            .map_err(redis_err("writing the table"))?;
        self.lock.renew().await
    }

    /// Writes the version's meta, measures the version's Redis memory in the
    /// same round trip and records it. Returns the meta and the number of
    /// keys of the version, and the memory of its Japanese readings.
    async fn write_meta(
        &mut self,
        version: Version,
        members: Membership,
        long: LongNames,
        cldr: CldrWritten,
        readings: ReadingsWritten,
        vowels: VowelModels,
    ) -> Result<(Meta, u64, u64), LoadError> {
        let doing = "writing the version's meta";
        let mut meta = Meta {
            entries: members.len() as u64,
            categories: self.settings.categories.clone(),
            members,
            long,
            source: self.settings.data.to_string(),
            loaded_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            bytes: 0,
            cldr: cldr.meta,
            readings: readings.meta,
            vowels,
        };
        let meta_key = self.keys.meta(version);
        let mut hset = redis::cmd("HSET");
        // HSET with many pairs, not the deprecated HMSET.
        hset.arg(&meta_key).arg(&meta.to_fields()[..]);
        let mut version_keys: Vec<String> = meta
            .members
            .buckets()
            .map(|b| self.keys.bucket(version, b))
            .chain(cldr.buckets)
            .collect();
        // The readings' buckets last, so their memory is the tail's.
        let reading_keys = readings.buckets.len();
        version_keys.extend(readings.buckets);
        version_keys.push(meta_key.clone());
        let mut cmds = vec![(meta_key.clone(), hset)];
        for key in &version_keys {
            let mut usage = redis::cmd("MEMORY");
            usage.arg("USAGE").arg(key).arg("SAMPLES").arg(0);
            cmds.push((key.clone(), usage));
        }
        let replies = self
            .conn
            .per_node(cmds, false)
            .await
            .map_err(redis_err(doing))?;
        let mut reading_bytes = 0;
        let first_reading = version_keys.len() - 1 - reading_keys;
        for (k, reply) in replies.into_iter().skip(1).enumerate() {
            let usage: Option<u64> = redis::from_redis_value(reply)
                .map_err(|e| redis_err("measuring the table")(e.into()))?;
            meta.bytes += usage.unwrap_or(0);
            if (first_reading..first_reading + reading_keys).contains(&k) {
                reading_bytes += usage.unwrap_or(0);
            }
        }
        let _: i64 = self
            .conn
            .hset(&meta_key, layout::field::BYTES, meta.bytes)
            .await
            .map_err(redis_err(doing))?;
        Ok((meta, version_keys.len() as u64, reading_bytes))
    }

    /// Points `current` at `version` if the lock is still ours: the one
    /// step readers observe. On failure the version is removed again.
    async fn switch(&mut self, version: Version) -> Result<(), LoadError> {
        let switched: redis::RedisResult<Option<Version>> = Script::new(SWITCH)
            .key(self.keys.lock())
            .key(self.keys.current())
            .arg(self.lock.token())
            .arg(version)
            .invoke_async(&mut self.conn)
            .await;
        match switched {
            Ok(previous) => {
                tracing::info!(
                    version,
                    ?previous,
                    "switched readers to the new table version"
                );
                Ok(())
            }
            Err(e) => {
                let lost = e.code() == Some("LOSTLOCK");
                self.discard(version).await;
                Err(match lost {
                    true => LoadError::LostLock { ttl: LOCK_TTL },
                    false => redis_err("switching to the new version")(e),
                })
            }
        }
    }

    /// Tells running services at once; those that miss it find the new
    /// version at their next periodic check.
    async fn announce(&mut self, version: Version) {
        let notified: redis::RedisResult<i64> =
            self.conn.publish(self.keys.switched(), version).await;
        if let Err(e) = notified {
            tracing::warn!(error = %e, "could not announce the switch; services find it within their refresh interval");
        }
    }

    /// Removes every version but `live`: the previous one and any a killed
    /// load left behind. Returns their ids, sorted.
    async fn remove_others(&mut self, live: Version) -> Result<Vec<Version>, LoadError> {
        let others: Vec<Version> = self
            .conn
            .smembers(self.keys.versions())
            .await
            .map_err(redis_err("listing old versions"))?;
        let mut removed = Vec::new();
        for old in others.into_iter().filter(|&v| v != live) {
            self.remove_version(old).await?;
            removed.push(old);
        }
        removed.sort_unstable();
        Ok(removed)
    }

    /// Removes a version that will not go live, logging a failure: a later
    /// load removes it then.
    async fn discard(&mut self, version: Version) {
        if let Err(e) = self.remove_version(version).await {
            tracing::warn!(error = %e, version, "could not remove the unused version");
        }
    }

    /// Removes every key of `version`: its buckets, found by scanning
    /// every primary, then its meta and its entry in `{p}versions`.
    async fn remove_version(&mut self, version: Version) -> Result<(), LoadError> {
        let doing = "removing an old table version";
        let pattern = self.keys.bucket_pattern(version);
        for node in self.conn.primaries().await.map_err(redis_err(doing))? {
            let mut cursor: u64 = 0;
            loop {
                let (next, found) = self
                    .conn
                    .scan(&node, cursor, &pattern)
                    .await
                    .map_err(redis_err(doing))?;
                let unlinks: Vec<(String, redis::Cmd)> = found
                    .into_iter()
                    .map(|key| {
                        let cmd = redis::cmd("UNLINK").arg(&key).clone();
                        (key, cmd)
                    })
                    .collect();
                self.conn
                    .per_node(unlinks, false)
                    .await
                    .map_err(redis_err(doing))?;
                cursor = next;
                if cursor == 0 {
                    break;
                }
            }
        }
        let meta = self.keys.meta(version);
        let versions = self.keys.versions();
        let unlink = redis::cmd("UNLINK").arg(&meta).clone();
        let srem = redis::cmd("SREM").arg(&versions).arg(version).clone();
        self.conn
            .per_node(vec![(meta, unlink), (versions, srem)], false)
            .await
            .map_err(redis_err(doing))?;
        Ok(())
    }
}
