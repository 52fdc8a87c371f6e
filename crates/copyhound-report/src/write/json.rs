//! The JSON report: the whole model, pretty-printed, with its schema
//! version first so readers can check it before anything else.
//!
//! A report built without details is written with the fragments and
//! passages of its most similar pairs found as it is written
//! ([`write_json_with_details`]): the same bytes as the complete report
//! with the details of the other pairs removed, without ever holding more
//! than a chunk of pairs' fragments. Listing every pair's fragments can
//! take gigabytes (a class of 200 multi-file submissions: 2.4 GB), hence
//! [`DEFAULT_JSON_DETAILED_PAIRS`].

use std::io::{Read, Write};

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::Value;

use crate::{
    PairDetails, PairReport, Parameters, Problem, Report, ReportError, SCHEMA_VERSION, Summary,
    Tool, UnitReport,
};

/// Pairs a JSON report lists with their fragments and passages unless
/// told otherwise: the most similar ones, more than anyone reads, few
/// enough that the file stays small whatever the batch.
pub const DEFAULT_JSON_DETAILED_PAIRS: usize = 1000;

/// Writes `report` as pretty-printed JSON followed by a newline.
pub fn write_json(report: &Report, out: impl Write) -> Result<(), ReportError> {
    write_pretty(report, out)
}

/// Writes `report`, built without details, as [`write_json`] writes the
/// complete report with the fragments and passages of only its
/// `detailed_pairs` most similar pairs (`usize::MAX` for all): `details`
/// fills them in as they are written, a chunk of pairs at a time.
pub fn write_json_with_details(
    report: &Report,
    details: &PairDetails<'_>,
    detailed_pairs: usize,
    out: impl Write,
) -> Result<(), ReportError> {
    let detailed = detailed_pairs.min(report.pairs.len());
    let streamed = StreamedReport {
        schema_version: report.schema_version,
        tool: &report.tool,
        parameters: &report.parameters,
        summary: &Summary {
            detailed_pairs: detailed,
            ..report.summary.clone()
        },
        units: &report.units,
        pairs: DetailedPairs {
            detailed: &report.pairs[..detailed],
            others: &report.pairs[detailed..],
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

/// The pairs of a report: those written with their details, then the
/// others.
struct DetailedPairs<'a> {
    detailed: &'a [PairReport],
    others: &'a [PairReport],
    details: &'a PairDetails<'a>,
}

impl Serialize for DetailedPairs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let length = self.detailed.len() + self.others.len();
        let mut seq = serializer.serialize_seq(Some(length))?;
        self.details
            .fill_each(self.detailed, |pair| seq.serialize_element(pair))?;
        for pair in self.others {
            if pair.has_details() {
                let mut summary = pair.clone();
                summary.remove_details();
                seq.serialize_element(&summary)?;
            } else {
                seq.serialize_element(pair)?;
            }
        }
        seq.end()
    }
}

/// Reads a JSON report, refusing one of a newer schema version; one of
/// version 1 is read as the current version says the same.
pub fn read_json(input: impl Read) -> Result<Report, ReportError> {
    let mut value: Value = serde_json::from_reader(input)?;
    let found = value
        .get("schema_version")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if found > u64::from(SCHEMA_VERSION) {
        return Err(ReportError::NewerSchema {
            found: found as u32,
            supported: SCHEMA_VERSION,
        });
    }
    if found < 2 {
        upgrade_from_version_1(&mut value);
    }
    Ok(serde_json::from_value(value)?)
}

/// A version-1 report as version 2 says it: version 1 listed the
/// fragments of every pair and passages (of every pair, once they
/// existed), and counted the fragments nowhere else.
fn upgrade_from_version_1(report: &mut Value) {
    let Some(report) = report.as_object_mut() else {
        return;
    };
    let mut detailed = 0;
    if let Some(pairs) = report.get_mut("pairs").and_then(Value::as_array_mut) {
        for pair in pairs.iter_mut().filter_map(Value::as_object_mut) {
            let count = pair
                .get("fragments")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            pair.insert("fragment_count".into(), count.into());
            pair.entry("passages")
                .or_insert_with(|| Value::Array(Vec::new()));
            detailed += 1;
        }
    }
    if let Some(summary) = report.get_mut("summary").and_then(Value::as_object_mut) {
        summary.insert("detailed_pairs".into(), detailed.into());
    }
    report.insert("schema_version".into(), SCHEMA_VERSION.into());
}
