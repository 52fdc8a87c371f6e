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

use copyhound_fingerprint::Fingerprint;

use crate::HashDirectory;
use crate::prepare::PreparedUnit;
use crate::{Unit, UnitsElsewhere};

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

/// The weights of a document's symbols, with their running sum before
/// every [`BLOCK`]-th symbol: a range's weight is read off two block sums
/// and at most `2 · (BLOCK − 1)` weights. Two bytes and a quarter per
/// symbol, where a running sum before every symbol took four (one of the
/// few arrays kept per symbol of a batch).
#[derive(Debug)]
struct SumsBefore {
    weights: Vec<u16>,
    /// `blocks[i]` is the summed weight of `weights[..i * BLOCK]`.
    blocks: Vec<u64>,
}

/// Symbols per block of [`SumsBefore`].
const BLOCK: usize = 32;

impl SumsBefore {
    fn new(weights: Vec<u16>) -> Self {
        let mut sum = 0;
        let mut blocks = Vec::with_capacity(weights.len() / BLOCK + 1);
        blocks.push(0);
        for block in weights.chunks_exact(BLOCK) {
            sum += block.iter().map(|&w| u64::from(w)).sum::<u64>();
            blocks.push(sum);
        }
        Self { weights, blocks }
    }

    /// The summed weight of symbols `range`.
    fn sum(&self, range: std::ops::Range<u32>) -> u64 {
        let (start, end) = (range.start as usize, range.end as usize);
        let plain = |symbols: std::ops::Range<usize>| {
            self.weights[symbols]
                .iter()
                .map(|&w| u64::from(w))
                .sum::<u64>()
        };
        if start / BLOCK == end / BLOCK {
            return plain(start..end);
        }
        let before = |i: usize| self.blocks[i / BLOCK] + plain(i / BLOCK * BLOCK..i);
        before(end) - before(start)
    }
}

/// The weights of every unit: all full when `enabled` is false or the
/// batch, with the units `elsewhere`, has at most two units (nothing can
/// be common then). `counted`, when given, holds every hash of the units
/// in three units or more (those elsewhere counted) with its unit count,
/// ascending (the index counts them as it is built); otherwise they are
/// counted here.
pub(crate) fn unit_weights(
    units: &[Unit],
    prepared: &[PreparedUnit],
    k: usize,
    enabled: bool,
    counted: Option<&[(u64, u32)]>,
    elsewhere: &UnitsElsewhere,
) -> Vec<UnitWeights> {
    let all_units = units.len() + elsewhere.units();
    if !enabled || all_units <= 2 {
        return prepared
            .iter()
            .map(|p| UnitWeights {
                documents: None,
                compared: p.summary.compared_symbols as u64 * u64::from(FULL),
            })
            .collect();
    }
    let hash_weights = match counted {
        Some(counts) => HashWeights::from_counts(counts, all_units),
        None => HashWeights::count(units, elsewhere),
    };
    units
        .par_iter()
        .zip(prepared)
        .map(|(unit, prepared)| {
            let documents: Vec<Vec<u16>> = unit
                .documents
                .iter()
                .map(|doc| {
                    symbol_weights(doc.len(), &doc.fingerprints, k, |hash| {
                        hash_weights.of(hash)
                    })
                })
                .collect();
            let compared = unit
                .documents
                .iter()
                .zip(&prepared.documents)
                .zip(&documents)
                .filter(|((doc, _), _)| doc.len() >= k)
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
                documents: Some(documents.into_iter().map(SumsBefore::new).collect()),
                compared,
            }
        })
        .collect()
}

/// Each of a document's `len` symbols weighs as much as the most common
/// of its `fingerprints` covering it, or fully when none does.
///
/// `weight_of` gives at most [`FULL`], so every symbol starts at
/// [`FULL`] and takes the least of it and its covering weights: one
/// minimum per covered symbol, with no test for "not covered yet".
pub(crate) fn symbol_weights(
    len: usize,
    fingerprints: &[Fingerprint],
    k: usize,
    weight_of: impl Fn(u64) -> u16,
) -> Vec<u16> {
    let mut weights = vec![FULL; len];
    for f in fingerprints {
        let w = weight_of(f.hash);
        debug_assert!(w <= FULL, "a weight above FULL: {w}");
        let start = (f.pos as usize).min(weights.len());
        let end = (start + k).min(weights.len());
        for slot in &mut weights[start..end] {
            *slot = (*slot).min(w);
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

/// The weight of every hash of a batch that weighs less than [`FULL`]:
/// only hashes in three units or more can, and on the labelled sets they
/// are few, so most lookups find an empty bucket of the directory.
struct HashWeights {
    /// Hashes in at least three units, and the weight of each.
    hashes: HashDirectory,
    weights: Vec<u16>,
}

/// Hashes per bucket of the [`HashWeights`] directory, on average.
const HASHES_PER_BUCKET: usize = 4;

impl HashWeights {
    /// The weights of the hashes of `units`, each counted once per unit,
    /// with the units `elsewhere`.
    fn count(units: &[Unit], elsewhere: &UnitsElsewhere) -> Self {
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
        let counts: Vec<(u64, u32)> = all
            .chunk_by(|x, y| x == y)
            .map(|c| (c[0], c.len() as u32 + elsewhere.count(c[0])))
            .filter(|&(_, count)| count > 2)
            .collect();
        Self::from_counts(&counts, units.len() + elsewhere.units())
    }

    /// The weights of the hashes of `counts` (ascending, each with the
    /// number of the batch's `n` units it is in), with the directory that
    /// finds them.
    fn from_counts(counts: &[(u64, u32)], n: usize) -> Self {
        // A fingerprint's weight depends on its unit count alone.
        let by_count: Vec<u16> = (0..=n).map(|df| weight(df, n)).collect();
        let hashes: Vec<u64> = counts.iter().map(|&(hash, _)| hash).collect();
        let weights = counts
            .iter()
            .map(|&(_, count)| by_count[count as usize])
            .collect();
        Self {
            hashes: HashDirectory::new(hashes, HASHES_PER_BUCKET),
            weights,
        }
    }

    /// The weight of a fingerprint with `hash`.
    fn of(&self, hash: u64) -> u16 {
        self.hashes.position(hash).map_or(FULL, |i| self.weights[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Document;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};

    /// In how many units each hash is, counted plainly.
    fn unit_counts(units: &[Unit]) -> HashMap<u64, usize> {
        let mut counts = HashMap::new();
        for unit in units {
            let own: HashSet<u64> = unit
                .documents
                .iter()
                .flat_map(|d| d.fingerprints.iter().map(|f| f.hash))
                .collect();
            for hash in own {
                *counts.entry(hash).or_default() += 1;
            }
        }
        counts
    }

    /// A unit with one document whose fingerprints carry `hashes`.
    fn unit_with_hashes(hashes: &[u64]) -> Unit {
        let mut normalized = copyhound_fingerprint::NormalizedDocument::new();
        for i in 0..hashes.len() {
            normalized.push(0, i..i + 1);
        }
        let fingerprints = hashes
            .iter()
            .enumerate()
            .map(|(i, &hash)| copyhound_fingerprint::Fingerprint {
                hash,
                pos: i as u32,
            })
            .collect();
        Unit::new("u", vec![Document::new("d", normalized, fingerprints)])
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
            let scheme = copyhound_fingerprint::Scheme::new(hasher.clone(), copyhound_fingerprint::Winnowing::robust(2));
            let units: Vec<Unit> = units
                .iter()
                .map(|docs| {
                    let documents = docs.iter().map(|symbols| {
                        let mut normalized = copyhound_fingerprint::NormalizedDocument::new();
                        for (i, &s) in symbols.iter().enumerate() {
                            normalized.push(s, i..i + 1);
                        }
                        Document::fingerprinted("d", normalized, &scheme)
                    });
                    Unit::new("u", documents.collect())
                })
                .collect();
            let prepared = crate::prepare::prepare(&units, &crate::BaseCode::none(), &hasher);
            let weights = unit_weights(&units, &prepared, k, true, None, &UnitsElsewhere::default());
            let counts = unit_counts(&units);
            for (unit, unit_weights) in units.iter().zip(&weights) {
                for (d, doc) in unit.documents.iter().enumerate() {
                    let plain = symbol_weights(doc.len(), &doc.fingerprints, k, |hash| weight(counts[&hash], units.len()));
                    for (x, y) in &ranges {
                        let (x, y) = (x.index(plain.len() + 1), y.index(plain.len() + 1));
                        let (start, end) = (x.min(y), x.max(y));
                        let expected: u64 = plain[start..end].iter().map(|&w| u64::from(w)).sum();
                        prop_assert_eq!(unit_weights.sum(d as u32, start as u32..end as u32), expected);
                    }
                }
            }
        }

        /// Block sums give a range's weight, within a block, across
        /// blocks and at either end.
        #[test]
        fn block_sums_sum_ranges(
            weights in prop::collection::vec(FLOOR..=FULL, 0..200),
            x in any::<prop::sample::Index>(),
            y in any::<prop::sample::Index>(),
        ) {
            let (x, y) = (x.index(weights.len() + 1), y.index(weights.len() + 1));
            let range = x.min(y) as u32..x.max(y) as u32;
            let expected: u64 = weights[range.start as usize..range.end as usize].iter().map(|&w| u64::from(w)).sum();
            prop_assert_eq!(SumsBefore::new(weights).sum(range), expected);
        }

        /// Every hash's looked-up weight is that of its plain unit count,
        /// also when the hashes crowd into few buckets of the directory
        /// (`spread` 0 puts them all in the lowest) or are absent.
        #[test]
        fn looked_up_weights_are_those_of_unit_counts(
            units in prop::collection::vec(prop::collection::vec(0u64..40, 0..30), 3..12),
            spread in 0u32..64,
            absent in prop::collection::vec(any::<u64>(), 0..20),
        ) {
            // Multiplying by an odd number keeps hashes distinct.
            let scale = (1u64 << spread) | 1;
            let units: Vec<Unit> = units
                .iter()
                .map(|hashes| unit_with_hashes(&hashes.iter().map(|h| h.wrapping_mul(scale)).collect::<Vec<_>>()))
                .collect();
            let counts = unit_counts(&units);
            // Counted here, or by the index as it is built, with hashes too
            // common to index (in more than three units) or not.
            let counted = HashWeights::count(&units, &UnitsElsewhere::default());
            let by_index = |max_units| {
                let counted = crate::FingerprintIndex::build_counting(&units, &crate::BaseCode::none(), max_units, &UnitsElsewhere::default());
                HashWeights::from_counts(&counted.shared_by_many, units.len())
            };
            for weights in [counted, by_index(usize::MAX), by_index(3)] {
                for (&hash, &df) in &counts {
                    prop_assert_eq!(weights.of(hash), weight(df, units.len()), "hash {}", hash);
                }
                for &hash in absent.iter().filter(|h| !counts.contains_key(h)) {
                    prop_assert_eq!(weights.of(hash), FULL);
                }
            }
        }

        #[test]
        fn a_symbol_weighs_the_least_weight_covering_it(
            len in 0usize..60,
            k in 1usize..8,
            covering in prop::collection::vec((0u32..70, FLOOR..=FULL), 0..20),
        ) {
            let fingerprints: Vec<Fingerprint> = covering
                .iter()
                .map(|&(pos, w)| Fingerprint { hash: u64::from(w), pos })
                .collect();
            let weights = symbol_weights(len, &fingerprints, k, |hash| hash as u16);
            for (i, &got) in weights.iter().enumerate() {
                let least = covering
                    .iter()
                    .filter(|&&(pos, _)| (pos as usize..pos as usize + k).contains(&i))
                    .map(|&(_, w)| w)
                    .min()
                    .unwrap_or(FULL);
                prop_assert_eq!(got, least, "symbol {}", i);
            }
            prop_assert_eq!(weights.len(), len);
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
