//! The cap on open connections (`--max-connections`, `Limits::max_connections`):
//! beyond it a connection is not refused but waits in the listen backlog,
//! and is served once an open one closes; the open count never goes above
//! the cap. Raw HTTP/1.1 over TCP, one request at a time on each
//! connection, so that the test knows exactly which connections are open.

use std::time::Duration;

use slugd::http::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::App;

/// Far longer than the tests take: here a connection closes only when the
/// test closes it, never because its headers were slow.
const NO_HEADER_TIMEOUT: Duration = Duration::from_secs(600);

/// How long an answer may take on a busy machine: not a speed figure, only
/// a bound on how long a broken build makes the test hang.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// An app serving at most `cap` connections at once, whose header timeout
/// never fires during a test.
async fn app_with_cap(cap: usize) -> App {
    App::builder()
        .limits(Limits {
            max_connections: cap,
            header_timeout: NO_HEADER_TIMEOUT,
            ..Limits::default()
        })
        .spawn()
        .await
}

/// Sends `GET path` on `stream`, keeping the connection open.
async fn ask(stream: &mut TcpStream, path: &str) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: slugd\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
}

/// Reads one response from `stream`: its status and body (the service
/// always sends a Content-Length).
async fn answer(stream: &mut TcpStream) -> (u16, String) {
    tokio::time::timeout(ANSWER_WITHIN, read_response(stream))
        .await
        .expect("the request is answered")
}

async fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut bytes = Vec::new();
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the connection closed before a response");
        bytes.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(bytes[..head_end].to_vec()).unwrap();
    let status = head[9..12].parse().unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no Content-Length in {head}"));
    while bytes.len() < head_end + length {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the connection closed inside a response body");
        bytes.extend_from_slice(&chunk[..n]);
    }
    let body = String::from_utf8(bytes[head_end..head_end + length].to_vec()).unwrap();
    (status, body)
}

/// Scrapes `/metrics` on `stream`: how many connections are open and the
/// cap, as the service counts them.
async fn open_and_cap(stream: &mut TcpStream) -> (f64, f64) {
    ask(stream, "/metrics").await;
    let (status, text) = answer(stream).await;
    assert_eq!(status, 200, "{text}");
    let sample = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
            .parse()
            .unwrap()
    };
    (
        sample("slugd_http_connections_open"),
        sample("slugd_http_connections_max"),
    )
}

#[tokio::test]
async fn a_connection_beyond_the_cap_waits_and_is_served_once_one_closes() {
    let app = app_with_cap(3).await;
    // Two connections that never send a byte, and one that asks.
    let idle_a = TcpStream::connect(app.addr).await.unwrap();
    let _idle_b = TcpStream::connect(app.addr).await.unwrap();
    let mut asking = TcpStream::connect(app.addr).await.unwrap();
    // Accepted in the order they were made: the idle two are counted by
    // the time the third is served.
    assert_eq!(open_and_cap(&mut asking).await, (3.0, 3.0));

    // The cap is reached: the kernel still completes a fourth connection
    // (no error for the client), but slugd does not accept it.
    let mut waiting = TcpStream::connect(app.addr).await.unwrap();
    ask(&mut waiting, "/slug?title=I%20waited").await;
    assert_eq!(open_and_cap(&mut asking).await, (3.0, 3.0));
    let mut nothing = [0u8; 1];
    assert!(
        matches!(waiting.try_read(&mut nothing), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a connection beyond the cap was answered"
    );

    // One idle connection goes: the waiting one takes its place and gets
    // its answer.
    drop(idle_a);
    let (status, body) = answer(&mut waiting).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""slug":"i-waited""#), "{body}");
    assert_eq!(open_and_cap(&mut asking).await, (3.0, 3.0));
}

#[tokio::test]
async fn a_flood_beyond_the_cap_is_served_in_turn_never_above_it() {
    const CAP: usize = 4;
    const FLOOD: usize = 20;
    let app = app_with_cap(CAP).await;
    // Every connection asks at once and holds its connection open after
    // its answer; only CAP of them can be open.
    let mut flood = Vec::new();
    for _ in 0..FLOOD {
        let mut stream = TcpStream::connect(app.addr).await.unwrap();
        ask(&mut stream, "/metrics").await;
        flood.push(stream);
    }
    // Accepted in the order they connected: each is answered once the one
    // CAP before it has closed, and none sees more than CAP open.
    for (i, mut stream) in flood.into_iter().enumerate() {
        let (status, text) = answer(&mut stream).await;
        assert_eq!(status, 200, "{text}");
        let open: f64 = text
            .lines()
            .find_map(|l| l.strip_prefix("slugd_http_connections_open "))
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            (1.0..=CAP as f64).contains(&open),
            "connection {i} was served with {open} open, above the cap of {CAP}"
        );
        drop(stream);
    }
    // All went: a new connection is served at once.
    let mut last = TcpStream::connect(app.addr).await.unwrap();
    let (open, cap) = open_and_cap(&mut last).await;
    assert!(
        open <= CAP as f64 && cap == CAP as f64,
        "{open} open, cap {cap}"
    );
}
