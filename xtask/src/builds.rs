//! The release binaries a suite runs: this tree's `slugd`, built once with
//! `cargo build --release --locked --bin slugd` (alone: built together
//! with tests or examples it would get the dev-dependencies' features and
//! lose its link order, data/README.md), and with --before, that revision's,
//! built the same way in a git worktree under a temporary directory (its
//! cargo target directory, target/bench/before-target/ (under
//! $CARGO_TARGET_DIR if set), is kept so that
//! the next run rebuilds only slugd). Both binaries are copied into the
//! run's work directory, so a build made meanwhile cannot change them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::settings::Settings;
use crate::tools::{output, run, run_shown};

/// Which build a sample is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// This tree.
    Now,
    /// The --before revision.
    Before,
}

impl Build {
    pub fn label(self) -> &'static str {
        match self {
            Build::Now => "now",
            Build::Before => "before",
        }
    }
}

/// The --before build.
pub struct Before {
    pub bin: PathBuf,
    /// Its commit, and the revision as given.
    pub revision: String,
    /// The commit alone, for a worktree.
    pub commit: String,
}

/// The builds of one run.
pub struct Builds {
    pub now: PathBuf,
    /// HEAD's commit, and whether the tree had uncommitted changes.
    pub now_revision: String,
    pub before: Option<Before>,
}

impl Builds {
    /// Builds slugd (and the --before revision's) and copies the binaries
    /// into `work`.
    pub fn slugd(settings: &Settings, work: &Path) -> Result<Self> {
        let mut builds = Builds::revisions(settings)?;
        eprintln!("xtask: building the release slugd");
        let target = target_dir(&settings.root);
        cargo_release(&settings.root, None, &["--bin", "slugd"])?;
        builds.now = copy_binary(&target.join("release/slugd"), &work.join("slugd-now"))?;
        if let Some(before) = &mut builds.before {
            eprintln!("xtask: building slugd of {}", before.revision);
            let tree = Worktree::add(&settings.root, &before.commit)?;
            let before_target = before_target_dir(&settings.root);
            cargo_release(tree.path(), Some(&before_target), &["--bin", "slugd"])?;
            before.bin = copy_binary(
                &before_target.join("release/slugd"),
                &work.join("slugd-before"),
            )?;
        }
        Ok(builds)
    }

    /// The revisions alone, for a suite that builds through cargo bench.
    pub fn revisions(settings: &Settings) -> Result<Self> {
        let root = &settings.root;
        let head = git(root, &["rev-parse", "--short=12", "HEAD"])?;
        let dirty = !git(root, &["status", "--porcelain", "--untracked-files=no"])?.is_empty();
        let now_revision = if dirty {
            format!("{head} with uncommitted changes")
        } else {
            head
        };
        let before = match &settings.before {
            None => None,
            Some(rev) => {
                let commit = git(
                    root,
                    &[
                        "rev-parse",
                        "--verify",
                        "--quiet",
                        &format!("{rev}^{{commit}}"),
                    ],
                )
                .with_context(|| {
                    format!("--before {rev:?} is not a git revision of this repository")
                })?;
                let short = commit.get(..12).unwrap_or(&commit);
                Some(Before {
                    bin: PathBuf::new(),
                    revision: if short.starts_with(rev.as_str()) {
                        short.to_owned()
                    } else {
                        format!("{short} ({rev})")
                    },
                    commit,
                })
            }
        };
        Ok(Builds {
            now: PathBuf::new(),
            now_revision,
            before,
        })
    }

    /// The builds to measure: now, and before if asked.
    pub fn all(&self) -> Vec<Build> {
        let mut all = vec![Build::Now];
        if self.before.is_some() {
            all.push(Build::Before);
        }
        all
    }

    pub fn bin(&self, build: Build) -> &Path {
        match (build, &self.before) {
            (Build::Before, Some(before)) => &before.bin,
            _ => &self.now,
        }
    }
}

/// Builds an example of this tree with the release profile, in an
/// invocation of its own; returns the path of its binary.
pub fn example(root: &Path, name: &str) -> Result<PathBuf> {
    cargo_release(root, None, &["--example", name])?;
    Ok(target_dir(root).join("release/examples").join(name))
}

/// `cargo build --release --locked ARGS` in `dir`.
fn cargo_release(dir: &Path, target_dir: Option<&Path>, args: &[&str]) -> Result<()> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .current_dir(dir)
        .args(["build", "--release", "--locked", "--quiet"])
        .args(args);
    if let Some(target_dir) = target_dir {
        command.env("CARGO_TARGET_DIR", target_dir);
    }
    run_shown(&mut command)
}

/// Where the --before revision's builds go, kept between runs:
/// target/bench/before-target/.
pub fn before_target_dir(root: &Path) -> PathBuf {
    target_dir(root).join("bench/before-target")
}

/// Where cargo puts this tree's builds: $CARGO_TARGET_DIR or target/.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

fn copy_binary(from: &Path, to: &Path) -> Result<PathBuf> {
    std::fs::copy(from, to).with_context(|| {
        format!(
            "could not copy the binary {} to {}",
            from.display(),
            to.display()
        )
    })?;
    Ok(to.to_path_buf())
}

fn git(root: &Path, args: &[&str]) -> Result<String> {
    Ok(output(Command::new("git").current_dir(root).args(args))?
        .trim()
        .to_owned())
}

/// A detached git worktree of one commit under a temporary directory,
/// removed (with `git worktree remove`) when dropped.
pub struct Worktree {
    root: PathBuf,
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Worktree {
    pub fn add(root: &Path, commit: &str) -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("slugd-before-")
            .tempdir()
            .context("could not make a temporary directory for the --before worktree")?;
        let path = dir.path().join("slugd");
        run(Command::new("git")
            .current_dir(root)
            .args(["worktree", "add", "--detach", "--quiet"])
            .arg(&path)
            .arg(commit))
        .context("could not check out the --before revision in a git worktree")?;
        if !path.join("Cargo.toml").is_file() {
            bail!("the --before revision has no Cargo.toml at its root");
        }
        Ok(Worktree {
            root: root.to_path_buf(),
            _dir: dir,
            path,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let removed = run(Command::new("git")
            .current_dir(&self.root)
            .args(["worktree", "remove", "--force"])
            .arg(&self.path));
        if let Err(error) = removed {
            eprintln!("xtask: {error:#}; `git worktree prune` cleans up after it");
        }
    }
}
