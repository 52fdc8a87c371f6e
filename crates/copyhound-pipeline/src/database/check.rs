//! `db check`: every file of a text database read, and the one-line verdict.

use std::path::Path;

use copyhound_db::CheckReport;

use super::{DatabaseError, refuse_archive};

/// Reads every file of the database at `dir` and reports damage; a code
/// archive is refused.
pub fn check(dir: &Path) -> Result<CheckReport, DatabaseError> {
    refuse_archive(dir)?;
    Ok(copyhound_db::check(dir)?)
}

/// The verdict `db check` prints: the counts read, or how many problems.
pub fn verdict(report: &CheckReport) -> String {
    if report.is_ok() {
        format!(
            "ok: {} documents, {} segments, {} postings",
            report.documents, report.segments, report.postings
        )
    } else {
        format!("damaged: {} problems", report.problems.len())
    }
}
