//! Property tests of the engine over arbitrary input and arbitrary options
//! (every field of a request): no panic, the slug shape, only allowed
//! characters, the length limit, idempotence, and the same slug from the
//! in-process and the Redis table.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use slugd::slugger::Slugger;
use slugd::table::{MemoryTable, SymbolTable};
use slugd_engine::slug::{Options, RawOptions, slugify};

use crate::fixtures::{RedisServer, load};
use crate::helpers::table_settings;

/// The in-process table as a service reads it by default: UnicodeData's
/// names and the shipped English CLDR names.
fn table() -> MemoryTable {
    MemoryTable::shipped(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Titles: arbitrary strings, and strings dense in what the engine treats
/// specially (symbols, marks, selectors, joiners, scripts, punctuation).
fn titles() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9 ☃❤⬣〠☢☕🦄♞\u{FE0F}\u{200D}\u{301}\u{20E3}\u{202E}\u{E0100}北京Привет,.!_~+-]{0,40}",
        // Emoji sequences: flags, families, skin tones, keycaps.
        "[a-z0-9 #*🇩🇪🇫🇷👨👩👧🏽👋\u{FE0F}\u{200D}\u{20E3}]{0,30}",
        // The characters of the context rules and options: apostrophes,
        // digit groups, `&`, `×`, soft signs, currency and maths signs,
        // camel case, what replacements replace.
        "[a-zA-Z0-9 '’ʼ,&×ъь£€≤≠−%@.~_A-Z]{0,40}",
        // Letters the locales' transforms change.
        "[a-zA-Z äöüßÄÖÜПриветїєґΑθήναСрбија&☃]{0,30}",
    ]
}

/// Any request's options. Replacements replace only what a slug never
/// holds (`%`, `@`, `<3`, `™`), so that slugging a slug again is still a
/// fair test of stability.
fn options() -> impl Strategy<Value = Options> {
    let words = prop::collection::vec("[a-zA-Z0-9]{1,6}|the|and|a", 0..4);
    let replacements = prop::collection::vec(
        (
            prop::sample::select(vec!["%", "@", "<3", "™"]),
            "[a-z ☃€]{0,8}",
        ),
        0..3,
    );
    (
        (
            prop::sample::select(vec!["-", "_", ".", "~", "", "--", "_-"]),
            any::<bool>(),
            prop::option::of(1usize..60),
            any::<bool>(),
        ),
        (
            prop::option::of(words),
            prop::option::of(replacements),
            prop::option::of(prop::sample::select(vec!["", ".", "_~", "._~"])),
            prop::option::of("[a-z]{1,8}( ☃)?"),
            any::<bool>(),
            prop::option::of(prop::sample::select(vec![
                "de", "ru", "uk", "fr", "ja", "sr-Latn",
            ])),
            prop::sample::select(vec![1u64, 2]),
        ),
    )
        .prop_map(
            |(
                (sep, lower, max, symbols),
                (stopwords, replacements, preserve, fallback, decamelize, locale, rules),
            )| {
                RawOptions {
                    separator: Some(sep.to_owned()),
                    lowercase: Some(lower),
                    max_length: max,
                    symbols: Some(symbols),
                    stopwords,
                    replacements: replacements.map(|pairs| {
                        pairs
                            .into_iter()
                            .map(|(from, to)| (from.to_owned(), to))
                            .collect()
                    }),
                    preserve: preserve.map(str::to_owned),
                    fallback,
                    decamelize: Some(decamelize),
                    locale: locale.map(str::to_owned),
                    rules: Some(rules),
                    ascii: None,
                    max_bytes: None,
                }
                .validate()
                .unwrap()
            },
        )
}

/// [`options`] in ASCII mode, or made `ascii: false` (by rules 3) with
/// a `max_bytes`.
fn any_mode_options() -> impl Strategy<Value = Options> {
    (options(), any::<bool>(), prop::option::of(1usize..120)).prop_map(
        |(mut options, unicode, max_bytes)| {
            if unicode {
                options.ascii = false;
                options.rules = slugd_engine::options::Rules::numbered(3).unwrap();
                options.max_bytes = max_bytes.and_then(std::num::NonZeroUsize::new);
            }
            options
        },
    )
}

/// `^([a-z0-9]+(-[a-z0-9]+)*)?$`
fn is_default_shape(slug: &str) -> bool {
    slug.split('-').all(|w| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    })
}

proptest! {
    #![proptest_config(Config { cases: 2000, ..Config::default() })]

    #[test]
    fn default_slugs_have_the_documented_shape_and_are_stable(title in titles()) {
        let table = table_cached();
        match slugify(&title, &Options::default(), table) {
            Ok(slug) => {
                prop_assert!(is_default_shape(&slug), "{slug:?}");
                prop_assert_eq!(slugify(&slug, &Options::default(), table).unwrap(), slug);
            }
            Err(_) => prop_assert!(!title.chars().any(|c| c.is_ascii_alphanumeric())),
        }
    }

    #[test]
    fn any_options_give_stable_slugs_of_allowed_characters_within_max_length(
        title in titles(),
        options in options(),
    ) {
        let table = table_cached();
        if let Ok(slug) = slugify(&title, &options, table) {
            if let Some(max) = options.max_length {
                prop_assert!(slug.len() <= max.get(), "{slug:?} longer than {max}");
            }
            let sep = options.separator.as_str();
            prop_assert!(
                slug.bytes().all(|b| b.is_ascii_alphanumeric()
                    || sep.as_bytes().contains(&b)
                    || (options.preserve.contains(b))),
                "{slug:?} has a character that is neither a letter, a digit, the separator nor preserved"
            );
            if !sep.is_empty() {
                prop_assert!(!slug.starts_with(sep) && !slug.ends_with(sep), "{slug:?}");
            }
            // The one documented exception: with no separator the slug does
            // not show where words ended, so `decamelize` may find other
            // words in it, and `stopwords` drop one of them.
            let words_unseen = sep.is_empty() && options.decamelize && !options.stopwords.is_empty();
            if !words_unseen {
                prop_assert_eq!(slugify(&slug, &options, table).unwrap(), slug);
            }
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 1000, ..Config::default() })]

    /// `ascii: false`: the slug has only letters, digits, marks, joiners,
    /// the separator and preserved characters, is NFC, fits `max_length`
    /// (characters) and `max_bytes` (its URI form), and is its own slug.
    #[test]
    fn unicode_slugs_are_nfc_within_their_limits_and_stable(
        title in prop_oneof![
            titles(),
            // The scripts written without spaces, with joiners and marks.
            "[ก-๛ກ-ໝက-႟ក-៹ぁ-ゟァ-ヿ一-龥\u{200C}\u{200D}\u{301}\u{FE0F}\u{AD} aA0,.'-]{0,60}",
        ],
        options in any_mode_options(),
    ) {
        use unicode_properties::{GeneralCategoryGroup as G, UnicodeGeneralCategory};
        let mut options = options;
        options.ascii = false;
        options.rules = slugd_engine::options::Rules::numbered(3).unwrap();
        let table = table_cached();
        if let Ok(slug) = slugify(&title, &options, table) {
            let sep = options.separator.as_str();
            prop_assert!(
                slug.chars().all(|c| matches!(c.general_category_group(), G::Letter | G::Number | G::Mark)
                    || matches!(c, '\u{200C}' | '\u{200D}')
                    || sep.contains(c)
                    || (c.is_ascii() && options.preserve.contains(c as u8))),
                "{slug:?}"
            );
            let nfc = icu::normalizer::ComposingNormalizer::new_nfc();
            prop_assert_eq!(nfc.normalize(&slug), slug.as_str());
            if let Some(max) = options.max_length {
                prop_assert!(slug.chars().count() <= max.get(), "{slug:?} longer than {max}");
            }
            if let Some(max) = options.max_bytes {
                prop_assert!(slugd_engine::slug::uri(&slug).len() <= max.get(), "{slug:?} over {max} bytes");
            }
            if !sep.is_empty() {
                prop_assert!(!slug.starts_with(sep) && !slug.ends_with(sep), "{slug:?}");
            }
            // With no separator the slug does not show where its words
            // ended, and what joins inside a word (a joiner, a preserved
            // character) or is dropped from one (a stopword, `decamelize`)
            // may be judged on other words: the documented exception.
            let words_unseen = sep.is_empty();
            if !words_unseen {
                prop_assert_eq!(slugify(&slug, &options, table).unwrap(), slug);
            }
        }
    }
}

fn table_cached() -> &'static MemoryTable {
    static TABLE: std::sync::OnceLock<MemoryTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(table)
}

/// The in-process and Redis backends give the same slug for any title.
#[tokio::test(flavor = "multi_thread")]
async fn both_backends_agree_on_arbitrary_titles() {
    let redis = RedisServer::start().await;
    load(&redis).await;
    let settings = table_settings(Some(redis.config()));
    let on_redis = Slugger::new(
        SymbolTable::open(&settings, &slugd::metrics::Metrics::noop())
            .await
            .unwrap(),
    );
    let memory = Slugger::new(SymbolTable::in_process(std::sync::Arc::new(table())));
    // Batches of arbitrary titles: each batch one round trip.
    let mut runner = TestRunner::new(Config {
        cases: 200,
        ..Config::default()
    });
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        runner
            .run(
                &(prop::collection::vec(titles(), 1..20), any_mode_options()),
                |(batch, options)| {
                    let a = handle
                        .block_on(on_redis.slugify_all(&batch, &options))
                        .unwrap()
                        .slugs;
                    let b = handle
                        .block_on(memory.slugify_all(&batch, &options))
                        .unwrap()
                        .slugs;
                    prop_assert_eq!(a, b);
                    Ok(())
                },
            )
            .unwrap();
    })
    .await
    .unwrap();
}
