//! From matching fingerprints to fragments: exact, maximal runs of equal
//! symbols shared by two units.
//!
//! 1. *Merge* (winnowing §5.2, "a1b1 ~ a2b2"): matches are grouped by
//!    document pair and diagonal (the offset `pos_b − pos_a`) and taken in
//!    order along the diagonal; a match whose k-gram already lies inside the
//!    fragment grown from an earlier one is absorbed by it.
//! 2. *Extend*: a new match grows symbol by symbol to the left and right for
//!    as long as both sides hold the same symbol and neither is base code.
//!    The bounds are therefore exact (every symbol inside matches, which
//!    also weeds out hash collisions) and maximal (the next symbol on either
//!    end differs, ends the document or is base code). Gaps between
//!    consecutive fingerprints are bridged exactly when the symbols in them
//!    match — the gap tolerance of merging comes out of the extension.
//! 3. *Resolve*: with repeated code one stretch of a unit can match several
//!    stretches of the other. Fragments are taken longest first, and the
//!    parts of a later one that overlap an earlier one on either side are
//!    cut away; what remains of at least k symbols is kept. Fragments are
//!    then disjoint on each side, so the symbols they cover can be summed.

use copyhound_fingerprint::Symbol;

use crate::Unit;
use crate::bitset::BitSet;
use crate::prepare::PreparedUnit;

/// A range of symbols in one document of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymbolRange {
    /// Index of the document in its unit.
    pub doc: u32,
    /// First symbol.
    pub start: u32,
    /// One past the last symbol.
    pub end: u32,
}

impl SymbolRange {
    /// Number of symbols.
    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// As a `Range<u32>` of symbol positions.
    pub fn symbols(&self) -> std::ops::Range<u32> {
        self.start..self.end
    }
}

/// An exact match: `a` in the first unit holds the same symbols as `b` in
/// the second (so both have the same length).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fragment {
    /// Where it is in the first unit.
    pub a: SymbolRange,
    /// Where it is in the second unit.
    pub b: SymbolRange,
}

impl Fragment {
    /// Number of symbols on each side.
    pub fn len(&self) -> u32 {
        self.a.len()
    }

    /// Whether the fragment is empty (never true for a reported one).
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }
}

/// Two fingerprints with the same hash, one in each unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) a_doc: u32,
    pub(crate) a_pos: u32,
    pub(crate) b_doc: u32,
    pub(crate) b_pos: u32,
}

impl Match {
    fn diagonal(self) -> i64 {
        i64::from(self.b_pos) - i64::from(self.a_pos)
    }

    /// (document pair, diagonal, position in `a`) as one integer, in the
    /// same order, for positions below 2³¹ (the diagonal then fits in 32
    /// bits).
    fn packed_order(self) -> u128 {
        let diagonal = (self.diagonal() + (1 << 31)) as u128;
        (u128::from(self.a_doc) << 96)
            | (u128::from(self.b_doc) << 64)
            | (diagonal << 32)
            | u128::from(self.a_pos)
    }
}

/// Sorts matches by document pair, diagonal and position in `a`: the
/// order fragments grow in. Comparing one packed integer is cheaper than
/// comparing the tuple, and sorting is a good part of a pair's cost.
fn sort_by_diagonal(matches: &mut [Match]) {
    const FITS: u32 = 1 << 31;
    if matches.iter().all(|m| m.a_pos < FITS && m.b_pos < FITS) {
        matches.sort_unstable_by_key(|m| m.packed_order());
    } else {
        matches.sort_unstable_by_key(|m| (m.a_doc, m.b_doc, m.diagonal(), m.a_pos));
    }
}

/// One unit as the fragment finder sees it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub(crate) unit: &'a Unit,
    pub(crate) prepared: &'a PreparedUnit,
}

impl Side<'_> {
    fn doc(&self, d: u32) -> DocView<'_> {
        DocView {
            symbols: &self.unit.documents[d as usize].normalized.symbols,
            base: self.prepared.documents[d as usize].base.as_ref(),
        }
    }
}

#[derive(Clone, Copy)]
struct DocView<'a> {
    symbols: &'a [Symbol],
    base: Option<&'a BitSet>,
}

/// Whether symbol `i` of `a` and symbol `j` of `b` can be part of one
/// fragment: equal, and neither in base code.
fn usable(a: DocView<'_>, i: usize, b: DocView<'_>, j: usize) -> bool {
    a.symbols[i] == b.symbols[j]
        && a.base.is_none_or(|m| !m.contains(i))
        && b.base.is_none_or(|m| !m.contains(j))
}

/// The maximal exact run on the diagonal of `m` through its k-gram, as
/// `(start_a, start_b, len)`, or `None` if no symbol of the k-gram is usable
/// (a hash collision).
fn extend(a: DocView<'_>, b: DocView<'_>, m: Match, k: usize) -> Option<(usize, usize, usize)> {
    let (pa, pb) = (m.a_pos as usize, m.b_pos as usize);
    // The longest usable run inside the k-gram seeds the extension; with no
    // collision it is the whole k-gram minus any base-code edge.
    let mut seed: Option<(usize, usize)> = None;
    let mut run_start = None;
    for offset in 0..=k {
        if offset < k && usable(a, pa + offset, b, pb + offset) {
            run_start.get_or_insert(offset);
        } else if let Some(start) = run_start.take()
            && seed.is_none_or(|(from, to)| offset - start > to - from)
        {
            seed = Some((start, offset));
        }
    }
    let (seed_start, seed_end) = seed?;
    let (start_a, start_b) = (pa + seed_start, pb + seed_start);
    let (end_a, end_b) = (pa + seed_end, pb + seed_end);
    let (left, right) = if a.base.is_none() && b.base.is_none() {
        // Nothing masked: compare the symbols a block at a time.
        (
            common_suffix(&a.symbols[..start_a], &b.symbols[..start_b]),
            common_prefix(&a.symbols[end_a..], &b.symbols[end_b..]),
        )
    } else {
        let left = (1..=start_a.min(start_b))
            .take_while(|&t| usable(a, start_a - t, b, start_b - t))
            .count();
        let right = (0..(a.symbols.len() - end_a).min(b.symbols.len() - end_b))
            .take_while(|&t| usable(a, end_a + t, b, end_b + t))
            .count();
        (left, right)
    };
    let (start_a, start_b) = (start_a - left, start_b - left);
    let end_a = end_a + right;
    Some((start_a, start_b, end_a - start_a))
}

/// Symbols compared at once when extending a match.
const BLOCK: usize = 8;

/// The length of the longest common prefix of `x` and `y`.
fn common_prefix(x: &[Symbol], y: &[Symbol]) -> usize {
    let len = x.len().min(y.len());
    let mut n = 0;
    while n + BLOCK <= len && x[n..n + BLOCK] == y[n..n + BLOCK] {
        n += BLOCK;
    }
    n + x[n..len]
        .iter()
        .zip(&y[n..len])
        .take_while(|(p, q)| p == q)
        .count()
}

/// The length of the longest common suffix of `x` and `y`.
fn common_suffix(x: &[Symbol], y: &[Symbol]) -> usize {
    let len = x.len().min(y.len());
    let (x, y) = (&x[x.len() - len..], &y[y.len() - len..]);
    let mut n = 0;
    while n + BLOCK <= len && x[len - n - BLOCK..len - n] == y[len - n - BLOCK..len - n] {
        n += BLOCK;
    }
    n + x[..len - n]
        .iter()
        .rev()
        .zip(y[..len - n].iter().rev())
        .take_while(|(p, q)| p == q)
        .count()
}

/// The fragments between units `a` and `b` given their matching
/// fingerprints: disjoint on each side, each at least `k` symbols, sorted
/// by their position in `a`.
pub(crate) fn find_fragments(
    a: Side<'_>,
    b: Side<'_>,
    matches: &mut [Match],
    k: usize,
) -> Vec<Fragment> {
    sort_by_diagonal(matches);
    let mut grown: Vec<Fragment> = Vec::new();
    let mut reach: Option<(u32, u32, i64, usize)> = None;
    for &m in matches.iter() {
        if let Some((a_doc, b_doc, diagonal, end)) = reach {
            let inside = a_doc == m.a_doc
                && b_doc == m.b_doc
                && diagonal == m.diagonal()
                && m.a_pos as usize + k <= end;
            if inside {
                continue;
            }
        }
        let (da, db) = (a.doc(m.a_doc), b.doc(m.b_doc));
        let Some((sa, sb, len)) = extend(da, db, m, k) else {
            continue;
        };
        reach = Some((m.a_doc, m.b_doc, m.diagonal(), sa + len));
        grown.push(Fragment {
            a: SymbolRange {
                doc: m.a_doc,
                start: sa as u32,
                end: (sa + len) as u32,
            },
            b: SymbolRange {
                doc: m.b_doc,
                start: sb as u32,
                end: (sb + len) as u32,
            },
        });
    }
    resolve_overlaps(a, b, grown, k)
}

/// The symbols of document `doc` of `side` taken so far, empty at first.
fn occupancy<'t>(taken: &'t mut Vec<(u32, BitSet)>, side: Side<'_>, doc: u32) -> &'t mut BitSet {
    let at = taken
        .iter()
        .position(|(d, _)| *d == doc)
        .unwrap_or_else(|| {
            taken.push((doc, BitSet::new(side.doc(doc).symbols.len())));
            taken.len() - 1
        });
    &mut taken[at].1
}

/// Keeps the longest fragments and the non-overlapping rest of the others.
fn resolve_overlaps(a: Side<'_>, b: Side<'_>, mut grown: Vec<Fragment>, k: usize) -> Vec<Fragment> {
    grown.sort_unstable_by_key(|f| (std::cmp::Reverse(f.len()), *f));
    grown.dedup();
    // Symbols taken, per document: few documents per unit take part, so a
    // list beats a hash map.
    let mut taken_a: Vec<(u32, BitSet)> = Vec::new();
    let mut taken_b: Vec<(u32, BitSet)> = Vec::new();
    let mut kept = Vec::new();
    for f in grown {
        let occupied_a = occupancy(&mut taken_a, a, f.a.doc);
        let occupied_b = occupancy(&mut taken_b, b, f.b.doc);
        let mut piece_start = None;
        for t in 0..=f.len() {
            let free = t < f.len()
                && !occupied_a.contains((f.a.start + t) as usize)
                && !occupied_b.contains((f.b.start + t) as usize);
            if free {
                piece_start.get_or_insert(t);
            } else if let Some(s) = piece_start.take()
                && (t - s) as usize >= k
            {
                occupied_a.insert_range((f.a.start + s) as usize, (f.a.start + t) as usize);
                occupied_b.insert_range((f.b.start + s) as usize, (f.b.start + t) as usize);
                kept.push(Fragment {
                    a: SymbolRange {
                        doc: f.a.doc,
                        start: f.a.start + s,
                        end: f.a.start + t,
                    },
                    b: SymbolRange {
                        doc: f.b.doc,
                        start: f.b.start + s,
                        end: f.b.start + t,
                    },
                });
            }
        }
    }
    kept.sort_unstable();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn matches() -> impl Strategy<Value = Vec<Match>> {
        let position = prop_oneof![0u32..40, (1u32 << 31) - 3..(1u32 << 31) + 3];
        prop::collection::vec(
            (0u32..3, position.clone(), 0u32..3, position).prop_map(
                |(a_doc, a_pos, b_doc, b_pos)| Match {
                    a_doc,
                    a_pos,
                    b_doc,
                    b_pos,
                },
            ),
            0..40,
        )
    }

    proptest! {
        /// Block-wise common prefixes and suffixes are the symbol-wise ones.
        #[test]
        fn common_ends_are_found_block_by_block(
            x in prop::collection::vec(0u32..2, 0..60),
            y in prop::collection::vec(0u32..2, 0..60),
        ) {
            let naive = |p: &mut dyn Iterator<Item = (&u32, &u32)>| p.take_while(|(a, b)| a == b).count();
            prop_assert_eq!(common_prefix(&x, &y), naive(&mut x.iter().zip(&y)));
            prop_assert_eq!(common_suffix(&x, &y), naive(&mut x.iter().rev().zip(y.iter().rev())));
        }

        /// The packed order is the tuple order.
        #[test]
        fn packed_order_sorts_as_the_tuple(mut matches in matches()) {
            let mut expected = matches.clone();
            expected.sort_by_key(|m| (m.a_doc, m.b_doc, m.diagonal(), m.a_pos, m.b_pos));
            sort_by_diagonal(&mut matches);
            let key = |m: &Match| (m.a_doc, m.b_doc, m.diagonal(), m.a_pos);
            prop_assert_eq!(
                matches.iter().map(key).collect::<Vec<_>>(),
                expected.iter().map(key).collect::<Vec<_>>()
            );
        }
    }
}
