//! `db check`: every file of a text database read, and what it found.

use std::path::Path;

use copyhound_db::CheckReport;

use super::{DatabaseError, refuse_archive};
use crate::Line;

/// Reads every file of the database at `dir` and reports damage; a code
/// archive is refused.
pub fn check(dir: &Path) -> Result<CheckReport, DatabaseError> {
    refuse_archive(dir)?;
    Ok(copyhound_db::check(dir)?)
}

/// What `db check` prints: each warning, each problem as an error, then
/// the verdict: the counts read, or how many problems.
pub fn check_lines(report: &CheckReport) -> Vec<Line> {
    let warnings = report.warnings.iter().cloned().map(Line::Warning);
    let problems = report.problems.iter().cloned().map(Line::Error);
    let verdict = if report.is_ok() {
        format!(
            "ok: {} documents, {} segments, {} postings",
            report.documents, report.segments, report.postings
        )
    } else {
        format!("damaged: {} problems", report.problems.len())
    };
    warnings
        .chain(problems)
        .chain([Line::Out(verdict)])
        .collect()
}
