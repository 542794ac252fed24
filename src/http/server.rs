//! The accept loop and each connection's life: serves a router on a
//! listener the caller bound, in at most `--max-connections` slots
//! (`http::admission` keeps the ledger), until a shutdown future
//! completes.
//!
//! A hand-written loop rather than `axum::serve`, which sets no timer and
//! accepts without bound, for what a client may hold:
//!
//! - **A connection that has sent nothing** costs a task and a socket, no
//!   more: hyper, and its two 8 KiB buffers, come only with the first
//!   bytes. Its whole first head must arrive within `--header-timeout-ms`
//!   of accept, whether nothing comes or it trickles in; later heads on a
//!   kept-alive connection within as long after the previous answer
//!   (hyper's header timer), which is also how long an idle connection is
//!   kept.
//! - **At the cap**, the connection that has waited longest for a request
//!   (silent, trickling its head, or idle between requests) is closed to
//!   make room, oldest first, as nginx does: a client with a request in
//!   hand never waits behind idle ones. A connection whose request the
//!   service has is never closed for room; only with every slot busy (or
//!   as many chosen connections still closing as there are slots) does a
//!   newcomer wait, in the kernel's listen backlog.
//! - **A head over `--max-header-bytes`** (or of more than 100 headers)
//!   gets hyper's 431 and the connection is closed; hyper's read buffer is
//!   held to the limit, or 64 KiB if that is more (a head is checked
//!   before each read, so it may fill that before the 431).
//! - **An answer left unread** holds its connection no longer than
//!   `--send-timeout-ms`: a write that makes no progress that long ends it.
//! - **HTTP/2** is not spoken: a client that opens with HTTP/2's preface
//!   is told so in HTTP/2's own words (GOAWAY, `HTTP_1_1_REQUIRED`) and
//!   closed. slugd's clients (proxies, CMSs, curl, browsers over plain
//!   HTTP) speak HTTP/1.1, and HTTP/1.1 alone is protected as above.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{Request, Response};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use pin_project_lite::pin_project;
use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::time::{Instant, sleep_until};
use tokio_io_timeout::TimeoutStream;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::Service;

use super::admission::{Admission, Conn, Start};
use super::edge::App;
use crate::metrics::ConnectionMetrics;

/// What the accept loop holds connections to.
pub(crate) struct Connections {
    /// How long a client may take to send a request head: the first from
    /// accept, each next from the previous answer.
    pub header_timeout: Duration,
    /// The largest request head, request line and headers (431 above).
    pub header_bytes: usize,
    /// How long a write to a client may wait for it to take the bytes.
    pub send_timeout: Duration,
    /// Most connections holding a slot at once.
    pub max: usize,
    /// What the loop counts.
    pub metrics: ConnectionMetrics,
}

/// How long a refused HTTP/2 client is given to take its GOAWAY.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// The most of a refused HTTP/2 client's bytes read (and thrown away)
/// while it is told to go: reading them lets the close be a clean one, so
/// the client gets the GOAWAY rather than a reset.
const HTTP2_DRAIN_BYTES: usize = 64 * 1024;

/// hyper's read buffer while a body streams in, when the head limit is
/// lower: bodies are read in pieces of at most this.
const MIN_READ_BUFFER: usize = 64 * 1024;

/// How many connections the kernel may complete and hold for the accept
/// loop. A burst beyond it is not answered (the kernel drops the
/// handshakes, and clients send them again after a second), so it is deep:
/// Rust's and tokio's default of 128 overflowed under a flood of 20,000
/// connections at 50,000 a second. The kernel holds it to
/// `net.core.somaxconn` (4,096 by default since Linux 5.4).
const LISTEN_BACKLOG: u32 = 4096;

/// A listener on `addr` with the service's listen backlog, for
/// [`serve`].
pub(crate) fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    // As tokio's `TcpListener::bind` does: a restarted service binds at
    // once though the old one's connections linger in TIME_WAIT.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Serves `app` on `listener` until `shutdown` completes, then stops
/// accepting, closes the connections that have no request in hand and
/// lets the requests in flight finish.
pub(crate) async fn serve(
    listener: TcpListener,
    app: App,
    connections: Connections,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(connections.header_timeout)
        .max_header_size(connections.header_bytes)
        .max_buf_size(connections.header_bytes.max(MIN_READ_BUFFER));
    let admission = Arc::new(Admission::new(connections.max, connections.metrics));
    let shared = Arc::new(Shared {
        http,
        app,
        header_timeout: connections.header_timeout,
        send_timeout: connections.send_timeout,
    });
    let stop = CancellationToken::new();
    let tracker = TaskTracker::new();
    let mut shutdown = std::pin::pin!(shutdown);
    'accept: loop {
        let stream = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait, do not spin.
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let conn = loop {
            if let Some(conn) = admission.admit() {
                break conn;
            }
            // Every slot busy: hold this one connection (the rest wait in
            // the backlog) until one frees.
            tokio::select! {
                biased;
                () = &mut shutdown => break 'accept,
                () = admission.room() => {}
            }
        };
        let connection = Connection {
            conn,
            admission: admission.clone(),
            shared: shared.clone(),
        };
        tracker.spawn(connection.serve(stream, stop.clone()));
    }
    // New connections are refused from here on; waiting ones close, busy
    // ones finish the request they are serving.
    drop(listener);
    stop.cancel();
    tracker.close();
    tracker.wait().await;
    Ok(())
}

/// What every connection's task reads.
struct Shared {
    http: http1::Builder,
    app: App,
    header_timeout: Duration,
    send_timeout: Duration,
}

/// One accepted connection: its entry in the ledger, freed when this is
/// dropped.
struct Connection {
    conn: Arc<Conn>,
    admission: Arc<Admission>,
    shared: Arc<Shared>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.admission.leave(&self.conn);
    }
}

impl Connection {
    /// Serves the connection until it closes, the client's doing or the
    /// service's.
    async fn serve(self, stream: TcpStream, stop: CancellationToken) {
        let deadline = Instant::now() + self.shared.header_timeout;
        // Until its first bytes the connection owns no buffer but the few
        // it peeks at.
        let mut start = [0u8; HTTP2_PREFACE.len()];
        let peeked = loop {
            tokio::select! {
                biased;
                () = self.conn.chosen() => {
                    if !self.keeps_place(&stream) {
                        return;
                    }
                }
                () = stop.cancelled() => return,
                () = sleep_until(deadline) => {
                    self.admission.metrics().head_timeout.increment(1);
                    return;
                }
                peeked = stream.peek(&mut start) => break peeked,
            }
        };
        match peeked {
            Ok(n) if n == start.len() && start == *HTTP2_PREFACE => {
                self.admission.metrics().http2.increment(1);
                // Boxed, as hyper is below: its buffer is not reserved in
                // every connection's task.
                Box::pin(refuse_http2(stream)).await;
                return;
            }
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        // Before it takes hyper's buffers, the chosen connections that
        // hold some must not be too many (a burst waits here, cheaply).
        loop {
            let mut gate = std::pin::pin!(self.admission.gate());
            gate.as_mut().enable();
            match self.admission.start_http(&self.conn) {
                Start::Go => break,
                Start::Chosen => {
                    if !self.keeps_place(&stream) {
                        return;
                    }
                }
                Start::Wait => tokio::select! {
                    biased;
                    () = self.conn.chosen() => {}
                    () = stop.cancelled() => return,
                    () = sleep_until(deadline) => {
                        self.admission.metrics().head_timeout.increment(1);
                        return;
                    }
                    () = gate => {}
                },
            }
        }
        // Boxed: hyper's state is allocated now, not reserved in every
        // connection's task from accept.
        Box::pin(self.serve_http(stream, deadline, stop)).await;
    }

    /// Chosen to make room before hyper has it: whether it keeps its place,
    /// because its request has come in, whole, since it was last looked
    /// at (it takes a slot back, and the connection that has waited
    /// longest goes instead). If not, it is counted as closed for room.
    fn keeps_place(&self, stream: &TcpStream) -> bool {
        if has_request(stream) && self.admission.reclaim(&self.conn) {
            return true;
        }
        self.admission.metrics().made_room.increment(1);
        false
    }

    /// Serves HTTP/1.1 on a connection whose first bytes have arrived,
    /// until it closes.
    async fn serve_http(self, stream: TcpStream, deadline: Instant, stop: CancellationToken) {
        let service = Tracked {
            app: self.shared.app.clone(),
            connection: self,
        };
        let service = Arc::new(service);
        // A client that leaves an answer unread holds it no longer than
        // the send timeout.
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(service.connection.shared.send_timeout));
        let http = service.connection.shared.http.serve_connection(
            TokioIo::new(Box::pin(stream)),
            ServeTracked(service.clone()),
        );
        let mut http = std::pin::pin!(http);
        let conn = &service.connection.conn;
        let admission = &service.connection.admission;
        // The whole first head is due by the deadline; after it, hyper's
        // own timer watches each next head, and a connection told to
        // close goes once its answer is out (within the send timeout).
        let first_head = tokio::time::sleep_until(deadline);
        let mut first_head = std::pin::pin!(first_head);
        let mut first_head_due = true;
        let mut closing = false;
        loop {
            tokio::select! {
                biased;
                () = conn.chosen(), if !closing => {
                    admission.metrics().made_room.increment(1);
                    if !conn.served() && !conn.busy() {
                        // Nothing asked, nothing to answer: just close.
                        return;
                    }
                    closing = true;
                    http.as_mut().graceful_shutdown();
                }
                () = stop.cancelled(), if !closing => {
                    if admission.withdraw(conn) && !conn.served() {
                        return;
                    }
                    closing = true;
                    http.as_mut().graceful_shutdown();
                }
                () = &mut first_head, if first_head_due => {
                    first_head_due = false;
                    if !conn.served() {
                        admission.metrics().head_timeout.increment(1);
                        return;
                    }
                }
                ended = http.as_mut() => {
                    if let Err(e) = ended {
                        let metrics = admission.metrics();
                        if e.is_timeout() {
                            metrics.head_timeout.increment(1);
                        } else if e.is_parse_too_large() {
                            metrics.head_too_large.increment(1);
                        } else if timed_out(&e) {
                            metrics.send_timeout.increment(1);
                        }
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                    return;
                }
            }
        }
    }
}

/// Whether hyper gave up on a connection because a write of it timed out
/// (`--send-timeout-ms`).
fn timed_out(e: &hyper::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return io.kind() == std::io::ErrorKind::TimedOut;
        }
        source = cause.source();
    }
    false
}

/// The service hyper calls for each request of one connection: the app,
/// with the connection marked busy from the moment the service has the
/// request until hyper has taken its answer's body whole (axum's bodies
/// are one piece; hyper may still be writing it, which a connection told
/// to close finishes, within the send timeout).
struct Tracked {
    app: App,
    connection: Connection,
}

/// [`Tracked`] as hyper holds it.
struct ServeTracked(Arc<Tracked>);

impl hyper::service::Service<Request<Incoming>> for ServeTracked {
    type Response = Response<TrackedBody>;
    type Error = Infallible;
    type Future = TrackedAnswer;

    fn call(&self, request: Request<Incoming>) -> TrackedAnswer {
        let tracked = &self.0;
        tracked
            .connection
            .admission
            .request_started(&tracked.connection.conn);
        let in_hand = InHand(self.0.clone());
        let answer = call_app(&tracked.app, request);
        TrackedAnswer {
            answer,
            in_hand: Some(in_hand),
        }
    }
}

/// Hands `request` to the app. Never inlined, nor is the answer's `poll`,
/// so that `cargo xtask bench request-cost` can count the service path by name.
#[inline(never)]
fn call_app(app: &App, request: Request<Incoming>) -> <App as Service<Request<Incoming>>>::Future {
    // The router is always ready (axum's `Router::poll_ready` is), so it
    // is called without asking.
    app.clone().call(request)
}

/// One request the service has: dropped once its answer is handed over
/// whole, or lost with its connection.
struct InHand(Arc<Tracked>);

impl Drop for InHand {
    fn drop(&mut self) {
        let connection = &self.0.connection;
        connection.admission.request_finished(&connection.conn);
    }
}

pin_project! {
    /// The app's answer, its body carrying the request's [`InHand`].
    struct TrackedAnswer {
        #[pin]
        answer: <App as Service<Request<Incoming>>>::Future,
        in_hand: Option<InHand>,
    }
}

impl Future for TrackedAnswer {
    type Output = Result<Response<TrackedBody>, Infallible>;

    #[inline(never)]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = match this.answer.poll(cx) {
            Poll::Ready(Ok(response)) => response,
            Poll::Ready(Err(never)) => match never {},
            Poll::Pending => return Poll::Pending,
        };
        let in_hand = this.in_hand.take();
        Poll::Ready(Ok(response.map(|body| TrackedBody {
            body,
            _in_hand: in_hand,
        })))
    }
}

/// An answer's body, holding its request in hand until hyper drops it,
/// which it does once it has taken the body whole.
struct TrackedBody {
    body: Body,
    _in_hand: Option<InHand>,
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The first line of HTTP/2's connection preface (RFC 9113, 3.4). A
/// client whose first packet holds less of it is left to hyper, which
/// closes it.
const HTTP2_PREFACE: &[u8; 16] = b"PRI * HTTP/2.0\r\n";

/// How much of an unread request [`has_request`] looks at.
const REQUEST_PEEK: usize = 4096;

/// Whether a whole request head waits unread in `stream` (or at least
/// [`REQUEST_PEEK`] bytes of one), looked at without waiting: a client
/// that has asked, not one that trickles or has sent nothing.
fn has_request(stream: &TcpStream) -> bool {
    let mut bytes = [0u8; REQUEST_PEEK];
    let mut buf = ReadBuf::new(&mut bytes);
    let mut cx = Context::from_waker(Waker::noop());
    match stream.poll_peek(&mut cx, &mut buf) {
        Poll::Ready(Ok(n)) => {
            n == REQUEST_PEEK || memchr::memmem::find(&bytes[..n], b"\r\n\r\n").is_some()
        }
        _ => false,
    }
}

/// The frames that tell an HTTP/2 client to use HTTP/1.1: the server's
/// preface (an empty SETTINGS frame), then GOAWAY with no stream
/// processed, the error `HTTP_1_1_REQUIRED` and a line of text.
fn http2_refusal() -> Vec<u8> {
    const SETTINGS: u8 = 0x4;
    const GOAWAY: u8 = 0x7;
    const HTTP_1_1_REQUIRED: u32 = 0xd;
    const WHY: &[u8] = b"slugd speaks HTTP/1.1 only";
    let frame = |kind: u8, payload: &[u8]| {
        let len = (payload.len() as u32).to_be_bytes();
        let mut frame = vec![len[1], len[2], len[3], kind, 0, 0, 0, 0, 0];
        frame.extend_from_slice(payload);
        frame
    };
    let mut goaway = 0u32.to_be_bytes().to_vec();
    goaway.extend_from_slice(&HTTP_1_1_REQUIRED.to_be_bytes());
    goaway.extend_from_slice(WHY);
    let mut frames = frame(SETTINGS, &[]);
    frames.extend(frame(GOAWAY, &goaway));
    frames
}

/// Tells an HTTP/2 client to use HTTP/1.1 and closes, within
/// [`CLOSE_GRACE`].
async fn refuse_http2(mut stream: TcpStream) {
    let refuse = async {
        stream.write_all(&http2_refusal()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        let mut read = 0;
        while read < HTTP2_DRAIN_BYTES {
            match stream.read(&mut sink).await? {
                0 => break,
                n => read += n,
            }
        }
        std::io::Result::Ok(())
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, refuse).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http2_refusal_is_a_settings_frame_then_goaway_http_1_1_required() {
        let frames = http2_refusal();
        // SETTINGS: length 0, type 4, no flags, stream 0.
        assert_eq!(frames[..9], [0, 0, 0, 4, 0, 0, 0, 0, 0]);
        let goaway = &frames[9..];
        let len = u32::from_be_bytes([0, goaway[0], goaway[1], goaway[2]]) as usize;
        assert_eq!(goaway[3..9], [7, 0, 0, 0, 0, 0], "GOAWAY on stream 0");
        assert_eq!(goaway.len(), 9 + len);
        assert_eq!(goaway[9..13], [0, 0, 0, 0], "no stream processed");
        assert_eq!(goaway[13..17], [0, 0, 0, 0xd], "HTTP_1_1_REQUIRED");
        assert_eq!(&goaway[17..], b"slugd speaks HTTP/1.1 only");
    }
}
