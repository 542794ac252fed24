//! Redis Sentinel: the primary of a monitored set, found by asking the
//! sentinels, and followed through a failover without a restart.
//!
//! The primary is asked of the sentinels in turn (`SENTINEL
//! get-master-addr-by-name`), starting with the one that answered last,
//! until one names a server that says it is a primary (`ROLE`): during a
//! failover a sentinel may still name the old one. One multiplexed
//! connection to it is kept and shared. A call that fails without an
//! answer (the primary died: the connection dropped, or a timeout) or that
//! the server refuses as no longer a primary (`READONLY`: it was demoted;
//! `MASTERDOWN`) forgets that connection (not a newer one another call
//! found meanwhile), and the next call looks again.
//!
//! A look-up runs as a task of its own, one at a time, each sentinel and
//! the primary bounded by the connect and response timeouts: a caller
//! that gives up (its own timeout) does not cancel it, so a sentinel that
//! does not answer costs one look-up its time, not every request's. While
//! it runs, callers wait for it within their own timeouts; for a short
//! while after one failed, calls fail with its error at once, so requests
//! get a prompt 503 while there is no primary.
//!
//! Credentials and TLS: each sentinel is reached by its own entry
//! (`host:port`, or a `redis://` or `rediss://` URL with a user and
//! password; a database in it is for the primary, as sentinels have
//! none), and the primary it names with that entry's scheme, user,
//! password and database, as deployments that share one password across
//! sentinels and servers do; the CA of `--redis-ca-cert` serves both.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};
use tokio::sync::watch;

use super::config::{RedisConfig, RedisUrl};

/// How long a failed look-up of the primary answers for the calls after
/// it, before one is tried again.
const QUIET: Duration = Duration::from_millis(100);

/// The primary of one monitored set, through its sentinels. Clones share
/// the connection.
#[derive(Clone)]
pub struct Sentinel(Arc<Inner>);

/// The primary found, and which finding it is (a failed call forgets
/// only the connection it used).
#[derive(Clone)]
struct Found {
    generation: u64,
    url: RedisUrl,
    conn: MultiplexedConnection,
}

struct Inner {
    sentinels: Vec<RedisUrl>,
    /// The monitored set's name (`--redis-master-name`).
    name: String,
    config: RedisConfig,
    /// The primary's connection, `None` until found (or after a failure).
    current: RwLock<Option<Found>>,
    /// The sentinel that answered last, asked first.
    last_good: AtomicUsize,
    /// Whether a look-up task is running.
    looking: AtomicBool,
    /// Counts finished look-ups: callers wait for the next one.
    looked: watch::Sender<u64>,
    /// The last look-up that failed: when, and why.
    failed: Mutex<Option<(Instant, RedisError)>>,
}

/// A connection to the primary, with the finding it belongs to.
pub struct Primary {
    /// The shared connection to it.
    pub conn: MultiplexedConnection,
    generation: u64,
}

impl Sentinel {
    /// The primary named `name` by `sentinels`; connects lazily.
    pub fn new(config: &RedisConfig, sentinels: &[RedisUrl], name: &str) -> Self {
        Sentinel(Arc::new(Inner {
            sentinels: sentinels.to_vec(),
            name: name.to_owned(),
            config: config.clone(),
            current: RwLock::new(None),
            last_good: AtomicUsize::new(0),
            looking: AtomicBool::new(false),
            looked: watch::channel(0).0,
            failed: Mutex::new(None),
        }))
    }

    /// The connection to the primary: the one kept, or, once a look-up
    /// finds it, a new one.
    pub async fn connection(&self) -> RedisResult<Primary> {
        let found = self.found().await?;
        Ok(Primary {
            conn: found.conn,
            generation: found.generation,
        })
    }

    /// A new connection of the caller's own to the primary found now (a
    /// pool's): no look-up of its own.
    pub async fn open(&self) -> RedisResult<MultiplexedConnection> {
        let found = self.found().await?;
        self.connect(&found.url, None).await
    }

    /// The primary's URL, as the sentinels name it now and it confirms.
    pub async fn primary_url(&self) -> RedisResult<RedisUrl> {
        self.found().await.map(|found| found.url)
    }

    /// After a call on [`Sentinel::connection`]'s `primary`: forgets it if
    /// the call failed without an answer, or if a reply says the server is
    /// a primary no more.
    pub fn after(&self, primary: &Primary, replies: Result<&[Value], &RedisError>) {
        let gone = match replies {
            Ok(values) => values
                .iter()
                .any(|v| matches!(v, Value::ServerError(e) if demoted(e.kind()))),
            Err(e) => match e.kind() {
                ErrorKind::Server(kind) => demoted(Some(kind)),
                _ => e.is_connection_dropped() || e.is_io_error() || e.is_timeout(),
            },
        };
        if gone {
            let mut current = self.0.current.write().expect("the sentinel's lock");
            if current
                .as_ref()
                .is_some_and(|f| f.generation == primary.generation)
            {
                *current = None;
            }
        }
    }

    /// Forgets the primary found: a connection of the caller's own to it
    /// died, or it said it is a primary no more.
    pub fn forget(&self) {
        self.0.current.write().expect("the sentinel's lock").take();
    }

    /// The primary kept, or the outcome of the next look-up.
    async fn found(&self) -> RedisResult<Found> {
        if let Some(found) = self.kept() {
            return Ok(found);
        }
        // Subscribed before looking again at what a look-up left, so the
        // end of one that finishes meanwhile is seen.
        let mut looked = self.0.looked.subscribe();
        if let Some(found) = self.kept() {
            return Ok(found);
        }
        self.recent_failure()?;
        if !self.0.looking.swap(true, Ordering::AcqRel) {
            let sentinel = self.clone();
            tokio::spawn(async move { sentinel.look_up().await });
        }
        // The sender lives as long as the sentinel, so this ends with a
        // look-up.
        let _ = looked.changed().await;
        if let Some(found) = self.kept() {
            return Ok(found);
        }
        self.recent_failure()?;
        Err(RedisError::from((
            ErrorKind::Io,
            "the primary was lost again as soon as it was found",
        )))
    }

    /// One look-up, recorded for every caller.
    async fn look_up(self) {
        let outcome = self.open_primary().await;
        match outcome {
            Ok((url, conn)) => {
                tracing::info!(primary = %url, name = %self.0.name, "connected to the primary the sentinels name");
                let mut current = self.0.current.write().expect("the sentinel's lock");
                let generation = current.as_ref().map_or(0, |f| f.generation) + 1;
                *current = Some(Found {
                    generation,
                    url,
                    conn,
                });
                *self.0.failed.lock().expect("the sentinel's lock") = None;
            }
            Err(e) => {
                tracing::warn!(error = %e, name = %self.0.name, "no primary found through the sentinels");
                *self.0.failed.lock().expect("the sentinel's lock") = Some((Instant::now(), e));
            }
        }
        self.0.looking.store(false, Ordering::Release);
        self.0.looked.send_modify(|n| *n += 1);
    }

    fn kept(&self) -> Option<Found> {
        self.0.current.read().expect("the sentinel's lock").clone()
    }

    fn recent_failure(&self) -> RedisResult<()> {
        match &*self.0.failed.lock().expect("the sentinel's lock") {
            Some((at, e)) if at.elapsed() < QUIET => Err(e.clone()),
            _ => Ok(()),
        }
    }

    /// Asks the sentinels in turn, the last good one first, for the
    /// primary and connects to the first one named that says it is one.
    async fn open_primary(&self) -> RedisResult<(RedisUrl, MultiplexedConnection)> {
        let count = self.0.sentinels.len();
        let first = self.0.last_good.load(Ordering::Relaxed);
        let mut why = Vec::new();
        for k in 0..count {
            let i = (first + k) % count;
            let sentinel = &self.0.sentinels[i];
            match self.ask(sentinel).await {
                Ok(found) => {
                    self.0.last_good.store(i, Ordering::Relaxed);
                    return Ok(found);
                }
                Err(e) => why.push(format!("{}: {e}", sentinel.redacted())),
            }
        }
        Err(RedisError::from((
            ErrorKind::Io,
            "no sentinel named a primary that answers as one",
            format!("for '{}': {}", self.0.name, why.join("; ")),
        )))
    }

    async fn ask(&self, sentinel: &RedisUrl) -> RedisResult<(RedisUrl, MultiplexedConnection)> {
        // A sentinel has no databases: the entry's is the primary's.
        let mut conn = self.connect(sentinel, Some(0)).await?;
        let named: Option<(String, u16)> = bounded(
            self.0.config.response_timeout,
            redis::cmd("SENTINEL")
                .arg("get-master-addr-by-name")
                .arg(&self.0.name)
                .query_async(&mut conn),
        )
        .await?;
        let Some((host, port)) = named else {
            return Err(RedisError::from((
                ErrorKind::MasterNameNotFoundBySentinel,
                "this sentinel monitors no primary of that name",
                self.0.name.clone(),
            )));
        };
        let url = with_address(sentinel, &host, port)?;
        let mut primary = self.connect(&url, None).await?;
        let role: Vec<Value> = bounded(
            self.0.config.response_timeout,
            redis::cmd("ROLE").query_async(&mut primary),
        )
        .await?;
        match role.first() {
            Some(Value::BulkString(r)) if r.as_slice() == b"master" => Ok((url, primary)),
            _ => Err(RedisError::from((
                ErrorKind::Io,
                "the server named as primary is not one (a failover is under way)",
                format!("{host}:{port}"),
            ))),
        }
    }

    /// A connection to `url` (with database `db` in place of its own, if
    /// given), bounded by the connect and response timeouts.
    async fn connect(&self, url: &RedisUrl, db: Option<u16>) -> RedisResult<MultiplexedConnection> {
        let url = match db {
            Some(db) => with_db(url, db)?,
            None => url.clone(),
        };
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(self.0.config.connect_timeout))
            .set_response_timeout(Some(self.0.config.response_timeout));
        let client = self.0.config.client(&url)?;
        bounded(
            self.0.config.connect_timeout + self.0.config.response_timeout,
            client.get_multiplexed_async_connection_with_config(&config),
        )
        .await
    }
}

/// Whether an error reply of kind `kind` says the server is a primary no
/// more (`READONLY`: demoted to a replica; `MASTERDOWN`: a replica whose
/// primary is gone). Redis refuses such a call before running it.
pub(super) fn demoted(kind: Option<ServerErrorKind>) -> bool {
    matches!(
        kind,
        Some(ServerErrorKind::ReadOnly | ServerErrorKind::MasterDown)
    )
}

/// `future` within `limit`, a timeout error after it.
async fn bounded<T>(
    limit: Duration,
    future: impl std::future::Future<Output = RedisResult<T>>,
) -> RedisResult<T> {
    match tokio::time::timeout(limit, future).await {
        Ok(result) => result,
        Err(_) => Err(std::io::Error::from(std::io::ErrorKind::TimedOut).into()),
    }
}

/// The URL of the server at `host`:`port`, reached as `sentinel` is: its
/// scheme, user, password and database.
fn with_address(sentinel: &RedisUrl, host: &str, port: u16) -> RedisResult<RedisUrl> {
    let invalid = || {
        RedisError::from((
            ErrorKind::InvalidClientConfig,
            "a sentinel named a primary whose address makes no URL",
            format!("{host}:{port}"),
        ))
    };
    let mut url = url::Url::parse(sentinel.expose()).map_err(|_| invalid())?;
    let host = match host.contains(':') && !host.starts_with('[') {
        true => format!("[{host}]"),
        false => host.to_owned(),
    };
    url.set_host(Some(&host)).map_err(|_| invalid())?;
    url.set_port(Some(port)).map_err(|_| invalid())?;
    RedisUrl::parse(url.as_str()).map_err(|_| invalid())
}

/// `url` with database `db` in place of its own.
fn with_db(url: &RedisUrl, db: u16) -> RedisResult<RedisUrl> {
    let invalid = || {
        RedisError::from((
            ErrorKind::InvalidClientConfig,
            "a sentinel's entry makes no URL without its database",
        ))
    };
    let mut parsed = url::Url::parse(url.expose()).map_err(|_| invalid())?;
    if parsed.path().trim_start_matches('/').is_empty() && db == 0 {
        return Ok(url.clone());
    }
    parsed.set_path(&format!("/{db}"));
    RedisUrl::parse(parsed.as_str()).map_err(|_| invalid())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_is_reached_as_the_sentinel_is() {
        let sentinel = RedisUrl::parse("rediss://app:s3cret@10.0.0.1:26379/2").unwrap();
        let url = with_address(&sentinel, "10.0.0.7", 6380).unwrap();
        assert_eq!(url.expose(), "rediss://app:s3cret@10.0.0.7:6380/2");
        let sentinel = RedisUrl::parse("redis://127.0.0.1:26379").unwrap();
        let url = with_address(&sentinel, "::1", 6379).unwrap();
        assert_eq!(url.expose(), "redis://[::1]:6379");
    }

    #[test]
    fn a_sentinel_is_asked_in_database_0() {
        let sentinel = RedisUrl::parse("redis://app:s3cret@10.0.0.1:26379/2").unwrap();
        assert_eq!(
            with_db(&sentinel, 0).unwrap().expose(),
            "redis://app:s3cret@10.0.0.1:26379/0"
        );
        let sentinel = RedisUrl::parse("redis://10.0.0.1:26379").unwrap();
        assert_eq!(with_db(&sentinel, 0).unwrap(), sentinel);
    }
}
