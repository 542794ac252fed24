//! `slugd slugify`: slugs titles read one per line and writes one slug per
//! line, in order, in bounded memory. Lines are taken in batches of at most
//! [`BATCH_LINES`] lines or [`BATCH_BYTES`] bytes (one Redis round trip per
//! batch); a line longer than [`MAX_TITLE_BYTES`] is skipped, never buffered
//! whole. A line that cannot be slugged gives an empty output line (so
//! output lines stay aligned with input lines) and a message on the error
//! stream naming the line.

use std::io::{self, BufRead, Write};

use tokio::runtime::Handle;

use crate::lines::{BoundedLines, Line};
use crate::slug::Options;
use crate::slugger::Slugger;
use crate::table::TableError;

/// The longest title line accepted.
pub const MAX_TITLE_BYTES: usize = 1024 * 1024;

/// Most lines slugged per batch.
pub const BATCH_LINES: usize = 256;

/// Most title bytes held per batch.
pub const BATCH_BYTES: usize = 1024 * 1024;

/// How a run went.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct StreamReport {
    /// Lines read.
    pub lines: u64,
    /// Lines that gave no slug.
    pub failed: u64,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// Reading or writing failed.
    #[error("reading titles or writing slugs failed")]
    Io(#[from] io::Error),
    /// The table could not answer.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// One input line of a batch.
enum Item {
    Title(String),
    TooLong,
    NotUtf8,
}

/// Slugs every line of `input` onto `output`, reporting bad lines on
/// `errors`; with `uri`, each slug's URI form. Call it from a blocking thread: `runtime` runs the table's
/// async calls.
pub fn slugify_lines(
    slugger: &Slugger,
    options: &Options,
    uri: bool,
    input: impl BufRead,
    mut output: impl Write,
    mut errors: impl Write,
    runtime: &Handle,
) -> Result<StreamReport, StreamError> {
    let mut lines = BoundedLines::new(input, MAX_TITLE_BYTES);
    let mut report = StreamReport::default();
    let mut batch: Vec<Item> = Vec::with_capacity(BATCH_LINES);
    let mut at_end = false;
    while !at_end {
        batch.clear();
        let mut batch_bytes = 0;
        while batch.len() < BATCH_LINES && batch_bytes < BATCH_BYTES {
            let item = match lines.next_line()? {
                None => {
                    at_end = true;
                    break;
                }
                Some(Line::TooLong) => Item::TooLong,
                Some(Line::Text { bytes, .. }) => {
                    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
                    match std::str::from_utf8(bytes) {
                        Ok(text) => Item::Title(text.to_owned()),
                        Err(_) => Item::NotUtf8,
                    }
                }
            };
            if let Item::Title(t) = &item {
                batch_bytes += t.len();
            }
            batch.push(item);
        }
        let titles: Vec<&str> = batch
            .iter()
            .filter_map(|item| match item {
                Item::Title(t) => Some(t.as_str()),
                Item::TooLong | Item::NotUtf8 => None,
            })
            .collect();
        let mut slugs = runtime
            .block_on(slugger.slugify_all(&titles, options))?
            .slugs
            .into_iter();
        for item in &batch {
            report.lines += 1;
            let outcome = match item {
                Item::TooLong => Err(format!(
                    "longer than the limit of {} MiB",
                    MAX_TITLE_BYTES >> 20
                )),
                Item::NotUtf8 => Err("not valid UTF-8".to_owned()),
                Item::Title(_) => slugs
                    .next()
                    .expect("one slug per title")
                    .map_err(|e| e.to_string()),
            };
            match outcome {
                Ok(slug) if uri => writeln!(output, "{}", crate::slug::uri(&slug))?,
                Ok(slug) => writeln!(output, "{slug}")?,
                Err(why) => {
                    report.failed += 1;
                    writeln!(output)?;
                    writeln!(errors, "slugd: line {}: {why}", report.lines)?;
                }
            }
        }
        output.flush()?;
    }
    Ok(report)
}
