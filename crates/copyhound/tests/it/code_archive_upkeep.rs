//! A code archive's upkeep from the outside: `db stats` and `db check` of
//! one, and a `db add` killed with SIGKILL part-way, which loses no unit it
//! reported and none stored before.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use predicates::prelude::*;
use serde_json::Value;

use crate::code_archive::students;
use crate::db::db;
use crate::support::{binary, copyhound, temp_dir, write};

#[test]
fn stats_and_check_describe_a_code_archive() {
    let dir = temp_dir();
    let old = students(&dir.path().join("old"), &["anna", "ben", "dmitri"]);
    write(
        &old,
        "notes/readme.txt",
        "Three students handed in one exercise each: counting the words of a \
         text and printing the most frequent ones, with their counts.\n",
    );
    let archive = dir.path().join("archive");
    db(&["init", "--code", "--k", "12"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive).success();

    let output = db(&["stats", "--json"], &archive).success();
    let stats: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    assert_eq!(stats["kind"], "code archive");
    assert_eq!(stats["format"], 4);
    assert_eq!(stats["units"], 4);
    assert_eq!(stats["files"], 4);
    assert_eq!(stats["languages"]["python"], 3);
    assert_eq!(stats["languages"]["text"], 1);
    assert_eq!(stats["settings"]["k"], "12");
    assert_eq!(stats["keeps_texts"], true);
    let bytes = stats["bytes"].as_f64().unwrap();
    assert!((stats["bytes_per_unit"].as_f64().unwrap() - bytes / 4.0).abs() < 1e-9);
    db(&["stats"], &archive)
        .success()
        .stdout(predicate::str::contains(
            "units             4 (python 3, text 1) with 4 files",
        ));

    db(&["check"], &archive)
        .success()
        .stdout("ok: 4 units, 4 files (code archive)\n");
}

#[test]
fn check_reports_a_damaged_archive() {
    let dir = temp_dir();
    let old = students(&dir.path().join("old"), &["anna", "ben"]);
    let archive = dir.path().join("archive");
    db(&["init", "--code"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive).success();
    // Every stored copy of a unit's name, flipped: the pages that hold it
    // no longer match their checksums.
    let file = archive.join("archive.redb");
    let mut bytes = std::fs::read(&file).unwrap();
    let name = b"anna";
    let places: Vec<usize> = (0..bytes.len() - name.len())
        .filter(|&i| &bytes[i..i + name.len()] == name)
        .collect();
    assert!(!places.is_empty());
    for place in places {
        bytes[place] ^= 0x20;
    }
    std::fs::write(&file, bytes).unwrap();
    db(&["check"], &archive)
        .code(1)
        .stdout(predicate::str::starts_with("damaged"))
        .stderr(predicate::str::contains(file.to_str().unwrap()));
}

/// A truncated archive file is named in one error that says its cause
/// once, by `compare --against` and `db stats` alike, with exit code 2.
#[test]
fn a_truncated_archive_is_named_with_its_cause_said_once() {
    let dir = temp_dir();
    let archive = dir.path().join("archive");
    db(&["init", "--code"], &archive).success();
    let file = archive.join("archive.redb");
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(5000)
        .unwrap();
    let new = write(dir.path(), "new.py", "print(1)\n");
    let against = copyhound()
        .args(["compare", new.to_str().unwrap(), "--against"])
        .arg(&archive)
        .assert()
        .code(2);
    let stats = db(&["stats"], &archive).code(2);
    for assert in [against, stats] {
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        let cause = "File truncated below stored layout";
        assert!(
            stderr.starts_with(&format!("copyhound: error: {}: ", file.display())),
            "{stderr}"
        );
        assert_eq!(stderr.matches(cause).count(), 1, "{stderr}");
    }
}

/// `count` small Python files, each its own unit, in `dir`.
fn programs(dir: &Path, first: usize, count: usize) -> PathBuf {
    for i in first..first + count {
        let body = format!(
            "def tally_{i}(values):\n    total = {i}\n    for value in values:\n        \
             if value % {} == 0:\n            total += value * {i}\n    return total\n",
            i % 7 + 2
        );
        write(dir, &format!("p{i:04}.py"), body);
    }
    dir.to_path_buf()
}

/// The names of the `db add` output lines that start with `what`.
fn names(stdout: &str, what: &str) -> BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix(what)?.strip_prefix('\t'))
        .map(|rest| rest.split('\t').next().unwrap().to_owned())
        .collect()
}

/// A `db add` of a code archive killed with SIGKILL part-way, one unit per
/// transaction: the archive opens and passes `check`, every unit added
/// before and every unit it reported is there, and adding the batch again
/// stores exactly the others.
#[test]
fn a_killed_add_of_a_code_archive_loses_no_unit_it_reported() {
    let dir = temp_dir();
    let archive = dir.path().join("archive");
    let before = programs(&dir.path().join("before"), 0, 20);
    let batch = programs(&dir.path().join("batch"), 100, 300);
    db(&["init", "--code"], &archive).success();
    db(
        &["add", before.to_str().unwrap(), "--unit", "file"],
        &archive,
    )
    .success();

    let mut child = Command::new(binary())
        .args(["db", "add"])
        .arg(&archive)
        .arg(&batch)
        .args(["--unit", "file", "--batch", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut reported = String::new();
    for _ in 0..5 {
        reported.push_str(&lines.next().expect("the writer reports units").unwrap());
        reported.push('\n');
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "it had exited before the kill");
    // Lines written before the kill were committed too.
    for line in lines.map_while(Result::ok) {
        reported.push_str(&line);
        reported.push('\n');
    }
    let reported = names(&reported, "added");
    assert!(reported.len() >= 5 && reported.len() < 300, "{reported:?}");

    db(&["check"], &archive)
        .success()
        .stdout(predicate::str::starts_with("ok: "));
    let again = db(
        &["add", before.to_str().unwrap(), "--unit", "file"],
        &archive,
    )
    .success();
    let again = String::from_utf8(again.get_output().stdout.clone()).unwrap();
    assert_eq!(names(&again, "unchanged").len(), 20, "{again}");
    assert!(names(&again, "added").is_empty(), "{again}");

    let rest = db(
        &["add", batch.to_str().unwrap(), "--unit", "file"],
        &archive,
    )
    .success();
    let rest = String::from_utf8(rest.get_output().stdout.clone()).unwrap();
    let unchanged = names(&rest, "unchanged");
    assert!(
        reported.is_subset(&unchanged),
        "reported units were lost: {:?}",
        reported.difference(&unchanged).collect::<Vec<_>>()
    );
    assert_eq!(unchanged.len() + names(&rest, "added").len(), 300);
    let stats = db(&["stats", "--json"], &archive).success();
    let stats: Value = serde_json::from_slice(&stats.get_output().stdout).unwrap();
    assert_eq!(stats["units"], 320);
}
