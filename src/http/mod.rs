//! The HTTP service. This file only names the parts; none of them imports
//! it.
//!
//! - [`router`]: the whole API in one router.
//! - [`slug`]: `POST /slug`, `GET /slug`, `POST /slugs`
//! - [`bench`]: `GET /bench`, with its own state
//! - [`health`]: `GET /healthz`, `GET /readyz`
//! - [`state`]: what every handler shares, and the request limits
//! - [`json`]: the JSON extractor every handler uses
//! - [`error`]: the one error type
//! - [`server`]: the accept loop, on a listener the caller bound

pub mod bench;
pub mod error;
pub mod health;
pub mod json;
pub mod router;
pub mod server;
pub mod slug;
pub mod state;

pub use self::bench::BenchState;
pub use self::error::ApiError;
pub use self::router::router;
pub use self::server::serve;
pub use self::state::{AppState, Limits};
