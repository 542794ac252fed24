//! The baseline of `cargo xtask bench throughput`: a bare axum handler that only runs
//! deunicode on the title and returns JSON, with no table, no options and
//! no validation. It shows what HTTP alone costs on this machine, so slugd's
//! own figures can be read as a ratio to it.
//!
//! `cargo run --release --example bare -- 127.0.0.1:8090`

use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
struct Request {
    title: String,
}

async fn slug(Json(request): Json<Request>) -> Json<Value> {
    Json(json!({ "slug": deunicode::deunicode(&request.title) }))
}

#[tokio::main]
async fn main() {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8090".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
    let app = Router::new().route("/slug", post(slug));
    axum::serve(listener, app).await.expect("serve");
}
