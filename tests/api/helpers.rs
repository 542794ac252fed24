//! The world each test owns: a real `redis-server` on a free loopback port
//! (killed on drop, its log shown if it fails to start) and the real app on
//! port 0, reached over real HTTP.

use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use slugd::http::Limits;
use slugd::load::{LoadReport, LoadSettings};
use slugd::redis_conn::Conn;
use slugd::redis_conn::{Endpoint, RedisConfig, RedisUrl};
use slugd::serve::ServeSettings;
use slugd::table::TableSettings;
use slugd::unicode_data::Categories;
use tokio::sync::oneshot;

/// The shipped data file.
pub fn data_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/UnicodeData.txt")
}

/// The shipped data file with one name changed (U+2603 SNOWMAN becomes
/// SNOWPERSON), for tests of reloads.
pub fn snowman_renamed() -> tempfile::NamedTempFile {
    let text = std::fs::read_to_string(data_file()).unwrap();
    let changed = text.replace("2603;SNOWMAN;So", "2603;SNOWPERSON;So");
    assert_ne!(text, changed);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut file, changed.as_bytes()).unwrap();
    file
}

/// The number after `prefix` in an `INFO` reply (up to a comma or the line's
/// end), or 0 when the line is absent.
pub fn info_number(info: &str, prefix: &str) -> u64 {
    info.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .and_then(|rest| rest.split(',').next()?.trim().parse().ok())
        .unwrap_or(0)
}

/// A loopback port free right now.
pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// A CA and a certificate for 127.0.0.1 it signed, made by `openssl` in a
/// directory of the test's own.
pub struct TestCerts {
    _dir: tempfile::TempDir,
    pub ca: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl TestCerts {
    pub fn make() -> TestCerts {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = |name: &str| dir.path().join(name).display().to_string();
        std::fs::write(
            path("ext.cnf"),
            "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
        )
        .unwrap();
        let days = ["-days", "1"];
        for args in [
            vec![
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=slugd test CA",
                "-keyout",
                &path("ca.key"),
                "-out",
                &path("ca.pem"),
            ],
            vec![
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=127.0.0.1",
                "-keyout",
                &path("key.pem"),
                "-out",
                &path("server.csr"),
            ],
            vec![
                "x509",
                "-req",
                "-in",
                &path("server.csr"),
                "-CA",
                &path("ca.pem"),
                "-CAkey",
                &path("ca.key"),
                "-CAcreateserial",
                "-extfile",
                &path("ext.cnf"),
                "-out",
                &path("cert.pem"),
            ],
        ] {
            let status = Command::new("openssl")
                .args(&args)
                .args(days)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("openssl makes the test certificates (apt-get install openssl)");
            assert!(status.success(), "openssl {args:?} failed");
        }
        TestCerts {
            ca: dir.path().join("ca.pem"),
            cert: dir.path().join("cert.pem"),
            key: dir.path().join("key.pem"),
            _dir: dir,
        }
    }
}

/// A redis-server of the test's own.
pub struct RedisServer {
    child: Child,
    pub port: u16,
    dir: tempfile::TempDir,
    /// From `--requirepass`, for the test's own connections.
    password: Option<String>,
    /// The CA certificate (PEM) when the server speaks TLS only.
    tls_ca: Option<Vec<u8>>,
    /// The extra arguments it was started with, for a restart.
    args: Vec<String>,
}

impl RedisServer {
    /// Starts redis-server on a free loopback port and waits for PING.
    pub async fn start() -> RedisServer {
        Self::start_with(&[]).await
    }

    /// Starts redis-server with extra arguments.
    pub async fn start_with(extra: &[&str]) -> RedisServer {
        for _ in 0..5 {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let port = free_port();
            let child = Self::spawn(port, dir.path(), extra);
            let password = extra
                .iter()
                .position(|a| *a == "--requirepass")
                .map(|i| extra[i + 1].to_owned());
            let mut server = RedisServer {
                child,
                port,
                dir,
                password,
                tls_ca: None,
                args: extra.iter().map(|a| a.to_string()).collect(),
            };
            if server.wait_ready().await {
                return server;
            }
            let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
            server.kill();
            if !log.contains("Address already in use") {
                panic!("redis-server did not start on port {port}; its log:\n{log}");
            }
        }
        panic!("redis-server found no free port in 5 tries");
    }

    /// Starts redis-server on `port` (a port the test reserved).
    pub async fn start_on(port: u16) -> RedisServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let child = Self::spawn(port, dir.path(), &[] as &[&str]);
        let mut server = RedisServer {
            child,
            port,
            dir,
            password: None,
            tls_ca: None,
            args: Vec::new(),
        };
        if !server.wait_ready().await {
            let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
            panic!("redis-server did not start on port {port}; its log:\n{log}");
        }
        server
    }

    /// Starts redis-server speaking only TLS, with a certificate for
    /// 127.0.0.1 signed by a CA that `openssl` makes for this test.
    pub async fn start_tls() -> RedisServer {
        let certs = TestCerts::make();
        Self::start_tls_with(&certs, &[]).await
    }

    /// Starts redis-server speaking only TLS with `certs`, and `extra`
    /// arguments.
    pub async fn start_tls_with(certs: &TestCerts, extra: &[&str]) -> RedisServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let port = free_port();
        let path = |p: &Path| p.display().to_string();
        let mut args: Vec<String> = [
            "--tls-port",
            &port.to_string(),
            "--tls-cert-file",
            &path(&certs.cert),
            "--tls-key-file",
            &path(&certs.key),
            "--tls-ca-cert-file",
            &path(&certs.ca),
            "--tls-auth-clients",
            "no",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.extend(extra.iter().map(|a| a.to_string()));
        let child = Self::spawn(0, dir.path(), &args);
        let tls_ca = Some(std::fs::read(&certs.ca).unwrap());
        let mut server = RedisServer {
            child,
            port,
            dir,
            password: None,
            tls_ca,
            args,
        };
        if !server.wait_ready().await {
            let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
            panic!("redis-server with TLS did not start on port {port}; its log:\n{log}");
        }
        server
    }

    /// Saves the data to the server's directory, so that a restart brings
    /// the same keys back.
    pub async fn save(&self) {
        let _: () = self.query(&mut redis::cmd("SAVE")).await;
    }

    /// Starts the server again, after [`RedisServer::kill`], on the same
    /// port and directory (with what [`RedisServer::save`] saved).
    pub async fn restart_after_kill(&mut self) {
        let port = if self.tls_ca.is_some() { 0 } else { self.port };
        self.child = Self::spawn(port, self.dir.path(), &self.args);
        assert!(self.wait_ready().await, "redis-server did not come back");
        // PING answers while the saved data is still loading; other
        // commands do not until it is done.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let info: String = self.query(redis::cmd("INFO").arg("persistence")).await;
            if info.contains("loading:0") {
                break;
            }
            assert!(Instant::now() < deadline, "redis-server still loading");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Sends a signal (`STOP`, `CONT`) to the server.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill");
        assert!(status.success());
    }

    fn spawn(port: u16, dir: &Path, extra: &[impl AsRef<std::ffi::OsStr>]) -> Child {
        let mut cmd = Command::new("redis-server");
        cmd.arg("--port")
            .arg(port.to_string())
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir)
            .arg("--logfile")
            .arg(dir.join("redis.log"))
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        match cmd.spawn() {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "redis-server is not installed, and these tests need a real one. \
                 Run scripts/test.sh (it installs it with apt-get when run as root) \
                 or install it yourself: sudo apt-get install redis-server"
            ),
            Err(e) => panic!("cannot start redis-server: {e}"),
        }
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("redis.log")
    }

    async fn wait_ready(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return false;
            }
            if let Ok(mut c) = self.connection().await
                && redis::cmd("PING")
                    .query_async::<String>(&mut c)
                    .await
                    .is_ok()
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        false
    }

    pub fn url(&self) -> String {
        if self.tls_ca.is_some() {
            return format!("rediss://127.0.0.1:{}", self.port);
        }
        match &self.password {
            Some(password) => format!("redis://:{password}@127.0.0.1:{}", self.port),
            None => format!("redis://127.0.0.1:{}", self.port),
        }
    }

    pub fn config(&self) -> RedisConfig {
        RedisConfig {
            endpoint: Endpoint::Single(RedisUrl::parse(&self.url()).unwrap()),
            ca_cert: self.tls_ca.clone(),
            ..config_for_port(self.port)
        }
    }

    /// A plain connection, for the test's own looks into Redis. Its
    /// timeouts are generous: the short ones of [`RedisServer::config`] are
    /// for the service under test, and a busy machine (several clusters
    /// starting at once) must not fail the test's own questions.
    pub async fn connection(&self) -> redis::RedisResult<Conn> {
        Conn::for_loader(&RedisConfig {
            connect_timeout: Duration::from_secs(5),
            response_timeout: Duration::from_secs(5),
            ..self.config()
        })
        .await
    }

    /// Runs a command and returns its answer.
    pub async fn query<T: redis::FromRedisValue>(&self, cmd: &mut redis::Cmd) -> T {
        let mut c = self.connection().await.expect("connect to the test redis");
        cmd.query_async(&mut c).await.expect("redis command")
    }

    /// How many HMGETs the server has run (`INFO commandstats`).
    pub async fn hmget_calls(&self) -> u64 {
        let info: String = self.query(redis::cmd("INFO").arg("commandstats")).await;
        info_number(&info, "cmdstat_hmget:calls=")
    }

    /// Stops the server (SIGKILL) and waits for it to exit.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// How the tests reach a Redis on `port`: 300 ms timeouts.
pub fn config_for_port(port: u16) -> RedisConfig {
    RedisConfig::single(
        RedisUrl::parse(&format!("redis://127.0.0.1:{port}")).unwrap(),
        Duration::from_millis(300),
        Duration::from_millis(300),
    )
}

/// `POST {url}` of a batch of titles (`url` ends in `/slugs`).
pub async fn post_titles(
    client: &reqwest::Client,
    url: &str,
    titles: &[String],
) -> reqwest::Response {
    client
        .post(url)
        .json(&serde_json::json!({ "titles": titles }))
        .send()
        .await
        .unwrap()
}

/// Load settings for `server` with the shipped data file.
pub fn load_settings(server: &RedisServer) -> LoadSettings {
    LoadSettings {
        redis: server.config(),
        data: data_file(),
        prefix: "slugd:".to_owned(),
        categories: Categories::default(),
        lock_wait: Duration::from_secs(30),
    }
}

/// Runs the loader with the shipped data file.
pub async fn load(server: &RedisServer) -> LoadReport {
    slugd::load::run(&load_settings(server))
        .await
        .unwrap_or_else(|e| panic!("load failed: {e:#}"))
}

/// A running app on port 0.
pub struct App {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
}

/// Settings for an app: Redis mode when `redis` is given.
pub fn settings(redis: Option<&RedisServer>) -> ServeSettings {
    settings_for(redis.map(RedisServer::config))
}

/// Settings for an app on the Redis of `config`, or in-process.
pub fn settings_for(config: Option<RedisConfig>) -> ServeSettings {
    ServeSettings {
        listen: "127.0.0.1:0".parse().unwrap(),
        table: TableSettings {
            redis: config,
            data: data_file(),
            prefix: "slugd:".to_owned(),
            categories: Categories::default(),
            refresh_interval: Duration::from_millis(200),
            on_redis_down: Default::default(),
            name_cache: 1024,
        },
        limits: Limits::default(),
    }
}

impl App {
    /// The app in-process.
    pub async fn in_process() -> App {
        App::spawn(settings(None)).await
    }

    /// The app on `redis`.
    pub async fn on_redis(redis: &RedisServer) -> App {
        App::spawn(settings(Some(redis))).await
    }

    /// The app with `settings`, on a port of its own.
    pub async fn spawn(settings: ServeSettings) -> App {
        let service = slugd::serve::Service::open(&settings)
            .await
            .expect("the service opens");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(service.run(listener, async {
            let _ = rx.await;
        }));
        App {
            addr,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .unwrap(),
            shutdown: Some(tx),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// POSTs JSON; returns status and JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = self
            .client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// POSTs raw bytes with a content type; returns status and JSON body.
    pub async fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
        let r = self
            .client
            .post(self.url(path))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// GETs a path; returns status and JSON body.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self.client.get(self.url(path)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// Polls `path` until it answers `status`, for at most `within`.
    pub async fn wait_for(&self, path: &str, status: u16, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let (got, body) = self.get(path).await;
            if got == status {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{path} still answers {got} {body}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The slug of `title` with default options; panics unless 200.
    pub async fn slug(&self, title: &str) -> String {
        let (status, body) = self
            .post("/slug", &serde_json::json!({ "title": title }))
            .await;
        assert_eq!(status, 200, "{title:?}: {body}");
        body["slug"].as_str().unwrap().to_owned()
    }

    /// The slugs of `titles` in one batch; panics unless 200.
    pub async fn slugs(&self, titles: &[String]) -> Vec<String> {
        let (status, body) = self
            .post("/slugs", &serde_json::json!({ "titles": titles }))
            .await;
        assert_eq!(status, 200, "{body}");
        serde_json::from_value(body["slugs"].clone()).unwrap()
    }
}

impl Drop for App {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}
