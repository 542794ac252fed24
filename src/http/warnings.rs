//! Warnings an answer carries beside its slugs: what the slugs were made
//! without, with a stable code and what to do about it. The slug itself is
//! what the table gives; a warning only says why it may not be what a
//! reader of the language writes.

use serde::Serialize;
use utoipa::ToSchema;

use slugd_engine::readers::vowels::Language;

/// One warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Warning {
    /// A stable code for programs: `reading_not_loaded`, a title's words
    /// were read letter by letter because the table holds no model of
    /// their language's unwritten vowels.
    #[schema(example = "reading_not_loaded")]
    pub code: &'static str,
    /// The locales whose readings would have read them.
    #[schema(example = json!(["ar"]))]
    pub locales: Vec<&'static str>,
    /// What it means and how to load them, for people.
    pub message: String,
}

/// The warnings of an answer whose titles would be read by the models of
/// `not_loaded`, which the table does not hold: none when it is empty.
pub fn not_loaded(not_loaded: &[Language]) -> Vec<Warning> {
    if not_loaded.is_empty() {
        return Vec::new();
    }
    let locales: Vec<&'static str> = not_loaded.iter().map(|l| l.code()).collect();
    let names: Vec<&'static str> = not_loaded.iter().map(|l| l.name()).collect();
    let list = locales.join(",");
    vec![Warning {
        code: "reading_not_loaded",
        message: format!(
            "{} without vowel marks was read letter by letter: this table holds no model of the vowels it does not write. To read it as its readers write it, start slugd serve with --locales {list} (or all), or load the Redis table with slugd load --locales {list}, with the word lists and espeak-ng that scripts/dictionaries.sh installs",
            names.join(", ")
        ),
        locales,
    }]
}
