//! Rotation (Koala §3.3): from the documents themselves and from kept
//! prints, in batches, interrupted and resumed.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use copyhound_db::{
    Database, DocumentPrint, DocumentRecord, Params, RotationOptions, RotationReport, check,
};

use crate::support::{
    TextGenerator, add, kept_prints_params, print, ratio_of, search, set_meta, small_params,
};

/// Documents "on disk" by location, as `refetch` sees them.
struct Sources {
    texts: Mutex<HashMap<String, String>>,
}

impl Sources {
    fn refetch(
        &self,
        db: &Database,
        records: &[DocumentRecord],
    ) -> Vec<Result<DocumentPrint, String>> {
        let texts = self.texts.lock().unwrap();
        records
            .iter()
            .map(|record| {
                let text = texts
                    .get(&record.meta.location)
                    .ok_or_else(|| format!("{} is gone", record.meta.location))?;
                Ok(print(db, text))
            })
            .collect()
    }
}

#[test]
fn rotation_reads_the_documents_and_keeps_those_it_cannot_use() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    assert!(!db.params().keep_prints);
    let mut text = TextGenerator::new(21);
    // 21 documents: two segments' worth flushed, five still staged.
    let bodies: Vec<String> = (0..21).map(|_| text.words(3000)).collect();
    let ids: Vec<_> = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| add(&db, &format!("d{i}"), b))
        .collect();
    assert!(db.stats().unwrap().staged_documents > 0);
    let sources = Sources {
        texts: Mutex::new(
            bodies
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("/texts/d{i}.txt"), b.clone()))
                .collect(),
        ),
    };
    // Document 4 is gone; document 9 was replaced by another text.
    {
        let mut texts = sources.texts.lock().unwrap();
        texts.remove("/texts/d4.txt");
        texts.insert("/texts/d9.txt".into(), text.words(3000));
    }
    let half = &bodies[3][..bodies[3].len() / 2];
    let before = ratio_of(&search(&db, half), ids[3]);

    let report = db
        .rotate_from_documents(&|records| sources.refetch(&db, records))
        .unwrap();

    assert_eq!(report.epoch, 1);
    assert_eq!(report.rotated, 19);
    let kept: Vec<_> = report
        .unrotated
        .iter()
        .map(|u| (u.record.id, u.record.meta.title.as_str()))
        .collect();
    assert_eq!(kept, [(ids[4], "d4"), (ids[9], "d9")]);
    assert!(report.unrotated[0].reason.contains("gone"));
    assert!(
        report.unrotated[1].reason.contains("changed"),
        "{}",
        report.unrotated[1].reason
    );
    for (i, (body, &id)) in bodies.iter().zip(&ids).enumerate() {
        assert_eq!(ratio_of(&search(&db, body), id), 1.0, "document {i}");
        let unusable = i == 4 || i == 9;
        let expected = u64::from(!unusable);
        assert_eq!(db.document(id).unwrap().unwrap().selection, expected);
    }
    // The stored subset moved: a half-document query hits another share.
    let after = ratio_of(&search(&db, half), ids[3]);
    assert!(
        before > 0.2 && after > 0.2 && before != after,
        "{before} {after}"
    );
    assert_eq!(db.stats().unwrap().staged_documents, 0);
    assert!(check(dir.path()).unwrap().is_ok());

    // A second rotation keeps the unusable ones again, and they stay found.
    let report = db
        .rotate_from_documents(&|records| sources.refetch(&db, records))
        .unwrap();
    assert_eq!((report.epoch, report.unrotated.len()), (2, 2));
    assert_eq!(ratio_of(&search(&db, &bodies[9]), ids[9]), 1.0);
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn removed_documents_are_neither_fetched_nor_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), small_params()).unwrap();
    let mut text = TextGenerator::new(22);
    let bodies: Vec<String> = (0..10).map(|_| text.words(2000)).collect();
    let ids: Vec<_> = bodies.iter().map(|b| add(&db, "d", b)).collect();
    db.remove(ids[2]).unwrap();
    let fetched = Mutex::new(Vec::new());
    let report = db
        .rotate_from_documents(&|records| {
            let mut fetched = fetched.lock().unwrap();
            records
                .iter()
                .map(|record| {
                    fetched.push(record.id);
                    Ok(print(&db, &bodies[record.id as usize]))
                })
                .collect()
        })
        .unwrap();
    let mut fetched = fetched.into_inner().unwrap();
    fetched.sort_unstable();
    assert!(!fetched.contains(&ids[2]) && fetched.len() == 9);
    assert_eq!((report.rotated, report.unrotated.len()), (9, 0));
    let stats = db.stats().unwrap();
    assert_eq!((stats.postings, stats.removed_pending), (900, 0));
    assert_eq!(ratio_of(&search(&db, &bodies[2]), ids[2]), 0.0);
    assert!(check(dir.path()).unwrap().is_ok());
}

/// A database of `count` documents under `params`, with their texts.
fn filled(dir: &Path, params: Params, count: usize) -> (Database, Vec<String>) {
    let db = Database::create(dir, params).unwrap();
    let mut text = TextGenerator::new(40);
    let bodies: Vec<String> = (0..count).map(|_| text.words(1500)).collect();
    for (i, body) in bodies.iter().enumerate() {
        add(&db, &format!("d{i}"), body);
    }
    (db, bodies)
}

/// Rotates, from kept prints if the database keeps them, else from
/// `bodies` (by the id the records carry).
fn rotate(db: &Database, bodies: &[String], options: &RotationOptions<'_>) -> RotationReport {
    if db.params().keep_prints {
        db.rotate_with_options(options).unwrap()
    } else {
        let refetch = |records: &[DocumentRecord]| {
            records
                .iter()
                .map(|r| Ok(print(db, &bodies[r.id as usize])))
                .collect()
        };
        db.rotate_from_documents_with_options(&refetch, options)
            .unwrap()
    }
}

/// Every document's text finds it at exactly 100 % (stale postings
/// counted too would push a rotated document above), and `check` passes.
fn assert_sound(dir: &Path, db: &Database, bodies: &[String], moment: &str) {
    for (id, body) in bodies.iter().enumerate() {
        let ratio = ratio_of(&search(db, body), id as u32);
        assert!(
            (ratio - 1.0).abs() < 1e-12,
            "{moment}: document {id} at {ratio}"
        );
    }
    let report = check(dir).unwrap();
    assert!(report.is_ok(), "{moment}: {:?}", report.problems);
}

/// What a rotation decides: every record's epoch and stored size, and the
/// hits of a half-document query (which depend on the subset stored).
fn outcome(db: &Database, bodies: &[String]) -> Vec<(u64, u32, u32)> {
    db.documents()
        .unwrap()
        .iter()
        .map(|r| {
            let body = &bodies[r.id as usize];
            let half = &body[..body.len() / 2];
            let hits = search(db, half)
                .matches
                .iter()
                .find(|m| m.document.id == r.id)
                .map_or(0, |m| m.hits);
            (r.selection, r.stored, hits)
        })
        .collect()
}

fn interrupted_rotation_resumes_to_the_uninterrupted_result(params: &Params) {
    let whole_dir = tempfile::tempdir().unwrap();
    let parts_dir = tempfile::tempdir().unwrap();
    let (whole, bodies) = filled(whole_dir.path(), params.clone(), 30);
    let (parts, _) = filled(parts_dir.path(), params.clone(), 30);
    let before = outcome(&parts, &bodies);

    let report = rotate(&whole, &bodies, &RotationOptions::default());
    assert!(report.finished && !report.resumed);
    assert_eq!((report.epoch, report.rotated), (1, 30));

    let small = |max| RotationOptions {
        batch_docs: 4,
        max_batches: Some(max),
        progress: None,
    };
    let first = rotate(&parts, &bodies, &small(2));
    assert_eq!((first.epoch, first.rotated, first.finished), (1, 8, false));
    assert_sound(parts_dir.path(), &parts, &bodies, "after two batches");
    let warnings = check(parts_dir.path()).unwrap().warnings;
    assert!(
        warnings.iter().any(|w| w.contains("unfinished rotation")),
        "{warnings:?}"
    );
    let second = rotate(&parts, &bodies, &small(3));
    assert_eq!((second.epoch, second.rotated), (1, 12));
    assert!(second.resumed && !second.finished);
    assert_sound(parts_dir.path(), &parts, &bodies, "after five batches");
    let last = rotate(&parts, &bodies, &small(100));
    assert_eq!((last.epoch, last.rotated), (1, 10));
    assert!(last.resumed && last.finished);

    assert_sound(whole_dir.path(), &whole, &bodies, "uninterrupted");
    assert_sound(parts_dir.path(), &parts, &bodies, "resumed");
    let after = outcome(&parts, &bodies);
    assert_eq!(after, outcome(&whole, &bodies));
    assert_ne!(after, before);
    assert!(after.iter().all(|&(epoch, _, _)| epoch == 1));
    assert!(check(parts_dir.path()).unwrap().warnings.is_empty());
    // Only the new postings are left: 100 per document.
    assert_eq!(parts.stats().unwrap().postings, 3000);
}

#[test]
fn an_interrupted_rotation_from_the_documents_resumes_to_the_same_result() {
    interrupted_rotation_resumes_to_the_uninterrupted_result(&small_params());
}

#[test]
fn an_interrupted_rotation_from_kept_prints_resumes_to_the_same_result() {
    interrupted_rotation_resumes_to_the_uninterrupted_result(&kept_prints_params());
}

/// Documents added and removed while a rotation is unfinished: the new
/// ones are stored under the new epoch and not rotated again, the removed
/// ones leave, and every other document stays found throughout.
#[test]
fn documents_added_and_removed_during_a_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let (db, mut bodies) = filled(dir.path(), small_params(), 20);
    let options = |max| RotationOptions {
        batch_docs: 3,
        max_batches: Some(max),
        progress: None,
    };
    rotate(&db, &bodies, &options(2));
    let mut text = TextGenerator::new(41);
    for i in 20..32 {
        bodies.push(text.words(1500));
        let id = add(&db, &format!("d{i}"), &bodies[i]);
        assert_eq!(db.document(id).unwrap().unwrap().selection, 1);
    }
    assert_sound(dir.path(), &db, &bodies, "added during the rotation");
    // One already rotated, one not yet.
    db.remove(1).unwrap();
    db.remove(15).unwrap();
    rotate(&db, &bodies, &options(1));
    let report = rotate(&db, &bodies, &RotationOptions::default());
    assert!(report.finished);
    // Documents 6..20 but the removed one.
    assert_eq!(report.rotated, 20 - 6 - 3 - 1);
    for (id, body) in bodies.iter().enumerate() {
        let expected = if id == 1 || id == 15 { 0.0 } else { 1.0 };
        assert_eq!(ratio_of(&search(&db, body), id as u32), expected, "{id}");
    }
    let stats = db.stats().unwrap();
    assert_eq!((stats.postings, stats.removed_pending), (30 * 100, 0));
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok() && report.warnings.is_empty(), "{report:?}");
}

#[test]
fn check_reports_an_unfinished_rotation_and_a_damaged_state() {
    let dir = tempfile::tempdir().unwrap();
    let (db, bodies) = filled(dir.path(), small_params(), 12);
    let options = RotationOptions {
        batch_docs: 5,
        max_batches: Some(1),
        progress: None,
    };
    assert!(!rotate(&db, &bodies, &options).finished);
    let report = check(dir.path()).unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
    assert_eq!(
        report.warnings.len(),
        1,
        "only the rotation: {:?}",
        report.warnings
    );
    assert!(
        report.warnings[0].contains("epoch 1, done up to document 5 of 12"),
        "{}",
        report.warnings[0]
    );
    drop(db);
    // Epoch 5, cursor 40, end 12, base 0 (one-byte varints).
    set_meta(dir.path(), "rotation", &[5, 40, 12, 0]);
    let problems = check(dir.path()).unwrap().problems;
    assert!(
        problems
            .iter()
            .any(|p| p.contains("the rotation is to epoch 5, the database is at 1")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("out of order")),
        "{problems:?}"
    );
    // Base 0: no segment is from before the rotation, so the rotated
    // documents' old postings count as live.
    assert!(
        problems.iter().any(|p| p.contains("the postings hold 200")),
        "{problems:?}"
    );
}

/// A searcher's view indexes the staging table incrementally by id; a
/// batch stages documents below ids it has already indexed (here ones
/// added during the rotation), which it must not miss.
#[test]
fn a_searcher_sees_every_batch_of_a_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        flush_docs: 1000,
        ..small_params()
    };
    let (db, mut bodies) = filled(dir.path(), params, 10);
    let one_batch = RotationOptions {
        batch_docs: 3,
        max_batches: Some(1),
        progress: None,
    };
    rotate(&db, &bodies, &one_batch);
    bodies.push(TextGenerator::new(42).words(1500));
    add(&db, "d10", &bodies[10]);
    assert_sound(dir.path(), &db, &bodies, "one batch, one document added");
    rotate(&db, &bodies, &one_batch);
    assert_eq!(db.stats().unwrap().segments, 1, "nothing flushed since");
    assert_sound(dir.path(), &db, &bodies, "two batches");
}
