//! Which table version is live: the version last seen, read anew from
//! Redis when none is known yet or a request finds a name missing
//! ([`RedisTable::refresh`]), and the two ways a switch is noticed between
//! requests: the loader's switch notices ([`RedisTable::spawn_subscriber`])
//! and the periodic check ([`RedisTable::spawn_watcher`]).

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use redis::Value;

use super::{LoadedVersion, RedisTable};
use crate::redis_conn::RedisConfig;
use crate::table::error::TableError;
use crate::table::layout::{Meta, Version};

impl RedisTable {
    /// The version last seen, without asking Redis.
    pub fn live_version(&self) -> Option<Arc<LoadedVersion>> {
        self.live.read().expect("lock poisoned").clone()
    }

    /// The version in use, asking Redis only if none is known yet.
    pub async fn version(&self) -> Result<Arc<LoadedVersion>, TableError> {
        match self.live_version() {
            Some(v) => Ok(v),
            None => self.refresh().await,
        }
    }

    /// Asks Redis which version is live and reads its index if it is new.
    pub async fn refresh(&self) -> Result<Arc<LoadedVersion>, TableError> {
        // `current` and `meta` come from primaries even when buckets are
        // read from replicas: a lagging replica of another shard must not
        // make a version look damaged.
        let id: Option<Version> = self.read_primary("GET", self.keys.current()).await?;
        let Some(id) = id else {
            return Err(TableError::NotLoaded(self.keys.prefix().to_owned()));
        };
        if let Some(v) = self.live_version().filter(|v| v.version == id) {
            return Ok(v);
        }
        let meta: HashMap<String, String> =
            self.read_primary("HGETALL", self.keys.meta(id)).await?;
        let meta = Meta::from_fields(&meta)
            .map_err(|e| TableError::Damaged(format!("meta of version {id}: {e}")))?;
        let loaded = Arc::new(LoadedVersion { version: id, meta });
        tracing::info!(
            version = id,
            entries = loaded.meta.entries,
            bytes = loaded.meta.bytes,
            "using symbol table version"
        );
        *self.live.write().expect("lock poisoned") = Some(loaded.clone());
        self.cache.clear();
        Ok(loaded)
    }

    /// `command key` (a read), sent to the primary that holds `key`.
    async fn read_primary<T: redis::FromRedisValue>(
        &self,
        command: &str,
        key: String,
    ) -> Result<T, TableError> {
        let cmd = redis::cmd(command).arg(&key).clone();
        let what = format!("{command} {key}");
        let reply = self
            .call(|mut c| {
                let one = vec![(key.clone(), cmd.clone())];
                async move { c.per_node(one, false).await }
            })
            .await?
            .pop()
            .unwrap_or(Value::Nil);
        redis::from_redis_value(reply).map_err(|e| TableError::Damaged(format!("{what}: {e}")))
    }

    /// Listens for the loader's switch notices and refreshes at once on
    /// each; reconnects after a second when the connection drops. A
    /// notice missed meanwhile is caught by [`RedisTable::spawn_watcher`].
    pub fn spawn_subscriber(self: &Arc<Self>, config: RedisConfig) {
        let table: Weak<Self> = Arc::downgrade(self);
        let channel = self.keys.switched();
        tokio::spawn(async move {
            let mut told = false;
            loop {
                let subscribed = async {
                    let mut pubsub = crate::redis_conn::pubsub(&config).await?;
                    pubsub.subscribe(&channel).await?;
                    Ok::<_, redis::RedisError>(pubsub)
                };
                match subscribed.await {
                    Ok(pubsub) => {
                        told = false;
                        let mut notices = pubsub.into_on_message();
                        while notices.next().await.is_some() {
                            let Some(table) = table.upgrade() else { return };
                            if let Err(e) = table.refresh().await {
                                tracing::warn!(error = %e, "cannot read the announced table version");
                            }
                        }
                    }
                    Err(e) if !told => {
                        tracing::warn!(error = %e, channel, "cannot subscribe to switch notices; relying on the periodic check");
                        told = true;
                    }
                    Err(_) => {}
                }
                if table.strong_count() == 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    /// Keeps the live version fresh: asks Redis every `interval` until the
    /// table is dropped. Requests notice a switch by themselves; this makes
    /// a switch that adds characters visible to titles that would otherwise
    /// skip Redis.
    pub fn spawn_watcher(self: &Arc<Self>, interval: Duration) {
        let table: Weak<Self> = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(interval);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut last_error: Option<String> = None;
            loop {
                tick.tick().await;
                let Some(table) = table.upgrade() else { return };
                // On a cluster, also learn slot moves before they cost a
                // failed request.
                if let Err(e) = table
                    .call_uncounted(|c| async move { c.refresh_topology().await })
                    .await
                {
                    tracing::debug!(error = %e, "cannot read the cluster's slots");
                }
                match table.refresh().await {
                    Ok(_) => {
                        if last_error.take().is_some() {
                            tracing::info!("the symbol table in Redis is reachable again");
                        }
                    }
                    Err(e) => {
                        let text = e.to_string();
                        if last_error.as_deref() != Some(&text) {
                            tracing::warn!(error = %text, "cannot refresh the symbol table");
                            last_error = Some(text);
                        }
                    }
                }
            }
        });
    }
}
