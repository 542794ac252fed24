//! Where a reservation is made. The steps:
//!
//! 1. **Base**: the title's slug with the request's options, through the
//!    same pipeline as `POST /slug` ([`Slugger`]); it must fit
//!    [`MAX_SLUG_BYTES`].
//! 2. **Stems**: with `max_length` or `max_bytes`, the slug a suffix is
//!    appended to must leave room for the separator and the number: the
//!    stem for suffixes of `d` digits is the title slugged with the limits
//!    shortened by `separator + d` (ASCII, so as many characters as bytes
//!    of the URI form). They are made for 1 and 2 digits at first (usually
//!    the base itself, at no cost); the function asks for more when it gets
//!    there, and the reservation is asked again with them.
//! 3. **Reserved words**: which suffix numbers would give a reserved word.
//! 4. **Redis**: one atomic step ([`super::store`]) gives the owner's slug
//!    for this base if it has one, else the first free one of `base`,
//!    `base-2`, `base-3`...

use std::sync::Arc;

use super::error::ReserveError;
use super::names::{Owner, Scope};
use super::reserved::ReservedSlugs;
use super::settings::ReservationSettings;
use super::shape::{MAX_SLUG_BYTES, SLUG_PUNCTUATION, is_storable};
use super::store::{Ask, Claim, ClaimHold, Claimed, Entry, HoldEvent, RedisStore, Reply, Slug};
use crate::metrics::RedisCalls;
use crate::redis_conn::RedisConfig;
use crate::slugger::Slugger;
use slugd_engine::options::Options;

/// Suffixes have at most this many digits (up to 999,999,999).
const MAX_DIGITS: usize = 9;

/// Stems made before the function asks: for suffixes of 1 and 2 digits.
const FIRST_DIGITS: usize = 2;

/// The longest hold, in seconds: 365 days.
pub const MAX_HOLD_SECONDS: u32 = 365 * 24 * 3600;

/// Makes, looks up and releases reservations. Shared by every request.
pub struct Reservations {
    slugger: Slugger,
    store: RedisStore,
    reserved: Arc<ReservedSlugs>,
}

/// A slug reserved for an owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    /// The slug.
    pub slug: String,
    /// Whether it was reserved by this request (`false`: the owner held
    /// it already for this base slug, and nothing changed but that it is
    /// the owner's current slug again).
    pub new: bool,
    /// The rule version that made it (for a slug held already, the one
    /// that made it when it was reserved).
    pub rules: u64,
    /// When its hold lapses, in Unix milliseconds; `None`: confirmed, the
    /// owner's until released.
    pub held_until: Option<u64>,
    /// What this request did to a hold: made one, renewed or confirmed
    /// the owner's.
    pub hold: Option<HoldEvent>,
    /// How many lapsed holds this request freed (counted as they are
    /// found, not as they lapse).
    pub lapsed: u64,
}

impl Reservation {
    fn from(made: Slug, new: bool) -> Self {
        Reservation {
            slug: made.slug,
            new,
            rules: made.rules,
            held_until: made.held_until,
            hold: made.hold,
            lapsed: made.lapsed,
        }
    }
}

/// Who holds a slug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The owner.
    pub owner: String,
    /// The owner's newest slug (a site redirects old links to it).
    pub current: String,
    /// The rule version that made the slug looked up (1 for every slug
    /// reserved before rule versions existed).
    pub rules: u64,
    /// When the owner's hold of the slug lapses, in Unix milliseconds;
    /// `None`: confirmed.
    pub held_until: Option<u64>,
}

impl Reservations {
    /// Reservations on `config`'s Redis under `prefix`, slugging titles
    /// with `slugger`. Connects lazily: this never waits for Redis.
    pub fn new(
        slugger: Slugger,
        config: &RedisConfig,
        prefix: &str,
        settings: &ReservationSettings,
        calls: RedisCalls,
    ) -> Result<Self, ReserveError> {
        Ok(Reservations {
            slugger,
            store: RedisStore::new(config, prefix, settings.wait, calls)?,
            reserved: settings.reserved.clone(),
        })
    }

    /// With `--reservation-fsync`: refuses a Redis that cannot wait for
    /// its append-only file, saying why (asked once, at start).
    pub async fn check_fsync(&self) -> Result<(), ReserveError> {
        self.store.check_fsync().await
    }

    /// Reserves a slug of `title` for `owner` in `scope`: with
    /// `hold_seconds` (at most [`MAX_HOLD_SECONDS`]), a hold that lapses
    /// then unless asked again (renewed) or confirmed (asked again
    /// without `hold_seconds`).
    pub async fn reserve(
        &self,
        scope: &Scope,
        owner: &Owner,
        title: &str,
        options: &Options,
        hold_seconds: Option<u32>,
        dry: bool,
    ) -> Result<Reservation, ReserveError> {
        let base = self.slug(title, options).await?;
        if base.len() > MAX_SLUG_BYTES {
            return Err(ReserveError::TooLong(base.len()));
        }
        let separator = options.separator.as_str();
        // Without max_length or max_bytes every stem is the base itself.
        let limited = options.max_length.is_some() || options.max_bytes.is_some();
        let mut stems = limited.then(Vec::new);
        let mut digits = FIRST_DIGITS;
        loop {
            if let Some(stems) = &mut stems {
                self.extend_stems(stems, digits, &base, title, options)
                    .await?;
            }
            let skips = self.reserved.skips(&base, separator, |d| match &stems {
                None => Some(base.as_str()),
                Some(stems) => stems.get(d - 1).map(String::as_str),
            });
            let ask = Ask {
                base: &base,
                rules: options.rules.number(),
                separator,
                skips: &skips,
                hold_seconds: hold_seconds.unwrap_or(0).min(MAX_HOLD_SECONDS),
                stems: stems.as_deref(),
                dry,
            };
            let full = |tried: String| ReserveError::NoFreeSlug {
                base: base.clone(),
                max_length: options.max_length.map(|m| m.get()),
                tried,
            };
            match self.store.reserve(scope, owner, &ask).await? {
                Reply::Held(made) => return Ok(Reservation::from(made, false)),
                Reply::New(made) => return Ok(Reservation::from(made, true)),
                Reply::Need(d) if d > digits && d <= MAX_DIGITS => digits = d,
                Reply::Need(d) => return Err(full(format!("{d} digits"))),
                Reply::Full(n) => return Err(full(n)),
            }
        }
    }

    /// Reserves exactly `slug` for `owner` in `scope` (an editor's own):
    /// refused when it is not what the request's options make of it
    /// ([`ReserveError::NotASlug`]), and when another owner holds it or it
    /// is a reserved word ([`ReserveError::SlugTaken`], with the first
    /// free slug of its base as a suggestion). With `dry`, answers what it
    /// would do and writes nothing.
    pub async fn reserve_slug(
        &self,
        scope: &Scope,
        owner: &Owner,
        slug: &str,
        options: &Options,
        hold_seconds: Option<u32>,
        dry: bool,
    ) -> Result<Reservation, ReserveError> {
        match one(self.slugger.slugify(slug, options).await?) {
            Ok(made) if made == slug => {}
            Ok(made) => {
                return Err(ReserveError::NotASlug {
                    slug: slug.to_owned(),
                    would_be: Some(made),
                });
            }
            Err(_) => {
                return Err(ReserveError::NotASlug {
                    slug: slug.to_owned(),
                    would_be: None,
                });
            }
        }
        if slug.len() > MAX_SLUG_BYTES {
            return Err(ReserveError::TooLong(slug.len()));
        }
        let taken = |reserved: bool| async move {
            // The first free slug of its base, as a title that slugs to
            // it would get: a dry run, which writes nothing.
            let suggestion = self
                .reserve(scope, owner, slug, options, None, true)
                .await
                .ok()
                .map(|r| r.slug)
                .filter(|s| s != slug);
            ReserveError::SlugTaken {
                slug: slug.to_owned(),
                reserved,
                suggestion,
            }
        };
        let (base, number) = split_number(slug);
        // A reserved word is refused, unless it is the owner's already
        // (imported: the site had it), which the claim itself decides.
        let reserved = self.reserved.contains(slug);
        let claim = Claim {
            owner: owner.as_str().to_owned(),
            slug: slug.to_owned(),
            base: base.to_owned(),
            number,
            rules: options.rules.number(),
            hold: match hold_seconds {
                Some(s) => ClaimHold::For(s.min(MAX_HOLD_SECONDS)),
                None => ClaimHold::Confirmed,
            },
            only_owned: reserved,
        };
        let answer = self.store.claim(scope, &[claim], dry).await?;
        match answer.into_iter().next() {
            Some(Claimed::Mine { new, slug }) => Ok(Reservation::from(slug, new)),
            Some(Claimed::Taken { .. }) => Err(taken(reserved).await),
            None => Err(ReserveError::Damaged("no answer to a claim".into())),
        }
    }

    /// The slugs `owner` holds in `scope`, oldest first (the last
    /// confirmed one is the owner's current slug).
    pub async fn history(&self, scope: &Scope, owner: &Owner) -> Result<Vec<Entry>, ReserveError> {
        self.store.history(scope, owner).await
    }

    /// Makes `scope` compare slugs without regard to ASCII case, or with
    /// it: a setting made once, before the scope's first slug.
    pub async fn set_case_insensitive(
        &self,
        scope: &Scope,
        insensitive: bool,
    ) -> Result<bool, ReserveError> {
        self.store.set_case_insensitive(scope, insensitive).await
    }

    /// The store, for imports and exports.
    pub(crate) fn store(&self) -> &RedisStore {
        &self.store
    }

    /// The slug of `title`, or why there is none.
    async fn slug(&self, title: &str, options: &Options) -> Result<String, ReserveError> {
        Ok(one(self.slugger.slugify(title, options).await?)?)
    }

    /// Adds the stems for suffixes of up to `digits` digits.
    async fn extend_stems(
        &self,
        stems: &mut Vec<String>,
        digits: usize,
        base: &str,
        title: &str,
        options: &Options,
    ) -> Result<(), ReserveError> {
        use std::num::NonZeroUsize;
        // What a slug is measured in against each limit: characters, and
        // the bytes of its URI form (for an ASCII slug both are its bytes).
        let fits =
            |slug: &str, max_length: Option<NonZeroUsize>, max_bytes: Option<NonZeroUsize>| {
                max_length.is_none_or(|m| slug.chars().count() <= m.get())
                    && max_bytes.is_none_or(|m| slugd_engine::slug::uri(slug).len() <= m.get())
            };
        while stems.len() < digits {
            // The separator and the digits are ASCII: a byte and a
            // character each, in either measure.
            let room = options.separator.as_str().len() + stems.len() + 1;
            let shorter = |limit: Option<NonZeroUsize>| match limit {
                None => Some(None),
                Some(m) => m
                    .get()
                    .checked_sub(room)
                    .and_then(NonZeroUsize::new)
                    .map(Some),
            };
            let stem = match (shorter(options.max_length), shorter(options.max_bytes)) {
                (Some(max_length), Some(max_bytes)) if !options.ascii => {
                    // The slug with shorter limits is the base cut to them
                    // (`ascii: false` cuts the whole slug), and never the
                    // fallback's: an empty stem takes no suffix this wide.
                    let mut stem = base.to_owned();
                    slugd_engine::slug::cut_unicode(
                        &mut stem,
                        max_length.map(NonZeroUsize::get),
                        max_bytes.map(NonZeroUsize::get),
                        options.separator.as_str(),
                    );
                    stem
                }
                (Some(max_length), Some(max_bytes)) => {
                    if fits(base, max_length, max_bytes) {
                        // A base that fits is its own stem: cutting a slug
                        // that fits changes nothing.
                        base.to_owned()
                    } else {
                        let shorter = Options {
                            max_length,
                            max_bytes,
                            ..options.clone()
                        };
                        match self.slug(title, &shorter).await {
                            Ok(stem) => stem,
                            // A title with a slug may have none this short
                            // (a first cluster longer than the room): then
                            // no suffix of this width fits.
                            Err(ReserveError::EmptySlug(_)) => String::new(),
                            Err(e) => return Err(e),
                        }
                    }
                }
                // No room for a suffix this wide.
                _ => String::new(),
            };
            stems.push(stem);
        }
        Ok(())
    }

    /// Who holds `slug` in `scope`; `None` when nobody does (and at once,
    /// without asking Redis, for text no slug could be).
    pub async fn lookup(&self, scope: &Scope, slug: &str) -> Result<Option<Holder>, ReserveError> {
        if !is_storable(slug) {
            return Ok(None);
        }
        // Two slugs are the same when their NFC forms are: slugs are made
        // in NFC, so a decomposed `café` finds the composed one.
        let slug = icu::normalizer::ComposingNormalizer::new_nfc().normalize(slug);
        let found = self.store.lookup(scope, &slug).await?;
        Ok(found.map(|(owner, current, rules, held_until)| Holder {
            owner,
            current,
            rules,
            held_until,
        }))
    }

    /// Frees every slug of `owner` in `scope`; how many it held.
    pub async fn release(&self, scope: &Scope, owner: &Owner) -> Result<u64, ReserveError> {
        self.store.release(scope, owner).await
    }
}

/// A slug's base and number: `hello-world` and 7 for `hello-world-7` (a
/// number of 1 to 9 digits after one of `-_.~`), else the slug itself and
/// none. A title's reservation finds an owner's slug by its base, and the
/// base's next numbered slug goes on after the highest number.
pub(crate) fn split_number(slug: &str) -> (&str, Option<u64>) {
    let stem = slug.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = slug.len() - stem.len();
    match stem.char_indices().next_back() {
        Some((at, c))
            if (1..=MAX_DIGITS).contains(&digits) && at > 0 && SLUG_PUNCTUATION.contains(c) =>
        {
            (&stem[..at], slug[stem.len()..].parse().ok())
        }
        _ => (slug, None),
    }
}

/// The slug of a batch of one.
fn one(mut made: crate::slugger::Slugs) -> Result<String, slugd_engine::slug::EmptySlug> {
    made.slugs.pop().expect("one title in, one slug out")
}

#[cfg(test)]
mod tests {
    use super::split_number;

    #[test]
    fn a_slug_s_number_is_split_from_its_base() {
        assert_eq!(split_number("hello-world-7"), ("hello-world", Some(7)));
        assert_eq!(split_number("hello_world_12"), ("hello_world", Some(12)));
        assert_eq!(split_number("top-10"), ("top", Some(10)));
        for whole in [
            "hello-world",
            "2024",
            "-7",
            "abc7",
            "a-1234567890",
            "привет",
        ] {
            assert_eq!(split_number(whole), (whole, None), "{whole}");
        }
    }
}
