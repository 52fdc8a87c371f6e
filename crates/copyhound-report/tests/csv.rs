//! The CSV writer makes its rows by hand; they are byte for byte what the
//! `csv` crate writes of fields formatted by the standard formatter (the
//! writer it replaced, kept here as the reference), whatever the paths,
//! shares and counts; text that starts like a spreadsheet formula gets a
//! leading `'`.

use copyhound_report::{
    CSV_HEADER, FORMULA_STARTS, PairReport, PairSide, Parameters, Report, Summary, Tool,
    UnitOrigin, UnitReport, UnitRole, write_csv,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// The CSV as the `csv` crate writes it, with `{:.6}` shares.
fn reference_csv(report: &Report) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    // Text a spreadsheet would run as a formula, marked as text.
    let defused = |text: &str| {
        if text.starts_with(FORMULA_STARTS) {
            format!("'{text}")
        } else {
            text.to_owned()
        }
    };
    writer.write_record(CSV_HEADER).unwrap();
    let share = |x: f64| format!("{x:.6}");
    for pair in &report.pairs {
        writer
            .write_record([
                defused(&pair.a.path),
                defused(&pair.b.path),
                share(pair.similarity),
                share(pair.a.coverage),
                share(pair.b.coverage),
                pair.a.line_coverage.map(share).unwrap_or_default(),
                pair.b.line_coverage.map(share).unwrap_or_default(),
                pair.longest_fragment.to_string(),
                pair.total_overlap.to_string(),
                pair.shared_fingerprints.to_string(),
                pair.fragment_count.to_string(),
                defused(report.pair_language(pair).unwrap_or_default()),
                report.units[pair.a.unit].origin.name().to_owned(),
                report.units[pair.b.unit].origin.name().to_owned(),
            ])
            .unwrap();
    }
    writer.into_inner().unwrap()
}

/// Paths and languages with every character CSV and spreadsheets treat
/// specially.
fn text() -> impl Strategy<Value = String> {
    "[a-z0-9,\"\r\n\t é#/.=+@-]{0,10}"
}

/// Shares as they come (ratios), any float at all, and halves of a
/// millionth, where rounding is closest.
fn share() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0_u32..=1000, 1_u32..=1000).prop_map(|(a, b)| f64::from(a.min(b)) / f64::from(b)),
        any::<u64>().prop_map(f64::from_bits),
        (0_u32..=2_000_000).prop_map(|halves| f64::from(halves) / 2e6),
    ]
}

fn side() -> impl Strategy<Value = PairSide> {
    (0_usize..3, text(), share(), proptest::option::of(share())).prop_map(
        |(unit, path, coverage, line_coverage)| PairSide {
            unit,
            path,
            coverage,
            line_coverage,
            covered_symbols: 0,
            covered_lines: None,
        },
    )
}

fn pair() -> impl Strategy<Value = PairReport> {
    (share(), side(), side(), any::<[usize; 4]>()).prop_map(|(similarity, a, b, counts)| {
        PairReport {
            similarity,
            a,
            b,
            shared_fingerprints: counts[0],
            longest_fragment: counts[1],
            total_overlap: counts[2],
            fragment_count: counts[3],
            fragments: None,
            passages: None,
        }
    })
}

fn unit(id: usize, language: Option<String>, origin: UnitOrigin) -> UnitReport {
    UnitReport {
        id,
        path: format!("u{id}"),
        root: "in".into(),
        language,
        role: UnitRole::Old,
        origin,
        group: None,
        symbols: 0,
        compared_symbols: 0,
        base_symbols: 0,
        documents: Vec::new(),
    }
}

fn origin() -> impl Strategy<Value = UnitOrigin> {
    prop_oneof![
        Just(UnitOrigin::New),
        Just(UnitOrigin::Old),
        Just(UnitOrigin::Archive)
    ]
}

fn report() -> impl Strategy<Value = Report> {
    (
        [
            proptest::option::of(text()),
            proptest::option::of(text()),
            proptest::option::of(text()),
        ],
        proptest::collection::vec(pair(), 0..20),
        [origin(), origin(), origin()],
    )
        .prop_map(|(languages, pairs, origins)| Report {
            schema_version: copyhound_report::SCHEMA_VERSION,
            tool: Tool {
                name: "copyhound".into(),
                version: "test".into(),
            },
            parameters: Parameters::default(),
            summary: Summary::default(),
            units: languages
                .into_iter()
                .zip(origins)
                .enumerate()
                .map(|(id, (language, origin))| unit(id, language, origin))
                .collect(),
            pairs,
            problems: Vec::new(),
        })
}

proptest! {
    #[test]
    fn the_csv_is_what_the_csv_crate_writes_of_standard_formatting(report in report()) {
        let mut written = Vec::new();
        write_csv(&report, &mut written).unwrap();
        let expected = reference_csv(&report);
        prop_assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(&expected));
    }
}

#[test]
fn a_csv_longer_than_the_row_buffer_is_written_whole() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let pair = pair().new_tree(&mut runner).unwrap().current();
    let report = Report {
        pairs: vec![pair; 5000],
        ..report().new_tree(&mut runner).unwrap().current()
    };
    let mut written = Vec::new();
    write_csv(&report, &mut written).unwrap();
    assert!(written.len() > 1 << 17, "{} bytes", written.len());
    assert_eq!(written, reference_csv(&report));
}

#[test]
fn rows_formatted_in_parallel_chunks_keep_their_order() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let template = report().new_tree(&mut runner).unwrap().current();
    // Many batches of chunks, the last one short, each row different.
    let pairs = (0..20_000)
        .map(|i| {
            let mut pair = pair().new_tree(&mut runner).unwrap().current();
            pair.a.path = format!("a{i}");
            pair.fragment_count = i;
            pair
        })
        .collect();
    let report = Report { pairs, ..template };
    let mut written = Vec::new();
    write_csv(&report, &mut written).unwrap();
    assert_eq!(written, reference_csv(&report));
}
