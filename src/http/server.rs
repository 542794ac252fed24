//! The accept loop: serves a router on a listener the caller bound, at most
//! a given number of connections at a time, until a shutdown future
//! completes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder as ConnBuilder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use metrics::Gauge;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::edge::App;

/// What the accept loop holds connections to.
pub(crate) struct Connections {
    /// How long a client may take to send its headers before hyper closes
    /// the connection.
    pub header_timeout: Duration,
    /// Most connections open at once. Beyond it the loop stops accepting,
    /// so new connections wait in the kernel's listen backlog (see
    /// [`serve`]).
    pub max: usize,
    /// The open connections, `slugd_http_connections_open`.
    pub open: Gauge,
}

/// Serves the API on `listener` until `shutdown` completes, then stops
/// accepting and lets requests in flight finish.
///
/// A hand-written accept loop rather than `axum::serve`, for two reasons.
/// `axum::serve` sets no timer, so a client trickling in its request
/// headers would hold a connection for ever; here hyper closes a connection
/// whose headers take longer than `header_timeout`. And `axum::serve`
/// accepts every connection, so a flood of idle ones takes memory without
/// bound (issue 18: 19,500 connections, 327 MB); here at most
/// `connections.max` are open.
///
/// At the cap the loop waits for a connection to close before it accepts
/// the next, rather than accepting and closing: a client beyond the cap
/// gets no error, only a wait, in the kernel's listen backlog, which costs
/// this process nothing (and once the backlog is full too, the kernel drops
/// new handshakes, which clients retry by themselves). A flood of
/// connections that never send their headers holds the slots until the
/// header timeout frees them; the clients behind it are served in turn.
pub(crate) async fn serve(
    listener: TcpListener,
    app: App,
    connections: Connections,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut builder = ConnBuilder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(connections.header_timeout);
    let slots = Arc::new(Semaphore::new(connections.max.min(Semaphore::MAX_PERMITS)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait, do not spin.
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let open = OpenConnection::new(slot, &connections.open);
        let service = TowerToHyperService::new(app.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _open = open;
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
        });
    }
    // New connections are refused from here on; those open finish the
    // request they are serving.
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// One accepted connection's slot under the cap, counted in the gauge of
/// open connections; dropping it frees the slot.
struct OpenConnection {
    _slot: OwnedSemaphorePermit,
    open: Gauge,
}

impl OpenConnection {
    fn new(slot: OwnedSemaphorePermit, open: &Gauge) -> Self {
        open.increment(1.0);
        OpenConnection {
            _slot: slot,
            open: open.clone(),
        }
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.open.decrement(1.0);
    }
}
