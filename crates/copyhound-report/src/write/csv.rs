//! The CSV report: one row per listed pair. The first three columns are
//! fixed (`a,b,similarity`) so scripts can rely on them; `a` and `b` are
//! unit paths relative to the input path they came from. The last column
//! is the pair's language (both units have it).

use std::io::Write;

use super::numbers::{push_count, push_share};
use crate::{Report, ReportError};

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

/// Rows are gathered in one buffer and written when it holds this many
/// bytes.
const FLUSH_AT: usize = 1 << 16;

/// Writes the pairs of `report` as CSV. Shares are fractions in `[0, 1]`
/// with six decimals; unknown line shares are empty.
///
/// Every field is written as the `csv` crate writes it by default, but the
/// rows are made by hand in one reused buffer, numbers included: the CSV
/// can have millions of rows, and formatting each number on its own cost
/// more than everything else the report does.
pub fn write_csv(report: &Report, mut out: impl Write) -> Result<(), ReportError> {
    let mut rows = Vec::with_capacity(FLUSH_AT + 1024);
    rows.extend_from_slice(CSV_HEADER.join(",").as_bytes());
    rows.push(b'\n');
    for pair in &report.pairs {
        push_text(&mut rows, &pair.a.path);
        rows.push(b',');
        push_text(&mut rows, &pair.b.path);
        for share in [pair.similarity, pair.a.coverage, pair.b.coverage] {
            rows.push(b',');
            push_share(&mut rows, share);
        }
        for share in [pair.a.line_coverage, pair.b.line_coverage] {
            rows.push(b',');
            if let Some(share) = share {
                push_share(&mut rows, share);
            }
        }
        for count in [
            pair.longest_fragment,
            pair.total_overlap,
            pair.shared_fingerprints,
            pair.fragment_count,
        ] {
            rows.push(b',');
            push_count(&mut rows, count);
        }
        rows.push(b',');
        push_text(&mut rows, report.pair_language(pair).unwrap_or_default());
        rows.push(b'\n');
        if rows.len() >= FLUSH_AT {
            out.write_all(&rows)?;
            rows.clear();
        }
    }
    out.write_all(&rows)?;
    out.flush()?;
    Ok(())
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
