//! `slugd slugify`: slugs titles read one per line and writes one slug per
//! line, in order, in bounded memory, on every core. A reader thread takes
//! lines in batches of at most [`BATCH_LINES`] lines or [`BATCH_BYTES`]
//! bytes (one Redis round trip per batch); `threads` workers slug batches
//! side by side, each writing its batch's output; the calling thread
//! writes the batches' output in input order. At most [`IN_FLIGHT`]
//! batches a worker are read ahead of the writer, so memory stays bounded
//! however long the input. A line longer than [`MAX_TITLE_BYTES`] is
//! skipped, never buffered whole. A line that cannot be slugged gives an
//! empty output line (so output lines stay aligned with input lines) and a
//! message on the error stream naming the line.

use std::io::{self, BufRead, Write};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use tokio::runtime::Handle;

use crate::slugger::Slugger;
use crate::table::TableError;
use slugd_engine::slug::Options;

/// The longest title line accepted.
pub const MAX_TITLE_BYTES: usize = 1024 * 1024;

/// Most lines slugged per batch.
pub const BATCH_LINES: usize = 256;

/// Most title bytes held per batch.
pub const BATCH_BYTES: usize = 1024 * 1024;

/// Batches read ahead of the writer, per worker: enough that a worker
/// never waits for the reader, few enough that memory stays a few batches.
pub const IN_FLIGHT: usize = 2;

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

/// Whole lines read together, as read: a worker splits them.
struct Batch {
    /// The number of its first line, from 1.
    first_line: u64,
    /// How many lines.
    lines: usize,
    /// The lines, each ended by `\n` (the input's last may not be).
    bytes: Vec<u8>,
    /// The lines (by index in the batch) longer than [`MAX_TITLE_BYTES`],
    /// in order: each is empty in `bytes`.
    too_long: Vec<usize>,
}

/// One line of a batch, as a worker reads it.
enum Item {
    Title,
    TooLong,
    NotUtf8,
}

/// A batch slugged: what goes to the output and the error stream.
struct Written {
    output: Vec<u8>,
    errors: Vec<u8>,
    lines: u64,
    failed: u64,
}

/// A batch's output, or why it has none.
type Answer = Receiver<Result<Written, StreamError>>;

/// A batch for a worker, and where its answer goes.
type Job = (Batch, SyncSender<Result<Written, StreamError>>);

/// How `slugd slugify` slugs a stream: the slugger and options, whether
/// to write URI forms, how many workers, and the runtime that runs the
/// table's async calls.
pub struct Stream {
    pub slugger: Slugger,
    pub options: Options,
    /// Write each slug's URI form (`--uri`).
    pub uri: bool,
    /// Workers slugging batches side by side.
    pub threads: NonZeroUsize,
    pub runtime: Handle,
}

impl Stream {
    /// Slugs every line of `input` onto `output`, reporting bad lines on
    /// `errors`. Call it from a blocking thread: the workers run the
    /// table's async calls on the runtime.
    ///
    /// When writing fails or the table cannot answer, it returns the
    /// error at once: the reader and the workers are told to stop and are
    /// not waited for, since the reader may be waiting for input that
    /// does not come (a terminal, `tail -f`). They end at their next
    /// batch, or with the process.
    pub fn slugify_lines(
        self,
        input: impl BufRead + Send + 'static,
        mut output: impl Write,
        mut errors: impl Write,
    ) -> Result<StreamReport, StreamError> {
        let threads = self.threads.get();
        let stream = Arc::new(self);
        let stop = Arc::new(AtomicBool::new(false));
        let (jobs, job_queue) = sync_channel::<Job>(threads);
        let job_queue = Arc::new(Mutex::new(job_queue));
        // The writer's queue: each batch's answer, in input order.
        let (order, answers) = sync_channel::<Answer>(threads * IN_FLIGHT);
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (stream, job_queue, stop) = (
                    Arc::clone(&stream),
                    Arc::clone(&job_queue),
                    Arc::clone(&stop),
                );
                std::thread::spawn(move || {
                    loop {
                        // The lock is held to take a job, not to slug it.
                        let next = job_queue.lock().map(|queue| queue.recv());
                        let Ok(Ok((batch, answer))) = next else { break };
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        // A writer that stopped wants no more answers.
                        let _ = answer.send(stream.slug_batch(&batch));
                    }
                })
            })
            .collect();
        let reader = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || read_batches(input, jobs, order, &stop))
        };
        let mut report = StreamReport::default();
        if let Err(e) = write_in_order(&answers, &mut output, &mut errors, &mut report) {
            stop.store(true, Ordering::Relaxed);
            return Err(e);
        }
        // The reader is done: the writer's queue ended.
        let read = reader.join().expect("the reader does not panic");
        for worker in workers {
            worker.join().expect("a worker does not panic");
        }
        read?;
        Ok(report)
    }

    /// The output and error lines of one batch.
    fn slug_batch(&self, batch: &Batch) -> Result<Written, StreamError> {
        let mut items = Vec::with_capacity(batch.lines);
        let mut titles = Vec::with_capacity(batch.lines);
        let mut too_long = batch.too_long.iter().peekable();
        let mut start = 0;
        for index in 0..batch.lines {
            let rest = &batch.bytes[start..];
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            start += end + 1;
            if too_long.next_if_eq(&&index).is_some() {
                items.push(Item::TooLong);
                continue;
            }
            let line = &rest[..end];
            match std::str::from_utf8(line.strip_suffix(b"\r").unwrap_or(line)) {
                Ok(title) => {
                    titles.push(title);
                    items.push(Item::Title);
                }
                Err(_) => items.push(Item::NotUtf8),
            }
        }
        let made = self
            .runtime
            .block_on(self.slugger.slugify_all(&titles, &self.options))?;
        warn_not_loaded(&made.not_loaded);
        let mut slugs = made.slugs.into_iter();
        let mut written = Written {
            output: Vec::with_capacity(batch.bytes.len()),
            errors: Vec::new(),
            lines: batch.lines as u64,
            failed: 0,
        };
        for (line, item) in (batch.first_line..).zip(&items) {
            let outcome = match item {
                Item::TooLong => Err(format!(
                    "longer than the limit of {} MiB",
                    MAX_TITLE_BYTES >> 20
                )),
                Item::NotUtf8 => Err("not valid UTF-8".to_owned()),
                Item::Title => slugs
                    .next()
                    .expect("one slug per title")
                    .map_err(|e| e.to_string()),
            };
            match outcome {
                Ok(slug) if self.uri => written
                    .output
                    .extend_from_slice(slugd_engine::slug::uri(&slug).as_bytes()),
                Ok(slug) => written.output.extend_from_slice(slug.as_bytes()),
                Err(why) => {
                    written.failed += 1;
                    writeln!(written.errors, "slugd: line {line}: {why}")?;
                }
            }
            written.output.push(b'\n');
        }
        Ok(written)
    }
}

/// Reads `input` into batches of whole lines, each queued to the writer
/// (`order`) and then to a worker (`jobs`), until the input ends or the
/// writer stops. It only copies bytes and finds newlines: the workers
/// split and check the lines, so that reading keeps up with every core.
fn read_batches(
    mut input: impl BufRead,
    jobs: SyncSender<Job>,
    order: SyncSender<Answer>,
    stop: &AtomicBool,
) -> io::Result<()> {
    let mut first_line = 1;
    let mut at_end = false;
    while !at_end && !stop.load(Ordering::Relaxed) {
        let mut batch = Batch {
            first_line,
            lines: 0,
            bytes: Vec::new(),
            too_long: Vec::new(),
        };
        // Where the line being read starts in `bytes`, and whether it is
        // over the limit (its bytes skipped up to its newline).
        let mut line_start = 0;
        let mut skipping = false;
        let mut full = false;
        while !full {
            let available = match input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                at_end = true;
                // A last line without a newline.
                if skipping {
                    batch.too_long.push(batch.lines);
                }
                if skipping || batch.bytes.len() > line_start {
                    batch.lines += 1;
                }
                break;
            }
            let mut at = 0;
            while at < available.len() && !full {
                let rest = &available[at..];
                let Some(newline) = memchr::memchr(b'\n', rest) else {
                    // Part of a line: kept while it is within the limit.
                    if !skipping {
                        if batch.bytes.len() - line_start + rest.len() > MAX_TITLE_BYTES {
                            skipping = true;
                            batch.bytes.truncate(line_start);
                        } else {
                            batch.bytes.extend_from_slice(rest);
                        }
                    }
                    at = available.len();
                    break;
                };
                if skipping || batch.bytes.len() - line_start + newline > MAX_TITLE_BYTES {
                    batch.too_long.push(batch.lines);
                    batch.bytes.truncate(line_start);
                    batch.bytes.push(b'\n');
                    skipping = false;
                } else {
                    batch.bytes.extend_from_slice(&rest[..=newline]);
                }
                batch.lines += 1;
                line_start = batch.bytes.len();
                at += newline + 1;
                full = batch.lines == BATCH_LINES || batch.bytes.len() >= BATCH_BYTES;
            }
            input.consume(at);
        }
        if batch.lines == 0 {
            break;
        }
        first_line += batch.lines as u64;
        let (answer, answered) = sync_channel(1);
        // Either fails only when the writer (or every worker) has stopped,
        // and the writer says why.
        if order.send(answered).is_err() || jobs.send((batch, answer)).is_err() {
            break;
        }
    }
    Ok(())
}

/// Writes each batch's answer as it comes, in input order, until the
/// reader is done or something fails.
fn write_in_order(
    answers: &Receiver<Answer>,
    output: &mut impl Write,
    errors: &mut impl Write,
    report: &mut StreamReport,
) -> Result<(), StreamError> {
    for answered in answers {
        let Ok(written) = answered.recv() else {
            // Its worker is gone: only when the workers stopped, which the
            // reader's error then explains.
            break;
        };
        let written = written?;
        // The messages first, as a line's message came before its batch's
        // slugs were flushed.
        errors.write_all(&written.errors)?;
        output.write_all(&written.output)?;
        output.flush()?;
        report.lines += written.lines;
        report.failed += written.failed;
    }
    Ok(())
}

/// Says on standard error that titles were read letter by letter for want
/// of the models of `not_loaded`, once a process.
pub(crate) fn warn_not_loaded(not_loaded: &[slugd_engine::readers::vowels::Language]) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if not_loaded.is_empty() || SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let names: Vec<&str> = not_loaded.iter().map(|l| l.name()).collect();
    let codes: Vec<&str> = not_loaded.iter().map(|l| l.code()).collect();
    eprintln!(
        "slugd: warning (reading_not_loaded): {} without vowel marks was read letter by letter: no model of its vowels is loaded; give --locales {} (or all), with the word lists and espeak-ng of scripts/dictionaries.sh",
        names.join(", "),
        codes.join(",")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{MemoryTable, SymbolTable};

    /// What `slugd slugify` writes for `input` with `threads` workers:
    /// output, error stream, report.
    fn run(input: &[u8], threads: usize) -> (String, String, StreamReport) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let stream = Stream {
            slugger: Slugger::new(SymbolTable::in_process(Arc::new(MemoryTable::built_in()))),
            options: Options::default(),
            uri: false,
            threads: NonZeroUsize::new(threads).unwrap(),
            runtime: runtime.handle().clone(),
        };
        let (mut output, mut errors) = (Vec::new(), Vec::new());
        let report = stream
            .slugify_lines(io::Cursor::new(input.to_vec()), &mut output, &mut errors)
            .unwrap();
        let text = |bytes| String::from_utf8(bytes).unwrap();
        (text(output), text(errors), report)
    }

    #[test]
    fn many_batches_on_many_threads_keep_the_input_order() {
        let lines = 10 * BATCH_LINES + 7;
        let input: String = (0..lines).map(|i| format!("Title ☃ {i}\n")).collect();
        let expected: String = (0..lines).map(|i| format!("title-snowman-{i}\n")).collect();
        for threads in [1, 2, 5] {
            let (output, errors, report) = run(input.as_bytes(), threads);
            assert_eq!(output, expected, "{threads} threads");
            assert_eq!(errors, "");
            assert_eq!(
                report,
                StreamReport {
                    lines: lines as u64,
                    failed: 0
                }
            );
        }
    }

    #[test]
    fn bad_lines_keep_their_place_and_number_in_any_batch() {
        // Line numbers past the first batch, a CRLF, bad UTF-8, a line
        // over the limit (in several reads, and with a newline), and a
        // last line over the limit without one.
        let mut input = "a\n".repeat(BATCH_LINES + 1).into_bytes();
        input.extend_from_slice(b"B c\r\n\xFF\n!!!\n");
        input.extend(std::iter::repeat_n(b'x', MAX_TITLE_BYTES + 1));
        input.extend_from_slice(b"\nok\n");
        input.extend(std::iter::repeat_n(b'y', MAX_TITLE_BYTES + 1));
        for threads in [1, 3] {
            let (output, errors, report) = run(&input, threads);
            let mut expected = "a\n".repeat(BATCH_LINES + 1);
            expected.push_str("b-c\n\n\n\nok\n\n");
            assert_eq!(output, expected);
            let n = BATCH_LINES as u64 + 1;
            assert_eq!(
                errors,
                format!(
                    "slugd: line {}: not valid UTF-8\n\
                     slugd: line {}: {}\n\
                     slugd: line {}: longer than the limit of 1 MiB\n\
                     slugd: line {}: longer than the limit of 1 MiB\n",
                    n + 2,
                    n + 3,
                    slugd_engine::slug::EmptySlug,
                    n + 4,
                    n + 6
                )
            );
            assert_eq!(
                report,
                StreamReport {
                    lines: n + 6,
                    failed: 4
                }
            );
        }
    }

    #[test]
    fn a_line_at_the_limit_is_slugged_and_the_last_line_needs_no_newline() {
        let mut input = "é".repeat(MAX_TITLE_BYTES / 2).into_bytes();
        input.extend_from_slice(b"\nlast");
        let (output, errors, report) = run(&input, 2);
        assert_eq!(errors, "");
        assert_eq!(
            output,
            format!("{}\nlast\n", "e".repeat(MAX_TITLE_BYTES / 2))
        );
        assert_eq!(report.lines, 2);
        assert_eq!(run(b"", 2).2.lines, 0);
        assert_eq!(run(b"\n", 2).0, "\n");
    }
}
