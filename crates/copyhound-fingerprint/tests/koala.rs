//! Koala's fixed-size selection: the size and subset invariants, keyed
//! determinism, the preference for rare prefixes (§6.1), robustness to small
//! edits, and re-selection of the stored set under a new rotation (§3.3).

use std::collections::{HashMap, HashSet};

use copyhound_fingerprint::{
    Fingerprint, KGramHasher, KGrams, KoalaParams, KoalaSelector, Selector,
};
use proptest::prelude::*;

/// Heintze's α: 20 consonants.
const K: usize = 20;

/// A deterministic stream of pseudo-random numbers for building documents.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn letters(&mut self, len: usize) -> Vec<u32> {
        (0..len)
            .map(|_| u32::from(b'a') + self.below(26) as u32)
            .collect()
    }
}

fn koala(seed: u64) -> KoalaSelector {
    KoalaSelector::new(KoalaParams {
        seed,
        ..KoalaParams::default()
    })
}

fn search(selector: &KoalaSelector, symbols: &[u32]) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.fingerprint(&KGramHasher::new(K, 1), symbols, &mut out);
    out
}

fn stored(selector: &KoalaSelector, search: &[Fingerprint], rotation: u64) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.stored(search, rotation, &mut out);
    out
}

fn hashes(fingerprints: &[Fingerprint]) -> HashSet<u64> {
    fingerprints.iter().map(|f| f.hash).collect()
}

proptest! {
    #[test]
    fn stored_is_a_bounded_subset_of_a_bounded_search_set(
        symbols in prop::collection::vec(0u32..6, 0..3000),
        search_size in 1usize..300,
        stored_fraction in 0.0f64..=1.0,
        prefix in 0usize..8,
        skip in 0usize..500,
        k in 1usize..12,
        seed: u64,
        rotation: u64,
    ) {
        let stored_size = (search_size as f64 * stored_fraction) as usize;
        let selector = KoalaSelector::new(KoalaParams { search_size, stored_size, prefix, skip, seed });
        let all = KGramHasher::new(k, seed).hashes(&symbols);
        let mut search = Vec::new();
        selector.select(&KGrams::new(&symbols, &all, k), &mut search);
        // The prologue is skipped as far as it leaves N k-grams.
        let first = skip.min(all.len().saturating_sub(search_size));
        let distinct: HashSet<u64> = all[first..].iter().copied().collect();

        prop_assert_eq!(search.len(), search_size.min(distinct.len()));
        prop_assert!(search.windows(2).all(|p| p[0].pos < p[1].pos), "position order");
        prop_assert_eq!(hashes(&search).len(), search.len(), "distinct hashes");
        for f in &search {
            prop_assert!(f.pos as usize >= first);
            prop_assert_eq!(all[f.pos as usize], f.hash);
        }

        let kept = stored(&selector, &search, rotation);
        prop_assert_eq!(kept.len(), stored_size.min(search.len()));
        prop_assert!(kept.windows(2).all(|p| p[0].pos < p[1].pos));
        let search_set: HashSet<Fingerprint> = search.iter().copied().collect();
        prop_assert!(kept.iter().all(|f| search_set.contains(f)), "stored ⊂ search");
    }
}

#[test]
fn the_selection_is_fixed_by_the_seed_and_changes_with_it() {
    let symbols = Rng(5).letters(30_000);
    let first = search(&koala(11), &symbols);
    assert_eq!(first.len(), 1000);
    assert_eq!(
        first,
        search(&koala(11), &symbols),
        "same seed, same selection"
    );
    let other = search(&koala(12), &symbols);
    let shared = hashes(&first).intersection(&hashes(&other)).count();
    // Two random 1000-subsets of ~30 000 k-grams share about 33.
    assert!(shared < 200, "another seed still shares {shared} of 1000");
}

#[test]
fn k_grams_with_rare_prefixes_are_preferred() {
    // Half of the 12-letter segments open with the prefix "thequ", so about
    // one k-gram in twelve starts with a prefix seen ~1250 times, and a few
    // more with prefixes like "hequ?" seen ~50 times.
    let mut rng = Rng(8);
    let mut symbols = Vec::new();
    for _ in 0..2500 {
        if rng.below(2) == 0 {
            symbols.extend(b"thequ".iter().map(|&b| u32::from(b)));
            symbols.extend(rng.letters(7));
        } else {
            symbols.extend(rng.letters(12));
        }
    }
    let mut prefix_counts: HashMap<&[u32], usize> = HashMap::new();
    for prefix in symbols.windows(5) {
        *prefix_counts.entry(prefix).or_default() += 1;
    }
    let repeated_prefix = |pos: usize| prefix_counts[&symbols[pos..pos + 5]] > 1;
    let frequent_share = |selection: &[Fingerprint]| {
        let frequent = selection
            .iter()
            .filter(|f| repeated_prefix(f.pos as usize))
            .count();
        frequent as f64 / selection.len() as f64
    };
    let kgrams = symbols.len() + 1 - K;
    let document_share =
        (0..kgrams).filter(|&pos| repeated_prefix(pos)).count() as f64 / kgrams as f64;

    let by_frequency = search(&koala(3), &symbols);
    let by_rank_only = search(
        &KoalaSelector::new(KoalaParams {
            prefix: 0,
            seed: 3,
            ..KoalaParams::default()
        }),
        &symbols,
    );
    let (preferring, ignoring) = (frequent_share(&by_frequency), frequent_share(&by_rank_only));
    eprintln!(
        "k-grams with a repeated prefix: {:.1}% of the document, {:.1}% of a rank-only \
         selection, {:.1}% of Koala's",
        100.0 * document_share,
        100.0 * ignoring,
        100.0 * preferring
    );
    assert!(
        ignoring > 0.6 * document_share,
        "a rank-only selection mirrors the document"
    );
    // 30 000 positions, most with a unique prefix: Koala needs none of the rest.
    assert!(
        preferring < 1e-9,
        "Koala took {preferring} with repeated prefixes"
    );
}

#[test]
fn a_lightly_edited_copy_keeps_most_stored_fingerprints() {
    let mut rng = Rng(21);
    let original = rng.letters(40_000);
    let mut copy = original.clone();
    for _ in 0..20 {
        let at = rng.below(copy.len() as u64) as usize;
        copy[at] = u32::from(b'a') + rng.below(26) as u32;
    }
    copy.insert(12_345, u32::from(b'z'));
    copy.remove(30_000);

    let selector = koala(77);
    let original_search = search(&selector, &original);
    let copy_search = search(&selector, &copy);
    let original_stored = stored(&selector, &original_search, 5);
    let copy_stored = stored(&selector, &copy_search, 5);
    let shared = hashes(&original_stored)
        .intersection(&hashes(&copy_stored))
        .count();
    assert!(
        shared >= 90,
        "only {shared} of 100 stored fingerprints survive 22 edits"
    );
    // What a search sees: the copy's search set against the stored original.
    let found = hashes(&original_stored)
        .intersection(&hashes(&copy_search))
        .count();
    assert!(
        found >= 95,
        "the copy's search set meets only {found} stored fingerprints"
    );
}

#[test]
fn a_new_rotation_reselects_the_stored_set_from_the_search_set() {
    let symbols = Rng(4).letters(20_000);
    let selector = koala(9);
    let search_set = search(&selector, &symbols);
    let before = stored(&selector, &search_set, 1);
    let after = stored(&selector, &search_set, 2);
    assert_eq!(
        before,
        stored(&selector, &search_set, 1),
        "a rotation key is reproducible"
    );
    let all: HashSet<Fingerprint> = search_set.iter().copied().collect();
    assert!(before.iter().chain(&after).all(|f| all.contains(f)));
    assert_eq!((before.len(), after.len()), (100, 100));
    // Two random 100-subsets of 1000 share about 10.
    let shared = hashes(&before).intersection(&hashes(&after)).count();
    assert!(shared < 40, "rotation kept {shared} of 100");
}

#[test]
fn a_repetitive_document_selects_each_k_gram_once() {
    let symbols: Vec<u32> = b"abcdefg"
        .iter()
        .cycle()
        .take(5000)
        .map(|&b| u32::from(b))
        .collect();
    let picked = search(&koala(0), &symbols);
    // Period 7: seven distinct k-grams, each at its first position.
    assert_eq!(
        picked.iter().map(|f| f.pos).collect::<Vec<_>>(),
        (0..7).collect::<Vec<u32>>()
    );
}

#[test]
fn an_unbounded_search_size_keeps_every_distinct_k_gram() {
    let selector = KoalaSelector::new(KoalaParams {
        search_size: usize::MAX,
        stored_size: usize::MAX,
        ..KoalaParams::default()
    });
    let symbols = Rng(2).letters(3000);
    let picked = search(&selector, &symbols);
    assert_eq!(picked.len(), 3000 + 1 - K);
    assert_eq!(stored(&selector, &picked, 0), picked);
}
