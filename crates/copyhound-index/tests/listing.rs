//! Which pairs a comparison lists when it cannot list them all: those
//! scoring every pair would rank highest, whatever the units' lengths, and
//! a statement of anything that could be missing.
// Scores are compared exactly on purpose: a listed pair's scores are the
// ones full scoring gives it.
#![allow(clippy::float_cmp)]

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
use copyhound_index::{
    BaseCode, CompareOptions, Comparison, Document, EXTRA_PASSES, MaxOccurrences, PairScore,
    SCORED_PER_LISTED, Unit, compare,
};
use proptest::prelude::*;

fn document(symbols: &[u32], scheme: &Scheme) -> Document {
    let mut normalized = NormalizedDocument::new();
    for (i, &s) in symbols.iter().enumerate() {
        normalized.push(s, i..i + 1);
    }
    Document::fingerprinted("d", normalized, scheme)
}

/// `len` symbols of `alphabet` from a seeded generator.
fn random(len: usize, alphabet: u32, seed: u64) -> Vec<u32> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(alphabet)) as u32
        })
        .collect()
}

fn options(scheme: &Scheme, max_pairs: usize, rarity: bool) -> CompareOptions {
    CompareOptions {
        max_pairs,
        rarity_weighting: rarity,
        ..CompareOptions::new(scheme.clone())
    }
}

fn names(units: &[Unit], pairs: &[PairScore]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|p| (units[p.a].name.clone(), units[p.b].name.clone()))
        .collect()
}

/// Short files copied in pairs among long files that share a large
/// template and nothing else: far more candidates than the listing limit
/// keeps for scoring, and every template pair shares more fingerprints
/// than any copied pair.
fn short_copies_among_long_files(copies: usize, long: usize) -> (Vec<Unit>, Scheme) {
    let scheme = Scheme::new(KGramHasher::new(5, 1), Winnowing::robust(4));
    let template = random(400, 60, 1);
    let mut units = Vec::new();
    for i in 0..long {
        let mut symbols = template.clone();
        symbols.extend(random(300, 60, 100 + i as u64));
        units.push(Unit::new(
            format!("long{i:02}"),
            vec![document(&symbols, &scheme)],
        ));
    }
    for i in 0..copies {
        let symbols = random(40, 60, 1000 + i as u64);
        for side in ["x", "y"] {
            let doc = document(&symbols, &scheme);
            units.push(Unit::new(format!("short{i}{side}"), vec![doc]));
        }
    }
    (units, scheme)
}

#[test]
fn short_copies_are_listed_above_long_files_sharing_a_template() {
    let copies = 8;
    let (units, scheme) = short_copies_among_long_files(copies, 30);
    let expected: Vec<(String, String)> = (0..copies)
        .map(|i| (format!("short{i}x"), format!("short{i}y")))
        .collect();
    for rarity in [false, true] {
        let result = compare(&units, &BaseCode::none(), &options(&scheme, copies, rarity)).unwrap();
        // 435 template pairs and 8 copies, and at most 32 kept for scoring.
        assert_eq!(result.candidate_pairs, 443);
        assert_eq!(names(&units, &result.pairs), expected, "rarity {rarity}");
        assert!(result.pairs.iter().all(|p| p.similarity == 1.0));
        // Every template pair shares more fingerprints than any copy.
        let full = compare(
            &units,
            &BaseCode::none(),
            &options(&scheme, usize::MAX, rarity),
        )
        .unwrap();
        let fewest_in_a_template_pair = full.pairs[copies..]
            .iter()
            .map(|p| p.shared_fingerprints)
            .min();
        let most_in_a_copy = result.pairs.iter().map(|p| p.shared_fingerprints).max();
        assert!(fewest_in_a_template_pair > most_in_a_copy);
        assert_eq!(result.pairs, full.pairs[..copies]);
        let omitted = &result.omitted;
        assert!(omitted.is_exact(), "{omitted:?}");
        assert_eq!(omitted.lowest_listed, Some(1.0));
        assert_eq!(omitted.unlisted, 435);
    }
}

/// `count` units of one identical file.
fn identical_units(count: usize) -> (Vec<Unit>, Scheme) {
    let scheme = Scheme::new(KGramHasher::new(4, 5), Winnowing::robust(3));
    let symbols = random(24, 30, 9);
    let units = (0..count)
        .map(|i| Unit::new(format!("copy{i:04}"), vec![document(&symbols, &scheme)]))
        .collect();
    (units, scheme)
}

#[test]
fn nine_hundred_identical_files_are_all_paired_at_one() {
    let (units, scheme) = identical_units(900);
    let all = 900 * 899 / 2;
    let result = compare(&units, &BaseCode::none(), &options(&scheme, all, true)).unwrap();
    assert_eq!(result.candidate_pairs, all);
    assert_eq!(result.pairs.len(), all);
    assert!(result.pairs.iter().all(|p| p.similarity == 1.0));
    assert!(result.omitted.is_exact());
    assert_eq!(result.omitted.counted_units, None);
}

#[test]
fn identical_files_beyond_the_limit_are_left_out_by_name() {
    let (units, scheme) = identical_units(900);
    let result = compare(&units, &BaseCode::none(), &options(&scheme, 1000, true)).unwrap();
    assert_eq!(result.candidate_pairs, 404_550);
    assert_eq!(result.pairs.len(), 1000);
    // Ties go by name: the first unit with 899 others, then the second.
    assert_eq!(
        names(&units, &result.pairs[..1])[0],
        ("copy0000".into(), "copy0001".into())
    );
    assert_eq!(
        names(&units, &result.pairs[999..])[0],
        ("copy0001".into(), "copy0102".into())
    );
    let omitted = &result.omitted;
    assert_eq!(omitted.lowest_listed, Some(1.0));
    assert_eq!(omitted.unlisted, 404_550 - 1000);
    // Every unlisted pair is also at 1, but after the listed ones by name.
    assert!(omitted.is_exact(), "{omitted:?}");
    assert_eq!(omitted.open, 0);
}

/// A batch of units made of slices of three shared pools and noise, so
/// that pairs share runs of every length, with some units much longer.
fn pooled_batch() -> impl Strategy<Value = Vec<Vec<(usize, usize, usize)>>> {
    prop::collection::vec(
        prop::collection::vec((0usize..4, 0usize..80, 0usize..50), 1..6),
        3..14,
    )
}

fn pooled_units(parts: &[Vec<(usize, usize, usize)>], seed: u64, scheme: &Scheme) -> Vec<Unit> {
    let pools: Vec<Vec<u32>> = (0..3).map(|p| random(80, 6, seed + p)).collect();
    parts
        .iter()
        .enumerate()
        .map(|(u, unit_parts)| {
            let mut symbols = Vec::new();
            for (i, &(pool, start, len)) in unit_parts.iter().enumerate() {
                if pool == 0 {
                    symbols.extend(
                        random(len, 50, seed ^ (u * 31 + i) as u64)
                            .iter()
                            .map(|s| s + 10),
                    );
                } else {
                    let source = &pools[pool - 1];
                    symbols.extend(&source[start..(start + len).min(source.len())]);
                }
            }
            Unit::new(format!("u{u:02}"), vec![document(&symbols, scheme)])
        })
        .collect()
}

/// The pairs of `reduced` are full scoring's, with the same scores, and
/// every pair full scoring ranks within the limit is listed unless
/// `omitted` says a pair at least as similar could be missing; of the
/// pairs below `minimum`, only that they are full scoring's.
fn check_against_full(reduced: &Comparison, full: &Comparison, limit: usize, minimum: f64) {
    for pair in &reduced.pairs {
        assert!(full.pairs.contains(pair), "{pair:?} is not full scoring's");
    }
    let omitted = &reduced.omitted;
    let wanted = |pairs: &[PairScore]| -> Vec<PairScore> {
        pairs
            .iter()
            .filter(|p| p.similarity >= minimum)
            .cloned()
            .collect()
    };
    let top = wanted(&full.pairs[..limit.min(full.pairs.len())]);
    if omitted.is_exact() {
        assert_eq!(wanted(&reduced.pairs), top, "{omitted:?}");
    } else {
        let open = omitted.open_bound.max(omitted.uncounted_bound);
        for pair in top.iter().filter(|p| p.similarity > open) {
            assert!(
                reduced.pairs.contains(pair),
                "{pair:?} missing, {omitted:?}"
            );
        }
    }
    assert_eq!(reduced.candidate_pairs, full.candidate_pairs);
    assert!(reduced.scored_pairs <= full.scored_pairs);
    assert_eq!(omitted.unlisted, full.candidate_pairs - reduced.pairs.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The pairs listed under a small limit are the top ones of scoring
    /// every candidate, at any k, w, weighting, base code, score gap and
    /// max-occurrences limit (whose left-out hashes widen the bounds but
    /// not the ranks) and minimum similarity (of the pairs at or above
    /// it), with or without a window guarantee to prune with;
    /// and exactly those, said to be exact, whenever the candidates are at
    /// most what the first pass and the extra passes (none to three, or
    /// the default) keep for scoring together, however loose the bounds.
    #[test]
    fn the_listed_pairs_are_the_top_of_full_scoring(
        parts in pooled_batch(),
        seed in any::<u64>(),
        (k, w) in (2usize..7, 1usize..5),
        (limit, rarity, guarantee, with_base) in (1usize..8, any::<bool>(), any::<bool>(), any::<bool>()),
        score_gap in prop_oneof![Just(0u32), 1u32..12],
        max_units in prop::option::of(2usize..6),
        extra_passes in prop_oneof![0usize..4, Just(EXTRA_PASSES)],
        min_similarity in prop_oneof![Just(0.0), 0.0..0.8],
    ) {
        let scheme = Scheme::new(KGramHasher::new(k, seed), Winnowing::robust(w));
        let units = pooled_units(&parts, seed, &scheme);
        let base = if with_base {
            BaseCode::new(&scheme, [&document(&random(30, 6, seed), &scheme).into_normalized()])
        } else {
            BaseCode::none()
        };
        let with_limit = |max_pairs| CompareOptions {
            window_guarantee: guarantee.then_some(w),
            score_gap,
            max_occurrences: max_units.map_or(MaxOccurrences::Unlimited, MaxOccurrences::Count),
            extra_passes,
            min_similarity,
            ..options(&scheme, max_pairs, rarity)
        };
        let full = compare(&units, &base, &with_limit(usize::MAX)).unwrap();
        prop_assert!(full.omitted.is_exact());
        let reduced = compare(&units, &base, &with_limit(limit)).unwrap();
        check_against_full(&reduced, &full, limit, min_similarity);
        let kept_by_all_passes = (1 + extra_passes) * SCORED_PER_LISTED * limit;
        if full.candidate_pairs <= kept_by_all_passes {
            prop_assert!(reduced.omitted.is_exact(), "{:?}", reduced.omitted);
        }
    }
}
