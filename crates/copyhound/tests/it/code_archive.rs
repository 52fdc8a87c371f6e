//! The code archive from the outside: `db init --code`, `db add` of units,
//! and `compare --against` / `--add-to`, on the example batch (Python
//! submissions, two of them disguised copies of others).

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::db::db;
use crate::support::{copyhound, examples, temp_dir};

/// Copies the example submissions `students` into `dir`.
pub fn students(dir: &Path, students: &[&str]) -> PathBuf {
    for student in students {
        let from = examples().join("submissions").join(student);
        std::fs::create_dir_all(dir.join(student)).unwrap();
        for file in std::fs::read_dir(from).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, dir.join(student).join(file.file_name().unwrap())).unwrap();
        }
    }
    dir.to_path_buf()
}

/// The CSV rows of `compare ARGS --csv -`, without the origin columns, each
/// pair's names in name order.
fn rows(args: &[&std::ffi::OsStr]) -> Vec<String> {
    let output = copyhound()
        .arg("compare")
        .args(args)
        .args(["--unit", "dir", "--csv", "-", "-q"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut rows: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            fields.truncate(fields.len() - 2);
            if fields[0] > fields[1] {
                fields.swap(0, 1);
            }
            fields.join(",")
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_batch_against_an_archive_lists_the_rows_a_comparison_of_both_lists() {
    let dir = temp_dir();
    let old = students(&dir.path().join("old"), &["anna", "ben", "dmitri", "hugo"]);
    let new = students(&dir.path().join("new"), &["chloe", "emma", "gina"]);
    let archive = dir.path().join("archive");
    db(&["init", "--code"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive)
        .success()
        .stdout("added\tanna\nadded\tben\nadded\tdmitri\nadded\thugo\n");

    let union = rows(&[new.as_os_str(), old.as_os_str()]);
    let against = rows(&[new.as_os_str(), "--against".as_ref(), archive.as_os_str()]);
    let is_new = |row: &&String| ["chloe", "emma", "gina"].iter().any(|s| row.contains(s));
    let expected: Vec<String> = union.iter().filter(is_new).cloned().collect();
    assert_eq!(against, expected);
    assert!(against.iter().any(|row| row.starts_with("anna,chloe,")));
    assert!(against.iter().any(|row| row.starts_with("ben,emma,")));
}

#[test]
fn adding_again_skips_what_is_there_and_add_to_archives_the_batch() {
    let dir = temp_dir();
    let old = students(&dir.path().join("old"), &["anna", "dmitri"]);
    let archive = dir.path().join("archive");
    db(&["init", "--code"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive)
        .success()
        .stdout(predicates::str::contains(
            "unchanged\tanna\t(already archived",
        ));

    // This year's batch is checked and archived in one command; next
    // year's copy of one of its units is found in the archive.
    let year1 = students(&dir.path().join("year1"), &["ben", "gina"]);
    copyhound()
        .arg("compare")
        .arg(&year1)
        .args(["--unit", "dir", "-q", "--against"])
        .arg(&archive)
        .arg("--add-to")
        .arg(&archive)
        .assert()
        .success()
        .stderr(predicates::str::contains("added 2 units"));
    let year2 = students(&dir.path().join("year2"), &["emma"]);
    let output = copyhound()
        .arg("compare")
        .arg(&year2)
        .args(["--unit", "dir", "-q", "--csv", "-", "--against"])
        .arg(&archive)
        .output()
        .unwrap();
    let csv = String::from_utf8(output.stdout).unwrap();
    let ben = csv
        .lines()
        .find(|l| l.contains("ben"))
        .expect("emma pairs with ben");
    assert!(
        ben.ends_with(",new,archive") || ben.ends_with(",archive,new"),
        "{ben}"
    );
}

#[test]
fn options_conflicting_with_the_archive_and_text_database_commands_are_refused() {
    let dir = temp_dir();
    let new = students(&dir.path().join("new"), &["anna", "chloe"]);
    let archive = dir.path().join("archive");
    db(&["init", "--code", "--k", "12"], &archive).success();
    copyhound()
        .arg("compare")
        .arg(&new)
        .args(["-k", "9", "--against"])
        .arg(&archive)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "-k 9: the archive was made with 12",
        ));
    copyhound()
        .arg("compare")
        .arg(&new)
        .args(["-k", "12", "-q", "--against"])
        .arg(&archive)
        .assert()
        .success();
    db(&["rotate"], &archive)
        .code(2)
        .stderr(predicates::str::contains("a code archive"));
}

/// The passages of a pair with an archived unit are those a plain compare
/// of both gives, on the same lines, once its files are gone: its lines
/// come from the line starts the archive keeps, and the HTML page shows
/// its text from the texts kept apart, with no warning about it.
#[test]
fn passages_of_an_archived_unit_do_not_need_its_files() {
    let dir = temp_dir();
    let old = students(&dir.path().join("old"), &["anna"]);
    let new = students(&dir.path().join("new"), &["chloe"]);
    let archive = dir.path().join("archive");
    db(&["init", "--code"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive).success();
    let passages = |args: &[&std::ffi::OsStr]| {
        let output = copyhound()
            .arg("compare")
            .args(args)
            .args(["--unit", "dir", "--json", "-", "-q"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        assert!(!stderr.contains("(archived)"), "{stderr}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        report["pairs"][0]["passages"].clone()
    };
    let plain = passages(&[new.as_os_str(), old.as_os_str()]);
    assert!(!plain.as_array().unwrap().is_empty(), "{plain}");
    std::fs::remove_dir_all(&old).unwrap();
    let against = [new.as_os_str(), "--against".as_ref(), archive.as_os_str()];
    assert_eq!(passages(&against), plain);
    copyhound()
        .arg("compare")
        .args(against)
        .args(["--unit", "dir", "-q", "--report"])
        .arg(dir.path().join("page.html"))
        .assert()
        .success()
        .stderr(predicates::str::contains("(archived)").not());
}
