//! The names already fetched from Redis ([`NameCache`]), by version and
//! [`NameKey`], what a name is of packed in a number; [`Names`], the names
//! of one request by key.

use std::collections::HashMap;
use std::sync::Arc;

use crate::table::layout::Version;

/// Names of table characters and CLDR keys by [`NameKey`], shared with the
/// cache without copying.
pub type Names = HashMap<NameKey, Arc<str>>;

/// What a name is of, packed in a number for the maps: a code point
/// (UnicodeData's name), or a CLDR key's number in a locale's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameKey(u64);

impl NameKey {
    pub(super) fn char(c: char) -> Self {
        NameKey(c as u64)
    }

    pub(super) fn cldr(slot: u16, key: u32) -> Self {
        NameKey(((slot as u64 + 1) << 32) | key as u64)
    }

    /// The code point, or the slot and key number.
    pub(super) fn unpack(self) -> Result<char, (u16, u32)> {
        match self.0 >> 32 {
            0 => Ok(char::from_u32(self.0 as u32).expect("packed from a char")),
            slot => Err(((slot - 1) as u16, self.0 as u32)),
        }
    }
}

/// Names already fetched, keyed by version and [`NameKey`]: a version
/// never changes once written, so an entry is right for as long as it is
/// kept, and a lookup for one version never finds another's. It empties
/// when the live version changes (the old names would only take room).
///
/// Bounded to `--name-cache` names and concurrent: quick_cache's shards
/// take a read lock for a lookup, and when full it evicts the names used
/// least (CLOCK-Pro) rather than starting over. `None` when the capacity is
/// 0: no cache.
pub(super) struct NameCache(Option<quick_cache::sync::Cache<(Version, NameKey), Arc<str>>>);

impl NameCache {
    pub(super) fn new(capacity: usize) -> Self {
        NameCache((capacity > 0).then(|| quick_cache::sync::Cache::new(capacity)))
    }

    /// Looks up `wanted` for `version`: the hits go into `names`, the misses
    /// are returned.
    pub(super) fn lookup(
        &self,
        version: Version,
        wanted: Vec<NameKey>,
        names: &mut Names,
    ) -> Vec<NameKey> {
        let Some(cache) = &self.0 else {
            return wanted;
        };
        wanted
            .into_iter()
            .filter(|&key| match cache.get(&(version, key)) {
                Some(name) => {
                    names.insert(key, name);
                    false
                }
                None => true,
            })
            .collect()
    }

    pub(super) fn insert(&self, version: Version, fetched: &Names) {
        if let Some(cache) = &self.0 {
            for (&key, name) in fetched {
                cache.insert((version, key), name.clone());
            }
        }
    }

    /// Forgets every name: the live version has changed.
    pub(super) fn clear(&self) {
        if let Some(cache) = &self.0 {
            cache.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(n: u32) -> (NameKey, Arc<str>) {
        (NameKey::cldr(0, n), Arc::from(format!("name {n}")))
    }

    #[test]
    fn the_cache_answers_only_for_the_version_a_name_came_from() {
        let cache = NameCache::new(64);
        cache.insert(1, &Names::from([name(7)]));
        let mut names = Names::new();
        let missing = cache.lookup(1, vec![name(7).0, name(8).0], &mut names);
        assert_eq!(missing, [name(8).0]);
        assert_eq!(names, Names::from([name(7)]));
        let mut names = Names::new();
        assert_eq!(cache.lookup(2, vec![name(7).0], &mut names), [name(7).0]);
        assert!(names.is_empty());
    }

    #[test]
    fn a_full_cache_keeps_the_names_in_use_and_stays_bounded() {
        let cache = NameCache::new(64);
        let hot = name(0);
        cache.insert(1, &Names::from([hot.clone()]));
        for n in 1..2_000 {
            cache.insert(1, &Names::from([name(n)]));
            let mut names = Names::new();
            assert!(cache.lookup(1, vec![hot.0], &mut names).is_empty(), "{n}");
        }
        let held = cache.0.as_ref().unwrap().len();
        assert!((32..=64).contains(&held), "{held}");
    }

    #[test]
    fn a_capacity_of_0_caches_nothing() {
        let cache = NameCache::new(0);
        cache.insert(1, &Names::from([name(7)]));
        let mut names = Names::new();
        assert_eq!(cache.lookup(1, vec![name(7).0], &mut names), [name(7).0]);
    }
}
