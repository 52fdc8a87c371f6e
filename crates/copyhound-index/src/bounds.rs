//! Upper bounds of a pair's similarity, known before its fragments are
//! found: what ranks candidate pairs, and what tells which of them cannot
//! be among the most similar.
//!
//! A selector with a window guarantee `w` (winnowing: in any run of
//! `w + k − 1` symbols two documents share, both select a fingerprint of
//! the same hash inside the run) limits what a pair's fragments can cover
//! around each occurrence of a hash the two units share. Let a fragment's
//! side in unit `a` be the run `[s, e)` of equal symbols.
//!
//! * If the run holds a whole window (`e − s ≥ w + k − 1`), every window
//!   of `w` k-grams inside it has its minimum selected in both units: an
//!   occurrence `q` of a shared hash inside the window. For any symbol `x`
//!   of the run, the window starting at `max(s, x − k − w + 2)` lies inside
//!   the run, and its minimum `q` has `q − (w − 1) ≤ x < q + k + w − 1`.
//! * Otherwise (`e − s ≤ w + k − 2`) the fragment grew from a match `q`
//!   whose k-gram it holds, so it lies within `[q − (w − 2), q + k + w − 2)`.
//!   When base code cuts into the match's k-gram, the fragment only
//!   overlaps it: `[q − (k + w − 3), q + 2k + w − 3)`.
//!
//! So each occurrence *charges* its interval: `[q − (w − 1), q + k + w − 1)`,
//! or the wider one when its k-gram touches base code. The symbols side
//! `a` covers lie inside the charges of `a`'s occurrences of shared hashes,
//! and a pair's similarity, the mean of its two weighted coverages, is at
//! most
//!
//! ```text
//! ½ (min(1, Σ_h share_a(h)) + min(1, Σ_h share_b(h)))
//! ```
//!
//! over the hashes `h` both hold, where `share_u(h)` is the weight of the
//! charges of `u`'s occurrences of `h` over `u`'s compared weight: a value
//! per unit and hash, summed as candidate pairs are counted. Hashes held
//! by exactly the same units (a *group*: a template, the whole of a family
//! of copies) are shared by a pair all together or not at all, so a group
//! has one share per unit, the weight of the union of its charges: a
//! template's overlapping charges count once.
//!
//! Fingerprints the index left out as too common (`-m`) are never matched,
//! but a fragment can run through them. A fragment grows from a match of
//! an indexed hash, so it holds an indexed occurrence, and its side is
//! covered by the charges of the occurrences in it, indexed or left out;
//! two in a row are at most `w` apart, so their charges overlap. Each
//! indexed occurrence's charge is therefore widened over the *chains* of
//! left-out charges it overlaps or touches (left-out charges merged where
//! they overlap or touch): every symbol of a fragment lies in the widened
//! charge of an indexed occurrence in it, reached from that occurrence
//! through left-out charges alone. A left-out idiom then counts only for
//! the pairs that share a hash next to it, where adding its charges to
//! every pair of its unit made a bound of two-thirds of the unit for pairs
//! that shared a few percent (`-m 1%` over 100,000 archived files).
//!
//! Widened shares bound, but they rank badly: a hash next to a long chain
//! of idioms weighs as much as the chain. So when the index left hashes
//! out, each group also gets its *rank* share, the union of its charges
//! not widened (what the pair was seen to share), and counting sums the
//! two apart ([`HashBounds::ranks`]).
//!
//! Hashes only old units hold are not indexed and charge nothing: a
//! pair that may be listed has a new unit, and the hash each occurrence
//! above stands for is one both units of the pair hold. Hash collisions
//! (two k-grams, one 64-bit hash) are assumed away, as throughout.
//!
//! Shares are fixed-point, in 2^-20 of a unit's compared weight, rounded
//! up, so that summed and halved they never fall below the similarity the
//! fragments give. The bound is loose — it charges every occurrence the
//! whole slack a lone match could need, about three times a noise pair's
//! similarity on the labelled sets — but it is a bound: a pair it puts
//! below the least similar pair listed cannot be listed.
//!
//! With a score gap `g` (`CompareOptions::score_gap`), the symbols between
//! chained fragments count too. Such a gap starts where a fragment ends
//! and is at most `g` symbols long, and the fragment's last symbol lies in
//! a charge, so every charge reaches `g` symbols further after its
//! occurrence.
//!
//! Without a guarantee (`0 mod p`, sketches) nothing limits a fragment: the
//! same shares, taken with each document's widest gap between fingerprints
//! for `w`, still rank pairs, but bound nothing.

use rayon::prelude::*;

use crate::FingerprintIndex;
use crate::prepare::PreparedUnit;
use crate::rarity::UnitWeights;
use crate::{Document, Unit};

/// A unit's whole compared weight in the fixed point of shares.
pub(crate) const ONE: u32 = 1 << 20;

/// Charges wider than this many symbols (k and w of thousands) are not
/// kept as a bound: with rarity weights a unit's shares could then add up
/// past what the 32-bit sums of counting hold.
const MAX_CHARGE: usize = 1024;

/// A unit whose shares add up to more than this counts each side as whole,
/// so that no pair's sum can overflow 32 bits.
const MAX_UNIT_TOTAL: u64 = 1 << 31;

/// What each unit's shared hashes can cover.
#[derive(Debug, Default)]
pub(crate) struct HashBounds {
    /// For each slot of the index's unit hash lists
    /// ([`FingerprintIndex::hashes_of`] of each unit in turn) that holds
    /// the first hash of its group: the share of its unit that the unit's
    /// occurrences of the group's hashes can cover, between 1 and [`ONE`];
    /// 0 in the other slots.
    pub(crate) slots: Vec<u32>,
    /// The same slots' rank shares, charges not widened over left-out
    /// fingerprints, each at most the slot's share: empty when no charge
    /// was widened (they equal [`Self::slots`]).
    pub(crate) ranks: Vec<u32>,
    /// Units whose shares could add up past 32 bits: their shares are 1
    /// and each of their sides counts as whole.
    pub(crate) whole: Vec<bool>,
    /// Whether shares bound the similarity (the selector has a window
    /// guarantee and its charges are not too wide); otherwise they only
    /// rank pairs.
    pub(crate) valid: bool,
}

/// How far an occurrence's charge reaches, in symbols, before its k-gram
/// and after its start.
#[derive(Clone, Copy, Debug)]
struct Reach {
    before: usize,
    after: usize,
}

impl Reach {
    /// The charge of an occurrence whose k-gram is clear of base code.
    fn clear(k: usize, w: usize) -> Self {
        Self {
            before: w - 1,
            after: k + w - 1,
        }
    }

    /// The charge of an occurrence whose k-gram touches base code.
    fn through_base(k: usize, w: usize) -> Self {
        Self {
            before: (k + w).saturating_sub(3),
            after: (2 * k + w).saturating_sub(3),
        }
    }

    /// The charge reaching `gap` symbols further on: what a gap after a
    /// chained fragment can add.
    fn with_gap(self, gap: usize) -> Self {
        Self {
            after: self.after + gap,
            ..self
        }
    }

    fn width(self) -> usize {
        self.before + self.after
    }

    /// The symbols of a document of `len` symbols charged by an occurrence
    /// at `pos`.
    fn of(self, pos: u32, len: usize) -> std::ops::Range<u32> {
        let start = (pos as usize).saturating_sub(self.before);
        let end = (pos as usize + self.after).min(len);
        start as u32..end as u32
    }
}

/// The shares of every unit's groups of shared hashes: `guarantee` is the
/// selector's window, `firsts` the first hash of each hash's group (hashes
/// held by the same units, [`crate::candidates::group_firsts`]),
/// `too_common` the hashes the index left out for being in too many units
/// (ascending), `gap` the score gap.
pub(crate) fn hash_bounds(
    units: &[Unit],
    prepared: &[PreparedUnit],
    weights: &[UnitWeights],
    index: &FingerprintIndex,
    (k, guarantee, gap): (usize, Option<usize>, u32),
    (firsts, too_common): (&[u32], &[u64]),
) -> HashBounds {
    let gap = gap as usize;
    let valid = guarantee
        .is_some_and(|w| w >= 1 && Reach::through_base(k, w).with_gap(gap).width() <= MAX_CHARGE);
    let per_unit: Vec<UnitShares> = (0..units.len())
        .into_par_iter()
        .map(|u| {
            let side = UnitSide {
                unit: &units[u],
                prepared: &prepared[u],
                weights: &weights[u],
                k,
                guarantee: guarantee.filter(|_| valid),
                gap,
            };
            side.shares(index, u as u32, (firsts, too_common))
        })
        .collect();
    let ranked = per_unit.iter().any(|unit| unit.ranks.is_some());
    let mut bounds = HashBounds {
        slots: Vec::with_capacity(index.slot_count()),
        ranks: Vec::with_capacity(if ranked { index.slot_count() } else { 0 }),
        whole: Vec::with_capacity(units.len()),
        valid,
    };
    for unit in per_unit {
        if ranked {
            bounds
                .ranks
                .extend(unit.ranks.as_deref().unwrap_or(&unit.slots));
        }
        bounds.slots.extend(unit.slots);
        bounds.whole.push(unit.whole);
    }
    bounds
}

/// One unit's part of [`HashBounds`].
struct UnitShares {
    slots: Vec<u32>,
    /// `None` when no charge of the unit was widened.
    ranks: Option<Vec<u32>>,
    whole: bool,
}

/// One unit, as its shares are worked out.
struct UnitSide<'a> {
    unit: &'a Unit,
    prepared: &'a PreparedUnit,
    weights: &'a UnitWeights,
    k: usize,
    /// The window the charges assume; `None`: each document's widest gap.
    guarantee: Option<usize>,
    /// The score gap: how much further a charge reaches after its
    /// occurrence.
    gap: usize,
}

/// A charged interval: the group it counts for (the slot of the group's
/// first hash in the unit's list), its document and its symbols.
type Charge = (u32, u32, u32, u32);

impl UnitSide<'_> {
    /// The share of each of the unit's groups, in the slot of the group's
    /// first hash (0 in the others), each occurrence's charge widened over
    /// the fingerprints left out as `too_common` that it reaches (see the
    /// module docs); the rank shares, when a charge was widened; and
    /// whether the unit counts as whole.
    fn shares(
        &self,
        index: &FingerprintIndex,
        u: u32,
        (firsts, too_common): (&[u32], &[u64]),
    ) -> UnitShares {
        let hashes = index.hashes_of(u);
        let chains = self.left_out_chains(too_common);
        let mut charges: Vec<Charge> = Vec::new();
        // The charges not widened, kept only when some could be.
        let mut plain: Vec<Charge> = Vec::new();
        let chained = chains.iter().any(|c| !c.is_empty());
        let mut widening = false;
        for (i, (h, postings)) in index.runs_of(u).enumerate() {
            let first = firsts[h as usize];
            let group = if first == h {
                i
            } else {
                hashes
                    .binary_search(&first)
                    .expect("a unit holds every hash of its groups")
            };
            for p in index.postings_in(postings) {
                let charge = self.charge(group as u32, p.doc, p.pos);
                if chained {
                    plain.push(charge);
                    let wide = widened(charge, &chains[p.doc as usize]);
                    widening |= wide != charge;
                    charges.push(wide);
                } else {
                    charges.push(charge);
                }
            }
        }
        let mut slots = self.group_shares(hashes.len(), &mut charges);
        let mut ranks = widening.then(|| self.group_shares(hashes.len(), &mut plain));
        let total: u64 = slots.iter().map(|&s| u64::from(s)).sum();
        // Rank shares are at most the shares: their sum is no larger.
        let whole = total > MAX_UNIT_TOTAL;
        if whole {
            for slot in slots.iter_mut().chain(ranks.iter_mut().flatten()) {
                *slot = (*slot).min(1);
            }
        }
        UnitShares {
            slots,
            ranks,
            whole,
        }
    }

    /// The share of each group of `charges`, in the slot of its first hash
    /// among the unit's `slot_count`.
    fn group_shares(&self, slot_count: usize, charges: &mut [Charge]) -> Vec<u32> {
        let mut slots = vec![0u32; slot_count];
        for (group, charged) in self.union_weights(charges) {
            slots[group as usize] = self.share(charged);
        }
        slots
    }

    /// For each document, the charges of its fingerprints left out as
    /// `too_common`, merged where they overlap or touch: ascending runs
    /// with gaps between them.
    fn left_out_chains(&self, too_common: &[u64]) -> Vec<Vec<(u32, u32)>> {
        self.unit
            .documents
            .iter()
            .enumerate()
            .map(|(d, doc)| {
                if too_common.is_empty() {
                    return Vec::new();
                }
                let mut charged: Vec<(u32, u32)> = doc
                    .fingerprints
                    .iter()
                    .filter(|f| too_common.binary_search(&f.hash).is_ok())
                    .map(|f| {
                        let (_, _, start, end) = self.charge(0, d as u32, f.pos);
                        (start, end)
                    })
                    .collect();
                charged.sort_unstable();
                let mut chains: Vec<(u32, u32)> = Vec::with_capacity(charged.len());
                for (start, end) in charged {
                    match chains.last_mut() {
                        Some(last) if start <= last.1 => last.1 = last.1.max(end),
                        _ => chains.push((start, end)),
                    }
                }
                chains
            })
            .collect()
    }

    /// The interval an occurrence at `pos` of document `doc` charges, for
    /// `group`.
    fn charge(&self, group: u32, doc: u32, pos: u32) -> Charge {
        let d = doc as usize;
        let len = self.unit.documents[d].len();
        let w = self
            .guarantee
            .unwrap_or_else(|| widest_gap(&self.unit.documents[d]));
        let kgram_end = (pos as usize + self.k).min(len);
        let touches_base = self.prepared.documents[d]
            .base
            .as_ref()
            .is_some_and(|base| !base.is_clear(pos as usize, kgram_end));
        let reach = if touches_base {
            Reach::through_base(self.k, w)
        } else {
            Reach::clear(self.k, w)
        };
        let symbols = reach.with_gap(self.gap).of(pos, len);
        (group, doc, symbols.start, symbols.end)
    }

    /// The weight of the union of each group's `charges` (sorted here), by
    /// group.
    fn union_weights(&self, charges: &mut [Charge]) -> Vec<(u32, u64)> {
        charges.sort_unstable();
        let mut out: Vec<(u32, u64)> = Vec::new();
        for group in charges.chunk_by(|x, y| x.0 == y.0) {
            let mut weight = 0;
            // The interval being merged: document, start, end.
            let mut open: Option<(u32, u32, u32)> = None;
            for &(_, doc, start, end) in group {
                match &mut open {
                    Some((d, _, e)) if *d == doc && start <= *e => *e = (*e).max(end),
                    _ => {
                        if let Some((d, s, e)) = open {
                            weight += self.weights.sum(d, s..e);
                        }
                        open = Some((doc, start, end));
                    }
                }
            }
            if let Some((d, s, e)) = open {
                weight += self.weights.sum(d, s..e);
            }
            out.push((group[0].0, weight));
        }
        out
    }

    /// `charged` weight as a share of the unit's compared weight, rounded
    /// up, between 1 and [`ONE`].
    fn share(&self, charged: u64) -> u32 {
        let compared = self.weights.compared;
        if compared == 0 {
            return 1;
        }
        let fixed = (charged * u64::from(ONE)).div_ceil(compared);
        fixed.clamp(1, u64::from(ONE)) as u32
    }
}

/// `charge` joined with the `chains` (ascending, apart) it overlaps or
/// touches: a fragment through the occurrence may run on over left-out
/// fingerprints as far as their charges reach without a gap.
fn widened(charge: Charge, chains: &[(u32, u32)]) -> Charge {
    let (group, doc, mut start, mut end) = charge;
    let first = chains.partition_point(|&(_, chain_end)| chain_end < start);
    for &(chain_start, chain_end) in &chains[first..] {
        if chain_start > end {
            break;
        }
        start = start.min(chain_start);
        end = end.max(chain_end);
    }
    (group, doc, start, end)
}

/// The widest gap between a document's consecutive fingerprints, from its
/// start to the first and from the last to its end included: the window a
/// selection without a guarantee is ranked as if it had.
fn widest_gap(doc: &Document) -> usize {
    let len = doc.len();
    let mut previous = 0;
    let mut widest = 1;
    for f in &doc.fingerprints {
        widest = widest.max(f.pos as usize - previous);
        previous = f.pos as usize;
    }
    widest.max(len.saturating_sub(previous)).min(MAX_CHARGE / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Counted;
    use crate::prepare::prepare;
    use crate::rarity::unit_weights;
    use crate::{BaseCode, CompareOptions, MaxOccurrences, Role, UnitsElsewhere, compare};
    use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
    use proptest::prelude::*;

    /// A document made of `parts`: `(0, _, len)` is `len` symbols of
    /// noise, `(p, start, len)` a slice of `pools[p − 1]`, so that units
    /// share runs of every length.
    fn symbols(parts: &[(usize, usize, usize)], pools: &[Vec<u32>], noise: &mut u32) -> Vec<u32> {
        let mut out = Vec::new();
        for &(pool, start, len) in parts {
            if pool == 0 {
                for _ in 0..len {
                    *noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    out.push(100 + (*noise >> 16) % 7);
                }
            } else {
                let source = &pools[pool - 1];
                let start = start % source.len();
                out.extend(&source[start..(start + len).min(source.len())]);
            }
        }
        out
    }

    type Parts = Vec<(usize, usize, usize)>;

    fn parts() -> impl Strategy<Value = Parts> {
        prop::collection::vec((0usize..4, 0usize..60, 0usize..40), 0..5)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Every pair's similarity is at most the bound its shared hashes'
        /// shares give (their charges widened over left-out prints), with base code,
        /// several documents per unit, rarity weights, a max-occurrences
        /// limit, a score gap, old units (whose hashes no new unit holds
        /// are not indexed) and plain or robust winnowing at any k and w.
        #[test]
        fn shares_bound_every_pairs_similarity(
            pools in prop::collection::vec(prop::collection::vec(0u32..8, 60), 3),
            units in prop::collection::vec(prop::collection::vec(parts(), 1..3), 2..7),
            template in parts(),
            (k, w, robust) in (1usize..7, 1usize..6, any::<bool>()),
            (rarity, with_base, max_units) in (any::<bool>(), any::<bool>(), prop::option::of(2usize..5)),
            gap in prop_oneof![Just(0u32), 1u32..10],
            old in prop::collection::vec(prop::bool::weighted(0.3), 7),
        ) {
            let hasher = KGramHasher::new(k, 7);
            let scheme = Scheme::new(hasher.clone(), if robust { Winnowing::robust(w) } else { Winnowing::new(w) });
            let mut noise = 1;
            let document = |name: &str, symbols: Vec<u32>| {
                let mut normalized = NormalizedDocument::new();
                for (i, s) in symbols.into_iter().enumerate() {
                    normalized.push(s, i..i + 1);
                }
                Document::fingerprinted(name, normalized, &scheme)
            };
            let units: Vec<Unit> = units
                .iter()
                .enumerate()
                .map(|(u, docs)| {
                    let documents = docs.iter().map(|d| document("d", symbols(d, &pools, &mut noise))).collect();
                    let unit = Unit::new(format!("u{u}"), documents);
                    if old[u] { unit.with_role(Role::Old) } else { unit }
                })
                .collect();
            let base = if with_base {
                let template = document("t", symbols(&template, &pools, &mut noise));
                BaseCode::new(&scheme, [&template.into_normalized()])
            } else {
                BaseCode::none()
            };
            let options = CompareOptions {
                max_occurrences: max_units.map_or(MaxOccurrences::Unlimited, MaxOccurrences::Count),
                rarity_weighting: rarity,
                score_gap: gap,
                ..CompareOptions::new(scheme.clone())
            };
            let result = compare(&units, &base, &options).unwrap();
            // What the comparison worked from, again.
            let max_units = options.max_occurrences.limit(units.len());
            let prepared = prepare(&units, &base, &hasher);
            let none_elsewhere = UnitsElsewhere::default();
            let Counted { index, shared_by_many, too_common } =
                FingerprintIndex::build_counting(&units, &base, max_units, &none_elsewhere);
            let counted = base.is_empty().then_some(&shared_by_many[..]);
            let weights = unit_weights(&units, &prepared, k, rarity, counted, &none_elsewhere);
            let firsts = crate::candidates::group_firsts(&index);
            let bounds = hash_bounds(&units, &prepared, &weights, &index, (k, Some(w), gap), (&firsts, &too_common));
            prop_assert!(bounds.valid);
            let side = |u: usize, other: u32| -> u64 {
                if bounds.whole[u] {
                    return u64::from(ONE);
                }
                let slots = index.hash_slots(u as u32);
                let shared: u64 = slots
                    .zip(index.hashes_of(u as u32))
                    .filter(|&(_, &h)| index.units_of(h).contains(&other))
                    .map(|(slot, _)| u64::from(bounds.slots[slot]))
                    .sum();
                shared.min(u64::from(ONE))
            };
            for pair in &result.pairs {
                let bound = side(pair.a, pair.b as u32) + side(pair.b, pair.a as u32);
                let bound = bound as f64 / f64::from(2 * ONE);
                prop_assert!(pair.similarity <= bound, "{:?} above its bound {}", pair, bound);
            }
            // Rank shares are the shares of charges not widened: kept only
            // when something was left out, never above the shares.
            let plain = hash_bounds(&units, &prepared, &weights, &index, (k, Some(w), gap), (&firsts, &[]));
            prop_assert!(plain.ranks.is_empty());
            if bounds.ranks.is_empty() {
                prop_assert_eq!(&bounds.slots, &plain.slots);
            } else {
                prop_assert_eq!(bounds.ranks.len(), bounds.slots.len());
                for u in (0..units.len()).filter(|&u| !bounds.whole[u]) {
                    let slots = index.hash_slots(u as u32);
                    prop_assert_eq!(&bounds.ranks[slots.clone()], &plain.slots[slots.clone()]);
                    for (rank, share) in bounds.ranks[slots.clone()].iter().zip(&bounds.slots[slots]) {
                        prop_assert!(rank <= share);
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Runs next to base code both units hold, found from matches
        /// whose k-gram starts in the base code and often too short to
        /// hold a whole window (w up to k + 5), stay within the bound.
        #[test]
        fn runs_found_through_base_code_stay_within_their_match_charge(
            template in prop::collection::vec(0u32..3, 2..6),
            run in prop::collection::vec(4u32..9, 2..12),
            noise in prop::collection::vec((prop::collection::vec(9u32..20, 0..6), prop::collection::vec(9u32..20, 0..6)), 2),
            (k, w) in (2usize..5).prop_flat_map(|k| (Just(k), 1..k + 6)),
        ) {
            let hasher = KGramHasher::new(k, 3);
            let scheme = Scheme::new(hasher.clone(), Winnowing::robust(w));
            let units: Vec<Unit> = noise
                .iter()
                .enumerate()
                .map(|(u, (before, after))| {
                    let symbols: Vec<u32> = [before, &template, &run, after].into_iter().flatten().copied().collect();
                    let mut normalized = NormalizedDocument::new();
                    for (i, &s) in symbols.iter().enumerate() {
                        normalized.push(s, i..i + 1);
                    }
                    Unit::new(format!("u{u}"), vec![Document::fingerprinted("d", normalized, &scheme)])
                })
                .collect();
            let mut base_doc = NormalizedDocument::new();
            for (i, &s) in template.iter().enumerate() {
                base_doc.push(s, i..i + 1);
            }
            let base = BaseCode::new(&scheme, [&base_doc]);
            let options = CompareOptions::new(scheme.clone());
            let result = compare(&units, &base, &options).unwrap();
            let prepared = prepare(&units, &base, &hasher);
            let index = FingerprintIndex::build(&units, &base, usize::MAX);
            let weights = unit_weights(&units, &prepared, k, false, None, &UnitsElsewhere::default());
            let firsts = crate::candidates::group_firsts(&index);
            let bounds = hash_bounds(&units, &prepared, &weights, &index, (k, Some(w), 0), (&firsts, &[]));
            for pair in &result.pairs {
                let side = |u: usize| {
                    let shares: u64 = bounds.slots[index.hash_slots(u as u32)].iter().map(|&s| u64::from(s)).sum();
                    shares.min(u64::from(ONE))
                };
                let bound = (side(pair.a) + side(pair.b)) as f64 / f64::from(2 * ONE);
                prop_assert!(pair.similarity <= bound, "{:?} above its bound {}", pair, bound);
            }
        }
    }

    #[test]
    fn charges_wider_than_a_bound_can_hold_only_rank() {
        let hasher = KGramHasher::new(3, 0);
        let units = [Unit::new("a", Vec::new()), Unit::new("b", Vec::new())];
        let prepared = prepare(&units, &BaseCode::none(), &hasher);
        let weights = unit_weights(
            &units,
            &prepared,
            3,
            false,
            None,
            &UnitsElsewhere::default(),
        );
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        let bounds = |guarantee| {
            hash_bounds(
                &units,
                &prepared,
                &weights,
                &index,
                (3, guarantee, 0),
                (&[], &[]),
            )
        };
        assert!(bounds(Some(4)).valid);
        assert!(!bounds(Some(MAX_CHARGE)).valid);
        assert!(!bounds(None).valid);
    }
}
