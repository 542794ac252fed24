//! What each command does once its settings are valid: `serve` runs the
//! service until Ctrl-C or SIGTERM, `load` runs the loader and prints its
//! report, `slugify` slugs one title or standard input, `probe` asks a
//! service whether it is ready, `import` and `export` move a scope's
//! reservations in and out as NDJSON. The clap types that
//! lead here are in [`crate::cli`].

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::load::{self, LoadSettings};
use crate::metrics::Metrics;
use crate::metrics::RedisCalls;
use crate::probe::{self, ProbeSettings};
use crate::redis_conn::RedisConfig;
use crate::reserve::{RedisStore, Scope, WaitReplicas, export, import};
use crate::serve::{self, ServeSettings};
use crate::slugger::Slugger;
use crate::stream;
use crate::table::{SymbolTable, TableSettings, prepared, vowels};
use slugd_engine::readers::vowels::Language;
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
    /// `slugd prepare`.
    Prepare(PrepareSettings),
    /// `slugd import`.
    Import(ImportSettings),
    /// `slugd export`.
    Export(ScopeSettings),
}

/// A scope of reservations in Redis: what `import` and `export` need.
#[derive(Debug)]
pub struct ScopeSettings {
    /// The Redis of the reservations.
    pub redis: RedisConfig,
    /// The key prefix, as the service's.
    pub prefix: String,
    /// The scope.
    pub scope: Scope,
}

/// What `slugd import` needs.
#[derive(Debug)]
pub struct ImportSettings {
    /// Where.
    pub scope: ScopeSettings,
    /// The file; `None`: standard input.
    pub file: Option<PathBuf>,
    /// A progress bar when standard error is a terminal.
    pub progress: bool,
    /// Make the scope case-insensitive first (`--case-insensitive`).
    pub case_insensitive: bool,
    /// Wait for replicas after each batch (`--reservation-replicas`).
    pub wait: Option<WaitReplicas>,
}

/// What `slugd prepare` needs.
#[derive(Debug)]
pub struct PrepareSettings {
    /// The models to prepare, each with its word list.
    pub vowels: Vec<(Language, PathBuf)>,
    /// Where.
    pub cache: PathBuf,
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
        Task::Slugify(_)
        | Task::Probe(_)
        | Task::Prepare(_)
        | Task::Import(_)
        | Task::Export(_) => tokio::runtime::Builder::new_current_thread(),
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
        Task::Prepare(settings) => prepare(settings).await,
        Task::Import(settings) => import(settings).await,
        Task::Export(settings) => export(settings).await,
        Task::Probe(settings) => {
            let body = probe::probe(&settings).await?;
            println!("{body}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prepares each model asked for, a line each on standard output (its
/// language, whether it was prepared now or already, its contexts and
/// file); a model that cannot be made is a line on standard error, with
/// what to install, and exit 1.
async fn prepare(settings: PrepareSettings) -> anyhow::Result<ExitCode> {
    if settings.vowels.is_empty() {
        bail!("--locales has none of fa, ur and ar: no model of vowels to prepare");
    }
    // Its work is to write there: a directory that cannot be made fails
    // before any model is.
    std::fs::create_dir_all(&settings.cache).with_context(|| {
        format!(
            "the cache directory {} cannot be written; give --cache-dir (SLUGD_CACHE_DIR) one this user may write",
            settings.cache.display()
        )
    })?;
    let mut failed = false;
    for (language, words) in settings.vowels {
        let cache = settings.cache.clone();
        let made =
            tokio::task::spawn_blocking(move || prepared::model(language, &words, Some(&cache)))
                .await
                .unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()));
        match made {
            Ok(prepared) if prepared.source == prepared::Source::InMemory => {
                failed = true;
                eprintln!(
                    "slugd: {}'s model of vowels was made, but its file cannot be written in {} (the log above says why)",
                    language.name(),
                    settings.cache.display()
                );
            }
            Ok(prepared) => println!(
                "{}: {}, {} contexts{}, {}",
                language.name(),
                prepared.source.describe(),
                prepared.model.entries(),
                match prepared.model.names().len() {
                    0 => String::new(),
                    n => format!(", {n} names"),
                },
                prepared
                    .path
                    .as_deref()
                    .map_or_else(|| "no file".to_owned(), |p| p.display().to_string())
            ),
            Err(e) => {
                failed = true;
                let how = match e.is_missing() {
                    true => format!("; {}", vowels::how_to_get(language)),
                    false => String::new(),
                };
                eprintln!(
                    "slugd: {}'s model of vowels not prepared: {:#}{how}",
                    language.name(),
                    anyhow::Error::from(e)
                );
            }
        }
    }
    Ok(match failed {
        false => ExitCode::SUCCESS,
        true => ExitCode::FAILURE,
    })
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
        let mut made = slugger.slugify(&title, &options).await?;
        stream::warn_not_loaded(&made.not_loaded);
        return match made.slugs.pop().expect("one title in, one slug out") {
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

/// The store of `settings`' Redis (connected lazily), waiting for
/// replicas after each write with `wait`.
fn store(settings: &ScopeSettings, wait: Option<WaitReplicas>) -> anyhow::Result<RedisStore> {
    RedisStore::new(&settings.redis, &settings.prefix, wait, RedisCalls::noop())
        .context("cannot reach the Redis of the reservations")
}

async fn import(settings: ImportSettings) -> anyhow::Result<ExitCode> {
    use tokio::io::{AsyncBufRead, BufReader};
    let store = store(&settings.scope, settings.wait)?;
    let scope = &settings.scope.scope;
    if settings.case_insensitive {
        store
            .set_case_insensitive(scope, true)
            .await
            .context("--case-insensitive")?;
    }
    let (input, size): (Box<dyn AsyncBufRead + Unpin>, Option<u64>) = match &settings.file {
        Some(path) => {
            let file = tokio::fs::File::open(path)
                .await
                .with_context(|| format!("cannot open {}", path.display()))?;
            let size = file.metadata().await.ok().map(|m| m.len());
            (Box::new(BufReader::with_capacity(1 << 16, file)), size)
        }
        None => (
            Box::new(BufReader::with_capacity(1 << 16, tokio::io::stdin())),
            None,
        ),
    };
    let bar = match settings.progress && std::io::stderr().is_terminal() {
        false => indicatif::ProgressBar::hidden(),
        true => match size {
            Some(bytes) => indicatif::ProgressBar::new(bytes).with_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            ),
            None => indicatif::ProgressBar::new_spinner().with_style(
                indicatif::ProgressStyle::with_template("{spinner} {bytes} read, {bytes_per_sec}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            ),
        },
    };
    let counts = import::import(
        &store,
        scope,
        input,
        |refusal| {
            bar.suspend(|| match &refusal.slug {
                Some(slug) => eprintln!("line {}: {slug:?}: {}", refusal.line, refusal.why),
                None => eprintln!("line {}: {}", refusal.line, refusal.why),
            })
        },
        |bytes| bar.set_position(bytes),
    )
    .await;
    bar.finish_and_clear();
    let counts =
        counts.with_context(|| format!("importing into scope {:?} failed", scope.as_str()))?;
    println!(
        "scope {:?}: {} lines, {} imported, {} unchanged (the owner's already), {} holds updated, {} refused",
        scope.as_str(),
        counts.lines,
        counts.imported,
        counts.unchanged,
        counts.updated,
        counts.refused
    );
    Ok(match counts.refused {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    })
}

async fn export(settings: ScopeSettings) -> anyhow::Result<ExitCode> {
    use tokio::io::AsyncWriteExt;
    let store = store(&settings, None)?;
    let mut out = tokio::io::BufWriter::with_capacity(1 << 16, tokio::io::stdout());
    for chunk in 0..export::CHUNKS {
        let lines = export::chunk(&store, &settings.scope, chunk)
            .await
            .with_context(|| {
                format!(
                    "exporting scope {:?} failed; the output stops short of its end",
                    settings.scope.as_str()
                )
            })?;
        out.write_all(&lines)
            .await
            .context("cannot write the export")?;
    }
    out.flush().await.context("cannot write the export")?;
    Ok(ExitCode::SUCCESS)
}
