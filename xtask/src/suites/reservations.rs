//! reservations: POST /reservations on one fresh redis-server loaded by
//! `slugd load`, in three phases (the suite's targets):
//!
//! 1. `throughput`: wrk with --connections for --duration, POST
//!    /reservations (scripts/wrk/reserve.lua: a new owner each request,
//!    the corpus titles in turn, a scope of its own each run) and POST
//!    /slug (the corpus) against the same slugd on the same Redis, taking
//!    turns for --rounds rounds (with --before, that build's instance on
//!    the same Redis takes its turns too): req/s, p50, p99, errors, and
//!    the CPU time per request of slugd (user, system, both) and of
//!    redis-server (from /proc/<pid>/stat around each run); then Redis's
//!    own time per function or script call (INFO commandstats: FCALL, and
//!    EVALSHA for builds before the functions) and its errorstats (failed
//!    calls on first use, before the library or script is loaded,
//!    docs/reservations.md) and the slugs each scope holds.
//! 2. `contention`: three instances of this build at once, each driven by
//!    its own wrk (--contenders connections), all reserving the same 20
//!    titles in one scope for --duration: the latency of each; then the
//!    slugs held, their owners, and the slugs listed by two owners (there
//!    must be none).
//! 3. `memory`: --held reservations (1,000,000) in one scope, made by the
//!    service's own functions (src/reserve/reservations.lua) through
//!    `redis-cli --pipe` (owners 1..N, the corpus titles' slugs from
//!    `slugd slugify` as bases in turn, so most slugs carry a suffix; the
//!    records as rules 1 wrote them): the sum of `MEMORY USAGE` of the
//!    scope's keys per reservation, used_memory's growth per reservation,
//!    the keys' encodings and one bucket's fields.
//! 4. `import`: --held lines (1,000,000) of NDJSON, owners 1..N with the
//!    corpus titles' slugs in turn, numbered from their second turn
//!    (`base-2`, `base-3`...), imported into a scope of their own by
//!    `slugd import` (release build, no progress bar) under GNU time:
//!    lines a second of wall clock, the import's peak RSS, and the Redis
//!    memory of the imported scope per reservation (as `memory` counts
//!    it).
//! 5. `redis_alone` (only when named in --targets): Redis's own time per
//!    reservation with nothing else running. One fresh redis-server,
//!    redis-benchmark (8 clients) sending 200,000 reservations of one title
//!    by new owners (every one a numbered slug: the five-command path) to
//!    each of: `script`, the Lua script of 446d904 (the last release that
//!    reserved with EVALSHA); `library_1`, tests/data/reservations/
//!    library_1.lua (FCALL, before holds); `library`, this tree's
//!    src/reserve/reservations.lua; `floor`, the same five commands on the
//!    same keys with nothing else (what this key layout costs at the
//!    least); each on a scope of its own, in turns, --rounds times:
//!    `INFO commandstats`' microseconds per call, and each against the
//!    script.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::shared::{buckets, corpus};
use crate::builds::Build;
use crate::builds::Builds;
use crate::report::Report;
use crate::rounds::rotated;
use crate::services::{Ready, Redis, Server};
use crate::settings::Settings;
use crate::tools::{need, output, output_from};
use crate::wrk;

const TARGETS: [&str; 5] = [
    "throughput",
    "contention",
    "memory",
    "import",
    "redis_alone",
];

/// The phases run when --targets names none.
const DEFAULT: [&str; 4] = ["throughput", "contention", "memory", "import"];

/// The revision whose `src/reserve/reservations.lua` is the script
/// reservations ran as before they were functions.
const SCRIPT_REVISION: &str = "446d904";

/// Reservations redis-benchmark sends to each, a round.
const ALONE_CALLS: &str = "200000";

/// The five commands a numbered slug needs, on the library's keys, with
/// nothing around them: the floor of this key layout.
const FLOOR: &str = "#!lua name=bench_floor
local function key(prefix, field) return prefix .. string.sub(redis.sha1hex(field), 1, 4) end
redis.register_function('bench_floor', function(_, a)
  local prefix, owner, base = a[1], a[2], a[3]
  local ofield = '=' .. owner
  local okey = key(prefix, ofield)
  redis.call('HGET', okey, ofield)
  local hkey = key(prefix, base)
  local seen = redis.call('HMGET', hkey, base, '#' .. base)
  local n = (tonumber(seen[2]) or 1) + 1
  local c
  while true do
    c = base .. '-' .. n
    if redis.call('HSETNX', key(prefix, c), c, owner) == 1 then break end
    n = n + 1
  end
  redis.call('HSET', hkey, '#' .. base, n)
  redis.call('HSET', okey, ofield, c .. '/' .. #base)
  return {'new', c, '5'}
end)";

/// Lua: the slugs held in scope ARGV[1] (fields of its buckets that are
/// not an owner's record, `=`, a mark, `#`, or the setting, `!`).
const HELD: &str = "local n = 0
for _, k in ipairs(redis.call('KEYS', 'slugd:r:{' .. ARGV[1] .. '}:*')) do
  for _, f in ipairs(redis.call('HKEYS', k)) do
    local c = string.sub(f, 1, 1)
    if c ~= '=' and c ~= '#' and c ~= '!' then n = n + 1 end
  end
end
return n";

/// Lua: of scope ARGV[1], "slugs owners listed-twice": every slug an
/// owner's record lists, counted once per owner that lists it.
const TWICE: &str = "local slugs, owners, dup = 0, 0, 0
local held = {}
for _, k in ipairs(redis.call('KEYS', 'slugd:r:{' .. ARGV[1] .. '}:*')) do
  local all = redis.call('HGETALL', k)
  for j = 1, #all, 2 do
    local f, v = all[j], all[j + 1]
    local c = string.sub(f, 1, 1)
    if c == '=' then
      owners = owners + 1
      for e in string.gmatch(v, '%S+') do
        local s = string.match(e, '^[^:/]+')
        if held[s] then dup = dup + 1 end
        held[s] = true
      end
    elseif c ~= '#' and c ~= '!' then slugs = slugs + 1 end
  end
end
return slugs .. ' ' .. owners .. ' ' .. dup";

/// Lua: the first fields of bucket `ffff` of KEYS[1]'s scope.
const ONE_BUCKET: &str = "local f = redis.call('HGETALL', KEYS[1] .. 'ffff')
local out = {}
for j = 1, math.min(#f, 12), 2 do out[#out + 1] = f[j] .. ' -> ' .. f[j + 1] end
return table.concat(out, ' | ')";

pub fn run(settings: &Settings, work: &Path, report: &mut Report) -> Result<Builds> {
    need("wrk", "wrk")?;
    let phases = settings.chosen(&TARGETS, &DEFAULT)?;
    let builds = Builds::slugd(settings, work)?;
    let redis = Redis::start("redis", work)?;
    crate::services::load(&builds.now, &redis.backend(), &[])?;
    if phases.contains(&"throughput") {
        throughput(settings, &builds, &redis, work, report)?;
    }
    if phases.contains(&"contention") {
        contention(settings, &builds, &redis, work, report)?;
    }
    if phases.contains(&"memory") {
        memory(settings, &builds, &redis, work, report)?;
    }
    if phases.contains(&"import") {
        import(settings, &builds, &redis, work, report)?;
    }
    if phases.contains(&"redis_alone") {
        redis_alone(settings, work, report)?;
    }
    Ok(builds)
}

fn reserve_run<'a>(
    settings: &Settings,
    port: u16,
    connections: u32,
    env: &'a [(&'a str, String)],
) -> wrk::Run<'a> {
    wrk::Run {
        script: "reserve.lua",
        port,
        path: "/reservations",
        connections,
        threads: 1,
        duration_s: settings.duration_s,
        env,
        timeout_s: None,
    }
}

fn throughput(
    settings: &Settings,
    builds: &Builds,
    redis: &Redis,
    work: &Path,
    report: &mut Report,
) -> Result<()> {
    let mut servers = Vec::new();
    for build in builds.all() {
        let name = format!("slugd-{}", build.label());
        let mut server = Server::slugd(&name, builds.bin(build), &redis.backend(), &[], work)?;
        server.wait_ready(Ready::Readyz)?;
        servers.push((build, server));
    }
    let pairs: Vec<(&str, Build)> = ["slug", "reservations"]
        .into_iter()
        .flat_map(|t| builds.all().into_iter().map(move |b| (t, b)))
        .collect();
    eprintln!(
        "xtask: throughput, {} rounds of {} s, {} connections, one slugd on one Redis",
        settings.rounds, settings.duration_s, settings.connections
    );
    let mut scopes = Vec::new();
    for round in 0..settings.rounds {
        for (target, build) in rotated(round, &pairs) {
            let server = &servers
                .iter()
                .find(|(b, _)| *b == build)
                .expect("started")
                .1;
            let scope = format!("{target}-{}-{}", build.label(), round + 1);
            let env = [("SCOPE", scope.clone()), ("OWNER", format!("{scope}-"))];
            let run = match target {
                "slug" => wrk::Run {
                    script: "corpus.lua",
                    path: "/slug",
                    env: &[],
                    ..reserve_run(settings, server.port, settings.connections, &[])
                },
                _ => reserve_run(settings, server.port, settings.connections, &env),
            };
            let (redis_user0, redis_sys0) = redis.process.cpu_s()?;
            let (user0, sys0) = server.process.cpu_s()?;
            let s = run.run(&settings.root)?;
            let (redis_user1, redis_sys1) = redis.process.cpu_s()?;
            let (user1, sys1) = server.process.cpu_s()?;
            let per = |seconds: f64| seconds * 1e6 / s.requests;
            let (user, system) = (per(user1 - user0), per(sys1 - sys0));
            let redis_cpu = per(redis_user1 - redis_user0 + redis_sys1 - redis_sys0);
            eprintln!(
                "  round {} {target:<13} {:<6} {:>8.0} req/s  p50 {:>6.0} us  p99 {:>6.0} us  errors {};  CPU a request: slugd {:.1} us (user {user:.1}, system {system:.1}), redis-server {redis_cpu:.1} us",
                round + 1,
                build.label(),
                s.req_per_s,
                s.p50_us,
                s.p99_us,
                s.errors,
                user + system
            );
            report.record(target, "req_per_s", "req/s", build, s.req_per_s);
            report.record(target, "p50", "us", build, s.p50_us);
            report.record(target, "p99", "us", build, s.p99_us);
            report.record(target, "errors", "answers", build, s.errors);
            report.record(target, "slugd_cpu", "us/request", build, user + system);
            report.record(target, "slugd_cpu_user", "us/request", build, user);
            report.record(target, "slugd_cpu_system", "us/request", build, system);
            report.record(target, "redis_cpu", "us/request", build, redis_cpu);
            if target == "reservations" {
                scopes.push(scope);
            }
        }
    }
    report.compare("req_per_s", "reservations", "slug");
    report.compare("slugd_cpu", "reservations", "slug");
    report.compare("slugd_cpu_user", "reservations", "slug");

    let stats = redis.cli(&["info", "commandstats"])?;
    for line in stats.lines().map(str::trim) {
        let Some((command, fields)) = line
            .strip_prefix("cmdstat_fcall:")
            .map(|f| ("fcall", f))
            .or_else(|| {
                line.strip_prefix("cmdstat_evalsha:")
                    .map(|f| ("evalsha", f))
            })
            .or_else(|| line.strip_prefix("cmdstat_eval:").map(|f| ("eval", f)))
        else {
            continue;
        };
        report.note(&format!("cmdstat_{command}"), fields);
        let usec_per_call = fields
            .split(',')
            .find_map(|f| f.strip_prefix("usec_per_call="))
            .and_then(|v| v.parse().ok());
        if let Some(usec) = usec_per_call {
            report.record(
                "redis-server",
                &format!("{command}_per_call"),
                "us",
                Build::Now,
                usec,
            );
        }
    }
    let errors: Vec<String> = redis
        .cli(&["info", "errorstats"])?
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("errorstat_"))
        .map(str::to_owned)
        .collect();
    report.note("errorstats", errors);
    let mut held = serde_json::Map::new();
    for scope in &scopes {
        held.insert(scope.clone(), redis.eval(HELD, &[scope])?.into());
    }
    report.note("slugs_held_per_scope", held);
    Ok(())
}

fn contention(
    settings: &Settings,
    builds: &Builds,
    redis: &Redis,
    work: &Path,
    report: &mut Report,
) -> Result<()> {
    let mut servers = Vec::new();
    for k in 1..=3 {
        let mut server = Server::slugd(
            &format!("contender-{k}"),
            &builds.now,
            &redis.backend(),
            &[],
            work,
        )?;
        server.wait_ready(Ready::Readyz)?;
        servers.push(server);
    }
    eprintln!(
        "xtask: contention, 3 instances x {} connections, the same 20 titles in one scope, {} s",
        settings.contenders, settings.duration_s
    );
    let envs: Vec<[(&str, String); 3]> = (1..=3)
        .map(|k| {
            [
                ("TITLES", "20".to_owned()),
                ("SCOPE", "contended".to_owned()),
                ("OWNER", format!("i{k}-")),
            ]
        })
        .collect();
    let summaries = std::thread::scope(|scope| {
        let runs: Vec<_> = servers
            .iter()
            .zip(&envs)
            .map(|(server, env)| {
                let run = reserve_run(settings, server.port, settings.contenders, env);
                scope.spawn(move || run.run(&settings.root))
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a wrk thread does not panic"))
            .collect::<Result<Vec<_>>>()
    })?;
    for (k, s) in summaries.iter().enumerate() {
        let target = format!("contention_{}", k + 1);
        eprintln!(
            "  instance {} {:>8.0} req/s  p50 {:>6.0} us  p99 {:>6.0} us  errors {}",
            k + 1,
            s.req_per_s,
            s.p50_us,
            s.p99_us,
            s.errors
        );
        report.record(&target, "req_per_s", "req/s", Build::Now, s.req_per_s);
        report.record(&target, "p50", "us", Build::Now, s.p50_us);
        report.record(&target, "p99", "us", Build::Now, s.p99_us);
        report.record(&target, "errors", "answers", Build::Now, s.errors);
    }
    let counts = redis.eval(TWICE, &["contended"])?;
    let numbers: Vec<f64> = counts.split(' ').filter_map(|n| n.parse().ok()).collect();
    let [slugs, owners, twice] = numbers[..] else {
        bail!("the check of the contended scope answered {counts:?}");
    };
    eprintln!("  {slugs} slugs held by {owners} owners; slugs listed by two owners: {twice}");
    report.record("contended_scope", "slugs_held", "slugs", Build::Now, slugs);
    report.record("contended_scope", "owners", "owners", Build::Now, owners);
    report.record(
        "contended_scope",
        "listed_twice",
        "slugs",
        Build::Now,
        twice,
    );
    Ok(())
}

fn memory(
    settings: &Settings,
    builds: &Builds,
    redis: &Redis,
    work: &Path,
    report: &mut Report,
) -> Result<()> {
    let held = settings.held;
    eprintln!("xtask: memory, {held} reservations in one scope");
    let bases = bases(settings, builds, work)?;
    let script = settings.root.join("src/reserve/reservations.lua");
    let script = std::fs::read_to_string(&script)
        .with_context(|| format!("could not read {}", script.display()))?;
    redis.cli(&["function", "load", "replace", &script])?;

    let commands = work.join("reserve.resp");
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&commands)?);
        let key = "slugd:r:{million}:";
        for i in 1..=held {
            let owner = i.to_string();
            let base = &bases[i % bases.len()];
            // Rules 1: records as slugd wrote them before rule versions
            // (rules 2 add `!2`, two bytes, to each owner's record).
            let args = [
                "FCALL",
                "slugd_reserve_4",
                "0",
                key,
                &owner,
                base,
                "-",
                ",",
                "1",
                "0",
                "0",
                "*",
            ];
            write!(out, "*{}\r\n", args.len())?;
            for arg in args {
                write!(out, "${}\r\n{arg}\r\n", arg.len())?;
            }
        }
        out.flush()?;
    }
    let before = redis.used_memory()?;
    let piped = output_from(
        Command::new("redis-cli")
            .args(["-p", &redis.port.to_string()])
            .arg("--pipe"),
        &commands,
    )?;
    let after = redis.used_memory()?;
    report.note("redis_cli_pipe", piped.trim().lines().last().unwrap_or(""));
    let scope = buckets(redis, "slugd:r:{million}:*")?;
    let slugs: f64 = redis
        .eval(HELD, &["million"])?
        .parse()
        .context("the count of slugs held")?;
    let per_reservation = scope.bytes / slugs;
    let growth = (after - before) / held as f64;
    eprintln!(
        "  {} keys, {slugs} slugs held, MEMORY USAGE {} B = {per_reservation:.1} B a reservation; used_memory grew {growth:.1} B a reservation; encodings {}",
        scope.keys, scope.bytes, scope.encodings
    );
    report.record("million_scope", "keys", "keys", Build::Now, scope.keys);
    report.record("million_scope", "slugs_held", "slugs", Build::Now, slugs);
    report.record(
        "million_scope",
        "memory_usage",
        "B",
        Build::Now,
        scope.bytes,
    );
    report.record(
        "million_scope",
        "bytes_per_reservation",
        "B",
        Build::Now,
        per_reservation,
    );
    report.record(
        "million_scope",
        "used_memory_growth_per_reservation",
        "B",
        Build::Now,
        growth,
    );
    report.note("million_scope_encodings", scope.encodings);
    let bucket = output(
        Command::new("redis-cli")
            .args([
                "-p",
                &redis.port.to_string(),
                "--raw",
                "eval",
                ONE_BUCKET,
                "1",
            ])
            .arg("slugd:r:{million}:"),
    )?;
    report.note("million_scope_bucket_ffff", bucket.trim());
    Ok(())
}

/// The corpus titles' slugs, by this build.
fn bases(settings: &Settings, builds: &Builds, work: &Path) -> Result<Vec<String>> {
    let titles = work.join("titles.txt");
    std::fs::write(&titles, corpus(&settings.root)?.join("\n") + "\n")?;
    let mut slugify = Command::new(&builds.now);
    slugify.args(["--log", "warn", "slugify"]);
    let bases: Vec<String> = output_from(&mut slugify, &titles)?
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    if bases.is_empty() {
        bail!("slugd slugify wrote no slugs for the corpus");
    }
    Ok(bases)
}

fn import(
    settings: &Settings,
    builds: &Builds,
    redis: &Redis,
    work: &Path,
    report: &mut Report,
) -> Result<()> {
    let bases = bases(settings, builds, work)?;
    let file = work.join("import.ndjson");
    let mut lines = 0usize;
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file)?);
        let mut seen = std::collections::HashSet::new();
        let mut i = 0usize;
        // Distinct slugs only: a corpus slug may itself end in a number.
        while lines < settings.held {
            let base = &bases[i % bases.len()];
            let slug = match i / bases.len() {
                0 => base.clone(),
                k => format!("{base}-{}", k + 1),
            };
            i += 1;
            if seen.insert(slug.clone()) {
                lines += 1;
                writeln!(out, "{{\"owner\": \"{lines}\", \"slug\": \"{slug}\"}}")?;
            }
        }
        out.flush()?;
    }
    eprintln!("xtask: import, {lines} lines into one scope");
    let mut command = Command::new(&builds.now);
    command
        .args(["--log", "warn", "import", "--quiet", "--redis-url"])
        .arg(redis.url())
        .args(["--scope", "imported"])
        .arg(&file);
    let timed = crate::tools::timed(&command, None, None, work)?;
    let rate = lines as f64 / timed.wall_s;
    let scope = buckets(redis, "slugd:r:{imported}:*")?;
    let per_reservation = scope.bytes / lines as f64;
    eprintln!(
        "  {lines} lines in {:.2} s = {rate:.0} lines/s, peak RSS {} kB; {} keys, MEMORY USAGE {} B = {per_reservation:.1} B a reservation; {}",
        timed.wall_s,
        timed.peak_rss_kb,
        scope.keys,
        scope.bytes,
        timed.stdout.trim()
    );
    report.record("import", "lines_per_second", "lines/s", Build::Now, rate);
    report.record("import", "wall", "s", Build::Now, timed.wall_s);
    report.record("import", "peak_rss", "kB", Build::Now, timed.peak_rss_kb);
    report.record(
        "import",
        "bytes_per_reservation",
        "B",
        Build::Now,
        per_reservation,
    );
    report.note("import_summary", timed.stdout.trim());
    Ok(())
}

fn redis_alone(settings: &Settings, work: &Path, report: &mut Report) -> Result<()> {
    need("redis-benchmark", "redis-tools")?;
    let redis = Redis::start("redis-alone", work)?;
    let script = output(
        Command::new("git")
            .args([
                "show",
                &format!("{SCRIPT_REVISION}:src/reserve/reservations.lua"),
            ])
            .current_dir(&settings.root),
    )?;
    let sha = redis.cli(&["script", "load", &script])?.trim().to_owned();
    for file in [
        "tests/data/reservations/library_1.lua",
        "src/reserve/reservations.lua",
    ] {
        let path = settings.root.join(file);
        let library = std::fs::read_to_string(&path)
            .with_context(|| format!("could not read {}", path.display()))?;
        redis.cli(&["function", "load", "replace", &library])?;
    }
    redis.cli(&["function", "load", "replace", FLOOR])?;
    eprintln!(
        "xtask: redis_alone, {} rounds of {ALONE_CALLS} reservations each by redis-benchmark",
        settings.rounds
    );
    let kinds = ["script", "library_1", "library", "floor"];
    let args = ["o__rand_int__", "hello-world", "-", ",", "5"];
    for round in 1..=settings.rounds {
        for name in rotated(round - 1, &kinds) {
            let prefix = format!("b:r:{{{name}{round}}}:");
            let (command, call): (&str, Vec<&str>) = match name {
                "script" => ("evalsha", vec!["evalsha", &sha, "0", &prefix, "reserve"]),
                "library_1" => ("fcall", vec!["fcall", "slugd_reserve_1", "0", &prefix]),
                "library" => ("fcall", vec!["fcall", "slugd_reserve_4", "0", &prefix]),
                _ => ("fcall", vec!["fcall", "bench_floor", "0", &prefix]),
            };
            let mut call = call;
            call.extend(args);
            match name {
                "script" | "library_1" => call.push("*"),
                "library" => call.extend(["0", "0", "*"]),
                _ => {}
            }
            redis.cli(&["config", "resetstat"])?;
            output(
                Command::new("redis-benchmark")
                    .args(["-p", &redis.port.to_string(), "-q", "-c", "8"])
                    .args(["-n", ALONE_CALLS, "-r", "100000000"])
                    .args(&call),
            )?;
            let stats = redis.cli(&["info", "commandstats"])?;
            let usec: f64 = stats
                .lines()
                .find_map(|l| l.trim().strip_prefix(&format!("cmdstat_{command}:")))
                .and_then(|fields| {
                    fields
                        .split(',')
                        .find_map(|f| f.strip_prefix("usec_per_call="))
                })
                .and_then(|v| v.parse().ok())
                .with_context(|| format!("no {command} calls counted for {name}:\n{stats}"))?;
            eprintln!("  round {round} {name:<10} {usec:>6.2} us a call");
            report.record(name, "usec_per_call", "us", Build::Now, usec);
        }
    }
    for name in ["library_1", "library", "floor"] {
        report.compare("usec_per_call", name, "script");
    }
    Ok(())
}
