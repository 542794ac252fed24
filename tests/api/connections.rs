//! What a client can hold, and that it cannot starve others: the cap on
//! open connections (`--max-connections`), at which the connection that
//! has waited longest for a request makes room; the time a head may take
//! (`--header-timeout-ms`); the largest head (`--max-header-bytes`); no
//! HTTP/2. Raw HTTP/1.1 over TCP, so that the test knows exactly which
//! connections are open and what each has sent.

use std::time::Duration;

use slugd::http::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::App;

/// Far longer than the tests take: where it is set, a connection closes
/// only when the test closes it or the service needs its slot, never
/// because its head was slow.
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

/// Opens a connection: it returns once the kernel has completed the
/// handshake. The accept loop takes connections in the order the kernel
/// completed them, so the service counts a later one after it.
async fn connect(app: &App) -> TcpStream {
    TcpStream::connect(app.addr).await.unwrap()
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

/// Reads a head of the service's up to its blank line, no further.
async fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        let n = tokio::time::timeout(ANSWER_WITHIN, stream.read(&mut byte))
            .await
            .expect("a head arrives")
            .unwrap();
        assert_eq!(n, 1, "closed inside a head: {head:?}");
        head.push(byte[0]);
    }
    String::from_utf8(head).unwrap()
}

/// A new client's `GET /healthz`, on a connection of its own: the status.
async fn new_client_healthz(app: &App) -> u16 {
    let mut stream = connect(app).await;
    ask(&mut stream, "/healthz").await;
    answer(&mut stream).await.0
}

/// Everything the service sends on `stream` until it closes it (an end of
/// file or a reset), waiting at most [`ANSWER_WITHIN`]; `None` if it is
/// still open then.
async fn until_closed(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut sent = Vec::new();
    let read_all = async {
        let mut chunk = [0u8; 4096];
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => sent.extend_from_slice(&chunk[..n]),
            }
        }
    };
    tokio::time::timeout(ANSWER_WITHIN, read_all).await.ok()?;
    Some(sent)
}

/// Whether the service has neither sent anything on `stream` nor closed it.
fn still_open(stream: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    matches!(stream.try_read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

/// One sample of the service's `/metrics`, read on a connection of its own.
async fn metric(app: &App, sample: &str) -> f64 {
    let text = app.client.get(app.url("/metrics")).send().await.unwrap();
    let text = text.text().await.unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(sample)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {sample} in\n{text}"))
        .parse()
        .unwrap()
}

/// The start of a request whose head never ends.
const PARTIAL_HEAD: &[u8] =
    b"POST /slug HTTP/1.1\r\nHost: slugd\r\nContent-Type: application/json\r\n";

#[tokio::test]
async fn silent_connections_at_the_cap_make_room_for_a_new_client_oldest_first() {
    let app = app_with_cap(4).await;
    let mut silent = Vec::new();
    for _ in 0..4 {
        silent.push(connect(&app).await);
    }
    // Every slot is held by a connection that sends nothing, whose head
    // timeout is far off: the new client is served all the same.
    assert_eq!(new_client_healthz(&app).await, 200);
    assert!(
        until_closed(&mut silent[0])
            .await
            .is_some_and(|s| s.is_empty()),
        "the oldest silent connection was closed, with nothing sent"
    );
    assert!(
        silent[1..].iter().all(still_open),
        "only the oldest made room"
    );
    // The new client's connection took the oldest one's slot; the
    // scrape's own may take the next oldest's, if it comes before the new
    // client's close is handled.
    let made_room = metric(
        &app,
        r#"slugd_http_connections_closed_total{reason="made_room"}"#,
    )
    .await;
    assert!((1.0..=2.0).contains(&made_room), "{made_room}");
}

#[tokio::test]
async fn trickling_heads_at_the_cap_make_room_for_a_new_client_oldest_first() {
    let app = app_with_cap(4).await;
    let mut trickling = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&app).await;
        stream.write_all(PARTIAL_HEAD).await.unwrap();
        trickling.push(stream);
    }
    // A header line a second on each, as a slow-headers attack sends.
    let (first, rest) = trickling.split_at_mut(1);
    let trickle = async {
        for i in 0.. {
            for stream in rest.iter_mut() {
                stream
                    .write_all(format!("X-Line-{i}: a\r\n").as_bytes())
                    .await
                    .unwrap();
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    };
    let served = async {
        let status = new_client_healthz(&app).await;
        let closed = until_closed(&mut first[0]).await;
        (status, closed)
    };
    let (status, closed) = tokio::select! {
        served = served => served,
        () = trickle => unreachable!(),
    };
    assert_eq!(status, 200);
    assert!(
        closed.is_some_and(|s| s.is_empty()),
        "the oldest trickling connection was closed, with nothing sent"
    );
    assert!(rest.iter().all(still_open), "only the oldest made room");
}

#[tokio::test]
async fn idle_keep_alive_connections_at_the_cap_make_room_oldest_first() {
    const CAP: usize = 4;
    const FLOOD: usize = 20;
    let app = app_with_cap(CAP).await;
    // One request each, then idle on keep-alive, one after another: each
    // is served, with never more than the cap open.
    let mut idle = Vec::new();
    for i in 0..FLOOD {
        let mut stream = connect(&app).await;
        ask(&mut stream, "/metrics").await;
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
        idle.push(stream);
    }
    // The newest CAP are open and answer again; the older ones made room.
    for (i, stream) in idle.iter_mut().enumerate() {
        if i < FLOOD - CAP {
            assert!(
                until_closed(stream).await.is_some_and(|s| s.is_empty()),
                "idle connection {i} of {FLOOD} made room"
            );
        } else {
            assert!(still_open(stream), "idle connection {i} of {FLOOD}");
        }
    }
    let newest = idle.last_mut().unwrap();
    ask(newest, "/healthz").await;
    assert_eq!(answer(newest).await.0, 200);
}

#[tokio::test]
async fn a_request_in_hand_is_never_closed_to_make_room() {
    let app = app_with_cap(1).await;
    // The only slot: a request whose body is still coming.
    let mut busy = connect(&app).await;
    let body = br#"{"title": "Still here"}"#;
    let head = format!(
        "POST /slug HTTP/1.1\r\nHost: slugd\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    busy.write_all(head.as_bytes()).await.unwrap();
    // hyper says 100 Continue once the service reads the body: from then
    // on the service has the request in hand.
    let continued = read_head(&mut busy).await;
    assert!(continued.starts_with("HTTP/1.1 100"), "{continued}");
    busy.write_all(&body[..5]).await.unwrap();
    // A newcomer waits: no slot is free and none waits for a request.
    let mut newcomer = connect(&app).await;
    ask(&mut newcomer, "/healthz").await;
    let mut nothing = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(500), newcomer.read(&mut nothing)).await;
    assert!(
        early.is_err(),
        "the newcomer was answered or closed: {early:?}"
    );
    // The body ends: its request is answered in full.
    busy.write_all(&body[5..]).await.unwrap();
    let (status, text) = answer(&mut busy).await;
    assert_eq!(
        (status, text.as_str()),
        (200, r#"{"slug":"still-here","rules":6}"#)
    );
    // Then, idle, it makes room for the newcomer.
    assert_eq!(answer(&mut newcomer).await.0, 200);
    assert!(until_closed(&mut busy).await.is_some_and(|s| s.is_empty()));
}

#[tokio::test]
async fn a_silent_connection_is_closed_at_the_header_timeout() {
    let app = App::builder()
        .limits(Limits {
            header_timeout: Duration::from_millis(300),
            ..Limits::default()
        })
        .spawn()
        .await;
    let mut silent = connect(&app).await;
    assert!(
        until_closed(&mut silent)
            .await
            .is_some_and(|s| s.is_empty()),
        "a connection that sends nothing is closed like one whose head is slow"
    );
    assert_eq!(
        metric(
            &app,
            r#"slugd_http_connections_closed_total{reason="head_timeout"}"#
        )
        .await,
        1.0
    );
}

#[tokio::test]
async fn a_trickled_head_is_closed_at_the_header_timeout_though_bytes_keep_coming() {
    let app = App::builder()
        .limits(Limits {
            header_timeout: Duration::from_millis(1500),
            ..Limits::default()
        })
        .spawn()
        .await;
    let mut stream = connect(&app).await;
    stream.write_all(PARTIAL_HEAD).await.unwrap();
    // A header line every 200 ms, for longer than a test waits: only a
    // deadline for the whole head ends it.
    let mut closed = false;
    for i in 0..(ANSWER_WITHIN.as_millis() / 200) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let line = format!("X-Line-{i}: a\r\n");
        if stream.write_all(line.as_bytes()).await.is_err() || !still_open(&stream) {
            closed = true;
            break;
        }
    }
    assert!(closed, "the trickling head was never cut off");
}

#[tokio::test]
async fn the_first_head_is_due_counted_from_accept_though_it_starts_late() {
    // Silent for most of the timeout, then trickling: closed at the
    // deadline counted from accept, not a whole timeout after the first
    // byte (which is when hyper's own timer would start).
    const TIMEOUT: Duration = Duration::from_secs(4);
    let app = App::builder()
        .limits(Limits {
            header_timeout: TIMEOUT,
            ..Limits::default()
        })
        .spawn()
        .await;
    let started = std::time::Instant::now();
    let mut stream = connect(&app).await;
    tokio::time::sleep(TIMEOUT - Duration::from_millis(500)).await;
    stream.write_all(PARTIAL_HEAD).await.unwrap();
    let mut closed = false;
    for i in 0..(ANSWER_WITHIN.as_millis() / 100) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let line = format!("X-Line-{i}: a\r\n");
        if stream.write_all(line.as_bytes()).await.is_err() || !still_open(&stream) {
            closed = true;
            break;
        }
    }
    let took = started.elapsed();
    assert!(closed, "the late head was never cut off");
    // Not a speed figure: a timer started by the first byte would end it
    // at 7.5 s; the deadline is at 4 s, and 2.5 s is slack for a busy
    // machine.
    assert!(
        took < TIMEOUT + Duration::from_millis(2500),
        "closed {took:?} after connecting, with a header timeout of {TIMEOUT:?}"
    );
}

#[tokio::test]
async fn an_answer_left_unread_is_held_no_longer_than_the_send_timeout() {
    let app = App::builder()
        .limits(Limits {
            send_timeout: Duration::from_millis(300),
            body_bytes: 16 * 1024 * 1024,
            ..Limits::default()
        })
        .spawn()
        .await;
    // A client that asks for an answer larger than the kernel takes into
    // its buffers (about 8 MB, where Linux's grow to 4 MB), with a small
    // receive window, and never reads it.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(app.addr).await.unwrap();
    let title = "word ".repeat(1600);
    let titles: Vec<&str> = vec![title.trim(); 1000];
    let body = serde_json::to_vec(&serde_json::json!({ "titles": titles })).unwrap();
    let head = format!(
        "POST /slugs HTTP/1.1\r\nHost: slugd\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body).await.unwrap();
    let sample = r#"slugd_http_connections_closed_total{reason="send_timeout"}"#;
    let mut closed = 0.0;
    for _ in 0..(ANSWER_WITHIN.as_millis() / 100) {
        closed = metric(&app, sample).await;
        if closed > 0.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(closed, 1.0, "the stalled answer's connection was closed");
    drop(stream);
}

#[tokio::test]
async fn a_head_over_the_limit_gets_431_and_the_connection_is_closed() {
    // The default: 32 KiB.
    let app = App::in_process().await;
    // A large but real head (browsers keep a site's cookies under 8 KiB
    // or so; proxies add a little) is served.
    let mut stream = with_cookie(&app, 24 * 1024).await;
    assert_eq!(answer(&mut stream).await.0, 200);
    // Over the limit: 431, then closed.
    let sent = refused_head(&mut with_cookie(&app, 40 * 1024).await).await;
    assert!(sent.starts_with("HTTP/1.1 431"), "{sent}");
    assert_eq!(
        metric(
            &app,
            r#"slugd_http_connections_closed_total{reason="head_too_large"}"#
        )
        .await,
        1.0
    );

    // A limit of its own.
    let app = App::builder()
        .limits(Limits {
            header_bytes: 4096,
            ..Limits::default()
        })
        .spawn()
        .await;
    let mut stream = with_cookie(&app, 3 * 1024).await;
    assert_eq!(answer(&mut stream).await.0, 200);
    let sent = refused_head(&mut with_cookie(&app, 5 * 1024).await).await;
    assert!(sent.starts_with("HTTP/1.1 431"), "{sent}");
}

/// A new connection that has sent a `GET /slug` with a cookie of
/// `cookie_bytes`.
async fn with_cookie(app: &App, cookie_bytes: usize) -> TcpStream {
    let mut stream = connect(app).await;
    let request = format!(
        "GET /slug?title=Big%20cookie HTTP/1.1\r\nHost: slugd\r\nCookie: c={}\r\n\r\n",
        "x".repeat(cookie_bytes)
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// What the service sent on `stream` before it closed it.
async fn refused_head(stream: &mut TcpStream) -> String {
    let sent = until_closed(stream)
        .await
        .expect("the connection is closed");
    String::from_utf8_lossy(&sent).into_owned()
}

#[tokio::test]
async fn http2_with_prior_knowledge_is_told_to_use_http_1_1_and_closed() {
    let app = App::in_process().await;
    let mut stream = connect(&app).await;
    // HTTP/2's preface, then the client's (empty) SETTINGS frame.
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0")
        .await
        .unwrap();
    let sent = until_closed(&mut stream)
        .await
        .expect("the connection is closed");
    // The server's SETTINGS frame, then GOAWAY (type 7) on stream 0 with
    // the error HTTP_1_1_REQUIRED (0xd), and nothing else.
    let settings_len = u32::from_be_bytes([0, sent[0], sent[1], sent[2]]) as usize;
    assert_eq!(sent[3], 0x4, "a SETTINGS frame first: {sent:?}");
    let goaway = &sent[9 + settings_len..];
    assert_eq!(goaway[3], 0x7, "then GOAWAY: {sent:?}");
    assert_eq!(
        goaway[13..17],
        [0, 0, 0, 0xd],
        "HTTP_1_1_REQUIRED: {sent:?}"
    );
    let len = u32::from_be_bytes([0, goaway[0], goaway[1], goaway[2]]) as usize;
    assert_eq!(goaway.len(), 9 + len, "nothing after the GOAWAY: {sent:?}");
    assert_eq!(
        metric(
            &app,
            r#"slugd_http_connections_closed_total{reason="http2"}"#
        )
        .await,
        1.0
    );
    // HTTP/1.1 is served as ever.
    assert_eq!(new_client_healthz(&app).await, 200);
}
