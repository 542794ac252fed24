//! What happens to every answered request: counted by route and status,
//! timed by route, and logged (the `answered` line, in the request's span).
//! What the metrics are and who counts them is in [`crate::metrics`];
//! `GET /metrics` is `super::metrics`.
//!
//! The route is the matched path template (`/reservations/{scope}/{key}`),
//! never the raw path, so a scrape stays small whatever clients ask. A
//! request no route answers (an unknown path, 404, or a method the path
//! does not serve, 405) is counted as `unmatched` by the fallbacks.
//!
//! A route's requests are counted by a plain tower layer inside the route
//! ([`per_route`]), timed from when the router hands the request over to
//! when the handler's response is ready; not by `middleware::from_fn`
//! (which boxes every request's future once more), nor around the whole
//! router (where the matched route is no longer known, and handing it out
//! in the response's extensions costs a map and two allocations a request).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::response::Response;
use pin_project_lite::pin_project;
use tower::layer::util::Stack;
use tower::{Layer, Service};

use super::error::ApiError;
use super::state::AppState;
use crate::metrics::{RequestCells, RouteCells};

/// The route template requests no route answered are counted under.
pub const UNMATCHED: &str = "unmatched";

/// `layer`, then the counting of each request by the route's template: one
/// layer, for `Router::route_layer` (each layer added to a router wraps
/// every route once more, at a boxed clone and a boxed future a request).
pub fn per_route<L>(requests: RequestCells, layer: L) -> Stack<CountLayer, L> {
    Stack::new(CountLayer { requests }, layer)
}

/// The fallback for a path no route has: 404, counted as `unmatched`.
pub async fn not_found(State(state): State<AppState>) -> ApiError {
    unmatched(&state, ApiError::NotFound)
}

/// The fallback for a method a path does not serve: 405, counted as
/// `unmatched`.
pub async fn method_not_allowed(State(state): State<AppState>) -> ApiError {
    unmatched(&state, ApiError::MethodNotAllowed)
}

/// A fallback's answer, counted (not timed: the router has done all there
/// is to do) and logged.
fn unmatched(state: &AppState, error: ApiError) -> ApiError {
    let status = error.status().as_u16();
    state.metrics.count_untimed(UNMATCHED, status);
    tracing::debug!(status, "answered");
    error
}

/// Adds [`Count`] to each route.
#[derive(Clone, Copy)]
pub struct CountLayer {
    requests: RequestCells,
}

impl<S> Layer<S> for CountLayer {
    type Service = Count<S>;

    fn layer(&self, inner: S) -> Count<S> {
        Count {
            inner,
            requests: self.requests,
        }
    }
}

/// Counts, times and logs each request of one route. Holds only plain
/// references (no reference count to bump), since axum clones a route's
/// services for every request.
#[derive(Clone)]
pub struct Count<S> {
    inner: S,
    requests: RequestCells,
}

impl<S> Service<Request> for Count<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Counted<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let route = match request.extensions().get::<MatchedPath>() {
            Some(path) => path.as_str(),
            None => UNMATCHED,
        };
        Counted {
            cells: self.requests.for_route(route),
            start: Instant::now(),
            inner: self.inner.call(request),
        }
    }
}

pin_project! {
    /// A route's response on its way: counted, timed and logged once ready.
    pub struct Counted<F> {
        #[pin]
        inner: F,
        start: Instant,
        cells: RouteCells,
    }
}

impl<F, E> Future for Counted<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = std::task::ready!(this.inner.poll(cx))?;
        let took = this.start.elapsed();
        this.cells.count(response.status().as_u16(), took);
        answered(&response, took);
        Poll::Ready(Ok(response))
    }
}

/// The log line of an answered request, in its span: a server error at
/// `warn`, anything else at `debug`. A 503 that says when to ask again
/// (`Retry-After`: the table still being read at start, which probes ask
/// every few milliseconds) is expected, and at `debug` too.
fn answered(response: &Response, took: Duration) {
    let status = response.status().as_u16();
    let latency_us = took.as_micros() as u64;
    if response.status().is_server_error()
        && !response
            .headers()
            .contains_key(axum::http::header::RETRY_AFTER)
    {
        tracing::warn!(status, latency_us, "answered");
    } else {
        tracing::debug!(status, latency_us, "answered");
    }
}
