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
