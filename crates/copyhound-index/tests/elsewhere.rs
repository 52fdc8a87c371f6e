//! Units elsewhere: a batch compared with only the archived units that can
//! pair with it, the other archived units counted as `UnitsElsewhere`,
//! scores every pair exactly as the comparison of the whole union does.
// Scores must be equal, not nearly.
#![allow(clippy::float_cmp)]

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
use copyhound_index::{
    BaseCode, CompareOptions, Document, MaxOccurrences, Role, Unit, UnitsElsewhere, compare,
};
use proptest::prelude::*;

fn unit(name: &str, symbols: &[u32], scheme: &Scheme) -> Unit {
    let mut normalized = NormalizedDocument::new();
    for (i, &s) in symbols.iter().enumerate() {
        normalized.push(s, i..i + 1);
    }
    Unit::new(
        name,
        vec![Document::fingerprinted(name, normalized, scheme)],
    )
}

fn hashes(unit: &Unit) -> HashSet<u64> {
    unit.documents
        .iter()
        .flat_map(|d| d.fingerprints().iter().map(|f| f.hash))
        .collect()
}

/// Similarity of each listed pair, by unit names (new unit first).
fn similarities(units: &[Unit], options: &CompareOptions) -> BTreeMap<(String, String), f64> {
    let result = compare(units, &BaseCode::none(), options).unwrap();
    result
        .pairs
        .iter()
        .map(|p| {
            let (a, b) = (&units[p.a].name, &units[p.b].name);
            (
                (a.clone().min(b.clone()), a.clone().max(b.clone())),
                p.similarity,
            )
        })
        .collect()
}

/// Documents cut from a few shared pools, so that fingerprints are held
/// by many units and rarity weights and the occurrence limit matter.
fn documents() -> impl Strategy<Value = Vec<Vec<u32>>> {
    let part = (0usize..4, 0usize..30, 5usize..25);
    prop::collection::vec(prop::collection::vec(part, 1..5), 4..14).prop_map(|units| {
        let pools: Vec<Vec<u32>> = (0..4u32)
            .map(|p| (0..60).map(|i| (i * 7 + p * 13) % 23).collect())
            .collect();
        let mut noise = 1000;
        units
            .iter()
            .map(|parts| {
                let mut symbols = Vec::new();
                for &(pool, start, len) in parts {
                    if pool == 0 {
                        symbols.extend((0..len as u32).map(|i| noise + i));
                        noise += len as u32;
                    } else {
                        symbols.extend(pools[pool].iter().cycle().skip(start).take(len));
                    }
                }
                symbols
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn a_batch_against_an_archive_scores_as_the_union(
        docs in documents(),
        new_count in 1usize..4,
        limit in prop::option::of(2usize..6),
    ) {
        let scheme = Scheme::new(KGramHasher::new(4, 7), Winnowing::robust(3));
        let options = CompareOptions {
            rarity_weighting: true,
            max_occurrences: limit.map_or(MaxOccurrences::Unlimited, MaxOccurrences::Count),
            ..CompareOptions::new(scheme.clone())
        };
        let all: Vec<Unit> = docs
            .iter()
            .enumerate()
            .map(|(i, d)| unit(&format!("u{i:02}"), d, &scheme))
            .collect();
        let new_count = new_count.min(all.len() - 1);
        let union = similarities(&all, &options);

        let new_hashes: HashSet<u64> = all[..new_count].iter().flat_map(hashes).collect();
        let mut batch: Vec<Unit> = all[..new_count].to_vec();
        let mut elsewhere = Vec::new();
        let mut elsewhere_units = 0;
        for archived in &all[new_count..] {
            let own = hashes(archived);
            if own.is_disjoint(&new_hashes) {
                elsewhere_units += 1;
                elsewhere.extend(own.into_iter().map(|h| (h, 1)));
            } else {
                batch.push(archived.clone().with_role(Role::Old));
            }
        }
        let against = similarities(&batch, &CompareOptions {
            elsewhere: Arc::new(UnitsElsewhere::new(elsewhere_units, elsewhere)),
            ..options
        });
        let is_new = |name: &str| all[..new_count].iter().any(|u| u.name == name);
        let expected: BTreeMap<_, _> = union
            .into_iter()
            .filter(|((a, b), _)| is_new(a) || is_new(b))
            .collect();
        prop_assert_eq!(against, expected);
    }
}
