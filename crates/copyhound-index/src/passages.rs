//! From exact fragments to reported passages.
//!
//! Noise in a copy (a changed character every few words, a renamed
//! variable) cuts one copied stretch into several exact fragments that
//! follow each other on both sides. A [`Passage`] joins such a chain back
//! into one stretch for reporting: consecutive fragments are joined when
//! the second one is the next fragment on *both* sides (same order, no
//! other fragment in between) and both gaps, on either side, are at most
//! `max_gap` symbols.
//!
//! Passages only group fragments: the fragments stay exact and are what
//! similarity is computed from, so the symbols of a gap never count as
//! shared. Since a passage spans fragments that are consecutive in both
//! sides' order, passages never overlap on either side, and every fragment
//! belongs to exactly one passage.

use std::ops::Range;

use crate::fragments::{Fragment, SymbolRange};

/// A run of fragments that follow each other closely on both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passage {
    /// From the start of its first fragment to the end of its last one, in
    /// the first unit.
    pub a: SymbolRange,
    /// The same in the second unit.
    pub b: SymbolRange,
    /// Its fragments, as indices into the slice given to
    /// [`merge_passages`].
    pub fragments: Range<usize>,
}

/// The passages of a pair's `fragments` (sorted by position in the first
/// unit, disjoint on each side, as a pair's fragments are), in the same
/// order: chains of consecutive fragments whose gaps on both sides are at
/// most `max_gap` symbols. With `max_gap` 0 only touching fragments join.
///
/// # Panics
/// If `fragments` are not sorted by their position in the first unit.
pub fn merge_passages(fragments: &[Fragment], max_gap: u32) -> Vec<Passage> {
    assert!(
        fragments.windows(2).all(|w| w[0].a <= w[1].a),
        "fragments sorted by position in the first unit"
    );
    let rank_b = ranks_in_b(fragments);
    let mut passages: Vec<Passage> = Vec::new();
    for (i, f) in fragments.iter().enumerate() {
        let joins =
            i > 0 && follows(&fragments[i - 1], f, max_gap) && rank_b[i] == rank_b[i - 1] + 1;
        match passages.last_mut() {
            Some(passage) if joins => {
                passage.a.end = f.a.end;
                passage.b.end = f.b.end;
                passage.fragments.end = i + 1;
            }
            _ => passages.push(Passage {
                a: f.a,
                b: f.b,
                fragments: i..i + 1,
            }),
        }
    }
    passages
}

/// The place of each fragment in the order of the second unit.
fn ranks_in_b(fragments: &[Fragment]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fragments.len()).collect();
    order.sort_unstable_by_key(|&i| fragments[i].b);
    let mut rank = vec![0; fragments.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    rank
}

/// Whether `next` starts after `prev` ends on both sides, in the same
/// documents, at most `max_gap` symbols later.
fn follows(prev: &Fragment, next: &Fragment, max_gap: u32) -> bool {
    let gap = |p: SymbolRange, n: SymbolRange| {
        (p.doc == n.doc && n.start >= p.end).then(|| n.start - p.end)
    };
    matches!(
        (gap(prev.a, next.a), gap(prev.b, next.b)),
        (Some(ga), Some(gb)) if ga <= max_gap && gb <= max_gap
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fragment(a: (u32, u32), b: (u32, u32), len: u32) -> Fragment {
        let range = |(doc, start): (u32, u32)| SymbolRange {
            doc,
            start,
            end: start + len,
        };
        Fragment {
            a: range(a),
            b: range(b),
        }
    }

    #[test]
    fn a_chain_with_small_gaps_is_one_passage() {
        let fragments = [
            fragment((0, 0), (0, 100), 30),
            fragment((0, 32), (0, 131), 30),
            fragment((0, 70), (0, 170), 30),
        ];
        let passages = merge_passages(&fragments, 10);
        assert_eq!(passages.len(), 1);
        assert_eq!(passages[0].a.symbols(), 0..100);
        assert_eq!(passages[0].b.symbols(), 100..200);
        assert_eq!(passages[0].fragments, 0..3);
    }

    #[test]
    fn a_large_gap_on_either_side_splits() {
        let fragments = [
            fragment((0, 0), (0, 0), 30),
            fragment((0, 35), (0, 80), 30),
            fragment((0, 100), (0, 115), 30),
        ];
        let passages = merge_passages(&fragments, 10);
        let spans: Vec<_> = passages.iter().map(|p| p.fragments.clone()).collect();
        assert_eq!(spans, [0..1, 1..2, 2..3]);
    }

    #[test]
    fn a_crossing_or_interleaved_fragment_splits() {
        // Second fragment lies before the first in b: not the same order.
        let crossing = [fragment((0, 0), (0, 50), 30), fragment((0, 31), (0, 0), 30)];
        assert_eq!(merge_passages(&crossing, 100).len(), 2);
        // Another fragment lies in b between two that follow in a.
        let interleaved = [
            fragment((0, 0), (0, 0), 30),
            fragment((0, 31), (0, 62), 30),
            fragment((0, 200), (0, 31), 30),
        ];
        let passages = merge_passages(&interleaved, 100);
        assert_eq!(passages.len(), 3);
    }

    #[test]
    fn documents_must_match() {
        let fragments = [fragment((0, 0), (0, 0), 30), fragment((0, 31), (1, 0), 30)];
        assert_eq!(merge_passages(&fragments, 100).len(), 2);
    }

    #[test]
    fn no_fragments_no_passages() {
        assert!(merge_passages(&[], 10).is_empty());
    }
}
