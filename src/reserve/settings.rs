//! What `slugd serve` configures reservations with: the reserved words and
//! whether to wait for replicas before answering.

use std::sync::Arc;
use std::time::Duration;

use super::reserved::ReservedSlugs;

/// How reservations are made.
#[derive(Debug, Clone, Default)]
pub struct ReservationSettings {
    /// Slugs never handed out (`--reserved-slugs`).
    pub reserved: Arc<ReservedSlugs>,
    /// Wait for replicas before answering (`--reservation-replicas`).
    pub wait: Option<WaitReplicas>,
}

/// Redis's `WAIT` after each reservation: an answer only once this many
/// replicas have the write, so a failover to one of them loses nothing
/// acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitReplicas {
    /// How many replicas must have the write.
    pub replicas: u32,
    /// How long to wait for them, on top of the response timeout.
    pub timeout: Duration,
}
