//! How slugd reaches Redis.
//!
//! - [`config`]: URLs and cluster seed lists (passwords hidden), TLS, the
//!   timeouts, and the publish/subscribe connection.
//! - [`conn`]: the one connection type both the service and the loader
//!   talk through, over one server or a cluster, and how each opens it.
//! - [`cluster`]: what a cluster adds: the slot map and one pipeline per
//!   node.
//! - [`reply`]: what a pipeline's replies mean, shared by both.
//! - [`pool`]: connections lent to one call at a time, for commands that
//!   block the connection they are sent on (`WAIT`).
//!
//! The arrows run one way: `pool` uses `conn`, `conn` uses `cluster`, both
//! use `config` and `reply`.

pub mod cluster;
pub mod config;
pub mod conn;
pub mod pool;
mod reply;

pub use self::config::{Endpoint, RedisConfig, RedisUrl};
pub use self::conn::{Conn, resend_once, slot_moving};
pub use self::pool::Pool;
