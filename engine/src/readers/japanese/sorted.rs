//! The readings held in process as sorted keys: the compact form itself
//! (one `surface\tvalue\n` line per written form, sorted) and the start
//! of each line, looked up by binary search. A third of the memory of a
//! `HashMap` of boxed strings (docs/figures.md), for a lookup of about
//! nineteen comparisons.

use super::reading::Reading;

/// Readings by written form, as sorted lines.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SortedReadings {
    /// The compact form (`super::ipadic::Readings::compact`).
    text: String,
    /// The byte offset of each line's start in `text`.
    starts: Vec<u32>,
}

/// Why a compact form cannot be held.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SortedError {
    /// A line has no tab between surface and value.
    #[error("line {0} of the readings has no tab between written form and reading")]
    NoTab(usize),
    /// Lines out of order, or a surface twice.
    #[error("line {0} of the readings is not after line {prev} in byte order", prev = .0 - 1)]
    Unsorted(usize),
    /// Offsets are `u32`s.
    #[error("the readings are over 4 GiB")]
    TooLarge,
}

impl SortedReadings {
    /// Holds `compact`, checking that its lines are sorted and unique.
    pub fn new(compact: String) -> Result<Self, SortedError> {
        if u32::try_from(compact.len()).is_err() {
            return Err(SortedError::TooLarge);
        }
        let mut starts = Vec::new();
        let mut previous: Option<&str> = None;
        let mut at = 0;
        for (n, line) in compact.split_terminator('\n').enumerate() {
            let (surface, _) = line.split_once('\t').ok_or(SortedError::NoTab(n + 1))?;
            if previous.is_some_and(|p| p >= surface) {
                return Err(SortedError::Unsorted(n + 1));
            }
            previous = Some(surface);
            starts.push(at as u32);
            at += line.len() + 1;
        }
        starts.shrink_to_fit();
        // The compact form grew as it was written: half its capacity may
        // be spare.
        let mut text = compact;
        text.shrink_to_fit();
        Ok(SortedReadings { text, starts })
    }

    /// How many written forms it holds.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.starts.capacity() * std::mem::size_of::<u32>()
    }

    /// Every written form and its value, in byte order of the forms.
    pub fn lines(&self) -> impl Iterator<Item = (&str, &str)> {
        self.starts.iter().map(|&start| self.line(start))
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The reading of `surface`, if it holds one.
    pub fn get(&self, surface: &str) -> Option<Reading> {
        let found = self
            .starts
            .binary_search_by(|&start| self.line(start).0.cmp(surface))
            .ok()?;
        Some(Reading::decode(self.line(self.starts[found]).1))
    }

    /// The surface and value of the line at `start`.
    fn line(&self, start: u32) -> (&str, &str) {
        let line = &self.text[start as usize..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        line.split_once('\t').unwrap_or((line, ""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readers::japanese::kind::Kind;

    #[test]
    fn finds_each_line_by_its_written_form() {
        let readings =
            SortedReadings::new("へ\t*エ\n今日\tキョウ\n東京\tトウキョウ\n".into()).unwrap();
        assert_eq!(readings.len(), 3);
        assert_eq!(readings.get("へ"), Some(Reading::new("エ", Kind::Particle)));
        assert_eq!(
            readings.get("東京"),
            Some(Reading::new("トウキョウ", Kind::Other))
        );
        assert_eq!(readings.get("京"), None);
    }

    #[test]
    fn refuses_lines_out_of_order() {
        assert_eq!(
            SortedReadings::new("東京\tx\nへ\ty\n".into()).unwrap_err(),
            SortedError::Unsorted(2)
        );
        assert_eq!(
            SortedReadings::new("東京\n".into()).unwrap_err(),
            SortedError::NoTab(1)
        );
    }
}
