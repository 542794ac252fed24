//! Connections lent out one call at a time, for commands that block the
//! connection they are sent on: `WAIT` and `WAITAOF` hold their connection
//! until the replicas answer, so calls that share one multiplexed
//! connection would wait in turn, each behind every other's replicas. A
//! call that waits takes a connection of its own from the pool, and gives
//! it back when it has its answer.
//!
//! The pool is bounded: at most `size` connections, opened when first
//! needed (the loader's kind, [`Conn::for_loader`], which fails rather
//! than reconnects; with sentinels, to the primary the shared connection
//! found, with no look-up of their own), kept while they work. A call waits for a free one
//! within its own timeout. A connection whose call failed without an
//! answer from Redis, or was given up (a timeout dropped the call), is
//! closed rather than given back, since a reply may still be on its way;
//! one found dead closes the idle ones too, which died with it (Redis
//! restarted).

use std::sync::Mutex;

use redis::RedisResult;
use tokio::sync::{Semaphore, SemaphorePermit};

use super::config::RedisConfig;
use super::conn::Conn;
use super::sentinel::Sentinel;

/// The most connections a pool may hold.
pub const MAX_SIZE: usize = 4096;

/// A bounded pool of connections, each lent to one call at a time.
pub struct Pool {
    /// Where new connections go.
    opener: Opener,
    /// The connections not lent now, the last given back first.
    idle: Mutex<Vec<Conn>>,
    /// One permit a connection, idle or lent: the bound.
    permits: Semaphore,
}

/// How the pool opens a connection.
enum Opener {
    /// As the loader does, to `config`'s Redis.
    Config(RedisConfig),
    /// To the primary the shared connection's sentinels found.
    Sentinel(Sentinel),
}

/// A connection lent by [`Pool::lend`]; it goes back to the pool when
/// dropped after [`Lent::answered`], and is closed otherwise.
pub struct Lent<'a> {
    pool: &'a Pool,
    conn: Option<Conn>,
    answered: bool,
    _permit: SemaphorePermit<'a>,
}

impl Pool {
    /// A pool of at most `size` (up to [`MAX_SIZE`]) connections to the
    /// Redis of `shared` (the service's connection) and `config`. Opens
    /// nothing yet.
    pub fn new(shared: &Conn, config: &RedisConfig, size: usize) -> Self {
        let opener = match shared {
            Conn::Sentinel(sentinel) => Opener::Sentinel(sentinel.clone()),
            _ => Opener::Config(config.clone()),
        };
        Pool {
            opener,
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(size.clamp(1, MAX_SIZE)),
        }
    }

    /// A connection of the caller's own: an idle one, or a new one. Waits
    /// while every connection is lent (the caller bounds the wait).
    pub async fn lend(&self) -> RedisResult<Lent<'_>> {
        let permit = self
            .permits
            .acquire()
            .await
            .expect("the pool's semaphore is never closed");
        let idle = self.idle.lock().expect("the pool's lock").pop();
        let conn = match (idle, &self.opener) {
            (Some(conn), _) => conn,
            (None, Opener::Config(config)) => Conn::for_loader(config).await?,
            (None, Opener::Sentinel(sentinel)) => Conn::Plain(sentinel.open().await?),
        };
        Ok(Lent {
            pool: self,
            conn: Some(conn),
            answered: false,
            _permit: permit,
        })
    }
}

impl Lent<'_> {
    /// The connection.
    pub fn conn(&mut self) -> &mut Conn {
        self.conn
            .as_mut()
            .expect("a lent connection is there until dropped")
    }

    /// Marks the call answered: Redis replied (an error reply too), so
    /// the connection is in step and may serve another call.
    pub fn answered(&mut self) {
        self.answered = true;
    }

    /// Closes this connection and every idle one: this one was found
    /// dead, or its server a primary no more, and the others, opened to
    /// the same server, most likely are too. With sentinels, the primary
    /// is looked up again.
    pub fn dead(&mut self) {
        self.conn = None;
        self.pool.idle.lock().expect("the pool's lock").clear();
        if let Opener::Sentinel(sentinel) = &self.pool.opener {
            sentinel.forget();
        }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take()
            && self.answered
        {
            self.pool.idle.lock().expect("the pool's lock").push(conn);
        }
    }
}
