//! One side of a pair's similarity bound, worked out from a unit's
//! fingerprints alone: what a caller that keeps units outside the
//! comparison (an archive of earlier batches) needs to tell, before it
//! reads a unit again, whether any pair of that unit can be listed.
//!
//! It is the bound of module `bounds` for a comparison without base code,
//! with each hash its own group: an occurrence at `q` of a hash both units
//! hold charges the symbols `[q − (w − 1), q + k + w − 1)` of its document
//! (`w` the selector's window guarantee), a unit's share of a hash is the
//! weight of the union of its occurrences' charges over the unit's
//! compared weight, and a pair's similarity is at most
//!
//! ```text
//! ½ (min(1, Σ_h share_a(h) + unindexed_a) + min(1, Σ_h share_b(h) + unindexed_b))
//! ```
//!
//! over the hashes `h` both hold that the comparison indexes, where
//! `unindexed_u` is the share of the charges of `u`'s fingerprints held by
//! more units than the max-occurrences limit allows (a fragment can run
//! through them). Summing a hash at a time rather than a group at a time
//! only loosens the bound. Symbol weights are the comparison's: rarity
//! weights from how many units of the whole comparison (the compared ones
//! and those elsewhere) hold each hash, which the caller gives.

use copyhound_fingerprint::Fingerprint;

use crate::rarity::{FULL, symbol_weights, weight};

/// A unit's whole compared weight, in the fixed point of shares.
pub const WHOLE_SHARE: u32 = 1 << 20;

/// A document as its shares need it: its length in symbols and its
/// fingerprints in position order.
#[derive(Clone, Copy, Debug)]
pub struct PrintedDocument<'a> {
    /// How many symbols it has.
    pub len: usize,
    /// Its selected fingerprints, in position order.
    pub fingerprints: &'a [Fingerprint],
}

/// What the comparison a unit's shares bound is run with.
#[derive(Clone, Copy, Debug)]
pub struct ShareRules {
    /// The k-gram length.
    pub k: usize,
    /// The selector's window guarantee (at least 1).
    pub window: usize,
    /// How many units the comparison counts: compared and elsewhere.
    pub units: usize,
    /// Whether symbols are weighted by rarity.
    pub rarity_weighting: bool,
    /// Hashes held by more units than this are not indexed.
    pub max_units: usize,
}

/// A unit's shares: for each distinct hash it holds that the comparison
/// indexes, how much of the unit its occurrences can cover.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitShares {
    /// The indexed hashes, ascending.
    pub hashes: Vec<u64>,
    /// Each hash's share, in `1..=WHOLE_SHARE`, rounded up.
    pub shares: Vec<u32>,
    /// The share its fingerprints held by more than `max_units` units can
    /// cover, rounded up (0 when there are none).
    pub unindexed: u32,
}

impl UnitShares {
    /// The shares of the unit of `documents` under `rules`; `holders`
    /// gives how many units of the comparison hold a hash of the unit (the
    /// unit itself included).
    pub fn of(
        documents: &[PrintedDocument],
        rules: &ShareRules,
        holders: impl Fn(u64) -> usize,
    ) -> Self {
        let weighted = rules.rarity_weighting && rules.units > 2;
        let weights: Vec<Vec<u16>> = documents
            .iter()
            .map(|d| {
                if weighted {
                    symbol_weights(d.len, d.fingerprints, rules.k, |h| {
                        weight(holders(h), rules.units)
                    })
                } else {
                    vec![FULL; d.len]
                }
            })
            .collect();
        let sums: Vec<Vec<u64>> = weights.iter().map(|w| sums_before(w)).collect();
        let compared: u64 = sums
            .iter()
            .zip(documents)
            .filter(|(_, d)| d.len >= rules.k)
            .map(|(s, _)| s[s.len() - 1])
            .sum();
        // (hash, document, charged start, end), sorted by hash.
        let mut charges: Vec<(u64, u32, u32, u32)> = Vec::new();
        let mut dropped: Vec<(u64, u32, u32, u32)> = Vec::new();
        for (d, doc) in documents.iter().enumerate() {
            for f in doc.fingerprints {
                let start = (f.pos as usize).saturating_sub(rules.window - 1);
                let end = (f.pos as usize + rules.k + rules.window - 1).min(doc.len);
                let charge = (f.hash, d as u32, start as u32, end as u32);
                if holders(f.hash) > rules.max_units {
                    dropped.push((0, charge.1, charge.2, charge.3));
                } else {
                    charges.push(charge);
                }
            }
        }
        let share = |charged: u64| -> u32 {
            if compared == 0 {
                return 1;
            }
            let fixed = (charged * u64::from(WHOLE_SHARE)).div_ceil(compared);
            fixed.clamp(1, u64::from(WHOLE_SHARE)) as u32
        };
        let mut out = Self::default();
        for (hash, charged) in union_weights(&mut charges, &sums) {
            out.hashes.push(hash);
            out.shares.push(share(charged));
        }
        out.unindexed = union_weights(&mut dropped, &sums)
            .first()
            .map_or(0, |&(_, charged)| share(charged));
        out
    }

    /// The share of `hash`, if the unit holds it and it is indexed.
    pub fn share(&self, hash: u64) -> Option<u32> {
        self.hashes
            .binary_search(&hash)
            .ok()
            .map(|i| self.shares[i])
    }
}

/// The highest similarity a pair can have whose sides' shares of the
/// hashes they both hold sum to `a` and `b`, unindexed shares included.
pub fn pair_bound(a: u64, b: u64) -> f64 {
    let whole = u64::from(WHOLE_SHARE);
    (a.min(whole) + b.min(whole)) as f64 / (2 * whole) as f64
}

/// 0, then the running sums of `weights`.
fn sums_before(weights: &[u16]) -> Vec<u64> {
    let mut sums = Vec::with_capacity(weights.len() + 1);
    let mut sum = 0u64;
    sums.push(0);
    for &w in weights {
        sum += u64::from(w);
        sums.push(sum);
    }
    sums
}

/// The weight of the union of each hash's `charges` (sorted here), by
/// hash, ascending.
fn union_weights(charges: &mut [(u64, u32, u32, u32)], sums: &[Vec<u64>]) -> Vec<(u64, u64)> {
    charges.sort_unstable();
    let weight = |(doc, start, end): (u32, u32, u32)| {
        let s = &sums[doc as usize];
        s[end as usize] - s[start as usize]
    };
    let mut out = Vec::new();
    for run in charges.chunk_by(|x, y| x.0 == y.0) {
        let mut total = 0;
        let mut open: Option<(u32, u32, u32)> = None;
        for &(_, doc, start, end) in run {
            match &mut open {
                Some((d, _, e)) if *d == doc && start <= *e => *e = (*e).max(end),
                _ => {
                    total += open.map_or(0, weight);
                    open = Some((doc, start, end));
                }
            }
        }
        total += open.map_or(0, weight);
        out.push((run[0].0, total));
    }
    out
}
