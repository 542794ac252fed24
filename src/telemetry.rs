//! Logs: where `slugd` writes them (standard error) and in which shape,
//! plain text for people (the default) or one JSON object a line for log
//! shippers (`--log-format json`). A request's lines carry its span, whose
//! `id` is the request id (see `http::edge`).

use tracing_subscriber::EnvFilter;

/// The shape of log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines, with the request's span as `request{id=...}`.
    #[default]
    Text,
    /// One JSON object a line, with the request's span under `span` and
    /// `spans`.
    Json,
}

/// Starts logging to standard error with `filter` (a tracing filter such
/// as `info,slugd=debug`; `info` if it cannot be read) in `format`.
pub fn init(filter: &str, format: LogFormat) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
}
