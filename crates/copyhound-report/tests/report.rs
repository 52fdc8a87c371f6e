//! Snapshots of the JSON, CSV and table of one small fixed comparison, and
//! the JSON round trip.

mod common;

use copyhound_fingerprint::KGramHasher;
use copyhound_index::{BaseCode, CompareOptions, Document, Role, Unit, compare};
use copyhound_report::{
    Problem, Report, ReportError, ReportInput, SCHEMA_VERSION, read_json, write_csv, write_json,
    write_table,
};

const K: usize = 8;
const W: usize = 6;
const SEED: u64 = 7;

fn document(name: &str, text: &str) -> Document {
    common::document(name, text, K, W, SEED)
}

const SUM: &str = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n";
const SUM_RENAMED: &str = "# my work\ndef total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n\nprint(total([1, 2]))\n";
const MAX: &str = "def biggest(v):\n    best = v[0]\n    for x in v:\n        if x > best:\n            best = x\n    return best\n";
const MAX_OLD: &str = "def biggest(v):\n    best = v[0]\n    for y in v:\n        if y > best:\n            best = y\n    return best\n";

fn report(pair_limit: Option<usize>) -> Report {
    let units = vec![
        Unit::new(
            "alice",
            vec![document("alice/sum.py", SUM), document("alice/max.py", MAX)],
        ),
        Unit::new("bob", vec![document("bob/sum.py", SUM_RENAMED)]),
        Unit::new("carol", vec![document("carol/max.py", MAX)]).with_group("team-c"),
        Unit::new("2024/dave", vec![document("2024/dave/max.py", MAX_OLD)]).with_role(Role::Old),
    ];
    let roots: Vec<String> = ["subs", "subs", "subs", "old"].map(String::from).to_vec();
    let options = CompareOptions::new(KGramHasher::new(K, SEED));
    let comparison = compare(&units, &BaseCode::none(), &options).unwrap();
    Report::build(ReportInput {
        tool: &common::tool("copyhound"),
        parameters: &common::parameters(&options, W),
        units: &units,
        roots: &roots,
        comparison: &comparison,
        problems: &[Problem {
            path: "subs/erin/notes.bin".into(),
            message: "not UTF-8 text".into(),
        }],
        pair_limit,
    })
}

fn text(write: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::new();
    write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn json_report() {
    let report = report(None);
    // The invariants the snapshot relies on, checked before it.
    assert_eq!(report.pairs.len(), 4);
    assert!(
        report
            .pairs
            .windows(2)
            .all(|p| p[0].similarity >= p[1].similarity)
    );
    insta::assert_snapshot!(text(|out| write_json(&report, out).unwrap()));
}

#[test]
fn csv_report() {
    insta::assert_snapshot!(text(|out| write_csv(&report(None), out).unwrap()));
}

#[test]
fn table_of_the_top_pairs() {
    insta::assert_snapshot!(text(|out| write_table(&report(None), 2, out).unwrap()));
}

#[test]
fn table_without_similar_pairs() {
    let mut report = report(None);
    report.pairs.clear();
    report.summary.matching_pairs = 0;
    report.summary.reported_pairs = 0;
    insta::assert_snapshot!(text(|out| write_table(&report, 10, out).unwrap()));
}

#[test]
fn json_reads_back_equal() {
    let report = report(None);
    let json = text(|out| write_json(&report, out).unwrap());
    assert_eq!(read_json(json.as_bytes()).unwrap(), report);
}

#[test]
fn a_newer_schema_is_refused() {
    let mut value = serde_json::to_value(report(Some(1))).unwrap();
    value["schema_version"] = (SCHEMA_VERSION + 1).into();
    let err = read_json(value.to_string().as_bytes()).unwrap_err();
    assert!(matches!(err, ReportError::NewerSchema { .. }), "{err}");
}

#[test]
fn short_passages_are_left_out_of_the_report_but_still_scored() {
    // A long copied sentence and, far from it, one short shared phrase.
    let original = "the quick brown fox jumps over the lazy dog near the river bank. \
                    zzzz qqqq xxxx vvvv wwww uuuu. a red kite";
    let copy = "the quick brown fox jumps over the lazy dog near the river bank. \
                mmmm nnnn pppp rrrr ssss tttt. a red kite";
    let units = vec![
        Unit::new("original", vec![document("original.txt", original)]),
        Unit::new("copy", vec![document("copy.txt", copy)]),
    ];
    let roots = vec![String::from("texts"); 2];
    let options = CompareOptions::new(KGramHasher::new(K, SEED));
    let comparison = compare(&units, &BaseCode::none(), &options).unwrap();
    let build = |min_passage| {
        Report::build(ReportInput {
            tool: &common::tool("copyhound"),
            parameters: &copyhound_report::Parameters {
                min_passage,
                ..common::parameters(&options, W)
            },
            units: &units,
            roots: &roots,
            comparison: &comparison,
            problems: &[],
            pair_limit: None,
        })
    };
    let every = build(0);
    let long_only = build(20);
    let (every, long_only) = (&every.pairs[0], &long_only.pairs[0]);
    // "aredkite" (8 symbols) is a fragment and a passage of its own.
    assert_eq!(every.fragments.len(), 2);
    assert_eq!(every.passages.len(), 2);
    assert_eq!(long_only.passages.len(), 1);
    assert!(long_only.passages[0].matched_symbols >= 20);
    // Fragments and the similarity do not depend on what is reported.
    assert_eq!(long_only.fragments, every.fragments);
    assert_eq!(long_only.similarity.to_bits(), every.similarity.to_bits());
}
