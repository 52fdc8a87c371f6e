//! Concurrent writers and searchers on one database handle.

use std::sync::Arc;
use std::thread;

use copyhound_db::{Database, check};

use crate::support::{TextGenerator, add, ratio_of, search, small_params};

#[test]
fn searches_run_while_documents_are_added_flushed_and_merged() {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Database::create(dir.path(), small_params()).unwrap());
    let mut generator = TextGenerator::new(12);
    let first: Vec<String> = (0..10).map(|_| generator.words(600)).collect();
    let first_ids: Vec<_> = first.iter().map(|b| add(&db, "first", b)).collect();
    let more: Vec<String> = (0..50).map(|_| generator.words(600)).collect();

    let writer = {
        let db = Arc::clone(&db);
        let more = more.clone();
        thread::spawn(move || more.iter().map(|b| add(&db, "more", b)).collect::<Vec<_>>())
    };
    let searcher = {
        let db = Arc::clone(&db);
        thread::spawn(move || {
            for round in 0..30 {
                let i = round % first.len();
                assert_eq!(
                    ratio_of(&search(&db, &first[i]), first_ids[i]),
                    1.0,
                    "round {round}"
                );
            }
        })
    };
    let more_ids = writer.join().unwrap();
    searcher.join().unwrap();
    for (body, id) in more.iter().zip(more_ids) {
        assert_eq!(ratio_of(&search(&db, body), id), 1.0);
    }
    assert!(check(dir.path()).unwrap().is_ok());
}

#[test]
fn a_background_merger_keeps_the_segment_count_low() {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Database::create(dir.path(), small_params()).unwrap());
    let merger = db.merge_in_background();
    let mut generator = TextGenerator::new(14);
    let bodies: Vec<String> = (0..80).map(|_| generator.words(400)).collect();
    let ids: Vec<_> = bodies.iter().map(|b| add(&db, "d", b)).collect();
    merger.finish().unwrap();
    // Every signal was handled before the thread stopped: nothing is left
    // for a foreground merge, and ten flushes left fewer than ten segments.
    assert_eq!(db.merge().unwrap(), 0);
    assert!(db.stats().unwrap().segments < 10);
    for (body, id) in bodies.iter().zip(ids).step_by(9) {
        assert_eq!(ratio_of(&search(&db, body), id), 1.0);
    }
    assert!(check(dir.path()).unwrap().is_ok());
}
