//! The candidates a counting pass keeps for scoring: the `cap` best by
//! rank or by bound, in bounded memory, and of those it leaves out only a
//! histogram of their bounds and the highest one, which say how many
//! unscored pairs could still have been listed.

use std::cmp::Ordering;

use rayon::prelude::*;

use crate::candidates::{CandidatePair, NameOrder, WHOLE_PAIR};

/// What a pass keeps candidates by (higher first, then by unit names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeptBy {
    /// What the pair was seen to share ([`CandidatePair::rank`]): the first
    /// pass, so that the length of a unit never decides.
    Rank,
    /// The pair's bound: later passes, which look for every pair that
    /// could still be listed.
    Bound,
}

impl KeptBy {
    fn value(self, c: &CandidatePair) -> u32 {
        match self {
            Self::Rank => c.rank,
            Self::Bound => c.bound,
        }
    }

    /// `x` before `y` in this order.
    pub(crate) fn cmp(
        self,
        order: NameOrder<'_>,
        x: &CandidatePair,
        y: &CandidatePair,
    ) -> Ordering {
        match self {
            Self::Rank => order.by_rank(x, y),
            Self::Bound => order.by_bound(x, y),
        }
    }
}

/// What the cap of a [`Best`] buffer left out: how many pairs by bound,
/// and the one of highest bound.
#[derive(Clone, Debug)]
pub(crate) struct Dropped {
    /// Pairs dropped with a bound in each band of `2^BAND_BITS`.
    bands: Vec<u64>,
    /// The dropped pair first in bound order.
    pub(crate) first: Option<CandidatePair>,
}

/// Bits of bound per band of the dropped pairs' histogram: 1,025 bands.
pub(crate) const BAND_BITS: u32 = 11;

impl Default for Dropped {
    fn default() -> Self {
        Self {
            bands: vec![0; (WHOLE_PAIR >> BAND_BITS) as usize + 1],
            first: None,
        }
    }
}

impl Dropped {
    #[inline]
    fn note(&mut self, pair: CandidatePair, order: NameOrder<'_>) {
        self.bands[(pair.bound >> BAND_BITS) as usize] += 1;
        if self
            .first
            .is_none_or(|first| order.by_bound(&pair, &first) == Ordering::Less)
        {
            self.first = Some(pair);
        }
    }

    fn merge(&mut self, other: Self, order: NameOrder<'_>) {
        for (x, y) in self.bands.iter_mut().zip(other.bands) {
            *x += y;
        }
        if let Some(first) = other.first {
            self.bands[(first.bound >> BAND_BITS) as usize] -= 1;
            self.note(first, order);
        }
    }

    /// Pairs dropped.
    #[cfg(test)]
    pub(crate) fn count(&self) -> usize {
        self.bands.iter().sum::<u64>() as usize
    }

    /// At most this many dropped pairs have a bound of `bound` or more.
    pub(crate) fn at_least(&self, bound: u32) -> usize {
        self.bands[(bound >> BAND_BITS) as usize..]
            .iter()
            .sum::<u64>() as usize
    }
}

/// The `cap` best pairs (by [`KeptBy`], then names) among those pushed.
///
/// Pairs are appended until the buffer holds twice the cap, then cut back
/// to the cap best with a linear-time selection; a pair no better than
/// the worst kept at the last cut is dropped at once. That costs a
/// comparison per pair where a heap of the best would cost a logarithmic
/// number of scattered memory accesses.
pub(crate) struct Best {
    pub(crate) pairs: Vec<CandidatePair>,
    cap: usize,
    by: KeptBy,
    /// The worst pair kept at the last cut: a pair ranked no higher can
    /// never be among the best.
    floor: Option<CandidatePair>,
    dropped: Dropped,
}

impl Best {
    pub(crate) fn new(cap: usize, by: KeptBy) -> Self {
        Self {
            pairs: Vec::new(),
            cap,
            by,
            floor: None,
            dropped: Dropped::default(),
        }
    }

    /// Counting pushes every pair that shares something, and once the
    /// buffer is full most fall below the floor: that test is inlined, the
    /// rest is not.
    #[inline]
    pub(crate) fn push(&mut self, pair: CandidatePair, order: NameOrder<'_>) {
        let by = self.by;
        let below = |floor: CandidatePair| match by.value(&pair).cmp(&by.value(&floor)) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => by.cmp(order, &pair, &floor) != Ordering::Less,
        };
        if self.cap == 0 || self.floor.is_some_and(below) {
            self.dropped.note(pair, order);
            return;
        }
        self.keep(pair, order);
    }

    #[inline(never)]
    fn keep(&mut self, pair: CandidatePair, order: NameOrder<'_>) {
        self.pairs.push(pair);
        if self.pairs.len() >= self.cap.saturating_mul(2) {
            self.cut(order);
        }
    }

    /// Takes every pair and drop of `other`.
    pub(crate) fn take_all(&mut self, other: Self, order: NameOrder<'_>) {
        for pair in other.pairs {
            self.push(pair, order);
        }
        self.dropped.merge(other.dropped, order);
    }

    /// Keeps the `cap` best pairs.
    fn cut(&mut self, order: NameOrder<'_>) {
        if self.pairs.len() > self.cap {
            let by = self.by;
            self.pairs
                .select_nth_unstable_by(self.cap - 1, |x, y| by.cmp(order, x, y));
            for &pair in &self.pairs[self.cap..] {
                self.dropped.note(pair, order);
            }
            self.pairs.truncate(self.cap);
            self.floor = self
                .pairs
                .iter()
                .copied()
                .max_by(|x, y| by.cmp(order, x, y));
        }
    }

    /// The best pairs, by unit indices, what was dropped, and the worst
    /// pair kept when any was dropped: every pair after it (in the order
    /// kept by) was dropped, every other one kept.
    pub(crate) fn into_unit_order(
        mut self,
        order: NameOrder<'_>,
    ) -> (Vec<CandidatePair>, Dropped, Option<CandidatePair>) {
        self.cut(order);
        let by = self.by;
        let last_kept = self.dropped.first.and_then(|_| {
            self.pairs
                .iter()
                .copied()
                .max_by(|x, y| by.cmp(order, x, y))
        });
        // Each thread counts runs of units in order and keeps its pairs so,
        // so unless a cut reordered them the pairs are a few sorted runs,
        // which a merge sort joins in about one pass (pairs are distinct:
        // a stable sort orders them as any sort does).
        if !self.pairs.is_sorted_by_key(|c| (c.a, c.b)) {
            self.pairs.par_sort_by_key(|c| (c.a, c.b));
        }
        (self.pairs, self.dropped, last_kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The buffer keeps exactly the `cap` best pairs, in unit order,
        /// notes every other one, and names the worst one kept.
        #[test]
        fn best_keeps_the_top_pairs(
            pairs in proptest::collection::btree_map((0u32..20, 0u32..20), (0u32..6, 0u32..3), 0..200),
            cap in 0usize..50,
            by_bound: bool,
        ) {
            let names: Vec<u32> = (0..20).collect();
            let order = NameOrder { name_rank: &names };
            let by = if by_bound { KeptBy::Bound } else { KeptBy::Rank };
            // One rank per unit pair `a < b`, as candidate counting gives.
            let pairs: Vec<CandidatePair> = pairs
                .into_iter()
                .filter(|((a, b), _)| a < b)
                .map(|((a, b), (rank, slack))| CandidatePair { a, b, rank, bound: rank + slack })
                .collect();
            let mut best = Best::new(cap, by);
            for &pair in &pairs {
                best.push(pair, order);
            }
            let mut expected = pairs.clone();
            expected.sort_unstable_by(|x, y| by.cmp(order, x, y));
            let dropped_expected = expected.split_off(cap.min(expected.len()));
            let last_expected = expected.last().copied().filter(|_| !dropped_expected.is_empty());
            expected.sort_unstable_by_key(|c| (c.a, c.b));
            let (kept, dropped, last_kept) = best.into_unit_order(order);
            proptest::prop_assert_eq!(kept, expected);
            proptest::prop_assert_eq!(dropped.count(), dropped_expected.len());
            let first = dropped_expected.iter().copied().min_by(|x, y| order.by_bound(x, y));
            proptest::prop_assert_eq!(dropped.first, first);
            proptest::prop_assert_eq!(last_kept, last_expected);
        }
    }
}
