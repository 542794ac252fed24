//! The slug endpoints: `POST /slug` and `GET /slug` for one title,
//! `POST /slugs` for a batch (one Redis round trip for the whole batch).

use axum::Router;
use axum::extract::{Query, State};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::json::Json;
use super::state::AppState;
use crate::options::{Options, RawOptions};

/// The request body of every slug endpoint (and the query of `GET /slug`).
/// Unknown fields are refused, so a misspelt option is an error, not a
/// silently ignored wish. The option fields are those of [`RawOptions`]
/// (a test checks that the two lists agree), read the same way.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlugRequest {
    /// The title, for `/slug`.
    title: Option<String>,
    /// The titles, for `/slugs`.
    titles: Option<Vec<String>>,
    separator: Option<String>,
    lowercase: Option<bool>,
    max_length: Option<usize>,
    symbols: Option<bool>,
    #[serde(default, deserialize_with = "crate::options::words")]
    stopwords: Option<Vec<String>>,
    #[serde(default, deserialize_with = "crate::options::pairs")]
    replacements: Option<Vec<(String, String)>>,
    preserve: Option<String>,
    fallback: Option<String>,
    decamelize: Option<bool>,
    locale: Option<String>,
}

impl SlugRequest {
    /// The request's options over the service's defaults.
    fn options(&mut self, defaults: &Options) -> Result<Options, ApiError> {
        self.raw_options()
            .validate_over(defaults)
            .map_err(ApiError::from)
    }

    /// The option fields, as given.
    fn raw_options(&mut self) -> RawOptions {
        RawOptions {
            separator: self.separator.take(),
            lowercase: self.lowercase,
            max_length: self.max_length,
            symbols: self.symbols,
            stopwords: self.stopwords.take(),
            replacements: self.replacements.take(),
            preserve: self.preserve.take(),
            fallback: self.fallback.take(),
            decamelize: self.decamelize,
            locale: self.locale.take(),
        }
    }

    fn title(mut self, defaults: &Options) -> Result<(String, Options), ApiError> {
        let options = self.options(defaults)?;
        match (self.title, self.titles) {
            (Some(title), None) => Ok((title, options)),
            (_, Some(_)) => Err(ApiError::Invalid(
                "this endpoint takes one \"title\"; send \"titles\" to POST /slugs".to_owned(),
            )),
            (None, None) => Err(ApiError::Invalid(
                "missing field `title`: send {\"title\": \"Your title\"}".to_owned(),
            )),
        }
    }

    fn titles(mut self, defaults: &Options) -> Result<(Vec<String>, Options), ApiError> {
        let options = self.options(defaults)?;
        match (self.title, self.titles) {
            (None, Some(titles)) => Ok((titles, options)),
            (Some(_), _) => Err(ApiError::Invalid(
                "this endpoint takes a list \"titles\"; send one \"title\" to POST /slug"
                    .to_owned(),
            )),
            (None, None) => Err(ApiError::Invalid(
                "missing field `titles`: send {\"titles\": [\"First\", \"Second\"]}".to_owned(),
            )),
        }
    }
}

/// One slug.
#[derive(Debug, Serialize)]
pub struct SlugResponse {
    pub slug: String,
}

/// A batch of slugs, in the order of the titles.
#[derive(Debug, Serialize)]
pub struct SlugsResponse {
    pub slugs: Vec<String>,
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/slug", get(get_slug).post(post_slug))
        .route("/slugs", axum::routing::post(post_slugs))
}

/// The header that marks answers from the in-process fallback table of
/// `--on-redis-down memory`.
pub const DEGRADED_HEADER: &str = "x-slugd-degraded";

/// A response, marked when it came from the fallback table.
pub struct Marked<T>(T, bool);

impl<T: IntoResponse> IntoResponse for Marked<T> {
    fn into_response(self) -> Response {
        let mut response = self.0.into_response();
        if self.1 {
            response
                .headers_mut()
                .insert(DEGRADED_HEADER, HeaderValue::from_static("in-process"));
        }
        response
    }
}

async fn one(
    state: &AppState,
    request: SlugRequest,
) -> Result<Marked<Json<SlugResponse>>, ApiError> {
    let (title, options) = request.title(&state.defaults)?;
    match state.slugger.slugify(&title, &options).await? {
        (Ok(slug), degraded) => Ok(Marked(Json(SlugResponse { slug }), degraded)),
        (Err(empty), _) => Err(ApiError::EmptySlug(empty.to_string())),
    }
}

async fn post_slug(
    State(state): State<AppState>,
    Json(request): Json<SlugRequest>,
) -> Result<Marked<Json<SlugResponse>>, ApiError> {
    one(&state, request).await
}

async fn get_slug(
    State(state): State<AppState>,
    query: Result<Query<SlugRequest>, axum::extract::rejection::QueryRejection>,
) -> Result<Marked<Json<SlugResponse>>, ApiError> {
    let Query(request) = query?;
    one(&state, request).await
}

async fn post_slugs(
    State(state): State<AppState>,
    Json(request): Json<SlugRequest>,
) -> Result<Marked<Json<SlugsResponse>>, ApiError> {
    let (titles, options) = request.titles(&state.defaults)?;
    let max = state.limits.batch_titles;
    if titles.len() > max {
        return Err(ApiError::TooManyTitles {
            max,
            got: titles.len(),
        });
    }
    let results = state.slugger.slugify_all(&titles, &options).await?;
    let empty: Vec<usize> = results
        .slugs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_err())
        .map(|(i, _)| i)
        .collect();
    if !empty.is_empty() {
        let shown: Vec<String> = empty.iter().take(10).map(usize::to_string).collect();
        let more = if empty.len() > 10 {
            format!(" and {} more", empty.len() - 10)
        } else {
            String::new()
        };
        return Err(ApiError::EmptySlug(format!(
            "titles at index {}{more} have no letters, digits or known symbols, so their slugs would be empty; no slug was made",
            shown.join(", ")
        )));
    }
    Ok(Marked(
        Json(SlugsResponse {
            slugs: results.slugs.into_iter().flatten().collect(),
        }),
        results.degraded,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of `RawOptions` (the literal lists them all, so a new one
    /// does not compile until it is added here) is a field of a request,
    /// and reaches the options.
    #[test]
    fn a_request_takes_every_option_field_and_hands_each_on() {
        let all = RawOptions {
            separator: Some("_".into()),
            lowercase: Some(false),
            max_length: Some(9),
            symbols: Some(false),
            stopwords: Some(vec!["a".into()]),
            replacements: Some(vec![("%".into(), "pct".into())]),
            preserve: Some(".".into()),
            fallback: Some("none".into()),
            decamelize: Some(true),
            locale: Some("de".into()),
        };
        let mut body = serde_json::to_value(&all).unwrap();
        body["title"] = "x".into();
        let mut request: SlugRequest =
            serde_json::from_value(body).expect("a request takes every option field");
        assert_eq!(request.raw_options(), all);
    }
}
