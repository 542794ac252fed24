//! Redis Cluster: redis-rs's cluster connection (opened lazily, so the
//! service starts while the cluster is down), the map of which primary holds
//! which hash slots (from `CLUSTER SLOTS`), and batches sent as one pipeline
//! per node.
//!
//! redis-rs sends a pipeline to one slot's node and refuses one whose keys
//! are in different slots. A table read needs keys spread over many slots,
//! so [`Cluster::per_node`] groups the keys by the primary that holds their
//! slot and sends each group as a pipeline routed by the slot of its first
//! key: every key of the group is on that node, so Redis answers them all.
//! If the map is stale (slots moved), Redis answers `MOVED`; the call fails,
//! the map is read again in the background and the next call is right.
//!
//! redis-rs learns a shard's replicas when it connects, and Redis lists a
//! replica in `CLUSTER SLOTS` only once it has replicated something: a
//! service that connected to a fresh cluster before the first load would
//! read from primaries for ever. So, when reading from replicas, each map
//! refresh (the service's periodic check) asks, for each shard the map
//! lists replicas for, which role the node redis-rs routes its reads to
//! has (`ROLE`); if it is a primary, redis-rs does not know the replicas
//! yet, and a new connection is opened.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use redis::cluster::{ClusterClient, ClusterClientBuilder};
use redis::cluster_async::ClusterConnection;
use redis::cluster_read_routing::RandomReplicaStrategy;
use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use redis::{Cmd, FromRedisValue, RedisResult, Value};
use tokio::sync::Mutex;

use super::config::{RedisConfig, RedisUrl};
use super::reply::errors_to_err;

/// Hash slots in a Redis Cluster.
pub const SLOTS: u16 = 16384;

/// A node by address; the default value stands for the one server of a
/// single-server connection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Node {
    /// Host as the cluster announces it.
    pub host: String,
    /// Port.
    pub port: u16,
}

/// A connection to a Redis Cluster. Clones share it.
#[derive(Clone)]
pub struct Cluster(Arc<Inner>);

struct Inner {
    client: ClusterClient,
    /// The connection, `None` until first opened.
    conn: RwLock<Option<ClusterConnection>>,
    /// Held while opening a connection, so one opens at a time.
    connecting: Mutex<()>,
    connect_timeout: Duration,
    seeds: usize,
    read_from_replicas: bool,
    slots: RwLock<Arc<SlotMap>>,
    refreshing: AtomicBool,
}

/// Which primary holds which slots.
#[derive(Debug, Default)]
struct SlotMap {
    /// `(first slot, last slot, index into primaries)`, sorted.
    ranges: Vec<(u16, u16, usize)>,
    primaries: Vec<Node>,
    /// The first slot of each range that has replicas.
    with_replicas: Vec<u16>,
}

impl SlotMap {
    fn primary_of(&self, slot: u16) -> Option<usize> {
        let i = self.ranges.partition_point(|&(_, last, _)| last < slot);
        self.ranges
            .get(i)
            .filter(|&&(first, _, _)| first <= slot)
            .map(|&(_, _, p)| p)
    }

    /// Parses a `CLUSTER SLOTS` reply.
    fn parse(reply: Value) -> RedisResult<Self> {
        let mut map = SlotMap::default();
        for range in Vec::<Vec<Value>>::from_redis_value(reply)? {
            let mut fields = range.into_iter();
            let (Some(first), Some(last), Some(primary)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(bad_reply("a slot range with fewer than 3 fields"));
            };
            let first = u16::from_redis_value(first)?;
            let last = u16::from_redis_value(last)?;
            let mut primary = Vec::<Value>::from_redis_value(primary)?.into_iter();
            let (Some(host), Some(port)) = (primary.next(), primary.next()) else {
                return Err(bad_reply("a node without host and port"));
            };
            let node = Node {
                host: String::from_redis_value(host)?,
                port: u16::from_redis_value(port)?,
            };
            let index = match map.primaries.iter().position(|n| *n == node) {
                Some(i) => i,
                None => {
                    map.primaries.push(node);
                    map.primaries.len() - 1
                }
            };
            map.ranges.push((first, last, index));
            if fields.next().is_some() {
                map.with_replicas.push(first);
            }
        }
        map.ranges.sort_unstable();
        Ok(map)
    }
}

fn bad_reply(what: &'static str) -> redis::RedisError {
    (
        redis::ErrorKind::Parse,
        "unexpected CLUSTER SLOTS reply",
        what.to_owned(),
    )
        .into()
}

/// The hash slot of `key`: CRC16 of the key, or of its hash tag (the text
/// inside the first `{...}`, when not empty), modulo 16384.
pub fn slot_of(key: &[u8]) -> u16 {
    let hashed = key
        .iter()
        .position(|&b| b == b'{')
        .and_then(|open| {
            let rest = &key[open + 1..];
            let close = rest.iter().position(|&b| b == b'}')?;
            (close > 0).then(|| &rest[..close])
        })
        .unwrap_or(key);
    crc16::State::<crc16::XMODEM>::calculate(hashed) % SLOTS
}

impl Cluster {
    /// A connection, not yet opened, to the cluster with seed `nodes`;
    /// `config` gives the timeouts and the CA.
    pub fn new(
        config: &RedisConfig,
        nodes: &[RedisUrl],
        read_from_replicas: bool,
    ) -> RedisResult<Self> {
        let mut builder = ClusterClientBuilder::new(nodes.iter().map(|n| n.expose().to_owned()))
            .connection_timeout(config.connect_timeout)
            .response_timeout(config.response_timeout)
            // A request waits at most one response timeout anyway.
            .retries(2)
            // What redis-rs waits before sending again after TRYAGAIN (a
            // slot moving), CLUSTERDOWN or LOADING: 10 to 20 ms, then 10
            // to 40 ms, rather than its default of more than 1.28 s, which
            // no request's response timeout (500 ms by default) leaves
            // room for. Callers that may send again do so within their
            // timeout (see `slot_moving`).
            .min_retry_wait(10)
            .max_retry_wait(100)
            .retry_wait_formula(10, 2);
        if let Some(certs) = config.certificates() {
            builder = builder.certs(certs);
        }
        if read_from_replicas {
            builder = builder.read_routing_strategy(RandomReplicaStrategy);
        }
        Ok(Cluster(Arc::new(Inner {
            client: builder.build()?,
            conn: RwLock::new(None),
            connecting: Mutex::new(()),
            connect_timeout: config.connect_timeout,
            seeds: nodes.len(),
            read_from_replicas,
            slots: RwLock::new(Arc::default()),
            refreshing: AtomicBool::new(false),
        })))
    }

    /// Whether reads may go to replicas.
    pub fn reads_from_replicas(&self) -> bool {
        self.0.read_from_replicas
    }

    /// Connects now if not connected yet.
    pub async fn connect(&self) -> RedisResult<()> {
        self.connection().await.map(drop)
    }

    /// The cluster connection, opened on first use (and tried again on the
    /// next use if that fails). redis-rs follows the cluster's slots and
    /// reconnects to its nodes by itself afterwards.
    pub(super) async fn connection(&self) -> RedisResult<ClusterConnection> {
        if let Some(conn) = self.current() {
            return Ok(conn);
        }
        let _one_at_a_time = self.0.connecting.lock().await;
        if let Some(conn) = self.current() {
            return Ok(conn);
        }
        self.reconnect().await
    }

    fn current(&self) -> Option<ClusterConnection> {
        self.0.conn.read().expect("lock poisoned").clone()
    }

    /// Opens a new connection and reads the slot map through it.
    async fn reconnect(&self) -> RedisResult<ClusterConnection> {
        // Every seed may take one connect timeout.
        let conn = tokio::time::timeout(
            self.0.connect_timeout * self.0.seeds as u32,
            self.0.client.get_async_connection(),
        )
        .await
        .map_err(|_| {
            redis::RedisError::from(std::io::Error::from(std::io::ErrorKind::TimedOut))
        })??;
        *self.0.conn.write().expect("lock poisoned") = Some(conn.clone());
        self.read_slots(&mut conn.clone()).await?;
        Ok(conn)
    }

    fn slot_map(&self) -> Arc<SlotMap> {
        self.0.slots.read().expect("lock poisoned").clone()
    }

    /// Reads which node holds which slots again; when reading from
    /// replicas and redis-rs still sends a shard's reads to its primary
    /// although the cluster lists replicas for it, opens a new connection
    /// that knows them.
    pub async fn refresh_slots(&self) -> RedisResult<()> {
        let mut conn = self.connection().await?;
        let map = self.read_slots(&mut conn).await?;
        if !self.0.read_from_replicas {
            return Ok(());
        }
        for &slot in &map.with_replicas {
            let route =
                SingleNodeRoutingInfo::SpecificNode(Route::new(slot, SlotAddr::ReplicaOptional));
            let role = conn
                .route_command(redis::cmd("ROLE").clone(), RoutingInfo::SingleNode(route))
                .await?;
            let role: Vec<Value> = Vec::from_redis_value(role)?;
            if let Some(Value::BulkString(role)) = role.first()
                && role == b"master"
            {
                let _one_at_a_time = self.0.connecting.lock().await;
                tracing::info!(
                    slot,
                    "the cluster lists replicas reads do not reach yet; reconnecting"
                );
                self.reconnect().await?;
                break;
            }
        }
        Ok(())
    }

    async fn read_slots(&self, conn: &mut ClusterConnection) -> RedisResult<Arc<SlotMap>> {
        let reply = conn
            .route_command(
                redis::cmd("CLUSTER").arg("SLOTS").clone(),
                RoutingInfo::SingleNode(SingleNodeRoutingInfo::Random),
            )
            .await?;
        let map = Arc::new(SlotMap::parse(reply)?);
        *self.0.slots.write().expect("lock poisoned") = map.clone();
        Ok(map)
    }

    /// Refreshes the slot map in the background, once at a time.
    fn refresh_slots_soon(&self) {
        if self.0.refreshing.swap(true, Ordering::AcqRel) {
            return;
        }
        let cluster = self.clone();
        tokio::spawn(async move {
            let bound = cluster.0.connect_timeout * 2;
            if let Ok(Err(e)) = tokio::time::timeout(bound, cluster.refresh_slots()).await {
                tracing::debug!(error = %e, "cannot read the cluster's slots yet");
            }
            cluster.0.refreshing.store(false, Ordering::Release);
        });
    }

    /// See [`super::conn::Conn::per_node`].
    pub(super) async fn per_node(
        &self,
        cmds: Vec<(String, Cmd)>,
        read: bool,
    ) -> RedisResult<Vec<Value>> {
        let conn = self.connection().await?;
        let map = self.slot_map();
        let count = cmds.len();
        // One group per primary: its index, or (unknown slot) the slot
        // itself above every index; with the slot of its first key, the
        // positions of its commands and its pipeline.
        let mut groups: Vec<(usize, u16, Vec<usize>, redis::Pipeline)> = Vec::new();
        for (i, (key, cmd)) in cmds.into_iter().enumerate() {
            let slot = slot_of(key.as_bytes());
            let group = map
                .primary_of(slot)
                .unwrap_or(map.primaries.len() + slot as usize);
            let at = match groups.iter().position(|(g, ..)| *g == group) {
                Some(at) => at,
                None => {
                    groups.push((group, slot, Vec::new(), redis::pipe()));
                    groups.len() - 1
                }
            };
            groups[at].2.push(i);
            groups[at].3.add_command(cmd);
        }
        let addr = match read && self.0.read_from_replicas {
            true => SlotAddr::ReplicaOptional,
            false => SlotAddr::Master,
        };
        let sends = groups.into_iter().map(|(_, slot, members, pipe)| {
            let mut conn = conn.clone();
            let route = SingleNodeRoutingInfo::SpecificNode(Route::new(slot, addr));
            async move {
                let values = conn.route_pipeline(pipe, 0, members.len(), route).await?;
                Ok::<_, redis::RedisError>((members, values))
            }
        });
        let replies = match futures_util::future::try_join_all(sends).await {
            Ok(replies) => replies,
            Err(e) => {
                self.refresh_slots_soon();
                return Err(e);
            }
        };
        let mut ordered = vec![Value::Nil; count];
        for (members, values) in replies {
            if values.len() != members.len() {
                return Err(bad_reply("a pipeline answered the wrong number of replies"));
            }
            for (i, value) in members.into_iter().zip(values) {
                ordered[i] = value;
            }
        }
        errors_to_err(ordered).inspect_err(|_| self.refresh_slots_soon())
    }

    /// Every primary, as the slot map knows them.
    pub(super) async fn primaries(&self) -> RedisResult<Vec<Node>> {
        self.refresh_slots().await?;
        Ok(self.slot_map().primaries.clone())
    }

    /// Runs `cmd` on `node`.
    pub(super) async fn on_node<T: FromRedisValue>(&self, node: &Node, cmd: Cmd) -> RedisResult<T> {
        let mut conn = self.connection().await?;
        let route = SingleNodeRoutingInfo::ByAddress {
            host: node.host.clone(),
            port: node.port,
        };
        let value = conn
            .route_command(cmd, RoutingInfo::SingleNode(route))
            .await?;
        Ok(T::from_redis_value(value)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_redis_cluster_hashing() {
        // Values from the Redis Cluster specification and `CLUSTER KEYSLOT`.
        assert_eq!(slot_of(b"123456789"), 0x31C3 % SLOTS);
        assert_eq!(slot_of(b"foo"), 12182);
        assert_eq!(slot_of(b"{user1000}.following"), slot_of(b"user1000"));
        // An empty tag does not count: the whole key is hashed.
        let whole = crc16::State::<crc16::XMODEM>::calculate(b"foo{}{bar}") % SLOTS;
        assert_eq!(slot_of(b"foo{}{bar}"), whole);
        assert_eq!(slot_of(b"foo{{bar}}zap"), slot_of(b"{bar"));
    }

    #[test]
    fn slot_map_finds_the_primary_of_each_slot() {
        let node = |host: &str, port: i64| {
            Value::Array(vec![
                Value::BulkString(host.as_bytes().to_vec()),
                Value::Int(port),
                Value::BulkString(b"id".to_vec()),
            ])
        };
        let range = |a: i64, b: i64, n: Value| Value::Array(vec![Value::Int(a), Value::Int(b), n]);
        let reply = Value::Array(vec![
            range(5461, 10922, node("127.0.0.1", 7001)),
            Value::Array(vec![
                Value::Int(0),
                Value::Int(5460),
                node("127.0.0.1", 7000),
                node("127.0.0.1", 7003),
            ]),
            range(10923, 16383, node("127.0.0.1", 7002)),
        ]);
        let map = SlotMap::parse(reply).unwrap();
        let port = |slot| map.primaries[map.primary_of(slot).unwrap()].port;
        assert_eq!(port(0), 7000);
        assert_eq!(port(5460), 7000);
        assert_eq!(port(5461), 7001);
        assert_eq!(port(16383), 7002);
        assert_eq!(map.primaries.len(), 3);
        assert_eq!(map.with_replicas, vec![0]);
        assert!(SlotMap::default().primary_of(7).is_none());
    }
}
