//! `copyhound db …` end to end: init, add, search, remove, stats, rotate,
//! check, and a writer killed with SIGKILL in the middle of `db add`.

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use predicates::prelude::*;
use serde_json::Value;

use crate::support::{binary, copyhound, temp_dir};

/// Deterministic English-like words: a fixed vocabulary, Zipf-like choice.
pub fn words(seed: u64, count: usize) -> String {
    let mut vocabulary_state = 0x5eed_u64;
    let vocabulary: Vec<String> = (0..3000)
        .map(|_| {
            let len = 2 + (step(&mut vocabulary_state) % 8) as usize;
            (0..len)
                .map(|_| char::from(b'a' + (step(&mut vocabulary_state) % 26) as u8))
                .collect()
        })
        .collect();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = String::new();
    for i in 0..count {
        let u = (step(&mut state) % 10_000) as f64 / 10_000.0;
        out.push_str(&vocabulary[((u * u) * vocabulary.len() as f64) as usize]);
        out.push_str(if i % 12 == 11 { ".\n" } else { " " });
    }
    out
}

fn step(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let x = *state;
    (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd) ^ (x >> 29)
}

/// `copyhound db ARGS[0] DB ARGS[1..]`, run to its end.
pub fn db(args: &[&str], db: &Path) -> assert_cmd::assert::Assert {
    let mut command = copyhound();
    command.arg("db").arg(args[0]).arg(db).args(&args[1..]);
    command.assert()
}

/// Writes `count` documents of `len` words into `dir`; returns their paths.
pub fn write_documents(dir: &Path, first_seed: u64, count: usize, len: usize) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    (0..count)
        .map(|i| {
            let path = dir.join(format!("doc{i:04}.txt"));
            std::fs::write(&path, words(first_seed + i as u64, len)).unwrap();
            path
        })
        .collect()
}

/// Kills `child` with SIGKILL, checking that it was still running.
fn kill_running(child: &mut std::process::Child) {
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "it had exited before the kill");
}

pub fn search_json(database: &Path, file: &Path) -> Value {
    let output = db(&["search", file.to_str().unwrap(), "--json"], database)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&output).unwrap()
}

#[test]
fn init_add_search_remove_rotate_and_check() {
    let work = temp_dir();
    let database = work.path().join("db");
    let docs = write_documents(&work.path().join("docs"), 1, 5, 1500);
    db(&["init", "--seed", "7"], &database)
        .success()
        .stdout(predicate::str::contains("koala mode"));
    db(
        &[
            "add",
            work.path().join("docs").to_str().unwrap(),
            "--email",
            "me@example.org",
        ],
        &database,
    )
    .success()
    .stdout(predicate::str::contains("added 4\t"));
    // `db add` ends by moving what it staged into a segment.
    let stats = stats_json(&database);
    assert_eq!(stats["staged_documents"], 0, "{stats}");
    assert_eq!(stats["segments"], 1, "{stats}");

    let found = search_json(&database, &docs[2]);
    let best = &found["matches"][0];
    assert_eq!(best["id"], 2);
    assert_eq!(best["ratio"], 1.0);
    assert_eq!(best["hits"], 100);
    assert_eq!(best["email"], "me@example.org");
    assert!(best["title"].as_str().unwrap().ends_with("doc0002.txt"));
    let fragments = best["fragments"]
        .as_array()
        .expect("the registered file is readable");
    assert!(!fragments.is_empty());
    assert_eq!(found["distribution"][6]["range"], ">50%");
    assert_eq!(found["distribution"][6]["documents"], 1);

    // A document that shares nothing is not found: exit code 1.
    let stranger = work.path().join("stranger.txt");
    std::fs::write(&stranger, words(999, 1500)).unwrap();
    db(&["search", stranger.to_str().unwrap()], &database)
        .code(1)
        .stdout(predicate::str::contains("no match"));

    db(&["remove", "2"], &database).success();
    db(&["remove", "2"], &database).code(1);
    assert_ne!(search_json(&database, &docs[2])["matches"][0]["id"], 2);
    db(&["rotate"], &database)
        .success()
        .stdout(predicate::str::contains("rotation 1"));
    assert_eq!(search_json(&database, &docs[3])["matches"][0]["ratio"], 1.0);
    db(&["stats", "--json"], &database)
        .success()
        .stdout(predicate::str::contains("\"documents\": 4"));
    db(&["check"], &database)
        .success()
        .stdout(predicate::str::contains("ok: 4 documents"));
}

#[test]
fn rotate_reads_the_files_again_and_lists_those_it_cannot_use() {
    let work = temp_dir();
    let database = work.path().join("db");
    let docs = write_documents(&work.path().join("docs"), 40, 6, 1500);
    db(&["init", "--seed", "9"], &database).success();
    db(
        &[
            "add",
            work.path().join("docs").to_str().unwrap(),
            "--email",
            "owner@example.org",
        ],
        &database,
    )
    .success();
    // doc0001 moves away; doc0004 grows.
    let moved = work.path().join("moved.txt");
    std::fs::rename(&docs[1], &moved).unwrap();
    let mut grown = std::fs::read_to_string(&docs[4]).unwrap();
    grown.push_str(&words(77, 300));
    std::fs::write(&docs[4], &grown).unwrap();

    let output = db(&["rotate"], &database).code(1);
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("rotation 1: re-selected the stored fingerprints of 4 documents"),
        "{stdout}"
    );
    let listed: Vec<Vec<&str>> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("id\t"))
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(listed.len(), 2, "{stdout}");
    assert_eq!(listed[0][..2], ["1", "doc0001.txt"]);
    assert!(listed[0][2].ends_with("doc0001.txt"), "{stdout}");
    assert_eq!(listed[0][3], "owner@example.org");
    assert!(listed[0][4].contains("cannot read"), "{stdout}");
    assert_eq!(listed[1][..2], ["4", "doc0004.txt"]);
    assert!(listed[1][4].contains("size"), "{stdout}");

    // Every document is still found whole: the moved one under its old
    // selection, the grown one from its original text.
    std::fs::write(&docs[4], words(44, 1500)).unwrap();
    for (i, doc) in docs.iter().enumerate() {
        let query = if i == 1 { &moved } else { doc };
        let best = &search_json(&database, query)["matches"][0];
        assert_eq!(best["id"], i, "{best}");
        assert_eq!(best["ratio"], 1.0, "{best}");
    }
    db(&["check"], &database)
        .success()
        .stdout(predicate::str::contains("ok: 6 documents"));
}

#[test]
fn winnowing_finds_a_small_part_of_a_large_document() {
    let work = temp_dir();
    let database = work.path().join("db");
    let large = words(3, 20_000);
    let part: String = large
        .lines()
        .skip(800)
        .take(40)
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(work.path().join("large.txt"), &large).unwrap();
    std::fs::write(work.path().join("part.txt"), &part).unwrap();
    db(&["init", "--mode", "winnow"], &database).success();
    db(
        &[
            "add",
            work.path().join("large.txt").to_str().unwrap(),
            "--url",
            "https://example.org/large",
        ],
        &database,
    )
    .success();
    let found = search_json(&database, &work.path().join("part.txt"));
    let best = &found["matches"][0];
    assert_eq!(best["location"], "https://example.org/large");
    assert!(best["query_ratio"].as_f64().unwrap() > 0.8, "{best}");
    db(&["rotate"], &database)
        .failure()
        .stderr(predicate::str::contains("not available in winnow mode"));
}

#[test]
fn check_names_a_damaged_segment() {
    let work = temp_dir();
    let database = work.path().join("db");
    write_documents(&work.path().join("docs"), 20, 4, 600);
    db(&["init", "--flush-docs", "2"], &database).success();
    db(
        &["add", work.path().join("docs").to_str().unwrap()],
        &database,
    )
    .success();
    let segment = std::fs::read_dir(&database)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "seg"))
        .unwrap();
    let mut bytes = std::fs::read(&segment).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 0xff;
    std::fs::write(&segment, bytes).unwrap();
    let name = segment.file_name().unwrap().to_str().unwrap().to_owned();
    db(&["check"], &database)
        .code(1)
        .stderr(predicate::str::contains(name).and(predicate::str::contains("corrupt")));
}

/// A writer killed with SIGKILL at several points of `db add` (between
/// commits, inside flushes and merges) loses no document it reported, and
/// leaves a database that opens, passes `check` and keeps taking documents;
/// searches in other processes run while it writes.
#[test]
fn a_killed_writer_loses_no_committed_document() {
    let work = temp_dir();
    let database = work.path().join("db");
    let docs_dir = work.path().join("docs");
    let docs = write_documents(&docs_dir, 100, 120, 400);
    db(
        &[
            "init",
            "--flush-docs",
            "5",
            "--merge-factor",
            "2",
            "--prologue-bytes",
            "0",
        ],
        &database,
    )
    .success();
    let mut committed: Vec<(u32, String)> = Vec::new();
    for (round, kill_after) in [3usize, 11, 26].into_iter().enumerate() {
        let mut child = Command::new(binary())
            .args(["db", "add"])
            .arg(&database)
            .arg(&docs_dir)
            .args(["--batch", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        for _ in 0..kill_after {
            let line = lines.next().expect("the writer reports documents").unwrap();
            let (id, path) = line
                .strip_prefix("added ")
                .unwrap()
                .split_once('\t')
                .unwrap();
            committed.push((id.parse().unwrap(), path.to_owned()));
        }
        if round == 1 {
            // A search from another process while the writer runs.
            let (id, path) = committed[0].clone();
            assert_eq!(
                search_json(&database, Path::new(&path))["matches"][0]["id"],
                id
            );
        }
        kill_running(&mut child);
        // Lines already written before the kill were committed too.
        for line in lines.map_while(Result::ok) {
            let (id, path) = line
                .strip_prefix("added ")
                .unwrap()
                .split_once('\t')
                .unwrap();
            committed.push((id.parse().unwrap(), path.to_owned()));
        }
        db(&["check"], &database).success();
    }
    for (id, path) in committed.iter().step_by(4) {
        let found = search_json(&database, Path::new(path));
        let ids: Vec<&Value> = found["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["id"])
            .collect();
        assert!(
            ids.contains(&&Value::from(*id)),
            "document {id} ({path}) was lost"
        );
    }
    db(&["add", docs[0].to_str().unwrap()], &database).success();
    db(&["check"], &database).success();
}

/// A `db add` whose flush fails part-way (here: a directory stands where
/// the first segment goes) has reported every document it registered and
/// no other, so adding the files it did not report again registers none
/// of them twice.
#[test]
fn a_failed_add_reports_exactly_the_documents_it_registered() {
    let work = tempfile::tempdir().unwrap();
    let database = work.path().join("db");
    let docs_dir = work.path().join("docs");
    let docs = write_documents(&docs_dir, 900, 6, 300);
    db(&["init", "--flush-docs", "2"], &database).success();
    let blocker = database.join("000000000000.seg");
    std::fs::create_dir(&blocker).unwrap();
    std::fs::write(blocker.join("in the way"), b"").unwrap();
    let output = db(
        &["add", docs_dir.to_str().unwrap(), "--batch", "1"],
        &database,
    )
    .failure()
    .get_output()
    .stdout
    .clone();
    let reported: Vec<String> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| line.split_once('\t').unwrap().1.to_owned())
        .collect();
    assert!(reported.len() < docs.len(), "{reported:?}");
    assert_eq!(
        stats_json(&database)["documents"],
        reported.len(),
        "{reported:?}"
    );
    std::fs::remove_dir_all(&blocker).unwrap();
    let rest: Vec<&str> = docs
        .iter()
        .map(|p| p.to_str().unwrap())
        .filter(|p| !reported.iter().any(|r| r == p))
        .collect();
    let mut again = vec!["add"];
    again.extend(&rest);
    db(&again, &database).success();
    assert_eq!(stats_json(&database)["documents"], docs.len());
    db(&["check"], &database).success();
}

/// `db rotate` killed with SIGKILL between its batches: `db check` reports
/// the unfinished rotation and passes, every document is found at 100 %
/// meanwhile, and the next `db rotate` resumes it under the same epoch.
#[test]
fn a_killed_rotation_is_reported_by_check_and_resumed() {
    let work = temp_dir();
    let database = work.path().join("db");
    let docs_dir = work.path().join("docs");
    let docs = write_documents(&docs_dir, 500, 800, 300);
    db(
        &["init", "--flush-docs", "40", "--prologue-bytes", "0"],
        &database,
    )
    .success();
    db(&["add", docs_dir.to_str().unwrap()], &database).success();
    let mut child = Command::new(binary())
        .args(["db", "rotate"])
        .arg(&database)
        .args(["--batch", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    for _ in 0..5 {
        let line = lines.next().expect("the rotation reports batches").unwrap();
        assert!(line.starts_with("rotated through document "), "{line}");
    }
    kill_running(&mut child);
    db(&["check"], &database)
        .success()
        .stderr(predicate::str::contains("unfinished rotation to epoch 1"));
    let stats = stats_json(&database);
    let unfinished = &stats["unfinished_rotation"];
    assert_eq!(unfinished["epoch"], 1, "{stats}");
    let count = docs.len() as u64;
    assert_eq!(unfinished["end"], count, "{stats}");
    let done = unfinished["done_below"].as_u64().unwrap();
    assert!((5..count).contains(&done), "{stats}");
    db(&["stats"], &database)
        .success()
        .stdout(predicate::str::contains(format!(
            "rotation          unfinished: to epoch 1, done below document {done} of {count}"
        )));
    let found_whole = |label: &str| {
        for (id, doc) in docs.iter().enumerate().step_by(7) {
            let best = &search_json(&database, doc)["matches"][0];
            assert_eq!(best["id"], id, "{label}: {best}");
            assert_eq!(best["ratio"], 1.0, "{label}: {best}");
        }
    };
    found_whole("interrupted");
    db(&["rotate"], &database).success().stdout(
        predicate::str::contains("resumed the unfinished rotation 1")
            .and(predicate::str::contains("rotation 1: re-selected")),
    );
    db(&["check"], &database)
        .success()
        .stderr(predicate::str::contains("unfinished").not());
    found_whole("resumed");
    let stats = stats_json(&database);
    assert_eq!(stats["rotation"], 1, "{stats}");
    assert!(stats["unfinished_rotation"].is_null(), "{stats}");
}

/// `db stats --json`, parsed.
fn stats_json(database: &Path) -> Value {
    let stats = db(&["stats", "--json"], database).success();
    serde_json::from_slice(&stats.get_output().stdout).unwrap()
}

/// `db add` walks with the walker of `compare`: two links back to the
/// folder end the walk with each real file registered once (each link
/// said on stderr), with `--follow-links` too.
#[cfg(unix)]
#[test]
fn add_survives_link_loops_and_registers_each_file_once() {
    let work = tempfile::tempdir().unwrap();
    let database = work.path().join("db");
    let docs_dir = work.path().join("docs");
    let docs = write_documents(&docs_dir, 700, 3, 200);
    std::os::unix::fs::symlink(".", docs_dir.join("l1")).unwrap();
    std::os::unix::fs::symlink(".", docs_dir.join("l2")).unwrap();
    db(&["init"], &database).success();
    let added = |extra: &[&str]| {
        let mut args = vec!["add", docs_dir.to_str().unwrap()];
        args.extend(extra);
        let output = db(&args, &database)
            .success()
            .stderr(predicates::str::contains("l1").and(predicates::str::contains("l2")))
            .get_output()
            .stdout
            .clone();
        String::from_utf8(output).unwrap().lines().count()
    };
    assert_eq!(added(&[]), docs.len());
    assert_eq!(added(&["--follow-links"]), docs.len());
    assert_eq!(stats_json(&database)["documents"], 2 * docs.len());
}

/// Every numeric parameter of `db init` is an option named after it, and a
/// value out of its range is refused naming the parameter, with nothing
/// created.
#[test]
fn init_takes_numeric_parameters_by_name_and_checks_them() {
    let dir = temp_dir();
    let database = dir.path().join("db");
    db(
        &[
            "init",
            "--k",
            "7",
            "--search-size",
            "400",
            "--stored-size",
            "50",
            "--seed",
            "1",
        ],
        &database,
    )
    .success();
    db(&["stats"], &database)
        .success()
        .stdout(predicate::str::contains(
            "N = 400 searched, n = 50 stored, k = 7",
        ));
    let refused = dir.path().join("refused");
    db(&["init", "--hash-bits", "99"], &refused)
        .code(2)
        .stderr(predicate::str::contains(
            "hash_bits: must be between 16 and 48",
        ));
    assert!(!refused.exists(), "a refused database is not created");
}
