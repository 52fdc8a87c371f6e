//! The CSV report: one row per listed pair. The first three columns are
//! fixed (`a,b,similarity`) so scripts can rely on them; `a` and `b` are
//! unit paths relative to the input path they came from. Then come the
//! scores, the pair's language (both units have it), and where each unit
//! came from (`new`, `old` or `archive`). Scripts read the columns by
//! name: new ones are added at the end. A name that starts like a
//! spreadsheet formula is written with a leading `'` (see [`push_text`]).

use std::io::Write;

use super::numbers::{push_count, push_share};
use super::{ChunkBuffers, write_in_chunks};
use copyhound_index::{PairScore, UnitSummary};

use crate::{PairReport, Report, ReportError, ReportInput, UnitOrigin};

/// The header row.
pub const CSV_HEADER: [&str; 14] = [
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
    "a_origin",
    "b_origin",
];

/// What a cell a spreadsheet runs as a formula starts with.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Rows are formatted this many at a time, each chunk on its own thread
/// into its own buffer.
const CHUNK_ROWS: usize = 1024;

/// Chunks formatted before they are written, in order. Their buffers are
/// reused from batch to batch: fresh memory costs a page fault per 4 KiB.
const CHUNKS_AT_ONCE: usize = 8;

/// Writes the pairs of `report` as CSV. Shares are fractions in `[0, 1]`
/// with six decimals; unknown line shares are empty.
///
/// Every field is written as the `csv` crate writes it by default, but the
/// rows are made by hand, numbers included: the CSV can have millions of
/// rows, and formatting each number on its own cost more than everything
/// else the report does. Chunks of rows are formatted in parallel, as
/// writing the rows on one thread was a tenth of a small batch's time.
pub fn write_csv(report: &Report, out: impl Write) -> Result<(), ReportError> {
    write_rows(&report.pairs, |pair| Row::of_report(report, pair), out)
}

/// Writes the CSV that [`write_csv`] writes of the report of `inputs` (the
/// comparisons of one batch's languages, in the order given to
/// [`Report::merge`]), straight from the comparisons: a batch that asks
/// only for the CSV does not build a report entry, with two path strings,
/// for each of its pairs.
pub fn write_csv_of(inputs: &[ReportInput<'_>], out: impl Write) -> Result<(), ReportError> {
    let fields: Vec<InputFields> = inputs.iter().map(InputFields::of).collect();
    if let ([input], [fields]) = (inputs, &fields[..]) {
        return write_rows(listed(input), |pair| Row::of_score(fields, pair), out);
    }
    // As `Report::merge` lists them: one language after another, then a
    // stable sort by similarity.
    let mut order: Vec<(&InputFields, &PairScore)> = inputs
        .iter()
        .zip(&fields)
        .flat_map(|(input, fields)| listed(input).iter().map(move |pair| (fields, pair)))
        .collect();
    order.sort_by(|(_, x), (_, y)| y.similarity.total_cmp(&x.similarity));
    write_rows(&order, |&(fields, pair)| Row::of_score(fields, pair), out)
}

/// What the rows of one input's pairs share: its units' summaries, and
/// its text fields escaped once (a unit's name is in as many rows as it
/// has pairs, and checking it for special bytes each time cost a fifth of
/// formatting a row).
struct InputFields<'a> {
    summaries: &'a [UnitSummary],
    /// Every unit's name as a field, one after another.
    names: Vec<u8>,
    /// Where each unit's name ends in `names`.
    ends: Vec<usize>,
    language: Vec<u8>,
    /// Every unit's origin.
    origins: Vec<UnitOrigin>,
}

impl<'a> InputFields<'a> {
    fn of(input: &ReportInput<'a>) -> Self {
        let mut names = Vec::new();
        let ends = input
            .units
            .iter()
            .map(|unit| {
                push_text(&mut names, &unit.name);
                names.len()
            })
            .collect();
        let mut language = Vec::new();
        push_text(
            &mut language,
            input.parameters.language.as_deref().unwrap_or_default(),
        );
        let origins = match input.origins {
            Some(origins) => origins.to_vec(),
            None => input
                .units
                .iter()
                .map(|unit| UnitOrigin::of_role(unit.role.into()))
                .collect(),
        };
        Self {
            summaries: &input.comparison.units,
            names,
            ends,
            language,
            origins,
        }
    }

    /// Unit `u`'s name as a field.
    fn name(&self, u: usize) -> &[u8] {
        let start = if u == 0 { 0 } else { self.ends[u - 1] };
        &self.names[start..self.ends[u]]
    }
}

/// The pairs of `input` its report lists.
fn listed<'a>(input: &ReportInput<'a>) -> &'a [PairScore] {
    let pairs = &input.comparison.pairs;
    &pairs[..input.pair_limit.unwrap_or(usize::MAX).min(pairs.len())]
}

/// Writes the header and a row for each of `items`.
fn write_rows<'a, T: Sync>(
    items: &'a [T],
    row: impl Fn(&'a T) -> Row<'a> + Sync,
    mut out: impl Write,
) -> Result<(), ReportError> {
    let mut header = CSV_HEADER.join(",").into_bytes();
    header.push(b'\n');
    out.write_all(&header)?;
    let mut buffers = ChunkBuffers::new(CHUNKS_AT_ONCE);
    let batch = CHUNK_ROWS * CHUNKS_AT_ONCE;
    write_in_chunks(items, batch, &mut buffers, &mut out, |rows, _, items| {
        for item in items {
            push_row(rows, &row(item));
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// What the CSV row of a pair says, in column order.
struct Row<'a> {
    paths: [Field<'a>; 2],
    /// The similarity, then each side's coverage.
    shares: [f64; 3],
    line_shares: [Option<f64>; 2],
    /// Longest fragment, total overlap, shared fingerprints, fragments.
    counts: [usize; 4],
    language: Field<'a>,
    origins: [UnitOrigin; 2],
}

/// A text field: as it is, or already escaped as [`push_text`] escapes.
#[derive(Clone, Copy)]
enum Field<'a> {
    Text(&'a str),
    Escaped(&'a [u8]),
}

impl Field<'_> {
    fn push_to(self, row: &mut Vec<u8>) {
        match self {
            Field::Text(text) => push_text(row, text),
            Field::Escaped(field) => row.extend_from_slice(field),
        }
    }
}

impl<'a> Row<'a> {
    fn of_report(report: &'a Report, pair: &'a PairReport) -> Self {
        Self {
            paths: [Field::Text(&pair.a.path), Field::Text(&pair.b.path)],
            shares: [pair.similarity, pair.a.coverage, pair.b.coverage],
            line_shares: [pair.a.line_coverage, pair.b.line_coverage],
            counts: [
                pair.longest_fragment,
                pair.total_overlap,
                pair.shared_fingerprints,
                pair.fragment_count,
            ],
            language: Field::Text(report.pair_language(pair).unwrap_or_default()),
            origins: [pair.a.unit, pair.b.unit].map(|u| report.units[u].origin),
        }
    }

    /// The row of `pair` of the input `fields` were made of: what its
    /// report entry would say (see `pair_summary` in `build.rs`).
    fn of_score(fields: &'a InputFields<'_>, pair: &'a PairScore) -> Self {
        let (a, b) = (
            pair.coverage_a(fields.summaries),
            pair.coverage_b(fields.summaries),
        );
        Self {
            paths: [
                Field::Escaped(fields.name(pair.a)),
                Field::Escaped(fields.name(pair.b)),
            ],
            shares: [pair.similarity, a.symbol_share(), b.symbol_share()],
            line_shares: [a.line_share(), b.line_share()],
            counts: [
                pair.longest_fragment as usize,
                pair.total_overlap as usize,
                pair.shared_fingerprints as usize,
                pair.fragment_count as usize,
            ],
            language: Field::Escaped(&fields.language),
            origins: [pair.a, pair.b].map(|u| fields.origins[u]),
        }
    }
}

/// Appends `row`, its line break included.
fn push_row(rows: &mut Vec<u8>, row: &Row<'_>) {
    row.paths[0].push_to(rows);
    rows.push(b',');
    row.paths[1].push_to(rows);
    for share in row.shares {
        rows.push(b',');
        push_share(rows, share);
    }
    for share in row.line_shares {
        rows.push(b',');
        if let Some(share) = share {
            push_share(rows, share);
        }
    }
    for count in row.counts {
        rows.push(b',');
        push_count(rows, count);
    }
    rows.push(b',');
    row.language.push_to(rows);
    for origin in row.origins {
        rows.push(b',');
        rows.extend_from_slice(origin.name().as_bytes());
    }
    rows.push(b'\n');
}

/// Appends `text` as a field: as it is, or quoted with its quotes doubled
/// when it holds a comma, a quote or a line break (what the `csv` crate
/// does by default). A field a spreadsheet would run as a formula (it
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return: a unit
/// named `=HYPERLINK(…)` is a file name like any other) gets a leading `'`,
/// which spreadsheets take as "this is text", as OWASP advises.
fn push_text(row: &mut Vec<u8>, text: &str) {
    let defused;
    let text = if text.starts_with(FORMULA_STARTS) {
        defused = format!("'{text}");
        &defused
    } else {
        text
    };
    // Every byte is looked at, without stopping at the first special one:
    // the loop then has no branch and runs on vectors, and nearly every
    // field is plain.
    let special = text.bytes().fold(false, |found, b| {
        found | matches!(b, b',' | b'"' | b'\n' | b'\r')
    });
    if special {
        row.push(b'"');
        for part in text.split_inclusive('"') {
            row.extend_from_slice(part.as_bytes());
            if part.ends_with('"') {
                row.push(b'"');
            }
        }
        row.push(b'"');
    } else {
        row.extend_from_slice(text.as_bytes());
    }
}
