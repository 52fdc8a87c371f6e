//! Reports of a copyhound comparison.
//!
//! - [`Report`]: the serde model — parameters, units, pairs with their
//!   metrics, and fragments with symbol, byte and line ranges on both
//!   sides — built from a [`copyhound_index::Comparison`] by
//!   [`Report::build`]; the reports of a batch's languages are joined by
//!   [`Report::merge`].
//! - [`write_json`] / [`read_json`]: the report as JSON with a
//!   [`SCHEMA_VERSION`]; [`write_json_with_details`] writes the same from
//!   a report built without details ([`Report::build_without_details`]),
//!   finding the fragments of its most similar pairs ([`PairDetails`],
//!   [`DEFAULT_JSON_DETAILED_PAIRS`] by default in the command line) as it
//!   goes. A pair without details has no `fragments` and no `passages`
//!   key, and `summary.detailed_pairs` says how many pairs have them.
//! - [`write_csv`]: one row per pair, starting `a,b,similarity` and
//!   ending with each unit's [`UnitOrigin`] ([`write_csv_of`] writes it
//!   straight from the comparisons).
//! - [`write_table`]: the top pairs for the terminal.
//! - [`write_html`]: one self-contained page to browse the pairs and their
//!   fragments side by side, and to review them (marks and notes kept in
//!   the browser, exported as CSV); [`html_parts`], its style sheet and
//!   pair-drawing script, for other pages that show pairs the same way.
//! - [`create_report_file`]: the file a report goes to, an existing one
//!   replaced rather than truncated.
//!
//! ```
//! use copyhound_index::{Comparison, Unit};
//! use copyhound_report::{Parameters, Report, ReportInput, Tool, write_csv};
//!
//! let tool = Tool { name: "copyhound".into(), version: "0.1.0".into() };
//! let report = Report::build(ReportInput {
//!     tool: &tool,
//!     parameters: &Parameters::default(),
//!     units: &[],
//!     roots: &[],
//!     origins: None,
//!     comparison: &Comparison::default(),
//!     problems: &[],
//!     pair_limit: None,
//! });
//! let mut csv = Vec::new();
//! write_csv(&report, &mut csv).unwrap();
//! assert!(csv.starts_with(b"a,b,similarity,"));
//! ```
#![deny(missing_docs)]

mod build;
mod merge;
mod model;
mod write;

pub use build::{PairDetails, ReportInput};
pub use model::{
    BelowMinimum, CellLocation, CodeParameters, DocumentReport, FragmentReport, LanguageParameters,
    Location, MissingPairs, MissingReason, PairReport, PairSide, Parameters, PassageReport,
    Problem, ProblemKind, Report, SCHEMA_VERSION, Summary, Tool, UnitOrigin, UnitReport, UnitRole,
    Unlisted,
};
pub use write::{
    CSV_HEADER, DEFAULT_HTML_MAX_DOCUMENT_BYTES, DEFAULT_HTML_MAX_PAIRS,
    DEFAULT_JSON_DETAILED_PAIRS, FORMULA_STARTS, HtmlOptions, ReportError, create_report_file,
    html_parts, read_json, terminal_safe, undetailed_pairs_note, write_csv, write_csv_of,
    write_html, write_json, write_json_with_details, write_table,
};
