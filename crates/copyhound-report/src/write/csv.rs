//! The CSV report: one row per listed pair. The first three columns are
//! fixed (`a,b,similarity`) so scripts can rely on them; `a` and `b` are
//! unit paths relative to the input path they came from. The last column
//! is the pair's language (both units have it).

use std::io::Write;

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
    let share = |x: f64| format!("{x:.6}");
    for pair in &report.pairs {
        writer.write_record([
            pair.a.path.clone(),
            pair.b.path.clone(),
            share(pair.similarity),
            share(pair.a.coverage),
            share(pair.b.coverage),
            pair.a.line_coverage.map(share).unwrap_or_default(),
            pair.b.line_coverage.map(share).unwrap_or_default(),
            pair.longest_fragment.to_string(),
            pair.total_overlap.to_string(),
            pair.shared_fingerprints.to_string(),
            pair.fragment_count.to_string(),
            report.pair_language(pair).unwrap_or_default().to_owned(),
        ])?;
    }
    writer.flush()?;
    Ok(())
}
