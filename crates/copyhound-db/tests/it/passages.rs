//! Where a query and a registered document share text: passages located by
//! bytes and lines in both, with the database's own hasher and winnowing.

use copyhound_db::{Database, Params};

use crate::support::{TextGenerator, normalize};

#[test]
fn a_shared_body_is_located_in_both_texts() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), Params::default()).unwrap();
    let mut generator = TextGenerator::new(21);
    let body = generator.words(400);
    let query = format!("{}\n{body}", generator.words(40));
    let registered = format!("{body}\n{}", generator.words(40));
    let passages = db.fingerprinter().shared_passages(
        (&normalize(&query), &query),
        (&normalize(&registered), &registered),
    );
    assert!(
        passages.windows(2).all(|w| w[0].a_bytes <= w[1].a_bytes),
        "{passages:?}"
    );
    let longest = passages.iter().max_by_key(|p| p.symbols).unwrap();
    let [qs, qe] = longest.a_bytes;
    let [rs, re] = longest.b_bytes;
    assert_eq!(&query[qs..qe], &registered[rs..re]);
    assert_eq!(&query[qs..qe], body.trim_end_matches(['.', ' ']));
    assert_eq!(longest.a_lines, [2, 2]);
    assert_eq!(longest.b_lines, [1, 1]);
    let letters = body.chars().filter(|c| c.is_alphanumeric()).count();
    assert_eq!(longest.symbols as usize, letters);
}
