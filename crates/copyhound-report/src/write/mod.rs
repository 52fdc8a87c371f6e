//! Writers: JSON (the complete, versioned report), CSV (one row per pair,
//! for spreadsheets and scripts), the terminal table (the top pairs) and
//! the self-contained HTML page; and the file a report is written to.

mod csv;
mod file;
mod html;
mod json;
mod numbers;
mod pretty;
mod table;
mod terminal;

pub use self::csv::{CSV_HEADER, FORMULA_STARTS, write_csv, write_csv_of};
pub use self::file::create_report_file;
pub use self::html::{
    DEFAULT_HTML_MAX_DOCUMENT_BYTES, DEFAULT_HTML_MAX_PAIRS, HtmlOptions, parts as html_parts,
    write_html,
};
pub use self::json::{
    DEFAULT_JSON_DETAILED_PAIRS, read_json, undetailed_pairs_note, write_json,
    write_json_with_details,
};
pub use self::table::write_table;
pub use self::terminal::terminal_safe;

use std::io::Write;

use rayon::prelude::*;

/// The buffers [`write_in_chunks`] formats into: one per chunk of a batch,
/// twice over, as one batch is written while the next is formatted. Kept
/// from call to call, they are reused: fresh memory costs a page fault per
/// 4 KiB.
#[derive(Debug)]
struct ChunkBuffers {
    /// Holding the batch formatted last, to be written.
    ready: Vec<Vec<u8>>,
    /// Being formatted.
    next: Vec<Vec<u8>>,
}

impl ChunkBuffers {
    /// Buffers for batches of `chunks` chunks.
    fn new(chunks: usize) -> Self {
        Self {
            ready: vec![Vec::new(); chunks],
            next: vec![Vec::new(); chunks],
        }
    }
}

/// Writes `items` to `out` in order, `batch` at a time: the items of a
/// batch are split into one chunk per buffer of `buffers`, each formatted
/// by `format` on its own thread into its buffer, then the buffers are
/// written in order. `format` gets a chunk's index in `items` and its items.
///
/// A batch is written on the calling thread while the next one is formatted
/// on the pool, so the cores do not wait for the kernel to take a batch.
fn write_in_chunks<'a, T: Sync>(
    items: &'a [T],
    batch: usize,
    buffers: &mut ChunkBuffers,
    out: &mut impl Write,
    format: impl Fn(&mut Vec<u8>, usize, &'a [T]) -> Result<(), ReportError> + Sync,
) -> Result<(), ReportError> {
    let format_batch = |buffers: &mut [Vec<u8>], b: usize, items: &'a [T]| {
        let chunk = items.len().div_ceil(buffers.len());
        buffers
            .par_iter_mut()
            .zip(items.par_chunks(chunk))
            .enumerate()
            .try_for_each(|(c, (buffer, items))| {
                buffer.clear();
                format(buffer, b * batch + c * chunk, items)
            })
            .map(|()| items.len().div_ceil(chunk))
    };
    let write_all = |buffers: &[Vec<u8>], out: &mut dyn Write| {
        buffers.iter().try_for_each(|buffer| out.write_all(buffer))
    };
    let ChunkBuffers { ready, next } = buffers;
    // How many of `ready` hold the batch formatted last.
    let mut filled = 0;
    for (b, items) in items.chunks(batch).enumerate() {
        let mut formatted = Ok(0);
        let mut written = Ok(());
        rayon::in_place_scope(|scope| {
            scope.spawn(|_| formatted = format_batch(next, b, items));
            written = write_all(&ready[..filled], out);
        });
        written?;
        filled = formatted?;
        std::mem::swap(ready, next);
    }
    write_all(&ready[..filled], out)?;
    Ok(())
}

/// Why a report could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Writing failed.
    #[error("cannot write the report: {0}")]
    Io(#[from] std::io::Error),
    /// JSON could not be written or parsed.
    #[error("invalid JSON report: {0}")]
    Json(#[from] serde_json::Error),
    /// The report was written by a newer program.
    #[error(
        "the report has schema version {found}, newer than the supported {supported}; upgrade copyhound"
    )]
    NewerSchema {
        /// The version in the file.
        found: u32,
        /// The version this library writes.
        supported: u32,
    },
}
