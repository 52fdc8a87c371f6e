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
    /// The lines holding any symbol, when lines are known and the symbols'
    /// offsets ascend: then the lines a run of symbols touches are those
    /// of this set between its first symbol's line and its last one's.
    pub(crate) symbol_lines: Option<BitSet>,
}

/// The prepared documents of one unit and its totals.
#[derive(Debug)]
pub(crate) struct PreparedUnit {
    pub(crate) documents: Vec<PreparedDocument>,
    pub(crate) summary: UnitSummary,
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
            let documents: Vec<PreparedDocument> = unit
                .documents
                .iter()
                .map(|d| prepare_document(d, base, hasher))
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
                if document.normalized.len() < hasher.k() {
                    summary.short_documents += 1;
                }
            }
            PreparedUnit { documents, summary }
        })
        .collect()
}

fn prepare_document(
    document: &Document,
    base: &BaseCode,
    hasher: &KGramHasher,
) -> PreparedDocument {
    let symbols = &document.normalized.symbols;
    let mask = base.mask(hasher, symbols);
    let is_compared = |i: usize| mask.as_ref().is_none_or(|m| !m.contains(i));
    let long_enough = symbols.len() >= hasher.k();
    let compared_symbols = if long_enough {
        (0..symbols.len()).filter(|&i| is_compared(i)).count()
    } else {
        0
    };
    let mut symbol_lines = None;
    let compared_lines = document.lines.as_ref().map(|lines| {
        if !long_enough {
            return 0;
        }
        let mut seen = BitSet::new(lines.line_count());
        let mut any = BitSet::new(lines.line_count());
        let starts = document.normalized.spans.iter().map(|span| span.start);
        for (i, line) in lines.lines_of(starts).enumerate() {
            any.insert(line as usize);
            if is_compared(i) {
                seen.insert(line as usize);
            }
        }
        let spans = &document.normalized.spans;
        if spans.windows(2).all(|w| w[0].start <= w[1].start) {
            symbol_lines = Some(any);
        }
        seen.count()
    });
    PreparedDocument {
        base: mask,
        compared_symbols,
        compared_lines,
        symbol_lines,
    }
}
