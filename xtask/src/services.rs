//! What the suites start on loopback: `slugd serve` (or any server of
//! ours, alone or under a wrapper such as valgrind), a fresh
//! `redis-server` (which can be killed and restarted on its port) and a
//! 3-primary Redis Cluster, each on a free 127.0.0.1 port, with its log in
//! the run's work directory; and what is read of a running process (RSS,
//! peak RSS, CPU time). A started process is a guard: dropping it stops it
//! with SIGTERM (SIGKILL if it has not gone 5 s later), so an error
//! anywhere stops everything.

use std::fs::File;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::http;
use crate::tools::{self, output, tail};

/// A free port on 127.0.0.1 (free when asked; the kernel may hand it out
/// again, so bind it soon).
pub fn free_port() -> Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .context("could not bind a free port on 127.0.0.1")?;
    Ok(listener.local_addr()?.port())
}

/// A process we started, stopped on drop.
pub struct Process {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Process {
    /// Starts `command` with standard output and error going to
    /// `<work>/<name>.log`.
    pub fn start(name: &str, command: &mut Command, work: &Path) -> Result<Self> {
        let log = work.join(format!("{name}.log"));
        let file =
            File::create(&log).with_context(|| format!("could not create {}", log.display()))?;
        let child = command
            .stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file)
            .spawn()
            .with_context(|| format!("could not start {name}: {}", tools::describe(command)))?;
        Ok(Process {
            name: name.to_owned(),
            child,
            log,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// An error if the process has exited, with the end of its log.
    pub fn check_alive(&mut self) -> Result<()> {
        if let Some(status) = self.child.try_wait()? {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            bail!(
                "{} exited ({status}); its log ends:\n{}",
                self.name,
                tail(&log, 15)
            );
        }
        Ok(())
    }

    /// Stops the process: SIGTERM, then SIGKILL after 5 s.
    pub fn stop(&mut self) {
        self.stop_within(Duration::from_secs(5));
    }

    /// Stops the process: SIGTERM, then SIGKILL after `grace` (a process
    /// under valgrind takes seconds to write its counts).
    pub fn stop_within(&mut self, grace: Duration) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the process at once with SIGKILL, as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// RSS in kB (KiB), from /proc/<pid>/status.
    pub fn rss_kb(&self) -> Result<f64> {
        self.status_kb("VmRSS")
    }

    /// A field of /proc/<pid>/status in kB: `VmRSS`, `VmHWM` (peak RSS).
    pub fn status_kb(&self, field: &str) -> Result<f64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .with_context(|| format!("could not read the memory of {}", self.name))?;
        field_kb(&status, &format!("{field}:"))
            .with_context(|| format!("no {field} for {}", self.name))
    }

    /// CPU time so far, (user, system), in seconds, from /proc/<pid>/stat.
    pub fn cpu_s(&self) -> Result<(f64, f64)> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid()))
            .with_context(|| format!("could not read the CPU time of {}", self.name))?;
        // Fields after the command name, which is in parentheses and may
        // hold spaces: utime and stime are the 14th and 15th of the line.
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |k: usize| fields.get(k).and_then(|t| t.parse::<f64>().ok());
        let (Some(user), Some(system)) = (ticks(11), ticks(12)) else {
            bail!(
                "/proc/{}/stat of {} has no CPU times",
                self.pid(),
                self.name
            );
        };
        let hz = clock_ticks()?;
        Ok((user / hz, system / hz))
    }

    /// PSS in kB, from /proc/<pid>/smaps_rollup: its resident pages, each
    /// shared one divided among the processes that map it.
    pub fn pss_kb(&self) -> Result<f64> {
        let rollup = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", self.pid()))
            .with_context(|| format!("could not read the memory of {}", self.name))?;
        field_kb(&rollup, "Pss:").context("no Pss in smaps_rollup")
    }

    /// (RSS, anonymous memory) in kB, from /proc/<pid>/smaps_rollup.
    pub fn smaps_kb(&self) -> Result<(f64, f64)> {
        let rollup = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", self.pid()))
            .with_context(|| format!("could not read the memory of {}", self.name))?;
        let rss = field_kb(&rollup, "Rss:").context("no Rss in smaps_rollup")?;
        let anon = field_kb(&rollup, "Anonymous:").context("no Anonymous in smaps_rollup")?;
        Ok((rss, anon))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The kernel's clock ticks per second (`getconf CLK_TCK`), which
/// /proc/<pid>/stat counts CPU time in.
fn clock_ticks() -> Result<f64> {
    static HZ: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    if let Some(hz) = HZ.get() {
        return Ok(*hz);
    }
    let hz: f64 = output(Command::new("getconf").arg("CLK_TCK"))?
        .trim()
        .parse()
        .context("getconf CLK_TCK printed no number")?;
    Ok(*HZ.get_or_init(|| hz))
}

fn field_kb(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(name))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Where slugd finds its symbol table.
#[derive(Debug, Clone)]
pub enum Backend {
    InProcess,
    /// A redis:// URL.
    Redis(String),
    /// A Redis Cluster's seed list, host:port,host:port...
    Cluster(String),
    /// Redis Sentinel: the sentinels, host:port,host:port..., watching
    /// the primary `mymaster`.
    Sentinel(String),
}

impl Backend {
    /// Sets the environment slugd reads its backend from, and nothing else
    /// of the caller's REDIS_URL or REDIS_CLUSTER.
    pub fn apply(&self, command: &mut Command) {
        command
            .env_remove("REDIS_URL")
            .env_remove("REDIS_CLUSTER")
            .env_remove("REDIS_SENTINEL");
        match self {
            Backend::InProcess => {}
            Backend::Redis(url) => {
                command.env("REDIS_URL", url);
            }
            Backend::Cluster(seeds) => {
                command.env("REDIS_CLUSTER", seeds);
            }
            Backend::Sentinel(seeds) => {
                command.env("REDIS_SENTINEL", seeds);
            }
        }
    }
}

/// How to tell that a server is ready.
#[derive(Debug, Clone, Copy)]
pub enum Ready {
    /// GET /readyz answers 200 (slugd).
    Readyz,
    /// POST /slug answers 200 (examples/bare.rs, which has no /readyz).
    Slug,
}

/// A server of ours on 127.0.0.1:`port`.
pub struct Server {
    pub process: Process,
    pub port: u16,
}

impl Server {
    /// `slugd --log warn serve --listen 127.0.0.1:PORT ARGS...` on
    /// `backend`, run in the work directory (no data files beside it).
    pub fn slugd(
        name: &str,
        bin: &Path,
        backend: &Backend,
        args: &[&str],
        work: &Path,
    ) -> Result<Self> {
        Server::slugd_under(name, &[], &[], bin, backend, args, work)
    }

    /// The same, run by `wrapper` (`valgrind --tool=callgrind ...`, say;
    /// empty: none) with `env` set.
    pub fn slugd_under(
        name: &str,
        wrapper: &[String],
        env: &[(&str, &str)],
        bin: &Path,
        backend: &Backend,
        args: &[&str],
        work: &Path,
    ) -> Result<Self> {
        let port = free_port()?;
        let mut command = match wrapper.split_first() {
            Some((program, wrapper_args)) => {
                let mut command = Command::new(program);
                command.args(wrapper_args).arg(bin);
                command
            }
            None => Command::new(bin),
        };
        command
            .envs(env.iter().copied())
            .current_dir(work)
            .args([
                "--log",
                "warn",
                "serve",
                "--listen",
                &format!("127.0.0.1:{port}"),
            ])
            .args(args);
        backend.apply(&mut command);
        Ok(Server {
            process: Process::start(name, &mut command, work)?,
            port,
        })
    }

    /// A program that takes its listen address as its only argument.
    pub fn bare(name: &str, bin: &Path, work: &Path) -> Result<Self> {
        let port = free_port()?;
        let mut command = Command::new(bin);
        command.arg(format!("127.0.0.1:{port}"));
        Ok(Server {
            process: Process::start(name, &mut command, work)?,
            port,
        })
    }

    /// Waits until the server is ready (at most 60 s: an in-process start
    /// with every locale reads files for seconds).
    pub fn wait_ready(&mut self, how: Ready) -> Result<()> {
        self.wait_ready_within(how, Duration::from_secs(60))
    }

    /// Waits until the server is ready, at most `limit` (a server under
    /// valgrind starts slowly).
    pub fn wait_ready_within(&mut self, how: Ready, limit: Duration) -> Result<()> {
        let deadline = Instant::now() + limit;
        loop {
            let status = match how {
                Ready::Readyz => http::status(self.port, "GET", "/readyz", None),
                Ready::Slug => http::status(self.port, "POST", "/slug", Some(r#"{"title":"x"}"#)),
            };
            if status == Some(200) {
                return Ok(());
            }
            self.process.check_alive()?;
            if Instant::now() > deadline {
                bail!(
                    "{} is not ready on 127.0.0.1:{} after {} s",
                    self.process.name,
                    self.port,
                    limit.as_secs()
                );
            }
            sleep(Duration::from_millis(20));
        }
    }
}

/// A fresh redis-server on a free loopback port, saving nothing unless
/// told to (SAVE, before a restart).
pub struct Redis {
    pub process: Process,
    pub port: u16,
    /// Its working directory, where SAVE writes and a restart reads.
    dir: PathBuf,
}

impl Redis {
    pub fn start(name: &str, work: &Path) -> Result<Self> {
        tools::need("redis-server", "redis-server")?;
        tools::need("redis-cli", "redis-tools")?;
        let port = free_port()?;
        let dir = work.join(name);
        std::fs::create_dir_all(&dir)?;
        let mut redis = Redis {
            process: Redis::spawn(name, port, &dir, work)?,
            port,
            dir,
        };
        redis.wait_for_ping()?;
        Ok(redis)
    }

    /// redis-server on `port`, its files in `dir`.
    fn spawn(name: &str, port: u16, dir: &Path, work: &Path) -> Result<Process> {
        let mut command = Command::new("redis-server");
        command
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir);
        Process::start(name, &mut command, work)
    }

    /// SAVE, then kill -9 and, `pause` later, a new redis-server on the
    /// same port and files, which loads what was saved; waits for PING.
    pub fn crash_and_restart(&mut self, name: &str, pause: Duration, work: &Path) -> Result<()> {
        self.cli(&["save"])?;
        self.process.kill();
        sleep(pause);
        // The same directory, so the saved table comes back; `name` gives
        // the new process a log of its own.
        self.process = Redis::spawn(name, self.port, &self.dir, work)?;
        self.wait_for_ping()
    }

    fn wait_for_ping(&mut self) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self
            .cli(&["ping"])
            .map(|o| o.trim() != "PONG")
            .unwrap_or(true)
        {
            self.process.check_alive()?;
            if Instant::now() > deadline {
                bail!(
                    "redis-server on port {} does not answer PING after 10 s",
                    self.port
                );
            }
            sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn backend(&self) -> Backend {
        Backend::Redis(self.url())
    }

    /// redis-cli against this server; its standard output.
    pub fn cli(&self, args: &[&str]) -> Result<String> {
        output(
            Command::new("redis-cli")
                .args(["-p", &self.port.to_string()])
                .args(args),
        )
    }

    /// INFO memory's used_memory, in bytes.
    pub fn used_memory(&self) -> Result<f64> {
        info_field(&self.cli(&["info", "memory"])?, "used_memory")
    }

    /// `EVAL script 0 ARGS...` with --raw: what the script returned.
    pub fn eval(&self, script: &str, args: &[&str]) -> Result<String> {
        let mut all = vec!["--raw", "eval", script, "0"];
        all.extend_from_slice(args);
        Ok(self.cli(&all)?.trim().to_owned())
    }

    /// The version of the symbol table in use (`slugd:{ctl}:current`).
    pub fn table_version(&self) -> Result<String> {
        let version = self.cli(&["--raw", "get", "slugd:{ctl}:current"])?;
        let version = version.trim();
        if version.is_empty() {
            bail!("redis-server on port {} holds no symbol table", self.port);
        }
        Ok(version.to_owned())
    }

    /// The size in bytes the loader recorded for the table in use
    /// (`bytes` of its meta hash).
    pub fn table_bytes(&self) -> Result<f64> {
        let meta = format!("slugd:meta:{}", self.table_version()?);
        self.cli(&["--raw", "hget", &meta, "bytes"])?
            .trim()
            .parse()
            .with_context(|| format!("{meta} has no bytes"))
    }
}

fn info_field(info: &str, name: &str) -> Result<f64> {
    info.lines()
        .find_map(|l| l.trim().strip_prefix(&format!("{name}:")))
        .and_then(|v| v.parse().ok())
        .with_context(|| format!("redis-server's INFO has no {name}"))
}

/// A Redis Cluster of three primaries (no replicas) on loopback.
pub struct Cluster {
    pub nodes: Vec<Redis>,
}

impl Cluster {
    pub fn start(work: &Path) -> Result<Self> {
        let mut nodes = Vec::new();
        for k in 0..3 {
            let name = format!("cluster-node-{k}");
            let port = free_port()?;
            let bus = free_port()?;
            let dir = work.join(&name);
            std::fs::create_dir_all(&dir)?;
            let mut command = Command::new("redis-server");
            command
                .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
                .args([
                    "--cluster-port",
                    &bus.to_string(),
                    "--cluster-enabled",
                    "yes",
                ])
                .args([
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    "2000",
                ])
                .args(["--save", "", "--appendonly", "no", "--dir"])
                .arg(&dir);
            let mut node = Redis {
                process: Process::start(&name, &mut command, work)?,
                port,
                dir,
            };
            node.wait_for_ping()?;
            nodes.push(node);
        }
        let addresses: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        tools::run(
            Command::new("redis-cli")
                .args(["--cluster", "create"])
                .args(&addresses)
                .args(["--cluster-replicas", "0", "--cluster-yes"]),
        )?;
        let deadline = Instant::now() + Duration::from_secs(20);
        for node in &nodes {
            while !node.cli(&["cluster", "info"])?.contains("cluster_state:ok") {
                if Instant::now() > deadline {
                    bail!(
                        "the Redis Cluster is not ok after 20 s (node on port {})",
                        node.port
                    );
                }
                sleep(Duration::from_millis(50));
            }
        }
        Ok(Cluster { nodes })
    }

    pub fn backend(&self) -> Backend {
        Backend::Cluster(
            self.nodes
                .iter()
                .map(|n| format!("127.0.0.1:{}", n.port))
                .collect::<Vec<_>>()
                .join(","),
        )
    }
}

/// `slugd --log warn load` into `backend`; what it printed (the table's
/// size).
pub fn load(bin: &Path, backend: &Backend, args: &[&str]) -> Result<String> {
    let mut command = Command::new(bin);
    command.args(["--log", "warn", "load"]).args(args);
    backend.apply(&mut command);
    output(&mut command).context("slugd load failed")
}
