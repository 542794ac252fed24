//! The `slugd` binary: parse the command line, start logging, run the
//! command, turn the outcome into an exit code. Everything else is in the
//! library.

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = slugd::cli::Cli::parse();
    let filter = EnvFilter::try_new(&cli.log).unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    match slugd::cli::run(cli).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("slugd: {e:#}");
            ExitCode::FAILURE
        }
    }
}
