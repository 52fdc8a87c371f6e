//! Finding a hash among many sorted ones in a step or two: a directory of
//! where each run of equal top bits starts, then a search of that run.
//! Rarity weights look every fingerprint of a batch up this way, and a
//! comparison against an archive every stored hash of the archive.

use crate::index::hash_bucket;

/// Ascending distinct hashes, and where the hashes of each value of their
/// top bits start among them.
#[derive(Clone, Debug)]
pub struct HashDirectory {
    hashes: Vec<u64>,
    /// The hashes whose top bits are `b` are
    /// `hashes[starts[b]..starts[b + 1]]`. Winnowing keeps window minima,
    /// so low runs hold more; a run is still searched by halving.
    starts: Vec<u32>,
    /// 64 minus the bits of a run's number (64: one run).
    shift: u32,
}

impl HashDirectory {
    /// The directory of `hashes` (ascending and distinct), with about
    /// `per_run` hashes to a run of equal top bits.
    pub fn new(hashes: Vec<u64>, per_run: usize) -> Self {
        debug_assert!(hashes.windows(2).all(|w| w[0] < w[1]));
        let bits = (hashes.len() / per_run.max(1)).max(1).ilog2();
        let shift = 64 - bits;
        let mut starts = vec![0u32; (1 << bits) + 1];
        for &hash in &hashes {
            starts[hash_bucket(hash, shift) + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        Self {
            hashes,
            starts,
            shift,
        }
    }

    /// The hashes, ascending.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// How many hashes it holds.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The place of `hash` among the hashes, if it is one.
    #[inline]
    pub fn position(&self, hash: u64) -> Option<usize> {
        let run = hash_bucket(hash, self.shift);
        let (from, to) = (self.starts[run] as usize, self.starts[run + 1] as usize);
        self.hashes[from..to]
            .binary_search(&hash)
            .ok()
            .map(|i| from + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Hashes spread over the whole range and hashes crowded into a
        /// few runs are found where a binary search finds them, and
        /// absent ones are not found, however many go to a run.
        #[test]
        fn a_directory_finds_what_a_binary_search_finds(
            spread in prop::collection::vec(any::<u64>(), 0..300),
            crowded in prop::collection::vec(0u64..1_000, 0..300),
            probes in prop::collection::vec(any::<u64>(), 0..100),
            per_run in 1usize..8,
        ) {
            let mut hashes: Vec<u64> = spread.iter().chain(&crowded).copied().collect();
            hashes.sort_unstable();
            hashes.dedup();
            let directory = HashDirectory::new(hashes.clone(), per_run);
            prop_assert_eq!(directory.hashes(), &hashes[..]);
            for &hash in hashes.iter().chain(&probes).chain(&[0, 999, u64::MAX]) {
                prop_assert_eq!(directory.position(hash), hashes.binary_search(&hash).ok());
            }
        }
    }
}
