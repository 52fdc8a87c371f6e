//! The winnowing paper's worked example, its guarantee as property tests,
//! and its density figures.

use copyhound_fingerprint::{
    All, Fingerprint, KGramHasher, KGrams, ModP, QueryWinnowing, SafeModP, Selector, Smallest,
    Symbol, Winnowing,
};
use proptest::prelude::*;

const FIGURE_2_HASHES: [u64; 17] = [
    77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98,
];

fn select(selector: &dyn Selector, hashes: &[u64]) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    selector.select(&KGrams::from_hashes(hashes), &mut out);
    out.into_iter().map(|f| (f.hash, f.pos)).collect()
}

/// Robust or plain winnowing with window `w`.
fn winnowing_with(w: usize, robust: bool) -> Winnowing {
    if robust {
        Winnowing::robust(w)
    } else {
        Winnowing::new(w)
    }
}

#[test]
fn figure_2_winnowing() {
    assert_eq!(
        select(&Winnowing::new(4), &FIGURE_2_HASHES),
        [(17, 3), (17, 6), (8, 8), (39, 11), (17, 15)]
    );
}

#[test]
fn figure_2_robust_winnowing() {
    // Window (17 98 50 17) ties: plain winnowing moves to the rightmost 17
    // at once, robust winnowing keeps 17@3 until it leaves the window, then
    // the next window selects 17@6 — the same set on this input.
    assert_eq!(
        select(&Winnowing::robust(4), &FIGURE_2_HASHES),
        [(17, 3), (17, 6), (8, 8), (39, 11), (17, 15)]
    );
}

#[test]
fn robust_winnowing_keeps_the_previous_choice_on_ties() {
    let hashes = [5, 1, 9, 1, 9, 1, 9, 1, 9];
    // Plain winnowing moves to every new 1: it is the rightmost minimum.
    assert_eq!(
        select(&Winnowing::new(4), &hashes),
        [(1, 3), (1, 5), (1, 7)]
    );
    // Robust winnowing keeps 1@3 until it leaves the window (at window 4..=7).
    assert_eq!(select(&Winnowing::robust(4), &hashes), [(1, 3), (1, 7)]);
}

#[test]
fn a_document_shorter_than_a_window_yields_its_minimum() {
    assert_eq!(select(&Winnowing::new(10), &[4, 2, 7, 2]), [(2, 3)]);
    assert_eq!(select(&Winnowing::robust(10), &[4, 2, 7, 2]), [(2, 3)]);
    assert!(select(&Winnowing::robust(10), &[]).is_empty());
}

#[test]
fn mod_p_safe_mod_p_all_and_smallest_on_a_known_sequence() {
    let hashes = [10, 3, 4, 6, 7, 9, 11, 13, 8, 2];
    assert_eq!(
        select(&ModP::new(2), &hashes),
        [(10, 0), (4, 2), (6, 3), (8, 8), (2, 9)]
    );
    // p = 5, w = 3: only 10@0 is Good. 3@1 and 4@2 have the Good 10 among
    // their two left neighbours (Ugly); from 6@3 on every hash is Bad.
    assert_eq!(
        select(&SafeModP::new(5, 3), &hashes),
        [
            (10, 0),
            (6, 3),
            (7, 4),
            (9, 5),
            (11, 6),
            (13, 7),
            (8, 8),
            (2, 9)
        ]
    );
    assert_eq!(select(&All, &hashes).len(), hashes.len());
    assert_eq!(select(&Smallest::new(3), &hashes), [(3, 1), (4, 2), (2, 9)]);
    // A long run can hold no hash `0 mod p`, and a sketch's n smallest
    // depend on the whole document: neither promises a window.
    assert_eq!(ModP::new(2).window_guarantee(), None);
    assert_eq!(Smallest::new(3).window_guarantee(), None);
}

#[test]
fn smallest_takes_each_value_once_at_its_first_position() {
    assert_eq!(
        select(&Smallest::new(2), &[5, 1, 5, 1, 3]),
        [(1, 1), (3, 4)]
    );
}

/// A deterministic pseudo-random symbol stream over `alphabet` symbols.
fn random_symbols(len: usize, alphabet: u32, seed: u64) -> Vec<Symbol> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % u64::from(alphabet)) as Symbol
        })
        .collect()
}

fn fingerprints(
    selector: &dyn Selector,
    hasher: &KGramHasher,
    symbols: &[Symbol],
) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.fingerprint(hasher, symbols, &mut out);
    out
}

/// Hashes of the fingerprints whose k-gram lies inside `run`.
fn hashes_inside(fps: &[Fingerprint], run: std::ops::Range<usize>, k: usize) -> Vec<u64> {
    fps.iter()
        .filter(|f| f.pos as usize >= run.start && f.pos as usize + k <= run.end)
        .map(|f| f.hash)
        .collect()
}

/// Two documents sharing one planted run; returns both and the run's place in each.
#[derive(Debug, Clone)]
struct PlantedPair {
    a: Vec<Symbol>,
    b: Vec<Symbol>,
    run_a: std::ops::Range<usize>,
    run_b: std::ops::Range<usize>,
}

fn planted_pair(min_run: usize) -> impl Strategy<Value = PlantedPair> {
    (
        2u32..30,
        any::<u64>(),
        0usize..300,
        0usize..300,
        0usize..200,
        0usize..40,
    )
        .prop_map(move |(alphabet, seed, pre_a, pre_b, post, extra)| {
            let run = random_symbols(min_run + extra, alphabet, seed);
            let noise_a = random_symbols(pre_a + post, alphabet, seed ^ 1);
            let noise_b = random_symbols(pre_b + post, alphabet, seed ^ 2);
            let mut a = noise_a[..pre_a].to_vec();
            a.extend(&run);
            a.extend(&noise_a[pre_a..]);
            let mut b = noise_b[..pre_b].to_vec();
            b.extend(&run);
            b.extend(&noise_b[pre_b..]);
            PlantedPair {
                a,
                b,
                run_a: pre_a..pre_a + run.len(),
                run_b: pre_b..pre_b + run.len(),
            }
        })
}

fn shares_a_fingerprint_in_the_run(
    selector: &dyn Selector,
    hasher: &KGramHasher,
    pair: &PlantedPair,
) -> bool {
    let k = hasher.k();
    let in_a = hashes_inside(
        &fingerprints(selector, hasher, &pair.a),
        pair.run_a.clone(),
        k,
    );
    let in_b = hashes_inside(
        &fingerprints(selector, hasher, &pair.b),
        pair.run_b.clone(),
        k,
    );
    in_a.iter().any(|h| in_b.contains(h))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_run_of_t_symbols_shares_a_fingerprint(
        seed: u64,
        case in (1usize..30, 1usize..40).prop_flat_map(|(k, w)| planted_pair(w + k - 1).prop_map(move |p| (k, w, p))),
    ) {
        let (k, w, pair) = case;
        let hasher = KGramHasher::new(k, seed);
        for selector in [
            Box::new(Winnowing::new(w)) as Box<dyn Selector>,
            Box::new(Winnowing::robust(w)),
            Box::new(SafeModP::optimal(w)),
            Box::new(All),
        ] {
            // The window each declares is the one it keeps (All's 1 is
            // at most w, so runs of w + k − 1 are found by it too).
            let declared = selector.window_guarantee();
            prop_assert!(declared.is_some_and(|d| d <= w), "{} declares {:?}", selector.name(), declared);
            prop_assert!(
                shares_a_fingerprint_in_the_run(&selector, &hasher, &pair),
                "{} with k={} w={} missed a run of {}", selector.name(), k, w, pair.run_a.len()
            );
        }
    }

    #[test]
    fn query_windows_find_runs_of_their_own_threshold_and_select_a_subset(
        seed: u64,
        robust: bool,
        case in (1usize..20, 1usize..20, 0usize..40)
            .prop_flat_map(|(k, w, extra)| planted_pair(w + extra + k - 1).prop_map(move |p| (k, w, w + extra, p))),
    ) {
        let (k, w, w_query, pair) = case;
        let hasher = KGramHasher::new(k, seed);
        let stored = winnowing_with(w, robust);
        let query = QueryWinnowing::new(stored, w_query);
        prop_assert_eq!(query.window_guarantee(), Some(w_query));
        prop_assert!(shares_a_fingerprint_in_the_run(&query, &hasher, &pair));
        for doc in [&pair.a, &pair.b] {
            let full = fingerprints(&stored, &hasher, doc);
            let coarse = fingerprints(&query, &hasher, doc);
            prop_assert!(coarse.iter().all(|f| full.contains(f)), "query selection is not a subset");
            prop_assert!(coarse.windows(2).all(|p| p[0].pos < p[1].pos));
        }
    }

    #[test]
    fn streaming_winnowing_equals_winnowing_the_whole_hash_sequence(
        symbols in prop::collection::vec(0u32..4, 0..70_000),
        k in 1usize..60,
        w in 1usize..300,
        robust: bool,
        seed: u64,
    ) {
        let hasher = KGramHasher::new(k, seed);
        let winnowing = winnowing_with(w, robust);
        let hashes = hasher.hashes(&symbols);
        let mut whole = Vec::new();
        winnowing.select(&KGrams::new(&symbols, &hashes, k), &mut whole);
        prop_assert_eq!(fingerprints(&winnowing, &hasher, &symbols), whole);
    }

    #[test]
    fn selections_are_sorted_unique_and_in_range(
        symbols in prop::collection::vec(0u32..8, 0..3000),
        k in 1usize..20,
        w in 1usize..50,
        seed: u64,
    ) {
        let hasher = KGramHasher::new(k, seed);
        let count = hasher.kgram_count(symbols.len());
        for selector in [
            Box::new(Winnowing::new(w)) as Box<dyn Selector>,
            Box::new(Winnowing::robust(w)),
            Box::new(ModP::new(w as u64)),
            Box::new(SafeModP::optimal(w)),
            Box::new(Smallest::new(w)),
        ] {
            let fps = fingerprints(&selector, &hasher, &symbols);
            prop_assert!(fps.windows(2).all(|p| p[0].pos < p[1].pos), "{} unsorted", selector.name());
            prop_assert!(fps.iter().all(|f| (f.pos as usize) < count));
        }
    }
}

// Density experiments of §3.1 and §5.1: 8 MB of random text, k = 50, w = 100.
const DENSITY_TEXT: usize = 8 << 20;

fn density(selector: &dyn Selector, hasher: &KGramHasher, symbols: &[Symbol]) -> f64 {
    fingerprints(selector, hasher, symbols).len() as f64 / hasher.kgram_count(symbols.len()) as f64
}

fn assert_within(measured: f64, expected: f64, tolerance: f64, what: &str) {
    let error = (measured - expected).abs() / expected;
    assert!(
        error <= tolerance,
        "{what}: density {measured:.6}, expected {expected:.6} (off by {:.2} %)",
        error * 100.0
    );
}

#[test]
fn densities_on_random_text_match_the_paper() {
    // 27 symbols: lower-case letters and space, as in random text.
    let text = random_symbols(DENSITY_TEXT, 27, 2003);
    let hasher = KGramHasher::new(50, 7);
    let expected = 2.0 / 101.0;
    assert_within(
        density(&Winnowing::new(100), &hasher, &text),
        expected,
        0.02,
        "winnowing",
    );
    assert_within(
        density(&Winnowing::robust(100), &hasher, &text),
        expected,
        0.02,
        "robust winnowing",
    );
    assert_within(
        density(&ModP::new(50), &hasher, &text),
        1.0 / 50.0,
        0.02,
        "0 mod 50",
    );
    let safe = SafeModP::optimal(100);
    let p = 1.0 / safe.p() as f64;
    let safe_expected = p + (1.0 - p).powi(100);
    assert_within(
        density(&safe, &hasher, &text),
        safe_expected,
        0.03,
        "safe 0 mod p",
    );
}

#[test]
fn robust_winnowing_tames_low_entropy_input() {
    let zeros = vec![u32::from(b'0'); 1 << 20];
    let hasher = KGramHasher::new(50, 7);
    let w = 100;
    let plain = density(&Winnowing::new(w), &hasher, &zeros);
    let robust = density(&Winnowing::robust(w), &hasher, &zeros);
    assert!(
        plain > 0.99,
        "plain winnowing selects nearly every hash on 000…, got {plain}"
    );
    assert!(
        robust <= 1.1 / w as f64,
        "robust winnowing should select about 1/w, got {robust}"
    );
}

/// Winnowing as the paper defines it, one window at a time in O(n·w):
/// every window's minimum; on ties robust winnowing keeps the previous
/// choice while it is in the window, otherwise the rightmost minimum wins.
fn reference_winnowing(hashes: &[u64], w: usize, robust: bool) -> Vec<(u64, u32)> {
    let mut picks: Vec<(u64, u32)> = Vec::new();
    if hashes.is_empty() {
        return picks;
    }
    let windows = hashes.len().saturating_sub(w) + 1;
    for start in 0..windows {
        let window = &hashes[start..(start + w).min(hashes.len())];
        let min = *window.iter().min().unwrap();
        let previous = picks.last().copied();
        let keep =
            robust && previous.is_some_and(|(hash, pos)| pos as usize >= start && hash == min);
        if !keep {
            let rightmost = start + window.iter().rposition(|&h| h == min).unwrap();
            if previous.map(|(_, pos)| pos as usize) != Some(rightmost) {
                picks.push((min, rightmost as u32));
            }
        }
    }
    picks
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn winnowing_equals_the_reference_on_tie_heavy_hashes(
        hashes in (1u64..6, 0usize..3000).prop_flat_map(|(range, len)| {
            prop::collection::vec(
                prop_oneof![0..range, Just(u64::MAX), any::<u64>()],
                len,
            )
        }),
        w in 1usize..120,
        robust: bool,
    ) {
        let winnowing = winnowing_with(w, robust);
        prop_assert_eq!(select(&winnowing, &hashes), reference_winnowing(&hashes, w, robust));
    }

    #[test]
    fn streaming_winnowing_equals_the_reference_across_blocks(
        symbols in (1u32..4, 16_000usize..40_000)
            .prop_flat_map(|(alphabet, len)| prop::collection::vec(0..alphabet, len)),
        k in 1usize..4,
        w in 1usize..64,
        robust: bool,
        seed: u64,
    ) {
        // Two or three symbols and k ≤ 3: at most 27 distinct hashes, so
        // nearly every window has ties, also where the blocks meet.
        let hasher = KGramHasher::new(k, seed);
        let winnowing = winnowing_with(w, robust);
        let streamed: Vec<(u64, u32)> = fingerprints(&winnowing, &hasher, &symbols)
            .into_iter()
            .map(|f| (f.hash, f.pos))
            .collect();
        prop_assert_eq!(streamed, reference_winnowing(&hasher.hashes(&symbols), w, robust));
    }
}
