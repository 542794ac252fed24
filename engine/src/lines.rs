//! Reading lines with a bound on their length, for the data files slugd
//! streams: UnicodeData.txt and IPADIC's CSV sources (`slugd slugify`'s
//! standard input has a reader of its own, in `crate::stream`). A line
//! longer than the bound is skipped (and reported) instead of growing a
//! buffer, so a multi-gigabyte input without newlines cannot grow memory.

use std::io::{self, BufRead};

/// One line read by [`BoundedLines`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The line's bytes, without the `\n` (a `\r` before it is kept).
    /// `ended` is false for a last line without a newline.
    Text {
        /// The bytes.
        bytes: &'a [u8],
        /// Whether a newline ended it.
        ended: bool,
    },
    /// The line was longer than the bound; its bytes were skipped.
    TooLong,
}

/// Lines of a reader, each at most `max` bytes.
pub struct BoundedLines<R> {
    input: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> BoundedLines<R> {
    /// Lines of `input`, each at most `max` bytes.
    pub fn new(input: R, max: usize) -> Self {
        BoundedLines {
            input,
            max,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let mut too_long = false;
        let mut read_any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(match (read_any, too_long) {
                    (false, _) => None,
                    (true, true) => Some(Line::TooLong),
                    (true, false) => Some(Line::Text {
                        bytes: &self.buf,
                        ended: false,
                    }),
                });
            }
            read_any = true;
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !too_long {
                if self.buf.len() + chunk.len() > self.max {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let consumed = newline.map_or(available.len(), |i| i + 1);
            self.input.consume(consumed);
            if newline.is_some() {
                return Ok(Some(if too_long {
                    Line::TooLong
                } else {
                    Line::Text {
                        bytes: &self.buf,
                        ended: true,
                    }
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<String> {
        let mut lines = BoundedLines::new(input, max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(match line {
                Line::Text { bytes, ended } => {
                    format!(
                        "{}{}",
                        String::from_utf8_lossy(bytes),
                        if ended { "" } else { "<eof>" }
                    )
                }
                Line::TooLong => "<too long>".to_owned(),
            });
        }
        out
    }

    #[test]
    fn splits_lines_and_marks_a_last_line_without_newline() {
        assert_eq!(all(b"a\nbc\n\nd", 10), ["a", "bc", "", "d<eof>"]);
        assert_eq!(all(b"a\n", 10), ["a"]);
        assert!(all(b"", 10).is_empty());
    }

    #[test]
    fn skips_lines_over_the_bound_and_goes_on() {
        assert_eq!(
            all(b"short\nmuch too long\nok\n", 5),
            ["short", "<too long>", "ok"]
        );
        assert_eq!(all(b"much too long", 5), ["<too long>"]);
    }
}
