//! A `slugd serve` process of the test's own: the real binary listening on
//! 127.0.0.1 port 0, the address it bound read back from its "slugd
//! listening" log line (so no port is guessed and none is retried), its
//! standard error kept for the test and shown when it fails to start, and
//! the process killed on drop. The in-process app is in `helpers.rs`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::fixtures::{send_signal, slugd_command};

/// How long `slugd serve` may take to open the service and bind (a debug
/// build on a busy machine, reading the shipped table); and how long it may
/// take to exit after a signal.
const START_WITHIN: Duration = Duration::from_secs(30);
const EXIT_WITHIN: Duration = Duration::from_secs(30);
/// How long it may take to read its table once it listens: a model of
/// vowels made for the first time takes minutes on a busy machine.
const LOAD_WITHIN: Duration = Duration::from_secs(900);

/// How a [`ServeProcess`] starts: [`ServeProcess::builder`], the test's
/// arguments, environment, working directory and log filter, then
/// [`ServeBuilder::start`].
pub struct ServeBuilder {
    args: Vec<String>,
    envs: Vec<(String, String)>,
    /// Variables of [`slugd_command`] the process does not get.
    removed: Vec<String>,
    /// Its working directory; the test's own unless given.
    dir: Option<PathBuf>,
    log: String,
}

impl ServeBuilder {
    /// Arguments after `serve --listen 127.0.0.1:0` (so not `--listen`,
    /// and not `--log`: see [`ServeBuilder::log`]).
    pub fn args<S: AsRef<str>>(mut self, args: impl IntoIterator<Item = S>) -> Self {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// An environment variable of the process, beside those of
    /// [`slugd_command`].
    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Self {
        let value = value.as_ref().to_string_lossy().into_owned();
        self.envs.push((key.to_owned(), value));
        self
    }

    /// Leaves `key` out of the process's environment, one that
    /// [`slugd_command`] sets (`SLUGD_DATA`, `SLUGD_CLDR`).
    pub fn env_remove(mut self, key: &str) -> Self {
        self.removed.push(key.to_owned());
        self
    }

    /// Runs the process in `dir`.
    pub fn current_dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_owned());
        self
    }

    /// What to log (`--log`), `info` unless given. `slugd::serve=info` is
    /// always added: it carries the line the address is read from.
    pub fn log(mut self, filter: &str) -> Self {
        filter.clone_into(&mut self.log);
        self
    }

    /// Starts the process and returns once it listens and its table is
    /// read ([`ServeBuilder::listening`], then `/readyz` no longer answers
    /// `loading`). Panics with its standard error if it exits first.
    pub async fn start(self) -> ServeProcess {
        let serve = self.listening().await;
        serve.until_loaded().await;
        serve
    }

    /// Starts the process and returns once it has logged the address it
    /// listens on (its table may still be being read). Panics with its
    /// standard error if it exits first or says nothing of the kind within
    /// [`START_WITHIN`].
    pub async fn listening(self) -> ServeProcess {
        let mut command = slugd_command();
        command
            .arg("--log")
            .arg(format!("{},slugd::serve=info", self.log))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(&self.args)
            // Text lines without colour codes: the address is read from
            // them, and tests look into them.
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (key, value) in &self.envs {
            command.env(key, value);
        }
        for key in &self.removed {
            command.env_remove(key);
        }
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().expect("the slugd binary starts");
        let log = Arc::new(Mutex::new(String::new()));
        let (listening, heard) = oneshot::channel();
        let reader = read_log(&mut child, log.clone(), listening);
        let mut serve = ServeProcess {
            child: Some(child),
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            log,
            reader: Some(reader),
        };
        match tokio::time::timeout(START_WITHIN, heard).await {
            Ok(Ok(addr)) => {
                serve.addr = addr;
                serve
            }
            // Its standard error closed before the line: it exited.
            Ok(Err(_)) => {
                let status = serve.child.as_mut().unwrap().wait().unwrap();
                panic!(
                    "slugd serve {:?} exited ({status}) before listening; its standard error:\n{}",
                    self.args,
                    serve.log()
                );
            }
            Err(_) => panic!(
                "slugd serve {:?} did not log \"slugd listening\" within {START_WITHIN:?}; \
                 its standard error:\n{}",
                self.args,
                serve.log()
            ),
        }
    }
}

/// Copies `child`'s standard error, line by line, into `log` until it
/// closes; sends the address of the first "slugd listening" line.
fn read_log(
    child: &mut Child,
    log: Arc<Mutex<String>>,
    listening: oneshot::Sender<SocketAddr>,
) -> JoinHandle<()> {
    let stderr = child.stderr.take().expect("standard error is piped");
    std::thread::spawn(move || {
        let mut listening = Some(listening);
        for line in BufReader::new(stderr).split(b'\n') {
            let Ok(line) = line else { break };
            let line = String::from_utf8_lossy(&line);
            if let Some(addr) = listening_addr(&line)
                && let Some(tx) = listening.take()
            {
                let _ = tx.send(addr);
            }
            let mut log = log.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    })
}

/// The `addr` of a "slugd listening" line in either log format: text
/// (`... slugd listening addr=127.0.0.1:40123 names=...`) or JSON
/// (`{"fields":{"message":"slugd listening","addr":"127.0.0.1:40123",...}}`).
fn listening_addr(line: &str) -> Option<SocketAddr> {
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(line) {
        let fields = &json["fields"];
        return match fields["message"] == "slugd listening" {
            true => fields["addr"].as_str()?.parse().ok(),
            false => None,
        };
    }
    let (_, after) = line.split_once(" slugd listening ")?;
    after
        .split_whitespace()
        .find_map(|field| field.strip_prefix("addr="))?
        .parse()
        .ok()
}

/// A running `slugd serve`, killed on drop.
pub struct ServeProcess {
    /// `None` once [`ServeProcess::wait`] has taken it.
    child: Option<Child>,
    /// Where it listens, as it logged it.
    pub addr: SocketAddr,
    /// Its standard error so far, filled by `reader`.
    log: Arc<Mutex<String>>,
    reader: Option<JoinHandle<()>>,
}

/// How a [`ServeProcess`] ended: its exit status and all it logged.
pub struct Stopped {
    pub status: ExitStatus,
    pub log: String,
}

impl ServeProcess {
    /// A process to configure: `slugd serve`, in-process unless its
    /// arguments name a Redis.
    pub fn builder() -> ServeBuilder {
        ServeBuilder {
            args: Vec::new(),
            envs: Vec::new(),
            removed: Vec::new(),
            dir: None,
            log: "info".to_owned(),
        }
    }

    /// `http://` its address and `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// What it has written to standard error so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Waits until it answers 200 on `path`, for at most 10 s.
    pub async fn wait_until_ok(&self, path: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let answer = reqwest::get(self.url(path)).await;
            if let Ok(r) = &answer
                && r.status() == 200
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "slugd on {} did not answer 200 on {path}: {answer:?}; its standard error:\n{}",
                self.addr,
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits while `/readyz` answers `loading` (its in-process table is
    /// being read: seconds, or minutes where a model of vowels is made
    /// for the first time), for at most [`LOAD_WITHIN`]. Panics with its
    /// standard error if it exits meanwhile.
    pub async fn until_loaded(&self) {
        let deadline = Instant::now() + LOAD_WITHIN;
        loop {
            let answer = reqwest::get(self.url("/readyz")).await;
            let loading = match answer {
                Ok(r) => {
                    r.status() == 503
                        && r.json::<serde_json::Value>()
                            .await
                            .is_ok_and(|b| b["code"] == "loading")
                }
                // Not answering at all: it exited (said below), or a
                // connection was refused for a moment.
                Err(_) => true,
            };
            if !loading {
                return;
            }
            // Its standard error closes when it exits.
            assert!(
                !self.reader.as_ref().is_some_and(|r| r.is_finished()),
                "slugd serve exited while its table was read; its standard error:\n{}",
                self.log()
            );
            assert!(
                Instant::now() < deadline,
                "slugd serve still loading after {LOAD_WITHIN:?}; its standard error:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Sends it `signal` (`TERM`, `INT`).
    pub fn signal(&self, signal: &str) {
        send_signal(self.child.as_ref().expect("still running").id(), signal);
    }

    /// Sends it `signal`, then [`ServeProcess::wait`]s.
    pub async fn stop(self, signal: &str) -> Stopped {
        self.signal(signal);
        self.wait().await
    }

    /// Waits for it to exit (after a signal), for at most [`EXIT_WITHIN`];
    /// returns how it exited and all it logged.
    pub async fn wait(mut self) -> Stopped {
        let mut child = self.child.take().expect("still running");
        let pid = child.id();
        let reader = self.reader.take();
        let exited = tokio::task::spawn_blocking(move || {
            let status = child.wait().unwrap();
            if let Some(reader) = reader {
                reader.join().unwrap();
            }
            status
        });
        match tokio::time::timeout(EXIT_WITHIN, exited).await {
            Ok(status) => Stopped {
                status: status.unwrap(),
                log: self.log(),
            },
            Err(_) => {
                send_signal(pid, "KILL");
                panic!(
                    "slugd serve did not exit within {EXIT_WITHIN:?}; its standard error:\n{}",
                    self.log()
                );
            }
        }
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn the_address_is_read_from_either_log_format() {
    let text = "2026-12-01T09:11:11.915083Z  INFO slugd::serve: slugd listening \
                addr=127.0.0.1:44293 names=in_process data/UnicodeData.txt";
    let json = r#"{"timestamp":"2026-12-01T09:10:34.450549Z","level":"INFO","fields":{"message":"slugd listening","addr":"127.0.0.1:43439","names":"in_process data/UnicodeData.txt"},"target":"slugd::serve"}"#;
    assert_eq!(
        listening_addr(text),
        Some("127.0.0.1:44293".parse().unwrap())
    );
    assert_eq!(
        listening_addr(json),
        Some("127.0.0.1:43439".parse().unwrap())
    );
    let other = "2026-12-01T09:10:31Z  INFO slugd::table: in-process symbol table ready";
    assert_eq!(listening_addr(other), None);
}

#[tokio::test]
#[should_panic(expected = "is not a Redis URL: relative URL without a base")]
async fn a_process_that_exits_before_listening_fails_with_its_standard_error() {
    ServeProcess::builder()
        .args(["--redis-url", "nonsense"])
        .start()
        .await;
}
