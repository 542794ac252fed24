//! One batch of the loader's writes: fields of hashes by key, up to
//! [`BATCH_FIELDS`], sent as one HSET per hash in one pipeline per node.
//! The entries and every locale's CLDR names are written through it, so
//! memory stays one batch whatever the table's size.

use std::collections::BTreeMap;

/// Fields written per pipelined batch.
pub const BATCH_FIELDS: usize = 512;

/// The fields waiting to be written, by hash: numbered fields (`u32`, the
/// names of code points and CLDR keys) or named ones (`String`, Japanese
/// written forms).
#[derive(Debug)]
pub struct Batch<F = u32> {
    hashes: BTreeMap<String, Vec<(F, String)>>,
    fields: usize,
}

impl<F> Default for Batch<F> {
    fn default() -> Self {
        Batch {
            hashes: BTreeMap::new(),
            fields: 0,
        }
    }
}

impl<F: redis::ToRedisArgs> Batch<F> {
    /// Adds `fields` to the hash at `key`; returns how many.
    pub fn add<'a>(&mut self, key: String, fields: impl IntoIterator<Item = (F, &'a str)>) -> u64 {
        let hash = self.hashes.entry(key).or_default();
        let before = hash.len();
        hash.extend(fields.into_iter().map(|(f, v)| (f, v.to_owned())));
        let added = hash.len() - before;
        self.fields += added;
        added as u64
    }

    /// Whether the batch should be written before more is added.
    pub fn is_full(&self) -> bool {
        self.fields >= BATCH_FIELDS
    }

    /// Takes the batch as one HSET per hash, with its key (for the node it
    /// goes to); empty when nothing waits.
    pub fn take(&mut self) -> Vec<(String, redis::Cmd)> {
        self.fields = 0;
        std::mem::take(&mut self.hashes)
            .into_iter()
            .map(|(key, fields)| {
                let mut cmd = redis::cmd("HSET");
                cmd.arg(&key);
                for (field, value) in fields {
                    cmd.arg(field).arg(value);
                }
                (key, cmd)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_full_at_its_size_and_empty_once_taken() {
        let mut batch: Batch = Batch::default();
        let value = "x".repeat(3);
        let fields: Vec<(u32, &str)> = (0..BATCH_FIELDS as u32 - 1)
            .map(|f| (f, value.as_str()))
            .collect();
        assert_eq!(batch.add("a".into(), fields), BATCH_FIELDS as u64 - 1);
        assert!(!batch.is_full());
        assert_eq!(batch.add("b".into(), [(7, "y")]), 1);
        assert!(batch.is_full());
        let cmds = batch.take();
        assert_eq!(
            cmds.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(
            cmds[1].1.get_packed_command(),
            redis::cmd("HSET")
                .arg("b")
                .arg(7)
                .arg("y")
                .get_packed_command()
        );
        assert!(!batch.is_full());
        assert!(batch.take().is_empty());
    }
}
