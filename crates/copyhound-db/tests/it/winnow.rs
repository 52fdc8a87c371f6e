//! Winnowing mode: variable-size fingerprints find a small part of a large
//! document, which Koala's fixed-size fingerprints cannot (§3.5).

use copyhound_db::{Database, Mode, Params};

use crate::support::{TextGenerator, add, search};

#[test]
fn a_small_part_of_a_large_document_is_found() {
    let mut generator = TextGenerator::new(11);
    let large = generator.words(30_000);
    let start = large.len() / 2;
    let part = &large[start..start + 2400]; // about 400 words
    let score = |params: Params| {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::create(dir.path(), params).unwrap();
        for _ in 0..5 {
            add(&db, "noise", &generator_noise());
        }
        let id = add(&db, "large", &large);
        let report = search(&db, part);
        let best = report.matches.iter().find(|m| m.document.id == id).cloned();
        best.map_or(0.0, |m| m.score(db.params().mode))
    };
    let winnow = score(Params {
        prologue_bytes: 0,
        ..Params::winnow()
    });
    let koala = score(Params {
        prologue_bytes: 0,
        ..Params::default()
    });
    assert!(winnow > 0.8, "winnowing finds {winnow} of the part");
    assert!(
        koala < 0.1,
        "Koala's fixed-size fingerprint should miss most of it: {koala}"
    );
    assert_eq!(Params::winnow().mode, Mode::Winnow);
}

#[test]
fn a_registered_excerpt_is_found_inside_a_long_query() {
    let mut generator = TextGenerator::new(13);
    let long = generator.words(6000);
    let excerpt = format!("{} {}", generator.words(1500), &long[..3000]);
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), Params::winnow()).unwrap();
    let id = add(&db, "excerpt", &excerpt);
    let report = search(&db, &long);
    let full = crate::support::full_ratio(&db, &excerpt, &long);
    let found = report.matches.iter().find(|m| m.document.id == id).unwrap();
    assert!(
        (found.ratio - full).abs() < 0.05,
        "winnowing {} vs full {full}",
        found.ratio
    );
}

fn generator_noise() -> String {
    TextGenerator::new(99).words(3000)
}
