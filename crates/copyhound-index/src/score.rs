//! Scores of a pair, derived from its fragments.
//!
//! Fragments are disjoint on each side and every fragment has the same
//! length on both sides, so the *overlap* `L` (symbols in fragments) is the
//! number of covered symbols of either unit. With `Ta`, `Tb` the compared
//! symbols of the units (outside base code), each side's coverage is `L/Ta`
//! and `L/Tb`, and the ranking score is their mean
//!
//! ```text
//! similarity = (L/Ta + L/Tb) / 2
//! ```
//!
//! with every symbol weighted by its rarity in the batch when rarity
//! weighting is on (module `rarity`: code many units share counts less on
//! both sides of each ratio). It is symmetric, lies in `[0, 1]`, and is
//! exactly 1 when both units are fully covered (identical units).
//!
//! Why the mean and not the Dice coefficient `2L/(Ta + Tb)`: Dice is
//! dominated by the larger unit, so a copy padded with a template, dead
//! code or a banner drops far down the ranking; the maximum of the two
//! coverages ranks "a small file inside a large one" as a full copy. The
//! mean lies between them, and with rarity weights it ranked the labelled
//! code datasets best (docs/EVALUATION.md). The one-sided shares
//! (`coverage_a`, `coverage_b`, unweighted) are reported next to it.

use crate::bitset;
use crate::fragments::{Fragment, SymbolRange};
use crate::passages::merge_passages;
use crate::prepare::{PreparedUnit, UnitSummary};
use crate::rarity::UnitWeights;

/// How much of one unit a pair's fragments cover: what
/// [`PairScore::coverage_a`] and [`PairScore::coverage_b`] give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideCoverage {
    /// Symbols inside fragments.
    pub covered_symbols: u32,
    /// Symbols that count (outside base code).
    pub compared_symbols: u32,
    /// Lines touched by fragments, when lines are known.
    pub covered_lines: Option<u32>,
    /// Lines holding compared symbols, when lines are known.
    pub compared_lines: Option<u32>,
}

impl SideCoverage {
    /// Share of the compared symbols covered, in `[0, 1]`.
    pub fn symbol_share(&self) -> f64 {
        share(self.covered_symbols, self.compared_symbols)
    }

    /// Share of the compared lines touched, in `[0, 1]`, when lines are
    /// known.
    pub fn line_share(&self) -> Option<f64> {
        Some(share(self.covered_lines?, self.compared_lines?))
    }
}

fn share(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

/// A scored pair of units.
///
/// It holds only what differs from pair to pair, in `u32` counts as
/// symbol positions are: a batch lists up to [`crate::DEFAULT_MAX_PAIRS`]
/// pairs by default and keeps them all, so their size is most of a small batch's
/// memory traffic. What each side's coverage is measured against is the
/// unit's, in [`UnitSummary`], and [`Self::coverage_a`] and
/// [`Self::coverage_b`] put the two together.
#[derive(Clone, Debug, PartialEq)]
pub struct PairScore {
    /// Index of the first unit (the one whose name sorts first).
    pub a: usize,
    /// Index of the second unit.
    pub b: usize,
    /// The symmetric score the pairs are ranked by, in `[0, 1]`.
    pub similarity: f64,
    /// Distinct fingerprint hashes the units share after filtering.
    pub shared_fingerprints: u32,
    /// Symbols in the longest fragment.
    pub longest_fragment: u32,
    /// Symbols in all fragments: on either side, as fragments are disjoint
    /// on each side and as long on both.
    pub total_overlap: u32,
    /// Number of fragments. The fragments themselves are not kept (a batch
    /// lists up to [`crate::DEFAULT_MAX_PAIRS`] pairs, and their fragments
    /// would dwarf the index): [`crate::Comparison::fragments`] recomputes
    /// them for the pairs an output shows.
    pub fragment_count: u32,
    /// Lines of `a` and of `b` the fragments touch (0 for a unit whose
    /// lines are not known).
    pub(crate) covered_lines: [u32; 2],
}

impl PairScore {
    /// How much of unit `a` the fragments cover; `units` are the
    /// comparison's [`crate::Comparison::units`].
    pub fn coverage_a(&self, units: &[UnitSummary]) -> SideCoverage {
        self.coverage(&units[self.a], self.covered_lines[0])
    }

    /// How much of unit `b` the fragments cover; `units` as for
    /// [`Self::coverage_a`].
    pub fn coverage_b(&self, units: &[UnitSummary]) -> SideCoverage {
        self.coverage(&units[self.b], self.covered_lines[1])
    }

    fn coverage(&self, unit: &UnitSummary, covered_lines: u32) -> SideCoverage {
        let compared_lines = unit.compared_lines.map(saturating_u32);
        SideCoverage {
            covered_symbols: self.total_overlap,
            compared_symbols: saturating_u32(unit.compared_symbols),
            covered_lines: compared_lines.map(|_| covered_lines),
            compared_lines,
        }
    }
}

/// Which side of a fragment to read.
#[derive(Clone, Copy)]
enum Which {
    A,
    B,
}

/// The lines of one side a pair's fragments touch, one bit each: a buffer
/// reused from pair to pair.
pub(crate) type LineSet = Vec<u64>;

/// The scores of the pair of units `a` and `b` with `fragments` (sorted by
/// their place in `a` when `gap` is not 0), `lines` as scratch space;
/// chains of fragments with gaps of at most `gap` symbols count in the
/// similarity gaps included. A pair less similar than `listed_from` cannot
/// be listed: its covered lines, which only a listed pair shows, are left
/// at 0 (most pairs a large batch scores are such).
pub(crate) fn score(
    (a, prep_a, weights_a): (usize, &PreparedUnit, &UnitWeights),
    (b, prep_b, weights_b): (usize, &PreparedUnit, &UnitWeights),
    shared_fingerprints: usize,
    (fragments, gap): (&[Fragment], u32),
    (lines, listed_from): (&mut LineSet, f64),
) -> PairScore {
    let similarity = if gap == 0 {
        mean_weighted_coverage(fragments.iter().map(|f| (f.a, f.b)), weights_a, weights_b)
    } else {
        let passages = merge_passages(fragments, gap);
        mean_weighted_coverage(passages.iter().map(|p| (p.a, p.b)), weights_a, weights_b)
    };
    PairScore {
        a,
        b,
        similarity,
        shared_fingerprints: saturating_u32(shared_fingerprints),
        longest_fragment: fragments.iter().map(Fragment::len).max().unwrap_or(0),
        total_overlap: saturating_u32(fragments.iter().map(|f| f.len() as usize).sum()),
        fragment_count: saturating_u32(fragments.len()),
        covered_lines: if similarity < listed_from {
            [0; 2]
        } else {
            [
                covered_lines(prep_a, fragments, Which::A, lines),
                covered_lines(prep_b, fragments, Which::B, lines),
            ]
        },
    }
}

/// `n`, or `u32::MAX` if it is larger: counts that reach it would need a
/// unit of over four billion symbols, whose positions would not fit
/// either.
fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The mean of the two sides' weighted coverages by `stretches` (disjoint
/// on each side): the weight of each side's covered symbols over the
/// weight of its compared symbols. Integer sums make a fully covered side
/// exactly 1.
fn mean_weighted_coverage(
    stretches: impl Iterator<Item = (SymbolRange, SymbolRange)>,
    a: &UnitWeights,
    b: &UnitWeights,
) -> f64 {
    let side = |weights: &UnitWeights, covered: u64| {
        if weights.compared == 0 {
            0.0
        } else {
            (covered as f64 / weights.compared as f64).min(1.0)
        }
    };
    let (covered_a, covered_b) = stretches.fold((0, 0), |(sum_a, sum_b), (in_a, in_b)| {
        (
            sum_a + a.sum(in_a.doc, in_a.symbols()),
            sum_b + b.sum(in_b.doc, in_b.symbols()),
        )
    });
    f64::midpoint(side(a, covered_a), side(b, covered_b))
}

/// The lines of one side of the pair the fragments touch, or 0 when the
/// unit's lines are not known.
fn covered_lines(
    prepared: &PreparedUnit,
    fragments: &[Fragment],
    which: Which,
    lines: &mut LineSet,
) -> u32 {
    if prepared.summary.compared_lines.is_none() {
        return 0;
    }
    let ranges = fragments.iter().map(|f| match which {
        Which::A => f.a,
        Which::B => f.b,
    });
    saturating_u32(lines_touched(prepared, ranges, lines))
}

/// The lines `ranges` touch, read off the documents' `symbol_lines`: at
/// each range's first and last symbol where the lines ascend (a range
/// touches every line numbered from its first symbol's to its last one's),
/// else at each of its symbols. Ranges are disjoint, but two can share a
/// line, so the lines are joined in `lines`, a bit per line number of the
/// unit, which needs no sorting (side b's ranges come in any order).
fn lines_touched(
    prepared: &PreparedUnit,
    ranges: impl Iterator<Item = SymbolRange>,
    lines: &mut LineSet,
) -> usize {
    lines.clear();
    lines.resize(prepared.numbered_lines.div_ceil(64), 0);
    for r in ranges.filter(|r| !r.is_empty()) {
        let document = &prepared.documents[r.doc as usize];
        // A range lies in a document of at least k symbols, which has
        // numbers when the unit's lines are known.
        let Some(numbers) = &document.symbol_lines else {
            continue;
        };
        if document.lines_ascend {
            let (first, last) = (
                numbers.get(r.start as usize),
                numbers.get(r.end as usize - 1),
            );
            bitset::insert_range(lines, first as usize, last as usize + 1);
        } else {
            numbers.each_line(r.start as usize..r.end as usize, |line| {
                bitset::insert(lines, line as usize);
            });
        }
    }
    bitset::count(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::BitSet;
    use crate::{BaseCode, Document, LineIndex, Unit};
    use copyhound_fingerprint::{KGramHasher, NormalizedDocument};
    use proptest::prelude::*;

    /// The lines `ranges` touch, found symbol by symbol from their
    /// offsets.
    fn lines_of_every_symbol(unit: &Unit, ranges: impl Iterator<Item = SymbolRange>) -> usize {
        let mut per_doc: Vec<Option<BitSet>> = vec![None; unit.documents.len()];
        for range in ranges {
            let document = &unit.documents[range.doc as usize];
            let lines = document.lines.as_ref().unwrap();
            let seen =
                per_doc[range.doc as usize].get_or_insert_with(|| BitSet::new(lines.line_count()));
            let spans = document
                .spans()
                .skip(range.start as usize)
                .take(range.len() as usize);
            for line in lines.lines_of(spans.map(|span| span.start)) {
                seen.insert(line as usize);
            }
        }
        per_doc.iter().flatten().map(BitSet::count).sum()
    }

    proptest! {
        /// Counting lines from the ends of each range (or each symbol's
        /// line, where a document's symbols were reordered) gives what
        /// looking up every symbol's line gives, blank lines, lines shared
        /// by two ranges and several documents included, in any order of
        /// ranges.
        #[test]
        fn lines_from_symbol_lines_are_the_lines_of_every_symbol(
            docs in prop::collection::vec(prop::collection::vec(0usize..4, 1..60), 1..4),
            cuts in prop::collection::vec(prop::collection::btree_set(0u32..60, 0..10), 3),
            rotation in 0usize..10,
            stale in prop::collection::vec(any::<u64>(), 0..4),
            reordered in prop::collection::vec(0usize..60, 3),
        ) {
            // Byte i of the text is one symbol, followed by breaks[i] line
            // breaks; the symbols of a reordered document start further
            // on and wrap around, as a front-end that reorders statements
            // leaves them.
            let document = |(breaks, turn): (&Vec<usize>, &usize)| {
                let mut text = Vec::new();
                let mut starts = Vec::new();
                for &n in breaks {
                    starts.push(text.len());
                    text.push(b'x');
                    text.extend(std::iter::repeat_n(b'\n', n));
                }
                let turn = turn % starts.len();
                starts.rotate_left(turn);
                let mut normalized = NormalizedDocument::new();
                for start in starts {
                    normalized.push(1, start..start + 1);
                }
                Document::new("d", normalized, Vec::new()).with_lines(LineIndex::new(&text))
            };
            let unit = Unit::new("u", docs.iter().zip(&reordered).map(document).collect());
            let hasher = KGramHasher::new(1, 0);
            let prepared = &crate::prepare::prepare(std::slice::from_ref(&unit), &BaseCode::none(), &hasher)[0];
            prop_assert!(prepared.documents.iter().all(|d| d.symbol_lines.is_some()));
            // Every other stretch between cut points is a range.
            let mut ranges: Vec<SymbolRange> = Vec::new();
            for (doc, (breaks, cuts)) in docs.iter().zip(&cuts).enumerate() {
                let len = breaks.len() as u32;
                let points: Vec<u32> = cuts.iter().copied().filter(|&c| c < len).chain([len]).collect();
                ranges.extend(points.windows(2).step_by(2).map(|w| SymbolRange { doc: doc as u32, start: w[0], end: w[1] }));
            }
            let expected = lines_of_every_symbol(&unit, ranges.iter().copied());
            // The buffer comes from an earlier pair.
            let mut lines = stale;
            prop_assert_eq!(lines_touched(prepared, ranges.iter().copied(), &mut lines), expected);
            let by = rotation % ranges.len().max(1);
            ranges.rotate_left(by);
            prop_assert_eq!(lines_touched(prepared, ranges.iter().copied(), &mut lines), expected);
        }
    }
}
