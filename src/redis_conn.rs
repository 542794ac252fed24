//! How slugd reaches Redis: the URL (whose password never reaches a log or
//! an error), TLS for `rediss://` URLs (rustls, with the system's roots or
//! a given CA), the connect and response timeouts, and the two kinds of
//! connection it opens: a self-healing multiplexed one for the service and a
//! plain multiplexed one for the loader.

use std::fmt;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig, MultiplexedConnection};
use redis::{AsyncConnectionConfig, Client};

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

/// Where Redis is and how long to wait for it.
#[derive(Debug, Clone)]
pub struct RedisConfig {
    /// The server.
    pub url: RedisUrl,
    /// How long one connection attempt may take.
    pub connect_timeout: Duration,
    /// How long one command or pipeline may wait for its answer.
    pub response_timeout: Duration,
    /// For `rediss://` URLs: the PEM certificate(s) of the CA that signed
    /// the server's certificate. Without it, the system's roots are used.
    pub ca_cert: Option<Vec<u8>>,
}

impl RedisConfig {
    fn client(&self) -> redis::RedisResult<Client> {
        match &self.ca_cert {
            Some(pem) => Client::build_with_tls(
                self.url.expose(),
                redis::TlsCertificates {
                    client_tls: None,
                    root_cert: Some(pem.clone()),
                },
            ),
            None => Client::open(self.url.expose()),
        }
    }

    /// A multiplexed connection that reconnects by itself after a failure,
    /// for the service. It connects lazily, so the service starts whether or
    /// not Redis is up.
    pub fn manager(&self) -> redis::RedisResult<ConnectionManager> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.connect_timeout))
            .set_response_timeout(Some(self.response_timeout))
            // Few, quick retries: a request waits at most one response
            // timeout anyway (see `table::redis`), and the next request
            // starts a fresh attempt.
            .set_number_of_retries(1)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(500));
        ConnectionManager::new_lazy_with_config(self.client()?, config)
    }

    /// A publish/subscribe connection, for notices of new table versions.
    pub async fn pubsub(&self) -> redis::RedisResult<redis::aio::PubSub> {
        let client = self.client()?;
        match tokio::time::timeout(self.connect_timeout, client.get_async_pubsub()).await {
            Ok(result) => result,
            Err(_) => Err(std::io::Error::from(std::io::ErrorKind::TimedOut).into()),
        }
    }

    /// One multiplexed connection, for the loader.
    pub async fn connect(&self) -> redis::RedisResult<MultiplexedConnection> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(self.connect_timeout))
            .set_response_timeout(Some(self.response_timeout));
        self.client()?
            .get_multiplexed_async_connection_with_config(&config)
            .await
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
}
