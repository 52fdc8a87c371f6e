//! `copyhound db search` of many files: each searched on its own, JSON
//! lines when more than one file is named, passages merged as `compare`
//! merges them, and a query that cannot be read named while the others
//! are still searched.

use std::path::{Path, PathBuf};

use predicates::prelude::*;
use serde_json::{Value, json};

use crate::db::{db, words, write_documents};
use crate::support::{temp_dir, write};

/// A text database at `dir/db` holding `count` documents written to
/// `dir/docs`; returns the database and the documents.
fn database_of(dir: &Path, count: usize) -> (PathBuf, Vec<PathBuf>) {
    let database = dir.join("db");
    let docs = write_documents(&dir.join("docs"), 31, count, 1500);
    db(&["init", "--seed", "7"], &database).success();
    db(&["add", dir.join("docs").to_str().unwrap()], &database).success();
    (database, docs)
}

/// The folder `dir` holding a copy of each file under its name.
fn copies_in(dir: &Path, files: &[(&PathBuf, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for (file, name) in files {
        std::fs::copy(file, dir.join(name)).unwrap();
    }
    dir.to_path_buf()
}

/// The JSON lines `db search --json` printed, one object each.
fn json_lines(stdout: &[u8]) -> Vec<Value> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn many_files_and_folders_are_each_searched_and_printed_as_json_lines() {
    let work = temp_dir();
    let (database, docs) = database_of(work.path(), 4);
    let queries = copies_in(
        &work.path().join("queries"),
        &[(&docs[1], "one.txt"), (&docs[2], "two.txt")],
    );
    let stranger = write(work.path(), "stranger.txt", words(999, 1500));

    let output = db(
        &[
            "search",
            docs[3].to_str().unwrap(),
            queries.to_str().unwrap(),
            stranger.to_str().unwrap(),
            "--json",
        ],
        &database,
    )
    .success()
    .get_output()
    .stdout
    .clone();
    let results = json_lines(&output);
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["query_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            docs[3].to_str().unwrap(),
            queries.join("one.txt").to_str().unwrap(),
            queries.join("two.txt").to_str().unwrap(),
            stranger.to_str().unwrap(),
        ]
    );
    let best: Vec<Value> = results
        .iter()
        .map(|r| r["matches"][0]["id"].clone())
        .collect();
    assert_eq!(best, [json!(3), json!(1), json!(2), Value::Null]);

    // As text: one block per query, in the same order.
    let text = db(
        &[
            "search",
            docs[3].to_str().unwrap(),
            queries.to_str().unwrap(),
        ],
        &database,
    )
    .success()
    .get_output()
    .stdout
    .clone();
    let text = String::from_utf8(text).unwrap();
    let headers: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("hashes searched"))
        .collect();
    assert_eq!(headers.len(), 3, "{text}");
    assert!(headers[1].starts_with(queries.join("one.txt").to_str().unwrap()));
}

#[test]
fn a_copied_stretch_with_small_edits_is_one_passage_with_its_lines() {
    let work = temp_dir();
    let (database, _) = database_of(work.path(), 3);
    // 60 lines registered; the query is 5 lines of its own, then those 60
    // lines with one letter changed on every other line: about 30 exact
    // fragments, one copied passage.
    let original = words(4242, 720);
    let registered = write(work.path(), "docs/original.txt", &original);
    db(&["add", registered.to_str().unwrap()], &database).success();
    let edited: Vec<String> = original
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i % 2 == 1 {
                return line.to_owned();
            }
            let middle = line.len() / 2 + line[line.len() / 2..].find(' ').unwrap() + 1;
            let letter = if line.as_bytes()[middle] == b'z' {
                "y"
            } else {
                "z"
            };
            format!("{}{letter}{}", &line[..middle], &line[middle + 1..])
        })
        .collect();
    let query = write(
        work.path(),
        "query.txt",
        format!("{}{}\n", words(77, 60), edited.join("\n")),
    );

    let found = db(&["search", query.to_str().unwrap(), "--json"], &database)
        .success()
        .get_output()
        .stdout
        .clone();
    let found: Value = serde_json::from_slice(&found).unwrap();
    let best = &found["matches"][0];
    assert!(best["title"].as_str().unwrap().ends_with("original.txt"));
    let passages = best["fragments"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:#?}");
    assert_eq!(passages[0]["query_lines"], json!([6, 65]));
    assert_eq!(passages[0]["registered_lines"], json!([1, 60]));

    db(&["search", query.to_str().unwrap()], &database)
        .success()
        .stdout(predicate::str::contains(
            "query lines 6-65 ~ registered lines 1-60",
        ));
}

#[test]
fn an_unreadable_query_is_named_and_the_others_are_still_searched() {
    let work = temp_dir();
    let (database, docs) = database_of(work.path(), 2);
    let missing = work.path().join("missing.txt");
    let binary = write(work.path(), "image.txt", [0u8, 159, 146, 150, 0, 1, 2, 255]);

    let assert = db(
        &[
            "search",
            missing.to_str().unwrap(),
            binary.to_str().unwrap(),
            docs[1].to_str().unwrap(),
            "--json",
        ],
        &database,
    )
    .code(2)
    .stderr(predicate::str::contains(format!(
        "{}: no such file",
        missing.display()
    )))
    .stderr(predicate::str::contains(format!(
        "{}: looks binary",
        binary.display()
    )));
    let results = json_lines(&assert.get_output().stdout);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["matches"][0]["id"], 1);
}

/// `db search` walks a folder with `compare`'s options: a file that
/// `.gitignore` leaves out and a symbolic link are searched only with
/// `--no-ignore` and `--follow-links`.
#[cfg(unix)]
#[test]
fn a_folder_is_walked_with_the_options_of_compare() {
    let work = temp_dir();
    let (database, docs) = database_of(work.path(), 3);
    let queries = copies_in(
        &work.path().join("queries"),
        &[(&docs[0], "plain.txt"), (&docs[1], "ignored.txt")],
    );
    write(&queries, ".gitignore", "ignored.txt\n");
    std::os::unix::fs::symlink(&docs[2], queries.join("linked.txt")).unwrap();

    let searched = |extra: &[&str]| {
        let mut args = vec!["search", queries.to_str().unwrap(), "--json"];
        args.extend(extra);
        let output = db(&args, &database).get_output().clone();
        let mut names: Vec<String> = json_lines(&output.stdout)
            .iter()
            .map(|r| {
                let name = r["query_name"].as_str().unwrap();
                Path::new(name)
                    .file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        names.sort();
        (names, String::from_utf8(output.stderr).unwrap())
    };
    let (names, stderr) = searched(&[]);
    assert_eq!(names, ["plain.txt"]);
    assert!(stderr.contains("linked.txt"), "{stderr}");
    let (names, _) = searched(&["--no-ignore", "--follow-links"]);
    assert_eq!(names, ["ignored.txt", "linked.txt", "plain.txt"]);
}
