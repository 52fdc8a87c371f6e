//! The listing: the most similar pairs, at most a given number, gathered
//! while candidates are scored in order of rank, and what it left out.
//!
//! Candidates are scored a chunk at a time, highest rank first. Once the
//! list is full, its least similar pair is the floor: a candidate whose
//! bound (module `bounds`) cannot beat it — in similarity, or in unit names
//! at an equal one, as the listing orders ties — is not scored, and
//! scoring stops when no candidate left can. What the list holds then is
//! exactly what scoring every candidate would rank highest. Pairs can
//! still be missing for two reasons, both stated in [`Omitted`]: the
//! candidates kept for scoring were capped, or the work budget left the
//! most common fingerprints uncounted.
//!
//! When the cap left out few enough candidates that could still be listed
//! (at most [`crate::CompareOptions::extra_passes`] caps of them), candidates are counted again
//! and those are scored, best bound first, up to [`LATER_PASS_CAPS`] caps
//! a pass; the listing is then exact unless the work budget was reached.

use crate::best::{Dropped, KeptBy};
use crate::candidates::{
    CandidatePair, Candidates, NameOrder, Selection, WHOLE_PAIR, as_similarity,
};
use crate::{CompareOptions, PairScore, Progress, Stage};

/// What a comparison did not list, and whether any of it could be more
/// similar than the least similar pair it did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Omitted {
    /// At most this many pairs are listed
    /// ([`crate::CompareOptions::max_pairs`]).
    pub limit: usize,
    /// The similarity of the least similar listed pair, when `limit`
    /// pairs are listed.
    pub lowest_listed: Option<f64>,
    /// Pairs found sharing fingerprints and not listed: scored pairs less
    /// similar than the listed ones, and candidates whose bound showed they
    /// could not be listed or that were not kept for scoring.
    pub unlisted: usize,
    /// Of those, at most this many could be more similar than the least
    /// similar listed pair (or be listed at all, when fewer than the limit
    /// were): candidates left unscored because at most
    /// [`crate::SCORED_PER_LISTED`] times the limit are kept for scoring.
    pub open: usize,
    /// The highest similarity an open candidate could have (0: none).
    pub open_bound: f64,
    /// Fingerprints held by more than this many units (all by the same
    /// units, as a group) were not counted when pairing, to bound the work
    /// on common code: `None` when every one was.
    pub counted_units: Option<usize>,
    /// The highest similarity a pair sharing only uncounted fingerprints —
    /// never found — could have (0 when every fingerprint was counted).
    pub uncounted_bound: f64,
    /// Pairs less similar than this were not wanted
    /// ([`crate::CompareOptions::min_similarity`]): none of them is open.
    pub min_similarity: f64,
}

impl Omitted {
    /// Whether pairs sharing only uncounted fingerprints could have been
    /// listed.
    pub fn uncounted_open(&self) -> bool {
        self.uncounted_bound > 0.0
            && self.uncounted_bound >= self.min_similarity
            && self
                .lowest_listed
                .is_none_or(|lowest| self.uncounted_bound >= lowest)
    }

    /// Whether the listed pairs are exactly those scoring every pair would
    /// rank highest: nothing left out could be more similar than the least
    /// similar listed pair.
    pub fn is_exact(&self) -> bool {
        self.open == 0 && !self.uncounted_open()
    }
}

/// The pairs listed so far.
pub(crate) struct Listing<'a> {
    limit: usize,
    min_shared: usize,
    /// Candidates whose bound is below this are not wanted.
    min_similarity: f64,
    order: NameOrder<'a>,
    /// At most `limit` pairs, in no particular order.
    pairs: Vec<PairScore>,
    /// Scored pairs with a fragment and enough shared fingerprints,
    /// listed or not.
    matching: usize,
    /// Candidates scored.
    scored: usize,
    /// The least similar listed pair, once `limit` are listed.
    floor: Option<(f64, (u64, u64))>,
}

impl<'a> Listing<'a> {
    /// An empty list of at most `max_pairs` pairs of at least
    /// `min_shared` shared fingerprints (of `options`), ties ordered by
    /// `order`, for which candidates whose bound is below `min_similarity`
    /// are not wanted.
    pub(crate) fn new(options: &CompareOptions, order: NameOrder<'a>) -> Self {
        Self {
            limit: options.max_pairs,
            min_shared: options.min_shared,
            min_similarity: options.min_similarity,
            order,
            pairs: Vec::new(),
            matching: 0,
            scored: 0,
            floor: None,
        }
    }

    /// The key of a pair of similarity `similarity` of units `a` and `b`:
    /// the lower, the earlier it is listed.
    fn key(&self, similarity: f64, a: u32, b: u32) -> (std::cmp::Reverse<TotalOrder>, (u64, u64)) {
        (
            std::cmp::Reverse(TotalOrder(similarity)),
            self.order.key(a, b),
        )
    }

    fn pair_key(&self, pair: &PairScore) -> (std::cmp::Reverse<TotalOrder>, (u64, u64)) {
        self.key(pair.similarity, pair.a as u32, pair.b as u32)
    }

    /// Whether candidate `c` could still be listed and is wanted: its
    /// bound reaches the minimum similarity and beats the least similar
    /// listed pair, or the list is not full.
    pub(crate) fn could_list(&self, c: &CandidatePair) -> bool {
        as_similarity(c.bound) >= self.min_similarity
            && self.floor.is_none_or(|(similarity, names)| {
                self.key(as_similarity(c.bound), c.a, c.b)
                    < (std::cmp::Reverse(TotalOrder(similarity)), names)
            })
    }

    /// The least similarity a pair still needs (units aside): the least
    /// similar listed pair's once the list is full, and never below the
    /// minimum similarity.
    fn least_wanted(&self) -> f64 {
        self.floor.map_or(self.min_similarity, |(similarity, _)| {
            similarity.max(self.min_similarity)
        })
    }

    /// The least similarity a pair scored now can be listed with: the
    /// least similar listed pair's once the list is full (a pair less
    /// similar is cut from it at once), else 0. Scoring skips what only a
    /// listed pair needs (its lines) below it.
    fn listed_from(&self) -> f64 {
        self.floor.map_or(0.0, |(similarity, _)| similarity)
    }

    /// Whether no candidate of bound at most `bound` can be listed (units
    /// aside) or is wanted.
    fn closed_below(&self, bound: u32) -> bool {
        as_similarity(bound) < self.least_wanted()
    }

    /// Adds the pairs `scored` that have a fragment and share enough
    /// fingerprints, keeping the most similar.
    pub(crate) fn add(&mut self, candidates: usize, mut scored: Vec<PairScore>) {
        self.scored += candidates;
        let before = self.pairs.len();
        let min_shared = self.min_shared;
        let wanted =
            |p: &PairScore| p.fragment_count > 0 && p.shared_fingerprints as usize >= min_shared;
        if self.pairs.is_empty() {
            // The first chunk (a small batch's only one) is kept where it
            // was scored: copied into a list grown a step at a time, its
            // pages were faulted in (and zeroed) again at every step.
            scored.retain(wanted);
            self.pairs = scored;
        } else {
            self.pairs.extend(scored.into_iter().filter(wanted));
        }
        self.matching += self.pairs.len() - before;
        if self.pairs.len() > self.limit {
            let mut pairs = std::mem::take(&mut self.pairs);
            if self.limit > 0 {
                let order = |x: &PairScore, y: &PairScore| self.pair_key(x).cmp(&self.pair_key(y));
                pairs.select_nth_unstable_by(self.limit - 1, order);
            }
            pairs.truncate(self.limit);
            self.pairs = pairs;
        }
        if self.pairs.len() == self.limit {
            let worst = self
                .pairs
                .iter()
                .max_by(|x, y| self.pair_key(x).cmp(&self.pair_key(y)));
            self.floor = worst.map(|p| (p.similarity, self.order.key(p.a as u32, p.b as u32)));
        }
    }

    /// Of the `dropped` candidates, at most how many could still be
    /// listed, and the highest similarity one could have: (0, 0) when none
    /// can.
    pub(crate) fn open(&self, dropped: &Dropped) -> (usize, f64) {
        match dropped.first {
            Some(first) if self.limit > 0 && self.could_list(&first) => {
                let floor = (self.least_wanted() * f64::from(WHOLE_PAIR)).floor() as u32;
                (dropped.at_least(floor).max(1), as_similarity(first.bound))
            }
            _ => (0, 0.0),
        }
    }

    /// The listed pairs (in no particular order), how many candidates
    /// were scored and how many had a fragment, and what was left out of
    /// the `candidates` found.
    pub(crate) fn finish(self, candidates: &Candidates) -> Listed {
        let (open, open_bound) = self.open(&candidates.dropped);
        let uncounted = candidates.counted_units != usize::MAX && self.limit > 0;
        let omitted = Omitted {
            limit: self.limit,
            lowest_listed: self.floor.map(|(similarity, _)| similarity),
            unlisted: candidates.qualified - self.pairs.len(),
            open,
            open_bound,
            counted_units: uncounted.then_some(candidates.counted_units),
            uncounted_bound: if uncounted {
                as_similarity(candidates.uncounted_bound)
            } else {
                0.0
            },
            min_similarity: self.min_similarity,
        };
        Listed {
            pairs: self.pairs,
            scored: self.scored,
            matching: self.matching,
            omitted,
        }
    }
}

/// What [`Listing::finish`] gives.
pub(crate) struct Listed {
    pub(crate) pairs: Vec<PairScore>,
    pub(crate) scored: usize,
    pub(crate) matching: usize,
    pub(crate) omitted: Omitted,
}

/// An `f64` ordered by [`f64::total_cmp`].
#[derive(Clone, Copy, Debug)]
struct TotalOrder(f64);

impl PartialEq for TotalOrder {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for TotalOrder {}

impl PartialOrd for TotalOrder {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TotalOrder {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The most candidates a later counting pass keeps, in first-pass caps:
/// each thread's buffer holds up to twice as many (16 bytes a candidate;
/// 100 MB on two threads at the default 400,000-candidate cap).
pub(crate) const LATER_PASS_CAPS: usize = 4;

/// Scores the `first` pass's candidates into `listing` with `score` (as
/// [`score_in_order`]) by rank; then, while the candidates the cap left
/// out that could still be listed are few enough for the extra passes'
/// caps to hold (at most `extra_passes` of `cap` each), counts again with
/// `count` (a cap, the selection), keeping only those, and scores them
/// best bound first. Returns the last pass's candidates, for what they
/// left out.
///
/// A later pass keeps as many as could still be listed, up to
/// [`LATER_PASS_CAPS`] caps: every pass counts the whole batch again, so
/// that 3.6 million candidates left to score cost three passes, not nine.
/// Which batches get later passes (and so an exact listing) is as for
/// passes of one cap each.
pub(crate) fn score_in_passes(
    listing: &mut Listing<'_>,
    first: Candidates,
    (cap, extra_passes, count): (usize, usize, impl Fn(usize, Selection<'_>) -> Candidates),
    progress: &dyn Progress,
    mut score: impl FnMut(&[CandidatePair], f64) -> Vec<PairScore>,
) -> Candidates {
    let mut candidates = first;
    let mut by = KeptBy::Rank;
    let mut kept_before = Vec::new();
    loop {
        progress.start(Stage::Score, candidates.pairs.len() as u64);
        let kept = std::mem::take(&mut candidates.pairs);
        score_in_order(listing, kept, by, &mut score);
        let (open, _) = listing.open(&candidates.dropped);
        let Some(last) = candidates.last_kept else {
            return candidates;
        };
        let passes_left = extra_passes - kept_before.len();
        if open == 0 || open > cap.saturating_mul(passes_left) {
            return candidates;
        }
        kept_before.push((by, last));
        by = KeptBy::Bound;
        progress.start(Stage::Candidates, 1);
        let could_list = |c: &CandidatePair| listing.could_list(c);
        let later_cap = open.clamp(cap, cap.saturating_mul(LATER_PASS_CAPS));
        let again = count(
            later_cap,
            Selection {
                by,
                after: &kept_before,
                admits: Some(&could_list),
            },
        );
        progress.advance(1);
        candidates.pairs = again.pairs;
        candidates.dropped = again.dropped;
        candidates.last_kept = again.last_kept;
    }
}

/// Scores `candidates` (in unit order) with `score` (a chunk of candidates
/// in unit order, and the least similarity a pair of it can be listed
/// with, to their scores) into `listing`: all at once when they
/// cannot fill it, else a chunk at a time in the order `by`, skipping
/// those that cannot be listed and stopping when none left can.
pub(crate) fn score_in_order(
    listing: &mut Listing<'_>,
    mut candidates: Vec<CandidatePair>,
    by: KeptBy,
    mut score: impl FnMut(&[CandidatePair], f64) -> Vec<PairScore>,
) {
    if listing.pairs.len() + candidates.len() <= listing.limit {
        // Nothing to skip: the whole list is in unit order already.
        let scored = score(&candidates, listing.listed_from());
        listing.add(candidates.len(), scored);
        return;
    }
    let order = listing.order;
    candidates.sort_unstable_by(|x, y| by.cmp(order, x, y));
    // The highest bound from each candidate on, to know when to stop.
    let mut highest_from: Vec<u32> = candidates.iter().map(|c| c.bound).collect();
    for i in (1..highest_from.len()).rev() {
        highest_from[i - 1] = highest_from[i - 1].max(highest_from[i]);
    }
    // The first chunk fills the list; later ones (and those of a later
    // pass, once it is full) are half as large, so that the floor rises
    // between them.
    let room = listing.limit - listing.pairs.len().min(listing.limit);
    let mut chunk_len = room.max(listing.limit / 2).max(1);
    let mut next = 0;
    let mut chunk: Vec<CandidatePair> = Vec::new();
    while next < candidates.len() && !listing.closed_below(highest_from[next]) {
        let end = (next + chunk_len).min(candidates.len());
        chunk.clear();
        chunk.extend(
            candidates[next..end]
                .iter()
                .filter(|c| listing.could_list(c)),
        );
        chunk.sort_unstable_by_key(|c| (c.a, c.b));
        let scored = score(&chunk, listing.listed_from());
        listing.add(chunk.len(), scored);
        next = end;
        chunk_len = (listing.limit / 2).max(1);
    }
}
