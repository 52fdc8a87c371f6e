//! Candidate pairs: the unit pairs that share at least one indexed
//! fingerprint, with how many they share — found without visiting all
//! pairs (winnowing §5.2).
//!
//! For each unit `a`, its hashes' unit lists are walked and a dense counter
//! is bumped for every later unit `b`; only pairs that share a hash are ever
//! touched. Each rayon worker keeps a bounded heap of the best pairs (most
//! shared fingerprints), so memory is the index plus one counter array per
//! worker plus the cap, however many pairs share something.
//!
//! A hash in `n` units costs `n·(n−1)/2` counter bumps, so a few hashes
//! common to most of a large batch (an idiom every file has) would make
//! the work quadratic in the batch. Counting therefore has a work budget
//! proportional to the index size ([`discovery_limit`]): when the budget
//! cannot pay for every hash, the most common hashes — those least telling
//! of copying — are not counted. Small batches never reach it. The
//! fragments and scores of a pair still use every hash the index keeps.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// The kept pairs, most shared fingerprints first.
    pub pairs: Vec<CandidatePair>,
    /// Pairs that qualified in all (at least `pairs.len()`).
    pub qualified: usize,
    /// Hashes in more units than this were not counted (see
    /// [`discovery_limit`]); `usize::MAX` when every hash was.
    pub discovery_limit: usize,
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
    let (heap, qualified) = (0..unit_count as u32)
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
            || (BinaryHeap::new(), 0),
            |(mut left, n), (right, m)| {
                for entry in right {
                    push_bounded(&mut left, entry, max_pairs);
                }
                (left, n + m)
            },
        );
    let mut pairs: Vec<CandidatePair> = heap.into_iter().map(|Reverse(c)| c.1).collect();
    pairs.sort_unstable_by_key(|c| Reverse(c.rank()));
    Candidates {
        pairs,
        qualified,
        discovery_limit: limit,
    }
}

type Ranked = ((u32, Reverse<u32>, Reverse<u32>), CandidatePair);

/// Keeps the `cap` best entries: a min-heap whose top is the worst kept.
fn push_bounded(heap: &mut BinaryHeap<Reverse<Ranked>>, entry: Reverse<Ranked>, cap: usize) {
    if heap.len() < cap {
        heap.push(entry);
    } else if heap.peek().is_some_and(|worst| entry.0.0 > worst.0.0) {
        heap.pop();
        heap.push(entry);
    }
}

/// The state of one rayon worker.
struct Worker {
    counts: Vec<u32>,
    touched: Vec<u32>,
    best: BinaryHeap<Reverse<Ranked>>,
    qualified: usize,
    cap: usize,
}

impl Worker {
    fn new(unit_count: usize, cap: usize) -> Self {
        Self {
            counts: vec![0; unit_count],
            touched: Vec::new(),
            best: BinaryHeap::new(),
            qualified: 0,
            cap,
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
        for &b in &self.touched {
            let shared = std::mem::take(&mut self.counts[b as usize]);
            if shared >= min && rules.allows(a, b) {
                self.qualified += 1;
                let pair = CandidatePair { a, b, shared };
                push_bounded(&mut self.best, Reverse((pair.rank(), pair)), self.cap);
            }
        }
        self.touched.clear();
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
}
