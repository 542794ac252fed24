//! Fuzzes the UnicodeData.txt reader and line parser with arbitrary bytes:
//! every line is either an entry or a reported bad line, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slugd_engine::unicode_data::{Categories, Reader, parse_line};

fuzz_target!(|data: &[u8]| {
    let categories: Categories = "So,Sm,Lu".parse().unwrap();
    for item in Reader::new(data, categories) {
        if let Ok(entry) = item {
            assert!(!entry.name.is_empty());
            assert!(entry.line >= 1);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_line(text);
    }
});
