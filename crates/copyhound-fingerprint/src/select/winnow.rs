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

/// Hashes compared at once while looking for the next change of minimum.
const SKIP: usize = 8;

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
        let mut scan = WindowScan::new(self.window, self.robust);
        scan.feed(kgrams.hashes, 0, 0, out);
        scan.finish(out);
    }

    fn fingerprint(&self, hasher: &KGramHasher, symbols: &[Symbol], out: &mut Vec<Fingerprint>) {
        let count = hasher.kgram_count(symbols.len());
        let carry = self.window - 1;
        let block = BLOCK.max(4 * self.window);
        let mut scan = WindowScan::new(self.window, self.robust);
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
            let start = keep;
            hasher.hash_into(&symbols[done..done + n + hasher.k() - 1], &mut buf[start..]);
            scan.feed(&buf, done - start, start, out);
            done += n;
        }
        scan.finish(out);
    }
}

/// The minimum of eight hashes as a tree, not a chain: three dependent steps
/// instead of seven.
#[inline(always)]
fn chunk_min(c: &[u64]) -> u64 {
    let c: &[u64; SKIP] = c.try_into().expect("a chunk holds SKIP hashes");
    let a = c[0].min(c[1]).min(c[2].min(c[3]));
    let b = c[4].min(c[5]).min(c[6].min(c[7]));
    a.min(b)
}

/// The incremental state of one winnowing pass.
struct WindowScan {
    window: usize,
    robust: bool,
    /// Global index of the current minimum.
    min_pos: usize,
    min_hash: u64,
    /// Hashes seen so far.
    seen: usize,
}

impl WindowScan {
    fn new(window: usize, robust: bool) -> Self {
        Self {
            window,
            robust,
            min_pos: 0,
            min_hash: u64::MAX,
            seen: 0,
        }
    }

    /// Scans `buf[from..]`; `buf[0]` has global index `buf_start`, and
    /// `buf[..from]` must hold the (up to) w-1 hashes before `buf[from]`.
    #[inline]
    fn feed(&mut self, buf: &[u64], buf_start: usize, from: usize, out: &mut Vec<Fingerprint>) {
        let w = self.window;
        let mut j = from;
        // Filling the first window: track the rightmost minimum.
        while j < buf.len() && self.seen < w {
            let h = buf[j];
            if self.seen == 0 || h <= self.min_hash {
                self.min_hash = h;
                self.min_pos = buf_start + j;
            }
            self.seen += 1;
            j += 1;
            if self.seen == w {
                out.push(Fingerprint::new(self.min_hash, self.min_pos));
            }
        }
        while j < buf.len() {
            // Until the minimum expires, only a hash below it (or equal, for
            // plain winnowing) changes anything. Skip eight at a time while
            // none does: the chunk minimum is branch-free and vectorises.
            let expiry = self.min_pos + w - buf_start;
            let limit = expiry.min(buf.len());
            while j + SKIP <= limit {
                let chunk = &buf[j..j + SKIP];
                let low = chunk_min(chunk);
                if low < self.min_hash || (low == self.min_hash && !self.robust) {
                    // Jump straight to the hash that changes the minimum.
                    let (min_hash, robust) = (self.min_hash, self.robust);
                    j += chunk
                        .iter()
                        .position(|&h| h < min_hash || (h == min_hash && !robust))
                        .expect("the chunk holds a new minimum");
                    break;
                }
                j += SKIP;
            }
            if j >= buf.len() {
                break;
            }
            let h = buf[j];
            let i = buf_start + j;
            if j == expiry {
                // The minimum left the window: find the new minimum value
                // (branch-free, eight at a time), then its rightmost place.
                let window = &buf[i + 1 - w - buf_start..=j];
                let mut chunks = window.chunks_exact(SKIP);
                let mut best_hash = chunks.by_ref().fold(u64::MAX, |m, c| m.min(chunk_min(c)));
                best_hash = chunks.remainder().iter().fold(best_hash, |m, &x| m.min(x));
                let offset = window
                    .iter()
                    .rposition(|&x| x == best_hash)
                    .expect("the minimum is in the window");
                let best = i + 1 - w - buf_start + offset;
                self.min_hash = best_hash;
                self.min_pos = buf_start + best;
                out.push(Fingerprint::new(best_hash, self.min_pos));
            } else if h < self.min_hash || (h == self.min_hash && !self.robust) {
                self.min_hash = h;
                self.min_pos = i;
                out.push(Fingerprint::new(h, i));
            }
            j += 1;
        }
        self.seen = self.seen.max(buf_start + buf.len());
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
