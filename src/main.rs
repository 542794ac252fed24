//! The `slugd` binary: parse the command line, start logging, run the
//! command (on the runtime it needs, see `slugd::commands`), turn the
//! outcome into an exit code. Everything else is in the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = slugd::cli::Cli::parse();
    slugd::telemetry::init(&cli.log, cli.log_format);
    match slugd::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("slugd: {e:#}");
            ExitCode::FAILURE
        }
    }
}
