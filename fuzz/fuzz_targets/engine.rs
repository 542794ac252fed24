//! Fuzzes the slug engine: any title with any valid options, against the
//! real symbol table. Checks what must always hold, not just "no panic".
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use slugd_engine::memory::MemoryTable;
use slugd_engine::slug::{Options, RawOptions, slugify};

fn table() -> &'static MemoryTable {
    static TABLE: OnceLock<MemoryTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/UnicodeData.txt");
        MemoryTable::from_file(&path, &Default::default()).expect("the shipped data file")
    })
}

const SEPARATORS: [&str; 6] = ["-", "_", ".", "~", "", "-_~"];

fuzz_target!(|data: &[u8]| {
    let Some((&[knobs, more], rest)) = data.split_first_chunk::<2>() else { return };
    let Ok(title) = std::str::from_utf8(rest) else { return };
    let max = (knobs >> 4) as usize;
    let options = RawOptions {
        separator: Some(SEPARATORS[(knobs & 7) as usize % SEPARATORS.len()].to_owned()),
        lowercase: Some(knobs & 8 == 0),
        max_length: (max > 0).then_some(max * 3),
        symbols: Some(knobs & 1 == 0),
        stopwords: (more & 1 != 0).then(|| vec!["the".to_owned(), "a".to_owned(), "and".to_owned()]),
        replacements: (more & 2 != 0).then(|| vec![("%".to_owned(), " percent ☃".to_owned())]),
        preserve: (more & 4 != 0).then(|| "._~".to_owned()),
        fallback: (more & 8 != 0).then(|| "untitled".to_owned()),
        decamelize: Some(more & 16 != 0),
        // Every rule version, the newest most often.
        rules: Some(match more >> 5 {
            0 => 1,
            1 => 2,
            2 => 4,
            _ => slugd_engine::options::Rules::NEWEST.number(),
        }),
        ..RawOptions::default()
    }
    .validate()
    .unwrap();
    if let Ok(slug) = slugify(title, &options, table()) {
        assert!(!slug.is_empty());
        assert!(slug.is_ascii());
        if let Some(max) = options.max_length {
            assert!(slug.len() <= max.get(), "{slug:?}");
        }
        // Slugging a slug changes nothing, whatever the options.
        assert_eq!(slugify(&slug, &options, table()).unwrap(), slug);
        if options == Options::default() {
            assert!(slug.split('-').all(|w| !w.is_empty()
                && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())));
            assert_eq!(slugify(&slug, &options, table()).unwrap(), slug);
        }
    }
});
