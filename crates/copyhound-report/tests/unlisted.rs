//! What a report says of the pairs a comparison found and did not list:
//! down to what similarity it lists, and what could be missing.
// A listed similarity is reported as it is, not nearly.
#![allow(clippy::float_cmp)]

mod common;

use common::Compared;
use copyhound_index::{BaseCode, CompareOptions, Unit, compare};
use copyhound_report::{
    MissingPairs, MissingReason, Report, Unlisted, read_json, write_json, write_table,
};

const K: usize = 8;
const W: usize = 6;
const SEED: u64 = 7;

const LINES: [&str; 5] = [
    "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
    "def biggest(v):\n    best = v[0]\n    for x in v:\n        if x > best:\n            best = x\n    return best\n",
    "while n > 1:\n    n //= 2\n    steps += 1\n",
    "x = [i * i for i in range(10) if i % 3]\n",
    "print(sorted(words, key=len, reverse=True)[:3])\n",
];

/// Twelve units sharing lines in different combinations.
fn units() -> Vec<Unit> {
    (0..12)
        .map(|i: usize| {
            let text: String = LINES
                .iter()
                .enumerate()
                .filter(|(j, _)| (i + 1) * (j + 2) % 7 < 4)
                .map(|(_, line)| *line)
                .collect();
            let name = format!("u{i:02}");
            let document = common::document(&format!("{name}/a.py"), &text, K, W, SEED);
            Unit::new(&name, vec![document])
        })
        .collect()
}

/// [`units`] compared with a listing limit of `max_pairs`.
fn compared(max_pairs: usize) -> Compared {
    let units = units();
    let options = CompareOptions {
        max_pairs,
        ..CompareOptions::new(common::scheme(K, W, SEED))
    };
    let comparison = compare(&units, &BaseCode::none(), &options).unwrap();
    Compared {
        roots: vec!["subs".to_string(); units.len()],
        units,
        comparison,
        tool: common::tool("copyhound"),
        parameters: common::parameters(&options, W),
        problems: Vec::new(),
    }
}

fn text(write: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::new();
    write(&mut out);
    String::from_utf8(out).unwrap()
}

/// The table's last line.
fn summary_line(report: &Report) -> String {
    let table = text(|out| write_table(report, 0, out).unwrap());
    table.lines().last().unwrap().to_owned()
}

#[test]
fn a_report_of_every_pair_says_nothing_is_unlisted() {
    let units = units();
    let roots = vec!["subs".to_string(); units.len()];
    let compared = Compared::new(units, roots, (K, W, SEED), Vec::new());
    let report = Report::build(compared.input(None));
    assert_eq!(report.pairs.len(), compared.comparison.candidate_pairs);
    assert_eq!(report.summary.unlisted, None);
    assert!(!text(|out| write_json(&report, out).unwrap()).contains("unlisted"));
}

#[test]
fn a_limited_listing_says_how_many_pairs_it_left_out_and_down_to_what() {
    let full = Report::build(compared(1000).input(None));
    let report = Report::build(compared(5).input(None));
    assert!(
        full.pairs.len() > 5,
        "the fixture has more pairs than the limit"
    );
    assert_eq!(report.pairs, full.pairs[..5]);
    let lowest = report.pairs[4].similarity;
    assert_eq!(
        report.summary.unlisted,
        Some(Unlisted {
            pairs: full.summary.candidate_pairs - 5,
            lowest_listed_similarity: Some(lowest),
            possibly_missing: Vec::new(),
        })
    );
    assert!(
        summary_line(&report).ends_with(&format!(
            "; only the most similar are listed (down to {:.1}%).",
            lowest * 100.0
        )),
        "{}",
        summary_line(&report)
    );
    let json = text(|out| write_json(&report, out).unwrap());
    assert_eq!(read_json(json.as_bytes()).unwrap(), report);
}

#[test]
fn possibly_missing_pairs_are_stated_in_the_table_and_the_json() {
    let mut report = Report::build(compared(5).input(None));
    let unlisted = report.summary.unlisted.as_mut().unwrap();
    unlisted.lowest_listed_similarity = Some(0.25);
    unlisted.possibly_missing = vec![
        MissingPairs {
            reason: MissingReason::ScoringLimit,
            pairs: Some(12),
            up_to_similarity: 0.5,
        },
        MissingPairs {
            reason: MissingReason::WorkBudget,
            pairs: None,
            up_to_similarity: 0.75,
        },
    ];
    assert!(
        summary_line(&report).ends_with(
            "; only the most similar are listed (down to 25.0%); pairs up to 75.0% may be missing."
        ),
        "{}",
        summary_line(&report)
    );
    let json = text(|out| write_json(&report, out).unwrap());
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let missing = &value["summary"]["unlisted"]["possibly_missing"];
    assert_eq!(
        missing,
        &serde_json::json!([
            {"reason": "scoring_limit", "pairs": 12, "up_to_similarity": 0.5},
            {"reason": "work_budget", "pairs": null, "up_to_similarity": 0.75},
        ])
    );
    assert_eq!(read_json(json.as_bytes()).unwrap(), report);
}

#[test]
fn merged_parts_add_their_unlisted_pairs_and_keep_the_lowest_listed() {
    let (limited, more_limited) = (compared(5), compared(3));
    let parts = [limited.input(None), more_limited.input(None)].map(Report::build);
    let lowest = parts.clone().map(|p| {
        p.summary
            .unlisted
            .as_ref()
            .and_then(|u| u.lowest_listed_similarity)
            .unwrap()
    });
    let unlisted: usize = parts
        .iter()
        .map(|p| p.summary.unlisted.as_ref().unwrap().pairs)
        .sum();
    let merged = Report::merge(parts.into()).unwrap();
    let merged = merged.summary.unlisted.unwrap();
    assert_eq!(merged.pairs, unlisted);
    assert_eq!(
        merged.lowest_listed_similarity,
        Some(lowest[0].min(lowest[1]))
    );
}
