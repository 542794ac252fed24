//! How the symbol table is laid out: the Redis key names, the buckets and
//! chunks the names are stored in, and the membership index that tells which
//! characters are in the table. The loader writes this layout and the Redis
//! backend reads it; both take every name and number from here.
//!
//! # Redis keys (prefix `slugd:` by default)
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}current` | string | the live version id; switching it is the atomic switch |
//! | `{p}seq` | string | counter the loader takes version ids from |
//! | `{p}versions` | set | every version a loader has started, so leftovers can be found |
//! | `{p}lock` | string | held by the one loader running, with an expiry |
//! | `{p}meta:{v}` | hash | version `v`: see [`Meta`] |
//! | `{p}t:{v}:{b}` | hash | bucket `b` (hex) of version `v`: field = code point offset, value = name |
//! | `{p}t:{v}:L{l}:{b}` | hash | CLDR names of locale slot `l` (hex), bucket `b` of key numbers: field = offset, value = name; slot `l` + the number of locales holds the locale's names that read otherwise as written (rules 4's `ascii: false`) |
//! | `{p}t:{v}:J{b}` | hash | Japanese readings, bucket `b` (hex) of written forms: field = written form, value = reading (see [`Readings`]); field `""` marks the bucket; a form after U+0001 is its reading as a counter, after U+0002 as a suffix |
//!
//! On a Redis Cluster, the `{ctl}` hash tag puts the four control keys in
//! one slot, so the loader's switch script may touch both the lock and
//! `current`; every other key hashes on its whole name, so the buckets of a
//! version spread over all the slots and nodes. (This is why a prefix may
//! not contain braces.)
//!
//! After a switch the loader publishes the new version on channel
//! `{p}switched`, so services move to it at once rather than at their next
//! periodic check.
//!
//! # Why buckets and chunks
//!
//! One plain hash of 6,634 names takes about 500 kB: its hashtable encoding
//! spends a dict entry and two allocations per field. A hash stays a compact
//! listpack while it has at most 128 fields (`hash-max-listpack-entries`) of
//! at most 64 bytes each (`hash-max-listpack-value`), the stock settings.
//! So the code points are split into buckets of 64 (`cp >> 6`), the field is
//! the offset inside the bucket (`cp & 63`, which a listpack stores as a
//! one-byte integer), and a name longer than 64 bytes (44 of them) is split
//! into 64-byte chunks under fields `offset + 64 * k`. A bucket thus never
//! has more than 128 fields and every bucket stays a listpack.
//!
//! The membership index (one bit per code point, sent once per version in
//! `meta`) lets a reader know which characters of a title need a look-up
//! without asking Redis, and which names have more than one chunk.
//!
//! IPADIC's Japanese readings are keyed by written form, not by
//! number: a form goes to bucket [`reading_bucket_of`] of [`Readings`]'
//! count, chosen so that a bucket holds [`FORMS_PER_BUCKET`] forms on
//! average, and never more than 128 in practice; forms and values are at
//! most 64 bytes (`slugd_engine::readers::japanese::ipadic::MAX_TABLE_BYTES`), so every
//! bucket stays a listpack. Each bucket also has the field `""`, so a
//! reader tells a form the dictionary lacks (nil) from a bucket that is
//! gone (the version was removed: its marker is nil too).

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use slugd_engine::cldr::{KeySet, Locales};
pub use slugd_engine::membership::Membership;
use slugd_engine::readers::vowels::names::Names;
use slugd_engine::readers::vowels::{Language, VowelModel, VowelModels};
use slugd_engine::unicode_data::Categories;

/// Code points per bucket, as a shift.
pub const BUCKET_BITS: u32 = 6;

/// Code points per bucket.
pub const BUCKET_SIZE: u32 = 1 << BUCKET_BITS;

pub use slugd_engine::stored::{CHUNK_BYTES, MAX_CHUNKS, chunks, stored};

/// The version of this layout, stored in `meta` so a reader can refuse a
/// table written by a loader it does not understand.
pub const FORMAT: u32 = 1;

/// The hash tag (and separator) of the control keys: one cluster slot.
pub const CONTROL_TAG: &str = "{ctl}:";

/// A table version id, taken from `{p}seq`.
pub type Version = u64;

/// The bucket a code point belongs to.
#[inline]
pub fn bucket_of(c: char) -> u32 {
    c as u32 >> BUCKET_BITS
}

/// The hash field of chunk `k` of the name of `c`.
#[inline]
pub fn field_of(c: char, k: usize) -> u32 {
    (c as u32 & (BUCKET_SIZE - 1)) + BUCKET_SIZE * k as u32
}

/// The Redis key names of one deployment, all under one prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    prefix: String,
}

impl Keys {
    /// Keys under `prefix` (for example `slugd:`).
    pub fn new(prefix: &str) -> Self {
        Keys {
            prefix: prefix.to_owned(),
        }
    }

    /// The prefix itself.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The live version pointer.
    pub fn current(&self) -> String {
        format!("{}{CONTROL_TAG}current", self.prefix)
    }

    /// The version counter.
    pub fn seq(&self) -> String {
        format!("{}{CONTROL_TAG}seq", self.prefix)
    }

    /// The set of versions ever started and not yet removed.
    pub fn versions(&self) -> String {
        format!("{}{CONTROL_TAG}versions", self.prefix)
    }

    /// The channel the loader announces a switch on (payload: the version).
    pub fn switched(&self) -> String {
        format!("{}switched", self.prefix)
    }

    /// The loader lock.
    pub fn lock(&self) -> String {
        format!("{}{CONTROL_TAG}lock", self.prefix)
    }

    /// The metadata hash of version `v`.
    pub fn meta(&self, v: Version) -> String {
        format!("{}meta:{v}", self.prefix)
    }

    /// The hash of bucket `b` of version `v`.
    pub fn bucket(&self, v: Version, b: u32) -> String {
        format!("{}t:{v}:{b:x}", self.prefix)
    }

    /// The hash of bucket `b` of the Japanese readings of version `v`. It
    /// matches [`Keys::bucket_pattern`] too.
    pub fn reading_bucket(&self, v: Version, b: u32) -> String {
        format!("{}t:{v}:J{b:x}", self.prefix)
    }

    /// The hash of bucket `b` of the CLDR names of locale slot `slot` in
    /// version `v`. It matches [`Keys::bucket_pattern`], so removing a
    /// version removes these too.
    pub fn cldr_bucket(&self, v: Version, slot: u16, b: u32) -> String {
        format!("{}t:{v}:L{slot:x}:{b:x}", self.prefix)
    }

    /// A SCAN pattern matching every bucket of version `v`, with the glob
    /// characters of the prefix escaped.
    pub fn bucket_pattern(&self, v: Version) -> String {
        let mut pattern = String::with_capacity(self.prefix.len() + 16);
        for c in self.prefix.chars() {
            if matches!(c, '*' | '?' | '[' | ']' | '\\') {
                pattern.push('\\');
            }
            pattern.push(c);
        }
        let _ = write!(pattern, "t:{v}:*");
        pattern
    }
}

/// Written forms per bucket of Japanese readings, on average: with
/// 325,683 forms in 5,089 buckets, the fullest holds 94 (measured by
/// `cargo xtask bench japanese`), under the listpack's 128.
pub const FORMS_PER_BUCKET: usize = 64;

/// The field every bucket of Japanese readings has, whose value is
/// [`READING_MARK_VALUE`].
pub const READING_MARK: &str = "";

/// The value of [`READING_MARK`].
pub const READING_MARK_VALUE: &str = "1";

/// What a version holds of Japanese readings, in the meta fields `ja_*`.
/// Optional, like [`CldrMeta`]: a version without them has none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Readings {
    /// Buckets (`ja_buckets`); 0 for none.
    pub buckets: u32,
    /// Written forms (`ja_forms`).
    pub forms: u64,
}

impl Readings {
    /// The buckets `forms` written forms take (none for none).
    pub fn for_forms(forms: u64) -> Self {
        Readings {
            buckets: forms.div_ceil(FORMS_PER_BUCKET as u64) as u32,
            forms,
        }
    }

    /// Whether the version has readings.
    pub fn any(&self) -> bool {
        self.buckets > 0
    }
}

/// The bucket of written form `form` among `buckets` (at least 1): FNV-1a
/// of its bytes, which every slugd computes alike.
pub fn reading_bucket_of(form: &str, buckets: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &byte in form.as_bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    hash % buckets.max(1)
}

/// The number field of chunk `k` of the name of number `i` in its bucket
/// (CLDR key numbers are bucketed like code points).
#[inline]
pub fn field_of_index(i: u32, k: usize) -> u32 {
    (i & (BUCKET_SIZE - 1)) + BUCKET_SIZE * k as u32
}

/// Names stored in more than one chunk: code point -> number of chunks.
/// Stored in `meta` field `long` as `cp:chunks` pairs in hex.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LongNames(pub HashMap<char, u8>);

impl LongNames {
    /// How many chunks the name of `c` takes (1 for most).
    #[inline]
    pub fn chunks_of(&self, c: char) -> usize {
        self.0.get(&c).map_or(1, |&n| n as usize)
    }

    /// The text form stored in `meta`.
    pub fn encode(&self) -> String {
        let mut pairs: Vec<_> = self.0.iter().collect();
        pairs.sort();
        let mut out = String::new();
        for (c, n) in pairs {
            if !out.is_empty() {
                out.push(',');
            }
            let _ = write!(out, "{:x}:{n}", *c as u32);
        }
        out
    }

    /// Parses [`LongNames::encode`]'s form.
    pub fn decode(text: &str) -> Result<Self, String> {
        let mut map = HashMap::new();
        for pair in text.split(',').filter(|p| !p.is_empty()) {
            let parsed = pair.split_once(':').and_then(|(c, n)| {
                let c = char::from_u32(u32::from_str_radix(c, 16).ok()?)?;
                let n: u8 = n.parse().ok()?;
                (2..=MAX_CHUNKS as u8).contains(&n).then_some((c, n))
            });
            let Some((c, n)) = parsed else {
                return Err(format!("bad long-name entry '{pair}'"));
            };
            map.insert(c, n);
        }
        Ok(LongNames(map))
    }
}

/// A version's `meta` hash: written by the loader once the version's
/// buckets are in, read by every service before it uses the version. Both
/// sides go through this type, so each field name is written here only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// Characters in the table.
    pub entries: u64,
    /// The general categories it was built from.
    pub categories: Categories,
    /// Which characters are in it (field `index`).
    pub members: Membership,
    /// Which names take more than one chunk.
    pub long: LongNames,
    /// The data file it was loaded from, for people reading Redis.
    pub source: String,
    /// When the load finished, in seconds since the Unix epoch.
    pub loaded_at: u64,
    /// Redis memory of the version's keys (MEMORY USAGE), measured after
    /// the rest is written and stored last under [`field::BYTES`].
    pub bytes: u64,
    /// CLDR's names; empty for a table loaded by a slugd before them.
    pub cldr: CldrMeta,
    /// Japanese readings; none for a table loaded without them.
    pub readings: Readings,
    /// The models of Persian's, Urdu's and Arabic's vowels (fields
    /// `fa_vowels`, `ur_vowels` and `ar_vowels`, their text forms); none
    /// for a table loaded without them. Read once with the meta, and held by the service while the
    /// version is live.
    pub vowels: VowelModels,
}

/// What a version holds of CLDR's names, in the meta fields `cldr_*`.
/// Optional: a reader takes a version without them as one with no CLDR
/// names, and older readers ignore them, so the layout stays format 1.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CldrMeta {
    /// The locales, in slot order (`cldr_locales`, comma-separated).
    pub locales: Locales,
    /// The keys, numbered (`cldr_keys`, one per line).
    pub keys: KeySet,
    /// Per slot, which keys the locale names (`cldr_named`, each
    /// membership encoded as for `index`, separated by `;`).
    pub named: Vec<Membership>,
    /// Per slot, which keys the locale names otherwise as written (rules
    /// 4's `ascii: false`; `cldr_written`, as `cldr_named`), stored in
    /// slot + the number of locales; empty for a table loaded before them.
    pub written: Vec<Membership>,
    /// (slot, key) -> chunks, for names over one chunk (`cldr_long`,
    /// `slot:key:chunks` in hex, comma-separated).
    pub long: HashMap<(u16, u32), u8>,
    /// CLDR names over every locale (`cldr_names`).
    pub names: u64,
}

impl CldrMeta {
    /// How many chunks the name of `key` in `slot` takes (1 for most).
    #[inline]
    pub fn chunks_of(&self, slot: u16, key: u32) -> usize {
        self.long.get(&(slot, key)).map_or(1, |&n| n as usize)
    }

    /// Whether the locale of `slot` names `key` (a slot past the
    /// locales: names it otherwise as written).
    #[inline]
    pub fn names(&self, slot: u16, key: u32) -> bool {
        let slot = slot as usize;
        let named = match slot.checked_sub(self.named.len()) {
            None => self.named.get(slot),
            Some(written) => self.written.get(written),
        };
        named.is_some_and(|m| m.contains_index(key))
    }

    /// The offset of the written names' slots, if the version has them.
    pub fn written_offset(&self) -> Option<u16> {
        (!self.written.is_empty()).then_some(self.named.len() as u16)
    }

    fn to_fields(&self, fields: &mut Vec<(&'static str, String)>) {
        if self.locales.is_empty() {
            return;
        }
        let named: Vec<String> = self.named.iter().map(Membership::encode).collect();
        let written: Vec<String> = self.written.iter().map(Membership::encode).collect();
        let mut long: Vec<_> = self.long.iter().collect();
        long.sort();
        let long: Vec<String> = long
            .into_iter()
            .map(|((slot, key), n)| format!("{slot:x}:{key:x}:{n}"))
            .collect();
        fields.extend([
            (field::CLDR_LOCALES, self.locales.tags().join(",")),
            (field::CLDR_KEYS, self.keys.encode()),
            (field::CLDR_NAMED, named.join(";")),
            (field::CLDR_LONG, long.join(",")),
            (field::CLDR_NAMES, self.names.to_string()),
        ]);
        if !written.is_empty() {
            fields.push((field::CLDR_WRITTEN, written.join(";")));
        }
    }

    fn from_fields(fields: &HashMap<String, String>) -> Result<Self, String> {
        let Some(locales) = fields.get(field::CLDR_LOCALES) else {
            return Ok(CldrMeta::default());
        };
        let get = |name: &str| {
            fields
                .get(name)
                .map(String::as_str)
                .ok_or_else(|| format!("no field '{name}'"))
        };
        let locales = Locales::new(locales.split(',').map(str::to_owned).collect());
        let named = get(field::CLDR_NAMED)?
            .split(';')
            .map(Membership::decode)
            .collect::<Result<Vec<_>, _>>()?;
        if named.len() != locales.len() {
            return Err(format!(
                "cldr_named has {} locales, cldr_locales {}",
                named.len(),
                locales.len()
            ));
        }
        let written = match fields.get(field::CLDR_WRITTEN) {
            Some(written) => written
                .split(';')
                .map(Membership::decode)
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        if !written.is_empty() && written.len() != locales.len() {
            return Err(format!(
                "cldr_written has {} locales, cldr_locales {}",
                written.len(),
                locales.len()
            ));
        }
        let mut long = HashMap::new();
        for entry in get(field::CLDR_LONG)?.split(',').filter(|e| !e.is_empty()) {
            let parsed = (|| {
                let mut parts = entry.split(':');
                let slot = u16::from_str_radix(parts.next()?, 16).ok()?;
                let key = u32::from_str_radix(parts.next()?, 16).ok()?;
                let n: u8 = parts.next()?.parse().ok()?;
                (parts.next().is_none() && (2..=MAX_CHUNKS as u8).contains(&n))
                    .then_some(((slot, key), n))
            })();
            let Some((at, n)) = parsed else {
                return Err(format!("bad cldr_long entry '{entry}'"));
            };
            long.insert(at, n);
        }
        Ok(CldrMeta {
            locales,
            keys: KeySet::decode(get(field::CLDR_KEYS)?)?,
            named,
            written,
            long,
            names: get(field::CLDR_NAMES)?
                .parse()
                .map_err(|_| "'cldr_names' is not a number".to_owned())?,
        })
    }
}

/// The names of the meta hash's fields: the one list the writer
/// ([`Meta::to_fields`]) and the reader ([`Meta::from_fields`]) share.
pub mod field {
    /// The layout's [`super::FORMAT`].
    pub const FORMAT: &str = "format";
    /// Characters in the table.
    pub const ENTRIES: &str = "entries";
    /// The categories loaded.
    pub const CATEGORIES: &str = "categories";
    /// The membership bitmap.
    pub const INDEX: &str = "index";
    /// Names stored in more than one chunk.
    pub const LONG: &str = "long";
    /// Where the data came from.
    pub const SOURCE: &str = "source";
    /// When, in Unix seconds.
    pub const LOADED_AT: &str = "loaded_at";
    /// The version's Redis memory, set once the loader has measured it.
    pub const BYTES: &str = "bytes";
    /// CLDR's locales, by slot.
    pub const CLDR_LOCALES: &str = "cldr_locales";
    /// Which keys each locale names otherwise as written.
    pub const CLDR_WRITTEN: &str = "cldr_written";
    /// CLDR's numbered keys.
    pub const CLDR_KEYS: &str = "cldr_keys";
    /// Which keys each locale names.
    pub const CLDR_NAMED: &str = "cldr_named";
    /// CLDR names stored in more than one chunk.
    pub const CLDR_LONG: &str = "cldr_long";
    /// How many CLDR names.
    pub const CLDR_NAMES: &str = "cldr_names";
    /// Buckets of Japanese readings.
    pub const JA_BUCKETS: &str = "ja_buckets";
    /// Japanese written forms.
    pub const JA_FORMS: &str = "ja_forms";

    /// Arabic's lexicon of names, as text (`Names::encode`), beside its
    /// model of vowels: a field of its own, so that a service of rules 6
    /// reads the model as before.
    pub const NAMES: &str = "ar_names";

    /// The field of `language`'s model of vowels, as text (its row of
    /// the models' table names it: `fa_vowels`, `ur_vowels`, `ar_vowels`).
    pub const fn vowels(language: slugd_engine::readers::vowels::Language) -> &'static str {
        language.row().field
    }
}

impl Meta {
    /// The hash's fields and values, [`FORMAT`] among them.
    pub fn to_fields(&self) -> Vec<(&'static str, String)> {
        let mut fields = vec![
            (field::FORMAT, FORMAT.to_string()),
            (field::ENTRIES, self.entries.to_string()),
            (field::CATEGORIES, self.categories.to_string()),
            (field::INDEX, self.members.encode()),
            (field::LONG, self.long.encode()),
            (field::SOURCE, self.source.clone()),
            (field::LOADED_AT, self.loaded_at.to_string()),
            (field::BYTES, self.bytes.to_string()),
        ];
        self.cldr.to_fields(&mut fields);
        if self.readings.any() {
            fields.extend([
                (field::JA_BUCKETS, self.readings.buckets.to_string()),
                (field::JA_FORMS, self.readings.forms.to_string()),
            ]);
        }
        for model in self.vowels.iter() {
            fields.push((field::vowels(model.language()), model.encode()));
            if !model.names().is_empty() {
                fields.push((field::NAMES, model.names().encode()));
            }
        }
        fields
    }

    /// Reads the hash as `HGETALL` returns it. The error says which field is
    /// missing or wrong.
    pub fn from_fields(fields: &HashMap<String, String>) -> Result<Self, String> {
        if fields.is_empty() {
            return Err("missing".to_owned());
        }
        let get = |name: &str| {
            fields
                .get(name)
                .map(String::as_str)
                .ok_or_else(|| format!("no field '{name}'"))
        };
        let number = |name: &str| -> Result<u64, String> {
            get(name)?
                .parse()
                .map_err(|_| format!("'{name}' is not a number"))
        };
        let format = number(field::FORMAT).map_err(|_| "bad format".to_owned())?;
        if format != u64::from(FORMAT) {
            return Err(format!(
                "layout format {format}, this slugd reads format {FORMAT}; run this version's `slugd load`"
            ));
        }
        Ok(Meta {
            entries: number(field::ENTRIES)?,
            categories: get(field::CATEGORIES)?
                .parse()
                .map_err(|e| format!("categories: {e}"))?,
            members: Membership::decode(get(field::INDEX)?)?,
            long: LongNames::decode(get(field::LONG)?)?,
            source: get(field::SOURCE).unwrap_or_default().to_owned(),
            loaded_at: number(field::LOADED_AT).unwrap_or(0),
            bytes: number(field::BYTES)?,
            cldr: CldrMeta::from_fields(fields).map_err(|e| format!("CLDR names: {e}"))?,
            readings: match fields.get(field::JA_BUCKETS) {
                None => Readings::default(),
                Some(buckets) => Readings {
                    buckets: buckets
                        .parse()
                        .map_err(|_| "'ja_buckets' is not a number".to_owned())?,
                    forms: number(field::JA_FORMS)?,
                },
            },
            vowels: {
                let mut models = VowelModels::default();
                for language in Language::ALL {
                    let name = field::vowels(language);
                    if let Some(text) = fields.get(name) {
                        let mut model =
                            VowelModel::decode(text).map_err(|e| format!("'{name}': {e}"))?;
                        if let Some(names) = fields
                            .get(field::NAMES)
                            .filter(|_| language == Language::Arabic)
                        {
                            model = model.with_names(
                                Names::decode(names)
                                    .map_err(|e| format!("'{}': {e}", field::NAMES))?,
                            );
                        }
                        if model.language() != language {
                            return Err(format!(
                                "'{name}' holds a model of {}'s vowels",
                                model.language().name()
                            ));
                        }
                        models = models.with(Arc::new(model));
                    }
                }
                models
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_split_into_chunks_and_fields_stay_within_a_bucket_listpack() {
        let name = "x".repeat(88);
        let parts: Vec<_> = chunks(&name).collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            vec![64, 24]
        );
        let c = '\u{2B23}';
        assert_eq!(field_of(c, 0), 0x23);
        assert_eq!(field_of(c, 1), 0x23 + 64);
        let long = LongNames([('☃', 2u8)].into_iter().collect());
        assert_eq!(LongNames::decode(&long.encode()).unwrap(), long);
        assert_eq!(long.chunks_of('☃'), 2);
        assert_eq!(long.chunks_of('☢'), 1);
    }

    #[test]
    fn meta_round_trips_through_its_hash_fields_and_refuses_other_formats() {
        let mut members = Membership::default();
        members.insert('☃');
        let meta = Meta {
            entries: 1,
            categories: "So,Sm".parse().unwrap(),
            members,
            long: LongNames([('☃', 2u8)].into_iter().collect()),
            source: "data/UnicodeData.txt".to_owned(),
            loaded_at: 1_700_000_000,
            bytes: 420,
            cldr: CldrMeta::default(),
            readings: Readings::default(),
            vowels: VowelModels::default(),
        };
        // A table loaded before CLDR names: none.
        let old: HashMap<String, String> = meta
            .to_fields()
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        assert!(!old.contains_key("cldr_locales"));
        assert_eq!(Meta::from_fields(&old).unwrap(), meta);
        let mut named = Membership::default();
        named.insert_index(1);
        let meta = Meta {
            cldr: CldrMeta {
                locales: Locales::new(vec!["en".into(), "de".into()]),
                keys: KeySet::new(vec!["🇩🇪".into(), "☕".into()]),
                named: vec![named.clone(), named.clone()],
                written: vec![Membership::default(), named],
                long: [((1u16, 1u32), 2u8), ((3u16, 1u32), 3u8)]
                    .into_iter()
                    .collect(),
                names: 2,
            },
            readings: Readings::for_forms(129),
            vowels: VowelModels::default()
                .with(Arc::new(slugd_engine::readers::vowels::train(
                    Language::Persian,
                    &[("تهران".to_owned(), "tehran".to_owned())],
                )))
                .with(Arc::new(slugd_engine::readers::vowels::train(
                    Language::Urdu,
                    &[("کراچی".to_owned(), "karachi".to_owned())],
                ))),
            ..meta
        };
        assert_eq!(meta.readings.buckets, 3);
        // Slot 3 is `de`'s names as written.
        assert!(meta.cldr.names(3, 1) && !meta.cldr.names(2, 1) && meta.cldr.names(1, 1));
        assert_eq!(meta.cldr.written_offset(), Some(2));
        let mut fields: HashMap<String, String> = meta
            .to_fields()
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        assert_eq!(Meta::from_fields(&fields).unwrap(), meta);
        // A table loaded before the names as written reads without them.
        let mut before = fields.clone();
        before.remove(field::CLDR_WRITTEN);
        let read = Meta::from_fields(&before).unwrap();
        assert!(read.cldr.written.is_empty() && read.cldr.written_offset().is_none());
        fields.insert(field::FORMAT.to_owned(), "99".to_owned());
        let err = Meta::from_fields(&fields).unwrap_err();
        assert!(err.contains("layout format 99"), "{err}");
        fields.remove(field::FORMAT);
        assert!(Meta::from_fields(&fields).is_err());
        assert!(Meta::from_fields(&HashMap::new()).is_err());
    }

    /// The bucket of a written form is FNV-1a's, the same in every slugd:
    /// a loader and a service of another build agree on it.
    #[test]
    fn a_written_form_has_one_bucket_whatever_reads_it() {
        // FNV-1a 32 of "" and "a", as published (0x811c9dc5, 0xe40c292c).
        assert_eq!(reading_bucket_of("", u32::MAX), 0x811c_9dc5);
        assert_eq!(reading_bucket_of("a", u32::MAX), 0xe40c_292c);
        assert_eq!(reading_bucket_of("東京", 1), 0);
        assert!(reading_bucket_of("東京", 5_089) < 5_089);
        assert!(!Readings::for_forms(0).any());
        assert_eq!(Readings::for_forms(64).buckets, 1);
        assert_eq!(Readings::for_forms(65).buckets, 2);
    }

    #[test]
    fn key_names_and_scan_patterns() {
        let keys = Keys::new("app*1:");
        assert_eq!(keys.bucket(7, 0x9c), "app*1:t:7:9c");
        assert_eq!(keys.cldr_bucket(7, 0x1a, 3), "app*1:t:7:L1a:3");
        assert_eq!(keys.reading_bucket(7, 0x1a), "app*1:t:7:J1a");
        assert_eq!(keys.bucket_pattern(7), "app\\*1:t:7:*");
        assert_eq!(keys.current(), "app*1:{ctl}:current");
        assert_eq!(keys.lock(), "app*1:{ctl}:lock");
    }
}
