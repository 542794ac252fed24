//! The accept loop: serves a router on a listener the caller bound, until a
//! shutdown future completes.

use std::future::Future;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder as ConnBuilder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use super::edge::App;

/// Serves the API on `listener` until `shutdown` completes, then stops
/// accepting and lets requests in flight finish.
///
/// A hand-written accept loop rather than `axum::serve`, for one reason:
/// `axum::serve` sets no timer, so a client trickling in its request
/// headers would hold a connection for ever. Here hyper closes a connection
/// whose headers take longer than `header_timeout`.
pub async fn serve(
    listener: TcpListener,
    app: App,
    header_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut builder = ConnBuilder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
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
        let service = TowerToHyperService::new(app.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
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
