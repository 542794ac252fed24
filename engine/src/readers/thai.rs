//! CLDR's Thai-Latin transform (`und-Latn-t-und-thai`, ISO 11940), which
//! ICU4X's baked data lacks, compiled from CLDR's rule sources built into
//! the binary (`data/transforms/`, CLDR 41, unmodified; provenance and
//! licence in `data/README.md`) by ICU4X's `RuleCollection`.
//!
//! CLDR's `Thai-Latin` is a chain: a filter to Thai, NFD, `Thai-ThaiSemi`
//! (spaces between Thai words become `; `), `Any-BreakInternal` (ICU's
//! dictionary word breaker puts spaces between words), `Thai-ThaiLogical`
//! (vowels written before their consonant move after it),
//! `ThaiLogical-Latin`, NFC. Here it runs on one word the segmenter has
//! already cut, so the two steps about spaces between words have nothing
//! to do and are left out (ICU4X has no `Any-BreakInternal`); the rest is
//! CLDR's chain as written.

use icu::experimental::transliterate::{RuleCollection, Transliterator};

/// The id the transliterator is known by.
pub(crate) const ID: &str = "und-Latn-t-und-thai";

const THAI_LATIN: &str = include_str!("../../../data/transforms/Thai-Latin.xml");
const THAI_LOGICAL: &str = include_str!("../../../data/transforms/Thai-ThaiLogical.xml");
const LOGICAL_LATIN: &str = include_str!("../../../data/transforms/ThaiLogical-Latin.xml");

/// Builds the transliterator (a few milliseconds: each thread does it once).
pub(crate) fn build(_id: &str) -> Transliterator {
    let mut rules = RuleCollection::default();
    rules.register_source(
        &"und-x-thai-thailogi".parse().expect("a private-use id"),
        rule_text(THAI_LOGICAL),
        ["Thai-ThaiLogical"],
        false,
        true,
    );
    rules.register_source(
        &"und-x-thailogi-latin".parse().expect("a private-use id"),
        rule_text(LOGICAL_LATIN),
        ["ThaiLogical-Latin"],
        false,
        true,
    );
    let chain: String = rule_text(THAI_LATIN)
        .lines()
        .filter(|line| !line.contains("Thai-ThaiSemi") && !line.contains("Any-BreakInternal"))
        .map(|line| format!("{line}\n"))
        .collect();
    let id = ID.parse().expect("CLDR's id parses");
    rules.register_source(&id, chain, ["Thai-Latin"], false, true);
    let provider = rules.as_provider();
    Transliterator::try_new_unstable(&provider, &provider, &provider, &id)
        .expect("CLDR's Thai-Latin rules compile")
}

/// The rules of a CLDR transform file: its `<tRule>` element's text,
/// CDATA markers aside.
fn rule_text(xml: &str) -> String {
    let start = xml
        .find("<tRule>")
        .expect("a CLDR transform file has a tRule")
        + "<tRule>".len();
    let end = xml.find("</tRule>").expect("a closed tRule");
    xml[start..end].replace("<![CDATA[", "").replace("]]>", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cldr_thai_latin_compiles_and_romanizes_by_iso_11940() {
        let thai = build(ID);
        // ISO 11940 as CLDR writes it (CLDR's ThaiLogical-Latin).
        assert_eq!(thai.transliterate("ภูเก็ต".into()), "p̣hūkĕt");
        assert_eq!(thai.transliterate("ตรัง".into()), "trạng");
    }
}
