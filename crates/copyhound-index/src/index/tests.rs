//! Tests of the inverted index: what it keeps, its sorted entries, and the
//! three ways of finding the postings two units share.

use super::*;
use crate::Document;
use copyhound_fingerprint::NormalizedDocument;
use proptest::prelude::any;

#[test]
fn only_hashes_shared_by_few_enough_units_are_kept() {
    let units = [
        Unit::of_hashes("a", &[1, 2, 3, 3]),
        Unit::of_hashes("b", &[3, 2, 9]),
        Unit::of_hashes("c", &[2, 7]),
    ];
    let index = FingerprintIndex::build(&units, &BaseCode::none(), 2);
    // 2 is in three units (dropped), 1, 7, 9 in one (dropped), 3 in two.
    assert_eq!(index.hash_count(), 1);
    let h = index.find(3).unwrap();
    assert_eq!(index.units_of(h), &[0, 1]);
    assert_eq!(index.unit_postings(h, 0).len(), 2);
    assert_eq!(index.unit_postings(h, 1)[0].pos, 0);
    assert_eq!(index.hashes_of(0), &[h]);
    assert!(index.hashes_of(2).is_empty());
    assert_eq!(index.stats().common_hashes, 1);
    assert_eq!(index.stats().common_fingerprints, 3);
    assert_eq!(index.stats().fingerprints, 9);
}

#[test]
fn hashes_only_old_units_hold_are_left_out() {
    let units = [
        Unit::of_hashes("new", &[1, 2]),
        Unit::of_hashes("old1", &[1, 2, 3, 3]).with_role(crate::Role::Old),
        Unit::of_hashes("old2", &[3, 2]).with_role(crate::Role::Old),
    ];
    let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
    // 3 is in the two old units only: its three postings are left out.
    assert!(index.find(3).is_none());
    assert_eq!(index.stats().old_only_postings, 3);
    assert_eq!(index.units_of(index.find(2).unwrap()), &[0, 1, 2]);
    assert_eq!(index.stats().postings, 5);
}

/// Each shared run's postings in either unit.
fn postings_of<'a>(
    runs: impl Iterator<Item = SharedRun<'a>>,
) -> Vec<(&'a [Posting], &'a [Posting])> {
    runs.map(|run| (run.in_a, run.in_b)).collect()
}

proptest::proptest! {
    /// The posting table of a unit with many hashes among many more
    /// (so that slots collide) finds every hash id's postings, and
    /// only the unit's.
    #[test]
    fn the_posting_table_finds_each_hash_of_its_unit(
        a in proptest::collection::vec(0u64..3000, 0..600),
        b in proptest::collection::vec(0u64..3000, 0..600),
    ) {
        // Two units holding every hash make the ids of a and b a sparse
        // subset of all ids, as in a real batch.
        let every: Vec<u64> = (0..3000).collect();
        let units = [Unit::of_hashes("a", &a), Unit::of_hashes("b", &b), Unit::of_hashes("c", &every), Unit::of_hashes("d", &every)];
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        let mut table = PostingTable::default();
        for u in 0..2 {
            table.fill(&index, u);
            for h in 0..index.hash_count() as u32 {
                let expected = index.unit_postings(h, u);
                let found = table.find(h).map_or(&[][..], |range| &index.postings[range]);
                proptest::prop_assert_eq!(found, expected);
            }
        }
    }

    /// Bucketed, the fingerprints come out as a plain sort of their
    /// postings (base code left out) puts them, and their places lead
    /// back to those postings: with hashes crowded into the lowest
    /// bucket, spread over all of them, or found in the base, in units
    /// of one document or several.
    #[test]
    fn bucketed_entries_are_sorted_as_one_sort_sorts_them(
        units in proptest::collection::vec(
            proptest::collection::vec((0u8..3, any::<u64>()), 0..400),
            1..6,
        ),
        with_base in any::<bool>(),
    ) {
        let hasher = copyhound_fingerprint::KGramHasher::new(3, 0);
        let mut template = NormalizedDocument::new();
        for i in 0..10 {
            template.push(i, i as usize..i as usize + 1);
        }
        let base_hashes = hasher.hashes(&template.symbols);
        let scheme = copyhound_fingerprint::Scheme::new(hasher.clone(), copyhound_fingerprint::All);
        let base = if with_base { BaseCode::new(&scheme, [&template]) } else { BaseCode::none() };
        let units: Vec<Unit> = units
            .iter()
            .enumerate()
            .map(|(i, picks)| {
                let hashes: Vec<u64> = picks
                    .iter()
                    .map(|&(kind, value)| match kind {
                        0 => value % 50,
                        1 => value,
                        _ => base_hashes[value as usize % base_hashes.len()],
                    })
                    .collect();
                // Some units of several documents, some of them empty.
                let mut documents: Vec<Document> = hashes
                    .chunks(37 * (i + 1))
                    .map(|chunk| Unit::of_hashes("", chunk).documents.remove(0))
                    .collect();
                if i % 2 == 1 {
                    documents.insert(documents.len() / 2, Document::default());
                }
                Unit::new(format!("u{i}"), documents)
            })
            .collect();
        let mut plain: Vec<(u64, u32, Posting)> = Vec::new();
        for (u, unit) in units.iter().enumerate() {
            for (d, doc) in unit.documents.iter().enumerate() {
                for f in &doc.fingerprints {
                    plain.push((f.hash, u as u32, Posting { doc: d as u32, pos: f.pos }));
                }
            }
        }
        let all = plain.len();
        plain.retain(|(hash, _, _)| !base.contains(*hash));
        plain.sort_unstable();
        let (entries, in_base) = sorted_entries(&units, &base);
        proptest::prop_assert_eq!(in_base, all - plain.len());
        let places = Places::new(&units);
        let postings: Vec<(u64, u32, Posting)> = entries
            .iter()
            .map(|&(hash, u, place)| (hash, u, places.posting(u, place)))
            .collect();
        proptest::prop_assert_eq!(postings, plain);
    }

    /// The merge of two units' postings finds exactly the hashes both
    /// hold, with each one's postings in either unit.
    #[test]
    fn shared_postings_are_the_hashes_both_units_hold(
        hashes in proptest::collection::vec(proptest::collection::vec(0u64..12, 0..30), 2..5),
    ) {
        let units: Vec<Unit> = hashes
            .iter()
            .enumerate()
            .map(|(i, h)| Unit::of_hashes(&format!("u{i}"), h))
            .collect();
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        for a in 0..units.len() as u32 {
            for b in 0..units.len() as u32 {
                let merged = postings_of(index.shared_postings(a, b));
                let looked_up: Vec<(&[Posting], &[Posting])> = index
                    .hashes_of(a)
                    .iter()
                    .filter(|&&h| index.units_of(h).contains(&b))
                    .map(|&h| (index.unit_postings(h, a), index.unit_postings(h, b)))
                    .collect();
                proptest::prop_assert_eq!(&merged, &looked_up);
                // Filled after another unit's, as a worker fills them.
                let other = (a + 1) % units.len() as u32;
                let mut table = PostingTable::default();
                table.fill(&index, other);
                table.fill(&index, a);
                let from_table = postings_of(index.shared_postings_with(&table, b));
                proptest::prop_assert_eq!(&from_table, &looked_up);
                let mut partners = PartnerRuns::default();
                partners.fill(&index, other);
                partners.fill(&index, a);
                let from_lists = postings_of(index.shared_postings_of(&partners, b));
                let later = if b > a { looked_up } else { Vec::new() };
                proptest::prop_assert_eq!(from_lists, later);
            }
        }
    }
}
