//! Where Redis is and how to reach it: one server by URL or a Redis Cluster
//! by seed nodes (whose passwords never reach a log or an error), TLS for
//! `rediss://` URLs (rustls, with the system's roots or a given CA), the
//! connect and response timeouts, and the publish/subscribe connection for
//! switch notices. The connections the service and the loader talk through
//! are opened in [`super::conn`].

use std::fmt;
use std::time::Duration;

use redis::Client;

/// A Redis URL. Its `Display` and `Debug` hide any password.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl(String);

impl RedisUrl {
    /// Checks that `url` is a Redis URL redis-rs accepts.
    pub fn parse(url: &str) -> Result<Self, String> {
        let url = RedisUrl(url.trim().to_owned());
        match Client::open(url.0.as_str()) {
            Ok(_) => Ok(url),
            // redis-rs errors may quote the URL: describe it ourselves.
            Err(_) => Err(format!(
                "'{url}' is not a Redis URL; expected redis://[user:password@]host:port[/db]"
            )),
        }
    }

    /// The URL as given, password included: only for opening connections.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The URL with its password replaced by `***`.
    pub fn redacted(&self) -> String {
        let url = &self.0;
        let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
            return url.clone();
        };
        let rest = &url[scheme_end..];
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let Some(at) = rest[..authority_end].rfind('@') else {
            return url.clone();
        };
        let userinfo = &rest[..at];
        let user = match userinfo.split_once(':') {
            Some((user, _)) => format!("{user}:***"),
            None if userinfo.is_empty() => String::new(),
            // `redis://secret@host` puts the password in the user slot.
            None => "***".to_owned(),
        };
        format!("{}{}{}", &url[..scheme_end], user, &rest[at..])
    }
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

/// Where Redis is: one server, or a cluster.
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
}

impl Endpoint {
    /// Parses a comma-separated list of seed nodes, each `host:port` or a
    /// `redis://[user:password@]host:port` or `rediss://...` URL.
    pub fn cluster(list: &str, read_from_replicas: bool) -> Result<Self, String> {
        let nodes = list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|node| match node.contains("://") {
                true => RedisUrl::parse(node),
                false => RedisUrl::parse(&format!("redis://{node}")).map_err(|_| {
                    format!("cluster node '{node}' is not host:port or a redis:// URL")
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
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

    /// A publish/subscribe connection, for notices of new table versions.
    /// On a cluster any node will do (a notice published on one reaches
    /// all), so the seed nodes are tried in turn.
    pub async fn pubsub(&self) -> redis::RedisResult<redis::aio::PubSub> {
        let urls = match &self.endpoint {
            Endpoint::Single(url) => std::slice::from_ref(url),
            Endpoint::Cluster { nodes, .. } => nodes.as_slice(),
        };
        let mut last = None;
        for url in urls {
            let client = self.client(url)?;
            match tokio::time::timeout(self.connect_timeout, client.get_async_pubsub()).await {
                Ok(Ok(pubsub)) => return Ok(pubsub),
                Ok(Err(e)) => last = Some(e),
                Err(_) => last = Some(std::io::Error::from(std::io::ErrorKind::TimedOut).into()),
            }
        }
        Err(last.expect("an endpoint has at least one node"))
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
        let err = Endpoint::cluster("127.0.0.1:7000,http://x:1", false).unwrap_err();
        assert!(err.contains("http://x:1"), "{err}");
    }
}
