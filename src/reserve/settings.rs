//! What `slugd serve` configures reservations with: the reserved words and
//! what a reservation waits for before it is answered (replicas, the
//! append-only file's fsync).

use std::sync::Arc;
use std::time::Duration;

use super::reserved::ReservedSlugs;

/// How reservations are made.
#[derive(Debug, Clone, Default)]
pub struct ReservationSettings {
    /// Slugs never handed out (`--reserved-slugs`).
    pub reserved: Arc<ReservedSlugs>,
    /// Wait for replicas, or the append-only file, before answering
    /// (`--reservation-replicas`, `--reservation-fsync`).
    pub wait: Option<WaitReplicas>,
}

/// What a reservation waits for after its write, in the same round trip:
/// Redis's `WAIT` for this many replicas, or, with `fsync`, `WAITAOF` for
/// the primary's append-only file on disk and this many replicas' too. An
/// answer comes only once that is so, so a crash-stop failover to one of
/// them (or a restart from the file) loses nothing acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitReplicas {
    /// How many replicas must have the write.
    pub replicas: u32,
    /// How long to wait for them, on top of the response timeout.
    pub timeout: Duration,
    /// Wait for the append-only file's fsync (`WAITAOF`, Redis 7.2 and
    /// Valkey): on the primary, and on each replica counted.
    pub fsync: bool,
    /// The most connections that wait at once: `WAIT` blocks the
    /// connection it is sent on, so each waiting call has one to itself.
    pub connections: usize,
}

impl WaitReplicas {
    /// The default of `connections`.
    pub const CONNECTIONS: usize = 64;

    /// Waiting for `replicas` within `timeout`, without fsync, with the
    /// default number of connections.
    pub fn replicas(replicas: u32, timeout: Duration) -> Self {
        WaitReplicas {
            replicas,
            timeout,
            fsync: false,
            connections: Self::CONNECTIONS,
        }
    }
}
