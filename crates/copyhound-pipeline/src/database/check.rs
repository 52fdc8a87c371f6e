//! `db check`: every file of a text database, or every unit of a code
//! archive, read; and what it found.

use std::path::Path;

use copyhound_db::code_archive::check_archive;

use super::DatabaseError;
use crate::Line;
use crate::code_archive::is_archive;

/// What `db check` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// What was read, in words (`4 documents, 1 segments, 400 postings`).
    pub counts: String,
    /// Damage, each naming the file: the database is not sound.
    pub problems: Vec<String>,
    /// Harmless findings, such as files a crash left behind.
    pub warnings: Vec<String>,
}

impl Checked {
    /// Whether no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Reads every file of the database at `dir`, or every unit of the code
/// archive there, and reports damage.
pub fn check(dir: &Path) -> Result<Checked, DatabaseError> {
    if is_archive(dir) {
        let report = check_archive(dir)?;
        return Ok(Checked {
            counts: format!(
                "{} units, {} files (code archive)",
                report.units, report.files
            ),
            problems: report.problems,
            warnings: report.warnings,
        });
    }
    let report = copyhound_db::check(dir)?;
    Ok(Checked {
        counts: format!(
            "{} documents, {} segments, {} postings",
            report.documents, report.segments, report.postings
        ),
        problems: report.problems,
        warnings: report.warnings,
    })
}

/// What `db check` prints: each warning, each problem as an error, then
/// the verdict: the counts read, or how many problems.
pub fn check_lines(report: &Checked) -> Vec<Line> {
    let warnings = report.warnings.iter().cloned().map(Line::Warning);
    let problems = report.problems.iter().cloned().map(Line::Error);
    let verdict = if report.is_ok() {
        format!("ok: {}", report.counts)
    } else {
        format!("damaged: {} problems", report.problems.len())
    };
    warnings
        .chain(problems)
        .chain([Line::Out(verdict)])
        .collect()
}
