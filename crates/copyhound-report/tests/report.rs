//! Snapshots of the JSON, CSV and table of one small fixed comparison, and
//! the JSON round trip.

mod common;

use common::Compared;
use copyhound_index::{Document, Role, Unit};
use copyhound_report::{
    PairDetails, Problem, Report, ReportError, SCHEMA_VERSION, read_json, write_csv, write_json,
    write_json_with_details, write_table,
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

fn fixture() -> Compared {
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
    let problems = vec![Problem {
        path: "subs/erin/notes.bin".into(),
        message: "not UTF-8 text".into(),
    }];
    Compared::new(units, roots, (K, W, SEED), problems)
}

fn report(pair_limit: Option<usize>) -> Report {
    Report::build(fixture().input(pair_limit))
}

/// Enough units sharing lines in different combinations to make more
/// pairs than the JSON writer details at once.
fn many_pairs() -> Compared {
    const LINES: [&str; 6] = [
        SUM,
        MAX,
        MAX_OLD,
        SUM_RENAMED,
        "while n > 1:\n    n //= 2\n",
        "x = [i * i for i in range(10)]\n",
    ];
    let units: Vec<Unit> = (0..30)
        .map(|i: usize| {
            let text: String = LINES
                .iter()
                .enumerate()
                .filter(|(j, _)| (i + 1) * (j + 3) % 5 < 3)
                .map(|(_, line)| *line)
                .collect();
            let name = format!("u{i:02}");
            Unit::new(&name, vec![document(&format!("{name}/a.py"), &text)])
        })
        .collect();
    let roots = vec!["subs".to_string(); units.len()];
    Compared::new(units, roots, (K, W, SEED), Vec::new())
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
    let mut compared = Compared::new(units, roots, (K, W, SEED), Vec::new());
    let mut build = |min_passage| {
        compared.parameters.min_passage = min_passage;
        Report::build(compared.input(None))
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

#[test]
fn json_detailed_while_written_is_the_complete_report() {
    for fixture in [fixture(), many_pairs()] {
        let input = fixture.input(None);
        let complete = Report::build(input);
        let outline = Report::build_without_details(input);
        let details = PairDetails::new(&input);
        let streamed = text(|out| write_json_with_details(&outline, &details, out).unwrap());
        assert_eq!(streamed, text(|out| write_json(&complete, out).unwrap()));
    }
    assert!(
        many_pairs().comparison.pairs.len() > 300,
        "more than one chunk"
    );
}

#[test]
fn pair_scores_agree_with_the_details_found_again() {
    let fixture = many_pairs();
    let input = fixture.input(None);
    let complete = Report::build(input);
    let outline = Report::build_without_details(input);
    assert_eq!(complete.pairs.len(), outline.pairs.len());
    for (full, summary) in complete.pairs.iter().zip(&outline.pairs) {
        assert!(summary.fragments.is_empty() && summary.passages.is_empty());
        assert_eq!(summary.fragment_count, full.fragments.len());
        let lengths = full.fragments.iter().map(|f| f.symbols as usize);
        assert_eq!(Some(summary.longest_fragment), lengths.clone().max());
        assert_eq!(summary.total_overlap, lengths.sum::<usize>());
        assert_eq!(summary.a.covered_symbols, summary.total_overlap);
        let passages: u32 = full.passages.iter().map(|p| p.matched_symbols).sum();
        assert_eq!(passages as usize, summary.total_overlap);
    }
    // The CSV and the table need no details.
    assert_eq!(
        text(|out| write_csv(&outline, out).unwrap()),
        text(|out| write_csv(&complete, out).unwrap())
    );
    assert_eq!(
        text(|out| write_table(&outline, 50, out).unwrap()),
        text(|out| write_table(&complete, 50, out).unwrap())
    );
}
