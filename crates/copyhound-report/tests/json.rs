//! The JSON writer serialises the pairs in parallel chunks, each at its
//! depth in the document; the bytes are what `serde_json::to_writer_pretty`
//! writes of the whole report (the writer it replaced, kept here as the
//! reference), whatever the report holds and however many pairs.

use copyhound_report::{
    CellLocation, CodeParameters, DocumentReport, FragmentReport, LanguageParameters, Location,
    PairDetails, PairReport, PairSide, Parameters, PassageReport, Problem, ProblemKind, Report,
    Summary, Tool, UnitOrigin, UnitReport, UnitRole, write_json, write_json_with_details,
};
use proptest::prelude::*;

/// The report as `serde_json::to_writer_pretty` writes it, and a newline.
fn reference_json(report: &Report) -> Vec<u8> {
    let mut out = Vec::new();
    serde_json::to_writer_pretty(&mut out, report).unwrap();
    out.push(b'\n');
    out
}

/// Where two outputs first differ, with some context, or `None`.
fn first_difference(written: &[u8], expected: &[u8]) -> Option<String> {
    let at = written
        .iter()
        .zip(expected)
        .position(|(w, e)| w != e)
        .or((written.len() != expected.len()).then(|| written.len().min(expected.len())))?;
    let around = |bytes: &[u8]| {
        let from = at.saturating_sub(60);
        String::from_utf8_lossy(&bytes[from..(at + 60).min(bytes.len())]).into_owned()
    };
    Some(format!(
        "byte {at} of {} (expected {}):\nwritten:  {:?}\nexpected: {:?}",
        written.len(),
        expected.len(),
        around(written),
        around(expected)
    ))
}

/// Paths and names: plain, with everything JSON escapes, or any text.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9/._-]{0,12}",
        "[a-z\"\\\\/\n\r\t\u{0}-\u{1f}\u{7f}é€\u{2028}😀 ]{0,10}",
        any::<String>(),
    ]
}

/// Shares as they come (ratios) and any finite float at all.
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0_u32..=1000, 1_u32..=1000).prop_map(|(a, b)| f64::from(a.min(b)) / f64::from(b)),
        any::<u64>()
            .prop_map(f64::from_bits)
            .prop_filter("finite", |x| x.is_finite()),
    ]
}

fn location() -> impl Strategy<Value = Location> {
    (
        any::<usize>(),
        text(),
        any::<[u32; 2]>(),
        any::<[usize; 2]>(),
        proptest::option::of(any::<[u32; 2]>()),
        proptest::option::of(any::<([u32; 2], [u32; 2])>()),
    )
        .prop_map(|(document, path, symbols, bytes, lines, cells)| Location {
            document,
            path,
            symbols,
            bytes,
            lines,
            notebook: cells.map(|(cells, lines)| CellLocation { cells, lines }),
        })
}

fn fragment() -> impl Strategy<Value = FragmentReport> {
    (any::<u32>(), location(), location()).prop_map(|(symbols, a, b)| FragmentReport {
        symbols,
        a,
        b,
    })
}

fn passage() -> impl Strategy<Value = PassageReport> {
    (any::<[usize; 2]>(), any::<u32>(), location(), location()).prop_map(
        |(fragments, matched_symbols, a, b)| PassageReport {
            fragments,
            matched_symbols,
            a,
            b,
        },
    )
}

fn side() -> impl Strategy<Value = PairSide> {
    (
        any::<usize>(),
        text(),
        float(),
        proptest::option::of(float()),
        any::<usize>(),
        proptest::option::of(any::<usize>()),
    )
        .prop_map(
            |(unit, path, coverage, line_coverage, covered_symbols, covered_lines)| PairSide {
                unit,
                path,
                coverage,
                line_coverage,
                covered_symbols,
                covered_lines,
            },
        )
}

/// A pair with or without details; either list may be empty.
fn pair() -> impl Strategy<Value = PairReport> {
    let details = proptest::option::of((
        proptest::collection::vec(fragment(), 0..4),
        proptest::collection::vec(passage(), 0..3),
    ));
    (float(), side(), side(), any::<[usize; 4]>(), details).prop_map(
        |(similarity, a, b, counts, details)| {
            let (fragments, passages) = details.unzip();
            PairReport {
                similarity,
                a,
                b,
                shared_fingerprints: counts[0],
                longest_fragment: counts[1],
                total_overlap: counts[2],
                fragment_count: counts[3],
                fragments,
                passages,
            }
        },
    )
}

/// How many pairs: few, or around the sizes the writer serialises at
/// once (256 detailed pairs, 2048 others, each in 8 chunks).
fn pair_count() -> impl Strategy<Value = usize> {
    prop_oneof![
        0_usize..=20,
        250_usize..=520,
        2040_usize..=2060,
        4090_usize..=4100
    ]
}

/// `count` pairs made of `kinds`, each different in its
/// `shared_fingerprints` so that a pair out of order shows.
fn pairs(kinds: &[PairReport], count: usize) -> Vec<PairReport> {
    (0..count)
        .map(|i| PairReport {
            shared_fingerprints: i,
            ..kinds[i % kinds.len()].clone()
        })
        .collect()
}

fn unit() -> impl Strategy<Value = UnitReport> {
    let document =
        (text(), any::<usize>(), any::<usize>()).prop_map(|(path, symbols, fingerprints)| {
            DocumentReport {
                path,
                symbols,
                fingerprints,
            }
        });
    (
        any::<usize>(),
        text(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        any::<bool>(),
        prop_oneof![
            Just(UnitOrigin::New),
            Just(UnitOrigin::Old),
            Just(UnitOrigin::Archive)
        ],
        any::<[usize; 3]>(),
        proptest::collection::vec(document, 0..3),
    )
        .prop_map(
            |(id, path, language, group, old, origin, counts, documents)| UnitReport {
                id,
                root: path.clone(),
                path,
                language,
                role: if old { UnitRole::Old } else { UnitRole::New },
                origin,
                group,
                symbols: counts[0],
                compared_symbols: counts[1],
                base_symbols: counts[2],
                documents,
            },
        )
}

fn parameters() -> impl Strategy<Value = Parameters> {
    let symbol = || proptest::option::of(text());
    let language = (text(), any::<[usize; 6]>(), symbol()).prop_map(|(language, n, symbol)| {
        LanguageParameters {
            language,
            symbol,
            units: n[0],
            k: n[1],
            window: n[2],
            min_fragment: n[3],
            merge_gap: n[4],
            min_passage: n[5],
        }
    });
    (
        proptest::option::of(text()),
        any::<u64>(),
        proptest::collection::vec(text(), 0..2),
        any::<[usize; 4]>(),
        proptest::collection::vec(language, 0..2),
        symbol(),
        proptest::option::of(any::<[bool; 4]>()),
    )
        .prop_map(
            |(language, seed, base, n, languages, symbol, code)| Parameters {
                language,
                k: n[0],
                window: n[1],
                seed,
                selector: "robust-winnow".into(),
                max_occurrences: "25%".into(),
                base,
                min_shared: n[2],
                max_pairs: n[3],
                languages,
                symbol,
                code: code.map(
                    |[drop_imports, drop_dead_code, while_loops, canonical_order]| CodeParameters {
                        level: "abstract".into(),
                        drop_imports,
                        drop_dead_code,
                        while_loops,
                        canonical_order,
                    },
                ),
                score_gap: n[0] as u32,
                ..Parameters::default()
            },
        )
}

fn report() -> impl Strategy<Value = Report> {
    let kinds = [
        ProblemKind::Unreadable,
        ProblemKind::Skipped,
        ProblemKind::Empty,
        ProblemKind::TooShort,
    ];
    let problem = (text(), text(), proptest::sample::select(kinds.to_vec())).prop_map(
        |(path, message, kind)| Problem {
            path,
            message,
            kind,
        },
    );
    (
        (text(), text()),
        parameters(),
        proptest::option::of(any::<usize>()),
        proptest::collection::vec(unit(), 0..4),
        (proptest::collection::vec(pair(), 1..6), pair_count()),
        proptest::collection::vec(problem, 0..3),
    )
        .prop_map(
            |((name, version), parameters, max_units, units, (kinds, count), problems)| {
                let pairs = pairs(&kinds, count);
                Report {
                    schema_version: copyhound_report::SCHEMA_VERSION,
                    tool: Tool { name, version },
                    parameters,
                    summary: Summary {
                        max_units_per_fingerprint: max_units,
                        reported_pairs: pairs.len(),
                        detailed_pairs: pairs.iter().filter(|p| p.has_details()).count(),
                        ..Summary::default()
                    },
                    units,
                    pairs,
                    problems,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_json_is_what_serde_json_writes_pretty(report in report()) {
        let mut written = Vec::new();
        write_json(&report, &mut written).unwrap();
        let difference = first_difference(&written, &reference_json(&report));
        prop_assert!(difference.is_none(), "{}", difference.unwrap_or_default());
    }

    #[test]
    fn pairs_listed_without_details_are_what_serde_json_writes_of_them_without(
        report in report(),
    ) {
        // No pair is detailed, so details found for none are needed.
        let no_details = PairDetails::merge([]);
        let mut written = Vec::new();
        write_json_with_details(&report, &no_details, 0, &mut written).unwrap();
        let mut expected = report;
        expected.pairs.iter_mut().for_each(PairReport::remove_details);
        expected.summary.detailed_pairs = 0;
        let difference = first_difference(&written, &reference_json(&expected));
        prop_assert!(difference.is_none(), "{}", difference.unwrap_or_default());
    }
}
