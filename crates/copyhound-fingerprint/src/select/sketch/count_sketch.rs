//! The count-sketch (Ganguly–Veda §III.B–C): frequency estimates of k-gram
//! hashes in space independent of the number of distinct k-grams.
//!
//! Each of the `rows` rows maps an item to one of `buckets` counters and a
//! sign ±1, and adds the sign there; the estimate of an item is the median
//! over rows of `sign × counter`. The signs must be 4-wise independent for
//! the variance bound, the buckets pairwise; both come from one degree-3
//! polynomial over the prime field of 2^61 − 1 per row, with coefficients
//! drawn from the seed (its lowest bit is the sign, the bits above pick the
//! bucket). Functions of a 4-wise independent value are 4-wise independent,
//! so one polynomial serves both.

use crate::hash::splitmix64;

/// The Mersenne prime 2^61 − 1: reduction is a shift and an add.
const PRIME: u64 = (1 << 61) - 1;

/// Upper bound on rows, so a median fits in a stack array.
pub(super) const MAX_ROWS: usize = 15;

/// A count-sketch over `u64` items.
#[derive(Clone, Debug)]
pub(super) struct CountSketch {
    /// Per row, the coefficients `c0..c3` of its polynomial.
    rows: Vec<[u64; 4]>,
    buckets: usize,
    /// `counters[row * buckets + bucket]`. 32 bits halve the table, which
    /// is probed at random once per row and k-gram, so it should stay in
    /// cache; a bucket's sum is bounded by the number of k-grams, which is
    /// below 2^31 for any document a front-end accepts.
    counters: Vec<i32>,
}

impl CountSketch {
    /// An empty sketch of `rows × buckets` counters keyed by `seed`.
    ///
    /// # Panics
    /// If `rows` is not in `1..=MAX_ROWS` or `buckets` is zero.
    pub(super) fn new(rows: usize, buckets: usize, seed: u64) -> Self {
        assert!(
            (1..=MAX_ROWS).contains(&rows),
            "count-sketch rows must be in 1..={MAX_ROWS}"
        );
        assert!(buckets > 0, "a count-sketch row needs a bucket");
        let mut state = seed;
        let rows: Vec<[u64; 4]> = (0..rows)
            .map(|_| std::array::from_fn(|_| splitmix64(&mut state) % PRIME))
            .collect();
        Self {
            counters: vec![0; rows.len() * buckets],
            rows,
            buckets,
        }
    }

    /// Counts one occurrence of `item`.
    pub(super) fn add(&mut self, item: u64) {
        let powers = Powers::of(item);
        for (row, coefficients) in self.rows.iter().enumerate() {
            let (bucket, sign) = self.cell(coefficients, &powers);
            let counter = &mut self.counters[row * self.buckets + bucket];
            *counter = counter.wrapping_add(sign);
        }
    }

    /// The median estimate of how often `item` was added, if it is at least
    /// `threshold`.
    ///
    /// Most items are far below the threshold; the median is below it as
    /// soon as more than half of the rows are, so the remaining rows are
    /// not probed.
    pub(super) fn estimate_at_least(&self, item: u64, threshold: i64) -> Option<i64> {
        let powers = Powers::of(item);
        let mut estimates = [0i64; MAX_ROWS];
        let enough_below = self.rows.len() / 2 + 1;
        let mut below = 0;
        for (row, coefficients) in self.rows.iter().enumerate() {
            let (bucket, sign) = self.cell(coefficients, &powers);
            let estimate = i64::from(sign) * i64::from(self.counters[row * self.buckets + bucket]);
            estimates[row] = estimate;
            if estimate < threshold {
                below += 1;
                if below == enough_below {
                    return None;
                }
            }
        }
        let estimates = &mut estimates[..self.rows.len()];
        estimates.sort_unstable();
        Some(estimates[estimates.len() / 2])
    }

    #[inline]
    fn cell(&self, c: &[u64; 4], x: &Powers) -> (usize, i32) {
        let sum = u128::from(c[0])
            + u128::from(c[1]) * u128::from(x.x1)
            + u128::from(c[2]) * u128::from(x.x2)
            + u128::from(c[3]) * u128::from(x.x3);
        let value = reduce(sum);
        let bucket = ((u128::from(value >> 1) * self.buckets as u128) >> 60) as usize;
        let sign = if value & 1 == 1 { 1 } else { -1 };
        (bucket, sign)
    }
}

/// `x, x², x³` in the field, shared by every row.
struct Powers {
    x1: u64,
    x2: u64,
    x3: u64,
}

impl Powers {
    fn of(item: u64) -> Self {
        let x1 = reduce(u128::from(item));
        let x2 = reduce(u128::from(x1) * u128::from(x1));
        let x3 = reduce(u128::from(x2) * u128::from(x1));
        Self { x1, x2, x3 }
    }
}

/// `z mod 2^61 − 1` for any `z < 2^125`.
#[inline]
fn reduce(z: u128) -> u64 {
    let p = u128::from(PRIME);
    let z = (z & p) + (z >> 61);
    let z = (z & p) + (z >> 61);
    let z = z as u64;
    if z >= PRIME { z - PRIME } else { z }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_matches_the_remainder() {
        for z in [
            0u128,
            1,
            u128::from(PRIME),
            u128::from(PRIME) + 5,
            u128::from(u64::MAX),
            (1u128 << 124) + 12_345,
        ] {
            assert_eq!(u128::from(reduce(z)), z % u128::from(PRIME), "z = {z}");
        }
    }

    #[test]
    fn heavy_items_are_estimated_closely_among_many_light_ones() {
        let mut sketch = CountSketch::new(5, 256, 17);
        let mut state = 3u64;
        for _ in 0..20_000 {
            sketch.add(splitmix64(&mut state));
        }
        for _ in 0..500 {
            sketch.add(42);
        }
        for _ in 0..50 {
            sketch.add(7);
        }
        let estimate = |item| sketch.estimate_at_least(item, i64::MIN).unwrap();
        let heavy = estimate(42);
        let light = estimate(7);
        // Noise per row is about sqrt(F2 / buckets) ≈ 9.
        assert!((470..=530).contains(&heavy), "estimate of 500 was {heavy}");
        assert!((20..=80).contains(&light), "estimate of 50 was {light}");
        assert!(estimate(99).abs() <= 30);
        assert_eq!(sketch.estimate_at_least(42, 400), Some(heavy));
        assert_eq!(sketch.estimate_at_least(7, 400), None);
    }
}
