//! The JSON report: the whole model, pretty-printed, with its schema
//! version first so readers can check it before anything else.
//!
//! A report built without details is written with each pair's fragments
//! and passages found as it is written ([`write_json_with_details`]): the
//! same bytes as the complete report, without ever holding every pair's
//! fragments.

use std::io::{Read, Write};

use serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::{
    PairDetails, PairReport, Parameters, Problem, Report, ReportError, SCHEMA_VERSION, Summary,
    Tool, UnitReport,
};

/// Writes `report` as pretty-printed JSON followed by a newline.
pub fn write_json(report: &Report, out: impl Write) -> Result<(), ReportError> {
    write_pretty(report, out)
}

/// Writes `report`, built without details, as [`write_json`] writes the
/// complete report: `details` fills in each pair's fragments and passages
/// as it is written, a chunk of pairs at a time.
pub fn write_json_with_details(
    report: &Report,
    details: &PairDetails<'_>,
    out: impl Write,
) -> Result<(), ReportError> {
    let streamed = StreamedReport {
        schema_version: report.schema_version,
        tool: &report.tool,
        parameters: &report.parameters,
        summary: &report.summary,
        units: &report.units,
        pairs: DetailedPairs {
            pairs: &report.pairs,
            details,
        },
        problems: &report.problems,
    };
    write_pretty(&streamed, out)
}

fn write_pretty(value: &impl Serialize, mut out: impl Write) -> Result<(), ReportError> {
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// [`Report`] as it serialises, with the pairs detailed on the fly. The
/// fields and their order are the report's (a test compares the bytes).
#[derive(serde::Serialize)]
struct StreamedReport<'a> {
    schema_version: u32,
    tool: &'a Tool,
    parameters: &'a Parameters,
    summary: &'a Summary,
    units: &'a [UnitReport],
    pairs: DetailedPairs<'a>,
    problems: &'a [Problem],
}

struct DetailedPairs<'a> {
    pairs: &'a [PairReport],
    details: &'a PairDetails<'a>,
}

impl Serialize for DetailedPairs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.pairs.len()))?;
        self.details
            .fill_each(self.pairs, |pair| seq.serialize_element(pair))?;
        seq.end()
    }
}

/// Reads a JSON report, refusing one of a newer schema version.
pub fn read_json(input: impl Read) -> Result<Report, ReportError> {
    let value: serde_json::Value = serde_json::from_reader(input)?;
    let found = value
        .get("schema_version")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    if found > u64::from(SCHEMA_VERSION) {
        return Err(ReportError::NewerSchema {
            found: found as u32,
            supported: SCHEMA_VERSION,
        });
    }
    let mut report: Report = serde_json::from_value(value)?;
    for pair in &mut report.pairs {
        pair.fragment_count = pair.fragments.len();
    }
    Ok(report)
}
