//! Bearer tokens for the reservation endpoints (`--auth-tokens FILE`): the
//! file's format, and who may do what. HTTP-free: `crate::http` takes the
//! token from the `Authorization` header and turns [`Denied`] into 401 or
//! 403.
//!
//! # The file
//!
//! One token a line: the token, what it may do, and optionally the scopes
//! it may do it in, separated by white space. Blank lines and lines
//! starting with `#` are skipped.
//!
//! ```text
//! # token                            may do                scopes (default: every scope)
//! 3f9a0c5e7b1d4e6f8a2c9b0d1e3f5a7c   read,reserve,release  posts,pages
//! 8c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a   read
//! ```
//!
//! - `read`: `GET /reservations/{scope}/{slug}`;
//! - `reserve`: `POST /reservations`;
//! - `release`: `DELETE /reservations/{scope}/{owner}`.
//!
//! A token is 16 to 256 printable ASCII characters, not starting with `#`
//! (that line is a comment). Tokens are compared
//! with every token of the file in constant time (`subtle`), so the time
//! an answer takes says nothing of how much of a token was right (only,
//! as for any such comparison, of its length); no token is ever logged or
//! written in an error.
//!
//! Without the file nothing is asked: every client may reserve and
//! release, as before tokens existed.

use std::collections::HashSet;
use std::path::Path;

use subtle::{Choice, ConstantTimeEq};

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Permission {
    /// Look up who holds a slug.
    Read,
    /// Reserve slugs.
    Reserve,
    /// Release an owner's slugs.
    Release,
}

impl Permission {
    /// As the file and errors write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Read => "read",
            Permission::Reserve => "reserve",
            Permission::Release => "release",
        }
    }

    fn parse(word: &str) -> Option<Self> {
        [Permission::Read, Permission::Reserve, Permission::Release]
            .into_iter()
            .find(|p| p.as_str() == word)
    }
}

/// Shortest token accepted, in bytes: a guessable token is no credential.
pub const MIN_TOKEN_BYTES: usize = 16;

/// Longest token accepted, in bytes.
pub const MAX_TOKEN_BYTES: usize = 256;

/// One line of the file.
#[derive(Clone)]
struct Grant {
    token: Box<[u8]>,
    may: HashSet<Permission>,
    /// `None`: every scope.
    scopes: Option<HashSet<String>>,
}

/// The tokens of `--auth-tokens`; none (the default) asks for nothing.
#[derive(Clone, Default)]
pub struct Tokens {
    grants: Vec<Grant>,
}

impl std::fmt::Debug for Tokens {
    /// Says how many, never which.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tokens({} tokens)", self.grants.len())
    }
}

/// Why a request may not go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    /// No token, or one the file does not have (401).
    #[error(
        "this endpoint needs a token: send the header Authorization: Bearer TOKEN with a token of the service's --auth-tokens file"
    )]
    NoToken,
    /// The token does not have the permission (403).
    #[error("this token may not {}: its line in --auth-tokens lacks `{}`", .0.as_str(), .0.as_str())]
    NotPermitted(Permission),
    /// The token may not act in the scope (403).
    #[error("this token may not {what} in scope {scope:?}: its line in --auth-tokens names other scopes", what = .0.as_str(), scope = .1)]
    OtherScope(Permission, String),
}

/// A line of the file that cannot be used; the token itself is never in
/// the message.
#[derive(Debug, thiserror::Error)]
pub enum TokensError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line that is not `TOKEN PERMISSIONS [SCOPES]`.
    #[error("{path} line {line}: {why}")]
    Line {
        /// The file.
        path: String,
        /// 1-based.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A file with no token: it would lock every client out.
    #[error(
        "{0} has no token: give one a line (TOKEN PERMISSIONS [SCOPES]), or leave out --auth-tokens"
    )]
    Empty(String),
}

impl Tokens {
    /// Reads the file.
    pub fn read(path: &Path) -> Result<Self, TokensError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| TokensError::Read {
            path: shown.clone(),
            source,
        })?;
        Self::parse(&text, &shown)
    }

    /// Parses the file's text; `shown` names it in errors.
    pub fn parse(text: &str, shown: &str) -> Result<Self, TokensError> {
        let mut grants: Vec<Grant> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let bad = |why: String| TokensError::Line {
                path: shown.to_owned(),
                line: i + 1,
                why,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split_whitespace();
            let token = fields.next().unwrap_or_default();
            if !(MIN_TOKEN_BYTES..=MAX_TOKEN_BYTES).contains(&token.len())
                || !token.bytes().all(|b| b.is_ascii_graphic())
            {
                return Err(bad(format!(
                    "a token is {MIN_TOKEN_BYTES} to {MAX_TOKEN_BYTES} printable ASCII characters; this one is {} bytes",
                    token.len()
                )));
            }
            let Some(may) = fields.next() else {
                return Err(bad(
                    "no permissions: give read, reserve or release after the token, separated by commas".to_owned(),
                ));
            };
            let may = may
                .split(',')
                .map(|p| {
                    // Not quoted: a token written in the wrong column
                    // would be.
                    Permission::parse(p).ok_or_else(|| {
                        bad("the second field is not a list of read, reserve and release, separated by commas".to_owned())
                    })
                })
                .collect::<Result<HashSet<_>, _>>()?;
            let scopes = fields.next().map(|s| {
                s.split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            });
            if fields.next().is_some() {
                return Err(bad(
                    "too many fields: TOKEN PERMISSIONS [SCOPES], scopes separated by commas"
                        .to_owned(),
                ));
            }
            if grants.iter().any(|g| *g.token == *token.as_bytes()) {
                return Err(bad("the same token as an earlier line".to_owned()));
            }
            grants.push(Grant {
                token: token.as_bytes().into(),
                may,
                scopes,
            });
        }
        if grants.is_empty() {
            return Err(TokensError::Empty(shown.to_owned()));
        }
        Ok(Tokens { grants })
    }

    /// Whether tokens are asked for at all.
    pub fn enabled(&self) -> bool {
        !self.grants.is_empty()
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.grants.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.grants.is_empty()
    }

    /// Whether `token` (the bearer token sent, if any) may do `what`; with
    /// `scope`, in that scope too (a request whose scope is known only
    /// once its body is read asks twice: first without, then with it).
    pub fn check(
        &self,
        token: Option<&[u8]>,
        what: Permission,
        scope: Option<&str>,
    ) -> Result<(), Denied> {
        if !self.enabled() {
            return Ok(());
        }
        let grant = token.and_then(|t| self.find(t)).ok_or(Denied::NoToken)?;
        if !grant.may.contains(&what) {
            return Err(Denied::NotPermitted(what));
        }
        match (&grant.scopes, scope) {
            (Some(scopes), Some(scope)) if !scopes.contains(scope) => {
                Err(Denied::OtherScope(what, scope.to_owned()))
            }
            _ => Ok(()),
        }
    }

    /// The grant of `token`, compared with every token in constant time:
    /// no early exit, whichever token matches.
    fn find(&self, token: &[u8]) -> Option<&Grant> {
        let mut found = None;
        for grant in &self.grants {
            let equal: Choice = grant.token.ct_eq(token);
            if bool::from(equal) {
                found = Some(grant);
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# token may scopes\n\
        aaaaaaaaaaaaaaaa-all   read,reserve,release\n\
        \n\
        bbbbbbbbbbbbbbbb-posts reserve,read posts,pages\n\
        cccccccccccccccc-read  read\n";

    #[test]
    fn each_permission_and_scope_is_checked() {
        let tokens = Tokens::parse(FILE, "tokens").unwrap();
        let all = Some(&b"aaaaaaaaaaaaaaaa-all"[..]);
        let posts = Some(&b"bbbbbbbbbbbbbbbb-posts"[..]);
        let read = Some(&b"cccccccccccccccc-read"[..]);
        for what in [Permission::Read, Permission::Reserve, Permission::Release] {
            assert_eq!(tokens.check(all, what, Some("any")), Ok(()));
            assert_eq!(tokens.check(None, what, None), Err(Denied::NoToken));
        }
        assert_eq!(tokens.check(read, Permission::Read, Some("posts")), Ok(()));
        assert_eq!(
            tokens.check(read, Permission::Reserve, None),
            Err(Denied::NotPermitted(Permission::Reserve))
        );
        assert_eq!(
            tokens.check(posts, Permission::Reserve, Some("pages")),
            Ok(())
        );
        assert_eq!(tokens.check(posts, Permission::Reserve, None), Ok(()));
        assert_eq!(
            tokens.check(posts, Permission::Reserve, Some("users")),
            Err(Denied::OtherScope(Permission::Reserve, "users".into()))
        );
        assert_eq!(
            tokens.check(posts, Permission::Release, Some("posts")),
            Err(Denied::NotPermitted(Permission::Release))
        );
        // Wrong tokens: one byte off, a prefix, longer.
        for wrong in [
            &b"aaaaaaaaaaaaaaaa-alm"[..],
            b"aaaaaaaaaaaaaaaa-al",
            b"aaaaaaaaaaaaaaaa-all-",
        ] {
            assert_eq!(
                tokens.check(Some(wrong), Permission::Read, None),
                Err(Denied::NoToken)
            );
        }
        assert_eq!(
            Tokens::default().check(None, Permission::Release, Some("x")),
            Ok(())
        );
    }

    #[test]
    fn bad_lines_are_refused_without_showing_the_token() {
        for (text, says) in [
            ("short read\n", "line 1: a token is 16 to 256"),
            ("dddddddddddddddd\n", "line 1: no permissions"),
            (
                "dddddddddddddddd write\n",
                "line 1: the second field is not a list of read",
            ),
            (
                "label-of-the-cms eeeeeeeeeeeeeeee read\n",
                "the second field is not",
            ),
            ("dddddddddddddddd read a b\n", "too many fields"),
            (
                "dddddddddddddddd read\n# x\ndddddddddddddddd reserve\n",
                "line 3: the same token",
            ),
            ("# only comments\n", "has no token"),
        ] {
            let err = Tokens::parse(text, "tokens.txt").unwrap_err().to_string();
            assert!(err.contains(says), "{err}");
            assert!(!err.contains("dddd") && !err.contains("eeee"), "{err}");
        }
        let tokens = Tokens::parse(FILE, "tokens").unwrap();
        assert_eq!(format!("{tokens:?}"), "Tokens(3 tokens)");
    }
}
