//! A batch is compared one family (language, or text) at a time; what
//! cannot be compared is left out and said why.

use copyhound_index::Role;
use copyhound_normalize::code::Language;
use copyhound_pipeline::{
    CompareSettings, Family, FrontEnd, FrontEndChoice, Inputs, PipelineError, UnitMode, run,
};
use copyhound_report::ProblemKind;

use crate::support::{
    BINARY, Batch, C_SQUARES, JAVA_SUM, RIVERS, compare, example_python, inputs, names, outcome,
    pair_names, report,
};

/// A Java program that counts words.
const JAVA_COUNT: &str = "import java.util.*;

public class Count {
    static Map<String, Integer> count(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String word : words) {
            counts.put(word, counts.getOrDefault(word, 0) + 1);
        }
        return counts;
    }
}
";

#[test]
fn each_family_is_compared_on_its_own_and_a_lone_unit_is_left_out() {
    let batch = Batch::new();
    batch.write("in/anna.py", example_python("anna"));
    batch.write("in/chloe.py", example_python("chloe"));
    batch.write("in/Ann.java", JAVA_COUNT);
    batch.write("in/Bo.java", JAVA_COUNT.replace("counts", "tally"));
    batch.write("in/Sum.java", JAVA_SUM);
    batch.write("in/squares.c", C_SQUARES);
    let outcome = outcome(&inputs(&[&batch.path("in")]), &CompareSettings::default());
    let families: Vec<(Family, usize)> = outcome
        .families
        .iter()
        .map(|family| (family.family, family.units.len()))
        .collect();
    // Most units first.
    assert_eq!(
        families,
        [
            (Family::Code(Language::Java), 3),
            (Family::Code(Language::Python), 2)
        ]
    );
    assert_eq!(
        outcome.families[0].parameters.language.as_deref(),
        Some("java")
    );
    let [problem] = outcome.problems.as_slice() else {
        panic!("one problem: {:?}", outcome.problems);
    };
    assert!(problem.path.ends_with("squares.c"));
    assert!(
        problem.message.ends_with(
            "squares.c: skipped: no other c unit to compare it with (each language is compared on its own; --lang reads every file as one)"
        ),
        "{}",
        problem.message
    );
    let report = report(&outcome);
    assert_eq!(report.parameters.language, None);
    assert_eq!(report.problems, outcome.problems);
    assert!(
        pair_names(&report).contains(&("Ann.java".into(), "Bo.java".into())),
        "{:?}",
        pair_names(&report)
    );
    for pair in &report.pairs {
        let language = |unit: usize| report.units[unit].language.clone();
        assert_eq!(language(pair.a.unit), language(pair.b.unit));
    }

    // Read as one language, the batch is one family.
    let as_text = CompareSettings {
        front_end: FrontEnd::new(&FrontEndChoice {
            lang: Some("text".into()),
            ..FrontEndChoice::default()
        })
        .unwrap(),
        ..CompareSettings::default()
    };
    let outcome = crate::support::outcome(&inputs(&[&batch.path("in")]), &as_text);
    assert_eq!(outcome.families.len(), 1);
    assert_eq!(outcome.families[0].family, Family::Text);
    assert_eq!(outcome.families[0].units.len(), 6);
}

#[test]
fn a_multi_file_unit_is_compared_in_the_language_of_most_of_its_files() {
    let batch = Batch::new();
    for student in ["anna", "chloe"] {
        batch.write(
            &format!("in/{student}/wordfreq.py"),
            example_python(student),
        );
        batch.write(
            &format!("in/{student}/helpers.py"),
            "def helper(x):\n    return x + 1\n",
        );
    }
    batch.write("in/chloe/Count.java", JAVA_COUNT);
    let inputs = Inputs {
        unit: UnitMode::Dir,
        ..inputs(&[&batch.path("in")])
    };
    let outcome = outcome(&inputs, &CompareSettings::default());
    let [problem] = outcome.problems.as_slice() else {
        panic!("one problem: {:?}", outcome.problems);
    };
    assert!(problem.path.ends_with("Count.java"));
    assert!(
        problem.message.ends_with(
            "skipped: read as java, but most files of chloe are python; use --lang to read every file as one language"
        ),
        "{}",
        problem.message
    );
    let report = report(&outcome);
    assert_eq!(report.units[1].path, "chloe");
    assert_eq!(report.units[1].language.as_deref(), Some("python"));
    assert_eq!(report.units[1].documents.len(), 2);
    assert_eq!(pair_names(&report), names(&[("anna", "chloe")]));
}

/// Files are loaded while folders are still being listed, in whatever
/// order the walk finds them; what could not be read is still reported in
/// the order of the units' names.
#[test]
fn load_errors_are_reported_in_name_order() {
    let batch = Batch::new();
    batch.write("in/a/good.txt", RIVERS);
    batch.write("in/b/good.txt", RIVERS);
    let mut expected = Vec::new();
    for i in (0..30).rev() {
        let bad = batch.write(&format!("in/s{i:02}/sub/bad.txt"), BINARY);
        expected.push(bad.display().to_string());
    }
    expected.sort();
    let inputs = Inputs {
        unit: UnitMode::File,
        ..inputs(&[&batch.path("in")])
    };
    let report = compare(&inputs, &CompareSettings::default());
    let problems: Vec<&str> = report.problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(problems, expected);
    assert!(report.problems[0].message.contains("binary"));
}

#[test]
fn a_batch_without_two_units_of_a_family_is_an_error_that_keeps_the_problems() {
    let batch = Batch::new();
    batch.write("in/Sum.java", JAVA_SUM);
    batch.write("in/squares.c", C_SQUARES);
    let unreadable = batch.write("in/z.bin", BINARY);
    let error = run(
        &inputs(&[&batch.path("in")]),
        &CompareSettings::default(),
        &(),
    )
    .unwrap_err();
    assert!(
        matches!(&error, PipelineError::NothingComparable { families, .. }
            if families == "c: 1 unit(s), 1 new; java: 1 unit(s), 1 new"),
        "{error}"
    );
    let [problem] = error.problems() else {
        panic!("one problem: {:?}", error.problems());
    };
    assert_eq!(problem.kind, ProblemKind::Unreadable);
    assert_eq!(problem.path, unreadable.display().to_string());
    assert!(
        problem
            .message
            .starts_with(&unreadable.display().to_string())
    );

    // Earlier submissions alone are nothing to compare either.
    let old_only = Inputs {
        old: vec![batch.path("old")],
        ..inputs(&[&batch.path("new")])
    };
    batch.write("new/.keep", "");
    batch.write("old/a.txt", RIVERS);
    batch.write("old/b.txt", RIVERS);
    let error = run(&old_only, &CompareSettings::default(), &()).unwrap_err();
    assert!(
        error.to_string().starts_with("nothing to compare in "),
        "{error}"
    );
    assert!(
        error.to_string().contains("(text: 2 unit(s), 0 new)"),
        "{error}"
    );

    let empty = batch.path("empty");
    std::fs::create_dir(&empty).unwrap();
    let error = run(&inputs(&[&empty]), &CompareSettings::default(), &()).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "nothing to compare: no readable file in {}",
            empty.display()
        )
    );
}

#[test]
fn old_units_keep_their_role() {
    let batch = Batch::new();
    batch.write("new/z.txt", RIVERS);
    batch.write("old/x.txt", RIVERS);
    batch.write("old/y.txt", RIVERS);
    let inputs = Inputs {
        old: vec![batch.path("old")],
        ..inputs(&[&batch.path("new")])
    };
    let outcome = outcome(&inputs, &CompareSettings::default());
    let roles: Vec<Role> = outcome.families[0].units.iter().map(|u| u.role).collect();
    assert_eq!(roles, [Role::New, Role::Old, Role::Old]);
    assert_eq!(
        pair_names(&report(&outcome)),
        names(&[("x.txt", "z.txt"), ("y.txt", "z.txt")])
    );
}
