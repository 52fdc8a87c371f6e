//! `copyhound dedup` from the outside: what only the command line does —
//! its flags, its summary, its exit status and messages on bad input. What
//! the run finds is tested in `copyhound-dedup`.

use std::fs;
use std::path::Path;

use predicates::prelude::*;
use predicates::str::contains;

use crate::support::{copyhound, temp_dir, write};

/// A paragraph long enough to be a listed passage on its own.
const PARAGRAPH: &str = "The harbour committee met on Tuesday to review the dredging budget, \
    and after a long and often heated debate agreed to postpone the work until the spring tides.";

fn jsonl(rows: &[(&str, String)]) -> String {
    rows.iter()
        .map(|(id, text)| serde_json::json!({ "doc": id, "body": text }).to_string() + "\n")
        .collect()
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn dedup_writes_both_files_and_summarises_what_it_found() {
    let dir = temp_dir();
    let input = write(
        dir.path(),
        "in.jsonl",
        jsonl(&[
            (
                "a",
                format!("A weather report for the coast. {PARAGRAPH} Tides were normal."),
            ),
            ("b", PARAGRAPH.to_owned()),
            (
                "c",
                "Nothing in common with the others at all, a short note.".to_owned(),
            ),
        ]),
    );
    let out = dir.path().join("out");
    copyhound()
        .args([
            "dedup",
            "--id-column",
            "doc",
            "--text-column",
            "body",
            "--output",
        ])
        .arg(&out)
        .arg(&input)
        .assert()
        .success()
        .stderr(contains("3 documents").and(contains("1 pairs listed")));
    assert_eq!(entries(&out), ["clusters.parquet", "pairs.parquet"]);
}

#[test]
fn bad_input_fails_naming_file_and_line_and_leaves_no_output() {
    let dir = temp_dir();
    let input = write(
        dir.path(),
        "in.jsonl",
        jsonl(&[("a", PARAGRAPH.to_owned())]) + "{\"doc\": \"b\"}\n",
    );
    let out = dir.path().join("out");
    copyhound()
        .args(["dedup", "--id-column", "doc", "--text-column", "body", "-o"])
        .arg(&out)
        .arg(&input)
        .assert()
        .failure()
        .stderr(contains("in.jsonl, line 2: has no field `body`"));
    assert!(!out.exists(), "a failed run leaves no output directory");
}

#[test]
fn a_minimum_similarity_outside_zero_to_one_is_refused() {
    let dir = temp_dir();
    let input = write(
        dir.path(),
        "in.jsonl",
        jsonl(&[("a", PARAGRAPH.to_owned())]),
    );
    copyhound()
        .args(["dedup", "--min-similarity", "1.5", "-o"])
        .arg(dir.path().join("out"))
        .arg(&input)
        .assert()
        .failure()
        .stderr(contains("minimum similarity (1.5) must be in [0, 1]"));
}
