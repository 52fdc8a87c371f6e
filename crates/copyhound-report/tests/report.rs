//! Snapshots of the JSON, CSV and table of one small fixed comparison, and
//! the JSON round trip.

mod common;

use common::Compared;
use copyhound_index::{Document, Role, Unit};
use copyhound_report::{
    PairDetails, Problem, ProblemKind, Report, ReportError, SCHEMA_VERSION, UnitOrigin, UnitRole,
    read_json, write_csv, write_csv_of, write_json, write_json_with_details, write_table,
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
    named_fixture(["alice", "bob", "carol", "2024/dave"])
}

/// The fixture with its four units named `names`.
fn named_fixture([alice, bob, carol, dave]: [&str; 4]) -> Compared {
    let units = vec![
        Unit::new(
            alice,
            vec![document("alice/sum.py", SUM), document("alice/max.py", MAX)],
        ),
        Unit::new(bob, vec![document("bob/sum.py", SUM_RENAMED)]),
        Unit::new(carol, vec![document("carol/max.py", MAX)]).with_group("team-c"),
        Unit::new(dave, vec![document("2024/dave/max.py", MAX_OLD)]).with_role(Role::Old),
    ];
    let roots: Vec<String> = ["subs", "subs", "subs", "old"].map(String::from).to_vec();
    let problems = vec![Problem {
        path: "subs/erin/notes.bin".into(),
        message: "not UTF-8 text".into(),
        kind: ProblemKind::Unreadable,
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

/// Written straight from the comparison, the CSV is the report's, with
/// and without a pair limit, and with names a field must quote.
#[test]
fn csv_of_the_comparison_is_the_reports() {
    let quoted = named_fixture(["al,ice", "b\"ob\"", "car\nol", "2024/\"d,\r\nave"]);
    for compared in [fixture(), many_pairs(), quoted] {
        for limit in [None, Some(2)] {
            let input = compared.input(limit);
            assert_eq!(
                text(|out| write_csv_of(&[input], out).unwrap()),
                text(|out| write_csv(&Report::build_without_details(input), out).unwrap())
            );
        }
    }
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
    assert_eq!(every.listed_fragments().len(), 2);
    assert_eq!(every.listed_passages().len(), 2);
    assert_eq!(long_only.listed_passages().len(), 1);
    assert!(long_only.listed_passages()[0].matched_symbols >= 20);
    // Fragments and the similarity do not depend on what is reported.
    assert_eq!(long_only.fragments, every.fragments);
    assert_eq!(long_only.similarity.to_bits(), every.similarity.to_bits());
}

/// `report` as its JSON lists it with the details of only the `detailed`
/// most similar pairs.
fn without_details_past(mut report: Report, detailed: usize) -> Report {
    for pair in report.pairs.iter_mut().skip(detailed) {
        pair.remove_details();
    }
    report.summary.detailed_pairs = detailed.min(report.pairs.len());
    report
}

#[test]
fn json_detailed_while_written_is_the_complete_report_without_the_details_past_the_limit() {
    for fixture in [fixture(), many_pairs()] {
        let input = fixture.input(None);
        let complete = Report::build(input);
        let outline = Report::build_without_details(input);
        let details = PairDetails::new(&input);
        // Past one chunk of pairs detailed at once, too.
        for detailed in [usize::MAX, 0, 1, 3, 300, complete.pairs.len()] {
            let streamed =
                text(|out| write_json_with_details(&outline, &details, detailed, out).unwrap());
            let expected = without_details_past(complete.clone(), detailed);
            assert_eq!(streamed, text(|out| write_json(&expected, out).unwrap()));
            let reference = serde_json::to_string_pretty(&expected).unwrap() + "\n";
            assert_eq!(streamed, reference, "what serde_json writes");
            assert_eq!(read_json(streamed.as_bytes()).unwrap(), expected);
        }
    }
    assert!(
        many_pairs().comparison.pairs.len() > 300,
        "more than one chunk"
    );
}

#[test]
fn a_pair_without_details_has_neither_fragments_nor_passages_in_json() {
    let report = without_details_past(report(None), 1);
    let json: serde_json::Value =
        serde_json::from_str(&text(|out| write_json(&report, out).unwrap())).unwrap();
    assert_eq!(json["summary"]["detailed_pairs"], 1);
    let pairs = json["pairs"].as_array().unwrap();
    let has = |pair: &serde_json::Value, key: &str| pair.get(key).is_some();
    assert!(has(&pairs[0], "fragments") && has(&pairs[0], "passages"));
    for (pair, model) in pairs.iter().zip(&report.pairs).skip(1) {
        assert!(!has(pair, "fragments") && !has(pair, "passages"), "{pair}");
        assert!(model.fragment_count > 0);
        assert_eq!(pair["fragment_count"], model.fragment_count);
    }
    assert_eq!(
        pairs[0]["fragment_count"],
        report.pairs[0].listed_fragments().len()
    );
}

/// A version-1 report, written by hand: every pair with its fragments
/// (the second, older still, without passages) and no fragment count.
const VERSION_1: &str = r#"{
  "schema_version": 1,
  "tool": { "name": "copyhound", "version": "0.1.0" },
  "parameters": {
    "language": "text", "k": 8, "window": 6, "seed": 7,
    "selector": "robust-winnow", "max_occurrences": "unlimited", "base": [],
    "min_shared": 1, "max_pairs": 100, "min_fragment": 8, "weighting": "flat",
    "merge_gap": 16, "min_passage": 0
  },
  "summary": {
    "units": 3, "documents": 3, "fingerprints": 40, "base_fingerprints": 0,
    "common_fingerprints": 0, "max_units_per_fingerprint": null,
    "candidate_pairs": 2, "scored_pairs": 2, "matching_pairs": 2, "reported_pairs": 2
  },
  "units": [
    { "id": 0, "path": "x.txt", "root": "in", "language": "text", "role": "new",
      "group": null, "symbols": 30, "compared_symbols": 30, "base_symbols": 0,
      "documents": [ { "path": "x.txt", "symbols": 30, "fingerprints": 12 } ] },
    { "id": 1, "path": "y.txt", "root": "in", "role": "new",
      "group": null, "symbols": 20, "compared_symbols": 20, "base_symbols": 0,
      "documents": [ { "path": "y.txt", "symbols": 20, "fingerprints": 8 } ] },
    { "id": 2, "path": "z.txt", "root": "in", "role": "old",
      "group": "g", "symbols": 25, "compared_symbols": 25, "base_symbols": 0,
      "documents": [ { "path": "z.txt", "symbols": 25, "fingerprints": 10 } ] }
  ],
  "pairs": [
    { "similarity": 0.5,
      "a": { "unit": 0, "path": "x.txt", "coverage": 0.4, "line_coverage": 0.5,
             "covered_symbols": 12, "covered_lines": 1 },
      "b": { "unit": 1, "path": "y.txt", "coverage": 0.6, "line_coverage": null,
             "covered_symbols": 12, "covered_lines": null },
      "shared_fingerprints": 3, "longest_fragment": 12, "total_overlap": 12,
      "fragments": [
        { "symbols": 12,
          "a": { "document": 0, "path": "x.txt", "symbols": [2, 14], "bytes": [3, 17], "lines": [1, 1] },
          "b": { "document": 0, "path": "y.txt", "symbols": [0, 12], "bytes": [0, 13], "lines": null } }
      ],
      "passages": [
        { "fragments": [0, 1], "matched_symbols": 12,
          "a": { "document": 0, "path": "x.txt", "symbols": [2, 14], "bytes": [3, 17], "lines": [1, 1] },
          "b": { "document": 0, "path": "y.txt", "symbols": [0, 12], "bytes": [0, 13], "lines": null } }
      ] },
    { "similarity": 0.25,
      "a": { "unit": 0, "path": "x.txt", "coverage": 0.3, "line_coverage": null,
             "covered_symbols": 9, "covered_lines": null },
      "b": { "unit": 2, "path": "z.txt", "coverage": 0.36, "line_coverage": null,
             "covered_symbols": 9, "covered_lines": null },
      "shared_fingerprints": 2, "longest_fragment": 9, "total_overlap": 9,
      "fragments": [
        { "symbols": 9,
          "a": { "document": 0, "path": "x.txt", "symbols": [20, 29], "bytes": [22, 31], "lines": null },
          "b": { "document": 0, "path": "z.txt", "symbols": [5, 14], "bytes": [6, 15], "lines": null } }
      ] }
  ],
  "problems": [ { "path": "in/w.bin", "message": "not UTF-8 text" } ]
}"#;

#[test]
fn a_version_1_report_is_read_as_version_2() {
    let report = read_json(VERSION_1.as_bytes()).unwrap();
    assert_eq!(report.schema_version, SCHEMA_VERSION);
    assert_eq!(report.summary.detailed_pairs, 2);
    assert_eq!(report.units[2].role, UnitRole::Old);
    // Written before units had an origin: that of their role.
    assert_eq!(report.units[2].origin, UnitOrigin::Old);
    assert_eq!(report.units[0].origin, UnitOrigin::New);
    assert_eq!(report.units[2].group.as_deref(), Some("g"));
    let [first, second] = &report.pairs[..] else {
        panic!("two pairs: {:?}", report.pairs);
    };
    assert_eq!((first.fragment_count, second.fragment_count), (1, 1));
    assert_eq!(first.listed_fragments()[0].a.bytes, [3, 17]);
    assert_eq!(first.listed_passages()[0].fragments, [0, 1]);
    assert_eq!(first.b.line_coverage, None);
    assert_eq!(second.listed_fragments()[0].b.path, "z.txt");
    assert!(second.has_details() && second.listed_passages().is_empty());
    assert_eq!(report.problems[0].message, "not UTF-8 text");
    // Written again, it is a version-2 report that reads back the same.
    let json = text(|out| write_json(&report, out).unwrap());
    assert!(json.starts_with(&format!("{{\n  \"schema_version\": {SCHEMA_VERSION},")));
    assert_eq!(read_json(json.as_bytes()).unwrap(), report);
}

#[test]
fn pair_scores_agree_with_the_details_found_again() {
    let fixture = many_pairs();
    let input = fixture.input(None);
    let complete = Report::build(input);
    let outline = Report::build_without_details(input);
    assert_eq!(complete.pairs.len(), outline.pairs.len());
    for (full, summary) in complete.pairs.iter().zip(&outline.pairs) {
        assert!(!summary.has_details() && full.has_details());
        assert_eq!(summary.fragment_count, full.listed_fragments().len());
        let lengths = full.listed_fragments().iter().map(|f| f.symbols as usize);
        assert_eq!(Some(summary.longest_fragment), lengths.clone().max());
        assert_eq!(summary.total_overlap, lengths.sum::<usize>());
        assert_eq!(summary.a.covered_symbols, summary.total_overlap);
        let passages: u32 = full
            .listed_passages()
            .iter()
            .map(|p| p.matched_symbols)
            .sum();
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
