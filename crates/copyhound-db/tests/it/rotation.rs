//! Rotation from the documents themselves (Koala §3.3), without kept prints.

use std::collections::HashMap;
use std::sync::Mutex;

use copyhound_db::{Database, DocumentPrint, DocumentRecord, check};

use crate::support::{TextGenerator, add, print, ratio_of, search, small_params};

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
