//! The loader job (`slugd load`): streams UnicodeData.txt into a new table
//! version in Redis, then switches readers to it atomically.
//!
//! The steps, and why each is safe for a service reading meanwhile:
//! 1. Take the load lock (`{p}lock`, with an expiry it keeps renewing), so
//!    two loaders never interleave. A loader that was killed leaves a lock
//!    that expires within [`LOCK_TTL`]; the next one waits for it.
//! 2. Take a fresh version id and record it in `{p}versions`.
//! 3. Stream the file line by line, writing buckets in pipelined batches of
//!    [`BATCH_FIELDS`] fields. Readers do not see the version yet.
//! 4. On any bad line, read on to report them all, then remove what was
//!    written and leave the live table as it was.
//! 5. Write the version's `meta` (index, counts, measured memory).
//! 6. Switch `{p}current` to the new version with a script that first
//!    checks the lock is still ours: the one atomic step readers observe.
//! 7. Remove every other version (the previous one and any a killed loader
//!    left behind). Readers of the old version notice the switch in their
//!    next round trip and move over; see `table::redis`.
//!
//! Memory stays bounded: one line, one batch and the membership bitmap.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redis::{AsyncCommands, Script};

use crate::redis_conn::Conn;
use crate::redis_conn::RedisConfig;
use crate::table::layout::{self, Keys, LongNames, Membership, Version};
use crate::unicode_data::{BadLine, Categories, DataError, LineError, ReadError, Reader};

/// How long the load lock lives without renewal.
pub const LOCK_TTL: Duration = Duration::from_secs(10);

/// Fields written per pipelined batch.
pub const BATCH_FIELDS: usize = 512;

/// What `slugd load` needs.
#[derive(Debug, Clone)]
pub struct LoadSettings {
    /// Where Redis is.
    pub redis: RedisConfig,
    /// The UnicodeData.txt file.
    pub data: PathBuf,
    /// The key prefix of the deployment.
    pub prefix: String,
    /// Which general categories to keep.
    pub categories: Categories,
    /// How long to wait for another loader's lock.
    pub lock_wait: Duration,
}

/// What a load did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadReport {
    /// The version now live.
    pub version: Version,
    /// Characters in the table.
    pub entries: u64,
    /// Redis keys of the version (buckets and meta).
    pub keys: u64,
    /// Hash fields written (names and name chunks).
    pub fields: u64,
    /// MEMORY USAGE summed over the version's keys.
    pub bytes: u64,
    /// Versions removed after the switch.
    pub removed: Vec<Version>,
    /// Wall time of the whole load.
    pub elapsed: Duration,
}

/// Why a load failed. In every case the live table is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The data file is unreadable or has bad lines.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The file has no character of the chosen categories.
    #[error("{path} has no characters of categories {categories}; refusing to load an empty table")]
    Empty {
        /// The file.
        path: String,
        /// The categories asked for.
        categories: String,
    },
    /// A Redis command failed.
    #[error("Redis failed while {doing}")]
    Redis {
        /// What the loader was doing.
        doing: &'static str,
        /// The driver's error.
        #[source]
        source: redis::RedisError,
    },
    /// Another loader held the lock for longer than we would wait.
    #[error("another load is running (lock {key} is held); waited {} s", waited.as_secs())]
    Locked {
        /// The lock key.
        key: String,
        /// How long we waited.
        waited: Duration,
    },
    /// The lock expired under us: another loader may have taken over.
    #[error("lost the load lock before the switch (a stall longer than {} s?); the live table is unchanged", LOCK_TTL.as_secs())]
    LostLock,
}

fn redis_err(doing: &'static str) -> impl FnOnce(redis::RedisError) -> LoadError {
    move |source| LoadError::Redis { doing, source }
}

/// Renews the lock if it is still ours.
const RENEW_LOCK: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0";

/// Switches `current` if the lock is still ours; returns the old version.
const SWITCH: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('LOSTLOCK the load lock is not ours')
end
local old = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[2], ARGV[2])
return old";

/// Releases the lock if it is still ours.
const RELEASE_LOCK: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0";

/// One load in progress.
struct Loader {
    conn: Conn,
    keys: Keys,
    token: String,
}

impl Loader {
    async fn take_lock(&mut self, wait: Duration) -> Result<(), LoadError> {
        let started = Instant::now();
        let mut told = false;
        loop {
            let took: Option<String> = redis::cmd("SET")
                .arg(self.keys.lock())
                .arg(&self.token)
                .arg("NX")
                .arg("PX")
                .arg(LOCK_TTL.as_millis() as u64)
                .query_async(&mut self.conn)
                .await
                .map_err(redis_err("taking the load lock"))?;
            if took.is_some() {
                return Ok(());
            }
            if started.elapsed() >= wait {
                return Err(LoadError::Locked {
                    key: self.keys.lock(),
                    waited: started.elapsed(),
                });
            }
            if !told {
                tracing::info!(lock = %self.keys.lock(), "another load holds the lock; waiting");
                told = true;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn renew_lock(&mut self) -> Result<(), LoadError> {
        let renewed: i64 = Script::new(RENEW_LOCK)
            .key(self.keys.lock())
            .arg(&self.token)
            .arg(LOCK_TTL.as_millis() as u64)
            .invoke_async(&mut self.conn)
            .await
            .map_err(redis_err("renewing the load lock"))?;
        if renewed == 1 {
            Ok(())
        } else {
            Err(LoadError::LostLock)
        }
    }

    async fn release_lock(&mut self) -> Result<(), LoadError> {
        let _: i64 = Script::new(RELEASE_LOCK)
            .key(self.keys.lock())
            .arg(&self.token)
            .invoke_async(&mut self.conn)
            .await
            .map_err(redis_err("releasing the load lock"))?;
        Ok(())
    }

    /// Writes one batch: an HSET per bucket, in one pipeline.
    async fn flush(
        &mut self,
        version: Version,
        batch: &mut BTreeMap<u32, Vec<(u32, String)>>,
    ) -> Result<(), LoadError> {
        if batch.is_empty() {
            return Ok(());
        }
        let cmds: Vec<(String, redis::Cmd)> = batch
            .iter()
            .map(|(&bucket, fields)| {
                let key = self.keys.bucket(version, bucket);
                let mut cmd = redis::cmd("HSET");
                cmd.arg(&key);
                for (field, value) in fields {
                    cmd.arg(*field).arg(value);
                }
                (key, cmd)
            })
            .collect();
        self.conn
            .per_node(cmds, false)
            .await
            .map_err(redis_err("writing the table"))?;
        batch.clear();
        self.renew_lock().await
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

/// Runs a load. On success the new version is live and the old ones are
/// gone; on failure the live table is untouched.
pub async fn run(settings: &LoadSettings) -> Result<LoadReport, LoadError> {
    let started = Instant::now();
    let file = File::open(&settings.data).map_err(|e| DataError::open(&settings.data, e))?;
    let conn = Conn::for_loader(&settings.redis)
        .await
        .map_err(redis_err("connecting"))?;
    let mut loader = Loader {
        conn,
        keys: Keys::new(&settings.prefix),
        token: lock_token(),
    };
    loader.take_lock(settings.lock_wait).await?;
    let result = load_locked(&mut loader, settings, file, started).await;
    // Best effort: if Redis is gone the lock expires by itself.
    if let Err(e) = loader.release_lock().await {
        tracing::warn!(error = %e, "could not release the load lock; it expires by itself");
    }
    result
}

async fn load_locked(
    loader: &mut Loader,
    settings: &LoadSettings,
    file: File,
    started: Instant,
) -> Result<LoadReport, LoadError> {
    let keys = loader.keys.clone();
    let version: Version = loader
        .conn
        .incr(keys.seq(), 1)
        .await
        .map_err(redis_err("taking a version id"))?;
    let _: i64 = loader
        .conn
        .sadd(keys.versions(), version)
        .await
        .map_err(redis_err("recording the version"))?;

    let written = write_entries(loader, settings, file, version).await;
    let (members, long, fields) = match written {
        Ok(done) => done,
        Err(e) => {
            // Leave nothing half-written behind; a later load also cleans up
            // if this fails too.
            if let Err(cleanup) = loader.remove_version(version).await {
                tracing::warn!(error = %cleanup, version, "could not remove the partial version");
            }
            return Err(e);
        }
    };

    let entries = members.len() as u64;
    let meta_key = keys.meta(version);
    let loaded_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut meta = redis::cmd("HSET");
    // HSET with many pairs, not the deprecated HMSET.
    meta.arg(&meta_key).arg(
        &[
            ("format", layout::FORMAT.to_string()),
            ("entries", entries.to_string()),
            ("categories", settings.categories.as_list()),
            ("index", members.encode()),
            ("long", long.encode()),
            ("source", settings.data.display().to_string()),
            ("loaded_at", loaded_at.to_string()),
            ("bytes", "0".to_owned()),
        ][..],
    );
    let bucket_keys: Vec<String> = members.buckets().map(|b| keys.bucket(version, b)).collect();
    let mut cmds = vec![(meta_key.clone(), meta)];
    for key in bucket_keys.iter().chain(std::iter::once(&meta_key)) {
        let mut usage = redis::cmd("MEMORY");
        usage.arg("USAGE").arg(key).arg("SAMPLES").arg(0);
        cmds.push((key.clone(), usage));
    }
    let replies = loader
        .conn
        .per_node(cmds, false)
        .await
        .map_err(redis_err("writing the version's meta"))?;
    let mut bytes = 0u64;
    for reply in replies.into_iter().skip(1) {
        let usage: Option<u64> = redis::from_redis_value(reply)
            .map_err(|e| redis_err("measuring the table")(e.into()))?;
        bytes += usage.unwrap_or(0);
    }
    let _: i64 = loader
        .conn
        .hset(&meta_key, "bytes", bytes)
        .await
        .map_err(redis_err("writing the version's meta"))?;

    let switched: redis::RedisResult<Option<Version>> = Script::new(SWITCH)
        .key(keys.lock())
        .key(keys.current())
        .arg(&loader.token)
        .arg(version)
        .invoke_async(&mut loader.conn)
        .await;
    let previous = match switched {
        Ok(previous) => previous,
        Err(e) => {
            let lost = e.code() == Some("LOSTLOCK");
            if let Err(cleanup) = loader.remove_version(version).await {
                tracing::warn!(error = %cleanup, version, "could not remove the unused version");
            }
            return Err(if lost {
                LoadError::LostLock
            } else {
                redis_err("switching to the new version")(e)
            });
        }
    };
    tracing::info!(
        version,
        ?previous,
        "switched readers to the new table version"
    );
    // Tell running services at once; those that miss it find the new
    // version at their next periodic check.
    let notified: redis::RedisResult<i64> = loader.conn.publish(keys.switched(), version).await;
    if let Err(e) = notified {
        tracing::warn!(error = %e, "could not announce the switch; services find it within their refresh interval");
    }

    let others: Vec<Version> = loader
        .conn
        .smembers(keys.versions())
        .await
        .map_err(redis_err("listing old versions"))?;
    let mut removed = Vec::new();
    for old in others.into_iter().filter(|&v| v != version) {
        loader.remove_version(old).await?;
        removed.push(old);
    }
    removed.sort_unstable();

    Ok(LoadReport {
        version,
        entries,
        keys: bucket_keys.len() as u64 + 1,
        fields,
        bytes,
        removed,
        elapsed: started.elapsed(),
    })
}

/// Streams the file into the version's buckets. Returns the membership,
/// the long names and the number of fields written.
async fn write_entries(
    loader: &mut Loader,
    settings: &LoadSettings,
    file: File,
    version: Version,
) -> Result<(Membership, LongNames, u64), LoadError> {
    let mut bad = DataError::collector(&settings.data);
    let mut members = Membership::default();
    let mut long = LongNames::default();
    let mut batch: BTreeMap<u32, Vec<(u32, String)>> = BTreeMap::new();
    let mut batched = 0usize;
    let mut fields = 0u64;
    let reader = Reader::new(BufReader::new(file), settings.categories.clone());
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
                error: LineError::BadName(entry.name.clone()),
            }))?;
            continue;
        }
        // Once a line is bad the load will not switch: only read on, to
        // report every bad line.
        if !bad.is_empty() {
            continue;
        }
        members.insert(entry.ch);
        if chunks.len() > 1 {
            long.0.insert(entry.ch, chunks.len() as u8);
        }
        let bucket = batch.entry(layout::bucket_of(entry.ch)).or_default();
        for (k, chunk) in chunks.iter().enumerate() {
            bucket.push((layout::field_of(entry.ch, k), (*chunk).to_owned()));
            batched += 1;
            fields += 1;
        }
        if batched >= BATCH_FIELDS {
            loader.flush(version, &mut batch).await?;
            batched = 0;
        }
    }
    bad.finish()?;
    loader.flush(version, &mut batch).await?;
    if members.is_empty() {
        return Err(LoadError::Empty {
            path: settings.data.display().to_string(),
            categories: settings.categories.as_list(),
        });
    }
    Ok((members, long, fields))
}

fn lock_token() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}
