//! Candidate pairs: the unit pairs that share at least one indexed
//! fingerprint — found without visiting all pairs (winnowing §5.2) — each
//! with an upper bound of its similarity (module `bounds`).
//!
//! *Counting.* For each unit `a`, the unit lists of its hashes are walked
//! and a dense accumulator is bumped for every later unit `b`, by the
//! shares of the hash in `a` and in `b` packed in one `u64`; only pairs
//! that share a hash are ever touched. The sums are the two sides of the
//! bound.
//!
//! *Groups.* Hashes held by exactly the same units — a template every copy
//! keeps, all of a family of identical files — are counted once, with
//! their shares summed: 5,000 identical files cost 12.5 million bumps, not
//! that many for each of their hashes.
//!
//! *The work budget.* A group is charged what counting walks in it: from
//! each unit it is walked from, one step per later unit of the group. All
//! units are walked from in a batch without old units, so a group in `n`
//! units costs `n·(n−1)/2`, and a few idioms common to most of a large
//! batch would make counting quadratic. Old units are not walked from
//! unless a new unit comes after them: with an archive's or `--old`'s units
//! after the batch, a group of `m` new and `o` old units costs the pairs
//! that may be paired, `m·(m−1)/2 + m·o`, never its `o·(o−1)/2` old pairs.
//! Counting has a budget proportional to the postings of shared hashes,
//! those only old units hold and the index leaves out included
//! ([`WORK_PER_POSTING`]): a constant factor of the work of building the
//! index, which sorts every unit's fingerprints alike. Not one proportional
//! to the postings walked from: that would shrink with the batch while the
//! groups' charges grow with the archive (300 new units against 100,000
//! archived ones). When the budget cannot pay for every group, the most
//! common groups — the least telling of copying, and the lightest under
//! rarity weights — are not counted. Their shares are not forgotten: each
//! unit's uncounted shares (its *slack*) are added to the bound of its
//! pairs, and a pair that shares only uncounted groups, never found, is at
//! most as similar as the two largest slacks allow; the comparison says so.
//! Small batches and families of copies never reach the budget.
//!
//! *The kept candidates.* Each rayon thread keeps the pairs of highest
//! rank in a [`Best`] buffer of at most twice the cap. The rank is the
//! bound without the slack — what the pair was seen to share — so that the
//! length of a unit never decides; ties go by unit names, as the listing's
//! order does. When the index left hashes out, shares widened over them
//! bound but do not rank ([`HashBounds::ranks`]): counting then sums rank
//! shares beside the shares, both halves of one pair in one 16-byte
//! [`Tally`], so that a bump still touches one cache line. Memory is the index plus one accumulator array per thread
//! plus the cap, however many pairs share something; of the pairs a buffer
//! drops, only a histogram of their bounds and the highest one are kept,
//! which say how many unscored pairs could still have been listed.
//!
//! *Later passes.* When those could, counting runs again ([`Selection`]):
//! only pairs after the ones kept before, and whose bound can still be
//! listed, are kept, the best by bound.

use std::cmp::Ordering;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::best::{Best, Dropped, KeptBy};
use crate::bounds::{HashBounds, ONE};
use crate::{FingerprintIndex, Role, Unit};

/// Two units that share fingerprints, and what is known of their
/// similarity before their fragments are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CandidatePair {
    /// The first unit's index (the smaller).
    pub(crate) a: u32,
    /// The second unit's index.
    pub(crate) b: u32,
    /// The two sides' summed shares of the groups counted, not capped at
    /// a whole unit each: the order candidates are kept and scored in.
    /// Uncapped, a pair sharing more ranks higher even when the bounds of
    /// both reach 1.
    pub(crate) rank: u32,
    /// The bound with each side's slack, in `0..=WHOLE_PAIR`: the pair's
    /// similarity is at most `bound / WHOLE_PAIR`.
    pub(crate) bound: u32,
}

/// The sum of the two sides' largest shares: a pair's similarity bound.
pub(crate) const WHOLE_PAIR: u32 = 2 * ONE;

/// The similarity a pair's bound or rank stands for.
pub(crate) fn as_similarity(bound: u32) -> f64 {
    f64::from(bound) / f64::from(WHOLE_PAIR)
}

/// Who may be paired with whom: never two old submissions, never two units
/// of one group.
#[derive(Debug)]
pub(crate) struct PairingRules {
    old: Vec<bool>,
    /// Group ids; `u32::MAX` for no group.
    groups: Vec<u32>,
    /// The highest index of a unit that is not old, if any.
    last_new: Option<u32>,
}

impl PairingRules {
    /// The rules for `units`.
    pub(crate) fn new(units: &[Unit]) -> Self {
        let mut names: Vec<&str> = units.iter().filter_map(|u| u.group.as_deref()).collect();
        names.sort_unstable();
        names.dedup();
        let groups = units
            .iter()
            .map(|u| {
                u.group.as_deref().map_or(u32::MAX, |g| {
                    names.binary_search(&g).expect("every group was collected") as u32
                })
            })
            .collect();
        let old: Vec<bool> = units.iter().map(|u| u.role == Role::Old).collect();
        let last_new = old.iter().rposition(|&o| !o).map(|i| i as u32);
        Self {
            old,
            groups,
            last_new,
        }
    }

    /// Whether unit `u` is old.
    fn is_old(&self, u: u32) -> bool {
        self.old[u as usize]
    }

    /// Whether counting walks from unit `a`: it is new, or an old unit with
    /// a new one after it; an old unit after every new one has no later
    /// unit it may be paired with.
    fn walks_from(&self, a: u32) -> bool {
        self.last_new.is_some_and(|last| a <= last)
    }

    /// The steps counting walks in a group held by `units` (ascending):
    /// from each unit it walks from — a prefix of them — one per later
    /// unit.
    fn walked_steps(&self, units: &[u32]) -> u64 {
        let n = units.len() as u64;
        let from = units.partition_point(|&u| self.walks_from(u)) as u64;
        from * n.saturating_sub(1) - from * from.saturating_sub(1) / 2
    }

    /// Whether units `a` and `b` may be paired.
    pub(crate) fn allows(&self, a: u32, b: u32) -> bool {
        a != b && !(self.is_old(a) && self.is_old(b)) && !self.same_group(a, b)
    }

    /// Whether units `a` and `b` are of one group.
    #[inline]
    fn same_group(&self, a: u32, b: u32) -> bool {
        let group = self.groups[a as usize];
        group != u32::MAX && group == self.groups[b as usize]
    }
}

/// The order pairs are listed in among equals: by the names of their
/// units, then by their indices, each pair's units taken name first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameOrder<'a> {
    /// Each unit's rank among the distinct unit names.
    pub(crate) name_rank: &'a [u32],
}

impl NameOrder<'_> {
    /// The key pairs `(a, b)` are ordered by (lower first).
    pub(crate) fn key(self, a: u32, b: u32) -> (u64, u64) {
        let rank = |u: u32| self.name_rank[u as usize];
        let (x, y) = if (rank(b), b) < (rank(a), a) {
            (b, a)
        } else {
            (a, b)
        };
        let pack = |high: u32, low: u32| u64::from(high) << 32 | u64::from(low);
        (pack(rank(x), rank(y)), pack(x, y))
    }

    /// `x` before `y`: higher `value` first, then by names.
    fn by(
        self,
        value: impl Fn(&CandidatePair) -> u32,
        x: &CandidatePair,
        y: &CandidatePair,
    ) -> Ordering {
        value(y)
            .cmp(&value(x))
            .then_with(|| self.key(x.a, x.b).cmp(&self.key(y.a, y.b)))
    }

    /// `x` before `y` in rank order.
    pub(crate) fn by_rank(self, x: &CandidatePair, y: &CandidatePair) -> Ordering {
        self.by(|c| c.rank, x, y)
    }

    /// `x` before `y` in bound order.
    pub(crate) fn by_bound(self, x: &CandidatePair, y: &CandidatePair) -> Ordering {
        self.by(|c| c.bound, x, y)
    }
}

/// The result of candidate generation.
#[derive(Debug, Default)]
pub(crate) struct Candidates {
    /// The kept pairs, by unit indices `(a, b)`.
    pub(crate) pairs: Vec<CandidatePair>,
    /// Pairs found sharing a counted group (at least `pairs.len()`).
    pub(crate) qualified: usize,
    /// What the cap left out.
    pub(crate) dropped: Dropped,
    /// The worst pair kept, in the order of the pass, when the cap left
    /// any out.
    pub(crate) last_kept: Option<CandidatePair>,
    /// Groups in more units than this were not counted (`usize::MAX`:
    /// every group was).
    pub(crate) counted_units: usize,
    /// The highest bound a pair that shares no counted group can have.
    pub(crate) uncounted_bound: u32,
}

/// Counter bumps allowed per posting of the index when counting shared
/// groups, and the least budget whatever the index size.
const WORK_PER_POSTING: u64 = 64;
const MIN_WORK: u64 = 100_000_000;

/// Which pairs a counting pass keeps, and by what.
#[derive(Clone, Copy)]
pub(crate) struct Selection<'s> {
    /// The order the `cap` best are kept in.
    pub(crate) by: KeptBy,
    /// Only pairs after each of these, in its order: those an earlier pass
    /// kept are not kept again.
    pub(crate) after: &'s [(KeptBy, CandidatePair)],
    /// Only pairs this admits (`None`: every pair).
    pub(crate) admits: Option<&'s (dyn Fn(&CandidatePair) -> bool + Sync)>,
}

impl Selection<'_> {
    /// The first pass: every pair, by rank.
    pub(crate) const FIRST: Selection<'static> = Selection {
        by: KeptBy::Rank,
        after: &[],
        admits: None,
    };

    fn admits(&self, pair: &CandidatePair, order: NameOrder<'_>) -> bool {
        self.after
            .iter()
            .all(|(by, last)| by.cmp(order, pair, last) == Ordering::Greater)
            && self.admits.is_none_or(|admits| admits(pair))
    }
}

/// The pairs allowed by `rules` that share a counted group of `index`,
/// with their bounds from `bounds`; of those `selection` admits, the `cap`
/// best in its order are kept.
pub(crate) fn candidate_pairs(
    (index, firsts): (&FingerprintIndex, &[u32]),
    bounds: &HashBounds,
    rules: &PairingRules,
    order: NameOrder<'_>,
    (cap, selection): (usize, Selection<'_>),
) -> Candidates {
    let stats = index.stats();
    let postings = stats.postings + stats.old_only_postings;
    let budget = MIN_WORK.max(WORK_PER_POSTING * postings as u64);
    candidates_within(
        (index, firsts),
        bounds,
        (rules, order),
        (cap, selection),
        budget,
    )
}

/// [`candidate_pairs`] with a work budget of `budget` bumps.
fn candidates_within(
    (index, firsts): (&FingerprintIndex, &[u32]),
    bounds: &HashBounds,
    (rules, order): (&PairingRules, NameOrder<'_>),
    (cap, selection): (usize, Selection<'_>),
    budget: u64,
) -> Candidates {
    let pairing = Pairing::new((index, firsts), bounds, rules, budget);
    if pairing.run_ranks.is_empty() {
        count_all::<u64>(index, &pairing, (rules, order), (cap, selection))
    } else {
        count_all::<Ranked>(index, &pairing, (rules, order), (cap, selection))
    }
}

/// Counts every unit's pairs with sums of kind `T`.
fn count_all<T: Tally>(
    index: &FingerprintIndex,
    pairing: &Pairing<'_>,
    (rules, order): (&PairingRules, NameOrder<'_>),
    (cap, selection): (usize, Selection<'_>),
) -> Candidates {
    let unit_count = index.unit_count();
    // One worker per thread, made when the thread first counts: a fold
    // would make one per piece rayon splits the units into, each with its
    // own buffer of up to twice the cap, most of them alive at once.
    let workers: Vec<Mutex<Option<Worker<T>>>> = (0..rayon::current_num_threads())
        .map(|_| Mutex::new(None))
        .collect();
    (0..unit_count as u32).into_par_iter().for_each(|a| {
        let thread = rayon::current_thread_index().unwrap_or(0) % workers.len();
        let mut worker = workers[thread].lock().expect("no worker panics");
        worker
            .get_or_insert_with(|| Worker::new(unit_count, Best::new(cap, selection.by)))
            .count_from(index, pairing, (rules, &selection), order, a);
    });
    let mut best = Best::new(cap, selection.by);
    let mut qualified = 0;
    for worker in workers {
        if let Some(worker) = worker.into_inner().expect("no worker panics") {
            best.take_all(worker.best, order);
            qualified += worker.qualified;
        }
    }
    let (pairs, dropped, last_kept) = best.into_unit_order(order);
    Candidates {
        pairs,
        qualified,
        dropped,
        last_kept,
        counted_units: pairing.limit,
        uncounted_bound: pairing.uncounted_bound(),
    }
}

/// What counting reads: each unit's share of each group, which groups are
/// counted, and what each unit leaves uncounted.
struct Pairing<'b> {
    /// The shares of each slot of the index's unit hash lists
    /// ([`HashBounds::slots`]): non-zero only in a group's first slot,
    /// which is walked when the group is in at most `limit` units.
    bounds: &'b HashBounds,
    /// Per unit of every hash's unit list ([`FingerprintIndex::run_units`]):
    /// that unit's share of the hash's group.
    run_shares: Vec<u32>,
    /// The same for rank shares ([`HashBounds::ranks`]); empty when they
    /// are the shares.
    run_ranks: Vec<u32>,
    /// Per unit, what a bound needs of it, in one word so that counting
    /// reads one per pair: its *slack* — the shares of its uncounted
    /// groups, at most `ONE` — with [`WHOLE_SIDE`] set when its side
    /// counts as whole.
    sides: Vec<u32>,
    /// Groups in more units than this are not counted.
    limit: usize,
}

impl<'b> Pairing<'b> {
    fn new(
        (index, firsts): (&FingerprintIndex, &[u32]),
        bounds: &'b HashBounds,
        rules: &PairingRules,
        budget: u64,
    ) -> Self {
        let limit = limit_within(index, firsts, rules, budget);
        let unit_count = index.unit_count() as u32;
        // A unit's groups left uncounted are its slack.
        let sides: Vec<u32> = (0..unit_count)
            .into_par_iter()
            .map(|u| {
                let shares = &bounds.slots[index.hash_slots(u)];
                let uncounted = index
                    .hashes_of(u)
                    .iter()
                    .zip(shares)
                    .filter(|&(&h, _)| firsts[h as usize] == h && index.units_of(h).len() > limit)
                    .fold(0u32, |sum, (_, &share)| sum.saturating_add(share));
                let whole = if bounds.whole[u as usize] {
                    WHOLE_SIDE
                } else {
                    0
                };
                uncounted.min(ONE) | whole
            })
            .collect();
        let per_run = |slots: &[u32]| -> Vec<u32> {
            if slots.is_empty() {
                return Vec::new();
            }
            index
                .run_slots()
                .par_iter()
                .map(|&slot| slots[slot as usize])
                .collect()
        };
        Self {
            bounds,
            run_shares: per_run(&bounds.slots),
            run_ranks: per_run(&bounds.ranks),
            sides,
            limit,
        }
    }

    /// The candidate `(a, b)` with the summed shares of its counted groups,
    /// their summed rank shares, and their units' [`Self::sides`].
    #[inline]
    fn candidate(
        &self,
        (a, side_a): (u32, u32),
        b: u32,
        [(in_a, in_b), (rank_a, rank_b)]: [(u32, u32); 2],
    ) -> CandidatePair {
        let side_b = self.sides[b as usize];
        // Each side's sum is below 2^31 (see `bounds`).
        let rank = uncapped(side_a, rank_a) + uncapped(side_b, rank_b);
        let bound = if self.bounds.valid {
            capped(side_a, in_a.saturating_add(side_a & !WHOLE_SIDE))
                + capped(side_b, in_b.saturating_add(side_b & !WHOLE_SIDE))
        } else {
            WHOLE_PAIR
        };
        CandidatePair { a, b, rank, bound }
    }

    /// The highest bound of a pair that shares no counted group: the two
    /// largest slacks.
    fn uncounted_bound(&self) -> u32 {
        if self.limit == usize::MAX {
            // Every shared indexed hash was counted, and a fragment starts
            // only from one.
            return 0;
        }
        if !self.bounds.valid {
            return WHOLE_PAIR;
        }
        let mut largest = [0u32; 2];
        for &word in &self.sides {
            let side = capped(word, word & !WHOLE_SIDE);
            if side > largest[0] {
                largest = [side, largest[0]];
            } else if side > largest[1] {
                largest[1] = side;
            }
        }
        largest[0] + largest[1]
    }
}

/// Set in a unit's [`Pairing::sides`] word when its side counts as whole.
const WHOLE_SIDE: u32 = 1 << 31;

/// A side of a pair's rank: the unit's summed `shares`, or `ONE` when its
/// `side` word counts it as whole.
#[inline]
fn uncapped(side: u32, shares: u32) -> u32 {
    if side & WHOLE_SIDE == 0 { shares } else { ONE }
}

/// A side of a pair's bound: [`uncapped`], at most `ONE`.
#[inline]
fn capped(side: u32, shares: u32) -> u32 {
    uncapped(side, shares).min(ONE)
}

/// For each hash id, the first (smallest) hash id held by exactly the same
/// units: the hashes of a group are shared by a pair all or none.
pub(crate) fn group_firsts(index: &FingerprintIndex) -> Vec<u32> {
    let hashes = index.hash_count() as u32;
    let mut keyed: Vec<(u64, u32)> = (0..hashes)
        .into_par_iter()
        .map(|h| (list_key(index.units_of(h)), h))
        .collect();
    keyed.par_sort_unstable();
    let mut firsts: Vec<u32> = (0..hashes).collect();
    let mut in_run: Vec<u32> = Vec::new();
    for run in keyed.chunk_by(|x, y| x.0 == y.0) {
        // Almost always one list per key; different lists sharing a key
        // are told apart here. Ids ascend within a key: the first is the
        // smallest.
        in_run.clear();
        for &(_, h) in run {
            let units = index.units_of(h);
            match in_run.iter().find(|&&f| index.units_of(f) == units) {
                Some(&first) => firsts[h as usize] = first,
                None => in_run.push(h),
            }
        }
    }
    firsts
}

/// A 64-bit digest of a unit list.
fn list_key(units: &[u32]) -> u64 {
    units.iter().fold(units.len() as u64, |key, &u| {
        let mixed = (key ^ u64::from(u)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        mixed ^ (mixed >> 29)
    })
}

/// The largest number of units a counted group may be in, such that
/// counting every group up to it under `rules` walks at most `budget`
/// steps (`usize::MAX` when that pays for every group, never below 2).
fn limit_within(
    index: &FingerprintIndex,
    firsts: &[u32],
    rules: &PairingRules,
    budget: u64,
) -> usize {
    // Per number of units, cheapest first: whether a group is in that many
    // units, and what walking all of them costs.
    let mut by_units: Vec<(bool, u64)> = Vec::new();
    for (h, &first) in firsts.iter().enumerate() {
        if first != h as u32 {
            continue;
        }
        let units = index.units_of(first);
        if by_units.len() <= units.len() {
            by_units.resize(units.len() + 1, (false, 0));
        }
        let (held, cost) = &mut by_units[units.len()];
        *held = true;
        *cost = cost.saturating_add(rules.walked_steps(units));
    }
    let mut spent: u64 = 0;
    let mut counted = 2;
    for (n, &(_, cost)) in by_units.iter().enumerate().filter(|(_, g)| g.0) {
        spent = spent.saturating_add(cost);
        if spent > budget {
            return counted;
        }
        counted = counted.max(n);
    }
    usize::MAX
}

/// What counting sums per pair: the two sides' shares, and their rank
/// shares when those differ ([`HashBounds::ranks`]).
trait Tally: Copy + Default + Send {
    /// Whether rank shares are summed apart.
    const RANKED: bool;
    /// What one shared group adds: the shares of the unit counted from and
    /// of the other, each `(share, rank share)`.
    fn of(from: (u32, u32), other: (u32, u32)) -> Self;
    fn is_zero(self) -> bool;
    fn add(&mut self, bump: Self);
    /// `[(share from, share other), (rank from, rank other)]`.
    fn sides(self) -> [(u32, u32); 2];
}

/// Shares packed in one word, the unit counted from in the low half: each
/// side adds up to less than 2^31, so neither half overflows into the
/// other. They rank too.
impl Tally for u64 {
    const RANKED: bool = false;

    #[inline]
    fn of(from: (u32, u32), other: (u32, u32)) -> Self {
        u64::from(from.0) | u64::from(other.0) << 32
    }

    #[inline]
    fn is_zero(self) -> bool {
        self == 0
    }

    #[inline]
    fn add(&mut self, bump: Self) {
        *self += bump;
    }

    #[inline]
    fn sides(self) -> [(u32, u32); 2] {
        let sides = (self as u32, (self >> 32) as u32);
        [sides, sides]
    }
}

/// Shares and rank shares, each packed as [`u64`]'s, in one 16-byte
/// aligned slot.
#[derive(Clone, Copy, Default)]
#[repr(align(16))]
struct Ranked {
    shares: u64,
    ranks: u64,
}

impl Tally for Ranked {
    const RANKED: bool = true;

    #[inline]
    fn of(from: (u32, u32), other: (u32, u32)) -> Self {
        Self {
            shares: u64::of(from, other),
            ranks: u64::of((from.1, 0), (other.1, 0)),
        }
    }

    #[inline]
    fn is_zero(self) -> bool {
        // Shares are at least 1 where a group is counted.
        self.shares == 0
    }

    #[inline]
    fn add(&mut self, bump: Self) {
        self.shares += bump.shares;
        self.ranks += bump.ranks;
    }

    #[inline]
    fn sides(self) -> [(u32, u32); 2] {
        [self.shares.sides()[0], self.ranks.sides()[0]]
    }
}

/// The counting state of one rayon thread.
struct Worker<T> {
    /// Per unit, the two sides' summed shares with the unit counted from.
    sums: Vec<T>,
    /// The units whose sum is not 0, in `touched[..touched_len]`: one
    /// slot per unit, so that each bump may write its unit unconditionally
    /// and only count it when it is new — no branch to mispredict in the
    /// loop that counting spends most of its time in.
    touched: Vec<u32>,
    touched_len: usize,
    best: Best,
    qualified: usize,
}

impl<T: Tally> Worker<T> {
    fn new(unit_count: usize, best: Best) -> Self {
        Self {
            sums: vec![T::default(); unit_count],
            touched: vec![0; unit_count],
            touched_len: 0,
            best,
            qualified: 0,
        }
    }

    /// Adds `shares` to unit `b`'s sum.
    #[inline]
    fn bump(&mut self, b: u32, shares: T) {
        let sum = &mut self.sums[b as usize];
        self.touched[self.touched_len] = b;
        self.touched_len += usize::from(sum.is_zero());
        sum.add(shares);
    }

    /// Sums the shares of the counted groups unit `a` shares with every
    /// later unit, but never of two old units.
    fn count_from(
        &mut self,
        index: &FingerprintIndex,
        pairing: &Pairing,
        (rules, selection): (&PairingRules, &Selection<'_>),
        order: NameOrder<'_>,
        a: u32,
    ) {
        // An archive's units are old and many, and most of their hashes
        // are held by old units only: pairs of two old units, never
        // allowed, are not counted at all.
        if !rules.walks_from(a) {
            return;
        }
        let old = rules.is_old(a);
        let slots = index.hash_slots(a);
        let ranks_of_a = if T::RANKED {
            &pairing.bounds.ranks[slots.clone()]
        } else {
            &[]
        };
        let shares = &pairing.bounds.slots[slots];
        for (i, (&h, &in_a)) in index.hashes_of(a).iter().zip(shares).enumerate() {
            let run = index.run_range(h);
            // Only a counted group's first slot is walked.
            if in_a == 0 || run.len() > pairing.limit {
                continue;
            }
            let later = index.run_units()[run.clone()].partition_point(|&u| u <= a);
            let run = run.start + later..run.end;
            let units = &index.run_units()[run.clone()];
            let shares = &pairing.run_shares[run.clone()];
            let ranks = if T::RANKED {
                &pairing.run_ranks[run]
            } else {
                &[]
            };
            let from = (in_a, if T::RANKED { ranks_of_a[i] } else { 0 });
            let bump =
                |j: usize, in_b: u32| T::of(from, (in_b, if T::RANKED { ranks[j] } else { 0 }));
            let later = units.iter().zip(shares).enumerate();
            if old {
                for (j, (&b, &in_b)) in later.filter(|&(_, (&b, _))| !rules.is_old(b)) {
                    self.bump(b, bump(j, in_b));
                }
            } else {
                for (j, (&b, &in_b)) in later {
                    self.bump(b, bump(j, in_b));
                }
            }
        }
        let kept_before = self.best.pairs.len();
        // Units after `a` are never `a`, and two old units were never
        // bumped: of the pairing rules only groups are left to ask.
        let side_a = (a, pairing.sides[a as usize]);
        for &b in &self.touched[..self.touched_len] {
            let sum = std::mem::take(&mut self.sums[b as usize]);
            if rules.same_group(a, b) {
                continue;
            }
            debug_assert!(rules.allows(a, b));
            self.qualified += 1;
            let pair = pairing.candidate(side_a, b, sum.sides());
            if selection.admits(&pair, order) {
                self.best.push(pair, order);
            }
        }
        self.touched_len = 0;
        // The pairs just kept, in unit order, so that a thread's pairs come
        // out in sorted runs (see `Best::into_unit_order`). Only those: in a large batch
        // most touched units fall below the cap's floor, and sorting every
        // touched list cost more than the final sort it saves. After a cut
        // the tail holds other pairs too; the final sort sees to them.
        if let Some(kept) = self.best.pairs.get_mut(kept_before..) {
            kept.sort_unstable_by_key(|c| c.b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BaseCode;
    use crate::best::BAND_BITS;

    /// A share of 1 for every unit in every group, no slack.
    fn unit_shares(index: &FingerprintIndex, firsts: &[u32]) -> HashBounds {
        let slots = (0..index.unit_count() as u32)
            .flat_map(|u| {
                index
                    .hashes_of(u)
                    .iter()
                    .map(|&h| u32::from(firsts[h as usize] == h))
            })
            .collect();
        HashBounds {
            slots,
            ranks: Vec::new(),
            whole: vec![false; index.unit_count()],
            valid: true,
        }
    }

    /// Units in name order.
    fn in_order(units: &[Unit]) -> Vec<u32> {
        (0..units.len() as u32).collect()
    }

    fn pairs(units: &[Unit], cap: usize) -> Candidates {
        let index = FingerprintIndex::build(units, &BaseCode::none(), usize::MAX);
        let names = in_order(units);
        let order = NameOrder { name_rank: &names };
        let firsts = group_firsts(&index);
        let bounds = unit_shares(&index, &firsts);
        candidate_pairs(
            (&index, &firsts),
            &bounds,
            &PairingRules::new(units),
            order,
            (cap, Selection::FIRST),
        )
    }

    #[test]
    fn pairs_are_ranked_by_summed_shares() {
        let units = [
            Unit::of_hashes("a", &[1, 2, 3]),
            Unit::of_hashes("b", &[1, 2, 3, 4]),
            Unit::of_hashes("c", &[4, 5]),
            Unit::of_hashes("d", &[6]),
        ];
        let found = pairs(&units, 10);
        // Hashes 1, 2 and 3 are one group (held by a and b alike): one
        // share on each side.
        let got: Vec<(u32, u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b, c.rank)).collect();
        assert_eq!(got, vec![(0, 1, 2), (1, 2, 2)]);
        assert_eq!(found.qualified, 2);
        assert_eq!(found.dropped.count(), 0);
        assert_eq!(found.uncounted_bound, 0);
    }

    #[test]
    fn the_cap_keeps_the_pairs_of_highest_rank_and_notes_the_rest() {
        let units = [
            Unit::of_hashes("a", &[1, 2, 3]),
            Unit::of_hashes("b", &[1, 2, 3, 4]),
            Unit::of_hashes("c", &[4, 5]),
        ];
        // (a, b) and (b, c) share one group each: the tie goes by name.
        let found = pairs(&units, 1);
        assert_eq!(found.pairs.len(), 1);
        assert_eq!((found.pairs[0].a, found.pairs[0].b), (0, 1));
        assert_eq!(found.qualified, 2);
        assert_eq!(found.dropped.count(), 1);
        let first = found.dropped.first.unwrap();
        assert_eq!((first.a, first.b, first.bound), (1, 2, 2));
        assert_eq!(found.dropped.at_least(2), 1);
        assert_eq!(found.dropped.at_least(1 << BAND_BITS), 0);
    }

    #[test]
    fn hashes_held_by_the_same_units_are_one_group() {
        let units = [
            Unit::of_hashes("a", &[1, 2, 3, 7]),
            Unit::of_hashes("b", &[1, 2, 3, 8]),
            Unit::of_hashes("c", &[7, 8, 2]),
        ];
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        let firsts = group_firsts(&index);
        let id = |hash: u64| index.find(hash).unwrap();
        // 1 and 3 are in a and b; 2 in all three; 7 in a and c; 8 in b and c.
        assert_eq!(firsts[id(3) as usize], id(1));
        assert_eq!(firsts[id(1) as usize], id(1));
        for hash in [2, 7, 8] {
            assert_eq!(firsts[id(hash) as usize], id(hash));
        }
    }

    #[test]
    fn the_work_budget_leaves_out_the_most_common_groups() {
        // Hash 1 is in all six units (15 bumps), hash 2 in three (3 bumps),
        // hashes 3 and 4 in two (1 bump each); 9 and 10 repeat 3's units.
        let units = [
            Unit::of_hashes("a", &[1, 2, 3, 9, 10]),
            Unit::of_hashes("b", &[1, 2, 3, 9, 10]),
            Unit::of_hashes("c", &[1, 2, 4]),
            Unit::of_hashes("d", &[1, 4]),
            Unit::of_hashes("e", &[1]),
            Unit::of_hashes("f", &[1]),
        ];
        assert_eq!(limits(&units, &[20, 19, 4, 0]), [usize::MAX, 3, 2, 2]);
    }

    /// The limits of counted groups that `budgets` give over `units`.
    fn limits(units: &[Unit], budgets: &[u64]) -> Vec<usize> {
        let index = FingerprintIndex::build(units, &BaseCode::none(), usize::MAX);
        let firsts = group_firsts(&index);
        let rules = PairingRules::new(units);
        budgets
            .iter()
            .map(|&budget| limit_within(&index, &firsts, &rules, budget))
            .collect()
    }

    #[test]
    fn the_work_budget_charges_only_the_pairs_counting_walks() {
        // The units of the test above, c to f old and after the new ones:
        // hash 1 costs a's 5 steps and b's 4, not 15; hash 2 a's 2 and b's
        // 1; hashes 3, 9 and 10 one; hash 4, in two old units, nothing.
        let old = |name, hashes| Unit::of_hashes(name, hashes).with_role(Role::Old);
        let units = [
            Unit::of_hashes("a", &[1, 2, 3, 9, 10]),
            Unit::of_hashes("b", &[1, 2, 3, 9, 10]),
            old("c", &[1, 2, 4]),
            old("d", &[1, 4]),
            old("e", &[1]),
            old("f", &[1]),
        ];
        assert_eq!(limits(&units, &[13, 12, 3]), [usize::MAX, 3, 2]);
    }

    #[test]
    fn an_old_unit_before_a_new_one_is_walked_from() {
        let units = [
            Unit::of_hashes("a", &[1]).with_role(Role::Old),
            Unit::of_hashes("b", &[1]),
            Unit::of_hashes("c", &[1]).with_role(Role::Old),
            Unit::of_hashes("d", &[1]).with_role(Role::Old),
        ];
        let rules = PairingRules::new(&units);
        // From a to b, c and d (only b is paired), from b to c and d.
        assert_eq!(rules.walked_steps(&[0, 1, 2, 3]), 5);
        assert_eq!(rules.walked_steps(&[0, 2, 3]), 2);
        assert_eq!(rules.walked_steps(&[2, 3]), 0);
        let new = PairingRules::new(&units[1..2]);
        assert_eq!(new.walked_steps(&[0]), 0);
    }

    #[test]
    fn rank_shares_rank_pairs_and_shares_bound_them() {
        // Hash 1 is held by a and b, hash 2 by a and c. Each share is 3,
        // as if widened over left-out prints; a's rank share of hash 2 is
        // 2, every other rank share 1.
        let units = [
            Unit::of_hashes("a", &[1, 2]),
            Unit::of_hashes("b", &[1]),
            Unit::of_hashes("c", &[2]),
        ];
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        let firsts = group_firsts(&index);
        let mut bounds = unit_shares(&index, &firsts);
        bounds.ranks = (0..3u32)
            .flat_map(|u| index.hashes_of(u).iter().map(move |&h| (u, h)))
            .map(|(u, h)| 1 + u32::from(u == 0 && index.hash(h) == 2))
            .collect();
        bounds.slots.iter_mut().for_each(|s| *s = 3);
        let names = in_order(&units);
        let order = NameOrder { name_rank: &names };
        let rules = PairingRules::new(&units);
        let count = |cap| {
            candidate_pairs(
                (&index, &firsts),
                &bounds,
                &rules,
                order,
                (cap, Selection::FIRST),
            )
        };
        let all = count(10);
        let got: Vec<(u32, u32, u32, u32)> = all
            .pairs
            .iter()
            .map(|c| (c.a, c.b, c.rank, c.bound))
            .collect();
        assert_eq!(got, vec![(0, 1, 2, 6), (0, 2, 3, 6)]);
        // Equal bounds: the rank keeps (a, c).
        let one = count(1);
        assert_eq!((one.pairs[0].a, one.pairs[0].b), (0, 2));
    }

    #[test]
    fn uncounted_groups_become_slack_in_every_bound() {
        // Hash 1 is in every unit (3 bumps), 2, 3 and 4 in two units each
        // (1 bump each): a budget of 3 leaves hash 1 out.
        let units = [
            Unit::of_hashes("a", &[1, 2, 3]),
            Unit::of_hashes("b", &[1, 2, 4]),
            Unit::of_hashes("c", &[1, 3, 4]),
        ];
        let index = FingerprintIndex::build(&units, &BaseCode::none(), usize::MAX);
        let firsts = group_firsts(&index);
        let bounds = unit_shares(&index, &firsts);
        let names = in_order(&units);
        let order = NameOrder { name_rank: &names };
        let rules = PairingRules::new(&units);
        let found = candidates_within(
            (&index, &firsts),
            &bounds,
            (&rules, order),
            (10, Selection::FIRST),
            3,
        );
        assert_eq!(found.counted_units, 2);
        let got: Vec<(u32, u32, u32, u32)> = found
            .pairs
            .iter()
            .map(|c| (c.a, c.b, c.rank, c.bound))
            .collect();
        // Each pair was seen sharing one hash of two units (rank 1 + 1);
        // hash 1 adds 1 to each side's bound.
        assert_eq!(got, vec![(0, 1, 2, 4), (0, 2, 2, 4), (1, 2, 2, 4)]);
        // A pair sharing hash 1 alone could have 1 on each side.
        assert_eq!(found.uncounted_bound, 2);
    }

    #[test]
    fn old_and_grouped_units_are_not_paired_among_themselves() {
        let units = [
            Unit::of_hashes("old1", &[1]).with_role(Role::Old),
            Unit::of_hashes("old2", &[1]).with_role(Role::Old),
            Unit::of_hashes("t1", &[1]).with_group("team"),
            Unit::of_hashes("t2", &[1]).with_group("team"),
        ];
        let found = pairs(&units, 100);
        let got: Vec<(u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b)).collect();
        assert_eq!(got, vec![(0, 2), (0, 3), (1, 2), (1, 3)]);
    }

    proptest::proptest! {
        /// Every pair sharing a hash, of units not both old, is found
        /// with the summed shares of the groups it shares (hashes held by
        /// the same units), in unit order, as a check of all pairs finds
        /// them: old units anywhere among new ones, or after them all as
        /// an archive's are.
        #[test]
        fn pairs_are_those_of_all_pairs_in_unit_order(
            hashes in proptest::collection::vec(proptest::collection::vec(0u64..12, 0..8), 0..12),
            old in proptest::collection::vec(proptest::bool::weighted(0.4), 12),
        ) {
            use std::collections::BTreeSet;
            let names: Vec<String> = (0..hashes.len()).map(|i| format!("u{i}")).collect();
            let units: Vec<Unit> = names
                .iter()
                .zip(&hashes)
                .zip(&old)
                .map(|((n, h), &old)| {
                    let unit = Unit::of_hashes(n, h);
                    if old { unit.with_role(Role::Old) } else { unit }
                })
                .collect();
            let holders = |hash: u64| -> BTreeSet<usize> {
                (0..hashes.len()).filter(|&u| hashes[u].contains(&hash)).collect()
            };
            let mut expected = Vec::new();
            for a in 0..units.len() {
                for b in a + 1..units.len() {
                    if old[a] && old[b] {
                        continue;
                    }
                    let groups: BTreeSet<BTreeSet<usize>> = hashes[a]
                        .iter()
                        .filter(|h| hashes[b].contains(h))
                        .map(|&h| holders(h))
                        .collect();
                    if !groups.is_empty() {
                        expected.push((a as u32, b as u32, 2 * groups.len() as u32));
                    }
                }
            }
            let found = pairs(&units, 1000);
            let got: Vec<(u32, u32, u32)> = found.pairs.iter().map(|c| (c.a, c.b, c.rank)).collect();
            proptest::prop_assert_eq!(got, expected);
        }

        /// With old units after the new ones, as an archive's and
        /// `--old`'s are, a budget of the pairs of each group that are not
        /// two old units, and no less, counts every group.
        #[test]
        fn the_budget_pays_for_the_pairs_that_may_be_paired(
            hashes in proptest::collection::vec(proptest::collection::vec(0u64..12, 0..8), 0..12),
            new_units in 0usize..12,
        ) {
            use std::collections::BTreeSet;
            let units: Vec<Unit> = hashes
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let unit = Unit::of_hashes(&format!("u{i:02}"), h);
                    if i < new_units { unit } else { unit.with_role(Role::Old) }
                })
                .collect();
            let groups: BTreeSet<Vec<usize>> = hashes
                .iter()
                .flatten()
                .map(|hash| (0..hashes.len()).filter(|&u| hashes[u].contains(hash)).collect())
                .collect();
            let pairs_not_both_old: u64 = groups
                .iter()
                .map(|group: &Vec<usize>| {
                    let old = group.iter().filter(|&&u| u >= new_units).count() as u64;
                    let n = group.len() as u64;
                    n * n.saturating_sub(1) / 2 - old * old.saturating_sub(1) / 2
                })
                .sum();
            let found = limits(&units, &[pairs_not_both_old, pairs_not_both_old.saturating_sub(1)]);
            proptest::prop_assert_eq!(found[0], usize::MAX);
            if pairs_not_both_old > 0 {
                proptest::prop_assert_ne!(found[1], usize::MAX);
            }
        }
    }
}
