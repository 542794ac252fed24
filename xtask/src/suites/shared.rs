//! What several suites share: the corpus, warm-up requests, a timed
//! `slugd load`, an instance's RSS once warmed, and what a Redis table's
//! buckets hold.

use std::path::Path;

use anyhow::{Context, Result};

use crate::http::Client;
use crate::services::{Backend, Ready, Redis, Server};
use crate::tools::{Timed, timed};

/// The titles of data/corpus.txt: every line that is not empty or a `#`
/// comment (as `slugd_engine::corpus::titles` reads them).
pub fn corpus(root: &Path) -> Result<Vec<String>> {
    let path = root.join("data/corpus.txt");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("could not read {}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// POSTs `n` corpus titles to /slug, one after another on one kept-alive
/// connection.
pub fn post_titles(port: u16, titles: &[String], n: usize) -> Result<()> {
    post_titles_in(port, titles, n, |_| None)
}

/// The same, the `k`th request with the locale `locale_of(k)` (none for
/// `None`).
pub fn post_titles_in<'a>(
    port: u16,
    titles: &[String],
    n: usize,
    locale_of: impl Fn(usize) -> Option<&'a str>,
) -> Result<()> {
    let mut client = Client::connect(port)?;
    for (k, title) in titles.iter().cycle().take(n).enumerate() {
        client.post_slug(title, locale_of(k))?;
    }
    Ok(())
}

/// `slugd --log warn load ARGS` into `redis` under GNU time: its wall
/// time and peak RSS.
pub fn timed_load(bin: &Path, redis: &Redis, args: &[&str], work: &Path) -> Result<Timed> {
    let mut command = std::process::Command::new(bin);
    command.args(["--log", "warn", "load"]).args(args);
    redis.backend().apply(&mut command);
    timed(&command, None, None, work)
}

/// RSS of one instance in kB, half a second after `warm(port)` and
/// `settle_s` seconds after that: (right after, settled). The instance is
/// stopped before this returns.
pub fn warmed_rss(
    name: &str,
    bin: &Path,
    backend: &Backend,
    args: &[&str],
    warm: impl FnOnce(u16) -> Result<()>,
    settle_s: u64,
    work: &Path,
) -> Result<(f64, f64)> {
    let mut server = Server::slugd(name, bin, backend, args, work)?;
    server.wait_ready(Ready::Readyz)?;
    warm(server.port)?;
    std::thread::sleep(std::time::Duration::from_millis(500));
    let now = server.process.rss_kb()?;
    std::thread::sleep(std::time::Duration::from_secs(settle_s));
    let settled = server.process.rss_kb()?;
    server.process.stop();
    Ok((now, settled))
}

/// Lua for `Redis::eval`: of the keys matching ARGV[1], the sum of
/// `MEMORY USAGE` (bytes), their count, the most fields in one, and
/// their encodings counted, as "bytes keys fullest encoding:n,...".
pub const BUCKETS: &str = "local keys = redis.call('KEYS', ARGV[1])
local bytes, fullest, enc = 0, 0, {}
for _, k in ipairs(keys) do
  bytes = bytes + redis.call('MEMORY', 'USAGE', k, 'SAMPLES', 0)
  local e = redis.call('OBJECT', 'ENCODING', k)
  enc[e] = (enc[e] or 0) + 1
  if redis.call('TYPE', k).ok == 'hash' then fullest = math.max(fullest, redis.call('HLEN', k)) end
end
local parts = {}
for e, n in pairs(enc) do parts[#parts + 1] = e .. ':' .. n end
table.sort(parts)
return bytes .. ' ' .. #keys .. ' ' .. fullest .. ' ' .. table.concat(parts, ',')";

/// What [`BUCKETS`] returned.
pub struct Buckets {
    pub bytes: f64,
    pub keys: f64,
    pub fullest: f64,
    pub encodings: String,
}

/// The keys of `redis` matching `pattern`: [`BUCKETS`]'s figures.
pub fn buckets(redis: &Redis, pattern: &str) -> Result<Buckets> {
    let text = redis.eval(BUCKETS, &[pattern])?;
    let mut words = text.split(' ');
    let mut number = || -> Result<f64> {
        words
            .next()
            .and_then(|w| w.parse().ok())
            .with_context(|| format!("the bucket script answered {text:?}"))
    };
    Ok(Buckets {
        bytes: number()?,
        keys: number()?,
        fullest: number()?,
        encodings: text.splitn(4, ' ').nth(3).unwrap_or("").to_owned(),
    })
}
