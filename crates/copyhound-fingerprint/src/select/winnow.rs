//! Winnowing (Definition 1), robust winnowing (Definition 3) and query-time
//! winnowing with a larger window (§3.2).
//!
//! The scan follows the paper's Figure 5: the minimum of the previous window
//! usually stays in the current one, so a new hash costs one comparison; only
//! when the minimum falls out is the window rescanned for its rightmost
//! minimum. With a keyed hash the minimum changes on about 2/(w+1) of the
//! positions. Plain winnowing takes a new hash equal to the minimum (`<=`,
//! rightmost on ties); robust winnowing keeps the previous choice (`<`),
//! which turns the density on "0000…" from 1 into 1/w.
//!
//! The two inner loops — the next hash that beats the minimum, and the
//! rightmost minimum of a window — live in [`kernel`], in scalar code and in
//! AVX2 code chosen at run time. [`Winnowing::fingerprint`] hashes block by
//! block into a buffer that stays in cache and scans each block at once.

mod kernel;

use super::{Fingerprint, KGrams, Selector};
use crate::{KGramHasher, Symbol};
use kernel::Kernel;

/// Hashes per block in the streaming path: 128 KiB of hashes stay in L2.
const BLOCK: usize = 16 * 1024;

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
            self.select_all::<true>(kgrams.hashes, out);
        } else {
            self.select_all::<false>(kgrams.hashes, out);
        }
    }

    /// Each window's minimum is selected in both documents, whichever of
    /// its equal hashes robust winnowing keeps.
    fn window_guarantee(&self) -> Option<usize> {
        Some(self.window)
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
    /// Winnows a materialised hash sequence in one pass.
    fn select_all<const ROBUST: bool>(&self, hashes: &[u64], out: &mut Vec<Fingerprint>) {
        let mut scan = WindowScan::<ROBUST>::new(self.window, Kernel::detect());
        scan.feed(hashes, 0, 0, out);
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
        // Large enough that the w-1 carried hashes are noise.
        let block = BLOCK.max(4 * self.window);
        let mut scan = WindowScan::<ROBUST>::new(self.window, Kernel::detect());
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

/// The incremental state of one winnowing pass.
///
/// The minimum of the previous window usually stays in the current one, so
/// the scan asks its [`Kernel`] for the next hash that beats the minimum,
/// but looks no further than the position where the minimum leaves the
/// window; there it takes the new window's rightmost minimum.
struct WindowScan<const ROBUST: bool> {
    window: usize,
    kernel: Kernel,
    /// Global index of the current minimum.
    min_pos: usize,
    min_hash: u64,
    /// Hashes seen so far.
    seen: usize,
}

impl<const ROBUST: bool> WindowScan<ROBUST> {
    fn new(window: usize, kernel: Kernel) -> Self {
        Self {
            window,
            kernel,
            min_pos: 0,
            min_hash: u64::MAX,
            seen: 0,
        }
    }

    /// Scans `buf[from..]`; `buf[0]` has global index `buf_start`, and
    /// `buf[..from]` must hold the (up to) w-1 hashes before `buf[from]`.
    fn feed(&mut self, buf: &[u64], buf_start: usize, from: usize, out: &mut Vec<Fingerprint>) {
        let j = self.fill_first_window(buf, buf_start, from, out);
        self.scan(buf, buf_start, j, out);
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
    fn scan(&mut self, buf: &[u64], buf_start: usize, mut j: usize, out: &mut Vec<Fingerprint>) {
        let w = self.window;
        while j < buf.len() {
            // Until the minimum expires, only a hash that beats it changes
            // anything.
            let expiry = self.min_pos + w - buf_start;
            j = self
                .kernel
                .skip::<ROBUST>(buf, j, expiry.min(buf.len()), self.min_hash);
            if j == buf.len() {
                break;
            }
            if j == expiry {
                let first = j + 1 - w;
                let (best_hash, offset) = self.kernel.rightmost_min(&buf[first..=j]);
                self.min_hash = best_hash;
                self.min_pos = buf_start + first + offset;
            } else {
                self.min_hash = buf[j];
                self.min_pos = buf_start + j;
            }
            out.push(Fingerprint::new(self.min_hash, self.min_pos));
            j += 1;
        }
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
/// winnowing a tie may be broken differently at the two window sizes, so each
/// w'-window takes its pick from the stored picks inside it: the window
/// contains a whole w-window holding the w'-window's minimum, whose stored
/// pick has that value, so the choice never leaves the window.
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

    /// Each query window's minimum, as for winnowing with `w'`.
    fn window_guarantee(&self) -> Option<usize> {
        Some(self.query_window)
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        if !self.stored.is_robust() {
            Winnowing::new(self.query_window).select(kgrams, out);
            return;
        }
        let mut stored = Vec::new();
        self.stored.select(kgrams, &mut stored);
        choose_per_window(&stored, kgrams.hashes.len(), self.query_window, out);
    }
}

/// Robust winnowing over the sparse `stored` picks (sorted by position) of a
/// document with `count` k-grams: for every window of `window` positions, the
/// smallest stored hash inside it, keeping the previous choice on a tie and
/// otherwise the rightmost. A monotone queue keeps it linear.
fn choose_per_window(
    stored: &[Fingerprint],
    count: usize,
    window: usize,
    out: &mut Vec<Fingerprint>,
) {
    let mut queue = std::collections::VecDeque::<Fingerprint>::new();
    let mut next = 0;
    let mut chosen: Option<Fingerprint> = None;
    // A document shorter than one window is one window.
    let last_start = count.saturating_sub(window);
    for start in 0..=last_start {
        let end = start + window; // exclusive
        while next < stored.len() && (stored[next].pos as usize) < end {
            let pick = stored[next];
            while queue.back().is_some_and(|b| b.hash >= pick.hash) {
                queue.pop_back();
            }
            queue.push_back(pick);
            next += 1;
        }
        while queue.front().is_some_and(|f| (f.pos as usize) < start) {
            queue.pop_front();
        }
        let Some(&minimum) = queue.front() else {
            continue;
        };
        let keep = chosen.is_some_and(|c| c.pos as usize >= start && c.hash == minimum.hash);
        if !keep {
            chosen = Some(minimum);
            out.push(minimum);
        }
    }
}
