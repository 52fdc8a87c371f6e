//! The level-sampled distinct sample (Ganguly–Veda §III.A).
//!
//! The level of a hash is the number of trailing zero bits of a keyed mix of
//! it, so a k-gram reaches level ≥ ℓ with probability 2^−ℓ, independently of
//! how often it occurs. The sample keeps every inserted `(hash, position)`
//! whose level is at least the current minimum level; when it holds more
//! than its capacity, the lowest level is dropped whole and the minimum level
//! rises. The result is a sample of *distinct* k-grams — every occurrence of
//! a k-gram is kept or dropped together — of at most `capacity` entries, and
//! two documents sample a shared k-gram alike whenever it lies above both
//! their final levels.

use super::super::Fingerprint;
use crate::hash::splitmix64;

/// Levels 0..=64 (a mixed value of 0 has 64 trailing zeros).
const LEVELS: usize = 65;

/// A distinct sample of at most `capacity` entries.
#[derive(Clone, Debug)]
pub(super) struct DistinctSample {
    capacity: usize,
    key: u64,
    /// Entries below this level have been dropped.
    min_level: usize,
    held: usize,
    levels: Vec<Vec<Fingerprint>>,
}

impl DistinctSample {
    /// An empty sample of at most `capacity` entries, levels keyed by `key`.
    pub(super) fn new(capacity: usize, key: u64) -> Self {
        Self {
            capacity,
            key,
            min_level: 0,
            held: 0,
            levels: vec![Vec::new(); LEVELS],
        }
    }

    /// The level of `hash`.
    pub(super) fn level(&self, hash: u64) -> usize {
        let mut state = hash ^ self.key;
        splitmix64(&mut state).trailing_zeros() as usize
    }

    /// Offers the k-gram `hash` at `pos`; kept if its level is high enough.
    pub(super) fn insert(&mut self, hash: u64, pos: usize) {
        let level = self.level(hash);
        if level < self.min_level {
            return;
        }
        self.levels[level].push(Fingerprint::new(hash, pos));
        self.held += 1;
        while self.held > self.capacity {
            self.held -= self.levels[self.min_level].len();
            self.levels[self.min_level] = Vec::new();
            self.min_level += 1;
        }
    }

    /// The lowest level still held: items are kept with probability
    /// 2^−`min_level`.
    #[cfg(test)]
    fn min_level(&self) -> usize {
        self.min_level
    }

    /// Number of entries held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.held
    }

    /// Moves every held entry to `out`, in no particular order.
    pub(super) fn drain_into(self, out: &mut Vec<Fingerprint>) {
        for level in self.levels {
            out.extend(level);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_holds_more_than_its_capacity() {
        let mut sample = DistinctSample::new(100, 5);
        for i in 0..10_000u64 {
            sample.insert(i, i as usize);
            assert!(sample.len() <= 100);
        }
        // 10 000 items at rate 2^-ℓ ≤ 100 needs ℓ ≥ 7.
        assert!(sample.min_level() >= 6, "level {}", sample.min_level());
        let mut out = Vec::new();
        sample.drain_into(&mut out);
        assert!(out.len() > 20, "kept only {}", out.len());
    }

    #[test]
    fn occurrences_of_one_item_stay_or_go_together() {
        let mut sample = DistinctSample::new(50, 1);
        for i in 0..5000usize {
            sample.insert((i % 400) as u64, i);
        }
        let level = sample.min_level();
        let mut out = Vec::new();
        sample.drain_into(&mut out);
        for hash in 0..400u64 {
            let kept = out.iter().filter(|f| f.hash == hash).count();
            let probe = DistinctSample::new(0, 1);
            let expected = if probe.level(hash) >= level {
                5000 / 400 + usize::from(hash < 5000 % 400)
            } else {
                0
            };
            assert_eq!(kept, expected, "hash {hash}");
        }
    }

    #[test]
    fn a_zero_capacity_sample_stays_empty() {
        let mut sample = DistinctSample::new(0, 1);
        for i in 0..1000u64 {
            sample.insert(i, i as usize);
        }
        assert_eq!(sample.len(), 0);
    }
}
