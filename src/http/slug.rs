//! The slug endpoints: `POST /slug` and `GET /slug` for one title,
//! `POST /slugs` for a batch (one Redis round trip for the whole batch).

use axum::extract::{Query, State};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody};
use super::json::Json;
use super::state::AppState;
use super::warnings::{self, Warning};
use slugd_engine::options::{Options, RawOptions};

/// The newest rule version's number, in the document's examples.
const NEWEST: u64 = slugd_engine::rules::Rules::NEWEST.number();

/// The request body of every slug endpoint (and the query of `GET /slug`).
/// Unknown fields are refused, so a misspelt option is an error, not a
/// silently ignored wish. The option fields are those of [`RawOptions`]
/// (a test checks that the two lists agree), read the same way.
#[derive(Debug, Deserialize, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SlugRequest {
    /// The title, for `/slug`.
    #[schema(example = "This is my ☃ post!")]
    #[param(example = "I ❤ Redis")]
    title: Option<String>,
    /// The titles, for `/slugs`.
    #[param(ignore)]
    titles: Option<Vec<String>>,
    /// Joins words: up to 8 of the characters `-_.~`, or `""` (default `-`).
    #[param(example = ".")]
    separator: Option<String>,
    /// Fold letters to lowercase (default true).
    lowercase: Option<bool>,
    /// Longest slug, cut at a word boundary; at least 1 (default none).
    max_length: Option<usize>,
    /// Spell table characters out by name (default true); false leaves
    /// them to deunicode.
    symbols: Option<bool>,
    /// Whole words dropped, any case (at most 1,000). In a query string:
    /// words separated by commas.
    #[serde(default, deserialize_with = "slugd_engine::options::words")]
    #[schema(value_type = Option<Vec<String>>)]
    #[param(value_type = Option<String>)]
    stopwords: Option<Vec<String>>,
    /// `[from, to]` pairs applied to the title first, in one pass (at most
    /// 100). In a query string: the JSON list, URL-encoded.
    #[serde(default, deserialize_with = "slugd_engine::options::pairs")]
    #[schema(value_type = Option<Vec<Vec<String>>>)]
    #[param(value_type = Option<String>)]
    replacements: Option<Vec<(String, String)>>,
    /// Characters of `._~` kept between letters or digits (default `""`).
    preserve: Option<String>,
    /// The title slugged instead when the slug would be empty.
    fallback: Option<String>,
    /// End words at case changes (default false).
    decamelize: Option<bool>,
    /// A BCP 47 tag (`de`, `pt-BR`): CLDR's names and romanization for
    /// the language; one CLDR has nothing for is a 422 `unknown_locale`.
    locale: Option<String>,
    /// The rule version that makes the slug. Pin a version to keep every
    /// slug exactly as it is across upgrades.
    // The versions, the bound and the example are the rule table's,
    // written in as the document is made (`openapi::rule_versions`).
    #[schema(minimum = 1, maximum = 1)]
    #[param(example = 1)]
    rules: Option<u64>,
    /// ASCII slugs (default true); false keeps the title's own script
    /// (`привет-мир`), NFKC-normalized, and adds the `uri` form. From
    /// rules 3.
    ascii: Option<bool>,
    /// Longest slug in bytes of its URI form (percent-encoded UTF-8; a
    /// WordPress slug column holds 200), cut at a word boundary, never
    /// inside a character or a grapheme cluster; at least 1 (default none).
    max_bytes: Option<usize>,
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
            rules: self.rules,
            ascii: self.ascii,
            max_bytes: self.max_bytes,
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
#[derive(Debug, Serialize, ToSchema)]
pub struct SlugResponse {
    /// The slug; with `ascii: false`, its IRI form (what a reader sees).
    pub slug: String,
    /// With `ascii: false` only: the slug's URI form, its UTF-8
    /// percent-encoded (what goes on the wire).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82-%D0%BC%D0%B8%D1%80")]
    pub uri: Option<String>,
    /// The rule version that made it.
    #[schema(example = 2)]
    pub rules: u64,
    /// What the slug was made without (`reading_not_loaded`: a word read
    /// letter by letter for want of a reading the table does not hold);
    /// absent when nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

/// A batch of slugs, in the order of the titles.
#[derive(Debug, Serialize, ToSchema)]
pub struct SlugsResponse {
    pub slugs: Vec<String>,
    /// With `ascii: false` only: the URI form of each slug, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uris: Option<Vec<String>>,
    /// The rule version that made them.
    #[schema(example = 2)]
    pub rules: u64,
    /// What some slugs were made without, as for `POST /slug`; absent when
    /// nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_slug, post_slug))
        .routes(routes!(post_slugs))
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
    let mut made = state.slugger.slugify(&title, &options).await?;
    match made.slugs.pop().expect("one title in, one slug out") {
        Ok(slug) => Ok(Marked(
            Json(SlugResponse {
                uri: (!options.ascii).then(|| slugd_engine::slug::uri(&slug)),
                slug,
                rules: options.rules.number(),
                warnings: warnings::not_loaded(&made.not_loaded),
            }),
            made.degraded,
        )),
        Err(empty) => Err(ApiError::EmptySlug(empty.to_string())),
    }
}

/// Slugs one title.
#[utoipa::path(post, path = "/slug", tag = "slugs",
    request_body(content = SlugRequest, examples(
        ("snowman" = (value = json!({"title": "This is my ☃ post!"}))),
        ("options" = (value = json!({"title": "The quick brown fox", "max_length": 12, "separator": "_"}))),
        ("locale" = (value = json!({"title": "Größe & Straße", "locale": "de"}))),
        ("own_script" = (value = json!({"title": "Привет, мир", "ascii": false}))),
        ("fallback" = (value = json!({"title": "???", "fallback": "untitled"}))),
        ("empty_slug" = (value = json!({"title": "!!!"}))),
        ("unknown_locale" = (value = json!({"title": "Hello", "locale": "xx"}))),
        ("invalid_request" = (value = json!({"title": "Hello", "separator": "+"}))),
    )),
    responses(
        (status = 200, description = "The slug", body = SlugResponse,
            headers(("x-slugd-degraded" = String, description = "`in-process` when the answer came from the fallback table of `--on-redis-down memory`")),
            examples(
                ("snowman" = (value = json!({"slug": "this-is-my-snowman-post", "rules": NEWEST}))),
                ("options" = (value = json!({"slug": "the_quick", "rules": NEWEST}))),
                ("locale" = (value = json!({"slug": "groesse-und-strasse", "rules": NEWEST}))),
                ("own_script" = (value = json!({"slug": "привет-мир", "uri": "%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82-%D0%BC%D0%B8%D1%80", "rules": NEWEST}))),
                ("fallback" = (value = json!({"slug": "untitled", "rules": NEWEST}))),
                ("reading_not_loaded" = (value = json!({"slug": "mrhba-balalm", "rules": NEWEST, "warnings": [{"code": "reading_not_loaded", "locales": ["ar"], "message": "Arabic without vowel marks was read letter by letter: this table holds no model of the vowels it does not write. To read it as its readers write it, start slugd serve with --locales ar (or all), or load the Redis table with slugd load --locales ar, with the word lists and espeak-ng that scripts/dictionaries.sh installs"}]}))),
            )),
        (status = 400, description = "`malformed_json`: the body is not JSON", body = ErrorBody),
        (status = 408, description = "`body_timeout`: the body came too slowly", body = ErrorBody),
        (status = 413, description = "`too_large`: the body is over the limit", body = ErrorBody),
        (status = 415, description = "`not_json`: the body is not sent as application/json", body = ErrorBody),
        (status = 422, description = "`invalid_request`, `empty_slug` or `unknown_locale`", body = ErrorBody,
            examples(
                ("empty_slug" = (value = json!({"error": "the title has no letters, digits or known symbols, so its slug would be empty", "code": "empty_slug"}))),
                ("unknown_locale" = (value = json!({"error": "locale \"xx\" is unknown: CLDR has no transliteration rules or list patterns for its language", "code": "unknown_locale"}))),
                ("invalid_request" = (value = json!({"error": "separator \"+\" is not allowed: use at most 8 of the characters \"-_.~\" (or \"\" for none)", "code": "invalid_request"}))),
            )),
        (status = 503, description = "`table_unavailable`: Redis cannot answer for a title that needs it", body = ErrorBody),
    ))]
async fn post_slug(
    State(state): State<AppState>,
    Json(request): Json<SlugRequest>,
) -> Result<Marked<Json<SlugResponse>>, ApiError> {
    one(&state, request).await
}

/// Slugs one title given in the query string.
#[utoipa::path(get, path = "/slug", tag = "slugs", params(SlugRequest),
    responses(
        (status = 200, description = "The slug", body = SlugResponse,
            examples(("default" = (value = json!({"slug": "i.heavy.heart.redis", "rules": NEWEST}))))),
        (status = 400, description = "`bad_query`: a value of the wrong type", body = ErrorBody),
        (status = 422, description = "`invalid_request`, `empty_slug` or `unknown_locale`", body = ErrorBody),
        (status = 503, description = "`table_unavailable`", body = ErrorBody),
    ))]
async fn get_slug(
    State(state): State<AppState>,
    query: Result<Query<SlugRequest>, axum::extract::rejection::QueryRejection>,
) -> Result<Marked<Json<SlugResponse>>, ApiError> {
    let Query(request) = query?;
    one(&state, request).await
}

/// Slugs a batch of titles, answered in order, in one Redis round trip.
#[utoipa::path(post, path = "/slugs", tag = "slugs",
    request_body(content = SlugRequest, examples(
        ("batch" = (value = json!({"titles": ["I ❤ Redis", "北京"], "separator": "_"}))),
        ("empty_slug" = (value = json!({"titles": ["Fine", "!!!"]}))),
    )),
    responses(
        (status = 200, description = "The slugs, in the order of the titles", body = SlugsResponse,
            examples(("batch" = (value = json!({"slugs": ["i_heavy_heart_redis", "beijing"], "rules": NEWEST}))))),
        (status = 400, description = "`malformed_json`", body = ErrorBody),
        (status = 413, description = "`too_large`", body = ErrorBody),
        (status = 415, description = "`not_json`", body = ErrorBody),
        (status = 422, description = "`invalid_request`, `too_many_titles`, `empty_slug` (the message lists the indexes) or `unknown_locale`", body = ErrorBody,
            examples(("empty_slug" = (value = json!({"error": "titles at index 1 have no letters, digits or known symbols, so their slugs would be empty; no slug was made", "code": "empty_slug"}))))),
        (status = 503, description = "`table_unavailable`", body = ErrorBody),
    ))]
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
        Json({
            let slugs: Vec<String> = results.slugs.into_iter().flatten().collect();
            SlugsResponse {
                uris: (!options.ascii)
                    .then(|| slugs.iter().map(|s| slugd_engine::slug::uri(s)).collect()),
                slugs,
                rules: options.rules.number(),
                warnings: warnings::not_loaded(&results.not_loaded),
            }
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
            rules: Some(1),
            ascii: Some(false),
            max_bytes: Some(200),
        };
        let mut body = serde_json::to_value(&all).unwrap();
        body["title"] = "x".into();
        let mut request: SlugRequest =
            serde_json::from_value(body).expect("a request takes every option field");
        assert_eq!(request.raw_options(), all);
    }
}
