//! Koala's fixed-size selection (Heintze 1996, §3.2–3.4 and §6.1).
//!
//! A document gets two fingerprints of fixed size, whatever its length: a
//! *search* fingerprint of at most N k-grams, used to query the database, and
//! a *stored* fingerprint of at most n of those, kept in the database.
//!
//! **Search set.** Every k-gram position gets the key
//! `(prefix count, keyed rank)` and the N smallest keys of distinct hashes
//! win:
//!
//! - *prefix count* — how often the k-gram's first `prefix` symbols occur in
//!   the document (§6.1). A k-gram starting with a rare prefix is likely rare
//!   in general, so preferring them halves the false positives between
//!   unrelated documents (Table 4). Counting is lexicographic: every k-gram
//!   with a prefix seen once comes before any with a prefix seen twice.
//! - *keyed rank* — a bijective mix of the hash with a key derived from the
//!   seed. It orders k-grams within one prefix count like "the n lowest hash
//!   values" of §3.4, so similar documents pick similar k-grams, and without
//!   the seed nobody can tell which ones (§3.3).
//!
//! Prefix frequencies are counted over every position of the document (after
//! the skipped prologue, see [`KoalaParams::skip`]) where `prefix` symbols
//! fit, through a keyed hash of the prefix. Each distinct hash is selected
//! once, at its first position, so a repeated paragraph cannot fill the
//! fingerprint. A document with at most N distinct k-grams has all of them
//! selected. Without symbols (a [`KGrams::from_hashes`] view) or with
//! `prefix` 0, every count is equal and the selection is the N lowest ranks.
//!
//! **Stored set.** [`KoalaSelector::stored`] ranks a search set by a second
//! keyed hash that also takes a `rotation` key and keeps the n smallest. It
//! reads nothing but the search set, so a database can re-select every
//! stored set under a new rotation key without the documents (§3.3), and the
//! stored set is a subset of the search set by construction. The preference
//! for rare prefixes carries over: the search set already consists of them.

use super::{Fingerprint, KGrams, Selector};
use crate::KGramHasher;
use crate::hash::splitmix64;

/// Domain separators, so the three keys derived from one seed differ.
const SEARCH_DOMAIN: u64 = 0x6B6F_616C_6173_6561;
const STORED_DOMAIN: u64 = 0x6B6F_616C_6173_746F;
const PREFIX_DOMAIN: u64 = 0x6B6F_616C_6170_7265;

/// The parameters of [`KoalaSelector`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoalaParams {
    /// N, the size of the search fingerprint. Default 1000: Heintze's
    /// baseline; Table 6 shows results barely change from 500 to 5000.
    pub search_size: usize,
    /// n, the size of the stored fingerprint. Default 100: Heintze's
    /// baseline (400 bytes per document with 4-byte entries); Table 5 shows
    /// 100 balances missed matches against noise.
    pub stored_size: usize,
    /// Length of the prefix whose frequency in the document ranks k-grams.
    /// Default 5, Heintze's "first five letters" (§6.1): long enough to be
    /// rare, short enough that a document holds a useful frequency sample.
    /// Clipped to k.
    pub prefix: usize,
    /// Symbols at the start of the document whose k-grams are never
    /// selected: the prologue rule of §6.3 (Heintze skips 1000 characters of
    /// addresses, acknowledgements and converter banners). Default 0, since
    /// the right count depends on the front-end; a document that cannot spare
    /// its prologue keeps enough of it to leave N k-grams.
    pub skip: usize,
    /// The secret that decides the ranks. Default 0.
    pub seed: u64,
}

impl Default for KoalaParams {
    fn default() -> Self {
        Self {
            search_size: 1000,
            stored_size: 100,
            prefix: 5,
            skip: 0,
            seed: 0,
        }
    }
}

/// Koala's fixed-size selector: [`Selector::select`] yields the search
/// fingerprint, [`KoalaSelector::stored`] the stored subset of it.
///
/// ```
/// use copyhound_fingerprint::{KGramHasher, KoalaParams, KoalaSelector, Selector};
///
/// let text = "it was the best of times, it was the worst of times, ".repeat(40);
/// let symbols: Vec<u32> = text.bytes().map(u32::from).collect();
/// let koala = KoalaSelector::new(KoalaParams { search_size: 50, stored_size: 5, seed: 42, ..KoalaParams::default() });
/// let mut search = Vec::new();
/// koala.fingerprint(&KGramHasher::new(20, 42), &symbols, &mut search);
/// let mut stored = Vec::new();
/// koala.stored(&search, 1, &mut stored);
/// assert!(search.len() <= 50 && stored.len() == 5);
/// assert!(stored.iter().all(|f| search.contains(f)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoalaSelector {
    params: KoalaParams,
    search_key: u64,
    prefix_seed: u64,
}

impl KoalaSelector {
    /// A selector with the given parameters.
    ///
    /// # Panics
    /// If `search_size` is zero or smaller than `stored_size`.
    pub fn new(params: KoalaParams) -> Self {
        assert!(
            params.search_size > 0,
            "the search fingerprint needs N >= 1"
        );
        assert!(
            params.stored_size <= params.search_size,
            "the stored fingerprint (n) is a subset of the search fingerprint (N)"
        );
        Self {
            params,
            search_key: derive_key(params.seed, SEARCH_DOMAIN),
            prefix_seed: derive_key(params.seed, PREFIX_DOMAIN),
        }
    }

    /// The parameters.
    pub fn params(&self) -> &KoalaParams {
        &self.params
    }

    /// Appends to `out` the stored fingerprint derived from `search`: the
    /// `stored_size` distinct hashes of smallest rank under `rotation`, in
    /// position order.
    ///
    /// Only the search set is read, so a new `rotation` re-selects a stored
    /// set without the document. Every returned fingerprint is an element of
    /// `search`.
    pub fn stored(&self, search: &[Fingerprint], rotation: u64, out: &mut Vec<Fingerprint>) {
        let key = derive_key(
            self.params.seed ^ derive_key(rotation, STORED_DOMAIN),
            STORED_DOMAIN,
        );
        let wanted = self.params.stored_size;
        let mut ranked: Vec<(u64, Fingerprint)> =
            search.iter().map(|&f| (rank(f.hash, key), f)).collect();
        let by_rank = |&(r, f): &(u64, Fingerprint)| (r, f.pos);
        // A search set holds distinct hashes, so the n smallest ranks are
        // the answer: partitioning around the n-th is linear where sorting
        // all N is not. Only when those n repeat a hash (a search slice with
        // repeats) does every candidate need sorting, to skip the repeats.
        if wanted < ranked.len() {
            ranked.select_nth_unstable_by_key(wanted, by_rank);
            ranked[..wanted].sort_unstable_by_key(by_rank);
            if ranked[..wanted].windows(2).any(|w| w[0].0 == w[1].0) {
                ranked.sort_unstable_by_key(by_rank);
            }
        } else {
            ranked.sort_unstable_by_key(by_rank);
        }
        // Sorted by (rank, position): each hash's first position comes first.
        ranked.dedup_by_key(|&mut (r, _)| r);
        ranked.truncate(wanted);
        let first = out.len();
        out.extend(ranked.into_iter().map(|(_, f)| f));
        out[first..].sort_unstable_by_key(|f| f.pos);
    }

    /// Where selection starts: the skip, unless that leaves fewer than N
    /// k-grams.
    fn first_selectable(&self, kgrams: usize) -> usize {
        self.params
            .skip
            .min(kgrams.saturating_sub(self.params.search_size))
    }
}

impl KoalaSelector {
    /// Appends to `out` the hashes of the search fingerprint of `symbols`,
    /// in no particular order: [`Selector::fingerprint`] without the
    /// positions and their sort, for callers that keep only the set (a
    /// database print).
    pub fn search_hashes(&self, hasher: &KGramHasher, symbols: &[u32], out: &mut Vec<u64>) {
        with_scratch(|scratch| {
            let hashes = scratch.hash(hasher, symbols);
            let kgrams = KGrams::new(symbols, &hashes, hasher.k());
            self.select_keys(&kgrams, scratch);
            out.extend(
                scratch
                    .best
                    .iter()
                    .map(|&key| kgrams.hashes[key_position(key)]),
            );
            scratch.hashes = hashes;
        });
    }

    /// Leaves in `scratch.best` the packed keys of the search fingerprint,
    /// in key order.
    fn select_keys(&self, kgrams: &KGrams<'_>, scratch: &mut Scratch) {
        let first = self.first_selectable(kgrams.hashes.len());
        let prefix_counts = PrefixCounts::new(
            kgrams,
            self.params.prefix,
            first,
            self.prefix_seed,
            &mut scratch.counting,
        );
        let wanted = self.params.search_size;
        let offers = kgrams.hashes.len() - first.min(kgrams.hashes.len());
        let mut best = BestKeys::new(wanted, offers, std::mem::take(&mut scratch.best));
        for (pos, &hash) in kgrams.hashes.iter().enumerate().skip(first) {
            best.offer(pack_key(
                prefix_counts.count(pos),
                rank(hash, self.search_key),
                pos,
            ));
        }
        scratch.best = best.into_winners();
    }
}

impl Selector for KoalaSelector {
    fn name(&self) -> &'static str {
        "koala"
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        with_scratch(|scratch| {
            self.select_keys(kgrams, scratch);
            let start = out.len();
            out.extend(scratch.best.iter().map(|&key| {
                let pos = key_position(key);
                Fingerprint::new(kgrams.hashes[pos], pos)
            }));
            out[start..].sort_unstable_by_key(|f| f.pos);
        });
    }

    fn fingerprint(&self, hasher: &KGramHasher, symbols: &[u32], out: &mut Vec<Fingerprint>) {
        let hashes = with_scratch(|scratch| scratch.hash(hasher, symbols));
        self.select(&KGrams::new(symbols, &hashes, hasher.k()), out);
        with_scratch(|scratch| scratch.hashes = hashes);
    }
}

/// Buffers one thread reuses from document to document. Fresh vectors for
/// every document of a few thousand symbols cost page faults and allocator
/// time: about 12 % of `copyhound db add` on pan-even (perf), where the
/// selection itself is linear in the symbols.
#[derive(Default)]
struct Scratch {
    /// The k-gram hashes of the document ([`Scratch::hash`]).
    hashes: Vec<u64>,
    counting: Counting,
    /// The [`BestKeys`] buffer; after a selection, its winners.
    best: Vec<u128>,
}

impl Scratch {
    /// The k-gram hashes of `symbols`, in the reused buffer (taken out of
    /// the scratch: give it back when done).
    fn hash(&mut self, hasher: &KGramHasher, symbols: &[u32]) -> Vec<u64> {
        let mut hashes = std::mem::take(&mut self.hashes);
        hashes.clear();
        hashes.resize(hasher.kgram_count(symbols.len()), 0);
        hasher.hash_into(symbols, &mut hashes);
        hashes
    }
}

/// A thread keeps its scratch buffers only up to this many positions, so
/// that one huge document does not pin its memory for the thread's life.
const MAX_KEPT_POSITIONS: usize = 1 << 22;

std::thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Runs `work` with this thread's scratch buffers.
fn with_scratch<T>(work: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with_borrow_mut(|scratch| {
        let out = work(scratch);
        if scratch.hashes.capacity() > MAX_KEPT_POSITIONS
            || scratch.counting.counts.capacity() > MAX_KEPT_POSITIONS
        {
            *scratch = Scratch::default();
        }
        out
    })
}

/// A position's key `(prefix count, rank, position)` packed so that integer
/// order is key order: one 128-bit comparison instead of a tuple's three.
/// The position makes keys unique and puts a hash's first position first.
fn pack_key(count: u32, rank: u64, pos: usize) -> u128 {
    (u128::from(count) << 96) | (u128::from(rank) << 32) | pos as u128
}

/// The position of a packed key.
fn key_position(key: u128) -> usize {
    (key & u128::from(u32::MAX)) as usize
}

/// The `(count, rank)` part of a packed key: the same for every position of
/// one k-gram (its prefix, hence its count, is the same).
fn key_kgram(key: u128) -> u128 {
    key >> 32
}

/// The N smallest keys of distinct k-grams among those offered.
///
/// Keys below the current N-th best are appended to a buffer; when the
/// buffer is full it is cut back to the N best distinct keys by partitioning
/// (`select_nth_unstable`), which also tightens the threshold. Most positions
/// of a long document cost one comparison; there is no per-position heap
/// push or hash-set probe as a heap with a set of chosen hashes needs.
struct BestKeys {
    wanted: usize,
    capacity: usize,
    buffer: Vec<u128>,
    /// Offered keys must be below this to matter: the N-th best distinct
    /// key once N are known.
    threshold: u128,
}

impl BestKeys {
    /// Room for `offers` keys at most; the buffer holds a few times N, so a
    /// cut happens at most once per that many admitted keys.
    fn new(wanted: usize, offers: usize, mut buffer: Vec<u128>) -> Self {
        let capacity = wanted.saturating_mul(4).max(64).min(offers.max(1));
        buffer.clear();
        buffer.reserve(capacity);
        Self {
            wanted,
            capacity,
            buffer,
            threshold: u128::MAX,
        }
    }

    fn offer(&mut self, key: u128) {
        if key >= self.threshold {
            return;
        }
        if self.buffer.len() == self.capacity {
            self.cut();
            if key >= self.threshold {
                return;
            }
        }
        self.buffer.push(key);
    }

    /// Keeps in the buffer, sorted, the N smallest keys of distinct
    /// k-grams, each at its smallest key (its first position).
    fn cut(&mut self) {
        let wanted = self.wanted;
        let buffer = &mut self.buffer;
        // buffer[..kept] is the sorted, de-duplicated answer so far;
        // buffer[taken..] has not been looked at.
        let mut kept = 0;
        let mut taken = 0;
        while kept < wanted && taken < buffer.len() {
            // Repeats among the smallest keys mean fewer than N distinct
            // k-grams; take as many more as are missing.
            let more = (wanted - kept).min(buffer.len() - taken);
            let rest = &mut buffer[taken..];
            if more < rest.len() {
                rest.select_nth_unstable(more - 1);
            }
            rest[..more].sort_unstable();
            for i in taken..taken + more {
                let key = buffer[i];
                if kept == 0 || key_kgram(buffer[kept - 1]) != key_kgram(key) {
                    buffer[kept] = key;
                    kept += 1;
                }
            }
            taken += more;
        }
        buffer.truncate(kept);
        if kept == wanted {
            self.threshold = buffer[kept - 1];
        }
    }

    /// The winning keys, in key order.
    fn into_winners(mut self) -> Vec<u128> {
        self.cut();
        self.buffer
    }
}

/// How often the prefix of each k-gram occurs in the document.
enum PrefixCounts<'a> {
    /// No symbols or no prefix: every k-gram counts the same.
    Uniform,
    /// The count of the prefix at each position.
    Counted(&'a [u32]),
}

impl<'a> PrefixCounts<'a> {
    /// Counts the prefixes that start at symbol `first` or later, in the
    /// buffers of `counting`.
    fn new(
        kgrams: &KGrams<'_>,
        prefix: usize,
        first: usize,
        seed: u64,
        counting: &'a mut Counting,
    ) -> Self {
        let len = prefix.min(kgrams.k);
        if len == 0 || kgrams.symbols.len() < len {
            return Self::Uniform;
        }
        let hasher = KGramHasher::new(len, seed);
        let mut keys = std::mem::take(&mut counting.keys);
        keys.clear();
        keys.resize(hasher.kgram_count(kgrams.symbols.len()), 0);
        hasher.hash_into(kgrams.symbols, &mut keys);
        counting.count(&keys, first);
        counting.keys = keys;
        Self::Counted(&counting.counts)
    }

    fn count(&self, pos: usize) -> u32 {
        match self {
            Self::Uniform => 0,
            Self::Counted(counts) => counts[pos],
        }
    }
}

/// Keys per bucket of [`Counting::count`]: a map of this many fits in L1/L2.
const BUCKET_TARGET: usize = 4096;

/// The buffers of prefix counting, reused from document to document.
#[derive(Default)]
struct Counting {
    /// The prefix hash at each position.
    keys: Vec<u64>,
    /// The result: how often each position's key occurs.
    counts: Vec<u32>,
    counter: BucketCounter,
    starts: Vec<usize>,
    cursor: Vec<usize>,
    spread: Vec<(u64, u32)>,
}

impl Counting {
    /// Sets `self.counts[pos]`, for each position from `first` on, to how
    /// often its key occurs from `first` on (positions before `first` get 0).
    ///
    /// One hash map over a million keys misses the cache on nearly every
    /// probe. Instead the keys — well mixed, as they come from the keyed
    /// hasher — are scattered by their top bits into buckets of a few
    /// thousand, and each bucket is counted in a small map that stays in
    /// cache.
    fn count(&mut self, keys: &[u64], first: usize) {
        let counts = &mut self.counts;
        counts.clear();
        counts.resize(keys.len(), 0);
        let keys_counted = keys.len().saturating_sub(first);
        let bits = (keys_counted / BUCKET_TARGET).max(1).ilog2();
        self.counter.reserve(keys_counted.min(2 * BUCKET_TARGET));
        if bits == 0 {
            // One bucket (documents under 8192 symbols): no scattering.
            self.counter.count(
                keys.iter()
                    .enumerate()
                    .skip(first)
                    .map(|(pos, &key)| (key, pos as u32)),
                counts,
            );
            return;
        }
        let bucket_of = |key: u64| (key >> (64 - bits)) as usize;
        let starts = &mut self.starts;
        starts.clear();
        starts.resize((1 << bits) + 1, 0);
        for &key in keys.iter().skip(first) {
            starts[bucket_of(key) + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let cursor = &mut self.cursor;
        cursor.clear();
        cursor.extend_from_slice(starts);
        let spread = &mut self.spread;
        spread.clear();
        spread.resize(keys_counted, (0, 0));
        for (pos, &key) in keys.iter().enumerate().skip(first) {
            let slot = &mut cursor[bucket_of(key)];
            spread[*slot] = (key, pos as u32);
            *slot += 1;
        }
        for bounds in starts.windows(2) {
            self.counter
                .count(spread[bounds[0]..bounds[1]].iter().copied(), counts);
        }
    }
}

/// Counts the keys of one bucket with a single table probe per key.
///
/// The table is open addressing on the key's low bits (the keys come well
/// mixed from the keyed hasher), at most half full, each slot holding its
/// key and count. A slot is in use only when its stamp is the bucket's, so
/// a new bucket (or document) clears nothing. Against a general hash map
/// this saves the control bytes, the second lookup for the count and the
/// clearing, on the hottest loop of the selection.
#[derive(Default)]
struct BucketCounter {
    slots: Vec<Slot>,
    stamp: u32,
    /// (slot, position) of each key of the bucket.
    seen: Vec<(u32, u32)>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    count: u32,
    stamp: u32,
}

impl BucketCounter {
    /// Makes room for buckets of `keys` keys.
    fn reserve(&mut self, keys: usize) {
        let size = Self::table_size(keys);
        if self.slots.len() < size {
            self.slots = vec![Slot::default(); size];
            self.stamp = 0;
        }
        self.seen.reserve(keys.saturating_sub(self.seen.len()));
    }

    /// Slots for `keys` keys: a power of two, at least twice as many.
    fn table_size(keys: usize) -> usize {
        (keys * 2).next_power_of_two().max(16)
    }

    /// Sets `counts[pos]` to the number of times `key` occurs in `bucket`,
    /// for each `(key, pos)` of it.
    fn count(&mut self, bucket: impl ExactSizeIterator<Item = (u64, u32)>, counts: &mut [u32]) {
        let size = Self::table_size(bucket.len());
        self.reserve(bucket.len());
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
        let stamp = self.stamp;
        // Only as many slots as this bucket needs: fewer cache lines.
        let slots = &mut self.slots[..size];
        let mask = size - 1;
        self.seen.clear();
        for (key, pos) in bucket {
            let mut i = key as usize & mask;
            loop {
                let slot = &mut slots[i];
                if slot.stamp != stamp {
                    *slot = Slot {
                        key,
                        count: 1,
                        stamp,
                    };
                    break;
                }
                if slot.key == key {
                    slot.count += 1;
                    break;
                }
                i = (i + 1) & mask;
            }
            self.seen.push((i as u32, pos));
        }
        for &(i, pos) in &self.seen {
            counts[pos as usize] = slots[i as usize].count;
        }
    }
}

/// A bijective keyed mix of a hash: distinct hashes get distinct ranks.
fn rank(hash: u64, key: u64) -> u64 {
    let mut state = hash ^ key;
    splitmix64(&mut state)
}

fn derive_key(seed: u64, domain: u64) -> u64 {
    let mut state = seed ^ domain;
    splitmix64(&mut state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        /// The buffered selection equals sorting every candidate by
        /// (prefix count, rank) and taking the first N distinct hashes.
        #[test]
        fn selection_equals_the_sorted_reference(
            symbols in prop::collection::vec(0u32..4, 0..1500),
            search_size in 1usize..200,
            prefix in 0usize..6,
            skip in 0usize..300,
            k in 1usize..10,
            seed: u64,
        ) {
            let selector = KoalaSelector::new(KoalaParams { search_size, stored_size: 0, prefix, skip, seed });
            let hashes = KGramHasher::new(k, 3).hashes(&symbols);
            let kgrams = KGrams::new(&symbols, &hashes, k);
            let mut got = Vec::new();
            selector.select(&kgrams, &mut got);
            prop_assert_eq!(got, sorted_select(&selector, &kgrams));
        }
    }

    /// The search selection by its definition: every candidate sorted by
    /// (prefix count, rank, position), the first N distinct hashes kept.
    /// Prefixes are counted as symbol slices, not through their hashes.
    fn sorted_select(selector: &KoalaSelector, kgrams: &KGrams<'_>) -> Vec<Fingerprint> {
        let (symbols, hashes) = (kgrams.symbols, kgrams.hashes);
        let first = selector.first_selectable(hashes.len());
        let len = selector.params.prefix.min(kgrams.k);
        let counted = len > 0 && symbols.len() >= len;
        let mut counts: HashMap<&[u32], u32> = HashMap::new();
        if counted {
            for window in symbols[first..].windows(len) {
                *counts.entry(window).or_default() += 1;
            }
        }
        let count = |pos: usize| {
            if counted {
                counts[&symbols[pos..pos + len]]
            } else {
                0
            }
        };
        let mut candidates: Vec<(u32, u64, usize)> = (first..hashes.len())
            .map(|pos| (count(pos), rank(hashes[pos], selector.search_key), pos))
            .collect();
        candidates.sort_unstable();
        candidates.dedup_by_key(|c| c.1);
        candidates.truncate(selector.params.search_size);
        let mut expected: Vec<Fingerprint> = candidates
            .iter()
            .map(|&(_, _, pos)| Fingerprint::new(hashes[pos], pos))
            .collect();
        expected.sort_unstable_by_key(|f| f.pos);
        expected
    }

    proptest! {
        /// The partitioning selection of the stored set equals sorting every
        /// candidate by (rank, position) and keeping the first n distinct
        /// hashes, with or without repeated hashes in the input.
        #[test]
        fn stored_equals_the_sorted_reference(
            hashes in prop::collection::vec(0u64..300, 0..400),
            stored_size in 0usize..120,
            rotation: u64,
            seed: u64,
        ) {
            let selector = KoalaSelector::new(KoalaParams { search_size: 1000, stored_size, seed, ..KoalaParams::default() });
            let search: Vec<Fingerprint> =
                hashes.iter().enumerate().map(|(pos, &h)| Fingerprint::new(h, pos)).collect();
            let mut got = Vec::new();
            selector.stored(&search, rotation, &mut got);

            let key = derive_key(seed ^ derive_key(rotation, STORED_DOMAIN), STORED_DOMAIN);
            let mut reference: Vec<(u64, usize)> =
                hashes.iter().enumerate().map(|(pos, &h)| (rank(h, key), pos)).collect();
            reference.sort_unstable();
            reference.dedup_by_key(|c| c.0);
            reference.truncate(stored_size);
            let mut expected: Vec<Fingerprint> =
                reference.iter().map(|&(_, pos)| Fingerprint::new(hashes[pos], pos)).collect();
            expected.sort_unstable_by_key(|f| f.pos);
            prop_assert_eq!(got, expected);
        }
    }

    proptest! {
        /// The buffered selection equals the sorted reference: on text
        /// with many repeated k-grams and prefixes (two-letter alphabet),
        /// documents shorter or longer than the buffer, fewer distinct
        /// k-grams than N, a skipped prologue, and `prefix` 0.
        #[test]
        fn selection_equals_the_sorted_reference_on_repetitive_text(
            symbols in prop::collection::vec(0u32..2, 0..3000),
            search_size in 1usize..120,
            prefix in 0usize..6,
            skip in 0usize..400,
            k in 1usize..14,
            seed: u64,
        ) {
            let selector = KoalaSelector::new(KoalaParams { search_size, stored_size: 0, prefix, skip, seed });
            let hashes = KGramHasher::new(k, 5).hashes(&symbols);
            let kgrams = KGrams::new(&symbols, &hashes, k);
            let mut got = Vec::new();
            selector.select(&kgrams, &mut got);
            prop_assert_eq!(got, sorted_select(&selector, &kgrams));
        }

        /// The same without symbols, on views with many repeated hashes.
        /// `search_hashes` is `fingerprint` without positions, whatever the
        /// thread's scratch buffers held from the documents before.
        #[test]
        fn search_hashes_are_the_fingerprint_hashes(
            documents in prop::collection::vec(prop::collection::vec(0u32..5, 0..3000), 1..4),
            search_size in 1usize..300,
            prefix in 0usize..6,
            skip in 0usize..400,
            k in 1usize..12,
            seed: u64,
        ) {
            let selector = KoalaSelector::new(KoalaParams { search_size, stored_size: 0, prefix, skip, seed });
            let hasher = KGramHasher::new(k, seed);
            for symbols in &documents {
                let mut fingerprints = Vec::new();
                selector.fingerprint(&hasher, symbols, &mut fingerprints);
                let hashes = hasher.hashes(symbols);
                let fresh = sorted_select(&selector, &KGrams::new(symbols, &hashes, k));
                prop_assert_eq!(&fingerprints, &fresh);
                let mut expected: Vec<u64> = fingerprints.iter().map(|f| f.hash).collect();
                let mut got = Vec::new();
                selector.search_hashes(&hasher, symbols, &mut got);
                expected.sort_unstable();
                got.sort_unstable();
                prop_assert_eq!(got, expected);
            }
        }

        #[test]
        fn hash_only_selection_equals_the_sorted_reference(
            hashes in prop::collection::vec(0u64..500, 0..3000),
            search_size in 1usize..300,
            skip in 0usize..400,
            seed: u64,
        ) {
            let selector = KoalaSelector::new(KoalaParams { search_size, stored_size: 0, skip, seed, ..KoalaParams::default() });
            let kgrams = KGrams::from_hashes(&hashes);
            let mut got = Vec::new();
            selector.select(&kgrams, &mut got);
            prop_assert_eq!(got, sorted_select(&selector, &kgrams));
        }
    }

    fn select(selector: &KoalaSelector, symbols: &[u32], k: usize) -> Vec<Fingerprint> {
        let mut out = Vec::new();
        selector.fingerprint(&KGramHasher::new(k, 9), symbols, &mut out);
        out
    }

    #[test]
    fn a_short_document_keeps_every_distinct_hash() {
        let selector = KoalaSelector::new(KoalaParams::default());
        let symbols: Vec<u32> = b"abcabcabcxyz".iter().copied().map(u32::from).collect();
        let picked = select(&selector, &symbols, 3);
        // Fewer distinct 3-grams than N: all of them, each once.
        let hashes: Vec<u64> = KGramHasher::new(3, 9).hashes(&symbols);
        let mut distinct = hashes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(picked.len(), distinct.len());
        for f in &picked {
            let first = hashes.iter().position(|&h| h == f.hash).unwrap();
            assert_eq!(f.pos as usize, first, "each hash at its first position");
        }
    }

    #[test]
    fn keys_with_equal_low_bits_are_counted_apart() {
        // Every key lands on the same first slot: the probe chain decides.
        let keys: Vec<u64> = (0..300u64).map(|i| (i % 37) << 40).collect();
        let mut counting = Counting::default();
        for first in [0, 5] {
            counting.count(&keys, first);
            for (pos, &key) in keys.iter().enumerate() {
                let want = if pos < first {
                    0
                } else {
                    keys[first..].iter().filter(|&&k| k == key).count() as u32
                };
                assert_eq!(counting.counts[pos], want, "pos {pos}");
            }
        }
    }

    #[test]
    fn occurrence_counts_agree_with_a_plain_count() {
        let mut state = 1u64;
        // Few distinct keys, spread over the whole range, and enough of them
        // to need many buckets.
        let distinct: Vec<u64> = (0..3000).map(|_| splitmix64(&mut state)).collect();
        let keys: Vec<u64> = (0..50_000)
            .map(|_| distinct[(splitmix64(&mut state) % 3000) as usize])
            .collect();
        for first in [0, 1, 777, 49_999, 50_000] {
            let mut counting = Counting::default();
            counting.count(&keys, first);
            let counts = &counting.counts;
            let mut expected: std::collections::HashMap<u64, u32> =
                std::collections::HashMap::new();
            for &key in &keys[first..] {
                *expected.entry(key).or_default() += 1;
            }
            for (pos, &key) in keys.iter().enumerate() {
                let want = if pos < first { 0 } else { expected[&key] };
                assert_eq!(counts[pos], want, "first = {first}, pos = {pos}");
            }
        }
    }

    #[test]
    fn the_prologue_is_skipped_only_when_the_rest_suffices() {
        let params = KoalaParams {
            search_size: 10,
            stored_size: 5,
            skip: 100,
            ..KoalaParams::default()
        };
        let selector = KoalaSelector::new(params);
        assert_eq!(selector.first_selectable(1000), 100);
        assert_eq!(selector.first_selectable(105), 95);
        assert_eq!(selector.first_selectable(8), 0);
    }

    #[test]
    fn without_symbols_the_lowest_ranks_win() {
        let selector = KoalaSelector::new(KoalaParams {
            search_size: 3,
            stored_size: 1,
            ..KoalaParams::default()
        });
        let hashes: Vec<u64> = (0..50).collect();
        let mut out = Vec::new();
        selector.select(&KGrams::from_hashes(&hashes), &mut out);
        let mut expected: Vec<u64> = hashes.clone();
        expected.sort_unstable_by_key(|&h| rank(h, selector.search_key));
        expected.truncate(3);
        let mut got: Vec<u64> = out.iter().map(|f| f.hash).collect();
        got.sort_unstable_by_key(|&h| rank(h, selector.search_key));
        assert_eq!(got, expected);
    }
}
