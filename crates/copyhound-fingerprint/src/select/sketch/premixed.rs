//! Hash maps keyed by values that are hashes already.
//!
//! Koala and the sketch count k-gram hashes (and prefix hashes) in maps with
//! one operation per position; the standard `SipHash` would cost more than
//! the rest of the work. Keys come out of a keyed rolling hash, but tests and
//! crafted inputs hand in plain sequences (0, 1, 2, …), so the hasher still
//! folds one 128-bit product: cheap, and it spreads sequential keys over the
//! high bits that `HashMap` probes with.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` for `u64` keys with the [`FoldHasher`].
pub(crate) type PremixedMap<V> = HashMap<u64, V, BuildHasherDefault<FoldHasher>>;

/// A `HashSet` of `u64` keys with the [`FoldHasher`].
pub(crate) type PremixedSet = HashSet<u64, BuildHasherDefault<FoldHasher>>;

/// Multiplies by an odd constant and folds the 128-bit product.
#[derive(Default)]
pub(crate) struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        let product = u128::from(self.0) * 0x9E37_79B9_7F4A_7C15;
        (product as u64) ^ ((product >> 64) as u64)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are used; this keeps the hasher total for other keys.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}
