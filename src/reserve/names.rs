//! The two names a reservation is filed under: the scope (a namespace of
//! slugs, such as `posts`) and the owner (what holds a slug, such as a post
//! id). Each is checked once, at the edge, and carried as its own type.

/// The longest scope or owner, in bytes.
pub const MAX_NAME_BYTES: usize = 200;

/// A checked scope: 1 to [`MAX_NAME_BYTES`] bytes of any text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope(String);

/// A checked owner: 1 to [`MAX_NAME_BYTES`] bytes of any text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner(String);

/// A scope or owner that cannot be used; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Missing, empty or too long.
    #[error(
        "{field} must be a string of 1 to {MAX_NAME_BYTES} bytes; this one is {len} bytes long"
    )]
    Length {
        /// `scope` or `owner`.
        field: &'static str,
        /// Its length in bytes.
        len: usize,
    },
}

fn check(field: &'static str, value: String) -> Result<String, NameError> {
    match value.len() {
        1..=MAX_NAME_BYTES => Ok(value),
        len => Err(NameError::Length { field, len }),
    }
}

impl Scope {
    /// Checks a scope.
    pub fn new(value: String) -> Result<Self, NameError> {
        check("scope", value).map(Scope)
    }

    /// The scope's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Owner {
    /// Checks an owner.
    pub fn new(value: String) -> Result<Self, NameError> {
        check("owner", value).map(Owner)
    }

    /// The owner's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_1_to_200_bytes_are_taken_and_others_named_in_the_error() {
        assert!(Scope::new("posts".into()).is_ok());
        assert!(Owner::new("é".repeat(100)).is_ok());
        let e = Owner::new("x".repeat(201)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "owner must be a string of 1 to 200 bytes; this one is 201 bytes long"
        );
        assert!(
            Scope::new(String::new())
                .unwrap_err()
                .to_string()
                .starts_with("scope ")
        );
    }
}
