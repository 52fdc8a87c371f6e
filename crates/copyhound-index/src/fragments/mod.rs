//! From matching fingerprints to fragments: exact, maximal runs of equal
//! symbols shared by two units.
//!
//! 1. *Merge* (winnowing §5.2, "a1b1 ~ a2b2"): matches are grouped by
//!    document pair and diagonal (the offset `pos_b − pos_a`) and taken in
//!    order along the diagonal; a match whose k-gram already lies inside the
//!    fragment grown from an earlier one is absorbed by it. Without base
//!    code the order does not matter (every fragment then holds its
//!    match's whole k-gram, so it is the one maximal run through it):
//!    matches are taken as they come and looked up by diagonal in a small
//!    hash table instead of being sorted.
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
//!    They are left in the order they were taken: scores do not depend on
//!    it, and only the pairs a report shows need them sorted.
//!
//! Each step is a module: [`packing`] packs matches and fragments into
//! integers that sort in the order the steps take them, [`extend`] grows
//! one match into its run, [`grow`] merges a pair's matches into
//! fragments, [`resolve`] cuts their overlaps away.

mod extend;
mod grow;
mod packing;
mod resolve;

pub(crate) use extend::Side;
use grow::{DiagonalTable, grow_in_order, grow_unordered};
use packing::{FragmentPacking, Packing, sort_by_diagonal};
use resolve::{TakenSides, resolve_overlaps};

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
}

/// Buffers one worker reuses from pair to pair, so that finding a pair's
/// fragments allocates nothing once they have grown.
#[derive(Debug, Default)]
pub(crate) struct PairScratch {
    /// The pair's matching fingerprints, filled in by the caller.
    pub(crate) matches: Vec<Match>,
    keys: Vec<u64>,
    diagonals: DiagonalTable,
    grown: Vec<Fragment>,
    taken: TakenSides,
    /// The pair's fragments.
    kept: Vec<Fragment>,
}

/// The fragments between units `a` and `b` given their matching
/// fingerprints (`scratch.matches`, left in an unspecified order):
/// disjoint on each side, each at least `k` symbols, in the order they
/// were taken (longest first, each with the pieces cut from it); in
/// `scratch`, whose buffer they are.
pub(crate) fn find_fragments<'s>(
    a: Side<'_>,
    b: Side<'_>,
    k: usize,
    scratch: &'s mut PairScratch,
) -> &'s mut Vec<Fragment> {
    let PairScratch {
        matches,
        keys,
        diagonals,
        grown,
        taken,
        kept,
    } = scratch;
    let longest = a
        .unit
        .documents
        .iter()
        .chain(&b.unit.documents)
        .map(crate::Document::len)
        .max()
        .unwrap_or(0);
    let packing = Packing::new(a.unit.documents.len(), b.unit.documents.len(), longest);
    let unmasked = |side: Side<'_>| side.prepared.documents.iter().all(|d| d.base.is_none());
    let unordered = packing.is_some_and(|packing| {
        unmasked(a) && unmasked(b) && grow_unordered((a, b), k, matches, packing, diagonals, grown)
    });
    if !unordered {
        sort_by_diagonal(matches, packing, keys);
        grow_in_order((a, b), k, matches, grown);
    }
    let packing = FragmentPacking::new(a.unit.documents.len(), b.unit.documents.len(), longest);
    resolve_overlaps(grown, k, (packing, keys), (a.unit, b.unit), taken, kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Unit;
    use proptest::prelude::*;

    proptest! {
        /// Matches taken as they come give the fragments that matches
        /// sorted by diagonal give, and without a hash collision they are
        /// taken so.
        #[test]
        fn unordered_growth_finds_the_fragments_of_ordered_growth(
            a_docs in prop::collection::vec(prop::collection::vec(0u32..3, 1..90), 1..3),
            b_docs in prop::collection::vec(prop::collection::vec(0u32..3, 1..90), 1..3),
            k in 1usize..8,
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..60),
            collisions in prop::collection::vec((0u32..3, 0u32..90, 0u32..3, 0u32..90), 0..3),
        ) {
            let unit = |docs: &[Vec<u32>]| {
                let documents = docs.iter().map(|symbols| {
                    let mut normalized = copyhound_fingerprint::NormalizedDocument::new();
                    for (i, &s) in symbols.iter().enumerate() {
                        normalized.push(s, i..i + 1);
                    }
                    crate::Document::new("d", normalized, Vec::new())
                });
                Unit::new("u", documents.collect())
            };
            let units = [unit(&a_docs), unit(&b_docs)];
            let hasher = copyhound_fingerprint::KGramHasher::new(k, 0);
            let prepared = crate::prepare::prepare(&units, &crate::BaseCode::none(), &hasher);
            let side = |u: usize| Side { unit: &units[u], prepared: &prepared[u] };
            // Every pair of equal k-grams, the matches a collision-free hash
            // gives; some of them, in a random order.
            let mut equal = Vec::new();
            for (a_doc, x) in a_docs.iter().enumerate() {
                for (b_doc, y) in b_docs.iter().enumerate() {
                    for i in 0..=x.len().saturating_sub(k) {
                        for j in 0..=y.len().saturating_sub(k) {
                            if x.len() >= k && y.len() >= k && x[i..i + k] == y[j..j + k] {
                                equal.push(Match { a_doc: a_doc as u32, a_pos: i as u32, b_doc: b_doc as u32, b_pos: j as u32 });
                            }
                        }
                    }
                }
            }
            let mut matches: Vec<Match> = if equal.is_empty() {
                Vec::new()
            } else {
                picks.iter().map(|p| equal[p.index(equal.len())]).collect()
            };
            // Unequal k-grams with one hash, where they fit.
            let fits = |docs: &[Vec<u32>], doc: u32, pos: u32| {
                docs.get(doc as usize).is_some_and(|d| pos as usize + k <= d.len())
            };
            let collided = collisions.iter().any(|&(a_doc, a_pos, b_doc, b_pos)| {
                let fit = fits(&a_docs, a_doc, a_pos) && fits(&b_docs, b_doc, b_pos);
                if fit {
                    matches.push(Match { a_doc, a_pos, b_doc, b_pos });
                }
                fit && a_docs[a_doc as usize][a_pos as usize..a_pos as usize + k]
                    != b_docs[b_doc as usize][b_pos as usize..b_pos as usize + k]
            });

            let mut ordered = PairScratch { matches: matches.clone(), ..PairScratch::default() };
            let packing = Packing::new(a_docs.len(), b_docs.len(), 90);
            sort_by_diagonal(&mut ordered.matches, packing, &mut ordered.keys);
            grow_in_order((side(0), side(1)), k, &ordered.matches, &mut ordered.grown);
            // Diagonals too crowded to search.
            let mut distinct = ordered.grown.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let mut diagonals: Vec<(u32, u32, i64)> = distinct
                .iter()
                .map(|f| (f.a.doc, f.b.doc, i64::from(f.b.start) - i64::from(f.a.start)))
                .collect();
            diagonals.sort_unstable();
            let crowded = diagonals.chunk_by(|x, y| x == y).any(|run| run.len() >= DiagonalTable::MAX_PER_DIAGONAL);
            let mut expected = Vec::new();
            resolve_overlaps(&mut ordered.grown, k, (None, &mut ordered.keys), (&units[0], &units[1]), &mut ordered.taken, &mut expected);

            let mut unordered = PairScratch::default();
            let taken = grow_unordered((side(0), side(1)), k, &matches, packing.unwrap(), &mut unordered.diagonals, &mut unordered.grown);
            prop_assert!(taken || collided || crowded);

            // The buffers, the table of diagonals among them, come from
            // that earlier pair.
            let mut scratch = PairScratch { matches, ..unordered };
            prop_assert_eq!(find_fragments(side(0), side(1), k, &mut scratch).clone(), expected);
        }
    }
}
