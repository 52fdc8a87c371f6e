//! Ganguly and Veda's randomised sketch: any run of W k-grams shared by two
//! documents shares a fingerprint with probability at least 1 − δ, and the
//! number of fingerprints has a deterministic bound, whatever the input.
//!
//! Winnowing keeps about 2m/(W+1) fingerprints on random text, but a
//! crafted or low-entropy input (decreasing hashes, periodic text) makes it
//! keep nearly every k-gram. The sketch instead keeps three capped
//! structures, built in two passes over the hashes:
//!
//! 1. **Globally frequent k-grams.** A count-sketch estimates
//!    every k-gram's frequency; those estimated at ≥ L are kept once, at
//!    their first position (the paper stores no position; the first
//!    occurrence is what a report can point at). They are left out of the
//!    other structures, where their many occurrences would crowd the sample.
//! 2. **Window-frequent k-grams.** The document is cut into partitions of 2W
//!    k-grams overlapping by W, so every run of W k-grams lies inside one.
//!    A k-gram occurring ≥ k = W/t times inside a partition is kept once for
//!    that partition, at its first occurrence there; its occurrences inside
//!    the partition are not offered to the sample. A run that repeats a
//!    k-gram this often is found deterministically: both documents keep it,
//!    at most W − 1 positions before the run (where its partition starts).
//! 3. **The distinct sample** of everything else: all occurrences of the
//!    k-grams whose level (trailing zeros of a keyed hash) is above the
//!    sample's final level, at most s entries. A run with no window-frequent
//!    k-gram has at least t distinct k-grams, and both documents sample a
//!    given one with probability about p, so the run is missed with
//!    probability at most about (1 − p)^t.
//!
//! Sizes come from a [`SketchPlan`] per document: with [`Sketch::new`] the
//! paper's (s given; `L = 7s/(16·ln(1/δ))`, `t = (2/p)·ln(1/δ)`, p = s/m);
//! with [`Sketch::with_total_size`] the future-work variant of §V (one total
//! S split between the three). [`SketchPlan::max_items`] is the bound.
//!
//! The guarantee holds between documents whose sampling rates are alike:
//! a k-gram must be sampled by both, and a document far longer than the
//! other samples more thinly (the analogue of Koala's §3.5 limitation). In
//! the paper's plan the bound grows like m·t/W, so a document too long for s
//! gets k = 1 — every k-gram is window-frequent — and degrades to full
//! fingerprinting rather than lose the guarantee; use the total-size variant
//! for a fixed bound.
//!
//! Cost: the count-sketch evaluates one degree-3 polynomial per row and
//! k-gram in each pass and probes its table at random; the second pass
//! counts each block of W k-grams in a small map. Several times slower than
//! winnowing, which is one comparison per k-gram.

mod count_sketch;
mod distinct_sample;
mod plan;
mod premixed;

pub use plan::SketchPlan;
pub(crate) use premixed::{PremixedMap, PremixedSet};

use count_sketch::{CountSketch, MAX_ROWS};
use distinct_sample::DistinctSample;

use super::{Fingerprint, KGrams, Selector};
use crate::hash::splitmix64;

/// Domain separators for the keys derived from the seed.
const COUNT_SKETCH_DOMAIN: u64 = 0x6776_2D63_6F75_6E74;
const LEVEL_DOMAIN: u64 = 0x6776_2D6C_6576_656C;

/// How the sketch's space is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SketchBudget {
    /// The paper's s: the distinct sample's capacity; the other structures
    /// are sized from it, δ and the document length.
    SampleSize(usize),
    /// §V: one total S for all three structures, split per document.
    TotalSize(usize),
}

/// The parameters of [`Sketch`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SketchParams {
    /// W in k-grams: runs of W k-grams (W + k − 1 symbols) are to be found.
    /// Default 100, winnowing's window for the same density on random text
    /// (§5.1 of the winnowing paper).
    pub window: usize,
    /// δ, the allowed probability of missing such a run. Default 0.05.
    pub delta: f64,
    /// The space budget. Default `SampleSize(4096)`: the paper's plan then
    /// keeps k ≥ 2 (a real sample, not full fingerprinting) for documents of
    /// up to W·s / (4·ln(1/δ)) ≈ 34 000 k-grams.
    pub budget: SketchBudget,
    /// Rows of the count-sketch; rounded up to odd so the median is one row.
    /// `None`: ⌈ln(1/δ)⌉ (the paper's O(log 1/δ)).
    pub count_sketch_rows: Option<usize>,
    /// Buckets per count-sketch row. `None`: m/32 rounded up to a power of
    /// two, between 256 and 2^15. The table then stays within a core's L2
    /// cache (it is probed at random), and the noise of an estimate,
    /// about √(8·F2/B), stays near 16 for a million k-grams that mostly
    /// occur once — far below the thresholds L of useful plans.
    pub count_sketch_buckets: Option<usize>,
    /// The key of every random choice. Default 0.
    pub seed: u64,
}

impl Default for SketchParams {
    fn default() -> Self {
        Self {
            window: 100,
            delta: 0.05,
            budget: SketchBudget::SampleSize(4096),
            count_sketch_rows: None,
            count_sketch_buckets: None,
            seed: 0,
        }
    }
}

/// Ganguly and Veda's two-pass sketch: fingerprints such that a run of
/// W k-grams shared by two documents shares one with probability ≥ 1 − δ,
/// at most [`Sketch::max_items`] of them per document.
///
/// It keeps the k-grams a count-sketch estimates to occur ≥ L times in the
/// document (once each, at their first position), the k-grams occurring
/// ≥ k times in a partition of 2W k-grams (once per partition, at their
/// first occurrence there), and a level-sampled distinct sample of at most
/// s other occurrences. Fingerprints are in position order, one per
/// position.
///
/// ```
/// use copyhound_fingerprint::{KGramHasher, Selector, Sketch, SketchParams};
///
/// // A low-entropy document: winnowing would keep a fingerprint every
/// // ~w positions, the sketch a fixed number however long it gets.
/// let symbols: Vec<u32> = "abcdefg".bytes().cycle().take(50_000).map(u32::from).collect();
/// let sketch = Sketch::with_total_size(500, SketchParams::default());
/// let hasher = KGramHasher::new(20, 7);
/// let mut fingerprints = Vec::new();
/// sketch.fingerprint(&hasher, &symbols, &mut fingerprints);
/// assert!(fingerprints.len() <= sketch.max_items(hasher.kgram_count(symbols.len())));
/// assert!(sketch.max_items(hasher.kgram_count(symbols.len())) <= 500);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Sketch {
    params: SketchParams,
    rows: usize,
}

impl Sketch {
    /// A sketch with the given parameters.
    ///
    /// # Panics
    /// If `window` is zero, `delta` is not strictly between 0 and 1, or the
    /// count-sketch shape is zero or has more than 15 rows.
    pub fn new(params: SketchParams) -> Self {
        assert!(params.window > 0, "the sketch window W must be positive");
        assert!(
            params.delta > 0.0 && params.delta < 1.0,
            "delta is a probability strictly between 0 and 1"
        );
        assert!(
            params.count_sketch_buckets != Some(0),
            "a count-sketch row needs a bucket"
        );
        let rows = params
            .count_sketch_rows
            .unwrap_or_else(|| (1.0 / params.delta).ln().ceil() as usize)
            .max(1)
            | 1;
        assert!(rows <= MAX_ROWS, "at most {MAX_ROWS} count-sketch rows");
        Self { params, rows }
    }

    /// A sketch of at most `total` fingerprints per document (§V): `params`
    /// with its budget replaced by [`SketchBudget::TotalSize`].
    pub fn with_total_size(total: usize, params: SketchParams) -> Self {
        Self::new(SketchParams {
            budget: SketchBudget::TotalSize(total),
            ..params
        })
    }

    /// The parameters.
    pub fn params(&self) -> &SketchParams {
        &self.params
    }

    /// The sizes used for a document of `kgrams` k-grams.
    pub fn plan(&self, kgrams: usize) -> SketchPlan {
        match self.params.budget {
            SketchBudget::SampleSize(s) => {
                SketchPlan::for_sample_size(kgrams, self.params.window, self.params.delta, s)
            }
            SketchBudget::TotalSize(total) => {
                SketchPlan::for_total_size(kgrams, self.params.window, total)
            }
        }
    }

    /// The deterministic bound on the number of fingerprints of a document
    /// of `kgrams` k-grams; see [`SketchPlan::max_items`].
    pub fn max_items(&self, kgrams: usize) -> usize {
        self.plan(kgrams).max_items()
    }

    /// Pass 1: the globally frequent k-grams and their first positions.
    fn global_frequent(&self, hashes: &[u64], plan: &SketchPlan) -> PremixedMap<u32> {
        let mut frequent = PremixedMap::default();
        let Some(threshold) = plan.global_threshold else {
            return frequent;
        };
        if plan.global_capacity == 0 {
            return frequent;
        }
        let buckets = self
            .params
            .count_sketch_buckets
            .unwrap_or_else(|| (hashes.len() / 32).next_power_of_two().clamp(256, 1 << 15));
        let mut counts = CountSketch::new(self.rows, buckets, self.key(COUNT_SKETCH_DOMAIN));
        for &hash in hashes {
            counts.add(hash);
        }
        let mut candidates: PremixedMap<(i64, u32)> = PremixedMap::default();
        let threshold = i64::try_from(threshold).unwrap_or(i64::MAX);
        for (pos, &hash) in hashes.iter().enumerate() {
            if candidates.contains_key(&hash) {
                continue;
            }
            if let Some(estimate) = counts.estimate_at_least(hash, threshold) {
                candidates.insert(hash, (estimate, pos as u32));
            }
        }
        let mut ranked: Vec<(u64, (i64, u32))> = candidates.into_iter().collect();
        // Over-estimates must not push the bound: keep the highest estimates.
        ranked.sort_unstable_by_key(|&(hash, (estimate, _))| (std::cmp::Reverse(estimate), hash));
        ranked.truncate(plan.global_capacity);
        frequent.extend(ranked.into_iter().map(|(hash, (_, pos))| (hash, pos)));
        frequent
    }

    fn key(&self, domain: u64) -> u64 {
        let mut state = self.params.seed ^ domain;
        splitmix64(&mut state)
    }
}

impl Selector for Sketch {
    fn name(&self) -> &'static str {
        "sketch"
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        let hashes = kgrams.hashes;
        if hashes.is_empty() {
            return;
        }
        let plan = self.plan(hashes.len());
        let global = self.global_frequent(hashes, &plan);
        let mut sample = DistinctSample::new(plan.sample_size, self.key(LEVEL_DOMAIN));
        let window_frequent = window_frequent_and_sample(hashes, &plan, &global, &mut sample);
        let mut sampled = Vec::new();
        sample.drain_into(&mut sampled);
        // Each level is in position order: a merge sort merges the runs.
        sampled.sort_by_key(|f| f.pos);
        // Each position belongs to exactly one structure, and each list is
        // sorted now: the final sort merges three runs.
        let first = out.len();
        out.extend(
            global
                .iter()
                .map(|(&hash, &pos)| Fingerprint::new(hash, pos as usize)),
        );
        out.extend(window_frequent);
        out.extend(sampled);
        out[first..].sort_by_key(|f| f.pos);
        debug_assert!(out[first..].windows(2).all(|p| p[0].pos < p[1].pos));
    }
}

/// Pass 2: offers the k-grams to `sample`, except the globally and the
/// window-frequent ones; returns the window-frequent entries, in position
/// order and one per position.
fn window_frequent_and_sample(
    hashes: &[u64],
    plan: &SketchPlan,
    global: &PremixedMap<u32>,
    sample: &mut DistinctSample,
) -> Vec<Fingerprint> {
    let mut frequent = Vec::new();
    let mut run = Vec::new();
    let mut scratch = Vec::new();
    let window = plan.window;
    let blocks = hashes.len().div_ceil(window);
    let block = |b: usize| b * window..(b + 1).saturating_mul(window).min(hashes.len());
    let mut counter = PartitionCounter::new(plan.window_threshold, window);
    let mut previous = PremixedSet::default();
    let mut current = PremixedSet::default();
    counter.count_block(hashes, block(0), global);
    for j in 0..blocks.saturating_sub(1).max(1) {
        // Partition j is blocks j and j + 1.
        if j + 1 < blocks {
            counter.count_block(hashes, block(j + 1), global);
        }
        current.clear();
        run.clear();
        counter.frequent_in_partition(&mut current, &mut run);
        merge_run(&mut frequent, &run, &mut scratch);
        offer_block(hashes, block(j), global, [&previous, &current], sample);
        std::mem::swap(&mut previous, &mut current);
        counter.advance();
    }
    if blocks >= 2 {
        // The last block lies only in the last partition.
        current.clear();
        offer_block(
            hashes,
            block(blocks - 1),
            global,
            [&previous, &current],
            sample,
        );
    }
    frequent
}

/// Merges `run`, sorted, into the sorted `list`, keeping one entry per
/// position (consecutive partitions overlap, so a k-gram frequent in both
/// can be reported at the same occurrence twice). Only the tail of `list`
/// from the run's first position on is touched: one partition's worth.
fn merge_run(list: &mut Vec<Fingerprint>, run: &[Fingerprint], scratch: &mut Vec<Fingerprint>) {
    let Some(head) = run.first() else {
        return;
    };
    let split = list.partition_point(|f| f.pos < head.pos);
    scratch.clear();
    let (mut i, mut j) = (split, 0);
    while i < list.len() && j < run.len() {
        match list[i].pos.cmp(&run[j].pos) {
            std::cmp::Ordering::Less => {
                scratch.push(list[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                scratch.push(run[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                scratch.push(list[i]);
                i += 1;
                j += 1;
            }
        }
    }
    scratch.extend_from_slice(&list[i..]);
    scratch.extend_from_slice(&run[j..]);
    list.truncate(split);
    list.append(scratch);
}

/// Offers the k-grams of one block to the sample, except those kept as
/// globally frequent or as window-frequent in a partition containing it.
fn offer_block(
    hashes: &[u64],
    block: std::ops::Range<usize>,
    global: &PremixedMap<u32>,
    frequent: [&PremixedSet; 2],
    sample: &mut DistinctSample,
) {
    let no_frequent = frequent.iter().all(|set| set.is_empty());
    for pos in block {
        let hash = hashes[pos];
        if (!global.is_empty() && global.contains_key(&hash))
            || (!no_frequent && frequent.iter().any(|set| set.contains(&hash)))
        {
            continue;
        }
        sample.insert(hash, pos);
    }
}

/// Occurrence counts of two consecutive blocks (one partition).
struct PartitionCounter {
    threshold: Option<usize>,
    /// Per hash, its count and first position in the block.
    this_block: PremixedMap<(u32, u32)>,
    next_block: PremixedMap<(u32, u32)>,
    filled: usize,
}

impl PartitionCounter {
    fn new(threshold: Option<usize>, window: usize) -> Self {
        Self {
            // A partition of 2W k-grams cannot hold more occurrences.
            threshold: threshold.filter(|&k| k <= window.saturating_mul(2)),
            this_block: PremixedMap::default(),
            next_block: PremixedMap::default(),
            filled: 0,
        }
    }

    /// Counts a block into the first free slot (this, then next).
    fn count_block(
        &mut self,
        hashes: &[u64],
        block: std::ops::Range<usize>,
        global: &PremixedMap<u32>,
    ) {
        let target = if self.filled == 0 {
            &mut self.this_block
        } else {
            &mut self.next_block
        };
        self.filled += 1;
        if self.threshold.is_none() {
            return;
        }
        target.clear();
        for pos in block {
            let hash = hashes[pos];
            if global.contains_key(&hash) {
                continue;
            }
            target
                .entry(hash)
                .and_modify(|(count, _)| *count += 1)
                .or_insert((1, pos as u32));
        }
    }

    /// Adds the k-grams frequent in this partition to `set`, and a
    /// fingerprint at the first occurrence of each to `out`, sorted.
    fn frequent_in_partition(&self, set: &mut PremixedSet, out: &mut Vec<Fingerprint>) {
        let Some(threshold) = self.threshold else {
            return;
        };
        let threshold = threshold as u32;
        let start = out.len();
        for (&hash, &(count, first)) in &self.this_block {
            let more = self.next_block_count(hash);
            if count + more >= threshold {
                set.insert(hash);
                out.push(Fingerprint::new(hash, first as usize));
            }
        }
        if self.filled == 2 {
            for (&hash, &(count, first)) in &self.next_block {
                if count >= threshold && !self.this_block.contains_key(&hash) {
                    set.insert(hash);
                    out.push(Fingerprint::new(hash, first as usize));
                }
            }
        }
        out[start..].sort_unstable_by_key(|f| f.pos);
    }

    fn next_block_count(&self, hash: u64) -> u32 {
        if self.filled < 2 {
            return 0;
        }
        self.next_block.get(&hash).map_or(0, |&(count, _)| count)
    }

    /// Slides by one block: the next block becomes this one.
    fn advance(&mut self) {
        if self.filled == 2 {
            std::mem::swap(&mut self.this_block, &mut self.next_block);
            self.filled = 1;
        }
    }
}
