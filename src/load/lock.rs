//! The load lock (`{p}lock`): one loader at a time. A guard type: taking it
//! returns a [`LoadLock`], renewing proves it is still ours, releasing
//! consumes it, and a guard dropped without a release (a load cancelled
//! half-way) releases it in the background. A loader that is killed leaves
//! a lock that expires within [`LOCK_TTL`]; the next loader waits for it.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redis::Script;

use super::error::{LoadError, redis_err};
use crate::redis_conn::Conn;
use crate::table::layout::Keys;

/// How long the load lock lives without renewal.
pub const LOCK_TTL: Duration = Duration::from_secs(10);

/// Renews the lock if it is still ours.
const RENEW_LOCK: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0";

/// Releases the lock if it is still ours.
const RELEASE_LOCK: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0";

/// The held load lock.
pub(crate) struct LoadLock {
    conn: Conn,
    key: String,
    /// What this loader wrote into the lock, so it only ever renews,
    /// releases or switches under a lock it took itself.
    token: String,
    /// Set once released, so `Drop` does not release twice.
    released: bool,
}

impl LoadLock {
    /// Takes the lock, waiting up to `wait` for another loader's.
    pub(crate) async fn acquire(
        mut conn: Conn,
        keys: &Keys,
        wait: Duration,
    ) -> Result<LoadLock, LoadError> {
        let key = keys.lock();
        let token = token();
        let started = Instant::now();
        let mut told = false;
        loop {
            let took: Option<String> = redis::cmd("SET")
                .arg(&key)
                .arg(&token)
                .arg("NX")
                .arg("PX")
                .arg(LOCK_TTL.as_millis() as u64)
                .query_async(&mut conn)
                .await
                .map_err(redis_err("taking the load lock"))?;
            if took.is_some() {
                return Ok(LoadLock {
                    conn,
                    key,
                    token,
                    released: false,
                });
            }
            if started.elapsed() >= wait {
                return Err(LoadError::Locked {
                    key,
                    waited: started.elapsed(),
                });
            }
            if !told {
                tracing::info!(lock = %key, "another load holds the lock; waiting");
                told = true;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// What the switch script checks the lock against.
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// Extends the lock's life; fails if it expired and is no longer ours.
    pub(crate) async fn renew(&mut self) -> Result<(), LoadError> {
        let renewed: i64 = Script::new(RENEW_LOCK)
            .key(&self.key)
            .arg(&self.token)
            .arg(LOCK_TTL.as_millis() as u64)
            .invoke_async(&mut self.conn)
            .await
            .map_err(redis_err("renewing the load lock"))?;
        match renewed {
            1 => Ok(()),
            _ => Err(LoadError::LostLock { ttl: LOCK_TTL }),
        }
    }

    /// Releases the lock if it is still ours. Best effort: if Redis is gone
    /// the lock expires by itself.
    pub(crate) async fn release(mut self) {
        self.released = true;
        if let Err(e) = release(&mut self.conn, &self.key, &self.token).await {
            tracing::warn!(error = %e, "could not release the load lock; it expires by itself");
        }
    }
}

impl Drop for LoadLock {
    fn drop(&mut self) {
        if self.released {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (mut conn, key, token) = (self.conn.clone(), self.key.clone(), self.token.clone());
        runtime.spawn(async move {
            let _ = release(&mut conn, &key, &token).await;
        });
    }
}

async fn release(conn: &mut Conn, key: &str, token: &str) -> Result<(), LoadError> {
    let _: i64 = Script::new(RELEASE_LOCK)
        .key(key)
        .arg(token)
        .invoke_async(conn)
        .await
        .map_err(redis_err("releasing the load lock"))?;
    Ok(())
}

fn token() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}
