//! What a batch could not check is listed, never dropped in silence: empty
//! files, units too short to check, and what `--unit auto` chose where a
//! layout was mixed.

use std::sync::Mutex;

use copyhound_pipeline::{CompareSettings, Progress, Stage, Warning, run};
use copyhound_report::ProblemKind;

use crate::support::{BIRDS, Batch, ENGINES, RIVERS, inputs, names, pair_names, report};

/// The warnings of a run, as the command line would print them.
#[derive(Default)]
struct Warnings(Mutex<Vec<String>>);

impl Progress for Warnings {
    fn start(&self, _: Stage, _: u64) {}
    fn found(&self) {}
    fn advance(&self, _: u64) {}
    fn warn(&self, warning: Warning<'_>) {
        let message = match warning {
            Warning::Read { path, message } => format!("{}: {message}", path.display()),
            Warning::LeftOut(problem) => problem.message.clone(),
            Warning::Layout(message) => message.to_string(),
        };
        self.0.lock().unwrap().push(message);
    }
}

#[test]
fn an_empty_file_and_a_unit_too_short_to_check_are_problems() {
    let batch = Batch::new();
    batch.write("in/a.txt", RIVERS);
    batch.write("in/b.txt", RIVERS);
    let empty = batch.write("in/empty.txt", "");
    let short = batch.write("in/short.txt", "Too short.");
    let warnings = Warnings::default();
    let outcome = run(
        &inputs(&[&batch.path("in")]),
        &CompareSettings::default(),
        &warnings,
    )
    .unwrap();
    let problems: Vec<(&str, ProblemKind)> = outcome
        .problems
        .iter()
        .map(|p| (p.path.as_str(), p.kind))
        .collect();
    let (empty, short) = (empty.display().to_string(), short.display().to_string());
    assert_eq!(
        problems,
        [
            (empty.as_str(), ProblemKind::Empty),
            (short.as_str(), ProblemKind::TooShort)
        ]
    );
    let too_short = &outcome.problems[1].message;
    assert!(
        too_short.starts_with(&format!("{short}: too short to check: 8 characters")),
        "{too_short}"
    );
    // Each is said as a warning too, as soon as it is known.
    let warnings = warnings.0.into_inner().unwrap();
    for problem in &outcome.problems {
        assert!(warnings.contains(&problem.message), "{warnings:?}");
    }
}

#[test]
fn a_stray_file_among_folders_is_a_unit_of_its_own_and_said() {
    let batch = Batch::new();
    batch.write("in/alice/a.txt", RIVERS);
    batch.write("in/bob/b.txt", RIVERS);
    batch.write("in/carol/c.txt", BIRDS);
    batch.write("in/notes.txt", ENGINES);
    let warnings = Warnings::default();
    let input = batch.path("in");
    let outcome = run(&inputs(&[&input]), &CompareSettings::default(), &warnings).unwrap();
    let report = report(&outcome);
    let units: Vec<&str> = report.units.iter().map(|u| u.path.as_str()).collect();
    assert_eq!(units, ["alice", "bob", "carol", "notes.txt"]);
    let warnings = warnings.0.into_inner().unwrap();
    let [layout] = warnings.as_slice() else {
        panic!("one warning: {warnings:?}");
    };
    assert!(
        layout.contains("took each of its 3 folders as one unit")
            && layout.contains("(notes.txt)")
            && layout.contains("--unit file"),
        "{layout}"
    );
}

#[test]
fn folders_of_folders_of_folders_are_said() {
    let batch = Batch::new();
    batch.write("in/section1/alice/a.txt", RIVERS);
    batch.write("in/section1/bob/b.txt", BIRDS);
    batch.write("in/section2/carol/c.txt", RIVERS);
    batch.write("in/section2/dave/d.txt", ENGINES);
    let warnings = Warnings::default();
    let input = batch.path("in");
    let report = report(&run(&inputs(&[&input]), &CompareSettings::default(), &warnings).unwrap());
    assert_eq!(pair_names(&report), names(&[("section1", "section2")]));
    let warnings = warnings.0.into_inner().unwrap();
    let [layout] = warnings.as_slice() else {
        panic!("one warning: {warnings:?}");
    };
    assert!(
        layout.contains("each holds only folders") && layout.contains("alice/"),
        "{layout}"
    );
    // A plain folder of folders is not warned about.
    let plain = Warnings::default();
    run(
        &inputs(&[&batch.path("in/section1")]),
        &CompareSettings::default(),
        &plain,
    )
    .unwrap();
    assert!(plain.0.into_inner().unwrap().is_empty());
}
