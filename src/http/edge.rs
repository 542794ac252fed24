//! The edge of the service, around the whole router, in one tower service:
//! every request gets an id and a span, and its id is echoed in the
//! response. (Each route counts, times and logs its own requests:
//! `http::answered`.)
//!
//! The id is the client's `x-request-id` when it is a sane one (1 to 128
//! of the characters `A-Z a-z 0-9 - _ . : + / = @`), else a new one: this
//! process's random 64-bit prefix and a counter, in hex
//! (`5f0c2a9e1b7d4c3a-1f`); with 64 random bits, two instances share a
//! prefix about once in 2^64 pairs. It is a field of the
//! span (`tracing`) that every log line of the request is written in.
//!
//! Why by hand rather than with tower-http's request-id and trace layers
//! (which the first version used): measured with callgrind, those four
//! layers cost a request about 4,850 instructions (setting the id, a UUID,
//! into the request's headers and extensions, the larger part), and with
//! them the service ran at about 0.9 of its throughput without them. This
//! edge keeps the id beside the request instead, writes one header and
//! makes one allocation. docs/figures.md's "Metrics and request ids" has
//! the figures.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use axum::Router;
use axum::http::{HeaderName, HeaderValue, Request};
use axum::response::Response as AxumResponse;
use pin_project_lite::pin_project;
use tower::Service;
use tracing::Instrument;
use tracing::instrument::Instrumented;

/// The header the id travels in.
static HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The longest id taken from a client.
const MAX_ID_BYTES: usize = 128;

/// The service hyper serves: the router inside its edge.
pub type App = Edge<Router>;

/// Puts `router` inside the edge.
pub fn edge(router: Router) -> App {
    Edge { inner: router }
}

/// `inner` inside the edge.
#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
}

impl<S, B> Service<Request<B>> for Edge<S>
where
    S: Service<Request<B>, Response = AxumResponse>,
{
    type Response = AxumResponse;
    type Error = S::Error;
    type Future = Answer<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let id = match request.headers().get(&HEADER) {
            Some(id) if is_sane(id) => id.clone(),
            _ => new_id(),
        };
        let span = tracing::info_span!(
            "request",
            id = id.to_str().unwrap_or(""),
            method = %request.method(),
            path = request.uri().path(),
        );
        let inner = {
            let _entered = span.enter();
            self.inner.call(request)
        };
        Answer {
            inner: inner.instrument(span),
            id: Some(id),
        }
    }
}

pin_project! {
    /// A request on its way through the router.
    pub struct Answer<F> {
        #[pin]
        inner: Instrumented<F>,
        id: Option<HeaderValue>,
    }
}

impl<F, E> Future for Answer<F>
where
    F: Future<Output = Result<AxumResponse, E>>,
{
    type Output = Result<AxumResponse, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        let mut response = std::task::ready!(this.inner.as_mut().poll(cx))?;
        if let Some(id) = this.id.take() {
            response.headers_mut().insert(HEADER.clone(), id);
        }
        Poll::Ready(Ok(response))
    }
}

/// A new id: the process's prefix and the next number. Each thread takes
/// numbers from the shared counter a block at a time, so that making an id
/// touches no memory another core is writing.
fn new_id() -> HeaderValue {
    const BLOCK: u64 = 1024;
    static PREFIX: OnceLock<u64> = OnceLock::new();
    static NEXT_BLOCK: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        /// The next number of this thread's block, and the block's end.
        static NUMBERS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    }
    let prefix = *PREFIX.get_or_init(random_u64);
    let n = NUMBERS.with(|numbers| {
        let (mut next, mut end) = numbers.get();
        if next == end {
            next = NEXT_BLOCK.fetch_add(1, Ordering::Relaxed) * BLOCK + 1;
            end = next + BLOCK;
        }
        numbers.set((next + 1, end));
        next
    });
    let mut text = [0u8; 33];
    let len = hex(prefix, &mut text[..16], 16);
    text[len] = b'-';
    let digits = (64 - n.leading_zeros()).div_ceil(4).max(1) as usize;
    let end = len + 1 + hex(n, &mut text[len + 1..], digits);
    HeaderValue::from_bytes(&text[..end]).expect("hex digits and '-' are a valid header value")
}

/// Writes the lowest `digits` hex digits of `n` into `out`. By hand: with
/// `write!` instead, `cargo xtask bench request-cost` counted about 700 more
/// instructions a request.
fn hex(n: u64, out: &mut [u8], digits: usize) -> usize {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (i, slot) in out[..digits].iter_mut().enumerate() {
        let shift = 4 * (digits - 1 - i);
        *slot = DIGITS[((n >> shift) & 0xf) as usize];
    }
    digits
}

/// 64 random bits: a hash under the standard library's random keys, which
/// the OS's random source seeds.
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::process::id())
}

/// Whether a client's id may be used: 1 to [`MAX_ID_BYTES`] of the
/// characters that are safe in a log line.
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

    #[test]
    fn new_ids_are_sane_distinct_and_share_the_prefix() {
        let ids: Vec<String> = (0..300)
            .map(|_| new_id().to_str().unwrap().to_owned())
            .collect();
        let prefix = &ids[0][..17];
        for id in &ids {
            assert!(is_sane(&HeaderValue::from_str(id).unwrap()), "{id}");
            assert_eq!(&id[..17], prefix, "{id}");
            assert_eq!(id.as_bytes()[16], b'-', "{id}");
            let hex = |part: &str| {
                !part.is_empty() && part.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            };
            assert!(hex(&id[..16]) && hex(&id[17..]), "{id}");
        }
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
    }

    #[test]
    fn hex_writes_the_lowest_digits() {
        let mut out = [0u8; 16];
        assert_eq!(hex(0x1f, &mut out, 2), 2);
        assert_eq!(&out[..2], b"1f");
        assert_eq!(hex(0xabc, &mut out, 16), 16);
        assert_eq!(&out, b"0000000000000abc");
    }
}
