//! The app under test and how tests talk to it: the real service on port 0
//! (opened and run as `slugd serve` does), reached over real HTTP, and
//! clients that keep asking while something else happens. The world it
//! runs in (Redis, data, the binary) is in `fixtures.rs`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;
use slugd::http::Limits;
use slugd::redis_conn::RedisConfig;
use slugd::reserve::ReservationSettings;
use slugd::serve::ServeSettings;
use slugd::table::{OnRedisDown, TableSettings};
use slugd_engine::options::Options;
use slugd_engine::unicode_data::Categories;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::fixtures::{RedisServer, data_file, load, shipped_cldr};

/// Table settings on the Redis of `config`, or in-process: the shipped
/// data file, prefix `slugd:`, a check for a new version every 200 ms.
pub fn table_settings(config: Option<RedisConfig>) -> TableSettings {
    TableSettings {
        redis: config,
        data: data_file().into(),
        prefix: "slugd:".to_owned(),
        categories: Categories::default(),
        cldr: shipped_cldr(),
        ipadic: slugd_engine::readers::japanese::ipadic::DEFAULT_DIR.into(),
        japanese: false,
        vowels: Vec::new(),
        prepared: Some(crate::fixtures::prepared_dir()),
        refresh_interval: Duration::from_millis(200),
        on_redis_down: Default::default(),
        name_cache: 1024,
    }
}

/// A running app on port 0, shut down on drop.
pub struct App {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
}

/// How an [`App`] is configured before it starts: [`App::builder`], the
/// settings that differ from [`table_settings`] and the default limits,
/// then [`AppBuilder::spawn`].
pub struct AppBuilder {
    settings: ServeSettings,
}

impl AppBuilder {
    /// On `server`, with its [`RedisServer::config`].
    pub fn redis(self, server: &RedisServer) -> Self {
        self.redis_config(server.config())
    }

    /// On the Redis (server or cluster) of `config`.
    pub fn redis_config(mut self, config: RedisConfig) -> Self {
        self.settings.table.redis = Some(config);
        self
    }

    /// Keeps at most `names` names once fetched; 0 makes every title with
    /// a symbol read Redis.
    pub fn name_cache(mut self, names: usize) -> Self {
        self.settings.table.name_cache = names;
        self
    }

    /// Checks for a new table version every `interval`.
    pub fn refresh_interval(mut self, interval: Duration) -> Self {
        self.settings.table.refresh_interval = interval;
        self
    }

    /// Server-wide slug options, as `--defaults` gives them.
    pub fn defaults(mut self, defaults: Options) -> Self {
        self.settings.defaults = defaults;
        self
    }

    /// What to do while Redis cannot answer.
    pub fn on_redis_down(mut self, then: OnRedisDown) -> Self {
        self.settings.table.on_redis_down = then;
        self
    }

    /// CLDR's names for the in-process table and the fallback.
    pub fn cldr(mut self, cldr: slugd_engine::cldr::CldrSettings) -> Self {
        self.settings.table.cldr = cldr;
        self
    }

    /// IPADIC's directory, for the Japanese readings of the in-process
    /// table (as `--locales ja --ipadic DIR` gives them) and of the
    /// fallback's copy.
    pub fn japanese(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.settings.table.ipadic = dir.into();
        self.settings.table.japanese = true;
        self
    }

    /// Persian's word list, for the in-process table's model of Persian's
    /// vowels (as `--locales fa` gives it, made with espeak-ng).
    pub fn persian(self, words: impl Into<std::path::PathBuf>) -> Self {
        self.vowels(slugd_engine::readers::vowels::Language::Persian, words)
    }

    /// A language's words, for the in-process table's model of its vowels
    /// (as `--locales fa`, `ur` or `ar` gives it, made with espeak-ng).
    pub fn vowels(
        mut self,
        language: slugd_engine::readers::vowels::Language,
        words: impl Into<std::path::PathBuf>,
    ) -> Self {
        self.settings.table.vowels.push((language, words.into()));
        self
    }

    /// IPADIC's directory, for the fallback's copy of a Redis version with
    /// readings only (`--ipadic DIR` without `ja` in `--locales`).
    pub fn ipadic(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.settings.table.ipadic = dir.into();
        self
    }

    /// The UnicodeData.txt file of the in-process table and the fallback.
    pub fn data(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.settings.table.data = path.into().into();
        self
    }

    /// The key prefix in Redis.
    pub fn prefix(mut self, prefix: &str) -> Self {
        self.settings.table.prefix = prefix.to_owned();
        self
    }

    /// How reservations are made: reserved words, waiting for replicas.
    pub fn reservations(mut self, settings: ReservationSettings) -> Self {
        self.settings.reservations = settings;
        self
    }

    /// The bearer tokens of `--auth-tokens`.
    pub fn tokens(mut self, tokens: slugd::auth::Tokens) -> Self {
        self.settings.tokens = tokens;
        self
    }

    /// Request limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.settings.limits = limits;
        self
    }

    /// Opens the service as `slugd serve` does, without running it: the
    /// checks `slugd serve` makes at start.
    pub async fn open(self) -> Result<slugd::serve::Service, slugd::table::OpenError> {
        slugd::serve::Service::open(&self.settings).await
    }

    /// Opens the service as `slugd serve` does and runs it on a listener
    /// of its own on 127.0.0.1, port 0.
    pub async fn spawn(self) -> App {
        let service = self.open().await.expect("the service opens");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        // An in-process table is read while the service listens: wait
        // for it, as a load balancer would wait for /readyz, or say why
        // the service stopped instead.
        let read = service.table_read();
        let mut running = tokio::spawn(service.run(listener, async {
            let _ = rx.await;
        }));
        tokio::select! {
            () = read => {}
            stopped = &mut running => match stopped.expect("the service did not panic") {
                Ok(()) => panic!("the service stopped while its table was read"),
                Err(e) => panic!("the service stopped: {}", crate::fixtures::chain(&e)),
            },
        }
        App {
            addr,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .unwrap(),
            shutdown: Some(tx),
        }
    }
}

impl App {
    /// An app to configure; in-process until given a Redis.
    pub fn builder() -> AppBuilder {
        AppBuilder {
            settings: ServeSettings {
                listen: "127.0.0.1:0".parse().unwrap(),
                table: table_settings(None),
                limits: Limits::default(),
                defaults: Options::default(),
                reservations: Default::default(),
                tokens: Default::default(),
            },
        }
    }

    /// The app in-process.
    pub async fn in_process() -> App {
        App::builder().spawn().await
    }

    /// The app on `redis`.
    pub async fn on_redis(redis: &RedisServer) -> App {
        App::builder().redis(redis).spawn().await
    }

    /// The app on the Redis of `config` without the name cache, so that
    /// every title with a symbol needs Redis: for tests of what happens
    /// then.
    pub async fn uncached(config: RedisConfig) -> App {
        App::builder()
            .redis_config(config)
            .name_cache(0)
            .spawn()
            .await
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// POSTs JSON; returns status and JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        answer(self.client.post(self.url(path)).json(body)).await
    }

    /// POSTs raw bytes with a content type; returns status and JSON body.
    pub async fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
        let request = self
            .client
            .post(self.url(path))
            .header("content-type", content_type)
            .body(body);
        answer(request).await
    }

    /// PUTs JSON; returns status and JSON body.
    pub async fn put(&self, path: &str, body: &Value) -> (u16, Value) {
        answer(self.client.put(self.url(path)).json(body)).await
    }

    /// GETs a path; returns status and JSON body.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        answer(self.client.get(self.url(path))).await
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

    /// POSTs `body` to `path` until it is answered 2xx, for at most
    /// `within`; every answer before must be a 503, with the error `code`
    /// when one is given. The 2xx answer, or `None` if none came in time
    /// (the caller says what that means).
    pub async fn post_until_served(
        &self,
        path: &str,
        body: &Value,
        code: Option<&str>,
        within: Duration,
    ) -> Option<(u16, Value)> {
        let deadline = Instant::now() + within;
        loop {
            let (s, b) = self.post(path, body).await;
            if (200..300).contains(&s) {
                return Some((s, b));
            }
            assert_eq!(s, 503, "{path}: {b}");
            if let Some(code) = code {
                assert_eq!(b["code"], code, "{path}: {b}");
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Asks for the slug of `title` until it is `want`, for at most
    /// `within`; every answer on the way must be 200.
    pub async fn wait_for_slug(&self, title: &str, want: &str, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let got = self.slug(title).await;
            if got == want {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{title:?} still gives {got:?}, not {want:?}, after {within:?}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// The slug of `title` with default options; panics unless 200.
    pub async fn slug(&self, title: &str) -> String {
        self.slug_of(&serde_json::json!({ "title": title })).await
    }

    /// The slug `POST /slug` answers for `body`; panics unless 200.
    pub async fn slug_of(&self, body: &Value) -> String {
        let (status, answer) = self.post("/slug", body).await;
        assert_eq!(status, 200, "{body}: {answer}");
        answer["slug"].as_str().unwrap().to_owned()
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

/// A redis-server with the default table loaded, and an app in each mode:
/// in-process, and on that Redis.
pub async fn both_modes() -> (RedisServer, [App; 2]) {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let apps = [App::in_process().await, App::on_redis(&redis).await];
    (redis, apps)
}

impl Drop for App {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Sends `request`; returns status and JSON body (`null` when not JSON).
async fn answer(request: reqwest::RequestBuilder) -> (u16, Value) {
    let r = request.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// Asserts that `body` is an error whose message says `says`.
pub fn assert_says(body: &Value, says: &str) {
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"));
    assert!(
        message.contains(says),
        "error {message:?} should say {says:?}: {body}"
    );
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

/// What [`path_segment`] leaves as it is: letters, digits, `-` and `_`;
/// everything else is escaped, `.` too, so that no segment is `.` or `..`.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_');

/// `s` percent-encoded as one path segment (a reservation's scope).
pub fn path_segment(s: &str) -> String {
    utf8_percent_encode(s, SEGMENT).to_string()
}

/// Clients that ask `POST /slugs` for the same titles again and again, in
/// the background, until [`Askers::stop`]: every answer must be 200, and
/// its `slugs` pass a check of the test's.
pub struct Askers {
    stop: Arc<AtomicBool>,
    tasks: Vec<JoinHandle<u32>>,
}

impl Askers {
    /// One client for each of `urls` (each ending in `/slugs`), asking for
    /// `titles`; `check` sees the `slugs` of every answer.
    pub fn start<F>(
        client: &reqwest::Client,
        urls: Vec<String>,
        titles: &[String],
        check: F,
    ) -> Askers
    where
        F: Fn(&Value) + Clone + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let tasks = urls
            .into_iter()
            .map(|url| {
                let (client, titles, check, stop) =
                    (client.clone(), titles.to_vec(), check.clone(), stop.clone());
                tokio::spawn(async move {
                    let mut asked = 0;
                    while !stop.load(Ordering::Relaxed) {
                        let r = post_titles(&client, &url, &titles).await;
                        let status = r.status().as_u16();
                        let text = r.text().await.unwrap();
                        assert_eq!(status, 200, "{text}");
                        let body: Value = serde_json::from_str(&text).unwrap();
                        check(&body["slugs"]);
                        asked += 1;
                    }
                    asked
                })
            })
            .collect();
        Askers { stop, tasks }
    }

    /// Stops them; each must have had at least one answer by then.
    pub async fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for task in self.tasks {
            assert!(task.await.unwrap() > 0, "a client never had an answer");
        }
    }
}

/// When a hold lapses depends on when a documented example ran: if both
/// answers have `held_until`, `got`'s must be an RFC 3339 time in the
/// future, and is then set to `want`'s, so the rest compares as equal.
pub fn as_documented_hold(got: &mut Value, want: &Value, what: &str) {
    if let (Some(Value::String(at)), Some(doc)) = (got.get("held_until"), want.get("held_until")) {
        let at =
            humantime::parse_rfc3339(at).unwrap_or_else(|e| panic!("{what}: held_until {at}: {e}"));
        assert!(at > std::time::SystemTime::now(), "{what}: {got}");
        got["held_until"] = doc.clone();
    }
}
