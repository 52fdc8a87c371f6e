//! Candidate pairs: the unit pairs that share at least one indexed
//! fingerprint, with how many they share — found without visiting all
//! pairs (winnowing §5.2).
//!
//! For each unit `a`, its hashes' unit lists are walked and a dense counter
//! is bumped for every later unit `b`; only pairs that share a hash are ever
//! touched. Each rayon worker keeps a bounded heap of the best pairs (most
//! shared fingerprints), so memory is the index plus one counter array per
//! worker plus the cap, however many pairs share something.

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
}

impl Candidates {
    /// Whether the cap dropped pairs.
    pub fn truncated(&self) -> bool {
        self.qualified > self.pairs.len()
    }
}

/// The pairs allowed by `rules` that share at least `min_shared` hashes of
/// `index`; the `max_pairs` sharing most are kept.
pub fn candidate_pairs(
    index: &FingerprintIndex,
    rules: &PairingRules,
    unit_count: usize,
    min_shared: usize,
    max_pairs: usize,
) -> Candidates {
    let min_shared = min_shared.max(1) as u32;
    let (heap, qualified) = (0..unit_count as u32)
        .into_par_iter()
        .fold(
            || Worker::new(unit_count, max_pairs),
            |mut worker, a| {
                worker.count_from(index, rules, a, min_shared);
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
    Candidates { pairs, qualified }
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

    /// Counts the hashes unit `a` shares with every later unit.
    fn count_from(&mut self, index: &FingerprintIndex, rules: &PairingRules, a: u32, min: u32) {
        for &h in index.hashes_of(a) {
            let units = index.units_of(h);
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
