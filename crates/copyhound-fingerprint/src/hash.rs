//! The keyed rolling hash of k-grams.
//!
//! [`KGramHasher`] is the improved Karp–Rabin hash of the winnowing paper
//! (§2.2): the multiplication comes *after* the addition, so the newest symbol
//! reaches every bit of the state,
//!
//! ```text
//! H(c1..ck)   = c1·b^k + c2·b^(k-1) + … + ck·b            (mod 2^64)
//! H(c2..ck+1) = (H(c1..ck) − c1·b^k + ck+1) · b
//! ```
//!
//! Arithmetic modulo 2^64 is free on a 64-bit machine, but it leaves the low
//! bits of `H` weak: bit j depends only on bits 0..=j of the symbols. Winnowing
//! compares whole values (dominated by the well-mixed high bits), yet `0 mod p`
//! and every consumer that buckets by low bits would suffer. Each rolled value
//! therefore goes through a bijective xor-shift finaliser that folds the high
//! bits into the low ones. A keyed multiply-xorshift finaliser mixed better
//! but cost a third of the hash's time; the density tests (0 mod p within 2 %
//! of 1/p) show the cheap fold is enough. Being a bijection, it cannot add
//! collisions.
//!
//! The key (seed) picks the odd base `b` and a symbol mask. Without the seed an adversary cannot predict which k-grams a
//! selector keeps (Koala §3.3); with a fixed seed results are reproducible.
//!
//! The rolling state is a dependency chain with a multiplication in it, so one
//! chain cannot use the core's multipliers fully. [`KGramHasher::hash_into`]
//! runs several independent lanes over disjoint parts of the input, which is
//! what makes it several times faster than the textbook loop. Three lanes
//! advanced two steps per iteration measured fastest (1030 MiB/s of CPU time
//! in cache, against 850 for four lanes one step at a time): the compiler
//! cannot keep every lane's pointers in registers, and a pointer reloaded
//! from the stack then serves two symbols. Eight lanes in AVX2 registers
//! (64-bit products assembled from 32-bit ones) gave no gain and were dropped;
//! see docs/MEASUREMENTS.md.

use crate::Symbol;

/// Number of independent rolling chains interleaved by [`KGramHasher::hash_into`].
const LANES: usize = 3;

/// A keyed 64-bit rolling hash over k consecutive symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KGramHasher {
    k: usize,
    seed: u64,
    base: u64,
    /// `b^k`, the weight of the symbol that leaves the window.
    base_pow_k: u64,
    symbol_mask: u64,
}

impl KGramHasher {
    /// A hasher for k-grams of `k` symbols keyed by `seed`.
    ///
    /// # Panics
    /// If `k` is zero.
    pub fn new(k: usize, seed: u64) -> Self {
        assert!(k > 0, "k-grams need k >= 1");
        let mut state = seed;
        // An odd base is invertible modulo 2^64, so distinct windows that
        // differ in one symbol always hash differently. The top bits are set
        // so that the powers of b do not start out tiny.
        let base = splitmix64(&mut state) | 0x8000_0000_0000_0001;
        let symbol_mask = splitmix64(&mut state);
        Self {
            k,
            seed,
            base,
            base_pow_k: pow(base, k as u64),
            symbol_mask,
        }
    }

    /// The k-gram length.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The seed this hasher was keyed with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of k-grams (and so hashes) in a sequence of `symbols` symbols.
    pub fn kgram_count(&self, symbols: usize) -> usize {
        (symbols + 1).saturating_sub(self.k)
    }

    /// The hash of one k-gram, computed from scratch.
    ///
    /// # Panics
    /// If `kgram.len() != k`.
    pub fn hash_kgram(&self, kgram: &[Symbol]) -> u64 {
        assert_eq!(kgram.len(), self.k, "a k-gram has exactly k symbols");
        Self::finish(self.raw(kgram))
    }

    /// The hashes of every k-gram of `symbols`, in order.
    pub fn hashes(&self, symbols: &[Symbol]) -> Vec<u64> {
        let mut out = vec![0; self.kgram_count(symbols.len())];
        self.hash_into(symbols, &mut out);
        out
    }

    /// Writes the hash of the k-gram starting at `symbols[i]` to `out[i]`.
    ///
    /// # Panics
    /// If `out.len()` is not the number of k-grams of `symbols`.
    pub fn hash_into(&self, symbols: &[Symbol], out: &mut [u64]) {
        let count = self.kgram_count(symbols.len());
        assert_eq!(out.len(), count, "one output slot per k-gram");
        if count == 0 {
            return;
        }
        let lane_len = count.div_ceil(LANES);
        if lane_len < 4 * self.k {
            // Starting a lane costs k steps; not worth it for short input.
            self.roll(symbols, 0, out);
            return;
        }
        let mut lanes = [0u64; LANES];
        let mut ends = [0usize; LANES];
        for (lane, (state, end)) in lanes.iter_mut().zip(&mut ends).enumerate() {
            let first = lane * lane_len;
            *state = self.raw(&symbols[first..first + self.k]);
            *end = (first + lane_len).min(count);
        }
        // While every lane has a next k-gram, the chains run interleaved;
        // slicing each lane to exactly `steps` lets the compiler drop every
        // bounds check. Then each lane finishes its own tail.
        let shortest = ends[LANES - 1] - (LANES - 1) * lane_len;
        let steps = shortest.saturating_sub(1) / 2 * 2;
        {
            let k = self.k;
            let mut rest = &mut *out;
            let outs: [&mut [u64]; LANES] = std::array::from_fn(|_| {
                let len = lane_len.min(rest.len());
                let (lane, tail) = std::mem::take(&mut rest).split_at_mut(len);
                rest = tail;
                &mut lane[..steps]
            });
            let leaving: [&[Symbol]; LANES] =
                std::array::from_fn(|lane| &symbols[lane * lane_len..lane * lane_len + steps]);
            let entering: [&[Symbol]; LANES] = std::array::from_fn(|lane| {
                &symbols[lane * lane_len + k..lane * lane_len + k + steps]
            });
            let mut states = lanes;
            // Two steps per iteration: the compiler keeps too few registers
            // for every lane's pointers, and a reloaded pointer then serves
            // two symbols.
            let out_pairs = outs.map(|o| o.as_chunks_mut::<2>().0);
            let leaving_pairs = leaving.map(|l| l.as_chunks::<2>().0);
            let entering_pairs = entering.map(|e| e.as_chunks::<2>().0);
            for pair in 0..steps / 2 {
                for lane in 0..LANES {
                    let [l0, l1] = leaving_pairs[lane][pair];
                    let [e0, e1] = entering_pairs[lane][pair];
                    let first = Self::finish(states[lane]);
                    states[lane] = self.next(states[lane], l0, e0);
                    out_pairs[lane][pair] = [first, Self::finish(states[lane])];
                    states[lane] = self.next(states[lane], l1, e1);
                }
            }
            lanes = states;
        }
        for (lane, (state, end)) in lanes.iter_mut().zip(ends).enumerate() {
            for i in lane * lane_len + steps..end {
                out[i] = Self::finish(*state);
                if i + 1 < end {
                    *state = self.next(*state, symbols[i], symbols[i + self.k]);
                }
            }
        }
    }

    /// The plain single-chain rolling loop over k-grams `first..`.
    fn roll(&self, symbols: &[Symbol], first: usize, out: &mut [u64]) {
        let mut state = self.raw(&symbols[first..first + self.k]);
        for (j, slot) in out.iter_mut().enumerate() {
            *slot = Self::finish(state);
            let i = first + j;
            if i + self.k < symbols.len() {
                state = self.next(state, symbols[i], symbols[i + self.k]);
            }
        }
    }

    #[inline]
    fn symbol(&self, s: Symbol) -> u64 {
        u64::from(s) ^ self.symbol_mask
    }

    /// The un-finished Karp–Rabin value of a k-gram.
    fn raw(&self, kgram: &[Symbol]) -> u64 {
        kgram.iter().fold(0u64, |h, &s| {
            h.wrapping_add(self.symbol(s)).wrapping_mul(self.base)
        })
    }

    /// Rolls the window one symbol: `leaving` drops out, `entering` comes in.
    #[inline]
    fn next(&self, state: u64, leaving: Symbol, entering: Symbol) -> u64 {
        state
            .wrapping_sub(self.symbol(leaving).wrapping_mul(self.base_pow_k))
            .wrapping_add(self.symbol(entering))
            .wrapping_mul(self.base)
    }

    /// Folds the well-mixed high bits into the weak low ones. The top bits
    /// (which decide winnowing's minima) pass unchanged; the low bits (which
    /// decide `0 mod p`) become the xor of two independent-looking bits.
    #[inline]
    fn finish(state: u64) -> u64 {
        state ^ (state >> 29)
    }
}

/// One step of `SplitMix64`: a fast, well-mixed stream from a 64-bit state.
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn pow(mut base: u64, mut exp: u64) -> u64 {
    let mut acc = 1u64;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        exp >>= 1;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn rolling_equals_from_scratch_on_any_symbols_and_lane_split(
            symbols in prop::collection::vec(any::<u32>(), 0..6000),
            k in 1usize..40,
            seed: u64,
        ) {
            let hasher = KGramHasher::new(k, seed);
            let rolled = hasher.hashes(&symbols);
            for (i, &h) in rolled.iter().enumerate() {
                prop_assert_eq!(h, hasher.hash_kgram(&symbols[i..i + k]), "k-gram {}", i);
            }
        }

        #[test]
        fn rolling_equals_from_scratch(
            symbols in prop::collection::vec(0u32..300, 0..2000),
            k in 1usize..60,
            seed: u64,
        ) {
            let hasher = KGramHasher::new(k, seed);
            let rolled = hasher.hashes(&symbols);
            prop_assert_eq!(rolled.len(), hasher.kgram_count(symbols.len()));
            for (i, &h) in rolled.iter().enumerate() {
                prop_assert_eq!(h, hasher.hash_kgram(&symbols[i..i + k]), "k-gram {}", i);
            }
        }
    }

    #[test]
    fn equal_kgrams_hash_equal_anywhere() {
        let hasher = KGramHasher::new(3, 7);
        let h = hasher.hashes(&[1, 2, 3, 9, 1, 2, 3]);
        assert_eq!(h[0], h[4]);
        assert_ne!(h[0], h[1]);
    }

    #[test]
    fn the_seed_changes_the_hashes() {
        let a = KGramHasher::new(5, 1).hashes(&[1, 2, 3, 4, 5, 6]);
        let b = KGramHasher::new(5, 2).hashes(&[1, 2, 3, 4, 5, 6]);
        assert_ne!(a, b);
    }

    #[test]
    fn too_short_input_has_no_kgrams() {
        let hasher = KGramHasher::new(5, 0);
        assert!(hasher.hashes(&[1, 2, 3, 4]).is_empty());
        assert_eq!(hasher.hashes(&[1, 2, 3, 4, 5]).len(), 1);
    }
}
