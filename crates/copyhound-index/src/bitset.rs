//! A fixed-size set of symbol (or line) positions, one bit each.
//!
//! Base-code masks, the occupancy of fragments and the lines a fragment
//! touches are all sets of small integers bounded by a document's length;
//! a bit vector keeps them at one bit per symbol.

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
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Adds every member of `start..end`.
    pub(crate) fn insert_range(&mut self, start: usize, end: usize) {
        for i in start..end {
            self.insert(i);
        }
    }

    /// Whether `i` is a member.
    pub(crate) fn contains(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words[i / 64] & (1 << (i % 64)) != 0
    }

    /// Number of members.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::BitSet;

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
}
