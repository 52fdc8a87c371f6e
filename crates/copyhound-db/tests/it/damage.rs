//! Hostile conditions: bit rot in a segment, writes that fail half-way,
//! and the files a killed process leaves behind.

use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use copyhound_db::{Database, DocId, DocumentMeta, NewDocument, Params, SearchOptions, check};

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

/// Flips bit `bit` of byte `at` of `file` in place.
fn flip(file: &Path, at: u64, bit: u8) {
    let mut bytes = [0u8];
    let mut handle = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(file)
        .unwrap();
    handle.seek(SeekFrom::Start(at)).unwrap();
    handle.read_exact(&mut bytes).unwrap();
    bytes[0] ^= 1 << bit;
    handle.seek(SeekFrom::Start(at)).unwrap();
    handle.write_all(&bytes).unwrap();
}

/// Every search of `bodies` against the database in `dir`, opened afresh:
/// the ids and hits of the matches, or the error's message.
fn answers(dir: &Path, bodies: &[String]) -> Vec<Result<Vec<(DocId, u32)>, String>> {
    let db = Database::open(dir).unwrap();
    bodies
        .iter()
        .map(|body| {
            db.search(&print(&db, body), &SearchOptions::default())
                .map(|report| {
                    report
                        .matches
                        .iter()
                        .map(|m| (m.document.id, m.hits))
                        .collect()
                })
                .map_err(|e| e.to_string())
        })
        .collect()
}

#[test]
fn a_flipped_bit_in_a_segment_fails_the_searches_that_read_it_and_changes_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        flush_docs: 1000,
        ..Params::default()
    };
    let db = Database::create(dir.path(), params).unwrap();
    let mut text = TextGenerator::new(31);
    let bodies: Vec<String> = (0..24).map(|_| text.words(1500)).collect();
    for body in &bodies {
        add(&db, "d", body);
    }
    db.flush().unwrap();
    drop(db);
    let segment = dir.path().join("000000000000.seg");
    let clean: Vec<_> = answers(dir.path(), &bodies)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let bytes = fs::read(&segment).unwrap();
    let data_len = u64::from_le_bytes(bytes[32..40].try_into().unwrap());
    let data = 64..64 + data_len;
    // Bits of the header, all over the data, and of the directory.
    let mut places: Vec<u64> = vec![3, 20, 45];
    places.extend((0..48).map(|i| data.start + i * (data_len - 1) / 47));
    places.extend([data.end, data.end + 7, bytes.len() as u64 - 1]);
    for (i, &at) in places.iter().enumerate() {
        let bit = (i % 8) as u8;
        flip(&segment, at, bit);
        let damaged = answers(dir.path(), &bodies);
        let mut failed = 0;
        for (answer, clean) in damaged.iter().zip(&clean) {
            match answer {
                Ok(answer) => assert_eq!(answer, clean, "bit {bit} of byte {at} changed an answer"),
                Err(message) => {
                    assert!(
                        message.contains("000000000000.seg")
                            && (message.contains("corrupt") || message.contains("checksum")),
                        "bit {bit} of byte {at}: {message}"
                    );
                    failed += 1;
                }
            }
        }
        // Every posting belongs to one of the documents searched, so the
        // damaged bytes are read by at least one search.
        assert!(failed > 0, "bit {bit} of byte {at} went unnoticed");
        flip(&segment, at, bit);
    }
    assert_eq!(
        answers(dir.path(), &bodies)
            .into_iter()
            .map(Result::unwrap)
            .collect::<Vec<_>>(),
        clean
    );
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
