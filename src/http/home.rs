//! `GET /`: the home page, one HTML file with its styles and script
//! inline (`home/index.html`, embedded at build time), so it works with no
//! network. It slugs a title as it is typed (`GET /slug`), lists the
//! loaded locales (`GET /locales`) and runs `/bench`, drawing each side's
//! latency distribution in SVG. `/?bench=1` runs the bench on load (for
//! the screenshot and the browser test).

use axum::response::Html;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::state::AppState;

/// The page, as built into the binary.
const PAGE: &str = include_str!("home/index.html");

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(home))
}

/// The home page: try slugs, see the locales, run the benchmark.
#[utoipa::path(get, path = "/", tag = "meta",
    responses((status = 200, description = "An HTML page with no external assets", content_type = "text/html")))]
async fn home() -> Html<&'static str> {
    Html(PAGE)
}
