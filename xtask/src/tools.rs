//! External programs: finding them (installing a missing one from
//! Debian's packages when running as root, as scripts/lib/common.sh's
//! `need` does), running them, and errors that name the command and show
//! what it printed.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use anyhow::{Context, Result, bail};

/// Makes sure `program` is on the PATH, installing the Debian package
/// `package` with apt-get when it is missing and we are root.
pub fn need(program: &str, package: &str) -> Result<()> {
    if on_path(program) {
        return Ok(());
    }
    let root = output(Command::new("id").arg("-u"))
        .map(|uid| uid.trim() == "0")
        .unwrap_or(false);
    if !root || !on_path("apt-get") {
        bail!(
            "{program} is missing; install the Debian package {package} (apt-get install {package})"
        );
    }
    eprintln!("xtask: installing {package} with apt-get");
    run(Command::new("apt-get").args(["update", "-qq"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq", package])
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    if !on_path(program) {
        bail!("apt-get installed {package}, but {program} is still not on the PATH");
    }
    Ok(())
}

/// Makes sure the file `path` exists, installing the Debian package
/// `package` that holds it when it is missing and we are root.
pub fn need_file(path: &Path, package: &str) -> Result<()> {
    if path.is_file() {
        return Ok(());
    }
    let root = output(Command::new("id").arg("-u"))
        .map(|uid| uid.trim() == "0")
        .unwrap_or(false);
    if !root || !on_path("apt-get") {
        bail!(
            "{} is missing; install the Debian package {package} (apt-get install {package})",
            path.display()
        );
    }
    eprintln!("xtask: installing {package} with apt-get");
    run(Command::new("apt-get").args(["update", "-qq"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq", package])
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    if !path.is_file() {
        bail!(
            "apt-get installed {package}, but {} is still missing",
            path.display()
        );
    }
    Ok(())
}

/// Whether `program` is an executable on the PATH (or a path to one).
pub fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
        .unwrap_or(false)
}

/// Runs the command to its end, its output shown only if it fails.
pub fn run(command: &mut Command) -> Result<()> {
    capture(command.stdin(Stdio::null())).map(drop)
}

/// Runs the command to its end and returns its standard output.
pub fn output(command: &mut Command) -> Result<String> {
    capture(command.stdin(Stdio::null()))
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The same, with standard input read from the file `stdin`.
pub fn output_from(command: &mut Command, stdin: &Path) -> Result<String> {
    let file = std::fs::File::open(stdin)
        .with_context(|| format!("could not open {}", stdin.display()))?;
    capture(command.stdin(file)).map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs the command with its standard error passed through (cargo's
/// progress, say) and fails if it fails.
pub fn run_shown(command: &mut Command) -> Result<()> {
    let shown = describe(command);
    let status = command
        .stdin(Stdio::null())
        .status()
        .with_context(|| format!("could not start {shown}"))?;
    if !status.success() {
        bail!("{shown} failed ({status})");
    }
    Ok(())
}

/// Runs the command with the standard input it was given.
fn capture(command: &mut Command) -> Result<Output> {
    let shown = describe(command);
    let out = command
        .output()
        .with_context(|| format!("could not start {shown}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        bail!(
            "{shown} failed ({}): {}",
            out.status,
            tail(
                if stderr.trim().is_empty() {
                    &stdout
                } else {
                    &stderr
                },
                20
            )
        );
    }
    Ok(out)
}

/// The command as one would type it, for errors.
pub fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last `lines` lines of `text`, for an error message.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.trim_end().lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// What `/usr/bin/time` saw of one run of a command.
pub struct Timed {
    pub stdout: String,
    pub wall_s: f64,
    pub peak_rss_kb: f64,
}

/// Runs the command under GNU time for its peak RSS, timing its wall
/// clock here; standard input from `stdin` if given, standard output kept
/// (or sent to `stdout_to`).
pub fn timed(
    command: &Command,
    stdin: Option<&Path>,
    stdout_to: Option<&Path>,
    work: &Path,
) -> Result<Timed> {
    need("/usr/bin/time", "time")?;
    let rss_file = work.join("time-rss");
    let mut wrapped = Command::new("/usr/bin/time");
    wrapped
        .args(["-f", "%M", "-o"])
        .arg(&rss_file)
        .arg(command.get_program())
        .args(command.get_args());
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(name, value),
            None => wrapped.env_remove(name),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    let shown = describe(command);
    wrapped.stdin(match stdin {
        Some(path) => Stdio::from(
            std::fs::File::open(path)
                .with_context(|| format!("could not open {}", path.display()))?,
        ),
        None => Stdio::null(),
    });
    if let Some(path) = stdout_to {
        wrapped.stdout(std::fs::File::create(path)?);
    } else {
        wrapped.stdout(Stdio::piped());
    }
    wrapped.stderr(Stdio::piped());
    let started = std::time::Instant::now();
    let out = wrapped
        .spawn()
        .with_context(|| format!("could not start {shown}"))?
        .wait_with_output()?;
    let wall_s = started.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!(
            "{shown} failed ({}): {}",
            out.status,
            tail(&String::from_utf8_lossy(&out.stderr), 20)
        );
    }
    let peak_rss_kb = std::fs::read_to_string(&rss_file)?
        .trim()
        .parse()
        .with_context(|| format!("GNU time wrote no peak RSS for {shown}"))?;
    Ok(Timed {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        wall_s,
        peak_rss_kb,
    })
}
