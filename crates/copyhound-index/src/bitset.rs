//! A fixed-size set of symbol (or line) positions, one bit each.
//!
//! Base-code masks, the occupancy of fragments and the lines a fragment
//! touches are all sets of small integers bounded by a document's length;
//! a bit vector keeps them at one bit per symbol. Ranges are set and
//! tested a word (64 positions) at a time by the functions on plain word
//! slices, which the fragment finder also uses on buffers it reuses.

/// A set of integers in `0..len`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    /// The empty set over `0..len`.
    pub(crate) fn new(len: usize) -> Self {
        Self {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// Adds `i`.
    pub(crate) fn insert(&mut self, i: usize) {
        debug_assert!(i < self.len);
        insert(&mut self.words, i);
    }

    /// Adds every member of `start..end`.
    pub(crate) fn insert_range(&mut self, start: usize, end: usize) {
        debug_assert!(end <= self.len);
        insert_range(&mut self.words, start, end);
    }

    /// Whether `i` is a member.
    pub(crate) fn contains(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        contains(&self.words, i)
    }

    /// Number of members.
    pub(crate) fn count(&self) -> usize {
        count(&self.words)
    }

    /// Whether no member lies in `start..end`.
    pub(crate) fn is_clear(&self, start: usize, end: usize) -> bool {
        debug_assert!(end <= self.len);
        range_is_clear(&self.words, start, end)
    }
}

/// Sets bit `i` of `words`.
pub(crate) fn insert(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// Number of bits set in `words`.
pub(crate) fn count(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// Whether bit `i` of `words` is set.
pub(crate) fn contains(words: &[u64], i: usize) -> bool {
    words[i / 64] & (1 << (i % 64)) != 0
}

/// The bits of `start..end` within each word they touch, as (word index,
/// mask) pairs: a partial first word, whole words, a partial last word.
fn word_masks(start: usize, end: usize) -> impl Iterator<Item = (usize, u64)> {
    let words = if start < end {
        start / 64..(end - 1) / 64 + 1
    } else {
        0..0
    };
    words.map(move |w| {
        let low = start.max(w * 64) - w * 64;
        let high = end.min(w * 64 + 64) - w * 64;
        // `high - low` bits from bit `low`; all 64 when the range spans it.
        let mask = if high - low == 64 {
            u64::MAX
        } else {
            ((1u64 << (high - low)) - 1) << low
        };
        (w, mask)
    })
}

/// Sets bits `start..end` of `words`.
pub(crate) fn insert_range(words: &mut [u64], start: usize, end: usize) {
    for (w, mask) in word_masks(start, end) {
        words[w] |= mask;
    }
}

/// Whether no bit of `start..end` is set in `words`.
pub(crate) fn range_is_clear(words: &[u64], start: usize, end: usize) -> bool {
    word_masks(start, end).all(|(w, mask)| words[w] & mask == 0)
}

/// Bits `start..start + n` of `words` (`n` at most 64) as the low `n`
/// bits of one word.
pub(crate) fn bits_at(words: &[u64], start: usize, n: usize) -> u64 {
    debug_assert!(n <= 64);
    let (w, shift) = (start / 64, start % 64);
    let mut bits = words.get(w).map_or(0, |&word| word >> shift);
    if shift > 0
        && let Some(&next) = words.get(w + 1)
    {
        bits |= next << (64 - shift);
    }
    if n < 64 { bits & ((1 << n) - 1) } else { bits }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn members_are_counted_once() {
        let mut set = BitSet::new(130);
        set.insert_range(60, 70);
        set.insert(65);
        set.insert(129);
        assert_eq!(set.count(), 11);
        assert!(set.contains(129));
        assert!(!set.contains(70));
    }

    proptest! {
        /// Word-wise ranges set and test exactly the bits one at a time
        /// would.
        #[test]
        fn word_wise_ranges_are_bit_wise_ranges(
            set in prop::collection::vec((0usize..300, 0usize..80), 0..6),
            probe in (0usize..300, 0usize..80),
        ) {
            let mut words = vec![0u64; 380usize.div_ceil(64)];
            let mut bits = vec![false; 380];
            for &(start, len) in &set {
                insert_range(&mut words, start, start + len);
                bits[start..start + len].fill(true);
            }
            for (i, &bit) in bits.iter().enumerate() {
                prop_assert_eq!(contains(&words, i), bit);
            }
            let (start, len) = probe;
            prop_assert_eq!(
                range_is_clear(&words, start, start + len),
                !bits[start..start + len].contains(&true)
            );
            let n = len.min(64);
            let window = bits_at(&words, start, n);
            for (i, &bit) in bits[start..start + n].iter().enumerate() {
                prop_assert_eq!(window >> i & 1 == 1, bit);
            }
            prop_assert_eq!(window >> n.min(63) >> (n / 64), 0, "no bit beyond n");
        }
    }
}
