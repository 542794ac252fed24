//! The `slugd` binary: parse the command line, start logging, run the
//! command (on the runtime it needs, see `slugd::commands`), turn the
//! outcome into an exit code. Everything else is in the library.

use std::process::ExitCode;

use clap::Parser;

// jemalloc rather than glibc's malloc: after a flood of connections glibc
// kept the freed memory in its arenas (298 MB of a 324 MB peak still resident
// 30 s after 19,500 connections had closed), while jemalloc's background
// thread gave it back (19.9 MB, 1.36x idle). Measured side by
// side with mimalloc and glibc's own settings: docs/figures.md, "Connection
// flood". The library leaves the allocator to the binary.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
