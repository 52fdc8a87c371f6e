//! Archives walked as folders: their units, the names of their files, and
//! the texts an output reads again from inside them.

use std::io::Write;

use copyhound_pipeline::{CompareSettings, UnitMode};
use zip::ZipWriter;
use zip::write::SimpleFileOptions;

use super::support::{Batch, JAVA_SUM, RIVERS, inputs, outcome, report};

/// A zip archive of `entries`.
fn zip(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut writer = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in entries {
        writer
            .start_file(*name, SimpleFileOptions::default())
            .unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// Every document of every unit of a report, and its text read again.
fn texts(batch_inputs: &copyhound_pipeline::Inputs) -> Vec<(String, Option<String>)> {
    let outcome = outcome(batch_inputs, &CompareSettings::default());
    let report = report(&outcome);
    let mut texts = Vec::new();
    for (u, unit) in report.units.iter().enumerate() {
        for (d, document) in unit.documents.iter().enumerate() {
            texts.push((document.path.clone(), outcome.document_text(&report, u, d)));
        }
    }
    texts
}

#[test]
fn the_files_of_archives_in_a_folder_are_read_again_for_outputs() {
    let batch = Batch::new();
    batch.write("subs/alice.zip", zip(&[("src/Sum.java", JAVA_SUM)]));
    batch.write("subs/bob.zip", zip(&[("Sum.java", JAVA_SUM)]));
    let texts = texts(&inputs(&[&batch.path("subs")]));
    let paths: Vec<&str> = texts.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["alice.zip/src/Sum.java", "bob.zip/Sum.java"]);
    assert!(texts.iter().all(|(_, t)| t.as_deref() == Some(JAVA_SUM)));
}

#[test]
fn the_folders_of_an_archive_given_as_a_path_are_units_read_again() {
    let batch = Batch::new();
    let export = batch.write(
        "export.zip",
        zip(&[
            ("alice/a.txt", RIVERS),
            ("bob/notes/b.txt", RIVERS),
            ("carol/c.txt", RIVERS),
        ]),
    );
    let texts = texts(&inputs(&[&export]));
    let paths: Vec<&str> = texts.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "export.zip/alice/a.txt",
            "export.zip/bob/notes/b.txt",
            "export.zip/carol/c.txt"
        ]
    );
    assert!(texts.iter().all(|(_, t)| t.as_deref() == Some(RIVERS)));
    let report = report(&outcome(&inputs(&[&export]), &CompareSettings::default()));
    let units: Vec<&str> = report.units.iter().map(|u| u.path.as_str()).collect();
    assert_eq!(
        units,
        ["export.zip/alice", "export.zip/bob", "export.zip/carol"]
    );
}

/// A zip holding one folder (a zipped project folder) is one unit named
/// after the zip, with either unit mode that groups.
#[test]
fn an_archive_of_one_folder_is_one_unit() {
    let batch = Batch::new();
    let a = batch.write(
        "a.zip",
        zip(&[("project/x.txt", RIVERS), ("project/y/z.txt", RIVERS)]),
    );
    let b = batch.write("b.zip", zip(&[("x.txt", RIVERS)]));
    for unit in [UnitMode::Auto, UnitMode::Dir] {
        let batch_inputs = copyhound_pipeline::Inputs {
            unit,
            ..inputs(&[&a, &b])
        };
        let report = report(&outcome(&batch_inputs, &CompareSettings::default()));
        let units: Vec<&str> = report.units.iter().map(|u| u.path.as_str()).collect();
        assert_eq!(units, ["a.zip", "b.zip"], "{unit:?}");
    }
}
