//! Redis Sentinel: the primary of a monitored set, found by asking the
//! sentinels, and followed through a failover without a restart.
//!
//! The primary is asked of each sentinel in turn (`SENTINEL
//! get-master-addr-by-name`) until one names a server that says it is a
//! primary (`ROLE`): during a failover a sentinel may still name the old
//! one. One multiplexed connection to it is kept and shared. A call that
//! fails without an answer (the primary died: the connection dropped, or
//! a timeout) or that the server refuses as no longer a primary
//! (`READONLY`: it was demoted; `MASTERDOWN`) forgets it, and the next
//! call asks the sentinels again. While there is no primary, a call fails
//! promptly: one look-up runs at a time, and for a short while after a
//! look-up that failed, calls fail with its error at once rather than
//! queue behind new ones.
//!
//! Credentials and TLS: each sentinel is reached by its own entry
//! (`host:port`, or a `redis://` or `rediss://` URL with a user and
//! password), and the primary it names with that entry's scheme, user,
//! password and database, as deployments that share one password across
//! sentinels and servers do; the CA of `--redis-ca-cert` serves both.

use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

use super::config::{RedisConfig, RedisUrl};

/// How long a failed look-up of the primary answers for the calls after
/// it, before one is tried again.
const QUIET: Duration = Duration::from_millis(100);

/// The primary of one monitored set, through its sentinels. Clones share
/// the connection.
#[derive(Clone)]
pub struct Sentinel(Arc<Inner>);

struct Inner {
    sentinels: Vec<RedisUrl>,
    /// The monitored set's name (`--redis-master-name`).
    name: String,
    config: RedisConfig,
    /// The primary's connection, `None` until found (or after a failure).
    current: RwLock<Option<MultiplexedConnection>>,
    /// Held while looking for the primary, so that one look-up runs at a
    /// time.
    looking: tokio::sync::Mutex<()>,
    /// The last look-up that failed: when, and why.
    failed: Mutex<Option<(Instant, RedisError)>>,
}

impl Sentinel {
    /// The primary named `name` by `sentinels`; connects lazily.
    pub fn new(config: &RedisConfig, sentinels: &[RedisUrl], name: &str) -> Self {
        Sentinel(Arc::new(Inner {
            sentinels: sentinels.to_vec(),
            name: name.to_owned(),
            config: config.clone(),
            current: RwLock::new(None),
            looking: tokio::sync::Mutex::new(()),
            failed: Mutex::new(None),
        }))
    }

    /// The connection to the primary: the one kept, or a new one to the
    /// primary the sentinels name now.
    pub async fn connection(&self) -> RedisResult<MultiplexedConnection> {
        if let Some(conn) = self.kept() {
            return Ok(conn);
        }
        self.recent_failure()?;
        let _looking = self.0.looking.lock().await;
        // Another call may have found it, or failed to, meanwhile.
        if let Some(conn) = self.kept() {
            return Ok(conn);
        }
        self.recent_failure()?;
        match self.open_primary().await {
            Ok((url, conn)) => {
                tracing::info!(primary = %url, name = %self.0.name, "connected to the primary the sentinels name");
                *self.0.current.write().expect("the sentinel's lock") = Some(conn.clone());
                Ok(conn)
            }
            Err(e) => {
                *self.0.failed.lock().expect("the sentinel's lock") =
                    Some((Instant::now(), e.clone()));
                Err(e)
            }
        }
    }

    /// After a call on [`Sentinel::connection`]: forgets the primary if the
    /// call failed without an answer, or if a reply says the server is a
    /// primary no more.
    pub fn after(&self, replies: Result<&[Value], &RedisError>) {
        let demoted = |kind: Option<ServerErrorKind>| {
            matches!(
                kind,
                Some(ServerErrorKind::ReadOnly | ServerErrorKind::MasterDown)
            )
        };
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
            self.0.current.write().expect("the sentinel's lock").take();
        }
    }

    /// A new connection to the primary the sentinels name now, of its
    /// own (the loader's; a pool's).
    pub async fn open(&self) -> RedisResult<MultiplexedConnection> {
        self.open_primary().await.map(|(_, conn)| conn)
    }

    /// The primary's URL, as the sentinels name it now and it confirms.
    pub async fn primary_url(&self) -> RedisResult<RedisUrl> {
        self.open_primary().await.map(|(url, _)| url)
    }

    fn kept(&self) -> Option<MultiplexedConnection> {
        self.0.current.read().expect("the sentinel's lock").clone()
    }

    fn recent_failure(&self) -> RedisResult<()> {
        match &*self.0.failed.lock().expect("the sentinel's lock") {
            Some((at, e)) if at.elapsed() < QUIET => Err(e.clone()),
            _ => Ok(()),
        }
    }

    /// Asks each sentinel in turn for the primary and connects to the
    /// first one named that says it is a primary.
    async fn open_primary(&self) -> RedisResult<(RedisUrl, MultiplexedConnection)> {
        let mut why = Vec::new();
        for sentinel in &self.0.sentinels {
            match self.ask(sentinel).await {
                Ok(found) => return Ok(found),
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
        let mut conn = self.connect(sentinel).await?;
        let named: Option<(String, u16)> = redis::cmd("SENTINEL")
            .arg("get-master-addr-by-name")
            .arg(&self.0.name)
            .query_async(&mut conn)
            .await?;
        let Some((host, port)) = named else {
            return Err(RedisError::from((
                ErrorKind::MasterNameNotFoundBySentinel,
                "this sentinel monitors no primary of that name",
                self.0.name.clone(),
            )));
        };
        let url = primary_url(sentinel, &host, port)?;
        let mut primary = self.connect(&url).await?;
        let role: Vec<Value> = redis::cmd("ROLE").query_async(&mut primary).await?;
        match role.first() {
            Some(Value::BulkString(r)) if r.as_slice() == b"master" => Ok((url, primary)),
            _ => Err(RedisError::from((
                ErrorKind::Io,
                "the server named as primary is not one (a failover is under way)",
                format!("{host}:{port}"),
            ))),
        }
    }

    async fn connect(&self, url: &RedisUrl) -> RedisResult<MultiplexedConnection> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(self.0.config.connect_timeout))
            .set_response_timeout(Some(self.0.config.response_timeout));
        self.0
            .config
            .client(url)?
            .get_multiplexed_async_connection_with_config(&config)
            .await
    }
}

/// The URL of the primary at `host`:`port`, reached as `sentinel` is:
/// its scheme, user, password and database.
fn primary_url(sentinel: &RedisUrl, host: &str, port: u16) -> RedisResult<RedisUrl> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_is_reached_as_the_sentinel_is() {
        let sentinel = RedisUrl::parse("rediss://app:s3cret@10.0.0.1:26379/2").unwrap();
        let url = primary_url(&sentinel, "10.0.0.7", 6380).unwrap();
        assert_eq!(url.expose(), "rediss://app:s3cret@10.0.0.7:6380/2");
        let sentinel = RedisUrl::parse("redis://127.0.0.1:26379").unwrap();
        let url = primary_url(&sentinel, "::1", 6379).unwrap();
        assert_eq!(url.expose(), "redis://[::1]:6379");
    }
}
