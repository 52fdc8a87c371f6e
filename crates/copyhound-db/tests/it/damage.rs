//! Hostile conditions: writes that fail half-way, and the files a killed
//! process leaves behind.

use std::fs;
use std::path::{Path, PathBuf};

use copyhound_db::{Database, DocumentMeta, NewDocument, Params, SearchOptions, check};

use crate::support::{TextGenerator, add, kept_prints_params, print, small_params};

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The names in `dir` that end in `.tmp`.
fn temporaries(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| Path::new(n).extension().is_some_and(|e| e == "tmp"))
        .collect()
}

/// Puts a non-empty directory where the database will want to rename a
/// file to `name`, so that the rename fails once the file is written.
fn block(dir: &Path, name: &str) -> PathBuf {
    let blocker = dir.join(name);
    fs::create_dir(&blocker).unwrap();
    fs::write(blocker.join("in the way"), b"").unwrap();
    blocker
}

#[test]
fn an_add_that_fails_registers_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        flush_docs: 2,
        ..small_params()
    };
    let db = Database::create(dir.path(), params).unwrap();
    // The first flush cannot put its segment in place.
    let blocker = block(dir.path(), "000000000000.seg");
    let mut text = TextGenerator::new(32);
    let bodies: Vec<String> = (0..4).map(|_| text.words(500)).collect();
    let mut registered = 0;
    let mut failed = 0;
    for body in &bodies {
        let doc = NewDocument {
            meta: DocumentMeta::default(),
            print: print(&db, body),
        };
        match db.add(vec![doc]) {
            Ok(ids) => registered += ids.len() as u64,
            Err(_) => failed += 1,
        }
    }
    assert!(failed > 0, "the flush never ran");
    // What `add` reported is what the database holds: a caller that adds
    // the failed documents again registers none of them twice.
    assert_eq!(db.stats().unwrap().documents, registered);
    fs::remove_dir_all(blocker).unwrap();
    db.flush().unwrap();
    assert_eq!(db.stats().unwrap().documents, registered);
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok(), "{report:?}");
}

#[test]
fn a_merge_that_fails_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(33);
    let bodies: Vec<String> = (0..3).map(|_| text.words(500)).collect();
    for body in &bodies {
        add(&db, "d", body);
        db.flush().unwrap();
    }
    // Three segments of one tier (numbers 0 to 2): the merge writes 3.
    let blocker = block(dir.path(), "000000000003.seg");
    assert!(db.merge().is_err());
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
    fs::remove_dir_all(blocker).unwrap();
    assert_eq!(db.merge().unwrap(), 1);
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok() && report.warnings.is_empty(), "{report:?}");
}

#[test]
fn a_flush_that_fails_leaves_no_temporary_print_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), kept_prints_params()).unwrap();
    let mut text = TextGenerator::new(34);
    add(&db, "d", &text.words(500));
    // The flush writes segment 0, then the print file 1.
    let blocker = block(dir.path(), "000000000001.prints");
    assert!(db.flush().is_err());
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
    fs::remove_dir_all(blocker).unwrap();
    assert!(db.flush().unwrap());
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok() && report.warnings.is_empty(), "{report:?}");
}

#[test]
fn files_a_killed_writer_left_are_removed_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(35);
    let body = text.words(500);
    let id = add(&db, "d", &body);
    db.flush().unwrap();
    add(&db, "e", &text.words(500));
    db.flush().unwrap();
    // Segments 0 and 1 merge into 2.
    db.compact().unwrap();
    drop(db);
    // What a process killed while writing leaves: a merge and a flush's
    // temporary files, and a segment renamed into place whose manifest
    // never committed (numbered below the next number: no writer can be
    // about to list it). And files that are not the database's.
    let leftovers = [
        "merge-4242-7.tmp",
        "000000000009.seg.tmp",
        "000000000010.prints.tmp",
    ];
    for name in leftovers {
        fs::write(dir.path().join(name), b"half written").unwrap();
    }
    fs::copy(
        dir.path().join("000000000002.seg"),
        dir.path().join("000000000001.seg"),
    )
    .unwrap();
    fs::write(dir.path().join("notes.tmp"), b"mine").unwrap();
    assert!(check(dir.path()).unwrap().warnings.len() >= 4);
    let db = Database::open(dir.path()).unwrap();
    assert_eq!(
        names(dir.path()),
        ["000000000002.seg", "catalog.redb", "notes.tmp"]
    );
    let report = db
        .search(&print(&db, &body), &SearchOptions::default())
        .unwrap();
    assert_eq!(report.matches[0].document.id, id);
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok() && report.warnings.is_empty(), "{report:?}");
}

#[test]
fn a_temporary_file_a_live_writer_holds_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    drop(Database::create(dir.path(), small_params()).unwrap());
    // Another process's merge in progress holds a lock on its file.
    let busy = dir.path().join("merge-4242-8.tmp");
    let writer = fs::File::create(&busy).unwrap();
    writer.lock().unwrap();
    drop(Database::open(dir.path()).unwrap());
    assert!(busy.exists());
    drop(writer);
    drop(Database::open(dir.path()).unwrap());
    assert!(!busy.exists());
}
