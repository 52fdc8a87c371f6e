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

use crate::Unit;
use crate::bitset::BitSet;
use crate::fragments::{Fragment, SymbolRange};
use crate::prepare::PreparedUnit;
use crate::rarity::UnitWeights;

/// How much of one unit a pair's fragments cover.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideCoverage {
    /// Symbols inside fragments.
    pub covered_symbols: usize,
    /// Symbols that count (outside base code).
    pub compared_symbols: usize,
    /// Lines touched by fragments, when lines are known.
    pub covered_lines: Option<usize>,
    /// Lines holding compared symbols, when lines are known.
    pub compared_lines: Option<usize>,
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

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// A scored pair of units.
#[derive(Clone, Debug, PartialEq)]
pub struct PairScore {
    /// Index of the first unit (the one whose name sorts first).
    pub a: usize,
    /// Index of the second unit.
    pub b: usize,
    /// Distinct fingerprint hashes the units share after filtering.
    pub shared_fingerprints: usize,
    /// Coverage of the first unit.
    pub coverage_a: SideCoverage,
    /// Coverage of the second unit.
    pub coverage_b: SideCoverage,
    /// Symbols in the longest fragment.
    pub longest_fragment: usize,
    /// Symbols in all fragments (on either side).
    pub total_overlap: usize,
    /// The symmetric score the pairs are ranked by, in `[0, 1]`.
    pub similarity: f64,
    /// Number of fragments. The fragments themselves are not kept (a batch
    /// scores up to [`crate::DEFAULT_MAX_PAIRS`] pairs, and their fragments
    /// would dwarf the index): [`crate::Comparison::fragments`] recomputes
    /// them for the pairs an output shows.
    pub fragment_count: usize,
}

/// Which side of a fragment to read.
#[derive(Clone, Copy)]
enum Which {
    A,
    B,
}

/// Ranges of one side sorted by position, a buffer reused from pair to
/// pair.
pub(crate) type SortedRanges = Vec<SymbolRange>;

/// The scores of the pair of units `a` and `b` with `fragments`, `sorted`
/// as scratch space.
pub(crate) fn score(
    (a, unit_a, prep_a, weights_a): (usize, &Unit, &PreparedUnit, &UnitWeights),
    (b, unit_b, prep_b, weights_b): (usize, &Unit, &PreparedUnit, &UnitWeights),
    shared_fingerprints: usize,
    fragments: &[Fragment],
    sorted: &mut SortedRanges,
) -> PairScore {
    let total_overlap: usize = fragments.iter().map(|f| f.len() as usize).sum();
    let longest_fragment = fragments
        .iter()
        .map(|f| f.len() as usize)
        .max()
        .unwrap_or(0);
    let coverage_a = coverage(unit_a, prep_a, fragments, total_overlap, Which::A, sorted);
    let coverage_b = coverage(unit_b, prep_b, fragments, total_overlap, Which::B, sorted);
    let similarity = mean_weighted_coverage(fragments, weights_a, weights_b);
    PairScore {
        a,
        b,
        shared_fingerprints,
        coverage_a,
        coverage_b,
        longest_fragment,
        total_overlap,
        similarity,
        fragment_count: fragments.len(),
    }
}

/// The mean of the two sides' weighted coverages: the weight of each
/// side's covered symbols over the weight of its compared symbols. Integer
/// sums make a fully covered side exactly 1.
fn mean_weighted_coverage(fragments: &[Fragment], a: &UnitWeights, b: &UnitWeights) -> f64 {
    let side = |weights: &UnitWeights, covered: u64| {
        if weights.compared == 0 {
            0.0
        } else {
            (covered as f64 / weights.compared as f64).min(1.0)
        }
    };
    let covered_a = fragments
        .iter()
        .map(|f| a.sum(f.a.doc, f.a.symbols()))
        .sum();
    let covered_b = fragments
        .iter()
        .map(|f| b.sum(f.b.doc, f.b.symbols()))
        .sum();
    f64::midpoint(side(a, covered_a), side(b, covered_b))
}

fn coverage(
    unit: &Unit,
    prepared: &PreparedUnit,
    fragments: &[Fragment],
    covered_symbols: usize,
    which: Which,
    sorted: &mut SortedRanges,
) -> SideCoverage {
    let compared_lines = prepared.summary.compared_lines;
    let covered_lines = compared_lines.map(|_| {
        let ranges = fragments.iter().map(|f| match which {
            Which::A => f.a,
            Which::B => f.b,
        });
        let ascending = ranges.clone().all(|r| {
            prepared.documents[r.doc as usize]
                .line_first_symbols
                .is_some()
        });
        if ascending {
            lines_between_ends(prepared, ranges, sorted)
        } else {
            lines_of_every_symbol(unit, ranges)
        }
    });
    SideCoverage {
        covered_symbols,
        compared_symbols: prepared.summary.compared_symbols,
        covered_lines,
        compared_lines,
    }
}

/// The lines `ranges` touch, found from each range's first and last
/// symbol: with ascending offsets, a range touches every line from its
/// first symbol's to its last one's that holds a symbol. Lines are
/// numbered among those holding symbols (the prepared document's
/// `line_first_symbols`), so a range's lines are a span of consecutive
/// numbers; ranges are disjoint, but two can share a line, so touching
/// spans are joined before counting. Ranges out of order (side b's) are
/// sorted in `sorted` first.
fn lines_between_ends(
    prepared: &PreparedUnit,
    ranges: impl Iterator<Item = SymbolRange> + Clone,
    sorted: &mut SortedRanges,
) -> usize {
    let ranges = ranges.filter(|r| !r.is_empty());
    if ranges.clone().map(|r| (r.doc, r.start)).is_sorted() {
        return joined_line_count(spans_in_order(prepared, ranges));
    }
    sorted.clear();
    sorted.extend(ranges);
    sorted.sort_unstable();
    joined_line_count(spans_in_order(prepared, sorted.iter().copied()))
}

/// The line spans `(document, first, last)` of `ranges`, which are in
/// order: each line is searched for from the line found before, as the
/// ranges' ends ascend.
fn spans_in_order(
    prepared: &PreparedUnit,
    ranges: impl Iterator<Item = SymbolRange>,
) -> impl Iterator<Item = (u32, usize, usize)> {
    let mut from: Option<(u32, usize)> = None;
    ranges.map(move |r| {
        let firsts = prepared.documents[r.doc as usize]
            .line_first_symbols
            .as_deref()
            .unwrap_or_default();
        let start = match from {
            Some((doc, line)) if doc == r.doc => line,
            _ => 0,
        };
        let first = line_from(firsts, start, r.start);
        let last = line_from(firsts, first, r.end - 1);
        from = Some((r.doc, last));
        (r.doc, first, last)
    })
}

/// The line of symbol `i`, given the first symbol of each line (`firsts`,
/// ascending): the last line starting at or before it, or line 0. Symbol
/// `i` lies in line `from` or a later one; lines are searched from there
/// in growing steps, as the next range is mostly a few lines on.
fn line_from(firsts: &[u32], from: usize, i: u32) -> usize {
    if firsts.get(from).is_none_or(|&first| first > i) {
        return firsts
            .partition_point(|&first| first <= i)
            .saturating_sub(1);
    }
    let (mut low, mut step) = (from, 1);
    while low + step < firsts.len() && firsts[low + step] <= i {
        low += step;
        step *= 2;
    }
    let high = (low + step).min(firsts.len());
    low + firsts[low + 1..high].partition_point(|&first| first <= i)
}

/// The lines covered by line spans `(document, first, last)` sorted by
/// document and first line, counting lines that several share once.
fn joined_line_count(spans: impl Iterator<Item = (u32, usize, usize)>) -> usize {
    let mut total = 0;
    let mut joined: Option<(u32, usize, usize)> = None;
    for (doc, first, last) in spans {
        joined = match joined {
            Some((d, from, to)) if d == doc && first <= to => Some((d, from, to.max(last))),
            previous => {
                total += previous.map_or(0, |(_, from, to)| to - from + 1);
                Some((doc, first, last))
            }
        };
    }
    total + joined.map_or(0, |(_, from, to)| to - from + 1)
}

/// The lines `ranges` touch, found symbol by symbol.
fn lines_of_every_symbol(unit: &Unit, ranges: impl Iterator<Item = SymbolRange>) -> usize {
    let mut per_doc: Vec<Option<BitSet>> = vec![None; unit.documents.len()];
    for range in ranges {
        let document = &unit.documents[range.doc as usize];
        let lines = document
            .lines
            .as_ref()
            .expect("compared lines are known only when every document has lines");
        let seen =
            per_doc[range.doc as usize].get_or_insert_with(|| BitSet::new(lines.line_count()));
        let spans = &document.normalized.spans[range.start as usize..range.end as usize];
        for line in lines.lines_of(spans.iter().map(|span| span.start)) {
            seen.insert(line as usize);
        }
    }
    per_doc.iter().flatten().map(BitSet::count).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BaseCode, Document, LineIndex};
    use copyhound_fingerprint::{KGramHasher, NormalizedDocument};
    use proptest::prelude::*;

    proptest! {
        /// Counting lines from the ends of each range gives what looking
        /// up every symbol's line gives, blank lines and shared lines
        /// included.
        #[test]
        fn lines_from_range_ends_are_the_lines_of_every_symbol(
            breaks in prop::collection::vec(0usize..4, 1..120),
            cuts in prop::collection::btree_set(0u32..120, 0..20),
            rotation in 0usize..10,
        ) {
            // Symbol i is one byte, followed by breaks[i] line breaks.
            let mut normalized = NormalizedDocument::new();
            let mut text = Vec::new();
            for &n in &breaks {
                normalized.push(1, text.len()..text.len() + 1);
                text.push(b'x');
                text.extend(std::iter::repeat_n(b'\n', n));
            }
            let len = breaks.len() as u32;
            let document = Document::new("d", normalized, Vec::new())
                .with_lines(LineIndex::new(&text));
            let unit = Unit::new("u", vec![document]);
            let hasher = KGramHasher::new(1, 0);
            let prepared = &crate::prepare::prepare(std::slice::from_ref(&unit), &BaseCode::none(), &hasher)[0];
            prop_assert!(prepared.documents[0].line_first_symbols.is_some());
            // Every other stretch between cut points is a range.
            let points: Vec<u32> = cuts.into_iter().filter(|&c| c < len).chain([len]).collect();
            let mut ranges: Vec<SymbolRange> = points
                .windows(2)
                .step_by(2)
                .map(|w| SymbolRange { doc: 0, start: w[0], end: w[1] })
                .collect();
            let expected = lines_of_every_symbol(&unit, ranges.iter().copied());
            prop_assert_eq!(lines_between_ends(prepared, ranges.iter().copied(), &mut Vec::new()), expected);
            // Out of order (as side b's ranges can be), they are sorted first.
            let by = rotation % ranges.len().max(1);
            ranges.rotate_left(by);
            prop_assert_eq!(lines_between_ends(prepared, ranges.iter().copied(), &mut Vec::new()), expected);
        }
    }
}
