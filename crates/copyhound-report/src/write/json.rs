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
//!
//! The pairs are most of the file (12.8 MB for 20,910 pairs without
//! details), and serialising them on one thread was the largest cost left
//! in a comparison: they are serialised in parallel chunks, each pair at
//! its depth in the document ([`PrettyAtDepth`]), and written in order.
//! The bytes are those of `serde_json::to_writer_pretty` (a test compares
//! them).

use std::io::{Read, Write};

use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::{Serializer, Value};

use super::pretty::PrettyAtDepth;
use super::{ChunkBuffers, write_in_chunks};
use crate::{PairDetails, PairReport, Report, ReportError, SCHEMA_VERSION, Summary};

/// Pairs a JSON report lists with their fragments and passages unless
/// told otherwise: the most similar ones, more than anyone reads, few
/// enough that the file stays small whatever the batch.
pub const DEFAULT_JSON_DETAILED_PAIRS: usize = 1000;

/// What a JSON report with the details of only the `detailed` most
/// similar of its `pairs` leaves out, said to its user; `None` when every
/// pair has them.
pub fn undetailed_pairs_note(detailed: usize, pairs: usize) -> Option<String> {
    let which = match detailed {
        _ if detailed >= pairs => return None,
        0 => format!("none of the {pairs} pairs"),
        n => format!("only the {n} most similar of {pairs} pairs"),
    };
    Some(format!(
        "fragments and passages listed for {which}; --json-details all lists them for every pair"
    ))
}

/// Pairs without details serialised before they are written; their
/// JSON is about 600 bytes each.
const PAIRS_AT_ONCE: usize = 2048;

/// Pairs with details serialised before they are written: their
/// fragments can make them a hundred times longer.
const DETAILED_PAIRS_AT_ONCE: usize = 256;

/// Chunks the pairs serialised at once are split into, each serialised
/// on its own thread into its own buffer. The buffers are reused: fresh
/// memory costs a page fault per 4 KiB.
const CHUNKS_AT_ONCE: usize = 8;

/// Depth of the report's fields in the document, and of its pairs.
const FIELD_DEPTH: usize = 1;
const PAIR_DEPTH: usize = 2;

/// Writes `report` as pretty-printed JSON followed by a newline.
pub fn write_json(report: &Report, out: impl Write) -> Result<(), ReportError> {
    write_report(report, &report.summary, out, |pairs| {
        pairs.write(&report.pairs, Listed::AsTheyAre)
    })
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
    let summary = Summary {
        detailed_pairs: detailed,
        ..report.summary.clone()
    };
    let (detailed, others) = report.pairs.split_at(detailed);
    write_report(report, &summary, out, |pairs| {
        details.fill_chunks(detailed, |chunk| pairs.write(chunk, Listed::AsTheyAre))?;
        pairs.write(others, Listed::WithoutDetails)
    })
}

/// Writes `report` with `summary` as `serde_json::to_writer_pretty` would
/// (the fields and their order are the report's), then a newline, its
/// pairs written by `write_pairs`.
fn write_report<W: Write>(
    report: &Report,
    summary: &Summary,
    out: W,
    write_pairs: impl FnOnce(&mut PairArray<'_, W>) -> Result<(), ReportError>,
) -> Result<(), ReportError> {
    let mut fields = Fields::begin(out)?;
    fields.field("schema_version", &report.schema_version)?;
    fields.field("tool", &report.tool)?;
    fields.field("parameters", &report.parameters)?;
    fields.field("summary", summary)?;
    fields.field("units", &report.units)?;
    fields.field_with("pairs", |out| {
        let mut pairs = PairArray::begin(out)?;
        write_pairs(&mut pairs)?;
        pairs.end()
    })?;
    fields.field("problems", &report.problems)?;
    let mut out = fields.end()?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// The report's object, written a field at a time.
struct Fields<W> {
    out: W,
    formatter: PrettyAtDepth,
    first: bool,
}

impl<W: Write> Fields<W> {
    fn begin(mut out: W) -> Result<Self, ReportError> {
        let mut formatter = PrettyAtDepth::new(0);
        formatter.begin_object(&mut out)?;
        Ok(Self {
            out,
            formatter,
            first: true,
        })
    }

    fn field(&mut self, name: &str, value: &impl Serialize) -> Result<(), ReportError> {
        self.field_with(name, |out| {
            let formatter = PrettyAtDepth::new(FIELD_DEPTH);
            Ok(value.serialize(&mut Serializer::with_formatter(out, formatter))?)
        })
    }

    /// Writes the key `name` and the value `write` writes.
    fn field_with(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut W) -> Result<(), ReportError>,
    ) -> Result<(), ReportError> {
        self.formatter.begin_object_key(&mut self.out, self.first)?;
        self.first = false;
        serde_json::to_writer(&mut self.out, name)?;
        self.formatter.begin_object_value(&mut self.out)?;
        write(&mut self.out)?;
        self.formatter.end_object_value(&mut self.out)?;
        Ok(())
    }

    fn end(mut self) -> Result<W, ReportError> {
        self.formatter.end_object(&mut self.out)?;
        Ok(self.out)
    }
}

/// How the pairs given to [`PairArray::write`] are listed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listed {
    AsTheyAre,
    WithoutDetails,
}

/// The report's pairs, written in order as they are given, a batch at a
/// time: the pairs of a batch are serialised in parallel chunks into
/// buffers kept from batch to batch and from call to call, and written
/// while the next batch is serialised ([`write_in_chunks`]).
struct PairArray<'a, W> {
    out: &'a mut W,
    formatter: PrettyAtDepth,
    buffers: ChunkBuffers,
    written: usize,
}

impl<'a, W: Write> PairArray<'a, W> {
    fn begin(out: &'a mut W) -> Result<Self, ReportError> {
        let mut formatter = PrettyAtDepth::new(FIELD_DEPTH);
        formatter.begin_array(out)?;
        Ok(Self {
            out,
            formatter,
            buffers: ChunkBuffers::new(CHUNKS_AT_ONCE),
            written: 0,
        })
    }

    /// Writes `pairs` next.
    fn write(&mut self, pairs: &[PairReport], listed: Listed) -> Result<(), ReportError> {
        let detailed = listed == Listed::AsTheyAre && pairs.iter().any(PairReport::has_details);
        let at_once = if detailed {
            DETAILED_PAIRS_AT_ONCE
        } else {
            PAIRS_AT_ONCE
        };
        let starts_array = self.written == 0;
        write_in_chunks(
            pairs,
            at_once,
            &mut self.buffers,
            self.out,
            |buffer, start, chunk| {
                for (i, pair) in chunk.iter().enumerate() {
                    push_pair(buffer, pair, listed, starts_array && start + i == 0)?;
                }
                Ok(())
            },
        )?;
        self.written += pairs.len();
        Ok(())
    }

    fn end(mut self) -> Result<(), ReportError> {
        if self.written > 0 {
            self.formatter.end_array_value(self.out)?;
        }
        self.formatter.end_array(self.out)?;
        Ok(())
    }
}

/// Appends `pair` as an element of the report's pairs, the comma before
/// it included unless it is the `first`.
fn push_pair(
    buffer: &mut Vec<u8>,
    pair: &PairReport,
    listed: Listed,
    first: bool,
) -> serde_json::Result<()> {
    let mut formatter = PrettyAtDepth::new(PAIR_DEPTH);
    formatter
        .begin_array_value(buffer, first)
        .map_err(serde_json::Error::io)?;
    let mut serializer = Serializer::with_formatter(buffer, formatter);
    if listed == Listed::WithoutDetails && pair.has_details() {
        let mut summary = pair.clone();
        summary.remove_details();
        summary.serialize(&mut serializer)
    } else {
        pair.serialize(&mut serializer)
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
    add_origins(&mut value);
    Ok(serde_json::from_value(value)?)
}

/// Gives each unit without an `origin` (a report written before units
/// had one) the origin of its role.
fn add_origins(report: &mut Value) {
    let Some(units) = report.get_mut("units").and_then(Value::as_array_mut) else {
        return;
    };
    for unit in units.iter_mut().filter_map(Value::as_object_mut) {
        if !unit.contains_key("origin") {
            let role = unit.get("role").cloned().unwrap_or(Value::Null);
            unit.insert("origin".into(), role);
        }
    }
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
