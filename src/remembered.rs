//! A thread's bounded memory of text it has romanized: rules 2's word
//! segmenter and ICU4X's transliterator take microseconds a run, and
//! titles repeat their words.

use std::cell::RefCell;
use std::collections::HashMap;

/// Most texts a memory keeps; past it, it starts over.
pub const MAX_RUNS: usize = 4096;

/// Longest text kept, in bytes: longer ones are romanized every time.
pub const MAX_RUN_BYTES: usize = 256;

/// Romanized texts by text; one per thread and use (`thread_local!`).
#[derive(Default)]
pub(super) struct Memory(RefCell<HashMap<Box<str>, Box<str>>>);

impl Memory {
    /// Appends what `romanize` makes of `text`, remembered after the
    /// first time.
    pub(super) fn remember(
        &self,
        text: &str,
        out: &mut String,
        romanize: impl FnOnce(&str, &mut String),
    ) {
        if text.len() > MAX_RUN_BYTES {
            romanize(text, out);
            return;
        }
        if let Some(done) = self.0.borrow().get(text) {
            out.push_str(done);
            return;
        }
        let mut done = String::new();
        romanize(text, &mut done);
        out.push_str(&done);
        let mut texts = self.0.borrow_mut();
        if texts.len() >= MAX_RUNS {
            texts.clear();
        }
        texts.insert(Box::from(text), done.into_boxed_str());
    }
}
