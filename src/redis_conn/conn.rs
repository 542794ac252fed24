//! The one connection type slugd talks to Redis through, over one server, a
//! cluster, or the primary sentinels name. Single-key commands and scripts
//! go through it as through any
//! redis-rs connection ([`ConnectionLike`]); the one operation a cluster
//! changes, a batch of commands on many keys, has its own method:
//! [`Conn::per_node`]. The service opens it with [`Conn::for_service`], the
//! loader with [`Conn::for_loader`]. [`resend_once`] says which failures
//! of the service's connection are worth one more try, [`slot_moving`]
//! which mean a cluster is moving the slot asked for. [`pubsub`] opens the
//! connection for the loader's switch notices.

use std::time::Duration;

use redis::aio::{
    ConnectionLike, ConnectionManager, ConnectionManagerConfig, MultiplexedConnection,
};
use redis::{
    AsyncConnectionConfig, Cmd, ErrorKind, RedisError, RedisFuture, RedisResult, ServerErrorKind,
    Value,
};

use super::cluster::{Cluster, Node};
use super::config::{Endpoint, RedisConfig};
use super::reply::errors_to_err;
use super::sentinel::Sentinel;

/// A connection to one server, a cluster, or the primary sentinels name.
/// Cheap to clone: clones share the underlying connections.
#[derive(Clone)]
pub enum Conn {
    /// One server, reconnecting by itself (the service).
    Managed(ConnectionManager),
    /// One server, one connection that fails rather than retries (the
    /// loader).
    Plain(MultiplexedConnection),
    /// A Redis Cluster.
    Cluster(Cluster),
    /// The primary sentinels name, found again after a failover (the
    /// service).
    Sentinel(Sentinel),
}

impl Conn {
    /// The connection for the service: it reconnects by itself after a
    /// failure and connects lazily, so the service starts whether or not
    /// Redis is up.
    pub fn for_service(config: &RedisConfig) -> RedisResult<Conn> {
        match &config.endpoint {
            Endpoint::Single(url) => {
                let manager_config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(config.connect_timeout))
                    .set_response_timeout(Some(config.response_timeout))
                    // Few, quick retries: a request waits at most one
                    // response timeout anyway (see `table::redis`), and the
                    // next request starts a fresh attempt.
                    .set_number_of_retries(1)
                    .set_min_delay(Duration::from_millis(50))
                    .set_max_delay(Duration::from_millis(500));
                let manager =
                    ConnectionManager::new_lazy_with_config(config.client(url)?, manager_config)?;
                Ok(Conn::Managed(manager))
            }
            Endpoint::Cluster {
                nodes,
                read_from_replicas,
            } => Ok(Conn::Cluster(Cluster::new(
                config,
                nodes,
                *read_from_replicas,
            )?)),
            Endpoint::Sentinel { sentinels, name } => {
                Ok(Conn::Sentinel(Sentinel::new(config, sentinels, name)))
            }
        }
    }

    /// The connection for the loader: on one server a plain multiplexed
    /// connection, which fails rather than retries, so a loader that loses
    /// Redis stops with a clear error.
    pub async fn for_loader(config: &RedisConfig) -> RedisResult<Conn> {
        match &config.endpoint {
            Endpoint::Single(url) => {
                let conn_config = AsyncConnectionConfig::new()
                    .set_connection_timeout(Some(config.connect_timeout))
                    .set_response_timeout(Some(config.response_timeout));
                let conn: MultiplexedConnection = config
                    .client(url)?
                    .get_multiplexed_async_connection_with_config(&conn_config)
                    .await?;
                Ok(Conn::Plain(conn))
            }
            Endpoint::Cluster {
                nodes,
                read_from_replicas,
            } => {
                let cluster = Cluster::new(config, nodes, *read_from_replicas)?;
                cluster.connect().await?;
                Ok(Conn::Cluster(cluster))
            }
            // The primary named now; a loader that loses it stops.
            Endpoint::Sentinel { sentinels, name } => Ok(Conn::Plain(
                Sentinel::new(config, sentinels, name).open().await?,
            )),
        }
    }

    /// Sends `cmds`, each a command on the one key given with it, and
    /// returns their replies in order. On one server that is one pipeline;
    /// on a cluster, one pipeline per node holding any of the keys, all sent
    /// at once: one round trip to each node needed, in parallel. With
    /// `read` set, a cluster configured to read from replicas sends them to
    /// replicas. Any command's error fails the whole.
    pub async fn per_node(
        &mut self,
        cmds: Vec<(String, Cmd)>,
        read: bool,
    ) -> RedisResult<Vec<Value>> {
        if cmds.is_empty() {
            return Ok(Vec::new());
        }
        if let Conn::Cluster(cluster) = self {
            return cluster.per_node(cmds, read).await;
        }
        let count = cmds.len();
        let mut pipe = redis::pipe();
        for (_, cmd) in cmds {
            pipe.add_command(cmd);
        }
        let values = self.req_packed_commands(&pipe, 0, count).await?;
        errors_to_err(values)
    }

    /// Whether reads may go to replicas of a cluster.
    pub fn reads_from_replicas(&self) -> bool {
        matches!(self, Conn::Cluster(c) if c.reads_from_replicas())
    }

    /// On a cluster, reads which node holds which slots again; nothing
    /// otherwise.
    pub async fn refresh_topology(&self) -> RedisResult<()> {
        match self {
            Conn::Cluster(c) => c.refresh_slots().await,
            _ => Ok(()),
        }
    }

    /// The nodes that hold keys: the one server, or every cluster primary.
    pub async fn primaries(&mut self) -> RedisResult<Vec<Node>> {
        match self {
            Conn::Cluster(cluster) => cluster.primaries().await,
            _ => Ok(vec![Node::default()]),
        }
    }

    /// One `SCAN` step on `node` (from [`Conn::primaries`]): the next
    /// cursor and the keys found.
    pub async fn scan(
        &mut self,
        node: &Node,
        cursor: u64,
        pattern: &str,
    ) -> RedisResult<(u64, Vec<String>)> {
        let mut cmd = redis::cmd("SCAN");
        cmd.arg(cursor)
            .arg("MATCH")
            .arg(pattern)
            .arg("COUNT")
            .arg(1000);
        match self {
            Conn::Cluster(cluster) => cluster.on_node(node, cmd).await,
            _ => cmd.query_async(self).await,
        }
    }
}

/// Whether a call on the service's connection that failed with `e` should
/// be sent once more (by a caller for whom a second copy is safe): the
/// connection was found dead, not Redis slow.
///
/// redis-rs's `ConnectionManager` hands the error of a dead connection to
/// the call that met it and only then starts a new connection, in the
/// background; the next call waits for that one. After Redis restarts, the
/// first call on each connection therefore fails with "broken pipe": the
/// connection's reader saw Redis close it, and the call is refused before
/// anything is written. A connection attempt made while Redis was down
/// fails the same way once more, as "connection refused", for the first
/// call after Redis is back. Both are worth one resend, and only one: if
/// Redis is still down, the new attempt is refused promptly and that is
/// the answer. A timeout is not resent (a stalled Redis answers no sooner
/// for being asked twice), nor is any error Redis answered.
///
/// With sentinels, a primary demoted by a failover refuses a write with
/// `READONLY` before running it ([`no_longer_primary`]); the connection
/// then forgets it (see [`Sentinel`]), and one more try reaches the new
/// primary.
pub fn resend_once(e: &RedisError) -> bool {
    e.is_connection_dropped() || no_longer_primary(e)
}

/// Whether Redis refused the call because the server is a primary no
/// more (`READONLY`, `MASTERDOWN`): before running it, so sending it to
/// the new primary is safe.
pub fn no_longer_primary(e: &RedisError) -> bool {
    matches!(e.kind(), ErrorKind::Server(kind) if super::sentinel::demoted(Some(kind)))
}

/// A publish/subscribe connection, for notices of new table versions. On
/// a cluster any node will do (a notice published on one reaches all), so
/// the seed nodes are tried in turn; with sentinels, the primary they name
/// now.
pub async fn pubsub(config: &RedisConfig) -> RedisResult<redis::aio::PubSub> {
    let primary;
    let urls = match &config.endpoint {
        Endpoint::Single(url) => std::slice::from_ref(url),
        Endpoint::Cluster { nodes, .. } => nodes.as_slice(),
        Endpoint::Sentinel { sentinels, name } => {
            primary = Sentinel::new(config, sentinels, name).primary_url().await?;
            std::slice::from_ref(&primary)
        }
    };
    let mut last = None;
    for url in urls {
        let client = config.client(url)?;
        match tokio::time::timeout(config.connect_timeout, client.get_async_pubsub()).await {
            Ok(Ok(pubsub)) => return Ok(pubsub),
            Ok(Err(e)) => last = Some(e),
            Err(_) => last = Some(std::io::Error::from(std::io::ErrorKind::TimedOut).into()),
        }
    }
    Err(last.expect("an endpoint has at least one node"))
}

/// Whether `e` says that a cluster is moving the hash slot asked for, or
/// has just moved it: `TRYAGAIN` (a multi-key command, or a reservation
/// function, found its keys split between two nodes), or `MOVED` or `ASK`
/// still there once redis-rs has used its own retries (which follow them
/// at once, so the slot map is being read again by then). Redis refused
/// the command before running it, so sending it again after a pause is
/// safe; it succeeds once the slot has moved.
pub fn slot_moving(e: &RedisError) -> bool {
    matches!(
        e.kind(),
        ErrorKind::Server(
            ServerErrorKind::TryAgain | ServerErrorKind::Moved | ServerErrorKind::Ask
        )
    )
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Conn::Managed(c) => c.req_packed_command(cmd),
            Conn::Plain(c) => c.req_packed_command(cmd),
            Conn::Cluster(cluster) => Box::pin(async move {
                let mut conn = cluster.connection().await?;
                conn.req_packed_command(cmd).await
            }),
            Conn::Sentinel(sentinel) => Box::pin(async move {
                let mut primary = sentinel.connection().await?;
                let reply = primary.conn.req_packed_command(cmd).await;
                sentinel.after(&primary, reply.as_ref().map(std::slice::from_ref));
                reply
            }),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Conn::Managed(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Plain(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Cluster(cluster) => Box::pin(async move {
                let mut conn = cluster.connection().await?;
                conn.req_packed_commands(pipeline, offset, count).await
            }),
            Conn::Sentinel(sentinel) => Box::pin(async move {
                let mut primary = sentinel.connection().await?;
                let replies = primary
                    .conn
                    .req_packed_commands(pipeline, offset, count)
                    .await;
                sentinel.after(&primary, replies.as_deref());
                replies
            }),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Managed(c) => c.get_db(),
            Conn::Plain(c) => c.get_db(),
            Conn::Cluster(_) | Conn::Sentinel(_) => 0,
        }
    }
}
