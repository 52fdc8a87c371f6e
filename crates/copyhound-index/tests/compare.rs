//! Behaviour of the batch comparison: properties of fragments and scores
//! over random input, and the pairing rules on small fixed batches.
// Scores are compared exactly on purpose: identical units must score 1.0,
// not nearly.
#![allow(clippy::float_cmp)]

use std::collections::HashSet;

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
use copyhound_index::{
    BaseCode, CompareOptions, Comparison, Document, Fragment, MaxOccurrences, Passage, Role, Unit,
    compare, compare_with_progress, merge_passages,
};
use copyhound_source::LineIndex;
use proptest::prelude::*;

/// Robust winnowing with window `w` over k-grams of `k` symbols, keyed by
/// `seed`.
fn winnowing(k: usize, seed: u64, w: usize) -> Scheme {
    Scheme::new(KGramHasher::new(k, seed), Winnowing::robust(w))
}

/// A document whose symbol `i` is byte `i` of a text with a line break
/// after every 8 symbols.
fn document(name: &str, symbols: &[u32], scheme: &Scheme) -> Document {
    let mut normalized = NormalizedDocument::new();
    let mut text = Vec::new();
    for (i, &s) in symbols.iter().enumerate() {
        if i > 0 && i % 8 == 0 {
            text.push(b'\n');
        }
        normalized.push(s, text.len()..text.len() + 1);
        text.push(b'x');
    }
    Document::fingerprinted(name, normalized, scheme).with_lines(LineIndex::new(&text))
}

fn unit(name: &str, docs: &[Vec<u32>], scheme: &Scheme) -> Unit {
    let documents = docs
        .iter()
        .enumerate()
        .map(|(i, d)| document(&format!("{name}/{i}"), d, scheme))
        .collect();
    Unit::new(name, documents)
}

/// Units `u0`, `u1`… of the documents `docs[0]`, `docs[1]`…
fn numbered_units(docs: &[Vec<Vec<u32>>], scheme: &Scheme) -> Vec<Unit> {
    docs.iter()
        .enumerate()
        .map(|(i, d)| unit(&format!("u{i}"), d, scheme))
        .collect()
}

fn run(units: &[Unit], scheme: &Scheme) -> Comparison {
    compare(
        units,
        &BaseCode::none(),
        &CompareOptions::new(scheme.clone()),
    )
    .unwrap()
}

fn symbols(alphabet: u32, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0..alphabet, len)
}

/// The fragment invariants every result must satisfy.
fn check_invariants(units: &[Unit], base: &[Vec<u32>], result: &Comparison, scheme: &Scheme) {
    let (hasher, k) = (scheme.hasher(), scheme.k());
    let base_hashes: HashSet<u64> = base.iter().flat_map(|d| hasher.hashes(d)).collect();
    let is_base = |symbols: &[u32], i: usize| {
        (i.saturating_sub(k - 1)..=i)
            .filter(|&s| s + k <= symbols.len())
            .any(|s| base_hashes.contains(&hasher.hash_kgram(&symbols[s..s + k])))
    };
    for pair in &result.pairs {
        let (ua, ub) = (&units[pair.a], &units[pair.b]);
        assert!(ua.name <= ub.name, "pairs are oriented by name");
        let mut taken_a = HashSet::new();
        let mut taken_b = HashSet::new();
        let mut previous = None;
        // The fragments found again on demand are the ones the pair was
        // scored with: same count, longest and overlap.
        let fragments = result.fragments(units, pair.a, pair.b);
        assert_eq!(fragments.len(), pair.fragment_count as usize);
        assert_eq!(
            fragments.iter().map(Fragment::len).max(),
            Some(pair.longest_fragment)
        );
        for f in &fragments {
            assert!(previous <= Some((f.a.doc, f.a.start)), "sorted by side a");
            previous = Some((f.a.doc, f.a.start));
            assert_eq!(f.a.len(), f.b.len());
            assert!(
                f.len() as usize >= k,
                "a fragment holds at least one k-gram"
            );
            let sa = &ua.documents[f.a.doc as usize].symbols;
            let sb = &ub.documents[f.b.doc as usize].symbols;
            assert!(f.a.end as usize <= sa.len() && f.b.end as usize <= sb.len());
            assert_eq!(
                &sa[f.a.start as usize..f.a.end as usize],
                &sb[f.b.start as usize..f.b.end as usize]
            );
            for t in 0..f.len() {
                let (i, j) = ((f.a.start + t) as usize, (f.b.start + t) as usize);
                assert!(taken_a.insert((f.a.doc, i)), "fragments overlap on side a");
                assert!(taken_b.insert((f.b.doc, j)), "fragments overlap on side b");
                assert!(
                    !is_base(sa, i) && !is_base(sb, j),
                    "fragment inside base code"
                );
            }
        }
        assert_eq!(pair.total_overlap as usize, taken_a.len());
        let (coverage_a, coverage_b) = (
            pair.coverage_a(&result.units),
            pair.coverage_b(&result.units),
        );
        assert_eq!(coverage_a.covered_symbols, pair.total_overlap);
        assert_eq!(coverage_b.covered_symbols, pair.total_overlap);
        assert!(pair.total_overlap <= coverage_a.compared_symbols);
        assert!(pair.total_overlap <= coverage_b.compared_symbols);
        assert!(pair.similarity > 0.0 && pair.similarity <= 1.0);
        let lines_a = coverage_a.line_share().unwrap();
        assert!(lines_a > 0.0 && lines_a <= 1.0);
    }
}

/// Passages partition the fragments into chains that are consecutive in
/// both sides' order, span exactly their fragments, never overlap on either
/// side, and join only across gaps of at most `max_gap`; a chain ends only
/// where the next fragment does not follow closely on both sides.
fn check_passages(fragments: &[Fragment], passages: &[Passage], max_gap: u32) {
    let mut next_fragment = 0;
    for passage in passages {
        assert_eq!(
            passage.fragments.start, next_fragment,
            "every fragment once, in order"
        );
        next_fragment = passage.fragments.end;
        let chain = &fragments[passage.fragments.clone()];
        assert!(!chain.is_empty());
        assert_eq!(passage.a.start, chain[0].a.start);
        assert_eq!(passage.b.start, chain[0].b.start);
        assert_eq!(passage.a.end, chain[chain.len() - 1].a.end);
        assert_eq!(passage.b.end, chain[chain.len() - 1].b.end);
        for pair in chain.windows(2) {
            let (p, n) = (pair[0], pair[1]);
            assert!(p.a.doc == n.a.doc && p.b.doc == n.b.doc);
            assert!(n.a.start >= p.a.end && n.a.start - p.a.end <= max_gap);
            assert!(n.b.start >= p.b.end && n.b.start - p.b.end <= max_gap);
        }
        // No other fragment lies inside the passage on either side.
        for (i, f) in fragments.iter().enumerate() {
            if passage.fragments.contains(&i) {
                continue;
            }
            let inside = |r: copyhound_index::SymbolRange, s: copyhound_index::SymbolRange| {
                r.doc == s.doc && r.start < s.end && s.start < r.end
            };
            assert!(
                !inside(f.a, passage.a) && !inside(f.b, passage.b),
                "{f:?} in {passage:?}"
            );
        }
    }
    assert_eq!(next_fragment, fragments.len());
    for pair in passages.windows(2) {
        let (last, first) = (
            fragments[pair[0].fragments.end - 1],
            fragments[pair[1].fragments.start],
        );
        let close = last.a.doc == first.a.doc
            && last.b.doc == first.b.doc
            && first.a.start >= last.a.end
            && first.b.start >= last.b.end
            && first.a.start - last.a.end <= max_gap
            && first.b.start - last.b.end <= max_gap;
        let adjacent_in_b = !fragments.iter().any(|f| f.b > last.b && f.b < first.b);
        assert!(
            !(close && adjacent_in_b),
            "{last:?} and {first:?} should have joined"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Passages over real fragments (tiny alphabet: many short, crossing and
    /// repeated matches) keep every invariant, whatever the gap.
    #[test]
    fn passages_chain_fragments_without_overlap(
        k in 2usize..6,
        w in 1usize..6,
        docs in prop::collection::vec(prop::collection::vec(symbols(3, 0..150), 1..3), 2..4),
        max_gap in 0u32..40,
        seed: u64,
    ) {
        let scheme = winnowing(k, seed, w);
        let units = numbered_units(&docs, &scheme);
        let result = run(&units, &scheme);
        for pair in &result.pairs {
            let fragments = result.fragments(&units, pair.a, pair.b);
            check_passages(&fragments, &merge_passages(&fragments, max_gap), max_gap);
        }
    }

    /// Twins (units of the same content under other names, anywhere in
    /// the batch) are scored once per pair of contents: every pair still
    /// scores exactly as the two units compared alone do (rarity off and
    /// every fingerprint kept, so that nothing else in the batch counts),
    /// whichever side each name puts them on.
    #[test]
    fn twins_score_as_their_pairs_alone(
        k in 2usize..5,
        w in 1usize..5,
        docs in prop::collection::vec(prop::collection::vec(symbols(3, 0..60), 1..3), 2..5),
        copies in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>(), any::<prop::sample::Index>()), 1..5),
        seed: u64,
    ) {
        let scheme = winnowing(k, seed, w);
        let mut units = numbered_units(&docs, &scheme);
        for (j, (original, before, at)) in copies.iter().enumerate() {
            let original = &units[original.index(units.len())];
            // Named to sort before or after every original.
            let name = format!("{}{j}", if *before { "a" } else { "z" });
            let copy = Unit::new(name, original.documents.clone());
            units.insert(at.index(units.len() + 1), copy);
        }
        let mut options = CompareOptions::new(scheme.clone());
        options.rarity_weighting = false;
        let result = compare(&units, &BaseCode::none(), &options).unwrap();
        check_invariants(&units, &[], &result, &scheme);
        for pair in &result.pairs {
            let alone = [units[pair.a].clone(), units[pair.b].clone()];
            let expected = compare(&alone, &BaseCode::none(), &options).unwrap();
            let mut expected = expected.pairs[0].clone();
            expected.a = pair.a;
            expected.b = pair.b;
            prop_assert_eq!(pair, &expected);
        }
    }

    /// Winnowing's guarantee carried through the whole engine: a shared run
    /// of at least w + k − 1 symbols always ends up inside one fragment.
    #[test]
    fn a_planted_run_is_always_inside_a_fragment(
        k in 2usize..9,
        w in 1usize..9,
        extra in 0usize..60,
        prefix_a in symbols(1000, 0..150),
        suffix_a in symbols(1000, 0..150),
        prefix_b in symbols(1000, 0..150),
        suffix_b in symbols(1000, 0..150),
        noise in symbols(1000, 0..100),
        seed: u64,
        run_symbols in symbols(1000, 80..81),
    ) {
        let scheme = winnowing(k, seed, w);
        let run_len = w + k - 1 + extra.min(80 - (w + k - 1));
        let planted = &run_symbols[..run_len];
        let a = [noise.clone(), [prefix_a.as_slice(), planted, &suffix_a].concat()];
        let b = [[prefix_b.as_slice(), planted, &suffix_b].concat(), noise];
        let units = [unit("a", &a, &scheme), unit("b", &b, &scheme)];
        let result = run(&units, &scheme);
        check_invariants(&units, &[], &result, &scheme);
        let (start_a, start_b) = (prefix_a.len() as u32, prefix_b.len() as u32);
        let end_a = start_a + run_len as u32;
        let found = result.pairs.iter().flat_map(|p| result.fragments(&units, p.a, p.b)).any(|f| {
            f.a.doc == 1 && f.b.doc == 0
                && f.a.start <= start_a && f.a.end >= end_a
                && f.b.start + start_a == f.a.start + start_b
        });
        prop_assert!(found, "run at a:{}..{} not reported: {:?}", start_a, end_a, result.pairs);
    }

    /// Bounds, order, disjointness, exactness and base exclusion, on input
    /// from a tiny alphabet where spurious and repeated matches abound.
    #[test]
    fn fragments_are_exact_disjoint_and_outside_base_code(
        k in 2usize..6,
        w in 1usize..6,
        docs in prop::collection::vec(prop::collection::vec(symbols(3, 0..120), 1..3), 2..5),
        base in prop::collection::vec(symbols(3, 0..40), 0..2),
        seed: u64,
    ) {
        let scheme = winnowing(k, seed, w);
        let units = numbered_units(&docs, &scheme);
        let base_code = BaseCode::new(&scheme, base.iter().map(|b| {
            let mut d = NormalizedDocument::new();
            for (i, &s) in b.iter().enumerate() {
                d.push(s, i..i + 1);
            }
            d
        }).collect::<Vec<_>>().iter());
        let result = compare(&units, &base_code, &CompareOptions::new(scheme.clone())).unwrap();
        check_invariants(&units, &base, &result, &scheme);
        // Letting the fingerprints go on the way changes nothing of the
        // result, and their counts stay.
        let mut released = units.clone();
        let again = compare_with_progress(&mut released, &base_code, &CompareOptions::new(scheme.clone()), &()).unwrap();
        prop_assert_eq!(&again.pairs, &result.pairs);
        for pair in &result.pairs {
            prop_assert_eq!(again.fragments(&released, pair.a, pair.b), result.fragments(&units, pair.a, pair.b));
        }
        for (kept, gone) in units.iter().flat_map(|u| &u.documents).zip(released.iter().flat_map(|u| &u.documents)) {
            prop_assert!(gone.fingerprints().is_empty());
            prop_assert_eq!(gone.fingerprint_count(), kept.fingerprints().len());
        }
    }

    /// Identical units are fully covered, however their documents repeat
    /// each other or themselves.
    #[test]
    fn identical_units_score_exactly_one(
        k in 2usize..8,
        w in 1usize..8,
        docs in prop::collection::vec(symbols(6, 0..150), 1..4),
        other in symbols(6, 0..150),
        seed: u64,
        rarity_weighting: bool,
    ) {
        let scheme = winnowing(k, seed, w);
        let units = [
            unit("copy", &docs, &scheme),
            unit("original", &docs, &scheme),
            unit("other", &[other], &scheme),
        ];
        let options = CompareOptions { rarity_weighting, ..CompareOptions::new(scheme.clone()) };
        let result = compare(&units, &BaseCode::none(), &options).unwrap();
        check_invariants(&units, &[], &result, &scheme);
        if result.units[0].compared_symbols > 0 {
            let pair = result.pairs.iter().find(|p| (p.a, p.b) == (0, 1)).unwrap();
            prop_assert_eq!(pair.similarity, 1.0);
            prop_assert_eq!(pair.coverage_a(&result.units).symbol_share(), 1.0);
            prop_assert_eq!(pair.coverage_b(&result.units).line_share(), Some(1.0));
        }
    }

    /// The input order of units changes nothing.
    #[test]
    fn shuffled_units_give_the_same_result(
        k in 2usize..6,
        w in 1usize..6,
        docs in prop::collection::vec(prop::collection::vec(symbols(4, 0..80), 1..3), 2..6),
        order_seed in any::<prop::sample::Index>(),
        seed: u64,
    ) {
        let scheme = winnowing(k, seed, w);
        let units = numbered_units(&docs, &scheme);
        let mut shuffled = units.clone();
        let rotate = order_seed.index(shuffled.len());
        shuffled.rotate_left(rotate);
        let last = shuffled.len() - 1;
        shuffled.swap(0, last);
        let named = |units: &[Unit], result: &Comparison| {
            result.pairs.iter().map(|p| {
                (units[p.a].name.clone(), units[p.b].name.clone(), p.similarity, result.fragments(units, p.a, p.b))
            }).collect::<Vec<_>>()
        };
        let first = named(&units, &run(&units, &scheme));
        let second = named(&shuffled, &run(&shuffled, &scheme));
        prop_assert_eq!(first, second);
    }
}

/// Symbols `0..n` shifted by `offset`: distinct runs for fixed tests.
fn seq(offset: u32, n: u32) -> Vec<u32> {
    (offset..offset + n).collect()
}

fn pair_names(units: &[Unit], result: &Comparison) -> Vec<(String, String)> {
    result
        .pairs
        .iter()
        .map(|p| (units[p.a].name.clone(), units[p.b].name.clone()))
        .collect()
}

#[test]
fn template_only_overlap_scores_zero_with_base_code() {
    let scheme = winnowing(4, 9, 4);
    let template = seq(0, 60);
    // The template with one symbol edited, plus each student's own code.
    let mut edited = template.clone();
    edited[30] = 999;
    let units = [
        unit(
            "alice",
            &[[template.as_slice(), &seq(1000, 50)].concat()],
            &scheme,
        ),
        unit(
            "bob",
            &[[edited.as_slice(), &seq(2000, 50)].concat()],
            &scheme,
        ),
    ];
    assert_eq!(
        run(&units, &scheme).pairs.len(),
        1,
        "without base code they match"
    );
    let mut base_doc = NormalizedDocument::new();
    for (i, &s) in template.iter().enumerate() {
        base_doc.push(s, i..i + 1);
    }
    let base = BaseCode::new(&scheme, [&base_doc]);
    let result = compare(&units, &base, &CompareOptions::new(scheme.clone())).unwrap();
    assert!(result.pairs.is_empty(), "{:?}", result.pairs);
    assert_eq!(result.units[0].compared_symbols, 50);
    assert!(result.index.base_fingerprints > 0);
}

#[test]
fn base_code_is_left_out_of_the_similarity_of_real_copies() {
    let scheme = winnowing(4, 9, 4);
    let template = seq(0, 60);
    let own = seq(5000, 40);
    let body = [template.as_slice(), &own].concat();
    let units = [
        unit("a", std::slice::from_ref(&body), &scheme),
        unit("b", &[body], &scheme),
    ];
    let mut base_doc = NormalizedDocument::new();
    for (i, &s) in template.iter().enumerate() {
        base_doc.push(s, i..i + 1);
    }
    let base = BaseCode::new(&scheme, [&base_doc]);
    let result = compare(&units, &base, &CompareOptions::new(scheme.clone())).unwrap();
    let pair = &result.pairs[0];
    assert_eq!(pair.total_overlap, 40);
    assert_eq!(pair.similarity, 1.0);
    assert_eq!(result.fragments(&units, pair.a, pair.b)[0].a.start, 60);
}

/// Units `u0`, `u1`… of one document each: `shared(i)` followed by
/// `own_len` symbols of unit `i`'s own. A window of one keeps every
/// k-gram, so each shared k-gram is a fingerprint of every unit holding it
/// (with a wider window, the choice near the end of the shared part
/// depends on what follows).
fn units_sharing<'a>(
    count: u32,
    shared: impl Fn(u32) -> &'a [u32],
    own_len: u32,
    scheme: &Scheme,
) -> Vec<Unit> {
    (0..count)
        .map(|i| {
            let own = seq(1000 * (i + 1), own_len);
            unit(&format!("u{i}"), &[[shared(i), &own].concat()], scheme)
        })
        .collect()
}

#[test]
fn fingerprints_in_too_many_units_are_ignored() {
    let scheme = winnowing(4, 3, 1);
    let common = seq(0, 30);
    let units = units_sharing(4, |_| common.as_slice(), 30, &scheme);
    assert_eq!(run(&units, &scheme).pairs.len(), 6);
    let mut options = CompareOptions::new(scheme.clone());
    options.max_occurrences = MaxOccurrences::Count(3);
    let result = compare(&units, &BaseCode::none(), &options).unwrap();
    assert!(result.pairs.is_empty());
    assert!(result.index.common_hashes > 0);
    options.max_occurrences = MaxOccurrences::Fraction(1.0);
    assert_eq!(
        compare(&units, &BaseCode::none(), &options)
            .unwrap()
            .pairs
            .len(),
        6
    );
}

#[test]
fn rarity_weighting_counts_code_many_units_share_less() {
    let scheme = winnowing(4, 3, 1);
    let common = seq(0, 30);
    let rare = seq(500, 30);
    // u0..u3 share `common`, u4 and u5 share `rare`: as long, as exact, but
    // only two units hold it.
    let units = units_sharing(
        6,
        |i| if i < 4 { &common[..] } else { &rare[..] },
        60,
        &scheme,
    );
    let similarity = |rarity_weighting: bool, a: usize, b: usize| {
        let options = CompareOptions {
            rarity_weighting,
            ..CompareOptions::new(scheme.clone())
        };
        let result = compare(&units, &BaseCode::none(), &options).unwrap();
        let pair = result.pairs.iter().find(|p| (p.a, p.b) == (a, b)).unwrap();
        assert_eq!(pair.total_overlap, 30);
        pair.similarity
    };
    assert_eq!(similarity(false, 0, 1), similarity(false, 4, 5));
    assert_eq!(similarity(true, 4, 5), similarity(false, 4, 5));
    assert!(similarity(true, 0, 1) < similarity(true, 4, 5) / 2.0);
}

#[test]
fn fragments_shorter_than_the_minimum_are_dropped() {
    let scheme = winnowing(4, 5, 2);
    let a = [seq(0, 12), seq(100, 20), seq(1000, 30)].concat();
    let b = [seq(0, 12), seq(200, 20), seq(1000, 30)].concat();
    let units = [unit("a", &[a], &scheme), unit("b", &[b], &scheme)];
    let lengths = |min_fragment: usize| {
        let options = CompareOptions {
            min_fragment,
            ..CompareOptions::new(scheme.clone())
        };
        let result = compare(&units, &BaseCode::none(), &options).unwrap();
        result.pairs.first().map(|p| {
            result
                .fragments(&units, p.a, p.b)
                .iter()
                .map(copyhound_index::Fragment::len)
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(lengths(0), Some(vec![12, 30]));
    assert_eq!(lengths(13), Some(vec![30]));
    assert_eq!(lengths(31), None);
}

#[test]
fn old_units_are_paired_only_with_new_ones_and_groups_never_internally() {
    let scheme = winnowing(4, 3, 4);
    let shared = [seq(0, 40)];
    let units = [
        unit("2023/a", &shared, &scheme).with_role(Role::Old),
        unit("2023/b", &shared, &scheme).with_role(Role::Old),
        unit("team1/x", &shared, &scheme).with_group("team1"),
        unit("team1/y", &shared, &scheme).with_group("team1"),
    ];
    let names = pair_names(&units, &run(&units, &scheme));
    let expect = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        names,
        vec![
            expect("2023/a", "team1/x"),
            expect("2023/a", "team1/y"),
            expect("2023/b", "team1/x"),
            expect("2023/b", "team1/y"),
        ]
    );
}

#[test]
fn a_reordered_copy_is_found_in_pieces() {
    let scheme = winnowing(5, 1, 5);
    let (x, y, z) = (seq(0, 40), seq(100, 40), seq(200, 40));
    let units = [
        unit("orig", &[[x.as_slice(), &y, &z].concat()], &scheme),
        unit(
            "moved",
            &[[z.as_slice(), &x, &seq(900, 10), &y].concat()],
            &scheme,
        ),
    ];
    let result = run(&units, &scheme);
    let pair = &result.pairs[0];
    assert_eq!(units[pair.a].name, "moved");
    // Each moved block is one fragment, ending exactly where the
    // neighbours differ; all of "orig" is covered.
    let fragments = result.fragments(&units, pair.a, pair.b);
    let ranges: Vec<(u32, u32)> = fragments.iter().map(|f| (f.a.start, f.b.start)).collect();
    assert_eq!(ranges, vec![(0, 80), (40, 0), (90, 40)]);
    assert!(fragments.iter().all(|f| f.len() == 40));
    assert_eq!(pair.coverage_b(&result.units).symbol_share(), 1.0);
    assert_eq!(pair.coverage_a(&result.units).covered_symbols, 120);
    assert_eq!(pair.coverage_a(&result.units).compared_symbols, 130);
}

/// Documents fingerprinted with another k than the comparison's scheme
/// are a caller's mistake, named at once.
#[test]
#[should_panic(
    expected = "document `bad/0` of unit `bad` was not fingerprinted with the comparison's scheme (k = 4)"
)]
fn documents_of_another_scheme_are_refused() {
    let short = winnowing(2, 0, 1);
    let bad = unit("bad", &[seq(0, 10)], &short);
    let _ = compare(
        &[bad],
        &BaseCode::none(),
        &CompareOptions::new(winnowing(4, 0, 1)),
    );
}
