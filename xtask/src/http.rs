//! A minimal HTTP/1.1 client over a loopback TCP connection: enough for
//! readiness (GET /readyz), warm-up requests (POST /slug on one kept-alive
//! connection), probes on a new connection each with a deadline, and
//! timing one large request. The load itself comes from wrk (and floods
//! from scripts/lib/flood.py); this only has to be correct, not fast.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// One kept-alive connection to 127.0.0.1:`port`.
pub struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    pub fn connect(port: u16) -> Result<Self> {
        let stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port))
            .with_context(|| format!("could not connect to 127.0.0.1:{port}"))?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        stream.set_nodelay(true)?;
        Ok(Client {
            stream: BufReader::new(stream),
        })
    }

    /// Sends one request and reads the whole answer; returns its status.
    pub fn request(&mut self, method: &str, path: &str, json: Option<&str>) -> Result<u16> {
        let body = json.unwrap_or("");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes())?;
        stream.write_all(body.as_bytes())?;
        self.read_answer()
    }

    /// A connection whose connect, writes and reads each give up after
    /// `timeout`.
    pub fn connect_within(port: u16, timeout: Duration) -> Result<Self> {
        let address = (Ipv4Addr::LOCALHOST, port).into();
        let stream = TcpStream::connect_timeout(&address, timeout)
            .with_context(|| format!("could not connect to 127.0.0.1:{port}"))?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        stream.set_nodelay(true)?;
        Ok(Client {
            stream: BufReader::new(stream),
        })
    }

    /// POSTs `{"title": ..., "locale": ...}` to /slug (no `locale` for
    /// `None`) and fails on any answer but 200.
    pub fn post_slug(&mut self, title: &str, locale: Option<&str>) -> Result<()> {
        let body = match locale {
            Some(locale) => serde_json::json!({ "title": title, "locale": locale }),
            None => serde_json::json!({ "title": title }),
        }
        .to_string();
        match self.request("POST", "/slug", Some(&body))? {
            200 => Ok(()),
            status => bail!(
                "POST /slug answered {status} for a title of {} bytes",
                title.len()
            ),
        }
    }

    fn read_answer(&mut self) -> Result<u16> {
        let mut line = String::new();
        if self.stream.read_line(&mut line)? == 0 {
            bail!("the connection closed before an answer");
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("not an HTTP status line: {line:?}"))?;
        let (mut length, mut chunked) = (0usize, false);
        loop {
            line.clear();
            self.stream.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                let value = value.trim();
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.parse().context("a bad content-length")?;
                } else if name.eq_ignore_ascii_case("transfer-encoding") {
                    chunked = value.eq_ignore_ascii_case("chunked");
                }
            }
        }
        if chunked {
            loop {
                line.clear();
                self.stream.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                    .context("a bad chunk size")?;
                self.skip(size + 2)?;
                if size == 0 {
                    break;
                }
            }
        } else {
            self.skip(length)?;
        }
        Ok(status)
    }

    fn skip(&mut self, n: usize) -> Result<()> {
        let copied = std::io::copy(&mut (&mut self.stream).take(n as u64), &mut std::io::sink())?;
        if copied as usize != n {
            bail!("the connection closed in the middle of an answer");
        }
        Ok(())
    }
}

/// The status of one request on a connection of its own, or `None` if
/// nothing answers.
pub fn status(port: u16, method: &str, path: &str, json: Option<&str>) -> Option<u16> {
    Client::connect(port).ok()?.request(method, path, json).ok()
}

/// One probe: POST /slug of `title` on a new connection, given up after
/// `timeout` in all: its status (`None` if nothing answered in time) and
/// how long it took.
pub fn probe(port: u16, title: &str, timeout: Duration) -> (Option<u16>, Duration) {
    let started = Instant::now();
    let body = serde_json::json!({ "title": title }).to_string();
    let status = Client::connect_within(port, timeout)
        .and_then(|mut client| client.request("POST", "/slug", Some(&body)))
        .ok();
    (status, started.elapsed())
}
