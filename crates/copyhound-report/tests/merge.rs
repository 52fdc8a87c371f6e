//! `Report::merge`: the reports of a batch's languages joined into one,
//! with unit ids renumbered, pairs by similarity and only within a
//! language, totals added up and each language's settings kept.

mod common;

use common::Compared;
use copyhound_index::Unit;
use copyhound_report::{
    PairDetails, Problem, ProblemKind, Report, read_json, write_json, write_json_with_details,
};

const FOX: &str = "The quick brown fox jumps over the lazy dog near the river bank.";
const FOX_COPY: &str = "Look: the quick brown fox jumps over the lazy dog near the river.";
const RAIN: &str = "Rain falls softly on the old tin roof all through the night.";
const RAIN_COPY: &str = "rain falls softly on the old tin roof all night long, again";
const RAIN_PART: &str = "Falls softly on the old tin roof, says the poem.";

/// One language's units, compared with k-grams of `k` characters, with
/// one unreadable file `problem`.
fn language_part(language: &str, k: usize, units: &[(&str, &str)], problem: &str) -> Compared {
    let units: Vec<Unit> = units
        .iter()
        .map(|(name, text)| Unit::new(*name, vec![common::document(name, text, k, 4, 3)]))
        .collect();
    let roots = vec!["subs".to_string(); units.len()];
    let problems = vec![Problem {
        path: problem.into(),
        message: format!("{problem}: unreadable"),
        kind: ProblemKind::Unreadable,
    }];
    let mut compared = Compared::new(units, roots, (k, 4, 3), problems);
    compared.parameters.language = Some(language.into());
    compared
}

fn compared_parts() -> [Compared; 2] {
    [
        language_part("prose", 6, &[("fox", FOX), ("fox-copy", FOX_COPY)], "x"),
        language_part(
            "poetry",
            8,
            &[
                ("rain", RAIN),
                ("rain-copy", RAIN_COPY),
                ("rain-part", RAIN_PART),
            ],
            "y",
        ),
    ]
}

fn parts() -> Vec<Report> {
    compared_parts()
        .iter()
        .map(|part| Report::build(part.input(None)))
        .collect()
}

#[test]
fn merged_reports_keep_pairs_within_a_language_and_add_up() {
    let parts = parts();
    assert!(
        parts.iter().all(|p| !p.pairs.is_empty()),
        "both parts have pairs"
    );
    let merged = Report::merge(parts.clone()).unwrap();

    assert_eq!(merged.units.len(), 5);
    for (id, unit) in merged.units.iter().enumerate() {
        assert_eq!(unit.id, id);
    }
    let names: Vec<&str> = merged.units.iter().map(|u| u.path.as_str()).collect();
    assert_eq!(names, ["fox", "fox-copy", "rain", "rain-copy", "rain-part"]);
    assert_eq!(merged.units[3].language.as_deref(), Some("poetry"));

    assert_eq!(
        merged.pairs.len(),
        parts.iter().map(|p| p.pairs.len()).sum::<usize>()
    );
    assert!(
        merged
            .pairs
            .windows(2)
            .all(|w| w[0].similarity >= w[1].similarity),
        "most similar first"
    );
    for pair in &merged.pairs {
        let (a, b) = (&merged.units[pair.a.unit], &merged.units[pair.b.unit]);
        assert_eq!(
            (a.path.as_str(), b.path.as_str()),
            (pair.a.path.as_str(), pair.b.path.as_str())
        );
        assert_eq!(a.language, b.language, "no pair across languages");
    }

    let summed = |field: fn(&Report) -> usize| parts.iter().map(field).sum::<usize>();
    assert_eq!(merged.summary.units, summed(|p| p.summary.units));
    assert_eq!(
        merged.summary.matching_pairs,
        summed(|p| p.summary.matching_pairs)
    );
    assert_eq!(
        merged.summary.candidate_pairs,
        summed(|p| p.summary.candidate_pairs)
    );
    assert_eq!(
        merged.summary.fingerprints,
        summed(|p| p.summary.fingerprints)
    );
    assert_eq!(merged.problems.len(), 2);

    // The settings: each language's, and at the top those of the language
    // with most units.
    assert_eq!(merged.parameters.language, None);
    assert_eq!(merged.parameters.k, 8);
    let languages: Vec<(&str, usize, usize)> = merged
        .parameters
        .languages
        .iter()
        .map(|l| (l.language.as_str(), l.units, l.k))
        .collect();
    assert_eq!(languages, [("prose", 2, 6), ("poetry", 3, 8)]);

    let mut json = Vec::new();
    write_json(&merged, &mut json).unwrap();
    assert_eq!(read_json(json.as_slice()).unwrap(), merged);
}

#[test]
fn one_part_is_the_report_itself_and_none_is_nothing() {
    let only = parts().remove(1);
    assert_eq!(Report::merge(vec![only.clone()]), Some(only));
    assert_eq!(Report::merge(Vec::new()), None);
}

#[test]
fn merged_details_are_found_in_each_part() {
    let compared = compared_parts();
    let complete = Report::merge(parts()).unwrap();
    let outline = Report::merge(
        compared
            .iter()
            .map(|part| Report::build_without_details(part.input(None)))
            .collect(),
    )
    .unwrap();
    let details = PairDetails::merge(
        compared
            .iter()
            .map(|part| PairDetails::new(&part.input(None))),
    );
    let mut streamed = Vec::new();
    write_json_with_details(&outline, &details, usize::MAX, &mut streamed).unwrap();
    let mut written = Vec::new();
    write_json(&complete, &mut written).unwrap();
    assert_eq!(String::from_utf8(streamed), String::from_utf8(written));

    let mut filled = outline.clone();
    filled.fill_details(&details, usize::MAX);
    assert_eq!(filled, complete);
    assert_eq!(complete.summary.detailed_pairs, complete.pairs.len());
    assert!(
        complete
            .pairs
            .iter()
            .all(|p| !p.listed_fragments().is_empty())
    );
}
