//! The rolling hash on eight lanes in two AVX2 registers.
//!
//! AVX2 has no 64-bit multiplication, only 32×32→64 (`vpmuludq`), so each
//! product modulo 2^64 is assembled from its 32-bit halves:
//! `x·b = lo(x)·lo(b) + (hi(x)·lo(b) + lo(x)·hi(b))·2^32`. The leaving
//! symbol's product needs only two of the three partial products, because
//! the high half of a masked symbol is the constant high half of the mask.
//!
//! The lanes hash eight disjoint parts of the input, as the scalar lanes do.
//! Every four steps the symbols of four lanes are transposed in registers
//! (four steps of one lane are contiguous in memory, one step of four lanes
//! is what a register holds) and the hashes transposed back.

use super::KGramHasher;
use crate::Symbol;
use std::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_set1_epi32, _mm_unpackhi_epi32, _mm_unpackhi_epi64,
    _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_xor_si128, _mm256_add_epi64, _mm256_cvtepu32_epi64,
    _mm256_extract_epi64, _mm256_mul_epu32, _mm256_permute2x128_si256, _mm256_set_epi64x,
    _mm256_set1_epi64x, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_sub_epi64, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

/// Rolling chains: two registers of four, so that one register's
/// multiplications overlap the other's.
pub(super) const LANES: usize = 8;

/// Steps per transposition.
const STEPS: usize = 4;

/// The hasher's constants split for 32-bit multiplications.
struct Constants {
    /// Low half of the symbol mask (a symbol only has low bits).
    mask_lo: __m128i,
    base_lo: __m256i,
    base_hi: __m256i,
    base_pow_k_lo: __m256i,
    base_pow_k_hi: __m256i,
    /// What the mask's high half adds per step: it enters with the new
    /// symbol and leaves, multiplied by `b^k`, with the old one.
    offset: __m256i,
}

impl Constants {
    #[target_feature(enable = "avx2")]
    fn new(hasher: &KGramHasher) -> Self {
        let low = |x: u64| x & 0xFFFF_FFFF;
        let mask_hi = hasher.symbol_mask >> 32;
        let offset =
            (mask_hi << 32).wrapping_sub(mask_hi.wrapping_mul(low(hasher.base_pow_k)) << 32);
        Self {
            mask_lo: _mm_set1_epi32((hasher.symbol_mask as u32).cast_signed()),
            base_lo: _mm256_set1_epi64x(low(hasher.base).cast_signed()),
            base_hi: _mm256_set1_epi64x((hasher.base >> 32).cast_signed()),
            base_pow_k_lo: _mm256_set1_epi64x(low(hasher.base_pow_k).cast_signed()),
            base_pow_k_hi: _mm256_set1_epi64x((hasher.base_pow_k >> 32).cast_signed()),
            offset: _mm256_set1_epi64x(offset.cast_signed()),
        }
    }
}

/// Four consecutive symbols.
#[allow(unsafe_code)]
#[inline]
#[target_feature(enable = "avx2")]
fn load(symbols: &[Symbol; 4]) -> __m128i {
    // SAFETY: `symbols` is 16 readable bytes and `loadu` needs no alignment.
    unsafe { _mm_loadu_si128(symbols.as_ptr().cast()) }
}

/// Stores four hashes.
#[allow(unsafe_code)]
#[inline]
#[target_feature(enable = "avx2")]
fn store(out: &mut [u64; 4], hashes: __m256i) {
    // SAFETY: `out` is 32 writable bytes and `storeu` needs no alignment.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), hashes) }
}

/// Rows of four 32-bit symbols (one per lane) to columns (one per step).
#[inline]
#[target_feature(enable = "avx2")]
fn columns(rows: [__m128i; 4]) -> [__m128i; 4] {
    let [r0, r1, r2, r3] = rows;
    let low01 = _mm_unpacklo_epi32(r0, r1);
    let low23 = _mm_unpacklo_epi32(r2, r3);
    let high01 = _mm_unpackhi_epi32(r0, r1);
    let high23 = _mm_unpackhi_epi32(r2, r3);
    [
        _mm_unpacklo_epi64(low01, low23),
        _mm_unpackhi_epi64(low01, low23),
        _mm_unpacklo_epi64(high01, high23),
        _mm_unpackhi_epi64(high01, high23),
    ]
}

/// Columns of four 64-bit hashes (one per step) to rows (one per lane).
#[inline]
#[target_feature(enable = "avx2")]
fn rows(columns: [__m256i; 4]) -> [__m256i; 4] {
    let [c0, c1, c2, c3] = columns;
    let even01 = _mm256_unpacklo_epi64(c0, c1);
    let odd01 = _mm256_unpackhi_epi64(c0, c1);
    let even23 = _mm256_unpacklo_epi64(c2, c3);
    let odd23 = _mm256_unpackhi_epi64(c2, c3);
    [
        _mm256_permute2x128_si256::<0x20>(even01, even23),
        _mm256_permute2x128_si256::<0x20>(odd01, odd23),
        _mm256_permute2x128_si256::<0x31>(even01, even23),
        _mm256_permute2x128_si256::<0x31>(odd01, odd23),
    ]
}

/// `x · (hi·2^32 + lo)` modulo 2^64 in each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn mul(x: __m256i, lo: __m256i, hi: __m256i) -> __m256i {
    let low = _mm256_mul_epu32(x, lo);
    let cross = _mm256_add_epi64(
        _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), lo),
        _mm256_mul_epu32(x, hi),
    );
    _mm256_add_epi64(low, _mm256_slli_epi64::<32>(cross))
}

/// [`KGramHasher::next`] in four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn roll(c: &Constants, state: __m256i, leaving: __m128i, entering: __m128i) -> __m256i {
    let leaving = _mm256_cvtepu32_epi64(_mm_xor_si128(leaving, c.mask_lo));
    let entering = _mm256_cvtepu32_epi64(_mm_xor_si128(entering, c.mask_lo));
    // The leaving product without the mask's high half (that is in `offset`).
    let weight = _mm256_add_epi64(
        _mm256_mul_epu32(leaving, c.base_pow_k_lo),
        _mm256_slli_epi64::<32>(_mm256_mul_epu32(leaving, c.base_pow_k_hi)),
    );
    let sum = _mm256_add_epi64(
        _mm256_sub_epi64(state, weight),
        _mm256_add_epi64(entering, c.offset),
    );
    mul(sum, c.base_lo, c.base_hi)
}

/// [`KGramHasher::finish`] in four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn finish(state: __m256i) -> __m256i {
    _mm256_xor_si256(state, _mm256_srli_epi64::<29>(state))
}

/// The four lane states of a register.
#[inline]
#[target_feature(enable = "avx2")]
fn lanes(state: __m256i) -> [u64; 4] {
    [
        _mm256_extract_epi64::<0>(state).cast_unsigned(),
        _mm256_extract_epi64::<1>(state).cast_unsigned(),
        _mm256_extract_epi64::<2>(state).cast_unsigned(),
        _mm256_extract_epi64::<3>(state).cast_unsigned(),
    ]
}

/// Four steps of four lanes; returns each lane's four hashes.
#[inline]
#[target_feature(enable = "avx2")]
fn four_steps(
    c: &Constants,
    state: &mut __m256i,
    leaving: [&[Symbol; STEPS]; 4],
    entering: [&[Symbol; STEPS]; 4],
) -> [__m256i; 4] {
    let leaving = columns(leaving.map(|s| load(s)));
    let entering = columns(entering.map(|s| load(s)));
    let mut hashes = [*state; STEPS];
    for (hash, (leaving, entering)) in hashes.iter_mut().zip(leaving.into_iter().zip(entering)) {
        *hash = finish(*state);
        *state = roll(c, *state, leaving, entering);
    }
    rows(hashes)
}

/// Hashes every k-gram of `symbols` into `out` with lanes of `lane_len`
/// k-grams (the last one shorter, but at least two).
#[target_feature(enable = "avx2")]
pub(super) fn hash_lanes(
    hasher: &KGramHasher,
    symbols: &[Symbol],
    out: &mut [u64],
    lane_len: usize,
) {
    let k = hasher.k;
    let count = out.len();
    let shortest = count - (LANES - 1) * lane_len;
    // Vector steps: every lane outputs and rolls, in whole transpositions.
    let steps = (shortest - 1) / STEPS * STEPS;
    let c = Constants::new(hasher);
    let start = |lane: usize| hasher.raw(&symbols[lane * lane_len..lane * lane_len + k]);
    let group = |first: usize| {
        _mm256_set_epi64x(
            start(first + 3).cast_signed(),
            start(first + 2).cast_signed(),
            start(first + 1).cast_signed(),
            start(first).cast_signed(),
        )
    };
    let mut low = group(0);
    let mut high = group(4);
    // Each lane's symbols and hashes in groups of four steps: equal lengths
    // let the compiler drop the bounds checks in the loop.
    let chunks = |from: usize| symbols[from..from + steps].as_chunks::<STEPS>().0;
    let leaving: [&[[Symbol; STEPS]]; LANES] = std::array::from_fn(|lane| chunks(lane * lane_len));
    let entering: [&[[Symbol; STEPS]]; LANES] =
        std::array::from_fn(|lane| chunks(lane * lane_len + k));
    let mut lanes_out = out
        .chunks_mut(lane_len)
        .map(|lane| lane[..steps].as_chunks_mut::<STEPS>().0);
    let outs: [&mut [[u64; STEPS]]; LANES] =
        std::array::from_fn(|_| lanes_out.next().expect("eight lanes"));
    for i in 0..steps / STEPS {
        let rows_low = four_steps(
            &c,
            &mut low,
            [0, 1, 2, 3].map(|lane| &leaving[lane][i]),
            [0, 1, 2, 3].map(|lane| &entering[lane][i]),
        );
        let rows_high = four_steps(
            &c,
            &mut high,
            [4, 5, 6, 7].map(|lane| &leaving[lane][i]),
            [4, 5, 6, 7].map(|lane| &entering[lane][i]),
        );
        for (lane, row) in rows_low.into_iter().chain(rows_high).enumerate() {
            store(&mut outs[lane][i], row);
        }
    }
    let states = [low, high];
    let [low, high] = states.map(|state| lanes(state));
    for (lane, state) in low.into_iter().chain(high).enumerate() {
        let end = ((lane + 1) * lane_len).min(count);
        hasher.roll_from(symbols, state, lane * lane_len + steps, end, out);
    }
}
