//! Winnowing (Definition 1), robust winnowing (Definition 3) and query-time
//! winnowing with a larger window (§3.2).
//!
//! The scan follows the paper's Figure 5: the minimum of the previous window
//! usually stays in the current one, so a new hash costs one comparison; only
//! when the minimum falls out is the window rescanned, right to left so that
//! the rightmost minimum wins. With a keyed hash that happens on about
//! 2/(w+1) of the positions, so the rescans cost about two comparisons per
//! hash on average. Plain winnowing takes a new hash equal to the minimum
//! (`<=`, rightmost on ties); robust winnowing keeps the previous choice
//! (`<`), which turns the density on "0000…" from 1 into 1/w.

use super::{Fingerprint, KGrams, Selector};
use crate::{KGramHasher, Symbol};

/// Hashes per block in the streaming path: 128 KiB of hashes stay in L2.
const BLOCK: usize = 16 * 1024;

/// Hashes summarised by one chunk minimum.
const CHUNK: usize = 8;

/// Winnowing with window `w`: the minimum hash of every window of `w`
/// consecutive k-gram hashes, each selected position recorded once.
///
/// Guarantee: any run of at least `w + k − 1` symbols shared by two documents
/// shares a fingerprint. A document with fewer than `w` k-grams is one
/// (short) window and yields its minimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Winnowing {
    window: usize,
    robust: bool,
}

impl Winnowing {
    /// Plain winnowing: rightmost minimum on ties (Definition 1).
    ///
    /// # Panics
    /// If `window` is zero.
    pub fn new(window: usize) -> Self {
        assert!(window > 0, "a winnowing window holds at least one hash");
        Self {
            window,
            robust: false,
        }
    }

    /// Robust winnowing: on ties keep the previous window's choice
    /// (Definition 3). The default selector of copyhound.
    pub fn robust(window: usize) -> Self {
        Self {
            robust: true,
            ..Self::new(window)
        }
    }

    /// The window size w.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Whether ties keep the previous choice.
    pub fn is_robust(&self) -> bool {
        self.robust
    }
}

impl Selector for Winnowing {
    fn name(&self) -> &'static str {
        if self.robust {
            "robust-winnow"
        } else {
            "winnow"
        }
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        if self.robust {
            self.select_blocks::<true>(kgrams.hashes, out);
        } else {
            self.select_blocks::<false>(kgrams.hashes, out);
        }
    }

    fn fingerprint(&self, hasher: &KGramHasher, symbols: &[Symbol], out: &mut Vec<Fingerprint>) {
        if self.robust {
            self.hash_and_select::<true>(hasher, symbols, out);
        } else {
            self.hash_and_select::<false>(hasher, symbols, out);
        }
    }
}

impl Winnowing {
    /// Hashes per block: large enough that the w-1 carried hashes are noise.
    fn block(&self) -> usize {
        BLOCK.max(4 * self.window)
    }

    /// Winnows a materialised hash sequence block by block, so that the
    /// scan's chunk minima stay small.
    fn select_blocks<const ROBUST: bool>(&self, hashes: &[u64], out: &mut Vec<Fingerprint>) {
        let carry = self.window - 1;
        let mut scan = WindowScan::<ROBUST>::new(self.window);
        let mut done = 0;
        while done < hashes.len() {
            let n = self.block().min(hashes.len() - done);
            let keep = carry.min(done);
            scan.feed(&hashes[done - keep..done + n], done - keep, keep, out);
            done += n;
        }
        scan.finish(out);
    }

    /// Hashes and winnows block by block: the hashes never leave the cache.
    fn hash_and_select<const ROBUST: bool>(
        &self,
        hasher: &KGramHasher,
        symbols: &[Symbol],
        out: &mut Vec<Fingerprint>,
    ) {
        let count = hasher.kgram_count(symbols.len());
        let carry = self.window - 1;
        let block = self.block();
        let mut scan = WindowScan::<ROBUST>::new(self.window);
        // `buf` holds the last w-1 hashes of the previous block followed by
        // the new block, so every window the scan looks at is contiguous.
        let mut buf: Vec<u64> = Vec::with_capacity(carry + block);
        let mut done = 0;
        while done < count {
            let n = block.min(count - done);
            let keep = carry.min(buf.len());
            let len = buf.len();
            buf.copy_within(len - keep.., 0);
            // Only grows the first time: later blocks overwrite in place.
            buf.resize(keep + n, 0);
            hasher.hash_into(&symbols[done..done + n + hasher.k() - 1], &mut buf[keep..]);
            scan.feed(&buf, done - keep, keep, out);
            done += n;
        }
        scan.finish(out);
    }
}

/// The minimum of eight hashes as a tree, not a chain: three dependent steps
/// instead of seven.
#[inline(always)]
fn chunk_min(c: &[u64]) -> u64 {
    let c: &[u64; CHUNK] = c.try_into().expect("a chunk holds CHUNK hashes");
    let a = c[0].min(c[1]).min(c[2].min(c[3]));
    let b = c[4].min(c[5]).min(c[6].min(c[7]));
    a.min(b)
}

/// Whether hash `h` replaces the current minimum `min` of a window that
/// still holds it: strictly smaller for robust winnowing (ties keep the
/// previous choice), smaller or equal for plain winnowing (rightmost wins).
#[inline(always)]
fn beats<const ROBUST: bool>(h: u64, min: u64) -> bool {
    if ROBUST { h < min } else { h <= min }
}

/// The smallest hash of `window` and the offset of its rightmost occurrence.
fn rightmost_min(window: &[u64]) -> (u64, usize) {
    let best = window
        .iter()
        .copied()
        .min()
        .expect("a window is never empty");
    let offset = window
        .iter()
        .rposition(|&x| x == best)
        .expect("the minimum is in the window");
    (best, offset)
}

/// The incremental state of one winnowing pass.
///
/// Each buffer handed to [`WindowScan::feed`] is first summarised by the
/// minimum of every aligned chunk of [`CHUNK`] hashes (branch-free, one
/// pass). The scan then steps a chunk at a time while no chunk minimum can
/// replace the current minimum and the current minimum stays in the window;
/// when it expires, the new window minimum comes from about w/CHUNK chunk
/// minima plus at most 2·CHUNK single hashes instead of all w hashes.
struct WindowScan<const ROBUST: bool> {
    window: usize,
    /// Global index of the current minimum.
    min_pos: usize,
    min_hash: u64,
    /// Hashes seen so far.
    seen: usize,
    /// `chunk_mins[q]` is the minimum of `buf[q * CHUNK..(q + 1) * CHUNK]`
    /// of the buffer being fed; kept to reuse its allocation.
    chunk_mins: Vec<u64>,
}

impl<const ROBUST: bool> WindowScan<ROBUST> {
    fn new(window: usize) -> Self {
        Self {
            window,
            min_pos: 0,
            min_hash: u64::MAX,
            seen: 0,
            chunk_mins: Vec::new(),
        }
    }

    /// Scans `buf[from..]`; `buf[0]` has global index `buf_start`, and
    /// `buf[..from]` must hold the (up to) w-1 hashes before `buf[from]`.
    fn feed(&mut self, buf: &[u64], buf_start: usize, from: usize, out: &mut Vec<Fingerprint>) {
        let mut chunk_mins = std::mem::take(&mut self.chunk_mins);
        chunk_mins.resize(buf.len() / CHUNK, 0);
        for (min, chunk) in chunk_mins.iter_mut().zip(buf.chunks_exact(CHUNK)) {
            *min = chunk_min(chunk);
        }
        let j = self.fill_first_window(buf, buf_start, from, out);
        self.scan(buf, &chunk_mins, buf_start, j, out);
        self.chunk_mins = chunk_mins;
        self.seen = self.seen.max(buf_start + buf.len());
    }

    /// Takes hashes until the first window is full, tracking its rightmost
    /// minimum; returns the buffer index of the first hash not taken.
    fn fill_first_window(
        &mut self,
        buf: &[u64],
        buf_start: usize,
        from: usize,
        out: &mut Vec<Fingerprint>,
    ) -> usize {
        let mut j = from;
        while j < buf.len() && self.seen < self.window {
            let h = buf[j];
            if self.seen == 0 || h <= self.min_hash {
                self.min_hash = h;
                self.min_pos = buf_start + j;
            }
            self.seen += 1;
            j += 1;
            if self.seen == self.window {
                out.push(Fingerprint::new(self.min_hash, self.min_pos));
            }
        }
        j
    }

    /// The steady state: one full window per hash from `buf[j]` on.
    #[inline]
    fn scan(
        &mut self,
        buf: &[u64],
        chunk_mins: &[u64],
        buf_start: usize,
        mut j: usize,
        out: &mut Vec<Fingerprint>,
    ) {
        let w = self.window;
        while j < buf.len() {
            let expiry = self.min_pos + w - buf_start;
            let limit = expiry.min(buf.len());
            let min_hash = self.min_hash;
            if j % CHUNK == 0 {
                // Until the minimum expires, only a hash below it (or
                // equal, for plain winnowing) changes anything: skip whole
                // chunks whose minimum does not.
                while j + CHUNK <= limit && !beats::<ROBUST>(chunk_mins[j / CHUNK], min_hash) {
                    j += CHUNK;
                }
            }
            // Single hashes up to the next chunk boundary or the expiry.
            let stop = (j - j % CHUNK + CHUNK).min(limit);
            if let Some(offset) = buf[j..stop]
                .iter()
                .position(|&h| beats::<ROBUST>(h, min_hash))
            {
                j += offset;
                self.min_hash = buf[j];
                self.min_pos = buf_start + j;
                out.push(Fingerprint::new(self.min_hash, self.min_pos));
                j += 1;
            } else {
                j = stop;
                if j == expiry && j < buf.len() {
                    // The minimum left the window: the new one is the
                    // rightmost minimum of the window ending here.
                    let (best_hash, best) = Self::window_min(buf, chunk_mins, j + 1 - w, j);
                    self.min_hash = best_hash;
                    self.min_pos = buf_start + best;
                    out.push(Fingerprint::new(best_hash, self.min_pos));
                    j += 1;
                }
            }
        }
    }

    /// The minimum of `buf[first..=last]` and the buffer index of its
    /// rightmost occurrence, read from the chunk minima where whole chunks
    /// fit.
    fn window_min(buf: &[u64], chunk_mins: &[u64], first: usize, last: usize) -> (u64, usize) {
        let body_start = first.next_multiple_of(CHUNK);
        let body_end = (last + 1) / CHUNK * CHUNK;
        if body_start >= body_end {
            let (best, offset) = rightmost_min(&buf[first..=last]);
            return (best, first + offset);
        }
        let head = &buf[first..body_start];
        let body = &chunk_mins[body_start / CHUNK..body_end / CHUNK];
        let tail = &buf[body_end..=last];
        let smallest = |m: u64, &x: &u64| m.min(x);
        let mut best = head.iter().fold(u64::MAX, smallest);
        best = body.iter().fold(best, smallest);
        best = tail.iter().fold(best, smallest);
        if let Some(t) = tail.iter().rposition(|&x| x == best) {
            return (best, body_end + t);
        }
        if let Some(q) = body.iter().rposition(|&m| m == best) {
            let chunk = body_start + q * CHUNK;
            let (_, offset) = rightmost_min(&buf[chunk..chunk + CHUNK]);
            return (best, chunk + offset);
        }
        let (_, offset) = rightmost_min(head);
        (best, first + offset)
    }

    /// A document shorter than one window still yields its minimum.
    fn finish(&mut self, out: &mut Vec<Fingerprint>) {
        if self.seen > 0 && self.seen < self.window {
            out.push(Fingerprint::new(self.min_hash, self.min_pos));
        }
    }
}

/// Query-time winnowing (§3.2): a coarser selection with window
/// `query_window ≥ window` that is always a subset of the `window` selection.
///
/// Matching runs of at least `query_window + k − 1` symbols are still found.
/// For plain winnowing the w'-selection is a subset by itself. For robust
/// winnowing a tie may be broken differently at the two window sizes, so the
/// minimum of each w'-window is taken from the w-selection (which always
/// holds that value inside the window) rather than recomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryWinnowing {
    stored: Winnowing,
    query_window: usize,
}

impl QueryWinnowing {
    /// Query windows of `query_window` hashes over a `stored` selection.
    ///
    /// # Panics
    /// If `query_window` is smaller than the stored window.
    pub fn new(stored: Winnowing, query_window: usize) -> Self {
        assert!(
            query_window >= stored.window(),
            "the query window w' must be at least the stored window w"
        );
        Self {
            stored,
            query_window,
        }
    }

    /// The query window w'.
    pub fn query_window(&self) -> usize {
        self.query_window
    }

    /// The selection this one is a subset of.
    pub fn stored(&self) -> Winnowing {
        self.stored
    }
}

impl Selector for QueryWinnowing {
    fn name(&self) -> &'static str {
        "query-winnow"
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        let mut stored = Vec::new();
        self.stored.select(kgrams, &mut stored);
        let mut coarse = Vec::new();
        Winnowing {
            window: self.query_window,
            robust: self.stored.is_robust(),
        }
        .select(kgrams, &mut coarse);
        if !self.stored.is_robust() {
            out.extend(coarse);
            return;
        }
        let w = self.query_window;
        let first = out.len();
        for pick in coarse {
            // `pick` is the minimum of some w'-window containing it; the
            // stored selection holds the same value somewhere in that window,
            // so the nearest stored occurrence within w'-1 positions serves.
            let at = stored.partition_point(|f| f.pos < pick.pos);
            let left = stored[..at]
                .iter()
                .rev()
                .take_while(|f| (pick.pos - f.pos) as usize <= w - 1)
                .find(|f| f.hash == pick.hash);
            let right = stored[at..]
                .iter()
                .take_while(|f| (f.pos - pick.pos) as usize <= w - 1)
                .find(|f| f.hash == pick.hash);
            let chosen = match (left, right) {
                (_, Some(r)) if r.pos == pick.pos => *r,
                (Some(l), Some(r)) => {
                    if pick.pos - l.pos <= r.pos - pick.pos {
                        *l
                    } else {
                        *r
                    }
                }
                (Some(f), None) | (None, Some(f)) => *f,
                (None, None) => unreachable!("a w'-window minimum is always in the w-selection"),
            };
            out.push(chosen);
        }
        out[first..].sort_unstable_by_key(|f| f.pos);
        let mut kept = first;
        for i in first..out.len() {
            if kept == first || out[kept - 1] != out[i] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}
