//! A thread's bounded memory of text it has romanized: ICU4X's
//! transliterator and word segmenter take microseconds a word, and titles
//! repeat their words. The `locale` option's romanization remembers words
//! (`crate::locale`), rules 2's scripts runs and words (`crate::slug`).
//!
//! Keys are hashed by foldhash, randomly seeded per memory: SipHash, the
//! standard library's, cost as much as the rest of a lookup. foldhash
//! resists crafted collisions less; a memory holds at most a few thousand
//! keys and starts over when full, so a title that collides costs at most
//! a longer search of one small table.

use std::cell::RefCell;
use std::collections::HashMap;

/// Romanized texts by key, at most `max_texts` keys of at most
/// `max_bytes`; one per thread and use (`thread_local!`).
pub struct Memory {
    texts: RefCell<HashMap<Box<str>, Box<str>, foldhash::fast::RandomState>>,
    max_texts: usize,
    max_bytes: usize,
}

impl Memory {
    /// An empty memory: past `max_texts` it starts over, and a key longer
    /// than `max_bytes` is romanized every time.
    pub fn new(max_texts: usize, max_bytes: usize) -> Self {
        Memory {
            texts: RefCell::default(),
            max_texts,
            max_bytes,
        }
    }

    /// Appends what `romanize` writes for `key`, remembered after the
    /// first time.
    pub fn remember(&self, key: &str, out: &mut String, romanize: impl FnOnce(&mut String)) {
        if key.len() > self.max_bytes {
            romanize(out);
            return;
        }
        if let Some(done) = self.texts.borrow().get(key) {
            out.push_str(done);
            return;
        }
        let mut done = String::new();
        romanize(&mut done);
        out.push_str(&done);
        let mut texts = self.texts.borrow_mut();
        if texts.len() >= self.max_texts {
            texts.clear();
        }
        texts.insert(Box::from(key), done.into_boxed_str());
    }
}
