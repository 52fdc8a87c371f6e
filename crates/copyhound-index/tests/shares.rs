//! Unit shares: the bound a caller works out from two units' fingerprints
//! alone is never below the similarity the comparison gives the pair,
//! with rarity weights, an occurrence limit and units counted elsewhere.

use std::collections::HashMap;
use std::sync::Arc;

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
use copyhound_index::{
    BaseCode, CompareOptions, Document, MaxOccurrences, PrintedDocument, ShareRules, Unit,
    UnitShares, UnitsElsewhere, compare, pair_bound,
};
use proptest::prelude::*;

fn document(symbols: &[u32], scheme: &Scheme) -> Document {
    let mut normalized = NormalizedDocument::new();
    for (i, &s) in symbols.iter().enumerate() {
        normalized.push(s, i..i + 1);
    }
    Document::fingerprinted("d", normalized, scheme)
}

/// Units of one or two documents cut from a few shared pools and noise,
/// so that they share runs of every length and hashes many units hold.
fn units() -> impl Strategy<Value = Vec<Vec<Vec<u32>>>> {
    let part = (0usize..4, 0usize..40, 1usize..30);
    let doc = prop::collection::vec(part, 1..5);
    prop::collection::vec(prop::collection::vec(doc, 1..3), 2..9).prop_map(|units| {
        let pools: Vec<Vec<u32>> = (0..4u32)
            .map(|p| (0..60).map(|i| (i * 7 + p * 13) % 19).collect())
            .collect();
        let mut noise = 1000;
        units
            .iter()
            .map(|docs| {
                docs.iter()
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
            .collect()
    })
}

fn distinct_hashes(unit: &Unit) -> Vec<u64> {
    let mut hashes: Vec<u64> = unit
        .documents
        .iter()
        .flat_map(|d| d.fingerprints().iter().map(|f| f.hash))
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn shares_bound_every_listed_pair(
        docs in units(),
        (k, w, robust) in (1usize..6, 1usize..6, any::<bool>()),
        (rarity, limit) in (any::<bool>(), prop::option::of(2usize..5)),
        elsewhere_units in 0usize..4,
    ) {
        let scheme = Scheme::new(
            KGramHasher::new(k, 7),
            if robust { Winnowing::robust(w) } else { Winnowing::new(w) },
        );
        let units: Vec<Unit> = docs
            .iter()
            .enumerate()
            .map(|(u, docs)| Unit::new(format!("u{u}"), docs.iter().map(|d| document(d, &scheme)).collect()))
            .collect();
        // Units elsewhere hold every hash of the first unit.
        let first = distinct_hashes(&units[0]);
        let elsewhere = UnitsElsewhere::new(
            elsewhere_units,
            first.iter().map(|&h| (h, elsewhere_units as u32)).collect(),
        );
        let options = CompareOptions {
            max_occurrences: limit.map_or(MaxOccurrences::Unlimited, MaxOccurrences::Count),
            rarity_weighting: rarity,
            elsewhere: Arc::new(elsewhere.clone()),
            ..CompareOptions::new(scheme.clone())
        };
        let result = compare(&units, &BaseCode::none(), &options).unwrap();

        let mut holders: HashMap<u64, usize> = HashMap::new();
        for unit in &units {
            for h in distinct_hashes(unit) {
                *holders.entry(h).or_default() += 1;
            }
        }
        let all_units = units.len() + elsewhere_units;
        let rules = ShareRules {
            k,
            window: w,
            units: all_units,
            rarity_weighting: rarity,
            max_units: options.max_occurrences.limit(all_units),
        };
        let shares: Vec<UnitShares> = units
            .iter()
            .map(|unit| {
                let documents: Vec<PrintedDocument> = unit
                    .documents
                    .iter()
                    .map(|d| PrintedDocument { len: d.len(), fingerprints: d.fingerprints() })
                    .collect();
                UnitShares::of(&documents, &rules, |h| holders[&h] + elsewhere.count(h) as usize)
            })
            .collect();
        let side = |x: &UnitShares, y: &UnitShares| -> u64 {
            let shared: u64 = x
                .hashes
                .iter()
                .zip(&x.shares)
                .filter(|&(&h, _)| y.share(h).is_some())
                .map(|(_, &s)| u64::from(s))
                .sum();
            shared + u64::from(x.unindexed)
        };
        for pair in &result.pairs {
            let (a, b) = (&shares[pair.a], &shares[pair.b]);
            let bound = pair_bound(side(a, b), side(b, a));
            prop_assert!(pair.similarity <= bound, "{:?} above its bound {}", pair, bound);
        }
    }
}

/// A unit that is a common template plus a short rare part, and a copy of
/// the rare part alone: under rarity weights the template counts almost
/// nothing, so the pair is far more similar than flat shares would allow,
/// and the shares follow the weights.
#[test]
fn shares_follow_rarity_weights() {
    let scheme = Scheme::new(KGramHasher::new(3, 7), Winnowing::robust(2));
    let template: Vec<u32> = (0..200).map(|i| (i * 5) % 97).collect();
    let rare: Vec<u32> = (500..520).collect();
    let mut units = vec![
        Unit::new(
            "a",
            vec![document(&[&template[..], &rare[..]].concat(), &scheme)],
        ),
        Unit::new(
            "b",
            vec![document(
                &[&rare[..], &[900, 901, 902][..]].concat(),
                &scheme,
            )],
        ),
    ];
    for u in 0..10u32 {
        let own: Vec<u32> = (0..10).map(|i| 1000 + 10 * u + i).collect();
        units.push(Unit::new(
            format!("t{u}"),
            vec![document(&[&template[..], &own[..]].concat(), &scheme)],
        ));
    }
    let options = CompareOptions {
        rarity_weighting: true,
        ..CompareOptions::new(scheme.clone())
    };
    let result = compare(&units, &BaseCode::none(), &options).unwrap();
    let pair = result.pairs.iter().find(|p| (p.a, p.b) == (0, 1)).unwrap();
    let mut holders: HashMap<u64, usize> = HashMap::new();
    for unit in &units {
        for h in distinct_hashes(unit) {
            *holders.entry(h).or_default() += 1;
        }
    }
    let bound = |rarity_weighting: bool| {
        let rules = ShareRules {
            k: 3,
            window: 2,
            units: units.len(),
            rarity_weighting,
            max_units: usize::MAX,
        };
        let shares: Vec<UnitShares> = units[..2]
            .iter()
            .map(|unit| {
                let d = &unit.documents[0];
                let documents = [PrintedDocument {
                    len: d.len(),
                    fingerprints: d.fingerprints(),
                }];
                UnitShares::of(&documents, &rules, |h| holders[&h])
            })
            .collect();
        let side = |x: &UnitShares, y: &UnitShares| -> u64 {
            x.hashes
                .iter()
                .zip(&x.shares)
                .filter(|&(&h, _)| y.share(h).is_some())
                .map(|(_, &s)| u64::from(s))
                .sum()
        };
        pair_bound(side(&shares[0], &shares[1]), side(&shares[1], &shares[0]))
    };
    assert!(pair.similarity > 0.7, "{pair:?}");
    assert!(
        pair.similarity <= bound(true),
        "{} > {}",
        pair.similarity,
        bound(true)
    );
    assert!(
        bound(false) < pair.similarity,
        "flat shares {} would bound it too",
        bound(false)
    );
}
