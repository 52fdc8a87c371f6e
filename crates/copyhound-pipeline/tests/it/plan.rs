//! Which files make up which unit, and the names units go by.

use copyhound_index::Role;
use copyhound_pipeline::{CompareSettings, Inputs, UnitMode, WalkFilter};

use crate::support::{
    BIRDS, Batch, ENGINES, RIVERS, compare, inputs, names, outcome, pair_names, report,
};

#[test]
fn new_and_old_units_are_planned_with_their_roles_and_the_base_files() {
    let batch = Batch::new();
    batch.write("new/b.txt", RIVERS);
    batch.write("new/a.txt", RIVERS);
    batch.write("old/a.txt", RIVERS);
    batch.write("base/template.txt", RIVERS);
    let inputs = Inputs {
        old: vec![batch.path("old")],
        base: vec![batch.path("base")],
        ..inputs(&[&batch.path("new")])
    };
    let plan = inputs.plan(&|_| ()).unwrap();
    let units: Vec<(&str, Role)> = plan
        .units
        .iter()
        .map(|unit| (unit.name.as_str(), unit.role))
        .collect();
    // The new units in name order, then the old; the clash of `a.txt`
    // is told apart by the end of each PATH.
    assert_eq!(
        units,
        [
            ("new/a.txt", Role::New),
            ("b.txt", Role::New),
            ("old/a.txt", Role::Old)
        ]
    );
    let base: Vec<&str> = plan.base.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(base, ["template.txt"]);
}

#[test]
fn a_folder_of_folders_is_compared_by_folder() {
    let batch = Batch::new();
    let input = batch.path("in");
    batch.write("in/team1/part1.txt", RIVERS);
    batch.write("in/team1/part2.txt", ENGINES);
    batch.write("in/team2/all.txt", format!("{ENGINES}\n{RIVERS}"));
    batch.write("in/team3/own.txt", BIRDS);
    let settings = CompareSettings::default();
    let by_folder = compare(&inputs(&[&input]), &settings);
    assert_eq!(pair_names(&by_folder), names(&[("team1", "team2")]));
    assert!(by_folder.pairs[0].similarity > 0.9);
    // File by file instead: part1 and part2 each match team2/all.txt.
    let by_file = Inputs {
        unit: UnitMode::File,
        ..inputs(&[&input])
    };
    assert_eq!(
        pair_names(&compare(&by_file, &settings)),
        names(&[
            ("team1/part1.txt", "team2/all.txt"),
            ("team1/part2.txt", "team2/all.txt")
        ])
    );
}

#[test]
fn gitignore_and_globs_choose_the_files() {
    let batch = Batch::new();
    let input = batch.path("in");
    batch.write("in/.gitignore", "build/\n");
    batch.write("in/a.txt", BIRDS);
    batch.write("in/b.md", BIRDS);
    batch.write("in/build/c.txt", BIRDS);
    let pairs = |filter: WalkFilter| {
        let inputs = Inputs {
            filter,
            ..inputs(&[&input])
        };
        pair_names(&compare(&inputs, &CompareSettings::default()))
    };
    assert_eq!(pairs(WalkFilter::default()), names(&[("a.txt", "b.md")]));
    let all_text = WalkFilter {
        include: vec!["*.txt".into()],
        honour_ignore_files: false,
        ..WalkFilter::default()
    };
    assert_eq!(pairs(all_text), names(&[("a.txt", "build/c.txt")]));
    let no_markdown = WalkFilter {
        exclude: vec!["*.md".into()],
        honour_ignore_files: false,
        ..WalkFilter::default()
    };
    assert_eq!(pairs(no_markdown), names(&[("a.txt", "build/c.txt")]));
}

#[test]
fn bad_globs_are_refused_naming_the_option() {
    let batch = Batch::new();
    batch.write("in/a.txt", BIRDS);
    let inputs = Inputs {
        filter: WalkFilter {
            exclude: vec!["a{".into()],
            ..WalkFilter::default()
        },
        ..inputs(&[&batch.path("in")])
    };
    let error = inputs.plan(&|_| ()).unwrap_err().to_string();
    assert_eq!(error, "invalid --exclude glob \"a{\"");
    let missing = inputs.new[0].join("nothing-here");
    let error = super::support::inputs(&[&missing])
        .plan(&|_| ())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{}: no such file or directory", missing.display())
    );
}

#[test]
fn same_named_units_under_several_paths_get_distinct_names() {
    let batch = Batch::new();
    batch.write("2023/x.txt", format!("{RIVERS}\n{ENGINES}"));
    batch.write("2024/x.txt", format!("{ENGINES}\n{RIVERS}"));
    batch.write("2024/y.txt", format!("{RIVERS}\n{BIRDS}"));
    let both = inputs(&[&batch.path("2023"), &batch.path("2024")]);
    // Only the clashing name is prefixed; y.txt stays relative to its PATH.
    assert_eq!(
        pair_names(&compare(&both, &CompareSettings::default())),
        names(&[
            ("2023/x.txt", "2024/x.txt"),
            ("2023/x.txt", "y.txt"),
            ("2024/x.txt", "y.txt"),
        ])
    );
    // Folder units nested under different parents, as in `insert/subm0`
    // and `refactor/subm0`; each unit keeps its PATH.
    batch.write("sets/insert/subm0/a.txt", RIVERS);
    batch.write("sets/refactor/subm0/a.txt", RIVERS);
    let nested = Inputs {
        unit: UnitMode::Dir,
        ..inputs(&[&batch.path("sets/insert"), &batch.path("sets/refactor")])
    };
    let report = compare(&nested, &CompareSettings::default());
    assert_eq!(
        pair_names(&report),
        names(&[("insert/subm0", "refactor/subm0")])
    );
    assert_eq!(report.units[0].path, "insert/subm0");
    assert_eq!(
        report.units[0].root,
        batch.path("sets/insert").display().to_string()
    );
    assert_eq!(report.units[0].documents[0].path, "subm0/a.txt");
}

/// A file listed twice (its folder given twice, or as new and as base
/// code) is read for each listing.
#[test]
fn a_file_listed_twice_is_read_for_each_listing() {
    let batch = Batch::new();
    let input = batch.path("in");
    let a = batch.write("in/a.txt", format!("{RIVERS}\n{ENGINES}"));
    batch.write("in/b.txt", format!("{RIVERS}\n{BIRDS}"));
    let settings = CompareSettings::default();
    let twice = compare(&inputs(&[&input, &input]), &settings);
    assert_eq!(twice.pairs.len(), 6);
    // Each listing is a unit: the second of a name is told apart by `#2`.
    let twins: Vec<(&str, f64)> = twice
        .pairs
        .iter()
        .filter(|pair| format!("{}#2", pair.a.path) == pair.b.path)
        .map(|pair| (pair.a.path.rsplit('/').next().unwrap(), pair.similarity))
        .collect();
    assert_eq!(twins, [("a.txt", 1.0), ("b.txt", 1.0)]);
    // Given as a file and in its folder.
    let file_and_folder = compare(&inputs(&[&a, &input]), &settings);
    assert!(
        file_and_folder
            .pairs
            .iter()
            .any(|pair| pair.a.path.ends_with("in/a.txt")
                && pair.b.path == format!("{}#2", pair.a.path)
                && (pair.similarity - 1.0).abs() < 1e-9)
    );
    // As base code, a.txt takes away all that b.txt shares with it.
    assert_eq!(compare(&inputs(&[&input]), &settings).pairs.len(), 1);
    let with_base = Inputs {
        base: vec![a],
        ..inputs(&[&input])
    };
    let outcome = outcome(&with_base, &settings);
    assert!(report(&outcome).pairs.is_empty());
    assert_eq!(
        outcome.families[0].parameters.base,
        [batch.path("in/a.txt").display().to_string()]
    );
}
