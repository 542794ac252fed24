//! The JSON extractor every handler uses: `axum::Json` with this API's error
//! shape for every rejection, a body-size limit and a body timeout.

use std::future::Future;
use std::task::Poll;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use super::state::AppState;

/// `axum::Json` with this API's error shape for every rejection.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + Send> FromRequest<AppState> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        // The body must arrive within the limit: a client trickling it in
        // would otherwise hold a connection and a buffer for ever. Almost
        // always it came with the headers, so read once first and start a
        // timer (which costs about a tenth of a small request's time) only
        // if the body is not all there yet.
        let limit = state.limits.body_timeout;
        let mut read = std::pin::pin!(axum::Json::<T>::from_request(req, state));
        let first = std::future::poll_fn(|cx| Poll::Ready(read.as_mut().poll(cx))).await;
        let result = match first {
            Poll::Ready(result) => result,
            Poll::Pending => match tokio::time::timeout(limit, read).await {
                Ok(result) => result,
                Err(_) => return Err(ApiError::BodyTimeout(limit)),
            },
        };
        match result {
            Ok(axum::Json(value)) => Ok(Json(value)),
            Err(JsonRejection::BytesRejection(e))
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(ApiError::TooLarge(state.limits.body_bytes))
            }
            Err(e) => Err(e.into()),
        }
    }
}

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}
