//! The kind of IPADIC entry a reading is from: what romanization and
//! the joining of words look at, apart so that `hepburn` and `reading`
//! both take it without importing each other.

/// What kind of entry a reading is from: particles and verbs are
/// romanized their own way, auxiliaries join the word before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A particle (助詞): `は`, `へ`, `を` read `wa`, `e`, `o`.
    Particle,
    /// A verb (動詞): a last `ウ` is its ending, not a long vowel.
    Verb,
    /// An auxiliary verb (助動詞): written together with a verb or
    /// auxiliary before it (`行き` `まし` `た`, `ikimashita`).
    Auxiliary,
    /// Anything else.
    Other,
}
