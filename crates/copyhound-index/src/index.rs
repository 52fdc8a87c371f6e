//! The inverted index: fingerprint hash → units, unit → hashes, and each
//! unit's postings (hash, document, position), with base code and common
//! fingerprints already removed.
//!
//! Built compactly: every fingerprint goes into one flat vector, which is
//! sorted by (hash, unit, document, position) and then split into a sorted
//! array of distinct hashes and flat arrays of offsets — no per-hash or
//! per-unit allocation. Hashes found in one unit only are dropped at once:
//! they can never pair two units; so are those only old units hold (most
//! of an archive's), which pair no two units that may be paired.
//!
//! Postings are stored by unit, then hash id, document and position: the
//! postings two units share are found by one merge of their two runs
//! ([`FingerprintIndex::shared_postings`]), reading memory in order, where
//! looking each hash up among all its units' postings would jump around
//! the whole index.

use rayon::prelude::*;

use crate::bitset;
use crate::{BaseCode, Role, Unit, UnitsElsewhere};

/// Where one fingerprint occurs in its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    /// Index of the document in its unit.
    pub doc: u32,
    /// Symbol position of the k-gram in the document.
    pub pos: u32,
}

/// A fingerprint occurring in two units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SharedRun<'a> {
    /// Its postings in the first unit, by (document, position).
    pub(crate) in_a: &'a [Posting],
    /// Its postings in the second unit.
    pub(crate) in_b: &'a [Posting],
}

/// Counts of what the index kept and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexStats {
    /// Fingerprints of all units.
    pub fingerprints: usize,
    /// Fingerprints dropped because their k-gram is in the base code.
    pub base_fingerprints: usize,
    /// Distinct hashes dropped for being in more units than allowed.
    pub common_hashes: usize,
    /// Fingerprints carrying those hashes.
    pub common_fingerprints: usize,
    /// Distinct hashes shared by at least two units and kept.
    pub shared_hashes: usize,
    /// Postings kept.
    pub postings: usize,
    /// Postings of hashes shared by at least two units, all of them old,
    /// left out: they pair no units.
    pub old_only_postings: usize,
}

/// An index and what it counted on the way.
pub(crate) struct Counted {
    pub(crate) index: FingerprintIndex,
    /// Every hash of the units held by three units or more (the units
    /// elsewhere included; those dropped as too common too), ascending,
    /// with the number of its units: what rarity weights need.
    pub(crate) shared_by_many: Vec<(u64, u32)>,
    /// The hashes left out for being in more units than allowed,
    /// ascending.
    pub(crate) too_common: Vec<u64>,
}

/// Hash → postings for the fingerprints that can pair units.
#[derive(Debug, Default)]
pub struct FingerprintIndex {
    /// Distinct kept hashes, ascending.
    hashes: Vec<u64>,
    /// Postings of unit `u` are `postings[unit_posting_starts[u]..unit_posting_starts[u + 1]]`,
    /// by hash id, document and position; `posting_hashes` holds their
    /// hash ids.
    unit_posting_starts: Vec<u32>,
    posting_hashes: Vec<u32>,
    postings: Vec<Posting>,
    /// Distinct units of `hashes[h]`, ascending:
    /// `run_units[run_unit_starts[h]..run_unit_starts[h + 1]]`.
    run_unit_starts: Vec<u32>,
    run_units: Vec<u32>,
    /// Where each unit of `run_units` holds the hash in its own list:
    /// `unit_hashes[run_slots[j]]` is the hash id whose run holds
    /// `run_units[j]`.
    run_slots: Vec<u32>,
    /// Hash ids of unit `u`, ascending:
    /// `unit_hashes[unit_hash_starts[u]..unit_hash_starts[u + 1]]`.
    unit_hash_starts: Vec<u32>,
    unit_hashes: Vec<u32>,
    /// The postings of `unit_hashes[i]` in its unit are
    /// `postings[hash_posting_starts[i]..hash_posting_starts[i + 1]]`
    /// (units' postings follow each other in the same order).
    hash_posting_starts: Vec<u32>,
    stats: IndexStats,
}

impl FingerprintIndex {
    /// Indexes the fingerprints of `units`, without those in `base` and
    /// without hashes found in more than `max_units` distinct units.
    pub fn build(units: &[Unit], base: &BaseCode, max_units: usize) -> Self {
        Self::build_counting(units, base, max_units, &UnitsElsewhere::default()).index
    }

    /// [`Self::build`] with the units `elsewhere` counted as if they were
    /// in the batch, and the counts rarity weights need, found on the way.
    pub(crate) fn build_counting(
        units: &[Unit],
        base: &BaseCode,
        max_units: usize,
        elsewhere: &UnitsElsewhere,
    ) -> Counted {
        let mut shared_by_many = Vec::new();
        let mut too_common = Vec::new();
        let mut stats = IndexStats::default();
        let (entries, base_fingerprints) = sorted_entries(units, base);
        stats.fingerprints = entries.len() + base_fingerprints;
        stats.base_fingerprints = base_fingerprints;

        let mut index = Self {
            unit_hash_starts: vec![0; units.len() + 1],
            ..Self::default()
        };
        index.run_unit_starts.push(0);
        // Where each kept hash's postings lie in `entries`.
        let mut kept_runs: Vec<std::ops::Range<usize>> = Vec::new();
        let mut unit_postings = vec![0u32; units.len() + 1];
        let mut run_units = Vec::new();
        let old: Vec<bool> = units.iter().map(|u| u.role == Role::Old).collect();
        let mut run_start = 0;
        for run in entries.chunk_by(|x, y| x.0 == y.0) {
            let range = run_start..run_start + run.len();
            run_start = range.end;
            run_units.clear();
            run_units.extend(run.iter().map(|(_, u, _)| *u));
            run_units.dedup();
            let holders = run_units.len() + elsewhere.count(run[0].0) as usize;
            if holders > 2 {
                shared_by_many.push((run[0].0, holders as u32));
            }
            if run_units.len() < 2 {
                continue;
            }
            if holders > max_units {
                too_common.push(run[0].0);
                stats.common_hashes += 1;
                stats.common_fingerprints += run.len();
                continue;
            }
            // Nor can a fragment of a pair that may be paired need it (see
            // `bounds`).
            if run_units.iter().all(|&u| old[u as usize]) {
                stats.old_only_postings += run.len();
                continue;
            }
            index.hashes.push(run[0].0);
            for &(_, u, _) in run {
                unit_postings[u as usize + 1] += 1;
            }
            kept_runs.push(range);
            index.run_units.extend_from_slice(&run_units);
            index.run_unit_starts.push(index.run_units.len() as u32);
        }
        index.place_postings(units, &entries, &kept_runs, unit_postings);
        drop(entries);
        index.invert_runs();
        stats.shared_hashes = index.hashes.len();
        stats.postings = index.postings.len();
        index.stats = stats;
        Counted {
            index,
            shared_by_many,
            too_common,
        }
    }

    /// Sorts the kept postings by unit with a counting sort (`counts[u + 1]`
    /// postings of unit `u`); taking the hashes in order keeps each unit's
    /// postings by hash id, document and position.
    fn place_postings(
        &mut self,
        units: &[Unit],
        entries: &[Entry],
        kept_runs: &[std::ops::Range<usize>],
        mut starts: Vec<u32>,
    ) {
        let places = Places::new(units);
        for u in 1..starts.len() {
            starts[u] += starts[u - 1];
        }
        let total = starts.last().copied().unwrap_or(0) as usize;
        self.posting_hashes = vec![0; total];
        self.postings = vec![Posting { doc: 0, pos: 0 }; total];
        // Placed by ranges of units of about equal postings, one per
        // thread: a range's postings are one stretch of each array, so
        // threads write apart. Each reads every kept entry in order and
        // places those of its units; the scattered writes and the lookups
        // of each posting's fingerprint, the dear part, are shared out.
        let unit_count = starts.len() - 1;
        let ranges = rayon::current_num_threads().clamp(1, unit_count.max(1));
        // Range r starts at the first unit with r/ranges of the postings
        // before it (unit 0 for the first); the last ends at the last unit.
        let mut bounds: Vec<usize> = (0..ranges)
            .map(|r| starts.partition_point(|&s| (s as usize) < r * total / ranges))
            .collect();
        bounds.push(unit_count);
        let unit_ranges: Vec<std::ops::Range<u32>> = bounds
            .windows(2)
            .map(|w| w[0] as u32..w[1] as u32)
            .collect();
        let ends = || bounds[1..].iter().map(|&u| starts[u] as usize);
        let hashes = split_at_ends(&mut self.posting_hashes, ends());
        let postings = split_at_ends(&mut self.postings, ends());
        unit_ranges
            .into_par_iter()
            .zip(hashes)
            .zip(postings)
            .for_each(|((units_of, hashes), postings)| {
                let first = starts[units_of.start as usize];
                let mut next: Vec<u32> = starts[units_of.start as usize..units_of.end as usize]
                    .iter()
                    .map(|start| start - first)
                    .collect();
                for (h, run) in kept_runs.iter().enumerate() {
                    for &(_, u, place) in &entries[run.clone()] {
                        if units_of.contains(&u) {
                            let slot = &mut next[(u - units_of.start) as usize];
                            hashes[*slot as usize] = h as u32;
                            postings[*slot as usize] = places.posting(u, place);
                            *slot += 1;
                        }
                    }
                }
            });
        self.unit_posting_starts = starts;
    }

    /// Builds unit → hash ids from hash → units by a counting sort.
    fn invert_runs(&mut self) {
        let starts = &mut self.unit_hash_starts;
        for &u in &self.run_units {
            starts[u as usize + 1] += 1;
        }
        for u in 1..starts.len() {
            starts[u] += starts[u - 1];
        }
        let mut next: Vec<u32> = starts[..starts.len() - 1].to_vec();
        let mut unit_hashes = vec![0; self.run_units.len()];
        let mut run_slots = Vec::with_capacity(self.run_units.len());
        for h in 0..self.hashes.len() {
            for &u in self.units_of(h as u32) {
                let slot = &mut next[u as usize];
                unit_hashes[*slot as usize] = h as u32;
                run_slots.push(*slot);
                *slot += 1;
            }
        }
        self.unit_hashes = unit_hashes;
        self.run_slots = run_slots;
        // Each unit's postings are by hash id, so its runs of one id are
        // its distinct hash ids in order.
        self.hash_posting_starts = Vec::with_capacity(self.unit_hashes.len() + 1);
        for u in 0..self.unit_count() {
            let mut start = self.unit_posting_starts[u];
            let end = self.unit_posting_starts[u + 1];
            for run in self.posting_hashes[start as usize..end as usize].chunk_by(|x, y| x == y) {
                self.hash_posting_starts.push(start);
                start += run.len() as u32;
            }
        }
        self.hash_posting_starts.push(self.postings.len() as u32);
        debug_assert_eq!(self.hash_posting_starts.len(), self.unit_hashes.len() + 1);
    }

    /// What was kept and dropped.
    pub fn stats(&self) -> &IndexStats {
        &self.stats
    }

    /// Number of distinct kept hashes; hash ids are `0..hash_count()`.
    pub fn hash_count(&self) -> usize {
        self.hashes.len()
    }

    /// The hash value of hash id `h`.
    pub fn hash(&self, h: u32) -> u64 {
        self.hashes[h as usize]
    }

    /// The id of `hash`, if kept.
    pub fn find(&self, hash: u64) -> Option<u32> {
        self.hashes.binary_search(&hash).ok().map(|h| h as u32)
    }

    /// The postings of unit `unit`, by hash id, document and position:
    /// their hash ids and the postings.
    fn unit_run(&self, unit: u32) -> (&[u32], &[Posting]) {
        let u = unit as usize;
        let range = self.unit_posting_starts[u] as usize..self.unit_posting_starts[u + 1] as usize;
        (&self.posting_hashes[range.clone()], &self.postings[range])
    }

    /// The postings of hash id `h` in unit `unit`, by (document, position).
    pub fn unit_postings(&self, h: u32, unit: u32) -> &[Posting] {
        let (hashes, postings) = self.unit_run(unit);
        let from = hashes.partition_point(|&x| x < h);
        let to = from + hashes[from..].partition_point(|&x| x == h);
        &postings[from..to]
    }

    /// Every hash units `a` and `b` share, in hash id order, with its
    /// postings in each: one merge of the two units' postings.
    pub(crate) fn shared_postings(&self, a: u32, b: u32) -> impl Iterator<Item = SharedRun<'_>> {
        let (hashes_a, postings_a) = self.unit_run(a);
        let (hashes_b, postings_b) = self.unit_run(b);
        let (mut i, mut j) = (0, 0);
        std::iter::from_fn(move || {
            while i < hashes_a.len() && j < hashes_b.len() {
                let (ha, hb) = (hashes_a[i], hashes_b[j]);
                match ha.cmp(&hb) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        // Runs are short: a hash repeats little inside a unit.
                        let end_a = i + hashes_a[i..].iter().take_while(|&&x| x == ha).count();
                        let end_b = j + hashes_b[j..].iter().take_while(|&&x| x == ha).count();
                        let run = SharedRun {
                            in_a: &postings_a[i..end_a],
                            in_b: &postings_b[j..end_b],
                        };
                        (i, j) = (end_a, end_b);
                        return Some(run);
                    }
                }
            }
            None
        })
    }

    /// The postings of each distinct hash id of unit `unit`, by hash id:
    /// the hash id, and the range of its postings.
    pub(crate) fn runs_of(&self, unit: u32) -> impl Iterator<Item = (u32, std::ops::Range<usize>)> {
        let range = self.hash_slots(unit);
        let starts = &self.hash_posting_starts[range.start..=range.end];
        self.unit_hashes[range]
            .iter()
            .zip(starts.windows(2))
            .map(|(&h, w)| (h, w[0] as usize..w[1] as usize))
    }

    /// Every hash the unit of `table` and unit `b` share, in hash id
    /// order, with its postings in each (`in_a` those of the table's
    /// unit): what [`Self::shared_postings`] gives, found by looking up
    /// each hash of `b` instead of merging.
    pub(crate) fn shared_postings_with<'t>(
        &'t self,
        table: &'t PostingTable,
        b: u32,
    ) -> impl Iterator<Item = SharedRun<'t>> {
        // Most hashes miss: only a hit reads where its postings are. The
        // hash ids are walked as a slice, the positions with them, so that
        // a miss costs no bounds check.
        let slots = self.hash_slots(b);
        let starts = &self.hash_posting_starts[slots.start..=slots.end];
        self.unit_hashes[slots]
            .iter()
            .enumerate()
            .filter_map(move |(i, &h)| {
                let in_a = table.find(h)?;
                let in_b = starts[i] as usize..starts[i + 1] as usize;
                Some(SharedRun {
                    in_a: &self.postings[in_a],
                    in_b: &self.postings[in_b],
                })
            })
    }

    /// Every hash the unit of `partners` and unit `b` (a later unit) share,
    /// in hash id order, with its postings in each (`in_a` those of the
    /// unit of `partners`): what [`Self::shared_postings`] gives.
    pub(crate) fn shared_postings_of<'t>(
        &'t self,
        partners: &'t PartnerRuns,
        b: u32,
    ) -> impl Iterator<Item = SharedRun<'t>> {
        let postings = |slot: u32| {
            let i = slot as usize;
            &self.postings
                [self.hash_posting_starts[i] as usize..self.hash_posting_starts[i + 1] as usize]
        };
        partners.runs(b).iter().map(move |&(in_a, in_b)| SharedRun {
            in_a: postings(in_a),
            in_b: postings(in_b),
        })
    }

    /// The distinct units holding hash id `h`, ascending.
    pub fn units_of(&self, h: u32) -> &[u32] {
        &self.run_units[self.run_range(h)]
    }

    /// Where the units of hash id `h` lie among the units of every hash
    /// (what [`Self::units_of`] slices), so that data kept per (hash, unit)
    /// can sit beside them.
    pub(crate) fn run_range(&self, h: u32) -> std::ops::Range<usize> {
        let h = h as usize;
        self.run_unit_starts[h] as usize..self.run_unit_starts[h + 1] as usize
    }

    /// The units of every hash, one hash after another ([`Self::run_range`]).
    pub(crate) fn run_units(&self) -> &[u32] {
        &self.run_units
    }

    /// For each unit of [`Self::run_units`], the slot of its own hash list
    /// that holds the hash.
    pub(crate) fn run_slots(&self) -> &[u32] {
        &self.run_slots
    }

    /// The postings at `range` ([`Self::runs_of`] gives a hash's range in
    /// its unit).
    pub(crate) fn postings_in(&self, range: std::ops::Range<usize>) -> &[Posting] {
        &self.postings[range]
    }

    /// Number of slots of all units' hash lists together: one per
    /// (unit, hash) the index keeps.
    pub(crate) fn slot_count(&self) -> usize {
        self.unit_hashes.len()
    }

    /// Number of units indexed.
    pub(crate) fn unit_count(&self) -> usize {
        self.unit_hash_starts.len() - 1
    }

    /// The kept hash ids of unit `unit`, ascending.
    pub fn hashes_of(&self, unit: u32) -> &[u32] {
        &self.unit_hashes[self.hash_slots(unit)]
    }

    /// Where the hash ids of unit `unit` lie in `unit_hashes` (and, with
    /// one more, their postings' starts in `hash_posting_starts`).
    pub(crate) fn hash_slots(&self, unit: u32) -> std::ops::Range<usize> {
        let u = unit as usize;
        self.unit_hash_starts[u] as usize..self.unit_hash_starts[u + 1] as usize
    }
}

/// One fingerprint of the batch: its hash, its unit, and its place among
/// the unit's fingerprints (its documents' lists one after another), 16
/// bytes where the posting itself would take 24 with padding. The lists
/// are in position order, so entries sort by place as by posting.
type Entry = (u64, u32, u32);

/// Where each document's fingerprints start among its unit's
/// ([`Entry`]'s places), to turn a place back into a posting.
struct Places<'a> {
    units: &'a [Unit],
    /// The places before each document of a unit with more than one,
    /// those of all such units one after another; `unit_firsts[u]` is
    /// where unit `u`'s start.
    doc_firsts: Vec<u32>,
    unit_firsts: Vec<u32>,
}

impl<'a> Places<'a> {
    fn new(units: &'a [Unit]) -> Self {
        let mut doc_firsts = Vec::new();
        let mut unit_firsts = Vec::with_capacity(units.len());
        for unit in units {
            unit_firsts.push(doc_firsts.len() as u32);
            if unit.documents.len() > 1 {
                let mut first = 0;
                for doc in &unit.documents {
                    doc_firsts.push(first);
                    first += doc.fingerprints.len() as u32;
                }
            }
        }
        Self {
            units,
            doc_firsts,
            unit_firsts,
        }
    }

    /// The posting of the fingerprint at `place` in unit `unit`.
    fn posting(&self, unit: u32, place: u32) -> Posting {
        let documents = &self.units[unit as usize].documents;
        let (doc, first) = if documents.len() == 1 {
            (0, 0)
        } else {
            let from = self.unit_firsts[unit as usize] as usize;
            let firsts = &self.doc_firsts[from..from + documents.len()];
            // The last document starting at or before `place` (empty
            // documents start where the next one does).
            let doc = firsts.partition_point(|&first| first <= place) - 1;
            (doc, firsts[doc])
        };
        Posting {
            doc: doc as u32,
            pos: documents[doc].fingerprints[(place - first) as usize].pos,
        }
    }
}

/// Fingerprints per bucket of [`sorted_entries`], on average, in small
/// batches: a bucket is sorted within the cache.
const ENTRIES_PER_BUCKET: usize = 64;

/// At most this many bits of bucket number: the write front of every
/// bucket stays in the cache while fingerprints are placed (in large
/// batches, buckets grow instead).
const MAX_BUCKET_BITS: u32 = 12;

/// Above this many entries a bucket is sorted on several threads too (its
/// hashes crowd into few top bits).
const LARGE_BUCKET: usize = 1 << 16;

/// Every fingerprint of `units` outside `base`, sorted by (hash, unit,
/// document, position), and how many were in `base`.
///
/// Fingerprints are placed straight into buckets by the top bits of their
/// hash, then each bucket is sorted on its own, in parallel: one pass over
/// memory and many small cached sorts instead of a sort of the whole
/// vector, with no more memory than the vector.
fn sorted_entries(units: &[Unit], base: &BaseCode) -> (Vec<Entry>, usize) {
    let kept = |hash: u64| base.is_empty() || !base.contains(hash);
    let all: usize = units
        .iter()
        .flat_map(|u| &u.documents)
        .map(|d| d.fingerprints.len())
        .sum();
    let bits = (all / ENTRIES_PER_BUCKET)
        .max(1)
        .ilog2()
        .min(MAX_BUCKET_BITS);
    let shift = 64 - bits;
    let bucket = |hash: u64| hash_bucket(hash, shift);
    let buckets = 1usize << bits;
    let mut starts = units
        .par_iter()
        .fold(
            || vec![0usize; buckets + 1],
            |mut counts, unit| {
                for doc in &unit.documents {
                    for f in doc.fingerprints.iter().filter(|f| kept(f.hash)) {
                        counts[bucket(f.hash) + 1] += 1;
                    }
                }
                counts
            },
        )
        .reduce(
            || vec![0usize; buckets + 1],
            |mut x, y| {
                x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
                x
            },
        );
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let total = starts[buckets];
    let mut entries: Vec<Entry> = vec![(0, 0, 0); total];
    // Scattered by ranges of buckets, one per thread: a range of buckets
    // is one stretch of `entries`, so the threads write apart. Each reads
    // every fingerprint (in order, cheap) and places those of its range;
    // the scattered writes, the dear part, are shared out.
    let ranges = rayon::current_num_threads().clamp(1, buckets);
    let bucket_ranges: Vec<std::ops::Range<usize>> = (0..ranges)
        .map(|r| r * buckets / ranges..(r + 1) * buckets / ranges)
        .collect();
    let stretches = split_at_ends(&mut entries, bucket_ranges.iter().map(|b| starts[b.end]));
    bucket_ranges
        .into_par_iter()
        .zip(stretches)
        .for_each(|(buckets_of, stretch)| {
            let first = starts[buckets_of.start];
            let mut next: Vec<usize> = starts[buckets_of.clone()]
                .iter()
                .map(|start| start - first)
                .collect();
            for (u, unit) in units.iter().enumerate() {
                let fingerprints = unit.documents.iter().flat_map(|d| &d.fingerprints);
                for (place, f) in fingerprints.enumerate() {
                    // The range first: each thread asks the base code only
                    // of its own fingerprints.
                    let b = bucket(f.hash);
                    if buckets_of.contains(&b) && kept(f.hash) {
                        let slot = &mut next[b - buckets_of.start];
                        stretch[*slot] = (f.hash, u as u32, place as u32);
                        *slot += 1;
                    }
                }
            }
        });
    let mut slices = split_at_ends(&mut entries, starts[1..].iter().copied());
    slices.par_iter_mut().for_each(|slice| {
        if slice.len() > LARGE_BUCKET {
            slice.par_sort_unstable();
        } else {
            slice.sort_unstable();
        }
    });
    (entries, all - total)
}

/// `slice` cut into consecutive pieces ending at `ends` (ascending
/// offsets into it, the last its length): stretches that threads fill or
/// sort apart.
fn split_at_ends<T>(mut slice: &mut [T], ends: impl IntoIterator<Item = usize>) -> Vec<&mut [T]> {
    let mut pieces = Vec::new();
    let mut at = 0;
    for end in ends {
        let (piece, rest) = std::mem::take(&mut slice).split_at_mut(end - at);
        pieces.push(piece);
        slice = rest;
        at = end;
    }
    pieces
}

/// The bucket of `hash` among `2^(64 - shift)` buckets: its top bits (0
/// when `shift` is 64, one bucket).
pub(crate) fn hash_bucket(hash: u64, shift: u32) -> usize {
    hash.checked_shr(shift).unwrap_or(0) as usize
}

/// Where each hash id of one unit lies among that unit's postings: an
/// open-addressing table sized to the unit, so that pairing it with many
/// others looks each of their hashes up in a few cached words instead of
/// merging the two units' postings every time.
///
/// Most lookups miss (a partner holds many hashes the unit lacks), so a bit
/// per hash id of the whole index says first whether the unit holds it:
/// a miss then costs one bit test instead of a hash and a probe.
#[derive(Debug, Default)]
pub(crate) struct PostingTable {
    /// The unit's hash ids, one bit per id of the index.
    members: Vec<u64>,
    /// Hash ids; `EMPTY` slots are free.
    ids: Vec<u32>,
    /// The postings of the hash id in the same slot: first, one past the
    /// last, in the index's postings.
    postings: Vec<(u32, u32)>,
    /// `ids.len() - 1`, a power of two minus one.
    mask: usize,
    /// 32 minus the bits of a slot index.
    shift: u32,
}

impl PostingTable {
    const EMPTY: u32 = u32::MAX;

    /// Fills the table with the hash ids of `unit`, reusing its memory.
    pub(crate) fn fill(&mut self, index: &FingerprintIndex, unit: u32) {
        let distinct = index.hashes_of(unit).len();
        // At most a quarter full: most lookups miss, and a miss mostly
        // ends at the first slot.
        let size = (4 * distinct).next_power_of_two().max(2);
        // Only the bits of the unit filled before are set.
        for &h in self.ids.iter().filter(|&&h| h != Self::EMPTY) {
            self.members[h as usize / 64] = 0;
        }
        self.members.resize(index.hash_count().div_ceil(64), 0);
        self.ids.clear();
        self.ids.resize(size, Self::EMPTY);
        self.postings.resize(size, (0, 0));
        self.mask = size - 1;
        self.shift = 32 - size.trailing_zeros();
        for (h, postings) in index.runs_of(unit) {
            let mut at = self.home(h);
            while self.ids[at] != Self::EMPTY {
                at = (at + 1) & self.mask;
            }
            self.ids[at] = h;
            self.postings[at] = (postings.start as u32, postings.end as u32);
            bitset::insert(&mut self.members, h as usize);
        }
    }

    /// Where hash id `h` would sit first: the top bits of a
    /// multiplicative hash, as ids close together must spread.
    fn home(&self, h: u32) -> usize {
        (h.wrapping_mul(0x9E37_79B9) >> self.shift) as usize
    }

    /// The postings range of hash id `h`, if the unit holds it.
    fn find(&self, h: u32) -> Option<std::ops::Range<usize>> {
        if !bitset::contains(&self.members, h as usize) {
            return None;
        }
        let mut at = self.home(h);
        loop {
            let id = self.ids[at];
            if id == h {
                let (start, end) = self.postings[at];
                return Some(start as usize..end as usize);
            }
            if id == Self::EMPTY {
                return None;
            }
            at = (at + 1) & self.mask;
        }
    }
}

/// The hashes one unit shares with each later unit, found once for all
/// its pairs: each hash of the unit lists the units holding it, so one
/// pass over those lists gives every partner its shared hashes, where
/// looking each of a partner's hashes up (most of which the unit lacks)
/// cost a lookup per hash per pair.
#[derive(Debug, Default)]
pub(crate) struct PartnerRuns {
    /// The shared hashes of each partner, one after another: where the
    /// hash lies in the unit's hash list and in the partner's (slots of
    /// `unit_hashes`), in hash id order.
    slots: Vec<(u32, u32)>,
    /// Where each partner's shared hashes start in `slots`, and how many
    /// there are (0 for a unit sharing nothing, whatever its start).
    starts: Vec<u32>,
    counts: Vec<u32>,
    /// Partners sharing something, so that only their counts are reset.
    partners: Vec<u32>,
    /// `(partner, slot in the unit, slot in the partner)`, in the unit's
    /// hash order, before they are grouped by partner.
    found: Vec<(u32, u32, u32)>,
}

impl PartnerRuns {
    /// Finds what `unit` shares with every unit after it, reusing the
    /// memory of an earlier unit.
    pub(crate) fn fill(&mut self, index: &FingerprintIndex, unit: u32) {
        for &p in &self.partners {
            self.counts[p as usize] = 0;
        }
        self.partners.clear();
        self.counts.resize(index.unit_count(), 0);
        self.starts.resize(self.counts.len(), 0);
        self.found.clear();
        for slot in index.hash_slots(unit) {
            let h = index.unit_hashes[slot] as usize;
            let run = index.run_unit_starts[h] as usize..index.run_unit_starts[h + 1] as usize;
            let (units, slots) = (&index.run_units[run.clone()], &index.run_slots[run]);
            // Units are ascending: the later ones end the run.
            let later = units.partition_point(|&u| u <= unit);
            for (&u, &partner_slot) in units[later..].iter().zip(&slots[later..]) {
                let count = &mut self.counts[u as usize];
                if *count == 0 {
                    self.partners.push(u);
                }
                *count += 1;
                self.found.push((u, slot as u32, partner_slot));
            }
        }
        // Grouped by partner with a counting sort, which keeps each
        // partner's hashes in order.
        let mut next = 0;
        for &p in &self.partners {
            self.starts[p as usize] = next;
            next += self.counts[p as usize];
        }
        self.slots.resize(self.found.len(), (0, 0));
        for &(u, slot, partner_slot) in &self.found {
            let at = &mut self.starts[u as usize];
            self.slots[*at as usize] = (slot, partner_slot);
            *at += 1;
        }
        // Each start has moved to its partner's end.
        for &p in &self.partners {
            self.starts[p as usize] -= self.counts[p as usize];
        }
    }

    /// What the unit shares with `partner` (a later unit), as slots of
    /// `unit_hashes` in the unit and in the partner, in hash id order.
    fn runs(&self, partner: u32) -> &[(u32, u32)] {
        let p = partner as usize;
        match self.counts.get(p) {
            Some(&count) if count > 0 => {
                let start = self.starts[p] as usize;
                &self.slots[start..start + count as usize]
            }
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests;
