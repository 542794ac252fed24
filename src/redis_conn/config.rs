//! Where Redis is and how to reach it: one server by URL, a Redis Cluster
//! by seed nodes, or the primary Redis Sentinel names (passwords never reach
//! a log or an error), TLS for
//! `rediss://` URLs (rustls, with the system's roots or a given CA), and
//! the connect and response timeouts. The connections the service and the
//! loader talk through are opened in [`super::conn`].

use std::fmt;
use std::time::Duration;

use redis::Client;

/// A Redis URL. Its `Display` and `Debug` hide any password.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl(String);

/// What a hidden password shows as.
const HIDDEN: &str = "***";

/// The shape a Redis URL takes, for the errors of [`RedisUrl::parse`].
const EXPECTED: &str = "expected redis://[user:password@]host:port[/db]";

impl RedisUrl {
    /// Checks that `url` is a Redis URL redis-rs accepts.
    pub fn parse(url: &str) -> Result<Self, String> {
        let url = url.trim();
        // The url crate's errors never quote the input, so a password
        // cannot leak through them; an '@', '/', '#' or '?' left raw in a
        // password is the usual reason a Redis URL does not parse.
        let parsed = url::Url::parse(url).map_err(|e| {
            format!(
                "the Redis URL given (not shown: it may hold a password) is not a Redis URL: \
                 {e}; {EXPECTED}, with '@', '/', '#' and '?' in a password written as %40, \
                 %2F, %23 and %3F"
            )
        })?;
        match Client::open(url) {
            Ok(_) => Ok(RedisUrl(url.to_owned())),
            // redis-rs errors may quote the URL: describe it ourselves.
            Err(_) => Err(format!(
                "'{}' is not a Redis URL; {EXPECTED}",
                redact(parsed)
            )),
        }
    }

    /// The URL as given, password included: only for opening connections.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The URL with its password replaced by `***`, as the url crate
    /// writes it.
    pub fn redacted(&self) -> String {
        match url::Url::parse(&self.0) {
            Ok(url) => redact(url),
            // Unreachable: `parse` keeps only what parses. Show nothing
            // rather than risk a password.
            Err(_) => HIDDEN.to_owned(),
        }
    }
}

/// `url` with every place redis-rs reads a password from replaced by
/// `***`: the password of `user:password@`; a lone `secret@`, which
/// redis-rs sends as a user name but is where people write a password;
/// and the `pass` query parameter of a Unix socket URL
/// (`redis+unix:///run/redis.sock?pass=...`).
fn redact(mut url: url::Url) -> String {
    let hidden = if url.password().is_some() {
        url.set_password(Some(HIDDEN))
    } else if !url.username().is_empty() {
        url.set_username(HIDDEN)
    } else {
        Ok(())
    };
    if hidden.is_err() {
        // The url crate refuses only URLs without a host, which have no
        // user info to hide; should one have it all the same, hide all.
        return HIDDEN.to_owned();
    }
    if url.query_pairs().any(|(k, _)| k == "pass") {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| {
                let v = if k == "pass" { HIDDEN.into() } else { v };
                (k.into_owned(), v.into_owned())
            })
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.into()
}

impl fmt::Display for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RedisUrl({})", self.redacted())
    }
}

/// Where Redis is: one server, a cluster, or the primary sentinels name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// One server: a primary, or a replica to read from.
    Single(RedisUrl),
    /// A Redis Cluster, reached through any of its seed nodes.
    Cluster {
        /// The seed nodes; the others are learnt from the cluster.
        nodes: Vec<RedisUrl>,
        /// Send reads to replicas when the cluster has them.
        read_from_replicas: bool,
    },
    /// The primary of a set monitored by Redis Sentinel, followed through
    /// failovers.
    Sentinel {
        /// The sentinels, asked in turn.
        sentinels: Vec<RedisUrl>,
        /// The monitored set's name (`mymaster` by default).
        name: String,
    },
}

impl Endpoint {
    /// Parses a comma-separated list of seed nodes, each `host:port` or a
    /// `redis://[user:password@]host:port` or `rediss://...` URL.
    pub fn cluster(list: &str, read_from_replicas: bool) -> Result<Self, String> {
        let nodes = node_list(list, "cluster node")?;
        if nodes.is_empty() {
            return Err(
                "the cluster needs at least one seed node, as host:port[,host:port...]".to_owned(),
            );
        }
        Ok(Endpoint::Cluster {
            nodes,
            read_from_replicas,
        })
    }

    /// Parses a comma-separated list of sentinels, each `host:port` or a
    /// `redis://[user:password@]host:port[/db]` or `rediss://...` URL, and
    /// the name of the primary they monitor.
    pub fn sentinel(list: &str, name: &str) -> Result<Self, String> {
        let sentinels = node_list(list, "sentinel")?;
        if sentinels.is_empty() {
            return Err("give at least one sentinel, as host:port[,host:port...]".to_owned());
        }
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!(
                "the primary's name must be the one the sentinels monitor (sentinel monitor NAME ...), one word, not '{name}'"
            ));
        }
        Ok(Endpoint::Sentinel {
            sentinels,
            name: name.to_owned(),
        })
    }
}

/// `host:port` or URLs, comma-separated; `what` names one in an error.
fn node_list(list: &str, what: &str) -> Result<Vec<RedisUrl>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|node| match node.contains("://") {
            true => RedisUrl::parse(node),
            false => RedisUrl::parse(&format!("redis://{node}"))
                .map_err(|_| format!("{what} '{node}' is not host:port or a redis:// URL")),
        })
        .collect()
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Single(url) => url.fmt(f),
            Endpoint::Cluster {
                nodes,
                read_from_replicas,
            } => {
                f.write_str("cluster ")?;
                for (i, node) in nodes.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    node.fmt(f)?;
                }
                if *read_from_replicas {
                    f.write_str(" (reading from replicas)")?;
                }
                Ok(())
            }
            Endpoint::Sentinel { sentinels, name } => {
                write!(f, "primary '{name}' of sentinels ")?;
                for (i, node) in sentinels.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    node.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

/// Where Redis is and how long to wait for it.
#[derive(Debug, Clone)]
pub struct RedisConfig {
    /// The server or cluster.
    pub endpoint: Endpoint,
    /// How long one connection attempt may take.
    pub connect_timeout: Duration,
    /// How long one command or pipeline may wait for its answer.
    pub response_timeout: Duration,
    /// For `rediss://` URLs: the PEM certificate(s) of the CA that signed
    /// the server's certificate. Without it, the system's roots are used.
    pub ca_cert: Option<Vec<u8>>,
}

impl RedisConfig {
    /// A config for one server at `url`, with the given timeouts.
    pub fn single(url: RedisUrl, connect_timeout: Duration, response_timeout: Duration) -> Self {
        RedisConfig {
            endpoint: Endpoint::Single(url),
            connect_timeout,
            response_timeout,
            ca_cert: None,
        }
    }

    pub(super) fn certificates(&self) -> Option<redis::TlsCertificates> {
        self.ca_cert.as_ref().map(|pem| redis::TlsCertificates {
            client_tls: None,
            root_cert: Some(pem.clone()),
        })
    }

    pub(super) fn client(&self, url: &RedisUrl) -> redis::RedisResult<Client> {
        match self.certificates() {
            Some(certs) => Client::build_with_tls(url.expose(), certs),
            None => Client::open(url.expose()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_show() {
        let url = RedisUrl::parse("redis://reader:s3cret@127.0.0.1:6379/0").unwrap();
        assert_eq!(url.to_string(), "redis://reader:***@127.0.0.1:6379/0");
        assert!(!format!("{url:?}").contains("s3cret"));
        let url = RedisUrl::parse("redis://:s3cret@localhost").unwrap();
        assert_eq!(url.to_string(), "redis://:***@localhost");
        let url = RedisUrl::parse("redis://127.0.0.1:6379").unwrap();
        assert_eq!(url.to_string(), "redis://127.0.0.1:6379");
    }

    #[test]
    fn every_kind_of_url_keeps_its_shape_with_the_password_hidden() {
        for (given, shown) in [
            (
                "rediss://app:s3cret@redis.example:6380/1",
                "rediss://app:***@redis.example:6380/1",
            ),
            (
                "rediss://:s3cret@h:7002#insecure",
                "rediss://:***@h:7002#insecure",
            ),
            // A lone user info is taken for a password.
            ("redis://s3cret@host:6379", "redis://***@host:6379"),
            (
                "redis://user:s3cret@host:6379/0?protocol=resp3",
                "redis://user:***@host:6379/0?protocol=resp3",
            ),
            (
                "redis://host:6379/0?protocol=resp3",
                "redis://host:6379/0?protocol=resp3",
            ),
            (
                "redis://user:s3cret@[::1]:6379/2",
                "redis://user:***@[::1]:6379/2",
            ),
            (
                "redis+unix:///run/redis.sock?db=1",
                "redis+unix:///run/redis.sock?db=1",
            ),
            ("unix:///tmp/redis.sock", "unix:///tmp/redis.sock"),
            // A Unix socket URL carries its password in the query.
            (
                "redis+unix:///tmp/redis.sock?db=2&user=u&pass=s3cret",
                "redis+unix:///tmp/redis.sock?db=2&user=u&pass=***",
            ),
        ] {
            assert_eq!(
                RedisUrl::parse(given).unwrap().to_string(),
                shown,
                "{given}"
            );
        }
    }

    #[test]
    fn passwords_with_special_characters_never_show() {
        for given in [
            // Percent-encoded '@', '/', ':', '#' and a space.
            "redis://user:p%40s3cret%2Fw%3Ard@host:6379",
            "redis://user:s3cret%23x@host:6379",
            "redis://user:s3cret%20x@host:6379",
            // Raw characters the url crate accepts in user info.
            "redis://user:p@s3cret@host:6379",
            "redis://user:pä$s3cret!&=,;+~*'()@host:6379",
            "redis://user:s3cret x@host:6379",
        ] {
            let url = RedisUrl::parse(given).unwrap();
            assert_eq!(url.to_string(), "redis://user:***@host:6379", "{given}");
            assert!(!format!("{url:?}").contains("s3cret"), "{given}");
        }
        // A raw '/', '#' or '?' ends the user info early: the URL does not
        // parse, and the error must not quote what it cannot redact.
        for given in [
            "redis://user:pa/s3cret@host",
            "redis://user:pa#s3cret@host",
            "redis://user:pa?s3cret@host",
        ] {
            let err = RedisUrl::parse(given).unwrap_err();
            assert!(err.contains("is not a Redis URL"), "{err}");
            assert!(err.contains("%2F, %23 and %3F"), "{err}");
            assert!(!err.contains("s3cret"), "{err}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_redis_url_without_echoing_secrets() {
        let err = RedisUrl::parse("http://user:s3cret@host").unwrap_err();
        assert!(err.contains("is not a Redis URL"), "{err}");
        assert!(!err.contains("s3cret"), "{err}");
    }

    #[test]
    fn cluster_seed_lists_parse_and_hide_passwords() {
        let e = Endpoint::cluster(
            "127.0.0.1:7000, redis://app:s3cret@127.0.0.1:7001,rediss://h:7002",
            true,
        )
        .unwrap();
        assert_eq!(
            e.to_string(),
            "cluster redis://127.0.0.1:7000,redis://app:***@127.0.0.1:7001,rediss://h:7002 (reading from replicas)"
        );
        assert!(Endpoint::cluster(" , ", false).is_err());
        let e = Endpoint::sentinel("127.0.0.1:26379, redis://:s3cret@h:26380", "mymaster").unwrap();
        assert_eq!(
            e.to_string(),
            "primary 'mymaster' of sentinels redis://127.0.0.1:26379,redis://:***@h:26380"
        );
        assert!(Endpoint::sentinel("", "mymaster").is_err());
        assert!(Endpoint::sentinel("h:1", "my master").is_err());
        let err = Endpoint::cluster("127.0.0.1:7000,http://x:1", false).unwrap_err();
        assert!(err.contains("http://x:1"), "{err}");
    }
}
