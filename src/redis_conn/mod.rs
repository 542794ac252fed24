//! How slugd reaches Redis.
//!
//! - [`config`]: URLs, cluster seed lists and sentinels (passwords hidden),
//!   TLS and the timeouts.
//! - [`conn`]: the one connection type both the service and the loader
//!   talk through, over one server, a cluster or the primary sentinels
//!   name, how each opens it, and the publish/subscribe connection.
//! - [`cluster`]: what a cluster adds: the slot map and one pipeline per
//!   node.
//! - [`sentinel`]: the primary Redis Sentinel names, found again after a
//!   failover.
//! - [`reply`]: what a pipeline's replies mean, shared by both.
//! - [`pool`]: connections lent to one call at a time, for commands that
//!   block the connection they are sent on (`WAIT`).
//!
//! The arrows run one way: `pool` uses `conn` and `sentinel`, `conn` uses
//! `cluster` and `sentinel`, all use `config`; `conn` and `cluster` use
//! `reply`.

pub mod cluster;
pub mod config;
pub mod conn;
pub mod pool;
mod reply;
pub mod sentinel;

pub use self::config::{Endpoint, RedisConfig, RedisUrl};
pub use self::conn::{Conn, no_longer_primary, pubsub, resend_once, slot_moving};
pub use self::pool::Pool;
