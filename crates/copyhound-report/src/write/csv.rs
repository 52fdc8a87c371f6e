//! The CSV report: one row per listed pair. The first three columns are
//! fixed (`a,b,similarity`) so scripts can rely on them; `a` and `b` are
//! unit paths relative to the input path they came from. The last column
//! is the pair's language (both units have it).

use std::io::Write;

use rayon::prelude::*;

use super::numbers::{push_count, push_share};
use crate::{PairReport, Report, ReportError};

/// The header row.
pub const CSV_HEADER: [&str; 12] = [
    "a",
    "b",
    "similarity",
    "coverage_a",
    "coverage_b",
    "line_coverage_a",
    "line_coverage_b",
    "longest_fragment",
    "total_overlap",
    "shared_fingerprints",
    "fragments",
    "language",
];

/// Rows are formatted this many at a time, each chunk on its own thread
/// into its own buffer.
const CHUNK_ROWS: usize = 1024;

/// Chunks formatted before they are written, in order. Their buffers are
/// reused from batch to batch: fresh memory costs a page fault per 4 KiB.
const CHUNKS_AT_ONCE: usize = 8;

/// Writes the pairs of `report` as CSV. Shares are fractions in `[0, 1]`
/// with six decimals; unknown line shares are empty.
///
/// Every field is written as the `csv` crate writes it by default, but the
/// rows are made by hand, numbers included: the CSV can have millions of
/// rows, and formatting each number on its own cost more than everything
/// else the report does. Chunks of rows are formatted in parallel, as
/// writing the rows on one thread was a tenth of a small batch's time.
pub fn write_csv(report: &Report, mut out: impl Write) -> Result<(), ReportError> {
    let mut header = CSV_HEADER.join(",").into_bytes();
    header.push(b'\n');
    out.write_all(&header)?;
    let mut buffers = vec![Vec::new(); CHUNKS_AT_ONCE];
    for batch in report.pairs.chunks(CHUNK_ROWS * CHUNKS_AT_ONCE) {
        let chunks = batch.par_chunks(CHUNK_ROWS);
        buffers
            .par_iter_mut()
            .zip(chunks)
            .for_each(|(rows, pairs)| {
                rows.clear();
                for pair in pairs {
                    push_row(rows, report, pair);
                }
            });
        let used = batch.len().div_ceil(CHUNK_ROWS);
        for rows in &buffers[..used] {
            out.write_all(rows)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Appends the row of `pair`, its line break included.
fn push_row(rows: &mut Vec<u8>, report: &Report, pair: &PairReport) {
    push_text(rows, &pair.a.path);
    rows.push(b',');
    push_text(rows, &pair.b.path);
    for share in [pair.similarity, pair.a.coverage, pair.b.coverage] {
        rows.push(b',');
        push_share(rows, share);
    }
    for share in [pair.a.line_coverage, pair.b.line_coverage] {
        rows.push(b',');
        if let Some(share) = share {
            push_share(rows, share);
        }
    }
    for count in [
        pair.longest_fragment,
        pair.total_overlap,
        pair.shared_fingerprints,
        pair.fragment_count,
    ] {
        rows.push(b',');
        push_count(rows, count);
    }
    rows.push(b',');
    push_text(rows, report.pair_language(pair).unwrap_or_default());
    rows.push(b'\n');
}

/// Appends `text` as a field: as it is, or quoted with its quotes doubled
/// when it holds a comma, a quote or a line break (what the `csv` crate
/// does by default).
fn push_text(row: &mut Vec<u8>, text: &str) {
    if text
        .bytes()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        row.push(b'"');
        for part in text.split_inclusive('"') {
            row.extend_from_slice(part.as_bytes());
            if part.ends_with('"') {
                row.push(b'"');
            }
        }
        row.push(b'"');
    } else {
        row.extend_from_slice(text.as_bytes());
    }
}
