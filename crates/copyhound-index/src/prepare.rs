//! Per-unit facts computed once before pairing: the base-code mask of each
//! document and how many symbols and lines take part in scores.

use copyhound_fingerprint::KGramHasher;
use rayon::prelude::*;

use crate::bitset::BitSet;
use crate::{BaseCode, Document, Unit};

/// What the scores need to know about one document.
#[derive(Debug)]
pub(crate) struct PreparedDocument {
    /// Symbols covered by base code.
    pub(crate) base: Option<BitSet>,
    /// Symbols that count in coverage: none for a document shorter than k
    /// (it has no k-gram, so nothing in it can match), else those outside
    /// base code.
    pub(crate) compared_symbols: usize,
    /// Distinct lines holding a compared symbol, when lines are known.
    pub(crate) compared_lines: Option<usize>,
    /// The line of each symbol, when lines are known and the document is
    /// at least k symbols, numbered over the unit's documents so that no
    /// two lines share a number: a pair's covered lines are counted from
    /// them without looking a symbol's offset up.
    pub(crate) symbol_lines: Option<SymbolLines>,
    /// Whether the symbols' offsets ascend (read only with `symbol_lines`,
    /// false without them). Lines are then numbered among
    /// those that hold a symbol, so a run of symbols touches exactly the
    /// lines numbered from its first symbol's to its last one's, and a
    /// pair's covered lines are read off at the ends of its fragments;
    /// else each line keeps its own number, and a fragment's lines are
    /// its symbols' (a front-end that put statements in a canonical order).
    pub(crate) lines_ascend: bool,
}

/// The line number of each symbol of a document, in 16 bits when the
/// unit's numbered lines fit (nearly always): one of the few arrays kept
/// per symbol of the batch.
#[derive(Debug)]
pub(crate) enum SymbolLines {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl SymbolLines {
    /// The numbers `lines`, narrowed when the largest fits.
    fn new(lines: Vec<u32>) -> Self {
        if lines
            .iter()
            .max()
            .is_none_or(|&max| u16::try_from(max).is_ok())
        {
            Self::Narrow(lines.iter().map(|&line| line as u16).collect())
        } else {
            Self::Wide(lines)
        }
    }

    /// The line number of symbol `i`.
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Self::Narrow(lines) => u32::from(lines[i]),
            Self::Wide(lines) => lines[i],
        }
    }

    /// Calls `take` with the line number of each symbol of `symbols`
    /// that lies on another line than the symbol before it: every line
    /// they touch, most once (consecutive symbols share lines).
    pub(crate) fn each_line(&self, symbols: std::ops::Range<usize>, mut take: impl FnMut(u32)) {
        fn walk<T: Copy + PartialEq + Into<u32>>(lines: &[T], take: &mut impl FnMut(u32)) {
            let mut previous = None;
            for &line in lines {
                if previous != Some(line) {
                    take(line.into());
                    previous = Some(line);
                }
            }
        }
        match self {
            Self::Narrow(lines) => walk(&lines[symbols], &mut take),
            Self::Wide(lines) => walk(&lines[symbols], &mut take),
        }
    }
}

/// The prepared documents of one unit and its totals.
#[derive(Debug)]
pub(crate) struct PreparedUnit {
    pub(crate) documents: Vec<PreparedDocument>,
    pub(crate) summary: UnitSummary,
    /// The line numbers of the documents' `symbol_lines` are below this.
    pub(crate) numbered_lines: usize,
}

/// Sizes of one unit as the comparison saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitSummary {
    /// All symbols.
    pub symbols: usize,
    /// Symbols that count in coverage and similarity (outside base code, in
    /// documents of at least k symbols).
    pub compared_symbols: usize,
    /// Symbols covered by base code.
    pub base_symbols: usize,
    /// Distinct lines holding compared symbols, when every document has
    /// line information.
    pub compared_lines: Option<usize>,
    /// Documents shorter than k symbols, which cannot match anything.
    pub short_documents: usize,
}

pub(crate) fn prepare(units: &[Unit], base: &BaseCode, hasher: &KGramHasher) -> Vec<PreparedUnit> {
    units
        .par_iter()
        .map(|unit| {
            let mut numbered_lines = 0;
            let documents: Vec<PreparedDocument> = unit
                .documents
                .iter()
                .map(|d| {
                    let (mut prepared, lines) = prepare_document(d, base, hasher);
                    prepared.symbol_lines = lines.map(|(mut lines, numbers)| {
                        let offset = numbered_lines;
                        numbered_lines += numbers;
                        for line in &mut lines {
                            *line += offset as u32;
                        }
                        SymbolLines::new(lines)
                    });
                    prepared
                })
                .collect();
            let mut summary = UnitSummary {
                symbols: unit.symbol_count(),
                compared_lines: Some(0),
                ..UnitSummary::default()
            };
            for (document, prepared) in unit.documents.iter().zip(&documents) {
                summary.compared_symbols += prepared.compared_symbols;
                summary.base_symbols += prepared.base.as_ref().map_or(0, BitSet::count);
                summary.compared_lines = summary
                    .compared_lines
                    .zip(prepared.compared_lines)
                    .map(|(a, b)| a + b);
                if document.len() < hasher.k() {
                    summary.short_documents += 1;
                }
            }
            PreparedUnit {
                documents,
                summary,
                numbered_lines,
            }
        })
        .collect()
}

/// The prepared document, its `symbol_lines` left to the caller: the line
/// numbers of its symbols from 0, and how many numbers they may take.
fn prepare_document(
    document: &Document,
    base: &BaseCode,
    hasher: &KGramHasher,
) -> (PreparedDocument, Option<(Vec<u32>, usize)>) {
    let symbols = &document.symbols;
    let mask = base.mask(hasher, symbols);
    let is_compared = |i: usize| mask.as_ref().is_none_or(|m| !m.contains(i));
    let long_enough = symbols.len() >= hasher.k();
    let compared_symbols = if long_enough {
        (0..symbols.len()).filter(|&i| is_compared(i)).count()
    } else {
        0
    };
    let mut symbol_lines = None;
    let mut lines_ascend = false;
    let compared_lines = document.lines.as_ref().map(|lines| {
        if !long_enough {
            return 0;
        }
        let mut seen = BitSet::new(lines.line_count());
        // One pass over the packed spans: each symbol's line, whether the
        // offsets ascend, and the compared lines. A line is marked once
        // per run of compared symbols on it, not once per symbol.
        let mut numbered: Vec<u32> = Vec::with_capacity(symbols.len());
        let mut ascending = true;
        let mut previous_start = 0;
        let mut last_marked = None;
        let starts = document.spans().map(|span| {
            ascending &= previous_start <= span.start;
            previous_start = span.start;
            span.start
        });
        for (i, line) in lines.lines_of(starts).enumerate() {
            numbered.push(line);
            if last_marked != Some(line) && is_compared(i) {
                seen.insert(line as usize);
                last_marked = Some(line);
            }
        }
        // Lines holding symbols are numbered from 0 as the line changes
        // when the offsets ascend; else each keeps its own index.
        let numbers = if ascending {
            let mut number = 0;
            let mut previous_line = None;
            for line in &mut numbered {
                if previous_line.is_some_and(|previous| previous != *line) {
                    number += 1;
                }
                previous_line = Some(*line);
                *line = number;
            }
            numbered.last().map_or(0, |&last| last as usize + 1)
        } else {
            lines.line_count()
        };
        lines_ascend = ascending;
        symbol_lines = Some((numbered, numbers));
        seen.count()
    });
    let prepared = PreparedDocument {
        base: mask,
        compared_symbols,
        compared_lines,
        symbol_lines: None,
        lines_ascend,
    };
    (prepared, symbol_lines)
}

#[cfg(test)]
mod tests {
    use super::SymbolLines;

    #[test]
    fn line_numbers_are_narrow_until_they_do_not_fit() {
        let narrow = SymbolLines::new(vec![0, 3, 65_535]);
        assert!(matches!(narrow, SymbolLines::Narrow(_)));
        assert_eq!((narrow.get(1), narrow.get(2)), (3, 65_535));
        let wide = SymbolLines::new(vec![0, 65_536]);
        assert!(matches!(wide, SymbolLines::Wide(_)));
        assert_eq!(wide.get(1), 65_536);
    }
}
