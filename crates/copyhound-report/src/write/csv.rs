//! The CSV report: one row per listed pair. The first three columns are
//! fixed (`a,b,similarity`) so scripts can rely on them; `a` and `b` are
//! unit paths relative to the input path they came from. The last column
//! is the pair's language (both units have it).

use std::io::Write;

use super::numbers::NumberText;
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

/// Writes the pairs of `report` as CSV. Shares are fractions in `[0, 1]`
/// with six decimals; unknown line shares are empty.
pub fn write_csv(report: &Report, out: impl Write) -> Result<(), ReportError> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(CSV_HEADER)?;
    // Fields go straight to the writer, numbers through one buffer: the
    // CSV can have millions of rows.
    let mut number = NumberText::default();
    for pair in &report.pairs {
        writer.write_field(&pair.a.path)?;
        writer.write_field(&pair.b.path)?;
        for share in [pair.similarity, pair.a.coverage, pair.b.coverage] {
            writer.write_field(number.share(share))?;
        }
        for share in [pair.a.line_coverage, pair.b.line_coverage] {
            writer.write_field(share.map_or(&[][..], |x| number.share(x)))?;
        }
        for count in [
            pair.longest_fragment,
            pair.total_overlap,
            pair.shared_fingerprints,
            pair.fragment_count,
        ] {
            writer.write_field(number.integer(count))?;
        }
        writer.write_field(report.pair_language(pair).unwrap_or_default())?;
        writer.write_record(None::<&[u8]>)?;
    }
    writer.flush()?;
    Ok(())
}
