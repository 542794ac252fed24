//! What each command does once its settings are valid: `serve` runs the
//! service until Ctrl-C or SIGTERM, `load` runs the loader and prints its
//! report, `slugify` slugs one title or standard input, `probe` asks a
//! service whether it is ready. The clap types that
//! lead here are in [`crate::cli`].

use std::num::NonZeroUsize;
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::load::{self, LoadSettings};
use crate::metrics::Metrics;
use crate::probe::{self, ProbeSettings};
use crate::serve::{self, ServeSettings};
use crate::slugger::Slugger;
use crate::stream;
use crate::table::{SymbolTable, TableSettings};
use slugd_engine::slug::Options;

/// A command with its validated settings.
#[derive(Debug)]
pub enum Task {
    /// `slugd serve`.
    Serve(ServeSettings),
    /// `slugd load`.
    Load(LoadSettings),
    /// `slugd slugify`.
    Slugify(SlugifySettings),
    /// `slugd probe`.
    Probe(ProbeSettings),
}

/// What `slugd slugify` needs.
#[derive(Debug)]
pub struct SlugifySettings {
    /// Where the table comes from.
    pub table: TableSettings,
    pub options: Options,
    /// One title, or `None` for each line of standard input.
    pub title: Option<String>,
    /// Print the slugs' URI form (`--uri`).
    pub uri: bool,
    /// Workers slugging standard input (`--threads`).
    pub threads: NonZeroUsize,
}

/// Runs a command to its end, on a tokio runtime that fits it: `serve` and
/// `load` on the multi-thread runtime (a worker thread per core), `slugify`
/// and `probe` on a current-thread runtime. Those two wait on one thing at
/// a time; starting worker threads and joining them at exit would be most
/// of what `slugd slugify x` costs (a title, or each line of standard
/// input, is slugged on this thread or on one blocking thread).
pub fn run(task: Task) -> anyhow::Result<ExitCode> {
    let mut runtime = match &task {
        Task::Serve(_) | Task::Load(_) => tokio::runtime::Builder::new_multi_thread(),
        Task::Slugify(_) | Task::Probe(_) => tokio::runtime::Builder::new_current_thread(),
    };
    let runtime = runtime
        .enable_all()
        .build()
        .context("cannot start tokio's runtime")?;
    runtime.block_on(run_task(task))
}

async fn run_task(task: Task) -> anyhow::Result<ExitCode> {
    match task {
        Task::Serve(settings) => {
            serve::run(settings, serve::shutdown_signal()).await?;
            Ok(ExitCode::SUCCESS)
        }
        Task::Load(settings) => {
            let report = load::run(&settings).await.with_context(|| {
                format!(
                    "loading {} into {} failed",
                    settings.data, settings.redis.endpoint
                )
            })?;
            println!("{report}");
            Ok(ExitCode::SUCCESS)
        }
        Task::Slugify(settings) => slugify(settings).await,
        Task::Probe(settings) => {
            let body = probe::probe(&settings).await?;
            println!("{body}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

async fn slugify(settings: SlugifySettings) -> anyhow::Result<ExitCode> {
    let SlugifySettings {
        table,
        options,
        title,
        uri,
        threads,
    } = settings;
    let slugger = Slugger::new(SymbolTable::open(&table, &Metrics::noop()).await?);
    if let Some(title) = title {
        return match slugger.slugify(&title, &options).await?.0 {
            Ok(slug) if uri => {
                println!("{}", slugd_engine::slug::uri(&slug));
                Ok(ExitCode::SUCCESS)
            }
            Ok(slug) => {
                println!("{slug}");
                Ok(ExitCode::SUCCESS)
            }
            Err(empty) => bail!("{empty}"),
        };
    }
    let runtime = tokio::runtime::Handle::current();
    let report = tokio::task::spawn_blocking(move || {
        // Read on a thread of its own, so not locked (a lock is not Send).
        let stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
        let stdout = std::io::stdout().lock();
        let stream = stream::Stream {
            slugger,
            options,
            uri,
            threads,
            runtime,
        };
        stream.slugify_lines(stdin, stdout, std::io::stderr())
    })
    .await??;
    Ok(match report.failed {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    })
}
