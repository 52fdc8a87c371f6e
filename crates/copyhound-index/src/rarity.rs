//! Rarity weights: how much each symbol of a unit counts in the similarity.
//!
//! Code that many units of a batch share — a template class, an input
//! reader, the one obvious solution to a small exercise — says little about
//! copying between two of them. A hard max-occurrences cut (`-m`) removes
//! it, but needs a limit that suits the batch size and drops a large family
//! of real copies whole. Rarity weighting is the soft form, after inverse
//! document frequency: a fingerprint in `df` of the batch's `n` units weighs
//!
//! ```text
//! weight(df) = 1                                 if df ≤ 2
//!            = ln(n / df) / ln(n / 2), ≥ FLOOR   otherwise
//! ```
//!
//! so a fingerprint only two units share counts fully and one all units
//! share counts (almost) nothing. A symbol weighs as much as the most common
//! fingerprint whose k-gram covers it, so the edges of common code are
//! common too (on the code datasets this ranks better than taking the
//! rarest), and a symbol no fingerprint covers counts fully.
//!
//! The coverages behind the similarity then weigh covered and compared
//! symbols alike (see [`crate::PairScore`]): common code neither earns nor
//! dilutes similarity. Weights are integers, so a fully covered unit —
//! identical units — still has a coverage of exactly 1.

use rayon::prelude::*;

use crate::prepare::PreparedUnit;
use crate::{Document, Unit};

/// The weight of a symbol that counts fully.
pub(crate) const FULL: u16 = 1000;

/// The least weight: a fingerprint every unit holds still counts a little,
/// so a batch of near-identical units is not all zeros.
const FLOOR: u16 = 10;

/// How much the symbols of one unit count.
#[derive(Debug)]
pub(crate) struct UnitWeights {
    /// The weights of each document's symbols; `None` when every symbol
    /// counts fully ([`FULL`]).
    documents: Option<Vec<SumsBefore>>,
    /// The summed weight of the unit's compared symbols (outside base
    /// code, in documents of at least k symbols).
    pub(crate) compared: u64,
}

impl UnitWeights {
    /// The summed weight of symbols `range` of document `doc`.
    pub(crate) fn sum(&self, doc: u32, range: std::ops::Range<u32>) -> u64 {
        match &self.documents {
            None => u64::from(range.end - range.start) * u64::from(FULL),
            Some(docs) => docs[doc as usize].sum(range),
        }
    }
}

/// The summed weight of the symbols before each position of a document
/// (one more sum than symbols), so that a pair sums a fragment's weight
/// with one subtraction; in 32 bits when the whole document's fits.
#[derive(Debug)]
enum SumsBefore {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl SumsBefore {
    /// The sums of `weights`, narrow when the largest possible total fits.
    fn new(weights: &[u16]) -> Self {
        let fits = u32::try_from(weights.len() * usize::from(FULL)).is_ok();
        if fits {
            Self::Narrow(sums_before(weights, 0u32, u32::from))
        } else {
            Self::Wide(sums_before(weights, 0u64, u64::from))
        }
    }

    /// The summed weight of symbols `range`.
    fn sum(&self, range: std::ops::Range<u32>) -> u64 {
        let (start, end) = (range.start as usize, range.end as usize);
        match self {
            Self::Narrow(before) => u64::from(before[end] - before[start]),
            Self::Wide(before) => before[end] - before[start],
        }
    }
}

/// `zero`, then the running sums of `weights`.
fn sums_before<T: Copy + std::ops::Add<Output = T>>(
    weights: &[u16],
    zero: T,
    widen: impl Fn(u16) -> T,
) -> Vec<T> {
    let sums = weights.iter().scan(zero, |sum, &w| {
        *sum = *sum + widen(w);
        Some(*sum)
    });
    std::iter::once(zero).chain(sums).collect()
}

/// The weights of every unit: all full when `enabled` is false or the
/// batch has at most two units (nothing can be common then).
pub(crate) fn unit_weights(
    units: &[Unit],
    prepared: &[PreparedUnit],
    k: usize,
    enabled: bool,
) -> Vec<UnitWeights> {
    if !enabled || units.len() <= 2 {
        return prepared
            .iter()
            .map(|p| UnitWeights {
                documents: None,
                compared: p.summary.compared_symbols as u64 * u64::from(FULL),
            })
            .collect();
    }
    let frequencies = DocumentFrequencies::count(units);
    let n = units.len();
    units
        .par_iter()
        .zip(prepared)
        .map(|(unit, prepared)| {
            let documents: Vec<Vec<u16>> = unit
                .documents
                .iter()
                .map(|doc| symbol_weights(doc, k, |hash| weight(frequencies.of(hash), n)))
                .collect();
            let compared = unit
                .documents
                .iter()
                .zip(&prepared.documents)
                .zip(&documents)
                .filter(|((doc, _), _)| doc.normalized.len() >= k)
                .map(|((_, prep), weights)| {
                    weights
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| prep.base.as_ref().is_none_or(|m| !m.contains(*i)))
                        .map(|(_, &w)| u64::from(w))
                        .sum::<u64>()
                })
                .sum();
            UnitWeights {
                documents: Some(documents.iter().map(|w| SumsBefore::new(w)).collect()),
                compared,
            }
        })
        .collect()
}

/// Each symbol weighs as much as the most common fingerprint covering it,
/// or fully when none does.
fn symbol_weights(doc: &Document, k: usize, weight_of: impl Fn(u64) -> u16) -> Vec<u16> {
    let mut weights = vec![0; doc.normalized.len()];
    for f in &doc.fingerprints {
        let w = weight_of(f.hash);
        let start = (f.pos as usize).min(weights.len());
        let end = (start + k).min(weights.len());
        for slot in &mut weights[start..end] {
            // 0 marks a symbol no fingerprint has covered yet.
            *slot = if *slot == 0 { w } else { (*slot).min(w) };
        }
    }
    for slot in &mut weights {
        if *slot == 0 {
            *slot = FULL;
        }
    }
    weights
}

/// The weight of a fingerprint held by `df` of `n` units.
pub(crate) fn weight(df: usize, n: usize) -> u16 {
    if df <= 2 || n <= 2 {
        return FULL;
    }
    let share = ((n as f64 / df as f64).ln() / (n as f64 / 2.0).ln()).clamp(0.0, 1.0);
    ((share * f64::from(FULL)).round() as u16).clamp(FLOOR, FULL)
}

/// In how many distinct units each hash occurs.
struct DocumentFrequencies {
    /// Distinct hashes, ascending, with their unit counts.
    hashes: Vec<u64>,
    counts: Vec<u32>,
}

impl DocumentFrequencies {
    fn count(units: &[Unit]) -> Self {
        let mut all: Vec<u64> = units
            .par_iter()
            .flat_map_iter(|unit| {
                let mut own: Vec<u64> = unit
                    .documents
                    .iter()
                    .flat_map(|d| d.fingerprints.iter().map(|f| f.hash))
                    .collect();
                own.sort_unstable();
                own.dedup();
                own
            })
            .collect();
        all.par_sort_unstable();
        let mut hashes = Vec::new();
        let mut counts = Vec::new();
        for chunk in all.chunk_by(|x, y| x == y) {
            hashes.push(chunk[0]);
            counts.push(chunk.len() as u32);
        }
        Self { hashes, counts }
    }

    fn of(&self, hash: u64) -> usize {
        self.hashes
            .binary_search(&hash)
            .map_or(1, |i| self.counts[i] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pairs_count_fully_and_ubiquitous_code_barely() {
        assert_eq!(weight(1, 100), FULL);
        assert_eq!(weight(2, 100), FULL);
        assert_eq!(weight(100, 100), FLOOR);
        assert_eq!(weight(10, 100), 589); // ln 10 / ln 50
        assert_eq!(weight(5, 5), FLOOR);
        assert_eq!(weight(2, 2), FULL);
    }

    proptest! {
        /// A range's weight, read off the sums before each position, is
        /// the sum of its symbols' weights, in every document of every
        /// unit.
        #[test]
        fn range_weights_are_the_sums_of_symbol_weights(
            units in prop::collection::vec(prop::collection::vec(prop::collection::vec(0u32..3, 0..40), 1..3), 3..6),
            ranges in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..10),
        ) {
            let k = 3;
            let hasher = copyhound_fingerprint::KGramHasher::new(k, 0);
            let selector = copyhound_fingerprint::Winnowing::robust(2);
            let units: Vec<Unit> = units
                .iter()
                .map(|docs| {
                    let documents = docs.iter().map(|symbols| {
                        let mut normalized = copyhound_fingerprint::NormalizedDocument::new();
                        for (i, &s) in symbols.iter().enumerate() {
                            normalized.push(s, i..i + 1);
                        }
                        Document::fingerprinted("d", normalized, &hasher, &selector)
                    });
                    Unit::new("u", documents.collect())
                })
                .collect();
            let prepared = crate::prepare::prepare(&units, &crate::BaseCode::none(), &hasher);
            let weights = unit_weights(&units, &prepared, k, true);
            let frequencies = DocumentFrequencies::count(&units);
            for (unit, unit_weights) in units.iter().zip(&weights) {
                for (d, doc) in unit.documents.iter().enumerate() {
                    let plain = symbol_weights(doc, k, |hash| weight(frequencies.of(hash), units.len()));
                    for (x, y) in &ranges {
                        let (x, y) = (x.index(plain.len() + 1), y.index(plain.len() + 1));
                        let (start, end) = (x.min(y), x.max(y));
                        let expected: u64 = plain[start..end].iter().map(|&w| u64::from(w)).sum();
                        prop_assert_eq!(unit_weights.sum(d as u32, start as u32..end as u32), expected);
                    }
                }
            }
        }

        /// Narrow and wide sums give a range's weight alike.
        #[test]
        fn narrow_and_wide_sums_sum_ranges(
            weights in prop::collection::vec(FLOOR..=FULL, 0..100),
            x in any::<prop::sample::Index>(),
            y in any::<prop::sample::Index>(),
        ) {
            let (x, y) = (x.index(weights.len() + 1), y.index(weights.len() + 1));
            let range = x.min(y) as u32..x.max(y) as u32;
            let expected: u64 = weights[range.start as usize..range.end as usize].iter().map(|&w| u64::from(w)).sum();
            prop_assert!(matches!(SumsBefore::new(&weights), SumsBefore::Narrow(_)));
            prop_assert_eq!(SumsBefore::new(&weights).sum(range.clone()), expected);
            let wide = SumsBefore::Wide(sums_before(&weights, 0u64, u64::from));
            prop_assert_eq!(wide.sum(range), expected);
        }

        #[test]
        fn weight_falls_as_more_units_share(n in 3usize..5000, df in 1usize..5000) {
            let df = df.min(n);
            let w = weight(df, n);
            prop_assert!((FLOOR..=FULL).contains(&w));
            if df < n {
                prop_assert!(weight(df + 1, n) <= w);
            }
        }
    }
}
