//! Candidate pairs: the unit pairs that share at least one indexed
//! fingerprint, with how many they share — found without visiting all
//! pairs (winnowing §5.2).
//!
//! For each unit `a`, its hashes' unit lists are walked and a dense counter
//! is bumped for every later unit `b`; only pairs that share a hash are ever
//! touched. Each rayon worker keeps the best pairs (most shared
//! fingerprints) in a [`Best`] buffer of at most twice the cap, so memory
//! is the index plus one counter array per worker plus the cap, however
//! many pairs share something.
//!
//! A hash in `n` units costs `n·(n−1)/2` counter bumps, so a few hashes
//! common to most of a large batch (an idiom every file has) would make
//! the work quadratic in the batch. Counting therefore has a work budget
//! proportional to the index size ([`discovery_limit`]): when the budget
//! cannot pay for every hash, the most common hashes — those least telling
//! of copying — are not counted. Small batches never reach it. The
//! fragments and scores of a pair still use every hash the index keeps.

use std::cmp::Reverse;

use rayon::prelude::*;

use crate::{FingerprintIndex, Role, Unit};

/// Two units that share fingerprints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CandidatePair {
    /// The first unit's index (the smaller).
    pub a: u32,
    /// The second unit's index.
    pub b: u32,
    /// Number of distinct shared hashes.
    pub shared: u32,
}

impl CandidatePair {
    /// Heap order: more shared first, then lower indices.
    fn rank(self) -> (u32, Reverse<u32>, Reverse<u32>) {
        (self.shared, Reverse(self.a), Reverse(self.b))
    }
}

/// Who may be paired with whom: never two old submissions, never two units
/// of one group.
#[derive(Debug)]
pub struct PairingRules {
    old: Vec<bool>,
    /// Group ids; `u32::MAX` for no group.
    groups: Vec<u32>,
}

impl PairingRules {
    /// The rules for `units`.
    pub fn new(units: &[Unit]) -> Self {
        let mut names: Vec<&str> = units.iter().filter_map(|u| u.group.as_deref()).collect();
        names.sort_unstable();
        names.dedup();
        let groups = units
            .iter()
            .map(|u| {
                u.group.as_deref().map_or(u32::MAX, |g| {
                    names.binary_search(&g).expect("every group was collected") as u32
                })
            })
            .collect();
        Self {
            old: units.iter().map(|u| u.role == Role::Old).collect(),
            groups,
        }
    }

    /// Whether units `a` and `b` may be paired.
    pub fn allows(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        a != b
            && !(self.old[a] && self.old[b])
            && (self.groups[a] == u32::MAX || self.groups[a] != self.groups[b])
    }
}

/// The result of candidate generation.
#[derive(Debug, Default)]
pub struct Candidates {
    /// The kept pairs, by unit indices `(a, b)`: the order in which
    /// scoring visits them (it reuses the first unit's lookups along a run
    /// of pairs).
    pub pairs: Vec<CandidatePair>,
    /// Pairs that qualified in all (at least `pairs.len()`).
    pub qualified: usize,
}

/// Counter bumps allowed per posting of the index when counting shared
/// hashes, and the least budget whatever the index size.
const WORK_PER_POSTING: u64 = 64;
const MIN_WORK: u64 = 100_000_000;

/// The largest number of units a hash may be in and still be counted, such
/// that counting costs at most `max(MIN_WORK, WORK_PER_POSTING × postings)`
/// counter bumps; `usize::MAX` when that pays for every hash.
pub fn discovery_limit(index: &FingerprintIndex) -> usize {
    let budget = MIN_WORK.max(WORK_PER_POSTING * index.stats().postings as u64);
    limit_within(index, budget)
}

/// The largest number of units per counted hash for which counting costs at
/// most `budget` counter bumps (never below 2).
fn limit_within(index: &FingerprintIndex, budget: u64) -> usize {
    // Work by number of units per hash, cheapest hashes first.
    let mut hashes_by_units: Vec<u64> = Vec::new();
    for h in 0..index.hash_count() {
        let n = index.units_of(h as u32).len();
        if hashes_by_units.len() <= n {
            hashes_by_units.resize(n + 1, 0);
        }
        hashes_by_units[n] += 1;
    }
    let mut spent: u64 = 0;
    let mut counted = 2;
    for (n, &count) in hashes_by_units.iter().enumerate().filter(|(_, c)| **c > 0) {
        let units = n as u64;
        spent = spent.saturating_add(count.saturating_mul(units * units.saturating_sub(1) / 2));
        if spent > budget {
            return counted;
        }
        counted = counted.max(n);
    }
    usize::MAX
}

impl Candidates {
    /// Whether the cap dropped pairs.
    pub fn truncated(&self) -> bool {
        self.qualified > self.pairs.len()
    }
}

/// The pairs allowed by `rules` that share at least `min_shared` hashes of
/// `index` (counting the hashes within the [`discovery_limit`]); the
/// `max_pairs` sharing most are kept.
pub fn candidate_pairs(
    index: &FingerprintIndex,
    rules: &PairingRules,
    unit_count: usize,
    min_shared: usize,
    max_pairs: usize,
) -> Candidates {
    let min_shared = min_shared.max(1) as u32;
    let limit = discovery_limit(index);
    let (best, qualified) = (0..unit_count as u32)
        .into_par_iter()
        .fold(
            || Worker::new(unit_count, max_pairs),
            |mut worker, a| {
                worker.count_from(index, rules, a, min_shared, limit);
                worker
            },
        )
        .map(|worker| (worker.best, worker.qualified))
        .reduce(
            || (Best::new(max_pairs), 0),
            |(mut left, n), (right, m)| {
                for pair in right.pairs {
                    left.push(pair);
                }
                (left, n + m)
            },
        );
    Candidates {
        pairs: best.into_unit_order(),
        qualified,
    }
}

/// The `cap` best pairs by [`CandidatePair::rank`] among those pushed.
///
/// Pairs are appended until the buffer holds twice the cap, then cut back
/// to the cap best with a linear-time selection; a pair no better than
/// the worst kept at the last cut is dropped at once. That costs a
/// comparison per pair where a heap of the best would cost a logarithmic
/// number of scattered memory accesses.
struct Best {
    pairs: Vec<CandidatePair>,
    cap: usize,
    /// The rank of the worst pair kept at the last cut: a pair ranked
    /// lower can never be among the best.
    floor: Option<(u32, Reverse<u32>, Reverse<u32>)>,
}

impl Best {
    fn new(cap: usize) -> Self {
        Self {
            pairs: Vec::new(),
            cap,
            floor: None,
        }
    }

    fn push(&mut self, pair: CandidatePair) {
        if self.cap == 0 || self.floor.is_some_and(|floor| pair.rank() <= floor) {
            return;
        }
        self.pairs.push(pair);
        if self.pairs.len() >= 2 * self.cap {
            self.cut();
        }
    }

    /// Keeps the `cap` best pairs.
    fn cut(&mut self) {
        if self.pairs.len() > self.cap {
            self.pairs
                .select_nth_unstable_by_key(self.cap - 1, |c| Reverse(c.rank()));
            self.pairs.truncate(self.cap);
            self.floor = self.pairs.iter().map(|c| c.rank()).min();
        }
    }

    /// The best pairs, by unit indices.
    fn into_unit_order(mut self) -> Vec<CandidatePair> {
        self.cut();
        // Workers take the units in order and the reduction keeps that
        // order, so unless a cut reordered them the pairs are sorted already.
        if !self.pairs.is_sorted_by_key(|c| (c.a, c.b)) {
            self.pairs.par_sort_unstable_by_key(|c| (c.a, c.b));
        }
        self.pairs
    }
}

/// The state of one rayon worker.
struct Worker {
    counts: Vec<u32>,
    touched: Vec<u32>,
    best: Best,
    qualified: usize,
}

impl Worker {
    fn new(unit_count: usize, cap: usize) -> Self {
        Self {
            counts: vec![0; unit_count],
            touched: Vec::new(),
            best: Best::new(cap),
            qualified: 0,
        }
    }

    /// Counts the hashes unit `a` shares with every later unit, among those
    /// in at most `limit` units.
    fn count_from(
        &mut self,
        index: &FingerprintIndex,
        rules: &PairingRules,
        a: u32,
        min: u32,
        limit: usize,
    ) {
        for &h in index.hashes_of(a) {
            let units = index.units_of(h);
            if units.len() > limit {
                continue;
            }
            let later = units.partition_point(|&u| u <= a);
            for &b in &units[later..] {
                let count = &mut self.counts[b as usize];
                if *count == 0 {
                    self.touched.push(b);
                }
                *count += 1;
            }
        }
        let kept_before = self.best.pairs.len();
        for &b in &self.touched {
            let shared = std::mem::take(&mut self.counts[b as usize]);
            if shared >= min && rules.allows(a, b) {
                self.qualified += 1;
                let pair = CandidatePair { a, b, shared };
                self.best.push(pair);
            }
        }
        self.touched.clear();
        // The pairs just kept, in unit order, so that all of them come out
        // sorted (see `Best::into_unit_order`). Only those: in a large batch
        // most touched units fall below the cap's floor, and sorting every
        // touched list cost more than the final sort it saves. After a cut
        // the tail holds other pairs too; the final sort sees to them.
        if let Some(kept) = self.best.pairs.get_mut(kept_before..) {
            kept.sort_unstable_by_key(|c| c.b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BaseCode, Document};
    use copyhound_fingerprint::{Fingerprint, NormalizedDocument};

    fn unit(name: &str, hashes: &[u64]) -> Unit {
        let fingerprints = hashes
            .iter()
            .enumerate()
            .map(|(i, &h)| Fingerprint::new(h, i))
            .collect();
        Unit::new(
            name,
            vec![Document::new(name, NormalizedDocument::new(), fingerprints)],
        )
    }

    fn pairs(units: &[Unit], max_pairs: usize) -> Candidates {
        let index = FingerprintIndex::build(units, &BaseCode::none(), usize::MAX);
        candidate_pairs(&index, &PairingRules::new(units), units.len(), 1, max_pairs)
    }

    #[test]
    fn pairs_are_counted_by_shared_hashes() {
        let units = [
            unit("a", &[1, 2, 3]),
            unit("b", &[1, 2, 3, 4]),
            unit("c", &[4, 5]),
            unit("d", &[6]),
        ];
        let found = pairs(&units, 10);
        let got: Vec<(u32, u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b, c.shared)).collect();
        assert_eq!(got, vec![(0, 1, 3), (1, 2, 1)]);
        assert!(!found.truncated());
    }

    #[test]
    fn the_cap_keeps_the_pairs_sharing_most() {
        let units = [
            unit("a", &[1, 2, 3]),
            unit("b", &[1, 2, 3, 4]),
            unit("c", &[4, 5]),
        ];
        let found = pairs(&units, 1);
        assert_eq!(found.pairs.len(), 1);
        assert_eq!((found.pairs[0].a, found.pairs[0].b), (0, 1));
        assert!(found.truncated());
    }

    #[test]
    fn the_work_budget_leaves_out_the_most_common_hashes() {
        // Hash 1 is in all six units (15 bumps), hash 2 in three (3 bumps),
        // hashes 3 and 4 in two (1 bump each).
        let units = [
            unit("a", &[1, 2, 3]),
            unit("b", &[1, 2, 3]),
            unit("c", &[1, 2, 4]),
            unit("d", &[1, 4]),
            unit("e", &[1]),
            unit("f", &[1]),
        ];
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        assert_eq!(limit_within(&index, 20), usize::MAX);
        assert_eq!(limit_within(&index, 19), 3);
        assert_eq!(limit_within(&index, 4), 2);
        assert_eq!(limit_within(&index, 0), 2);
        // Small batches are far below the real budget.
        assert_eq!(discovery_limit(&index), usize::MAX);
    }

    #[test]
    fn old_and_grouped_units_are_not_paired_among_themselves() {
        let units = [
            unit("old1", &[1]).with_role(Role::Old),
            unit("old2", &[1]).with_role(Role::Old),
            unit("t1", &[1]).with_group("team"),
            unit("t2", &[1]).with_group("team"),
        ];
        let found = pairs(&units, 100);
        let got: Vec<(u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b)).collect();
        assert_eq!(got, vec![(0, 2), (0, 3), (1, 2), (1, 3)]);
    }

    proptest::proptest! {
        /// Every pair sharing a hash is found with its count, in unit
        /// order, as a check of all pairs finds them.
        #[test]
        fn pairs_are_those_of_all_pairs_in_unit_order(
            hashes in proptest::collection::vec(proptest::collection::vec(0u64..12, 0..8), 0..12),
        ) {
            let names: Vec<String> = (0..hashes.len()).map(|i| format!("u{i}")).collect();
            let units: Vec<Unit> = names.iter().zip(&hashes).map(|(n, h)| unit(n, h)).collect();
            let distinct = |h: &[u64]| h.iter().copied().collect::<std::collections::BTreeSet<_>>();
            let mut expected = Vec::new();
            for a in 0..units.len() {
                for b in a + 1..units.len() {
                    let shared = distinct(&hashes[a]).intersection(&distinct(&hashes[b])).count();
                    if shared > 0 {
                        expected.push((a as u32, b as u32, shared as u32));
                    }
                }
            }
            let found = pairs(&units, 1000);
            let got: Vec<(u32, u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b, c.shared)).collect();
            proptest::prop_assert_eq!(got, expected);
        }

        /// The buffer keeps exactly the `cap` best pairs, in unit order.
        #[test]
        fn best_keeps_the_top_pairs(
            pairs in proptest::collection::btree_map((0u32..20, 0u32..20), 0u32..6, 0..200),
            cap in 0usize..50,
        ) {
            // One count per unit pair, as candidate counting gives.
            let pairs: Vec<CandidatePair> =
                pairs.into_iter().map(|((a, b), shared)| CandidatePair { a, b, shared }).collect();
            let mut best = Best::new(cap);
            for &pair in &pairs {
                best.push(pair);
            }
            let mut expected = pairs;
            expected.sort_unstable_by_key(|c| Reverse(c.rank()));
            expected.truncate(cap);
            expected.sort_unstable_by_key(|c| (c.a, c.b));
            proptest::prop_assert_eq!(best.into_unit_order(), expected);
        }
    }
}
