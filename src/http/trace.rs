//! Request ids and the request's span: every request gets an id, the
//! client's `x-request-id` when it is a sane one (1 to 128 of the
//! characters `A-Z a-z 0-9 - _ . : + / = @`), else a new UUID; the id is
//! echoed in the response's `x-request-id` and is a field of the span
//! every log line of the request is written in. tower-http's request-id
//! and trace layers do the work; this file only says how they are set up.

use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware;
use axum::response::Response;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use tracing::Span;

use super::state::AppState;

/// The header the id travels in.
const HEADER: &str = "x-request-id";

/// The longest id taken from a client.
const MAX_ID_BYTES: usize = 128;

/// Gives every request `router` answers an id and a span: call it last, so
/// that the id covers everything else.
pub fn with_request_ids(router: Router<AppState>) -> Router<AppState> {
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &Request| {
            let id = request
                .headers()
                .get(HEADER)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            tracing::info_span!(
                "request",
                id,
                method = %request.method(),
                path = request.uri().path(),
            )
        })
        .on_request(())
        .on_response(|response: &Response, latency: Duration, _: &Span| {
            let status = response.status().as_u16();
            let latency_us = latency.as_micros() as u64;
            if response.status().is_server_error() {
                tracing::warn!(status, latency_us, "answered");
            } else {
                tracing::debug!(status, latency_us, "answered");
            }
        })
        .on_failure(());
    // One layer of layers (each `Router::layer` wraps every route once
    // more), run from the top down.
    router.layer(
        ServiceBuilder::new()
            .layer(middleware::map_request(drop_bad_id))
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .layer(PropagateRequestIdLayer::x_request_id())
            .layer(trace),
    )
}

/// Removes a client's id that is empty, too long, or has characters that
/// do not belong in a log line, so that a new one is made in its place.
async fn drop_bad_id(mut request: Request) -> Request {
    if let Some(id) = request.headers().get(HEADER)
        && !is_sane(id)
    {
        request.headers_mut().remove(HEADER);
    }
    request
}

fn is_sane(id: &HeaderValue) -> bool {
    let id = id.as_bytes();
    (1..=MAX_ID_BYTES).contains(&id.len())
        && id
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-_.:+/=@".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_plain_ids_are_taken() {
        for good in [
            "abc",
            "0f8fad5b-d9cb-469f-a165-70867728950e",
            "a.b:c_d+e/f=g@h",
        ] {
            assert!(is_sane(&HeaderValue::from_static(good)), "{good}");
        }
        let long = "a".repeat(MAX_ID_BYTES + 1);
        for bad in ["", "a b", "a\"b", "a\\nb", "<script>", long.as_str()] {
            let value = HeaderValue::from_str(bad).unwrap();
            assert!(!is_sane(&value), "{bad}");
        }
    }
}
