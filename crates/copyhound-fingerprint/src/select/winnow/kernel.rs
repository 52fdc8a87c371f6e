//! The two inner loops of winnowing: finding the next hash that beats the
//! current minimum, and the rightmost minimum of a window.
//!
//! Both exist as portable scalar code and, for x86-64 CPUs that have it, as
//! AVX2 code: SSE2 (all that every x86-64 has) cannot compare 64-bit
//! integers, AVX2 compares four at once. The binary must run on any x86-64,
//! so the AVX2 loops are compiled with `#[target_feature]` and chosen at run
//! time; a [`Kernel`] only selects them after detecting AVX2. Both kernels
//! give identical results (a unit test compares them on tie-heavy input).

/// Whether hash `h` replaces the current minimum `min` of a window that
/// still holds it: strictly smaller for robust winnowing (ties keep the
/// previous choice), smaller or equal for plain winnowing (rightmost wins).
#[inline]
pub(super) fn beats<const ROBUST: bool>(h: u64, min: u64) -> bool {
    if ROBUST { h < min } else { h <= min }
}

/// Which implementation of the inner loops to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kernel {
    /// True only if the CPU was seen to support AVX2.
    avx2: bool,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    pub(super) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            Self {
                avx2: std::arch::is_x86_feature_detected!("avx2"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self { avx2: false }
        }
    }

    /// The first index in `from..limit` whose hash beats `min`, or `limit`.
    #[allow(unsafe_code)]
    #[inline]
    pub(super) fn skip<const ROBUST: bool>(
        self,
        buf: &[u64],
        from: usize,
        limit: usize,
        min: u64,
    ) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is only set by `detect`, after the CPU reported
            // AVX2 support, which is all `avx2::skip` requires.
            return unsafe { avx2::skip::<ROBUST>(buf, from, limit, min) };
        }
        scalar::skip::<ROBUST>(buf, from, limit, min)
    }

    /// The smallest hash of a non-empty `window` and the offset of its
    /// rightmost occurrence.
    #[allow(unsafe_code)]
    #[inline]
    pub(super) fn rightmost_min(self, window: &[u64]) -> (u64, usize) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: as in `skip`, `avx2` is only set once AVX2 was detected.
            return unsafe { avx2::rightmost_min(window) };
        }
        scalar::rightmost_min(window)
    }
}

/// Portable loops, written so that they compile to branch-free compare and
/// conditional-move sequences.
mod scalar {
    use super::beats;

    /// Hashes compared at once while looking for the next change.
    const CHUNK: usize = 8;

    /// The minimum of eight hashes as a tree, not a chain: three dependent
    /// steps instead of seven.
    #[inline]
    fn chunk_min(c: &[u64; CHUNK]) -> u64 {
        let a = c[0].min(c[1]).min(c[2].min(c[3]));
        let b = c[4].min(c[5]).min(c[6].min(c[7]));
        a.min(b)
    }

    pub(super) fn skip<const ROBUST: bool>(
        buf: &[u64],
        mut j: usize,
        limit: usize,
        min: u64,
    ) -> usize {
        while j + CHUNK <= limit {
            let chunk: &[u64; CHUNK] = buf[j..j + CHUNK].try_into().expect("CHUNK hashes");
            if beats::<ROBUST>(chunk_min(chunk), min) {
                break;
            }
            j += CHUNK;
        }
        buf[j..limit]
            .iter()
            .position(|&h| beats::<ROBUST>(h, min))
            .map_or(limit, |offset| j + offset)
    }

    pub(super) fn rightmost_min(window: &[u64]) -> (u64, usize) {
        let chunks = window.chunks_exact(CHUNK);
        let rest = chunks.remainder();
        let mut best = chunks.fold(u64::MAX, |m, c| {
            m.min(chunk_min(c.try_into().expect("CHUNK hashes")))
        });
        best = rest.iter().fold(best, |m, &x| m.min(x));
        let offset = window
            .iter()
            .rposition(|&x| x == best)
            .expect("the minimum is in the window");
        (best, offset)
    }
}

/// AVX2 loops: four hashes per comparison. AVX2 compares signed 64-bit
/// lanes; flipping the top bit maps the unsigned order onto the signed one.
///
/// Both loops avoid data-dependent branches where they can: the position of
/// a hit comes from comparison bit masks, and the rightmost minimum carries
/// each lane's index along with its minimum instead of searching again.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::beats;
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_pd,
        _mm256_cmpgt_epi64, _mm256_extract_epi64, _mm256_movemask_pd, _mm256_or_si256,
        _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_testz_si256, _mm256_xor_si256,
    };

    /// Hashes compared per loop step: four registers of four.
    const BLOCK: usize = 16;

    /// A hash as a signed lane that orders like the unsigned hash.
    fn flip(h: u64) -> i64 {
        h.cast_signed() ^ i64::MIN
    }

    /// Four hashes, flipped.
    #[target_feature(enable = "avx2")]
    fn load(c: &[u64]) -> __m256i {
        let raw = _mm256_set_epi64x(
            c[3].cast_signed(),
            c[2].cast_signed(),
            c[1].cast_signed(),
            c[0].cast_signed(),
        );
        _mm256_xor_si256(raw, _mm256_set1_epi64x(i64::MIN))
    }

    /// The four lanes of a register.
    #[target_feature(enable = "avx2")]
    fn lanes(v: __m256i) -> [i64; 4] {
        [
            _mm256_extract_epi64::<0>(v),
            _mm256_extract_epi64::<1>(v),
            _mm256_extract_epi64::<2>(v),
            _mm256_extract_epi64::<3>(v),
        ]
    }

    /// One bit per lane that compared true.
    #[target_feature(enable = "avx2")]
    fn bits(compare: __m256i) -> u32 {
        _mm256_movemask_pd(_mm256_castsi256_pd(compare)).cast_unsigned()
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn skip<const ROBUST: bool>(
        buf: &[u64],
        mut j: usize,
        limit: usize,
        min: u64,
    ) -> usize {
        let threshold = _mm256_set1_epi64x(flip(min));
        // Lanes where h beats min: h < min (robust), or h <= min (plain),
        // that is, not h > min; the mask is then inverted.
        let compare = |q: __m256i| {
            if ROBUST {
                _mm256_cmpgt_epi64(threshold, q)
            } else {
                _mm256_cmpgt_epi64(q, threshold)
            }
        };
        let invert: u32 = if ROBUST { 0 } else { 0xFFFF };
        // Whole blocks, also one reaching past `limit` (but not past the
        // buffer): the hits beyond `limit` are masked off.
        while j < limit && j + BLOCK <= buf.len() {
            let block: &[u64; BLOCK] = buf[j..j + BLOCK].try_into().expect("BLOCK hashes");
            let [q0, q1, q2, q3] = [0, 4, 8, 12].map(|i| compare(load(&block[i..i + 4])));
            let none = if ROBUST {
                let any = _mm256_or_si256(_mm256_or_si256(q0, q1), _mm256_or_si256(q2, q3));
                _mm256_testz_si256(any, any) == 1
            } else {
                let all = _mm256_and_si256(_mm256_and_si256(q0, q1), _mm256_and_si256(q2, q3));
                bits(all) == 0xF
            };
            if !none {
                let mask = (bits(q0) | bits(q1) << 4 | bits(q2) << 8 | bits(q3) << 12) ^ invert;
                let span = limit - j;
                let mask = if span < BLOCK {
                    mask & ((1 << span) - 1)
                } else {
                    mask
                };
                return if mask == 0 {
                    limit
                } else {
                    j + mask.trailing_zeros() as usize
                };
            }
            j += BLOCK;
        }
        if j >= limit {
            return limit;
        }
        buf[j..limit]
            .iter()
            .position(|&h| beats::<ROBUST>(h, min))
            .map_or(limit, |offset| j + offset)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn rightmost_min(window: &[u64]) -> (u64, usize) {
        if window.len() < 8 {
            return super::scalar::rightmost_min(window);
        }
        // Two accumulators (even and odd quads) halve the dependency chain;
        // each lane keeps its minimum and, taking ties, its rightmost index.
        let octets = window.chunks_exact(8);
        let mut rest = octets.remainder();
        let mut low = [_mm256_set1_epi64x(i64::MAX); 2];
        let mut at = [_mm256_set1_epi64x(0); 2];
        let mut index = [_mm256_set_epi64x(3, 2, 1, 0), _mm256_set_epi64x(7, 6, 5, 4)];
        let step = _mm256_set1_epi64x(8);
        let mut take = |half: usize, quad: &[u64]| {
            let x = load(quad);
            let keep = _mm256_cmpgt_epi64(x, low[half]);
            low[half] = _mm256_blendv_epi8(x, low[half], keep);
            at[half] = _mm256_blendv_epi8(index[half], at[half], keep);
            index[half] = _mm256_add_epi64(index[half], step);
        };
        for octet in octets {
            take(0, &octet[..4]);
            take(1, &octet[4..]);
        }
        // A last whole quad (w = 100 is 12 octets and a quad) goes to the
        // even accumulator, whose indices already point at it.
        if rest.len() >= 4 {
            take(0, &rest[..4]);
            rest = &rest[4..];
        }
        let [v0, v1] = [lanes(low[0]), lanes(low[1])];
        let [i0, i1] = [lanes(at[0]), lanes(at[1])];
        let unflip = |lane: i64| (lane ^ i64::MIN).cast_unsigned();
        let values: [u64; 8] =
            std::array::from_fn(|i| unflip(if i < 4 { v0[i] } else { v1[i - 4] }));
        let indices: [usize; 8] =
            std::array::from_fn(|i| (if i < 4 { i0[i] } else { i1[i - 4] }) as usize);
        let mut best = values.into_iter().fold(u64::MAX, u64::min);
        best = rest.iter().fold(best, |m, &x| m.min(x));
        // The largest index holding `best`, without branching on the data.
        let if_best = |x: u64, index: usize| index & usize::from(x == best).wrapping_neg();
        let mut best_at = values
            .into_iter()
            .zip(indices)
            .fold(0, |m, (x, index)| m.max(if_best(x, index)));
        let first_rest = window.len() - rest.len();
        for (offset, &x) in rest.iter().enumerate() {
            best_at = best_at.max(if_best(x, first_rest + offset));
        }
        (best, best_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tie_heavy_hashes() -> impl Strategy<Value = Vec<u64>> {
        (1u64..5, 1usize..300).prop_flat_map(|(range, len)| {
            prop::collection::vec(
                prop_oneof![0..range, Just(u64::MAX), Just(1 << 63), any::<u64>()],
                len,
            )
        })
    }

    proptest! {
        #[test]
        fn the_detected_kernel_equals_the_scalar_one(
            hashes in tie_heavy_hashes(),
            cut in any::<prop::sample::Index>(),
            min in prop_oneof![0u64..5, Just(u64::MAX), Just(1 << 63), any::<u64>()],
        ) {
            let (scalar, fast) = (Kernel { avx2: false }, Kernel::detect());
            let from = cut.index(hashes.len());
            for limit in [from, (from + 17).min(hashes.len()), hashes.len()] {
                prop_assert_eq!(
                    scalar.skip::<true>(&hashes, from, limit, min),
                    fast.skip::<true>(&hashes, from, limit, min)
                );
                prop_assert_eq!(
                    scalar.skip::<false>(&hashes, from, limit, min),
                    fast.skip::<false>(&hashes, from, limit, min)
                );
            }
            let window = &hashes[from..];
            if !window.is_empty() {
                prop_assert_eq!(scalar.rightmost_min(window), fast.rightmost_min(window));
            }
        }
    }

    #[test]
    fn the_scalar_kernel_finds_the_first_hash_that_beats_the_minimum() {
        let hashes = [9, 8, 7, 5, 6, 5, 4, 9];
        let scalar = Kernel { avx2: false };
        assert_eq!(scalar.skip::<true>(&hashes, 0, 8, 5), 6);
        assert_eq!(scalar.skip::<false>(&hashes, 0, 8, 5), 3);
        assert_eq!(scalar.skip::<true>(&hashes, 0, 5, 5), 5);
        assert_eq!(scalar.rightmost_min(&hashes[..6]), (5, 5));
    }
}
