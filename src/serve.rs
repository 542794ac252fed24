//! `slugd serve`: settings in, a running service out. Opens the table,
//! binds the listener and serves until the shutdown future completes.

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;

use crate::http::{self, AppState, BenchSources, Limits};
use crate::table::{OpenError, TableSettings};

/// Everything `slugd serve` is configured with.
#[derive(Debug, Clone)]
pub struct ServeSettings {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Where the table comes from.
    pub table: TableSettings,
    /// Request limits.
    pub limits: Limits,
}

/// Why the service could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The table could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("the HTTP server failed")]
    Serve(#[source] std::io::Error),
}

/// The service's state for `settings`: opens the table.
pub async fn state(settings: &ServeSettings) -> Result<AppState, OpenError> {
    let table = settings.table.open().await?;
    let sources = BenchSources {
        data: settings.table.data.clone(),
        no_redis_reason:
            "this service runs in-process: start it with --redis-url to compare with Redis"
                .to_owned(),
        categories: settings.table.categories.clone(),
    };
    Ok(AppState::new(table, settings.limits.clone(), sources))
}

/// Runs the service until `shutdown` completes.
pub async fn run(
    settings: ServeSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let state = state(&settings).await?;
    let listener = TcpListener::bind(settings.listen)
        .await
        .map_err(|source| ServeError::Bind {
            addr: settings.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(ServeError::Serve)?;
    match &settings.table.redis {
        Some(redis) => {
            tracing::info!(%addr, mode = "redis", redis = %redis.endpoint, prefix = %settings.table.prefix, "slugd listening")
        }
        None => {
            tracing::info!(%addr, mode = "in_process", data = %settings.table.data.display(), "slugd listening")
        }
    }
    http::serve(listener, state, shutdown)
        .await
        .map_err(ServeError::Serve)
}
