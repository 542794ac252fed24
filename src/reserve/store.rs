//! The reservations in Redis: the library of Redis Functions
//! (`reservations.lua`, which defines the key layout within a scope), each
//! call an `FCALL` with the scope's key prefix as its first argument; the
//! library is loaded into a node (`FUNCTION LOAD`) the first time that
//! node says it does not have it. One call is one round trip: on a
//! cluster, to the one node that holds the scope's slot; with
//! [`WaitReplicas`], the call and a `WAIT` (or `WAITAOF`) go in one
//! pipeline, on a connection of the call's own from a [`Pool`]: `WAIT`
//! blocks the connection it is sent on, so on the shared one every
//! reservation would wait behind the others' replicas. A reservation that
//! finds its slug already made (a retry) writes the owner's record again
//! as it is, so that its `WAIT` counts replicas up to a point past the
//! first write (see `reservations.lua`). Every call
//! is bounded by the response timeout (plus the `WAIT` time), so a Redis
//! that is down or stalled gives a prompt error, never a hang. A call that
//! meets a dead connection (Redis restarted) is sent once more on a new
//! one, which the functions' idempotence makes safe.
//!
//! While a cluster moves the scope's slot, a call declares no key and the
//! function refuses to run on a node that does not have the whole scope
//! (see `reservations.lua`): it answers `MOVED` (redis-rs follows it) or
//! `TRYAGAIN`, having changed nothing, and the call is sent again after a
//! short pause until the slot has moved or the timeout is near.
//!
//! The connection is the service's kind ([`Conn::for_service`]): one
//! multiplexed connection, reconnecting by itself, apart from the table's;
//! calls that wait borrow from the pool instead.

use std::time::{Duration, Instant};

use redis::{ErrorKind, FromRedisValue, Value};

use super::error::ReserveError;
use super::names::{Owner, Scope};
use super::settings::WaitReplicas;
use crate::metrics::RedisCalls;
use crate::redis_conn::{Conn, Pool, RedisConfig, no_longer_primary, resend_once, slot_moving};

/// The library of functions, which defines the layout of a scope's keys.
const LIBRARY: &str = include_str!("reservations.lua");

/// The library's functions: their names carry the library's number
/// (`#!lua name=slugd_reservations_4`).
const RESERVE: &str = "slugd_reserve_4";
const LOOKUP: &str = "slugd_lookup_4";
const RELEASE: &str = "slugd_release_4";
const CLAIM: &str = "slugd_claim_4";
const HISTORY: &str = "slugd_history_4";
const EXPORT: &str = "slugd_export_4";
const CASE: &str = "slugd_case_4";

/// How many bucket hashes a scope's fields are spread over (the first 4
/// hex digits of a field's SHA-1).
pub(crate) const BUCKETS: u32 = 65_536;

/// The pause before calling again while the scope's slot moves.
const MOVING_PAUSE: Duration = Duration::from_millis(20);

/// The key prefix of `scope` under `prefix`: `{p}r:{scope}:`, with `%` and
/// `}` written `%25` and `%7D`, so the braces are the scope's hash tag and
/// distinct scopes never share a key.
pub fn scope_key(prefix: &str, scope: &str) -> String {
    let mut key = String::with_capacity(prefix.len() + scope.len() + 6);
    key.push_str(prefix);
    key.push_str("r:{");
    for c in scope.chars() {
        match c {
            '%' => key.push_str("%25"),
            '}' => key.push_str("%7D"),
            c => key.push(c),
        }
    }
    key.push_str("}:");
    key
}

/// What the function answered a reservation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// The owner already held a slug for this base: that slug, as below.
    Held(Slug),
    /// A new slug, now the owner's.
    New(Slug),
    /// The stems for suffixes of this many digits are needed.
    Need(usize),
    /// No slug fits: the suffix number it stopped at.
    Full(String),
}

/// A slug the function answered, with what it says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Slug {
    pub slug: String,
    /// The rule version that made its base when it was reserved.
    pub rules: u64,
    /// When its hold lapses, in Unix milliseconds; `None`: confirmed.
    pub held_until: Option<u64>,
    /// What this call did to a hold.
    pub hold: Option<HoldEvent>,
    /// How many lapsed holds this call freed (the slug taken, or the
    /// owner's own lapsed holds of other titles).
    pub lapsed: u64,
}

/// What a reservation did to a hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldEvent {
    /// A new slug, held.
    Made,
    /// The owner's hold, given a new lifetime.
    Renewed,
    /// The owner's hold, now a reservation for good.
    Confirmed,
}

/// What a reservation sends: the base slug and the rule version that made
/// it, the separator, which suffix numbers are reserved words and the stem
/// for each suffix width.
pub(crate) struct Ask<'a> {
    pub base: &'a str,
    /// Kept with the reservation: `GET /reservations` says it.
    pub rules: u64,
    pub separator: &'a str,
    /// `,n,m,`: suffix numbers to skip (1: the base itself).
    pub skips: &'a str,
    /// A hold of this many seconds (0: none; a hold of the owner's for
    /// this base is confirmed).
    pub hold_seconds: u32,
    /// `None`: no `max_length`, every stem is the base. Otherwise the stem
    /// for suffixes of 1, 2, ... digits (`""` when none fits).
    pub stems: Option<&'a [String]>,
    /// A dry run: the answer the reservation would have, nothing written.
    pub dry: bool,
}

/// An exact slug claimed for an owner: an editor's own slug, or a line of
/// an import.
#[derive(Debug, Clone)]
pub(crate) struct Claim {
    pub owner: String,
    pub slug: String,
    /// The base a title's reservation finds it by: the slug without its
    /// number (`hello-world` of `hello-world-7`), or the slug.
    pub base: String,
    /// The slug's number, which the base's next numbered slug goes on
    /// after.
    pub number: Option<u64>,
    /// The rule version kept with it (0: not made by slugd).
    pub rules: u64,
    pub hold: ClaimHold,
    /// Claimed only if the owner holds it already (a reserved word).
    pub only_owned: bool,
}

/// How long a claimed slug is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClaimHold {
    /// For good.
    Confirmed,
    /// For this many seconds from now (Redis's clock).
    For(u32),
    /// Until this time, in Unix milliseconds.
    Until(u64),
}

/// What a claim answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Claimed {
    /// The slug is the owner's: `new` when this claim made it so.
    Mine { new: bool, slug: Slug },
    /// Another owner holds it (until `held_until`, or for good).
    Taken {
        owner: String,
        held_until: Option<u64>,
    },
}

/// One slug an owner holds, as the history and the export give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Who holds it.
    pub owner: String,
    /// The slug.
    pub slug: String,
    /// The base it was reserved (or imported) for.
    pub base: String,
    /// The rule version that made it (0: imported or typed, not made).
    pub rules: u64,
    /// When its hold lapses, in Unix milliseconds; `None`: confirmed.
    pub held_until: Option<u64>,
}

/// The reservations of one deployment (one key prefix) in Redis.
pub(crate) struct RedisStore {
    conn: Conn,
    prefix: String,
    /// Bounds every call.
    timeout: Duration,
    wait: Option<WaitReplicas>,
    /// The connections of calls that wait (with `wait`).
    waiting: Option<Pool>,
    /// Round trips, for `GET /metrics`.
    calls: RedisCalls,
}

/// What a `WAIT` or `WAITAOF` answered.
#[derive(Debug, Clone, Copy)]
struct Acked {
    /// How many replicas have the write (on disk, with `WAITAOF`).
    replicas: i64,
    /// `WAITAOF`: whether the primary's append-only file has it on disk.
    /// `WAIT`: always true (not asked).
    local: bool,
}

impl RedisStore {
    /// A store on `config`'s Redis under `prefix`. Connects lazily: this
    /// never waits for Redis.
    pub fn new(
        config: &RedisConfig,
        prefix: &str,
        wait: Option<WaitReplicas>,
        calls: RedisCalls,
    ) -> Result<Self, ReserveError> {
        // The driver's own timeout must leave room for the WAIT.
        let timeout = config.response_timeout + wait.map_or(Duration::ZERO, |w| w.timeout);
        let config = RedisConfig {
            response_timeout: timeout,
            ..config.clone()
        };
        let conn = Conn::for_service(&config)
            .map_err(|e| ReserveError::from_redis(e, config.response_timeout))?;
        let waiting = wait.map(|w| Pool::new(&conn, &config, w.connections));
        Ok(RedisStore {
            conn,
            prefix: prefix.to_owned(),
            timeout,
            wait,
            waiting,
            calls,
        })
    }

    /// With `fsync`: whether Redis can wait for its append-only file
    /// (`WAITAOF` on a primary with `appendonly yes`), asked once at start
    /// so that a server that cannot is refused with the reason, not at the
    /// first reservation. `Ok` when Redis cannot be reached: the service
    /// starts without Redis, and a reservation then says what is wrong.
    pub async fn check_fsync(&self) -> Result<(), ReserveError> {
        let Some(wait) = self.wait.filter(|w| w.fsync) else {
            return Ok(());
        };
        // Nothing written on a new connection yet: Redis answers at once.
        let cmd = redis::cmd("WAITAOF").arg(1).arg(0).arg(1).clone();
        let mut conn = self.conn.clone();
        let check = conn.per_node(vec![(self.prefix.clone(), cmd)], false);
        match tokio::time::timeout(self.timeout, check).await {
            Ok(Ok(_)) => Ok(()),
            // Refused for good: no such command, no append-only file, or
            // not allowed. Anything else (LOADING while Redis replays its
            // file, say) may pass: the service starts.
            Ok(Err(e)) if fsync_refused_for_good(&e) => {
                Err(ReserveError::NoFsync(fsync_refused(&e.to_string(), wait)))
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "cannot ask Redis whether it can wait for its append-only file (--reservation-fsync); reservations will say so if it cannot");
                Ok(())
            }
            Err(_) => {
                tracing::warn!(
                    "Redis did not answer whether it can wait for its append-only file (--reservation-fsync); reservations will say so if it cannot"
                );
                Ok(())
            }
        }
    }

    /// Reserves a slug of `ask.base` for `owner` in `scope`, in one atomic
    /// step; with [`WaitReplicas`], answers only once the replicas have it.
    pub async fn reserve(
        &self,
        scope: &Scope,
        owner: &Owner,
        ask: &Ask<'_>,
    ) -> Result<Reply, ReserveError> {
        let rules = ask.rules.to_string();
        let hold = ask.hold_seconds.to_string();
        let mut args: Vec<&str> = vec![
            RESERVE,
            owner.as_str(),
            ask.base,
            ask.separator,
            ask.skips,
            &rules,
            &hold,
            if ask.dry { "1" } else { "0" },
        ];
        let count;
        match ask.stems {
            None => args.push("*"),
            Some(stems) => {
                count = stems.len().to_string();
                args.push(&count);
                args.extend(stems.iter().map(String::as_str));
            }
        }
        let (value, acked) = self.run(scope, &args, !ask.dry).await?;
        let reply: Vec<String> = Vec::from_redis_value_ref(&value)
            .map_err(|_| ReserveError::Damaged(format!("{value:?}")))?;
        let damaged = || ReserveError::Damaged(format!("{reply:?}"));
        let slug = |slug: &String, rules: &str, until: &str, event: &str, lapsed: &str| {
            Ok::<_, ReserveError>(Slug {
                slug: slug.clone(),
                rules: rules.parse().map_err(|_| damaged())?,
                held_until: lapse_time(until).ok_or_else(damaged)?,
                hold: match event {
                    "" => None,
                    "made" => Some(HoldEvent::Made),
                    "renewed" => Some(HoldEvent::Renewed),
                    "confirmed" => Some(HoldEvent::Confirmed),
                    _ => return Err(damaged()),
                },
                lapsed: lapsed.parse().map_err(|_| damaged())?,
            })
        };
        let reply = match reply.as_slice() {
            [status, s, r] if status == "held" => Reply::Held(slug(s, r, "", "", "0")?),
            [status, s, r] if status == "new" => Reply::New(slug(s, r, "", "", "0")?),
            [status, s, r, t, e, l] if status == "held" => Reply::Held(slug(s, r, t, e, l)?),
            [status, s, r, t, e, l] if status == "new" => Reply::New(slug(s, r, t, e, l)?),
            [status, d] if status == "need" => Reply::Need(d.parse().unwrap_or(usize::MAX)),
            [status, n] if status == "full" => Reply::Full(n.clone()),
            _ => return Err(damaged()),
        };
        if let (Reply::Held(made) | Reply::New(made), Some(wait), Some(acked)) =
            (&reply, self.wait, acked)
            && (acked.replicas < i64::from(wait.replicas) || !acked.local)
        {
            return Err(ReserveError::NotReplicated {
                slug: made.slug.clone(),
                acked: acked.replicas,
                wanted: wait.replicas,
                fsync: wait.fsync.then_some(acked.local),
                timeout: wait.timeout,
            });
        }
        Ok(reply)
    }

    /// Whether each write waits for replicas (or the append-only file).
    pub fn waits(&self) -> bool {
        self.wait.is_some()
    }

    /// Claims each of `claims` in turn, in one atomic step; with `dry`,
    /// answers what it would do and writes nothing. With
    /// [`WaitReplicas`], answers only once the replicas have them.
    pub async fn claim(
        &self,
        scope: &Scope,
        claims: &[Claim],
        dry: bool,
    ) -> Result<Vec<Claimed>, ReserveError> {
        let mut owned: Vec<String> = Vec::with_capacity(claims.len() * 3);
        for c in claims {
            owned.push(c.number.map_or_else(String::new, |n| n.to_string()));
            owned.push(c.rules.to_string());
            owned.push(match c.hold {
                ClaimHold::Confirmed => String::new(),
                ClaimHold::For(seconds) => format!("+{seconds}"),
                ClaimHold::Until(ms) => ms.to_string(),
            });
        }
        let mut args: Vec<&str> = Vec::with_capacity(2 + claims.len() * 7);
        args.push(CLAIM);
        args.push(if dry { "1" } else { "0" });
        for (c, more) in claims.iter().zip(owned.chunks(3)) {
            args.extend([
                c.owner.as_str(),
                &c.slug,
                &c.base,
                &more[0],
                &more[1],
                &more[2],
                if c.only_owned { "1" } else { "0" },
            ]);
        }
        let (value, acked) = self.run(scope, &args, !dry).await?;
        let reply: Vec<String> = Vec::from_redis_value_ref(&value)
            .map_err(|_| ReserveError::Damaged(format!("{value:?}")))?;
        if reply.len() != claims.len() * 5 {
            return Err(ReserveError::Damaged(format!("{reply:?}")));
        }
        let mut out = Vec::with_capacity(claims.len());
        for one in reply.chunks(5) {
            let damaged = || ReserveError::Damaged(format!("{one:?}"));
            let held_until = lapse_time(&one[2]).ok_or_else(damaged)?;
            out.push(match one[0].as_str() {
                "taken" => Claimed::Taken {
                    owner: one[1].clone(),
                    held_until,
                },
                status @ ("new" | "held") => Claimed::Mine {
                    new: status == "new",
                    slug: Slug {
                        slug: one[1].clone(),
                        rules: one[4].parse().map_err(|_| damaged())?,
                        held_until,
                        hold: match one[3].as_str() {
                            "" => None,
                            "made" => Some(HoldEvent::Made),
                            "renewed" => Some(HoldEvent::Renewed),
                            "confirmed" => Some(HoldEvent::Confirmed),
                            _ => return Err(damaged()),
                        },
                        lapsed: 0,
                    },
                },
                _ => return Err(damaged()),
            });
        }
        if let (Some(wait), Some(acked)) = (self.wait, acked)
            && (acked.replicas < i64::from(wait.replicas) || !acked.local)
        {
            return Err(ReserveError::NotReplicated {
                slug: match claims {
                    [one] => one.slug.clone(),
                    _ => format!("a batch of {} slugs", claims.len()),
                },
                acked: acked.replicas,
                wanted: wait.replicas,
                fsync: wait.fsync.then_some(acked.local),
                timeout: wait.timeout,
            });
        }
        Ok(out)
    }

    /// Makes `scope` compare slugs without regard to ASCII case, or with
    /// it; refused ([`ReserveError::ScopeHasKeys`]) once the scope has any
    /// key under the other setting. Returns the setting.
    pub async fn set_case_insensitive(
        &self,
        scope: &Scope,
        insensitive: bool,
    ) -> Result<bool, ReserveError> {
        let wanted = if insensitive {
            "insensitive"
        } else {
            "sensitive"
        };
        let (value, _) = self.run(scope, &[CASE, wanted], true).await?;
        let reply: Vec<String> = Vec::from_redis_value_ref(&value)
            .map_err(|_| ReserveError::Damaged(format!("{value:?}")))?;
        match reply.as_slice() {
            [status, setting] if status == "ok" => Ok(setting == "insensitive"),
            [status, setting] if status == "has_keys" => Err(ReserveError::ScopeHasKeys {
                scope: scope.as_str().to_owned(),
                insensitive: setting == "insensitive",
            }),
            _ => Err(ReserveError::Damaged(format!("{reply:?}"))),
        }
    }

    /// The slugs `owner` holds in `scope`, oldest first.
    pub async fn history(&self, scope: &Scope, owner: &Owner) -> Result<Vec<Entry>, ReserveError> {
        let (value, _) = self.run(scope, &[HISTORY, owner.as_str()], false).await?;
        entries(&value)
    }

    /// The slugs of the owners whose records are in buckets `from` to
    /// `to - 1` of `scope` (each owner's oldest first).
    pub async fn export(
        &self,
        scope: &Scope,
        from: u32,
        to: u32,
    ) -> Result<Vec<Entry>, ReserveError> {
        let (from, to) = (from.to_string(), to.to_string());
        let (value, _) = self.run(scope, &[EXPORT, &from, &to], false).await?;
        entries(&value)
    }

    /// Who holds `slug` in `scope`: the owner, its current slug, the rule
    /// version that made `slug`, and when its hold lapses (Unix
    /// milliseconds; `None`: confirmed).
    pub async fn lookup(
        &self,
        scope: &Scope,
        slug: &str,
    ) -> Result<Option<(String, String, u64, Option<u64>)>, ReserveError> {
        let (value, _) = self.run(scope, &[LOOKUP, slug], false).await?;
        let reply: Vec<String> = Vec::from_redis_value_ref(&value)
            .map_err(|_| ReserveError::Damaged(format!("{value:?}")))?;
        let damaged = |reply: &[String]| ReserveError::Damaged(format!("{reply:?}"));
        match <[String; 4]>::try_from(reply) {
            Ok([owner, current, rules, until]) => match (rules.parse(), lapse_time(&until)) {
                (Ok(rules), Some(until)) => Ok(Some((owner, current, rules, until))),
                _ => Err(damaged(&[owner, current, rules, until])),
            },
            Err(reply) if reply.is_empty() => Ok(None),
            Err(reply) => Err(damaged(&reply)),
        }
    }

    /// Frees every slug of `owner` in `scope`; how many it held.
    pub async fn release(&self, scope: &Scope, owner: &Owner) -> Result<u64, ReserveError> {
        let (value, acked) = self.run(scope, &[RELEASE, owner.as_str()], true).await?;
        let freed = u64::from_redis_value_ref(&value)
            .map_err(|_| ReserveError::Damaged(format!("{value:?}")))?;
        if let (Some(wait), Some(acked)) = (self.wait, acked)
            && freed > 0
            && (acked.replicas < i64::from(wait.replicas) || !acked.local)
        {
            return Err(ReserveError::NotReplicated {
                slug: format!("the release of {freed} slugs"),
                acked: acked.replicas,
                wanted: wait.replicas,
                fsync: wait.fsync.then_some(acked.local),
                timeout: wait.timeout,
            });
        }
        Ok(freed)
    }

    /// Calls the function `args[0]` on `scope` with the rest of `args`,
    /// within the timeout (sent again, as above, after a dead connection
    /// or while the scope's slot moves); with `write` and
    /// [`WaitReplicas`], a `WAIT` in the same round trip, whose count of
    /// replicas comes back too.
    async fn run(
        &self,
        scope: &Scope,
        args: &[&str],
        write: bool,
    ) -> Result<(Value, Option<Acked>), ReserveError> {
        let key = scope_key(&self.prefix, scope.as_str());
        let wait = self.wait.filter(|_| write);
        let deadline = Instant::now() + self.timeout;
        let call = async {
            let mut resent = false;
            loop {
                match self.call_function(&key, args, wait).await {
                    // Safe: every operation is idempotent. A
                    // look-up only reads. A reservation that did run before
                    // the connection died (its answer lost) finds the
                    // owner's record holding a slug for this base and
                    // answers that slug (`held`, 200) without writing
                    // anything new. A release that did run finds no record
                    // and answers 0 (a 404), as the client's own retry
                    // would. After a restart of Redis the first copy was
                    // never sent at all (see `resend_once`).
                    Err(e) if !resent && resend_once(&e) => {
                        tracing::info!(error = %e, "the connection to Redis was found dead; sending the reservation call again on a new one");
                        resent = true;
                    }
                    // The scope's slot is moving: the function refused
                    // before it read or wrote anything, so it is sent
                    // again, until the slot has moved or the timeout
                    // would leave no room for another try.
                    Err(e) if slot_moving(&e) && Instant::now() + 2 * MOVING_PAUSE < deadline => {
                        tracing::debug!(error = %e, "the scope's hash slot is moving; sending the reservation call again");
                        tokio::time::sleep(MOVING_PAUSE).await;
                    }
                    other => return other,
                }
            }
        };
        match tokio::time::timeout(self.timeout, call).await {
            Ok(Ok(done)) => Ok(done),
            Ok(Err(e)) => Err(ReserveError::from_redis(e, self.timeout)),
            Err(_) => {
                self.calls.failed();
                Err(ReserveError::Timeout(self.timeout))
            }
        }
    }

    /// The operation's function, after loading the library into the
    /// scope's node if that node does not have it yet (a Redis that never
    /// had a slugd of this release, or a node new to a cluster).
    async fn call_function(
        &self,
        key: &str,
        args: &[&str],
        wait: Option<WaitReplicas>,
    ) -> redis::RedisResult<(Value, Option<Acked>)> {
        match self.send(key, args, wait).await {
            Err(e) if is_function_missing(&e) => {
                self.load_library(key).await?;
                self.send(key, args, wait).await
            }
            other => other,
        }
    }

    /// `FUNCTION LOAD REPLACE` of the library on the node of `key`'s slot.
    async fn load_library(&self, key: &str) -> redis::RedisResult<()> {
        let load = redis::cmd("FUNCTION")
            .arg("LOAD")
            .arg("REPLACE")
            .arg(LIBRARY)
            .clone();
        self.round_trip(vec![(key.to_owned(), load)], false).await?;
        tracing::info!("loaded the reservations' functions into Redis");
        Ok(())
    }

    /// One round trip of `cmds` to their node, counted for `GET /metrics`:
    /// answered (an error reply too, such as a missing function) or
    /// failed (no answer). With `blocks` (the commands end with a `WAIT`),
    /// on a connection of its own from the pool.
    async fn round_trip(
        &self,
        cmds: Vec<(String, redis::Cmd)>,
        blocks: bool,
    ) -> redis::RedisResult<Vec<Value>> {
        let values = match self.waiting.as_ref().filter(|_| blocks) {
            Some(pool) => {
                let mut lent = match pool.lend().await {
                    Ok(lent) => lent,
                    Err(e) => {
                        self.calls.failed();
                        return Err(e);
                    }
                };
                let values = lent.conn().per_node(cmds, false).await;
                match &values {
                    // Dead, or no longer the primary (demoted in a
                    // failover): its idle siblings are too.
                    Err(e) if e.is_connection_dropped() || no_longer_primary(e) => lent.dead(),
                    Err(e) if !answered_by_redis(e) => {}
                    _ => lent.answered(),
                }
                values
            }
            None => self.conn.clone().per_node(cmds, false).await,
        };
        match &values {
            Err(e) if !answered_by_redis(e) => self.calls.failed(),
            _ => self.calls.answered(),
        }
        values
    }

    /// One round trip: `FCALL` of the function `args[0]` with the rest of
    /// `args`, then the `WAIT` (or `WAITAOF`) if any.
    async fn send(
        &self,
        key: &str,
        args: &[&str],
        wait: Option<WaitReplicas>,
    ) -> redis::RedisResult<(Value, Option<Acked>)> {
        let (name, args) = args
            .split_first()
            .expect("every call names its function first");
        // Sized once: growing the command's buffers argument by argument
        // cost more than the rest of building it.
        let bytes = "FCALL".len() + name.len() + 1 + key.len();
        let mut fcall = redis::Cmd::with_capacity(
            4 + args.len(),
            bytes + args.iter().map(|a| a.len()).sum::<usize>(),
        );
        fcall.arg("FCALL").arg(name);
        // No KEYS: the prefix is the function's first argument, so that
        // Redis never sends the call to a node holding part of a moving
        // scope (see `reservations.lua`); it goes to the node of the
        // prefix's slot.
        fcall.arg(0).arg(key).arg(args);
        let mut cmds = vec![(key.to_owned(), fcall)];
        if let Some(wait) = wait {
            let ms = wait.timeout.as_millis().max(1) as u64;
            let cmd = match wait.fsync {
                false => redis::cmd("WAIT").arg(wait.replicas).arg(ms).clone(),
                true => redis::cmd("WAITAOF")
                    .arg(1)
                    .arg(wait.replicas)
                    .arg(ms)
                    .clone(),
            };
            cmds.push((key.to_owned(), cmd));
        }
        let mut values = self.round_trip(cmds, wait.is_some()).await?.into_iter();
        let value = values.next().unwrap_or(Value::Nil);
        let acked = match (values.next(), wait) {
            (Some(v), Some(w)) if w.fsync => {
                let (local, replicas) = <(i64, i64)>::from_redis_value(v)?;
                Some(Acked {
                    replicas,
                    local: local >= 1,
                })
            }
            (Some(v), _) => Some(Acked {
                replicas: i64::from_redis_value(v)?,
                local: true,
            }),
            (None, _) => None,
        };
        Ok((value, acked))
    }
}

/// The entries the history and the export answer, five fields each.
fn entries(value: &Value) -> Result<Vec<Entry>, ReserveError> {
    let reply: Vec<String> = Vec::from_redis_value_ref(value)
        .map_err(|_| ReserveError::Damaged(format!("{value:?}")))?;
    if !reply.len().is_multiple_of(5) {
        return Err(ReserveError::Damaged(format!("{reply:?}")));
    }
    let mut out = Vec::with_capacity(reply.len() / 5);
    let mut fields = reply.into_iter();
    while let (Some(owner), Some(slug), Some(base), Some(rules), Some(until)) = (
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
    ) {
        let (Ok(rules), Some(held_until)) = (rules.parse(), lapse_time(&until)) else {
            return Err(ReserveError::Damaged(format!(
                "{owner:?} {slug:?} {base:?} {rules:?} {until:?}"
            )));
        };
        out.push(Entry {
            owner,
            slug,
            base,
            rules,
            held_until,
        });
    }
    Ok(out)
}

/// A lapse time as the functions answer it: `""` (confirmed, `None`) or
/// Unix milliseconds; `None` when it is neither.
fn lapse_time(text: &str) -> Option<Option<u64>> {
    match text {
        "" => Some(None),
        t => t.parse().ok().map(Some),
    }
}

/// Whether Redis answered `e` (an error reply: the connection is in step),
/// rather than failing to answer. redis-rs names the codes it knows
/// (`ErrorKind::Server`) and gives the others (`NOREPLICAS`, `OOM`,
/// `BUSY`) as extensions, each with its code.
fn answered_by_redis(e: &redis::RedisError) -> bool {
    matches!(e.kind(), ErrorKind::Server(_) | ErrorKind::Extension) || e.code().is_some()
}

/// Whether Redis's refusal of `WAITAOF` holds for as long as it runs as it
/// does: no such command (before 7.2), no append-only file, or not
/// allowed by the user's ACL.
fn fsync_refused_for_good(e: &redis::RedisError) -> bool {
    let said = e.to_string().to_ascii_lowercase();
    answered_by_redis(e)
        && (said.contains("unknown command")
            || said.contains("appendonly")
            || e.code() == Some("NOPERM"))
}

/// Why Redis refused `WAITAOF` (its error `said`), for an operator who
/// asked for `--reservation-fsync`.
fn fsync_refused(said: &str, wait: WaitReplicas) -> String {
    let why = if said.to_ascii_lowercase().contains("unknown command") {
        "this Redis has no WAITAOF, which came with Redis 7.2 (and is in every Valkey): upgrade it, or run without --reservation-fsync and use appendfsync always for durable writes"
    } else if said.contains("appendonly") {
        "its append-only file is off (appendonly no): turn it on (appendonly yes, with appendfsync everysec), or run without --reservation-fsync"
    } else {
        "Redis refused WAITAOF: give the service's user +waitaof, or run without --reservation-fsync"
    };
    let replicas = match wait.replicas {
        0 => String::new(),
        n => format!(" and on {n} replicas"),
    };
    format!(
        "--reservation-fsync waits for each reservation to be on disk on the primary{replicas}, but {why} (Redis said: {said})"
    )
}

/// Whether Redis refused a call because it does not have the function.
fn is_function_missing(e: &redis::RedisError) -> bool {
    matches!(e.kind(), ErrorKind::Server(_)) && e.to_string().contains("Function not found")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redis_conn::cluster::slot_of;

    #[test]
    fn every_scope_has_a_hash_tag_of_its_own() {
        assert_eq!(scope_key("slugd:", "posts"), "slugd:r:{posts}:");
        for scope in ["posts", "}", "a}b", "%7D", "{x}", "}{", "%"] {
            let key = scope_key("slugd:", scope);
            // Every bucket key of the scope is in the scope's slot.
            assert_eq!(
                slot_of(format!("{key}7fff").as_bytes()),
                slot_of(key.as_bytes())
            );
            let tag = &key["slugd:r:{".len()..key.len() - 2];
            assert!(!tag.contains('}'), "{key}");
        }
        // Distinct scopes, distinct keys.
        assert_ne!(scope_key("p:", "a}b"), scope_key("p:", "a%7Db"));
        assert_ne!(scope_key("p:", "%25"), scope_key("p:", "%"));
    }
}
