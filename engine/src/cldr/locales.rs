//! The locales of a table and their slots: a slot is a locale's number in
//! the table's Redis keys, meta and caches.

use std::collections::HashMap;

/// The locale every table holds: the names of the default output.
pub const ENGLISH: &str = "en";

/// The locales of a table, in slot order: a slot is a locale's number in
/// the table's keys and caches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locales {
    tags: Vec<String>,
    /// Each tag's slot, and the form ICU4X's fallback chains write a tag
    /// in when that differs and is not loaded itself: ICU4X leaves out a
    /// default script (`sr-Cyrl-BA` is `sr-BA`, `zh-Hant-HK` is `zh-HK`).
    slots: HashMap<String, u16>,
    /// English's slot: every request's chain asks for it.
    english: Option<u16>,
}

impl Locales {
    /// Locales in slot order.
    pub fn new(tags: Vec<String>) -> Self {
        let mut slots: HashMap<String, u16> = tags
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u16))
            .collect();
        for (i, tag) in tags.iter().enumerate() {
            let icu_form = crate::locale::fallback_chain(tag).and_then(|c| c.into_iter().next());
            if let Some(form) = icu_form.filter(|f| f != tag && f != "root") {
                slots.entry(form).or_insert(i as u16);
            }
        }
        let english = slots.get(ENGLISH).copied();
        Locales {
            tags,
            slots,
            english,
        }
    }

    /// The slot of English ([`ENGLISH`]), without hashing its tag.
    #[inline]
    pub fn english(&self) -> Option<u16> {
        self.english
    }

    /// The slot of `tag`, as CLDR's files or ICU4X's chains write it.
    pub fn slot(&self, tag: &str) -> Option<u16> {
        self.slots.get(tag).copied()
    }

    /// The tags, in slot order.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.tags.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}
