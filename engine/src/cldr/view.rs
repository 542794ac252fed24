//! One request's view of a table's names: what the engine asks
//! ([`SymbolNames`]) answered from UnicodeData's names and CLDR's, by the
//! request locale's fallback chain.
//!
//! - Without a locale a single character keeps its UnicodeData name, and an
//!   emoji sequence (two characters or more) gets its English CLDR name.
//! - With a locale, a table character takes the first CLDR name along the
//!   locale's chain (`de-CH`, `de`, `root`), else its UnicodeData name; a
//!   sequence takes the chain's name, else the English one. A character
//!   outside the table (punctuation CLDR also names, like `”`) is not
//!   named in any locale: the locale changes names, not which characters
//!   have one.
//!
//! With `ascii: false` (rules 4) each locale's names as written come
//! before its romanized ones: [`Chain::new`].
//!
//! Both backends are a [`NameSource`]: the in-process table answers from
//! memory, the Redis one from the names it fetched for the request.

use super::keys::KeySet;
use super::locales::Locales;
use crate::locale::SlugLocale;
use crate::readers::japanese::Reading;
use crate::readers::vowels::{Language, VowelModel};
use crate::slug::SymbolNames;

/// Where a view's names come from.
pub trait NameSource {
    /// UnicodeData's name of `c`, when `c` is in the table.
    fn char_name(&self, c: char) -> Option<&str>;
    /// CLDR's name of key `key` in the locale of slot `slot`, if it has one.
    fn cldr_name(&self, slot: u16, key: u32) -> Option<&str>;
    /// Whether it has Japanese readings ([`SymbolNames::has_readings`]).
    #[inline]
    fn has_readings(&self) -> bool {
        false
    }
    /// The reading of a Japanese written form ([`SymbolNames::reading`]).
    #[inline]
    fn reading(&self, form: &str) -> Option<Reading> {
        let _ = form;
        None
    }
    /// The model of a language's vowels ([`SymbolNames::vowels`]).
    #[inline]
    fn vowels(&self, language: Language) -> Option<&VowelModel> {
        let _ = language;
        None
    }
}

/// The slots a request reads CLDR names from, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chain {
    /// The locale's chain, loaded locales only.
    locale: Vec<u16>,
    /// English (written, then romanized), for sequences the chain does
    /// not name: the first `english_len` (none, one or both), held inline
    /// since every request has them.
    english: [u16; 2],
    english_len: u8,
}

impl Chain {
    /// The chain of `locale` among a table's `locales`. With `written`,
    /// the slot of a locale's written names ([`super::LocaleNames`]) is
    /// locale slot + `written`, and each locale's written names come
    /// before its romanized ones (`ascii: false`, rules 4: a name the same
    /// both ways is stored once, as romanized).
    pub fn new(locale: Option<&SlugLocale>, locales: &Locales, written: Option<u16>) -> Self {
        let both = |slot: u16| written.map(|w| slot + w).into_iter().chain([slot]);
        let (mut english, mut english_len) = ([0; 2], 0);
        for slot in locales.english().into_iter().flat_map(both) {
            english[usize::from(english_len)] = slot;
            english_len += 1;
        }
        Chain {
            locale: locale
                .map(|l| {
                    l.fallbacks()
                        .iter()
                        .filter_map(|tag| locales.slot(tag))
                        .flat_map(both)
                        .collect()
                })
                .unwrap_or_default(),
            english,
            english_len,
        }
    }

    /// The slots for a single character.
    pub fn for_single(&self) -> &[u16] {
        &self.locale
    }

    /// The slots for a sequence: the chain, then English.
    pub fn for_sequence(&self) -> impl Iterator<Item = u16> + '_ {
        let english = &self.english[..usize::from(self.english_len)];
        self.locale.iter().chain(english).copied()
    }
}

/// A request's names.
pub struct View<'a, S> {
    /// The table's names.
    pub source: &'a S,
    /// The table's CLDR keys.
    pub keys: &'a KeySet,
    /// The request's locales.
    pub chain: &'a Chain,
}

impl<S: NameSource> SymbolNames for View<'_, S> {
    #[inline]
    fn name(&self, c: char) -> Option<&str> {
        let unicode = self.source.char_name(c)?;
        if self.chain.for_single().is_empty() {
            return Some(unicode);
        }
        Some(self.localized(c).unwrap_or(unicode))
    }

    #[inline]
    fn sequence(&self, text: &str) -> Option<(usize, &str)> {
        let (key, len) = self.keys.longest(text)?;
        self.chain
            .for_sequence()
            .find_map(|slot| self.source.cldr_name(slot, key))
            .map(|name| (len, name))
    }

    #[inline]
    fn may_start_sequence(&self, c: char) -> bool {
        self.keys.may_start(c)
    }

    #[inline]
    fn sequence_floor(&self) -> u32 {
        self.keys.floor()
    }

    #[inline]
    fn has_readings(&self) -> bool {
        self.source.has_readings()
    }

    #[inline]
    fn reading(&self, form: &str) -> Option<Reading> {
        self.source.reading(form)
    }

    #[inline]
    fn vowels(&self, language: Language) -> Option<&VowelModel> {
        self.source.vowels(language)
    }
}

impl<S: NameSource> View<'_, S> {
    #[cold]
    fn localized(&self, c: char) -> Option<&str> {
        let key = self.keys.single(c)?;
        self.chain
            .for_single()
            .iter()
            .find_map(|&slot| self.source.cldr_name(slot, key))
    }
}
