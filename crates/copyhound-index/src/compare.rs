//! The batch comparison: prepare → index → candidate pairs → fragments and
//! scores, each step parallel over units or pairs.

use std::cell::RefCell;
use std::sync::Arc;

use rayon::prelude::*;

use crate::bounds::hash_bounds;
use crate::candidates::{
    CandidatePair, NameOrder, PairingRules, Selection, candidate_pairs, group_firsts,
};
use crate::fragments::{Match, PairScratch, Side, find_fragments};
use crate::index::{Counted, PartnerRuns, PostingTable, SharedRun};
use crate::listing::{Listing, Omitted, score_in_passes};
use crate::prepare::{PreparedUnit, UnitSummary, prepare};
use crate::rarity::{UnitWeights, unit_weights};
use crate::score::{LineSet, score};
use crate::twins::twin_classes;
use crate::{
    BaseCode, CompareError, CompareOptions, Document, FingerprintIndex, Fragment, IndexStats,
    LineIndex, PairScore, Posting, SCORED_PER_LISTED, Unit, merge_passages,
};
use copyhound_fingerprint::{NormalizedDocument, Scheme};

/// At most this many (a, b) occurrence pairs are formed from one hash that
/// repeats inside both units; beyond it occurrences are paired by rank
/// (the i-th in `a` with the i-th in `b`), the diagonal a copy lies on.
/// Keeps repetitive input (long runs of one token) from costing
/// occurrences² work.
const MAX_OCCURRENCE_PAIRS: usize = 64;

/// The steps of a comparison, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Base-code masks and unit sizes, one step per unit.
    Prepare,
    /// Building the inverted index (one step).
    Index,
    /// Counting shared fingerprints (one step).
    Candidates,
    /// Fragments and scores, one step per candidate pair kept for
    /// scoring (those that cannot be listed are skipped unannounced).
    Score,
}

/// Receives progress; called from several threads.
pub trait Progress: Sync {
    /// A stage begins with `total` steps.
    fn start(&self, stage: Stage, total: u64);
    /// `steps` more steps of the current stage are done.
    fn advance(&self, steps: u64);
}

/// Reports nothing.
impl Progress for () {
    fn start(&self, _: Stage, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// The result of comparing a batch of units.
///
/// Pairs carry their scores only; [`Comparison::fragments`] recomputes a
/// pair's fragments from the index the comparison keeps, so memory is
/// bounded by the index and not by the number of pairs.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// The listed pairs: those with at least one fragment that scoring
    /// every pair would rank highest, at most
    /// [`CompareOptions::max_pairs`], by similarity (highest first), then
    /// by unit names. [`Self::omitted`] says what is not listed.
    pub pairs: Vec<PairScore>,
    /// Sizes of each unit, in input order.
    pub units: Vec<UnitSummary>,
    /// What the index kept and dropped.
    pub index: IndexStats,
    /// The largest number of units a kept fingerprint could be in.
    pub max_units_per_fingerprint: usize,
    /// Pairs found sharing fingerprints: candidates.
    pub candidate_pairs: usize,
    /// Candidates whose fragments were found and scored.
    pub scored_pairs: usize,
    /// Scored pairs with at least one fragment (and at least
    /// [`CompareOptions::min_shared`] shared fingerprints), listed or not.
    pub matching_pairs: usize,
    /// What was not listed, and whether any of it could be more similar
    /// than the listed pairs.
    pub omitted: Omitted,
    /// What finding a pair's fragments again needs.
    detail: Arc<Detail>,
}

/// The index and per-unit facts fragments are found from, kept after
/// scoring.
#[derive(Debug, Default)]
struct Detail {
    index: FingerprintIndex,
    prepared: Vec<PreparedUnit>,
    k: usize,
    min_fragment: usize,
    /// Gaps up to this many symbols between a chain's fragments count in
    /// the similarity.
    score_gap: u32,
}

impl Detail {
    /// The fragments of units `a` (first side) and `b`, sorted by position
    /// in `a`, with `scratch` as scratch space.
    fn fragments<'s>(
        &self,
        units: &[Unit],
        a: u32,
        b: u32,
        scratch: &'s mut PairScratch,
    ) -> &'s [Fragment] {
        collect_matches(
            self.index.shared_postings(a, b),
            false,
            &mut scratch.matches,
        );
        let fragments = self.fragments_of_matches(units, a, b, scratch);
        fragments.sort_unstable();
        fragments
    }

    /// The fragments of units `a` and `b` from their matches, already in
    /// `scratch.matches`, in no particular order; in `scratch`, whose
    /// buffer they are.
    fn fragments_of_matches<'s>(
        &self,
        units: &[Unit],
        a: u32,
        b: u32,
        scratch: &'s mut PairScratch,
    ) -> &'s mut [Fragment] {
        let side = |u: u32| Side {
            unit: &units[u as usize],
            prepared: &self.prepared[u as usize],
        };
        let fragments = find_fragments(side(a), side(b), self.k, scratch);
        fragments.retain(|f| f.len() as usize >= self.min_fragment);
        fragments
    }
}

impl Comparison {
    /// The fragments of the pair of units `a` and `b` (indices into
    /// `units`, `a` the first side as in [`PairScore`]), sorted by position
    /// in `a`: found again exactly as when the pair was scored, so their
    /// count, longest length and overlap are the pair's.
    ///
    /// # Panics
    /// If `units` are not the units this comparison was made from.
    pub fn fragments(&self, units: &[Unit], a: usize, b: usize) -> Vec<Fragment> {
        assert_eq!(
            units.len(),
            self.detail.prepared.len(),
            "the units of this comparison"
        );
        thread_local! {
            /// Reports find many pairs' fragments, a thread a pair at a time.
            static SCRATCH: RefCell<PairScratch> = RefCell::new(PairScratch::default());
        }
        SCRATCH.with_borrow_mut(|scratch| {
            self.detail
                .fragments(units, a as u32, b as u32, scratch)
                .to_vec()
        })
    }
}

/// Compares every allowed pair of `units` that shares fingerprints, with
/// the code of `base` excluded.
///
/// # Panics
/// If a document was fingerprinted with a longer k than the scheme of
/// `options`, which the documents and the base code must share.
pub fn compare(
    units: &[Unit],
    base: &BaseCode,
    options: &CompareOptions,
) -> Result<Comparison, CompareError> {
    compare_batch(Batch::Kept(units), base, options, &())
}

/// The exact, maximal fragments two documents share: both fingerprinted
/// with `scheme` and compared as a batch of two units.
/// Empty when they share nothing. Used to show *where* a database match
/// lies, once its text is at hand.
pub fn shared_fragments(
    a: &NormalizedDocument,
    b: &NormalizedDocument,
    scheme: &Scheme,
) -> Vec<Fragment> {
    let unit = |name: &str, doc: &NormalizedDocument| {
        Unit::new(
            name,
            vec![Document::fingerprinted(name, doc.clone(), scheme)],
        )
    };
    let units = [unit("a", a), unit("b", b)];
    compare(
        &units,
        &BaseCode::none(),
        &CompareOptions::new(scheme.clone()),
    )
    .ok()
    .and_then(|comparison| {
        // Never an empty fragment: every one is at least k ≥ 1 symbols.
        let pair = comparison.pairs.first()?;
        Some(comparison.fragments(&units, pair.a, pair.b))
    })
    .unwrap_or_default()
}

/// A passage two texts share, located in both: byte ranges into each text
/// and 1-based, inclusive line ranges, as a side-by-side view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocatedPassage {
    /// Byte range in the first text.
    pub a_bytes: [usize; 2],
    /// Lines (1-based, inclusive) in the first text.
    pub a_lines: [u32; 2],
    /// Byte range in the second text.
    pub b_bytes: [usize; 2],
    /// Lines in the second text.
    pub b_lines: [u32; 2],
    /// Symbols its fragments match (the gaps between them not counted).
    pub symbols: u32,
}

/// The passages of two texts, each given as its normalised document and
/// the text its spans index into, located by bytes and lines, in the first
/// text's order: their [`shared_fragments`] joined by [`merge_passages`]
/// across gaps of at most `max_gap` symbols on both sides, as a comparison
/// reports them.
pub fn locate_shared_passages(
    (a, a_text): (&NormalizedDocument, &str),
    (b, b_text): (&NormalizedDocument, &str),
    scheme: &Scheme,
    max_gap: u32,
) -> Vec<LocatedPassage> {
    let a_lines = LineIndex::new(a_text.as_bytes());
    let b_lines = LineIndex::new(b_text.as_bytes());
    let mut fragments = shared_fragments(a, b, scheme);
    fragments.sort_unstable_by_key(|f| f.a);
    let mut located: Vec<LocatedPassage> = merge_passages(&fragments, max_gap)
        .into_iter()
        .map(|p| {
            let in_a = a.byte_range(p.a.start as usize, p.a.len() as usize);
            let in_b = b.byte_range(p.b.start as usize, p.b.len() as usize);
            LocatedPassage {
                a_bytes: [in_a.start, in_a.end],
                a_lines: a_lines.line_range(in_a.clone()).into(),
                b_bytes: [in_b.start, in_b.end],
                b_lines: b_lines.line_range(in_b.clone()).into(),
                symbols: fragments[p.fragments].iter().map(Fragment::len).sum(),
            }
        })
        .collect();
    located.sort_by_key(|p| p.a_bytes);
    located
}

/// [`compare`], reporting progress to `progress`, and letting the units'
/// fingerprints go as soon as the index and the bounds hold what the
/// comparison needs of them (in a large batch they are a large part of its
/// memory): afterwards [`Document::fingerprints`] are empty and
/// [`Document::fingerprint_count`] says how many there were.
///
/// # Panics
/// As [`compare`].
pub fn compare_with_progress(
    units: &mut [Unit],
    base: &BaseCode,
    options: &CompareOptions,
    progress: &dyn Progress,
) -> Result<Comparison, CompareError> {
    compare_batch(Batch::Released(units), base, options, progress)
}

/// The units of a comparison, and whether it may let their fingerprints
/// go once it is done with them.
enum Batch<'u> {
    Kept(&'u [Unit]),
    Released(&'u mut [Unit]),
}

impl Batch<'_> {
    fn units(&self) -> &[Unit] {
        match self {
            Self::Kept(units) => units,
            Self::Released(units) => units,
        }
    }

    fn done_with_fingerprints(&mut self) {
        if let Self::Released(units) = self {
            for document in units.iter_mut().flat_map(|u| &mut u.documents) {
                document.release_fingerprints();
            }
        }
    }
}

fn compare_batch(
    mut batch: Batch<'_>,
    base: &BaseCode,
    options: &CompareOptions,
    progress: &dyn Progress,
) -> Result<Comparison, CompareError> {
    let units = batch.units();
    let k = options.scheme.k();
    check_units(units, k)?;
    let elsewhere = &*options.elsewhere;
    let max_units = options
        .max_occurrences
        .validate()?
        .limit(units.len() + elsewhere.units());

    progress.start(Stage::Prepare, units.len() as u64);
    let prepared = prepare(units, base, options.scheme.hasher());
    let twins = twin_classes(units, &prepared);
    progress.advance(units.len() as u64);

    progress.start(Stage::Index, 1);
    let Counted {
        index,
        shared_by_many,
        too_common,
    } = FingerprintIndex::build_counting(units, base, max_units, elsewhere);
    progress.advance(1);

    // Without base code the index holds every fingerprint, so its counts
    // are the batch's; base fingerprints are left out of it, and counted
    // apart.
    let counted = base.is_empty().then_some(&shared_by_many[..]);
    let weights = unit_weights(
        units,
        &prepared,
        k,
        options.rarity_weighting,
        counted,
        elsewhere,
    );
    drop(shared_by_many);
    let min_fragment = options.shortest_fragment();
    let name_rank = name_ranks(units);
    let order = NameOrder {
        name_rank: &name_rank,
    };

    progress.start(Stage::Candidates, 1);
    let firsts = group_firsts(&index);
    let bounds = hash_bounds(
        units,
        &prepared,
        &weights,
        &index,
        (k, options.window_guarantee, options.score_gap),
        (&firsts, &too_common),
    );
    let rules = PairingRules::new(units);
    batch.done_with_fingerprints();
    let units = batch.units();
    let scored_at_most = options.max_pairs.saturating_mul(SCORED_PER_LISTED);
    let detail = Detail {
        index,
        prepared,
        k,
        min_fragment,
        score_gap: options.score_gap,
    };
    let count = |cap: usize, selection: Selection<'_>| {
        candidate_pairs(
            (&detail.index, &firsts),
            &bounds,
            &rules,
            order,
            (cap, selection),
        )
    };
    let first = count(scored_at_most, Selection::FIRST);
    progress.advance(1);

    let mut listing = Listing::new(options, order);
    let candidates = score_in_passes(
        &mut listing,
        first,
        (scored_at_most, options.extra_passes, count),
        progress,
        |chunk, listed_from| {
            let scoring = Scoring {
                units,
                detail: &detail,
                weights: &weights,
                name_rank: &name_rank,
                listed_from,
            };
            match &twins {
                Some(class) => score_twins_once(&scoring, class, chunk, progress),
                None => score_candidates(&scoring, chunk, progress),
            }
        },
    );
    drop((bounds, firsts));
    let listed = listing.finish(&candidates);
    let pairs = sorted_pairs(&name_rank, listed.pairs);

    Ok(Comparison {
        pairs,
        units: detail.prepared.iter().map(|p| p.summary.clone()).collect(),
        index: detail.index.stats().clone(),
        max_units_per_fingerprint: max_units,
        candidate_pairs: candidates.qualified,
        scored_pairs: listed.scored,
        matching_pairs: listed.matching,
        omitted: listed.omitted,
        detail: Arc::new(detail),
    })
}

/// Units are numbered in 32 bits, and every k-gram of a fingerprint lies
/// inside its document, as it does when the document was fingerprinted
/// with the comparison's scheme: a caller that mixed schemes is told so
/// here, not by a slice index far away.
fn check_units(units: &[Unit], k: usize) -> Result<(), CompareError> {
    if u32::try_from(units.len()).is_err() {
        return Err(CompareError::TooManyUnits(units.len()));
    }
    // Every fingerprint of the batch is read: on every thread.
    units.par_iter().for_each(|unit| {
        for document in &unit.documents {
            let len = document.len();
            let outside = document
                .fingerprints
                .iter()
                .find(|f| f.pos as usize + k > len);
            assert!(
                outside.is_none(),
                "document `{}` of unit `{}` was not fingerprinted with the comparison's scheme (k = {k})",
                document.name,
                unit.name,
            );
        }
    });
    Ok(())
}

/// What scoring a batch's candidates reads.
struct Scoring<'a> {
    units: &'a [Unit],
    detail: &'a Detail,
    weights: &'a [UnitWeights],
    /// Each unit's rank among the distinct unit names ([`name_ranks`]).
    name_rank: &'a [u32],
    /// Pairs less similar cannot be listed: their lines are not counted.
    listed_from: f64,
}

/// Whether the pair of units `first` and `other` (a candidate's `a` and
/// `b`) is scored the other way round: the side whose name sorts first is
/// `a`, so a pair's fragments (and the tie-breaks among them) do not
/// depend on input order.
fn is_swapped(name_rank: &[u32], first: u32, other: u32) -> bool {
    (name_rank[other as usize], other) < (name_rank[first as usize], first)
}

/// [`score_candidates`] where some units are twins (`class`, from
/// [`twin_classes`]): of the candidates whose sides are the same two
/// contents the same way round, the first is scored and the others take
/// its scores.
fn score_twins_once(
    scoring: &Scoring<'_>,
    class: &[u32],
    candidates: &[CandidatePair],
    progress: &dyn Progress,
) -> Vec<PairScore> {
    let oriented = |c: &CandidatePair| {
        if is_swapped(scoring.name_rank, c.a, c.b) {
            (c.b, c.a)
        } else {
            (c.a, c.b)
        }
    };
    let mut by_contents: Vec<(u64, u32)> = candidates
        .par_iter()
        .enumerate()
        .map(|(i, c)| {
            let (a, b) = oriented(c);
            let contents = u64::from(class[a as usize]) << 32 | u64::from(class[b as usize]);
            (contents, i as u32)
        })
        .collect();
    by_contents.par_sort_unstable();
    // The candidate each one takes its scores from: the first of its
    // contents.
    let mut source = vec![0u32; candidates.len()];
    for run in by_contents.chunk_by(|x, y| x.0 == y.0) {
        for &(_, i) in run {
            source[i as usize] = run[0].1;
        }
    }
    drop(by_contents);
    let firsts: Vec<CandidatePair> = candidates
        .iter()
        .zip(0..)
        .filter(|&(_, i)| source[i as usize] == i)
        .map(|(c, _)| *c)
        .collect();
    let scored = score_candidates(scoring, &firsts, progress);
    progress.advance((candidates.len() - firsts.len()) as u64);
    // Where each first candidate's scores are in `scored`.
    let mut at = vec![0u32; candidates.len()];
    let mut place = 0;
    for (i, &from) in (0..).zip(&source) {
        if from == i {
            at[i as usize] = place;
            place += 1;
        }
    }
    candidates
        .par_iter()
        .zip(&source)
        .map(|(c, &from)| {
            let (a, b) = oriented(c);
            PairScore {
                a: a as usize,
                b: b as usize,
                ..scored[at[from as usize] as usize].clone()
            }
        })
        .collect()
}

/// Fragments and scores of every candidate pair, those without a fragment
/// included (collected straight into one vector, where leaving them out
/// would gather the pairs in pieces and copy them again), in no particular
/// order; `name_rank` is each unit's rank among the distinct unit names
/// ([`name_ranks`]).
///
/// Candidates come in order of their first unit, and each worker finds
/// the shared hashes of the run of pairs that start with one unit in one
/// of two ways, whichever costs less for that unit ([`from_unit_lists`]):
/// it finds what the unit shares with every later unit at once from its
/// hashes' unit lists ([`PartnerRuns`]), or it looks each hash of each
/// partner up in a table of the unit's hashes ([`PostingTable`]); merging
/// the two units' postings for every pair would read both whole lists
/// each time (on the labelled sets nearly every pair is a candidate).
fn score_candidates(
    &Scoring {
        units,
        detail,
        weights,
        name_rank,
        listed_from,
    }: &Scoring<'_>,
    candidates: &[CandidatePair],
    progress: &dyn Progress,
) -> Vec<PairScore> {
    let from_lists = from_unit_lists(&detail.index, candidates);
    candidates
        .par_iter()
        .map_init(
            || {
                let scratch = (PairScratch::default(), LineSet::new());
                let finders = (PostingTable::default(), PartnerRuns::default());
                (finders, None, scratch)
            },
            |((table, partners), filled, (scratch, lines)),
             &CandidatePair {
                 a: first, b: other, ..
             }| {
                let lists = from_lists[first as usize];
                if *filled != Some(first) {
                    if lists {
                        partners.fill(&detail.index, first);
                    } else {
                        table.fill(&detail.index, first);
                    }
                    *filled = Some(first);
                }
                let swapped = is_swapped(name_rank, first, other);
                let index = &detail.index;
                let shared = if lists {
                    let runs = index.shared_postings_of(partners, other);
                    collect_matches(runs, swapped, &mut scratch.matches)
                } else {
                    let runs = index.shared_postings_with(table, other);
                    collect_matches(runs, swapped, &mut scratch.matches)
                };
                let (a, b) = if swapped {
                    (other, first)
                } else {
                    (first, other)
                };
                let fragments = detail.fragments_of_matches(units, a, b, scratch);
                if detail.score_gap > 0 {
                    // Chains are read in the order of the first side.
                    fragments.sort_unstable();
                }
                progress.advance(1);
                let (a, b) = (a as usize, b as usize);
                let prepared = &detail.prepared;
                score(
                    (a, &prepared[a], &weights[a]),
                    (b, &prepared[b], &weights[b]),
                    shared,
                    (fragments, detail.score_gap),
                    (lines, listed_from),
                )
            },
        )
        .collect()
}

/// For each unit, whether its pairs find their shared hashes from the
/// unit's hashes' unit lists ([`PartnerRuns`]) rather than by looking
/// each partner's hashes up ([`PostingTable`]): the lists cost a step for
/// every later unit holding each of its hashes, pairs or not (counted here
/// for every unit holding it, a bound), which in a large batch with common
/// hashes is far more than its few candidate partners' hashes, and in a
/// small batch where nearly every pair is a candidate far less.
fn from_unit_lists(index: &FingerprintIndex, candidates: &[CandidatePair]) -> Vec<bool> {
    let chosen: Vec<(u32, bool)> = candidates
        .par_chunk_by(|x, y| x.a == y.a)
        .map(|pairs| {
            let unit = pairs[0].a;
            let lookups: usize = pairs.iter().map(|p| index.hashes_of(p.b).len()).sum();
            let steps: usize = index
                .hashes_of(unit)
                .iter()
                .map(|&h| index.units_of(h).len())
                .sum();
            // A step writes and later reads an entry; a lookup tests a bit.
            (unit, 2 * steps <= lookups)
        })
        .collect();
    let mut from_lists = vec![false; index.unit_count()];
    for (unit, lists) in chosen {
        from_lists[unit as usize] = lists;
    }
    from_lists
}

/// The pairs with a fragment, by similarity (highest first), then by unit
/// names, then by unit indices: by each unit's rank among the distinct names
/// (`name_rank`, from [`name_ranks`]), so the sort compares integers
/// instead of strings.
fn sorted_pairs(name_rank: &[u32], mut pairs: Vec<PairScore>) -> Vec<PairScore> {
    pairs.retain(|p| p.fragment_count > 0);
    // (a, b) tells any two pairs apart, so any sort gives the one order.
    // The pairs are sorted where they are, by a key made at each
    // comparison: a pair is small enough to move, and sorting keys and
    // then copying the pairs into their order cost two more vectors as
    // large, whose pages are a small batch's largest cost.
    // Two `u32`s packed in a `u64` order as the pair of them.
    let packed = |x: usize, y: usize| (x as u64) << 32 | y as u64;
    let similarity = |p: &PairScore| std::cmp::Reverse(total_order_key(p.similarity));
    if name_rank.is_sorted_by(|x, y| x < y) {
        // Units in the order of their distinct names (as a walk lists
        // them): the indices order as the names do.
        pairs.par_sort_unstable_by_key(|p| (similarity(p), packed(p.a, p.b)));
    } else {
        pairs.par_sort_unstable_by_key(|p| {
            let ranks = packed(name_rank[p.a] as usize, name_rank[p.b] as usize);
            (similarity(p), ranks, packed(p.a, p.b))
        });
    }
    pairs
}

/// Each unit's rank among the distinct unit names.
fn name_ranks(units: &[Unit]) -> Vec<u32> {
    let mut by_name: Vec<u32> = (0..units.len() as u32).collect();
    by_name.par_sort_unstable_by(|&x, &y| units[x as usize].name.cmp(&units[y as usize].name));
    let mut name_rank = vec![0u32; units.len()];
    let mut rank = 0;
    for (i, pair) in by_name.windows(2).enumerate() {
        if units[pair[0] as usize].name != units[pair[1] as usize].name {
            rank = i as u32 + 1;
        }
        name_rank[pair[1] as usize] = rank;
    }
    name_rank
}

/// An integer that orders as [`f64::total_cmp`] orders `x`.
fn total_order_key(x: f64) -> i64 {
    // Negative floats order backwards as integers: flip all but the sign.
    let bits = x.to_bits().cast_signed();
    bits ^ ((bits >> 63).cast_unsigned() >> 1).cast_signed()
}

/// Every pair of occurrences of the hashes in `runs` (those two units
/// share) into `out`, each run's `in_a` as the first side unless
/// `swapped`; returns how many distinct hashes they share (all kept ones,
/// also those too common to have been counted for candidates).
fn collect_matches<'a>(
    runs: impl Iterator<Item = SharedRun<'a>>,
    swapped: bool,
    out: &mut Vec<Match>,
) -> usize {
    out.clear();
    let mut shared = 0;
    for run in runs {
        shared += 1;
        let pair = |pa: &Posting, pb: &Posting| Match {
            a_doc: pa.doc,
            a_pos: pa.pos,
            b_doc: pb.doc,
            b_pos: pb.pos,
        };
        let (in_a, in_b) = if swapped {
            (run.in_b, run.in_a)
        } else {
            (run.in_a, run.in_b)
        };
        if in_a.len() * in_b.len() <= MAX_OCCURRENCE_PAIRS {
            for pa in in_a {
                out.extend(in_b.iter().map(|pb| pair(pa, pb)));
            }
        } else {
            out.extend(in_a.iter().zip(in_b).map(|(pa, pb)| pair(pa, pb)));
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A pair of units `a` and `b` with `similarity` and one fragment, or
    /// none.
    fn pair(a: usize, b: usize, similarity: f64, fragments: u32) -> PairScore {
        PairScore {
            a,
            b,
            similarity,
            shared_fingerprints: 1,
            longest_fragment: fragments,
            total_overlap: fragments,
            fragment_count: fragments,
            covered_lines: [0; 2],
        }
    }

    proptest! {
        /// The pairs with a fragment come out as a plain sort by
        /// similarity, names and indices orders them, whether the units
        /// are in name order (indices stand for names) or not, repeated
        /// names included.
        #[test]
        fn pairs_are_sorted_by_similarity_then_names(
            names in prop::collection::vec(0u8..6, 2..8),
            in_name_order: bool,
            scores in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0u8..4, 0u32..2), 0..60),
        ) {
            let mut names: Vec<String> = names.iter().map(|n| format!("u{n}")).collect();
            if in_name_order {
                names.sort();
                names.dedup();
            }
            let units: Vec<Unit> = names.iter().map(|n| Unit::new(n.clone(), Vec::new())).collect();
            let n = units.len();
            prop_assume!(n >= 2);
            let pairs: Vec<PairScore> = scores
                .iter()
                .filter_map(|(x, y, s, f)| {
                    let (a, b) = (x.index(n), y.index(n));
                    (a != b).then(|| pair(a, b, f64::from(*s) / 4.0, *f))
                })
                .collect();
            let mut expected: Vec<&PairScore> = pairs.iter().filter(|p| p.fragment_count > 0).collect();
            expected.sort_by(|p, q| {
                q.similarity
                    .total_cmp(&p.similarity)
                    .then_with(|| (&names[p.a], &names[p.b]).cmp(&(&names[q.a], &names[q.b])))
                    .then_with(|| (p.a, p.b).cmp(&(q.a, q.b)))
            });
            let expected: Vec<PairScore> = expected.into_iter().cloned().collect();
            prop_assert_eq!(sorted_pairs(&name_ranks(&units), pairs), expected);
        }

        /// The integer key orders floats as `total_cmp` does, signed
        /// zeros, infinities and NaNs included.
        #[test]
        fn total_order_keys_order_as_total_cmp(x in any::<u64>(), y in any::<u64>(), special in 0usize..8) {
            let specials = [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN, 1.0, 0.5];
            let (x, y) = (f64::from_bits(x), if special < 6 { specials[special] } else { f64::from_bits(y) });
            prop_assert_eq!(total_order_key(x).cmp(&total_order_key(y)), x.total_cmp(&y));
            prop_assert_eq!(total_order_key(x).cmp(&total_order_key(x)), std::cmp::Ordering::Equal);
        }
    }
}
