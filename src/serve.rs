//! `slugd serve`: settings in, a running service out. [`Service::open`]
//! opens the table (and, on Redis, the reservations) and builds the
//! router; [`Service::run`] serves it on a listener the caller bound until
//! a shutdown future completes. `main` and the tests go through the same
//! two steps.
//!
//! An in-process table is read while the service already listens:
//! `/healthz` answers from the first moment, and `/readyz` and the slug
//! endpoints answer 503 `loading` (with `Retry-After`) until the table is
//! read. A table that cannot be read stops the service with the reason.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::net::TcpListener;

use crate::http::{self, AppState, BenchState, Limits, Shared};
use crate::metrics::{ConnectionMetrics, Metrics};
use crate::reserve::{ReservationSettings, Reservations};
use crate::slugger::Slugger;
use crate::table::{Loading, OpenError, SymbolTable, TableError, TableSettings};
use slugd_engine::options::Options;

/// Everything `slugd serve` is configured with.
#[derive(Debug, Clone)]
pub struct ServeSettings {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The slug options of `--defaults`, which requests override.
    pub defaults: Options,
    /// Where the table comes from.
    pub table: TableSettings,
    /// Request limits.
    pub limits: Limits,
    /// How reservations are made (Redis mode only).
    pub reservations: ReservationSettings,
    /// Who may use the reservation endpoints (`--auth-tokens`); empty:
    /// anyone.
    pub tokens: crate::auth::Tokens,
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

/// The service, ready to serve.
pub struct Service {
    router: http::App,
    /// How long a client may take to send a request head.
    header_timeout: Duration,
    /// The largest request head.
    header_bytes: usize,
    /// How long a write may wait for the client.
    send_timeout: Duration,
    /// Most connections open at once.
    max_connections: usize,
    /// What the accept loop counts, registered with the service's metrics
    /// when it opens so that a scrape shows them from the start.
    connection_metrics: ConnectionMetrics,
    /// Where the names come from, for the log line at start.
    source: String,
    /// Whether anyone may reserve and release: reservations on Redis
    /// without `--auth-tokens`.
    open_reservations: bool,
    /// The in-process table's reading, begun by [`Service::open`]: the
    /// service listens meanwhile, and stops if it fails.
    loading: Option<Loading>,
    /// The table, for [`Service::table_read`].
    table: SymbolTable,
}

/// The warning `serve` logs at start when anyone who reaches `addr` may
/// reserve and release: reservations without `--auth-tokens`, on an
/// address beyond loopback.
fn open_warning(addr: SocketAddr, open_reservations: bool) -> Option<&'static str> {
    (open_reservations && !addr.ip().is_loopback()).then_some(
        "reservations are open: anyone who reaches this address may reserve and release every slug of every scope; give --auth-tokens FILE (SLUGD_AUTH_TOKENS) to ask for bearer tokens",
    )
}

impl Service {
    /// Opens the table (an in-process one begins to be read, without
    /// waiting) and builds the router.
    pub async fn open(settings: &ServeSettings) -> Result<Service, OpenError> {
        let metrics = Metrics::new();
        let (table, loading) = SymbolTable::start(&settings.table, &metrics).await?;
        let source = match &settings.table.redis {
            Some(redis) => format!("redis {} prefix {}", redis.endpoint, settings.table.prefix),
            None => format!("in_process {}", settings.table.data),
        };
        let slugger = Slugger::new(table.clone());
        let bench = BenchState::new(
            slugger.clone(),
            settings.defaults.clone(),
            &settings.table,
            settings.limits.bench_iterations,
            metrics.bench_runs(),
        );
        let reservations = match &settings.table.redis {
            Some(config) => Some(Arc::new(
                Reservations::new(
                    slugger.clone(),
                    config,
                    &settings.table.prefix,
                    &settings.reservations,
                    metrics.reservation_calls(),
                )
                .map_err(|e| OpenError::Redis(TableError::Unavailable(e.to_string())))?,
            )),
            None => None,
        };
        if let Some(reservations) = &reservations {
            reservations
                .check_fsync()
                .await
                .map_err(|e| OpenError::Reservations(e.to_string()))?;
        }
        let connection_metrics = metrics.connections(settings.limits.max_connections);
        let open_reservations = reservations.is_some() && !settings.tokens.enabled();
        let state = AppState::new(Shared {
            slugger,
            defaults: Arc::new(settings.defaults.clone()),
            limits: Arc::new(settings.limits.clone()),
            reservations,
            tokens: Arc::new(settings.tokens.clone()),
            metrics,
            openapi: OnceLock::new(),
        });
        Ok(Service {
            router: http::router(state, Arc::new(bench)),
            header_timeout: settings.limits.header_timeout,
            header_bytes: settings.limits.header_bytes,
            send_timeout: settings.limits.send_timeout,
            max_connections: settings.limits.max_connections,
            connection_metrics,
            source,
            open_reservations,
            loading,
            table,
        })
    }

    /// Completes once the table can answer: at once on Redis (which
    /// answers or not by itself), once it is read in-process (never, if
    /// it cannot be: [`Service::run`] then stops with the reason).
    pub fn table_read(&self) -> impl Future<Output = ()> + Send + 'static {
        let table = self.table.clone();
        async move {
            if let SymbolTable::InProcess(table) = table {
                table.until_read().await;
            }
        }
    }

    /// Serves on `listener` until `shutdown` completes, then lets requests
    /// in flight finish; an in-process table that cannot be read stops it
    /// at once, with the reason.
    pub async fn run(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let addr = listener.local_addr().map_err(ServeError::Serve)?;
        tracing::info!(%addr, names = %self.source, "slugd listening");
        if let Some(warning) = open_warning(addr, self.open_reservations) {
            tracing::warn!(%addr, "{warning}");
        }
        let connections = http::Connections {
            header_timeout: self.header_timeout,
            header_bytes: self.header_bytes,
            send_timeout: self.send_timeout,
            max: self.max_connections,
            metrics: self.connection_metrics,
        };
        let serving = http::serve(listener, self.router, connections, shutdown);
        let Some(loading) = self.loading else {
            return serving.await.map_err(ServeError::Serve);
        };
        tokio::pin!(serving);
        tokio::select! {
            served = &mut serving => served.map_err(ServeError::Serve),
            loaded = loading.finished() => {
                loaded?;
                serving.await.map_err(ServeError::Serve)
            }
        }
    }
}

/// `slugd serve`: opens the service, binds `settings.listen` and serves
/// until `shutdown` completes.
pub(crate) async fn run(
    settings: ServeSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    // Bound first: an orchestrator sees the port and /healthz at once,
    // however long the table takes to read.
    let listener = http::bind(settings.listen).map_err(|source| ServeError::Bind {
        addr: settings.listen,
        source,
    })?;
    let service = Service::open(&settings).await?;
    service.run(listener, shutdown).await
}

/// Completes on Ctrl-C or SIGTERM.
pub(crate) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_reservations_beyond_loopback_are_warned_of() {
        let public: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let v6: SocketAddr = "[::]:8080".parse().unwrap();
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let warning = open_warning(public, true).unwrap();
        assert!(warning.contains("reservations are open") && warning.contains("--auth-tokens"));
        assert!(open_warning(v6, true).is_some());
        assert_eq!(open_warning(loopback, true), None);
        assert_eq!(open_warning("[::1]:8080".parse().unwrap(), true), None);
        // With tokens, or in-process (no reservations), nothing to warn of.
        assert_eq!(open_warning(public, false), None);
    }
}
