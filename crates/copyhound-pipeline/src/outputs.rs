//! A comparison's outputs as `copyhound compare` writes them: the JSON,
//! CSV and HTML reports (files, or one of them on standard output) and the
//! table of the most similar pairs, on standard output or, when a report
//! is there, on standard error. Pair fragments are found again only for
//! what an output shows: the JSON as it writes each pair, the HTML page for
//! the pairs it embeds.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use copyhound_report::{
    DEFAULT_HTML_MAX_PAIRS, DEFAULT_JSON_DETAILED_PAIRS, HtmlOptions, PairDetails, Report,
    ReportError, Tool, create_report_file, undetailed_pairs_note, write_csv_of, write_html,
    write_json_with_details, write_table,
};

use crate::{Line, Outcome, PipelineError};

/// The path that names standard output.
pub const STDOUT: &str = "-";

/// Where a comparison's reports go, and how much each shows.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// The JSON report's file.
    pub json: Option<PathBuf>,
    /// Pairs the JSON lists with their fragments and passages (the most
    /// similar); the others have only their scores.
    pub json_details: usize,
    /// The CSV report's file: one row per pair.
    pub csv: Option<PathBuf>,
    /// The HTML page's file.
    pub html: Option<PathBuf>,
    /// Pairs the HTML page embeds (the most similar).
    pub html_pairs: usize,
    /// Rows of the table.
    pub table_rows: usize,
}

impl Default for Outputs {
    /// No report files, and the table of the 20 most similar pairs.
    fn default() -> Self {
        Self {
            json: None,
            json_details: DEFAULT_JSON_DETAILED_PAIRS,
            csv: None,
            html: None,
            html_pairs: DEFAULT_HTML_MAX_PAIRS,
            table_rows: 20,
        }
    }
}

/// What writing the outputs built: the report and the pairs' details. A
/// process about to end may leave freeing them to the operating system.
pub struct Written<'a> {
    /// The report the outputs were written from.
    pub report: Report,
    /// The pairs' fragments, found again for the outputs.
    pub details: PairDetails<'a>,
}

impl Outputs {
    /// The reports that go to standard output (`-`); at most one may.
    fn on_stdout(&self) -> usize {
        [&self.json, &self.csv, &self.html]
            .into_iter()
            .filter(|path| path.as_deref() == Some(Path::new(STDOUT)))
            .count()
    }

    /// Refuses two reports on standard output, before anything is compared.
    pub fn check(&self) -> Result<(), PipelineError> {
        if self.on_stdout() > 1 {
            return Err(PipelineError::ReportsOnStdout);
        }
        Ok(())
    }

    /// Writes every report `outcome` is asked for and the table; a report
    /// on `stdout` is all it carries, and the table goes to `stderr` then.
    /// What the user should know (pairs the JSON lists without details)
    /// goes to `on`.
    pub fn write<'a>(
        &self,
        outcome: &'a Outcome,
        tool: &'a Tool,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
        on: &mut dyn FnMut(Line),
    ) -> Result<Written<'a>, PipelineError> {
        let details = outcome.pair_details(tool);
        // The CSV is written straight from the comparisons; without JSON or
        // HTML the report lists only the pairs the table shows.
        let listed = (self.json.is_none() && self.html.is_none()).then_some(self.table_rows);
        let mut report = outcome.report(tool, listed);
        if let Some(path) = &self.json {
            write_to(path, stdout, |out| {
                write_json_with_details(&report, &details, self.json_details, out)
            })?;
            if let Some(note) = undetailed_pairs_note(self.json_details, report.pairs.len()) {
                on(Line::Note(format!("{}: {note}", path.display())));
            }
        }
        if let Some(path) = &self.csv {
            write_to(path, stdout, |out| {
                write_csv_of(&outcome.report_inputs(tool), out)
            })?;
        }
        if let Some(path) = &self.html {
            let options = HtmlOptions {
                max_pairs: self.html_pairs,
                ..HtmlOptions::default()
            };
            report.fill_details(&details, options.max_pairs);
            let source = |unit, document| outcome.document_text(&report, unit, document);
            write_to(path, stdout, |out| {
                write_html(&report, source, &options, out)
            })?;
        }
        let rows = self.table_rows;
        if self.on_stdout() > 0 {
            write_table(&report, rows, stderr)
                .map_err(|error| PipelineError::write_report("cannot write to stderr", error))?;
        } else {
            write_table(&report, rows, stdout)
                .map_err(|error| PipelineError::write_report("cannot write to stdout", error))?;
        }
        Ok(Written { report, details })
    }
}

/// Writes a report to the file at `path`, or to `stdout` when it is `-`.
fn write_to(
    path: &Path,
    stdout: &mut dyn Write,
    write: impl FnOnce(&mut dyn Write) -> Result<(), ReportError>,
) -> Result<(), PipelineError> {
    if path == Path::new(STDOUT) {
        let context = "cannot write the report to stdout";
        let mut out = BufWriter::new(stdout);
        write(&mut out).map_err(|error| PipelineError::write_report(context, error))?;
        return out
            .flush()
            .map_err(|error| PipelineError::write_report(context, error));
    }
    let file = create_report_file(path).map_err(|error| {
        PipelineError::write_report(format!("{}: cannot create", path.display()), error)
    })?;
    let context = || format!("{}: cannot write the report", path.display());
    let mut out = BufWriter::new(file);
    write(&mut out).map_err(|error| PipelineError::write_report(context(), error))?;
    out.flush()
        .map_err(|error| PipelineError::write_report(context(), error))
}
