//! Persistence, segments, merges, removal, rotation and integrity checks.

use copyhound_db::{
    Database, DbError, DocumentMeta, DocumentPrint, NewDocument, Params, SearchOptions, check,
};

use crate::support::{
    TextGenerator, add, copy_record_block, kept_prints_params, print, ratio_of, search, set_meta,
    small_params,
};

#[test]
fn a_registered_document_is_found_at_100_percent_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = TextGenerator::new(1);
    let body = text.words(3000);
    let id = {
        let db = Database::create(dir.path(), Params::default()).unwrap();
        add(&db, "original", &body)
    };
    let db = Database::open(dir.path()).unwrap();
    let report = search(&db, &body);
    assert_eq!(report.matches[0].document.id, id);
    assert_eq!(report.matches[0].ratio, 1.0);
    assert_eq!(report.matches[0].hits, 100);
    assert_eq!(report.matches[0].document.meta.title, "original");
    assert_eq!(report.query_keys, 1000);
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn documents_survive_flushes_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(2);
    let bodies: Vec<String> = (0..60).map(|_| text.words(800)).collect();
    let ids: Vec<_> = bodies
        .iter()
        .enumerate()
        .map(|(i, body)| add(&db, &format!("doc{i}"), body))
        .collect();
    let stats = db.stats().unwrap();
    assert_eq!(stats.documents, 60);
    assert!(stats.segments >= 1 && stats.segments < 60 / 8, "{stats:?}");
    assert!(stats.staged_documents < 8);
    for (body, &id) in bodies.iter().zip(&ids) {
        assert_eq!(ratio_of(&search(&db, body), id), 1.0);
    }
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.documents, 60);
}

#[test]
fn live_segments_stay_within_the_cap_while_tiers_fill() {
    let dir = tempfile::tempdir().unwrap();
    // Every flush writes a segment; a merge factor of 100 never fills a
    // tier, so only the cap merges.
    let params = Params {
        flush_docs: 1,
        merge_factor: 100,
        max_segments: 3,
        ..Params::default()
    };
    let db = Database::create(dir.path(), params).unwrap();
    let mut text = TextGenerator::new(12);
    let bodies: Vec<String> = (0..12).map(|_| text.words(600)).collect();
    let ids: Vec<_> = bodies.iter().map(|b| add(&db, "d", b)).collect();
    let stats = db.stats().unwrap();
    assert!(stats.segments <= 3, "{stats:?}");
    // Each add first flushed the one before it; the last waits, staged.
    assert_eq!(stats.postings, 11 * 100);
    assert_eq!(stats.staged_documents, 1);
    for (body, &id) in bodies.iter().zip(&ids) {
        assert_eq!(ratio_of(&search(&db, body), id), 1.0);
    }
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn uneven_small_flushes_share_one_tier_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        flush_docs: 1 << 20,
        ..Params::default()
    };
    let db = Database::create(dir.path(), params).unwrap();
    let mut state = 99u64;
    let mut random_print = || {
        DocumentPrint::from_hashes(
            (0..100)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    state ^ (state >> 29)
                })
                .collect(),
        )
    };
    // Flushes of 1,000 to 64,000 postings: four size tiers apart, under the
    // cap of four segments, so only a shared floor tier merges them.
    let mut prints = Vec::new();
    for batch in [10, 40, 160, 640] {
        let docs: Vec<NewDocument> = (0..batch)
            .map(|_| NewDocument {
                meta: DocumentMeta::default(),
                print: random_print(),
            })
            .collect();
        prints.extend(docs.iter().map(|d| d.print.clone()));
        db.add(docs).unwrap();
        db.flush().unwrap();
        db.merge().unwrap();
    }
    let stats = db.stats().unwrap();
    assert_eq!(
        (stats.segments, stats.postings),
        (1, 850 * 100),
        "{stats:?}"
    );
    for (id, print) in prints.iter().enumerate().step_by(97) {
        let report = db.search(print, &SearchOptions::default()).unwrap();
        assert_eq!(report.matches[0].document.id, id as u32);
        assert_eq!(report.matches[0].ratio, 1.0);
    }
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn without_kept_prints_search_works_and_rotate_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        keep_prints: false,
        ..small_params()
    };
    let db = Database::create(dir.path(), params).unwrap();
    let mut text = TextGenerator::new(13);
    let bodies: Vec<String> = (0..20).map(|_| text.words(700)).collect();
    let ids: Vec<_> = bodies.iter().map(|b| add(&db, "d", b)).collect();
    db.flush().unwrap();
    assert_eq!(ratio_of(&search(&db, &bodies[3]), ids[3]), 1.0);
    assert_eq!(db.stats().unwrap().print_bytes, 0);
    let prints = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "prints")
        })
        .count();
    assert_eq!(prints, 0);
    assert!(check(dir.path()).unwrap().is_ok());
    let error = db.rotate().unwrap_err();
    assert!(matches!(error, DbError::NoKeptPrints { .. }), "{error}");
    assert!(error.to_string().contains("keep_prints=false"), "{error}");
    // The setting survives reopening.
    drop(db);
    assert!(!Database::open(dir.path()).unwrap().params().keep_prints);
}

#[test]
fn removed_documents_are_not_found_and_leave_at_compaction() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), kept_prints_params()).unwrap();
    let mut text = TextGenerator::new(3);
    let bodies: Vec<String> = (0..20).map(|_| text.words(800)).collect();
    let ids: Vec<_> = bodies.iter().map(|b| add(&db, "d", b)).collect();
    // One in a segment, one still staged.
    let (flushed, staged) = (ids[0], ids[19]);
    assert!(db.remove(flushed).unwrap().is_some());
    assert!(db.remove(staged).unwrap().is_some());
    assert!(db.remove(staged).unwrap().is_none());
    assert_eq!(ratio_of(&search(&db, &bodies[0]), flushed), 0.0);
    assert_eq!(ratio_of(&search(&db, &bodies[19]), staged), 0.0);
    assert_eq!(ratio_of(&search(&db, &bodies[5]), ids[5]), 1.0);
    assert_eq!(db.stats().unwrap().removed_pending, 2);
    assert!(check(dir.path()).unwrap().is_ok());

    db.flush().unwrap();
    db.compact().unwrap();
    let stats = db.stats().unwrap();
    assert_eq!((stats.removed_pending, stats.segments), (0, 1));
    assert_eq!(stats.postings, 18 * 100);
    assert_eq!(ratio_of(&search(&db, &bodies[5]), ids[5]), 1.0);
    assert!(check(dir.path()).unwrap().is_ok());

    // The removed document's print stays in its cold file; rotation skips it.
    db.rotate().unwrap();
    assert_eq!(db.stats().unwrap().postings, 18 * 100);
    assert_eq!(ratio_of(&search(&db, &bodies[0]), flushed), 0.0);
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn rotation_reselects_stored_subsets_without_the_documents() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), kept_prints_params()).unwrap();
    let mut text = TextGenerator::new(4);
    let bodies: Vec<String> = (0..12).map(|_| text.words(3000)).collect();
    let ids: Vec<_> = bodies.iter().map(|b| add(&db, "d", b)).collect();
    // A half-document query: which half of its stored keys it hits depends
    // on the stored subset, so the hit count moves under rotation.
    let half = &bodies[3][..bodies[3].len() / 2];
    let before = search(&db, half);
    assert_eq!(db.rotate().unwrap().epoch, 1);
    assert_eq!(db.rotate().unwrap().epoch, 2);
    let after = search(&db, half);
    for (body, &id) in bodies.iter().zip(&ids) {
        assert_eq!(ratio_of(&search(&db, body), id), 1.0);
        assert_eq!(db.document(id).unwrap().unwrap().selection, 2);
    }
    let (b, a) = (ratio_of(&before, ids[3]), ratio_of(&after, ids[3]));
    assert!(b > 0.2 && a > 0.2 && b != a, "before {b}, after {a}");
    assert_eq!(db.stats().unwrap().epoch, 2);
    assert!(check(dir.path()).unwrap().is_ok());
    let id = add(&db, "new", &bodies[0]);
    assert_eq!(db.document(id).unwrap().unwrap().selection, 2);
}

#[test]
fn winnowing_databases_cannot_rotate() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), Params::winnow()).unwrap();
    assert!(matches!(db.rotate(), Err(DbError::WrongMode { .. })));
}

#[test]
fn create_refuses_an_existing_database_and_open_a_missing_one() {
    let dir = tempfile::tempdir().unwrap();
    Database::create(dir.path(), Params::default()).unwrap();
    assert!(matches!(
        Database::create(dir.path(), Params::default()),
        Err(DbError::AlreadyExists { .. })
    ));
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        Database::open(empty.path()),
        Err(DbError::NotADatabase { .. })
    ));
}

#[test]
fn check_names_a_damaged_segment() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(5);
    for _ in 0..8 {
        add(&db, "d", &text.words(500));
    }
    db.flush().unwrap();
    drop(db);
    let segment = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "seg"))
        .expect("a flushed segment");
    let mut bytes = std::fs::read(&segment).unwrap();
    bytes[100] ^= 0x40;
    std::fs::write(&segment, bytes).unwrap();
    let report = check(dir.path()).unwrap();
    assert!(!report.is_ok());
    let name = segment.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.contains(&name) && p.contains("checksum")),
        "{report:?}"
    );
}

#[test]
fn segments_sit_beside_the_catalogue_and_flushes_remove_only_orphans_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(14);
    add(&db, "d", &text.words(500));
    db.flush().unwrap();
    let names = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // One directory: the catalogue and the segment, nothing else.
    assert_eq!(names(), ["000000000000.seg", "catalog.redb"]);
    // What a crash between writing a segment and listing it leaves, and
    // files that are not the database's.
    std::fs::write(dir.path().join("000000000077.seg"), b"orphan").unwrap();
    std::fs::write(dir.path().join("notes.seg"), b"mine").unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"mine").unwrap();
    let report = check(dir.path()).unwrap();
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(report.warnings[0].contains("000000000077.seg"));
    add(&db, "e", &text.words(500));
    db.flush().unwrap();
    let left = names();
    assert!(!left.contains(&"000000000077.seg".to_owned()), "{left:?}");
    assert!(left.contains(&"notes.seg".to_owned()) && left.contains(&"notes.txt".to_owned()));
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn check_reports_record_blocks_that_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(15);
    for title in ["a", "b", "c"] {
        add(&db, title, &text.words(400));
    }
    drop(db);
    assert!(check(dir.path()).unwrap().is_ok());
    // The block of documents 0..=2 again under key 1: documents 1..=3,
    // which the first block holds in part.
    copy_record_block(dir.path(), 0, 1);
    let problems = check(dir.path()).unwrap().problems.join("\n");
    assert!(
        problems.contains("record block of documents from 1 on overlaps"),
        "{problems}"
    );
}

#[test]
fn a_truncated_catalogue_is_reported_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), Params::default()).unwrap();
    add(&db, "d", &TextGenerator::new(6).words(500));
    drop(db);
    let catalog = dir.path().join("catalog.redb");
    let len = std::fs::metadata(&catalog).unwrap().len();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&catalog)
        .unwrap();
    file.set_len(len / 3).unwrap();
    drop(file);
    let outcome = check(dir.path()).map(|r| r.problems.join("\n"));
    let message = match outcome {
        Ok(problems) => problems,
        Err(e) => e.to_string(),
    };
    assert!(message.contains("catalog.redb"), "{message}");
}

#[test]
fn a_catalogue_of_an_older_format_is_refused_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    add(&db, "d", &TextGenerator::new(7).words(300));
    drop(db);
    // Format 4 kept records in blocks of 64 ids; pretend this catalogue is one.
    set_meta(dir.path(), "format", &4u32.to_le_bytes());
    let error = Database::open(dir.path()).err().expect("refused");
    assert!(
        matches!(
            error,
            DbError::UnsupportedVersion {
                found: 4,
                supported: 5,
                ..
            }
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("catalog.redb") && message.contains("create a new database"),
        "{message}"
    );
}

#[test]
fn stats_count_documents_and_staged_prints_without_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        flush_docs: 1000,
        ..kept_prints_params()
    };
    let db = Database::create(dir.path(), params).unwrap();
    let mut text = TextGenerator::new(8);
    let ids: Vec<_> = (0..4).map(|_| add(&db, "d", &text.words(400))).collect();
    let staged = db.stats().unwrap();
    assert_eq!(staged.documents, 4);
    assert!(staged.print_bytes > 0);
    db.remove(ids[1]).unwrap();
    let after_remove = db.stats().unwrap();
    assert_eq!(after_remove.documents, 3);
    assert!(after_remove.print_bytes < staged.print_bytes);
    assert!(check(dir.path()).unwrap().is_ok());
    db.flush().unwrap();
    let flushed = db.stats().unwrap();
    assert_eq!(flushed.documents, 3);
    // The cold file keeps the removed document's print too.
    assert!(flushed.print_bytes >= after_remove.print_bytes);
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.documents, 3);
}

#[test]
fn a_record_id_never_handed_out_is_damage_not_a_table_of_that_size() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(16);
    for title in ["a", "b", "c"] {
        add(&db, title, &text.words(400));
    }
    drop(db);
    // The block of documents 0..=2 again under key 100,000,000: ids the
    // database never handed out (its next id is 3). Opening would otherwise
    // size a table by them: 400 MB here, 16 GB for ids near 2^32.
    copy_record_block(dir.path(), 0, 100_000_000);
    // Opening reads only the catalogue's header; the first search reads
    // the records.
    let db = Database::open(dir.path()).unwrap();
    let error = db
        .search(&print(&db, "any text"), &SearchOptions::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("catalog.redb"), "{error}");
    assert!(
        error.contains("document id 100000000, past the next free id 3"),
        "{error}"
    );
    let problems = check(dir.path()).unwrap().problems.join("\n");
    assert!(
        problems.contains("document id 100000000, past the next free id 3"),
        "{problems}"
    );
}
