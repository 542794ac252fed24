//! `slugd probe`: asks a running service whether it is ready (`GET
//! /readyz` by default) and says so with the exit code, so a container's
//! health check needs no curl. One HTTP/1.1 request through hyper's
//! client, the whole of it bounded by a timeout.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, Uri, header};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// What `slugd probe` asks.
#[derive(Debug, Clone)]
pub struct ProbeSettings {
    /// The URL to GET: `http://host:port/path`.
    pub url: Uri,
    /// How long the whole probe may take.
    pub timeout: Duration,
}

/// Why the service is not ready, as a sentence.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// Nothing answered in time.
    #[error("{url} did not answer within {} ms", .timeout.as_millis())]
    Timeout { url: Uri, timeout: Duration },
    /// The connection or the exchange failed.
    #[error("cannot reach {url}: {why}")]
    Unreachable { url: Uri, why: String },
    /// The service answered, but not 200.
    #[error("{url} answered {status}: {body}")]
    NotReady {
        url: Uri,
        status: StatusCode,
        body: String,
    },
}

/// The most of a body quoted in a message.
const MAX_BODY_BYTES: usize = 4096;

/// Parses a `--url`: absolute, `http://`, with a host.
pub fn parse_url(url: &str) -> Result<Uri, String> {
    let uri: Uri = url
        .parse()
        .map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    if uri.scheme_str() != Some("http") || uri.host().is_none() {
        return Err(format!(
            "{url:?} must be an http:// URL with a host, for example http://127.0.0.1:8080/readyz"
        ));
    }
    Ok(uri)
}

/// GETs the URL; the body of a 200, or why the service is not ready.
pub async fn probe(settings: &ProbeSettings) -> Result<String, ProbeError> {
    let url = settings.url.clone();
    match tokio::time::timeout(settings.timeout, get(&url)).await {
        Ok(Ok((StatusCode::OK, body))) => Ok(body),
        Ok(Ok((status, body))) => Err(ProbeError::NotReady { url, status, body }),
        Ok(Err(why)) => Err(ProbeError::Unreachable { url, why }),
        Err(_) => Err(ProbeError::Timeout {
            url,
            timeout: settings.timeout,
        }),
    }
}

async fn get(url: &Uri) -> Result<(StatusCode, String), String> {
    let authority = url.authority().ok_or("no host")?;
    let port = authority.port_u16().unwrap_or(80);
    let stream = TcpStream::connect((authority.host(), port))
        .await
        .map_err(|e| e.to_string())?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let path = url.path_and_query().map_or("/", |p| p.as_str());
    let request = Request::get(path)
        .header(header::HOST, authority.as_str())
        .header(header::USER_AGENT, "slugd-probe")
        .body(Body::empty())
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let body = axum::body::to_bytes(Body::new(response.into_body()), usize::MAX)
        .await
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX_BODY_BYTES)]);
    Ok((status, text.trim().to_owned()))
}
