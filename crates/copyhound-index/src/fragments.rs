//! From matching fingerprints to fragments: exact, maximal runs of equal
//! symbols shared by two units.
//!
//! 1. *Merge* (winnowing §5.2, "a1b1 ~ a2b2"): matches are grouped by
//!    document pair and diagonal (the offset `pos_b − pos_a`) and taken in
//!    order along the diagonal; a match whose k-gram already lies inside the
//!    fragment grown from an earlier one is absorbed by it. Without base
//!    code the order does not matter (every fragment then holds its
//!    match's whole k-gram, so it is the one maximal run through it):
//!    matches are taken as they come and looked up by diagonal in a small
//!    hash table instead of being sorted.
//! 2. *Extend*: a new match grows symbol by symbol to the left and right for
//!    as long as both sides hold the same symbol and neither is base code.
//!    The bounds are therefore exact (every symbol inside matches, which
//!    also weeds out hash collisions) and maximal (the next symbol on either
//!    end differs, ends the document or is base code). Gaps between
//!    consecutive fingerprints are bridged exactly when the symbols in them
//!    match — the gap tolerance of merging comes out of the extension.
//! 3. *Resolve*: with repeated code one stretch of a unit can match several
//!    stretches of the other. Fragments are taken longest first, and the
//!    parts of a later one that overlap an earlier one on either side are
//!    cut away; what remains of at least k symbols is kept. Fragments are
//!    then disjoint on each side, so the symbols they cover can be summed.
//!    They are left in the order they were taken: scores do not depend on
//!    it, and only the pairs a report shows need them sorted.

use copyhound_fingerprint::Symbol;

use crate::Unit;
use crate::bitset::{self, BitSet};
use crate::prepare::PreparedUnit;

/// A range of symbols in one document of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymbolRange {
    /// Index of the document in its unit.
    pub doc: u32,
    /// First symbol.
    pub start: u32,
    /// One past the last symbol.
    pub end: u32,
}

impl SymbolRange {
    /// Number of symbols.
    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// As a `Range<u32>` of symbol positions.
    pub fn symbols(&self) -> std::ops::Range<u32> {
        self.start..self.end
    }
}

/// An exact match: `a` in the first unit holds the same symbols as `b` in
/// the second (so both have the same length).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fragment {
    /// Where it is in the first unit.
    pub a: SymbolRange,
    /// Where it is in the second unit.
    pub b: SymbolRange,
}

impl Fragment {
    /// Number of symbols on each side.
    pub fn len(&self) -> u32 {
        self.a.len()
    }

    /// Whether the fragment is empty (never true for a reported one).
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }
}

/// Two fingerprints with the same hash, one in each unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) a_doc: u32,
    pub(crate) a_pos: u32,
    pub(crate) b_doc: u32,
    pub(crate) b_pos: u32,
}

impl Match {
    fn diagonal(self) -> i64 {
        i64::from(self.b_pos) - i64::from(self.a_pos)
    }
}

/// Bits that hold every value of `0..n`.
fn bits_for(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

/// Matches packed into one `u64` each, in the order of (document pair,
/// diagonal, position in `a`): fields of fixed width for `a`'s document,
/// `b`'s document, the diagonal offset by `2^pos_bits` and `a`'s position,
/// highest first, so comparing keys compares the tuples. Sorting plain
/// integers is much cheaper than sorting structs by a derived key, and a
/// pair's matches are sorted once per pair.
#[derive(Clone, Copy, Debug)]
struct Packing {
    /// Bits of a symbol position.
    pos_bits: u32,
    /// Bits of `b`'s document index.
    b_doc_bits: u32,
}

impl Packing {
    /// The packing for units of `a_docs` and `b_docs` documents whose
    /// longest holds `longest` symbols, if the fields fit in 64 bits.
    fn new(a_docs: usize, b_docs: usize, longest: usize) -> Option<Self> {
        let pos_bits = bits_for(longest);
        let b_doc_bits = bits_for(b_docs);
        let total = bits_for(a_docs) + b_doc_bits + 2 * pos_bits + 1;
        (total <= 64).then_some(Self {
            pos_bits,
            b_doc_bits,
        })
    }

    fn pack(self, m: Match) -> u64 {
        let diagonal = (1u64 << self.pos_bits) + u64::from(m.b_pos) - u64::from(m.a_pos);
        let b_doc_shift = 2 * self.pos_bits + 1;
        // With one document in `a` its field is empty, and may sit at 64.
        let a_doc = u64::from(m.a_doc)
            .checked_shl(b_doc_shift + self.b_doc_bits)
            .unwrap_or(0);
        a_doc
            | (u64::from(m.b_doc) << b_doc_shift)
            | (diagonal << self.pos_bits)
            | u64::from(m.a_pos)
    }

    fn unpack(self, key: u64) -> Match {
        let low = |value: u64, bits: u32| value & ((1u64 << bits) - 1);
        let b_doc_shift = 2 * self.pos_bits + 1;
        let a_pos = low(key, self.pos_bits);
        let diagonal = low(key >> self.pos_bits, self.pos_bits + 1);
        Match {
            a_doc: key.checked_shr(b_doc_shift + self.b_doc_bits).unwrap_or(0) as u32,
            a_pos: a_pos as u32,
            b_doc: low(key >> b_doc_shift, self.b_doc_bits) as u32,
            b_pos: (a_pos + diagonal - (1u64 << self.pos_bits)) as u32,
        }
    }
}

/// Fragments packed into one `u64` each, as [`Packing`] packs matches:
/// fields of fixed width for the length and each side's document and
/// start (the ends follow from the length), so that a pair's fragments are
/// sorted longest first as plain integers.
#[derive(Clone, Copy, Debug)]
struct FragmentPacking {
    /// Bits of a symbol position.
    pos: u32,
    /// Bits of `a`'s document index.
    a_doc: u32,
    /// Bits of `b`'s document index.
    b_doc: u32,
}

impl FragmentPacking {
    /// The packing for units of `a_docs` and `b_docs` documents whose
    /// longest holds `longest` symbols, if the fields fit in 64 bits.
    fn new(a_docs: usize, b_docs: usize, longest: usize) -> Option<Self> {
        let packing = Self {
            pos: bits_for(longest),
            a_doc: bits_for(a_docs),
            b_doc: bits_for(b_docs),
        };
        // Two starts, and a length of up to `2^pos`.
        let total = packing.a_doc + packing.b_doc + 3 * packing.pos + 1;
        (total <= 64).then_some(packing)
    }

    /// The longest fragment's length, all ones in its field (which holds
    /// up to `2^pos`, the longest document).
    fn max_len(self) -> u64 {
        (1 << (self.pos + 1)) - 1
    }

    /// Fragment `f` as one integer that orders as `(Reverse(f.len()), f)`:
    /// its length counted down from [`Self::max_len`] and where it starts
    /// on each side, as fields from the highest bits down `(length, a's
    /// document, a's start, b's document, b's start)`; the ends follow
    /// from the length.
    fn pack(self, f: Fragment) -> u64 {
        let pos = self.pos;
        let b = (u64::from(f.b.doc) << pos) | u64::from(f.b.start);
        let len = u64::from(f.len());
        let (a_doc, a_start) = (u64::from(f.a.doc), u64::from(f.a.start));
        let a = ((((self.max_len() - len) << self.a_doc) | a_doc) << pos) | a_start;
        (a << (self.b_doc + pos)) | b
    }

    /// The fragment packed in `key` by [`Self::pack`].
    fn unpack(self, key: u64) -> Fragment {
        let pos = self.pos;
        let low = |value: u64, bits: u32| value & ((1u64 << bits) - 1);
        let b_start = low(key, pos);
        let b_doc = low(key >> pos, self.b_doc);
        let a = key >> (self.b_doc + pos);
        let a_start = low(a, pos);
        let a_doc = low(a >> pos, self.a_doc);
        let len = self.max_len() - (a >> (pos + self.a_doc));
        let range = |doc: u64, start: u64| SymbolRange {
            doc: doc as u32,
            start: start as u32,
            end: (start + len) as u32,
        };
        Fragment {
            a: range(a_doc, a_start),
            b: range(b_doc, b_start),
        }
    }
}

/// Sorts matches by document pair, diagonal and position in `a`: the
/// order fragments grow in; as packed keys (in `keys`) when `packing`
/// fits the units.
fn sort_by_diagonal(matches: &mut [Match], packing: Option<Packing>, keys: &mut Vec<u64>) {
    let Some(packing) = packing else {
        matches.sort_unstable_by_key(|m| (m.a_doc, m.b_doc, m.diagonal(), m.a_pos));
        return;
    };
    sort_packed(
        matches,
        keys,
        |m| packing.pack(m),
        |key| packing.unpack(key),
    );
}

/// Sorts `items` as the integers `pack` makes of them (in `keys`), which
/// order as the items should, then `unpack`s them back in order: integers
/// sort faster than structs compared field by field.
fn sort_packed<T: Copy>(
    items: &mut [T],
    keys: &mut Vec<u64>,
    pack: impl Fn(T) -> u64,
    unpack: impl Fn(u64) -> T,
) {
    keys.clear();
    keys.extend(items.iter().map(|&item| pack(item)));
    keys.sort_unstable();
    for (item, &key) in items.iter_mut().zip(keys.iter()) {
        *item = unpack(key);
    }
}

/// One unit as the fragment finder sees it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub(crate) unit: &'a Unit,
    pub(crate) prepared: &'a PreparedUnit,
}

impl Side<'_> {
    fn doc(&self, d: u32) -> DocView<'_> {
        DocView {
            symbols: &self.unit.documents[d as usize].normalized.symbols,
            base: self.prepared.documents[d as usize].base.as_ref(),
        }
    }
}

#[derive(Clone, Copy)]
struct DocView<'a> {
    symbols: &'a [Symbol],
    base: Option<&'a BitSet>,
}

/// Whether symbol `i` of `a` and symbol `j` of `b` can be part of one
/// fragment: equal, and neither in base code.
fn usable(a: DocView<'_>, i: usize, b: DocView<'_>, j: usize) -> bool {
    a.symbols[i] == b.symbols[j]
        && a.base.is_none_or(|m| !m.contains(i))
        && b.base.is_none_or(|m| !m.contains(j))
}

/// The maximal exact run on the diagonal of `m` through its k-gram, as
/// `(start_a, start_b, len)`, or `None` if no symbol of the k-gram is usable
/// (a hash collision).
///
/// Inlined into the loops over a pair's matches, which call it for every
/// fragment; the rare cases take a call.
#[inline]
fn extend(a: DocView<'_>, b: DocView<'_>, m: Match, k: usize) -> Option<(usize, usize, usize)> {
    let (pa, pb) = (m.a_pos as usize, m.b_pos as usize);
    if a.base.is_none() && b.base.is_none() {
        // Nothing masked and no collision (the usual case): the run is the
        // common prefix from the k-gram on and the common suffix before it.
        let right = common_prefix(&a.symbols[pa..], &b.symbols[pb..]);
        if right >= k {
            let left = common_suffix(&a.symbols[..pa], &b.symbols[..pb]);
            return Some((pa - left, pb - left, left + right));
        }
    }
    extend_through_base_code(a, b, m, k)
}

/// [`extend`] where a side has base code or the k-gram's symbols differ.
#[inline(never)]
fn extend_through_base_code(
    a: DocView<'_>,
    b: DocView<'_>,
    m: Match,
    k: usize,
) -> Option<(usize, usize, usize)> {
    let (pa, pb) = (m.a_pos as usize, m.b_pos as usize);
    // The longest usable run inside the k-gram seeds the extension; with no
    // collision it is the whole k-gram minus any base-code edge.
    let mut seed: Option<(usize, usize)> = None;
    let mut run_start = None;
    for offset in 0..=k {
        if offset < k && usable(a, pa + offset, b, pb + offset) {
            run_start.get_or_insert(offset);
        } else if let Some(start) = run_start.take()
            && seed.is_none_or(|(from, to)| offset - start > to - from)
        {
            seed = Some((start, offset));
        }
    }
    let (seed_start, seed_end) = seed?;
    let (start_a, start_b) = (pa + seed_start, pb + seed_start);
    let (end_a, end_b) = (pa + seed_end, pb + seed_end);
    let (left, right) = if a.base.is_none() && b.base.is_none() {
        // Nothing masked: compare the symbols a block at a time.
        (
            common_suffix(&a.symbols[..start_a], &b.symbols[..start_b]),
            common_prefix(&a.symbols[end_a..], &b.symbols[end_b..]),
        )
    } else {
        grow_symbol_by_symbol(a, b, (start_a, start_b), (end_a, end_b))
    };
    let (start_a, start_b) = (start_a - left, start_b - left);
    let end_a = end_a + right;
    Some((start_a, start_b, end_a - start_a))
}

/// How many usable symbols precede `start` and follow `end` (one past the
/// run) on the diagonal they share, tested one at a time.
fn grow_symbol_by_symbol(
    a: DocView<'_>,
    b: DocView<'_>,
    (start_a, start_b): (usize, usize),
    (end_a, end_b): (usize, usize),
) -> (usize, usize) {
    let left = (1..=start_a.min(start_b))
        .take_while(|&t| usable(a, start_a - t, b, start_b - t))
        .count();
    let right = (0..(a.symbols.len() - end_a).min(b.symbols.len() - end_b))
        .take_while(|&t| usable(a, end_a + t, b, end_b + t))
        .count();
    (left, right)
}

/// Symbols compared at once when extending a match.
const BLOCK: usize = 8;

/// The length of the longest common prefix of `x` and `y`.
fn common_prefix(x: &[Symbol], y: &[Symbol]) -> usize {
    let len = x.len().min(y.len());
    let mut n = 0;
    while n + BLOCK <= len && x[n..n + BLOCK] == y[n..n + BLOCK] {
        n += BLOCK;
    }
    while n < len && x[n] == y[n] {
        n += 1;
    }
    n
}

/// The length of the longest common suffix of `x` and `y`.
fn common_suffix(x: &[Symbol], y: &[Symbol]) -> usize {
    let len = x.len().min(y.len());
    let (x, y) = (&x[x.len() - len..], &y[y.len() - len..]);
    let mut n = 0;
    while n + BLOCK <= len && x[len - n - BLOCK..len - n] == y[len - n - BLOCK..len - n] {
        n += BLOCK;
    }
    while n < len && x[len - n - 1] == y[len - n - 1] {
        n += 1;
    }
    n
}

/// Buffers one worker reuses from pair to pair, so that finding a pair's
/// fragments allocates nothing once they have grown.
#[derive(Debug, Default)]
pub(crate) struct PairScratch {
    /// The pair's matching fingerprints, filled in by the caller.
    pub(crate) matches: Vec<Match>,
    keys: Vec<u64>,
    diagonals: DiagonalTable,
    grown: Vec<Fragment>,
    taken: TakenSides,
    /// The pair's fragments.
    kept: Vec<Fragment>,
}

/// The fragments between units `a` and `b` given their matching
/// fingerprints (`scratch.matches`, left in an unspecified order):
/// disjoint on each side, each at least `k` symbols, in the order they
/// were taken (longest first, each with the pieces cut from it); in
/// `scratch`, whose buffer they are.
pub(crate) fn find_fragments<'s>(
    a: Side<'_>,
    b: Side<'_>,
    k: usize,
    scratch: &'s mut PairScratch,
) -> &'s mut Vec<Fragment> {
    let PairScratch {
        matches,
        keys,
        diagonals,
        grown,
        taken,
        kept,
    } = scratch;
    let longest = a
        .unit
        .documents
        .iter()
        .chain(&b.unit.documents)
        .map(|d| d.normalized.len())
        .max()
        .unwrap_or(0);
    let packing = Packing::new(a.unit.documents.len(), b.unit.documents.len(), longest);
    let unmasked = |side: Side<'_>| side.prepared.documents.iter().all(|d| d.base.is_none());
    let unordered = packing.is_some_and(|packing| {
        unmasked(a) && unmasked(b) && grow_unordered((a, b), k, matches, packing, diagonals, grown)
    });
    if !unordered {
        sort_by_diagonal(matches, packing, keys);
        grow_in_order((a, b), k, matches, grown);
    }
    let packing = FragmentPacking::new(a.unit.documents.len(), b.unit.documents.len(), longest);
    resolve_overlaps(grown, k, (packing, keys), (a.unit, b.unit), taken, kept);
    kept
}

/// Sorts `fragments` longest first and then by their order, dropping
/// repeats; as packed keys (in `keys`) when `packing` fits the units.
/// Calls `take` with each in turn.
fn each_longest_first(
    fragments: &mut Vec<Fragment>,
    (packing, keys): (Option<FragmentPacking>, &mut Vec<u64>),
    mut take: impl FnMut(Fragment),
) {
    let Some(packing) = packing else {
        fragments.sort_unstable_by_key(|f| (std::cmp::Reverse(f.len()), *f));
        fragments.dedup();
        for &f in fragments.iter() {
            take(f);
        }
        return;
    };
    // Equal keys are equal fragments; each is unpacked as it is taken,
    // not written back first.
    keys.clear();
    keys.extend(fragments.iter().map(|&f| packing.pack(f)));
    keys.sort_unstable();
    keys.dedup();
    for &key in keys.iter() {
        take(packing.unpack(key));
    }
}

/// The fragment grown from match `m`: `len` symbols from `start_a` in
/// its document of `a` and from `start_b` in its document of `b`.
fn grown_from(m: Match, (start_a, start_b, len): (usize, usize, usize)) -> Fragment {
    let range = |doc: u32, start: usize| SymbolRange {
        doc,
        start: start as u32,
        end: (start + len) as u32,
    };
    Fragment {
        a: range(m.a_doc, start_a),
        b: range(m.b_doc, start_b),
    }
}

/// Grows `grown` from `matches` sorted by document pair, diagonal and
/// position in `a`: a match inside the fragment last grown on its diagonal
/// is absorbed by it.
fn grow_in_order(
    (a, b): (Side<'_>, Side<'_>),
    k: usize,
    matches: &[Match],
    grown: &mut Vec<Fragment>,
) {
    grown.clear();
    let mut reach: Option<(u32, u32, i64, usize)> = None;
    for &m in matches {
        if let Some((a_doc, b_doc, diagonal, end)) = reach {
            let inside = a_doc == m.a_doc
                && b_doc == m.b_doc
                && diagonal == m.diagonal()
                && m.a_pos as usize + k <= end;
            if inside {
                continue;
            }
        }
        let (da, db) = (a.doc(m.a_doc), b.doc(m.b_doc));
        let Some((sa, sb, len)) = extend(da, db, m, k) else {
            continue;
        };
        reach = Some((m.a_doc, m.b_doc, m.diagonal(), sa + len));
        grown.push(grown_from(m, (sa, sb, len)));
    }
}

/// Grows `grown` from `matches` in any order, for units without base code:
/// a match whose k-gram lies inside a fragment already grown on its
/// diagonal is absorbed by it. The fragments are those [`grow_in_order`]
/// grows, in another order and without its duplicates, as long as every
/// fragment holds its match's whole k-gram; false (and `grown` unfinished)
/// when one does not (a hash collision) or a diagonal holds too many
/// fragments to search, where the caller grows them in order instead.
fn grow_unordered(
    (a, b): (Side<'_>, Side<'_>),
    k: usize,
    matches: &[Match],
    packing: Packing,
    diagonals: &mut DiagonalTable,
    grown: &mut Vec<Fragment>,
) -> bool {
    grown.clear();
    diagonals.reset(matches.len());
    for &m in matches {
        let pa = m.a_pos as usize;
        let slot = diagonals.slot(packing.pack(m) >> packing.pos_bits);
        let Some(covered) = diagonals.covers(slot, pa, pa + k) else {
            return false;
        };
        if covered {
            continue;
        }
        let (da, db) = (a.doc(m.a_doc), b.doc(m.b_doc));
        let Some((sa, sb, len)) = extend(da, db, m, k) else {
            continue;
        };
        if sa > pa || pa + k > sa + len {
            return false;
        }
        diagonals.insert(slot, sa, sa + len);
        grown.push(grown_from(m, (sa, sb, len)));
    }
    true
}

/// The fragments grown on each diagonal so far: an open-addressing table
/// from a diagonal's key (document pair and offset) to a list of the
/// fragments' ranges in `a`.
///
/// Each slot carries the generation (the pair) that took it, so emptying
/// the table for the next pair is a new generation, not a write to every
/// slot.
#[derive(Debug, Default)]
struct DiagonalTable {
    /// The table is `slots[..=mask]`; a slot of an older generation is
    /// free.
    slots: Vec<DiagonalSlot>,
    mask: usize,
    shift: u32,
    generation: u32,
    /// Fragments: start and end in `a`, and the one grown before on the
    /// same diagonal (`NONE` for the first).
    fragments: Vec<(u32, u32, u32)>,
}

/// A diagonal's key and its last fragment, for the pair of `generation`.
#[derive(Clone, Copy, Debug, Default)]
struct DiagonalSlot {
    key: u64,
    head: u32,
    generation: u32,
}

impl DiagonalTable {
    const NONE: u32 = u32::MAX;
    /// Fragments searched on one diagonal before giving up: repetitive
    /// code can put many on one, and searching them all for every match
    /// would cost their number squared.
    const MAX_PER_DIAGONAL: usize = 8;

    /// Empty, with room for `matches` diagonals.
    fn reset(&mut self, matches: usize) {
        let size = (2 * matches).next_power_of_two().max(2);
        if self.slots.len() < size {
            self.slots.resize(size, DiagonalSlot::default());
        }
        // Slots start at generation 0, which no pair uses.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(DiagonalSlot::default());
            self.generation = 1;
        }
        self.mask = size - 1;
        self.shift = 64 - size.trailing_zeros();
        self.fragments.clear();
    }

    /// The slot of diagonal `key`, taken for it if it is new.
    fn slot(&mut self, key: u64) -> usize {
        let mut at = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let here = &mut self.slots[at];
            if here.generation != self.generation {
                *here = DiagonalSlot {
                    key,
                    head: Self::NONE,
                    generation: self.generation,
                };
                return at;
            }
            if here.key == key {
                return at;
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Whether a fragment of the diagonal in `slot` holds `start..end` of
    /// `a`; `None` if the diagonal has too many fragments to search. One
    /// walk of its list both counts and searches them.
    fn covers(&self, slot: usize, start: usize, end: usize) -> Option<bool> {
        let (mut count, mut covered) = (0, false);
        let mut at = self.slots[slot].head;
        while at != Self::NONE {
            let (from, to, next) = self.fragments[at as usize];
            covered |= from as usize <= start && end <= to as usize;
            count += 1;
            at = next;
        }
        (count < Self::MAX_PER_DIAGONAL).then_some(covered)
    }

    /// Adds the fragment `start..end` of `a` to the diagonal in `slot`.
    fn insert(&mut self, slot: usize, start: usize, end: usize) {
        let id = self.fragments.len() as u32;
        self.fragments
            .push((start as u32, end as u32, self.slots[slot].head));
        self.slots[slot].head = id;
    }
}

/// The symbols of each document of a unit taken by fragments so far: one
/// bit each in one reused buffer.
#[derive(Debug, Default)]
struct Occupancy {
    words: Vec<u64>,
    /// Document `d` owns `words[starts[d]..starts[d + 1]]`.
    starts: Vec<usize>,
}

impl Occupancy {
    /// Nothing taken, for the documents of `unit`: all its words cleared
    /// at once, a few per document, where clearing each document's as a
    /// fragment first touches it cost a test and a call per fragment.
    fn reset(&mut self, unit: &Unit) {
        self.starts.clear();
        self.starts.push(0);
        let mut end = 0;
        for document in &unit.documents {
            end += document.normalized.len().div_ceil(64);
            self.starts.push(end);
        }
        self.words.clear();
        self.words.resize(end, 0);
    }

    /// The taken symbols of document `doc`.
    fn doc(&mut self, doc: u32) -> &mut [u64] {
        let d = doc as usize;
        &mut self.words[self.starts[d]..self.starts[d + 1]]
    }
}

/// What the fragments kept so far take on each side of a pair: while they
/// are few, read off the fragments themselves, which costs a few
/// comparisons each where bits cost a pass over every word a fragment
/// spans; past [`Self::FEW`], one bit per symbol of each unit.
#[derive(Debug, Default)]
struct TakenSides {
    a: Occupancy,
    b: Occupancy,
    /// Whether `a` and `b` hold what the kept fragments take (else they
    /// are stale).
    in_bits: bool,
    /// The kept fragments while they are few, each side as [`Span`]s.
    spans: Vec<[Span; 2]>,
    /// The parts of the fragment at hand taken already, as offsets into
    /// it.
    blocked: Vec<(u32, u32)>,
}

/// A range of symbols as the first and one past the last, each with its
/// document in the high bits: two ranges overlap when each starts before
/// the other ends, whatever their documents (ranges of different
/// documents never do), so one test needs two comparisons.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u64,
    end: u64,
}

impl Span {
    fn of(range: SymbolRange) -> Self {
        let at = |pos: u32| u64::from(range.doc) << 32 | u64::from(pos);
        Self {
            start: at(range.start),
            end: at(range.end),
        }
    }
}

impl TakenSides {
    /// Kept fragments compared range by range; most pairs keep fewer.
    const FEW: usize = 16;

    /// Nothing taken yet.
    fn clear(&mut self) {
        self.in_bits = false;
        self.spans.clear();
    }

    /// Keeps the pieces of `f` of at least `k` symbols that no fragment of
    /// `kept` takes on either side.
    fn take_free_pieces(
        &mut self,
        f: Fragment,
        k: usize,
        units: (&Unit, &Unit),
        kept: &mut Vec<Fragment>,
    ) {
        if !self.in_bits {
            if kept.len() < Self::FEW {
                self.take_pieces_among_few(f, k, kept);
                return;
            }
            self.a.reset(units.0);
            self.b.reset(units.1);
            for g in kept.iter() {
                let (a, b) = (g.a.symbols(), g.b.symbols());
                bitset::insert_range(self.a.doc(g.a.doc), a.start as usize, a.end as usize);
                bitset::insert_range(self.b.doc(g.b.doc), b.start as usize, b.end as usize);
            }
            self.in_bits = true;
        }
        take_pieces_by_bits(f, k, (&mut self.a, &mut self.b), kept);
    }

    /// [`Self::take_free_pieces`] while `kept` is short: the parts of `f`
    /// each kept fragment overlaps, on either side, are gathered and
    /// sorted, and the gaps between them are the free pieces.
    fn take_pieces_among_few(&mut self, f: Fragment, k: usize, kept: &mut Vec<Fragment>) {
        let blocked = &mut self.blocked;
        blocked.clear();
        let own = [Span::of(f.a), Span::of(f.b)];
        let mut block = |taken: Span, own: Span| {
            if taken.start < own.end && own.start < taken.end {
                // Both in one document: the offsets fit 32 bits.
                let start = taken.start.saturating_sub(own.start);
                blocked.push((start as u32, (taken.end.min(own.end) - own.start) as u32));
            }
        };
        for taken in &self.spans {
            block(taken[0], own[0]);
            block(taken[1], own[1]);
        }
        blocked.sort_unstable();
        let before = kept.len();
        let mut free_from = 0;
        for &(start, end) in blocked.iter() {
            if start > free_from {
                push_piece(f, free_from, start, k, kept);
            }
            free_from = free_from.max(end);
        }
        push_piece(f, free_from, f.len(), k, kept);
        for piece in &kept[before..] {
            self.spans.push([Span::of(piece.a), Span::of(piece.b)]);
        }
    }
}

/// Symbols `start..end` of fragment `f`, as a fragment of its own.
fn piece(f: Fragment, start: u32, end: u32) -> Fragment {
    let piece = |range: SymbolRange| SymbolRange {
        doc: range.doc,
        start: range.start + start,
        end: range.start + end,
    };
    Fragment {
        a: piece(f.a),
        b: piece(f.b),
    }
}

/// Keeps symbols `start..end` of fragment `f` if they are at least `k`
/// (and one).
fn push_piece(f: Fragment, start: u32, end: u32, k: usize, kept: &mut Vec<Fragment>) {
    if end > start && (end - start) as usize >= k {
        kept.push(piece(f, start, end));
    }
}

/// Keeps symbols `start..end` of fragment `f` as a fragment of its own if
/// there is a piece (`start` is some) of at least `k` symbols, and marks
/// them taken.
fn close_piece(
    f: Fragment,
    start: Option<usize>,
    end: usize,
    k: usize,
    occupied_a: &mut [u64],
    occupied_b: &mut [u64],
    kept: &mut Vec<Fragment>,
) {
    let Some(start) = start.filter(|&s| end - s >= k) else {
        return;
    };
    let (a_start, b_start) = (f.a.start as usize, f.b.start as usize);
    bitset::insert_range(occupied_a, a_start + start, a_start + end);
    bitset::insert_range(occupied_b, b_start + start, b_start + end);
    kept.push(piece(f, start as u32, end as u32));
}

/// Keeps the longest fragments and the non-overlapping rest of the others
/// in `kept`, in the order they are taken, `taken` (for the pair of
/// `units`) reused from any earlier pair; fragments are sorted through
/// `packing` when it fits the units.
fn resolve_overlaps(
    grown: &mut Vec<Fragment>,
    k: usize,
    packing: (Option<FragmentPacking>, &mut Vec<u64>),
    units: (&Unit, &Unit),
    taken: &mut TakenSides,
    kept: &mut Vec<Fragment>,
) {
    kept.clear();
    taken.clear();
    each_longest_first(grown, packing, |f| {
        taken.take_free_pieces(f, k, units, kept);
    });
}

/// Keeps the pieces of `f` of at least `k` symbols taken on neither side
/// in `taken_a` and `taken_b`, and marks them taken.
fn take_pieces_by_bits(
    f: Fragment,
    k: usize,
    (taken_a, taken_b): (&mut Occupancy, &mut Occupancy),
    kept: &mut Vec<Fragment>,
) {
    let occupied_a = taken_a.doc(f.a.doc);
    let occupied_b = taken_b.doc(f.b.doc);
    let (a_start, b_start) = (f.a.start as usize, f.b.start as usize);
    let len = f.len() as usize;
    // Most fragments overlap nothing: taken whole, a word at a time.
    if bitset::range_is_clear(occupied_a, a_start, a_start + len)
        && bitset::range_is_clear(occupied_b, b_start, b_start + len)
    {
        close_piece(f, Some(0), len, k, occupied_a, occupied_b, kept);
        return;
    }
    // Otherwise the free pieces are found 64 symbols at a time: a symbol
    // is free when it is taken on neither side.
    let mut piece_start = None;
    let mut t = 0;
    while t <= len {
        let width = (len - t).min(64);
        let taken = bitset::bits_at(occupied_a, a_start + t, width)
            | bitset::bits_at(occupied_b, b_start + t, width);
        let mut i = 0;
        while i < width {
            let free_run = (!taken >> i).trailing_ones() as usize;
            if free_run > 0 {
                piece_start.get_or_insert(t + i);
                i += free_run.min(width - i);
            } else {
                close_piece(
                    f,
                    piece_start.take(),
                    t + i,
                    k,
                    occupied_a,
                    occupied_b,
                    kept,
                );
                i += ((taken >> i).trailing_ones() as usize).min(width - i);
            }
        }
        if width < 64 {
            break;
        }
        t += 64;
    }
    close_piece(f, piece_start, len, k, occupied_a, occupied_b, kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Units of up to 3 documents, the longest of up to `longest`
    /// symbols (tiny, or around 2^31 where packing no longer fits), and
    /// matches between them.
    fn matches() -> impl Strategy<Value = (usize, usize, usize, Vec<Match>)> {
        (
            1usize..4,
            1usize..4,
            prop_oneof![1usize..50, (1usize << 31) - 3..(1usize << 31) + 3],
        )
            .prop_flat_map(|(a_docs, b_docs, longest)| {
                let position = 0..longest as u32;
                let one = (
                    0..a_docs as u32,
                    position.clone(),
                    0..b_docs as u32,
                    position,
                )
                    .prop_map(|(a_doc, a_pos, b_doc, b_pos)| Match {
                        a_doc,
                        a_pos,
                        b_doc,
                        b_pos,
                    });
                (
                    Just(a_docs),
                    Just(b_docs),
                    Just(longest),
                    prop::collection::vec(one, 0..40),
                )
            })
    }

    /// The symbols of each document taken so far, one `BitSet` each.
    type Taken = Vec<(u32, BitSet)>;

    /// The plain resolution: each fragment symbol by symbol against one
    /// `BitSet` per document, found by search; kept in the order taken.
    fn resolve_symbol_by_symbol(grown: &[Fragment], k: usize, len: usize) -> Vec<Fragment> {
        fn occupancy(taken: &mut Taken, doc: u32, len: usize) -> &mut BitSet {
            let at = taken
                .iter()
                .position(|(d, _)| *d == doc)
                .unwrap_or_else(|| {
                    taken.push((doc, BitSet::new(len)));
                    taken.len() - 1
                });
            &mut taken[at].1
        }
        let mut grown = grown.to_vec();
        grown.sort_unstable_by_key(|f| (std::cmp::Reverse(f.len()), *f));
        grown.dedup();
        let (mut taken_a, mut taken_b) = (Taken::new(), Taken::new());
        let mut kept = Vec::new();
        for f in grown {
            let mut piece_start = None;
            for t in 0..=f.len() {
                let free = t < f.len()
                    && !occupancy(&mut taken_a, f.a.doc, len).contains((f.a.start + t) as usize)
                    && !occupancy(&mut taken_b, f.b.doc, len).contains((f.b.start + t) as usize);
                if free {
                    piece_start.get_or_insert(t);
                } else if let Some(s) = piece_start.take()
                    && (t - s) as usize >= k
                {
                    let (a, b) = (f.a.start, f.b.start);
                    occupancy(&mut taken_a, f.a.doc, len)
                        .insert_range((a + s) as usize, (a + t) as usize);
                    occupancy(&mut taken_b, f.b.doc, len)
                        .insert_range((b + s) as usize, (b + t) as usize);
                    kept.push(Fragment {
                        a: SymbolRange {
                            doc: f.a.doc,
                            start: a + s,
                            end: a + t,
                        },
                        b: SymbolRange {
                            doc: f.b.doc,
                            start: b + s,
                            end: b + t,
                        },
                    });
                }
            }
        }
        kept
    }

    /// The plain extension: the longest usable run inside the k-gram,
    /// grown a symbol at a time (as through base code).
    fn extend_symbol_by_symbol(
        a: DocView<'_>,
        b: DocView<'_>,
        m: Match,
        k: usize,
    ) -> Option<(usize, usize, usize)> {
        let (pa, pb) = (m.a_pos as usize, m.b_pos as usize);
        let usable_at = |offset: usize| usable(a, pa + offset, b, pb + offset);
        let mut seed: Option<(usize, usize)> = None;
        let mut start = 0;
        while start < k {
            let end = start + (start..k).take_while(|&o| usable_at(o)).count();
            if end > start && seed.is_none_or(|(from, to)| end - start > to - from) {
                seed = Some((start, end));
            }
            start = end + 1;
        }
        let (from, to) = seed?;
        let (start_a, start_b) = (pa + from, pb + from);
        let (left, right) = grow_symbol_by_symbol(a, b, (start_a, start_b), (pa + to, pb + to));
        Some((start_a - left, start_b - left, to - from + left + right))
    }

    /// A unit of `docs` documents of `len` symbols each.
    fn unit_of(docs: usize, len: usize) -> Unit {
        let document = |_| {
            let mut normalized = copyhound_fingerprint::NormalizedDocument::new();
            for i in 0..len {
                normalized.push(0, i..i + 1);
            }
            crate::Document::new("d", normalized, Vec::new())
        };
        Unit::new("u", (0..docs).map(document).collect())
    }

    proptest! {
        /// Block-wise common prefixes and suffixes are the symbol-wise ones.
        #[test]
        fn common_ends_are_found_block_by_block(
            x in prop::collection::vec(0u32..2, 0..60),
            y in prop::collection::vec(0u32..2, 0..60),
        ) {
            let naive = |p: &mut dyn Iterator<Item = (&u32, &u32)>| p.take_while(|(a, b)| a == b).count();
            prop_assert_eq!(common_prefix(&x, &y), naive(&mut x.iter().zip(&y)));
            prop_assert_eq!(common_suffix(&x, &y), naive(&mut x.iter().rev().zip(y.iter().rev())));
        }

        /// Extension, by blocks or through base code, finds the run the
        /// plain symbol-by-symbol extension finds.
        #[test]
        fn extension_is_the_symbol_by_symbol_one(
            x in prop::collection::vec(0u32..3, 12..80),
            y in prop::collection::vec(0u32..3, 12..80),
            k in 1usize..12,
            at in (0usize..80, 0usize..80),
            masked in prop::option::of((prop::collection::vec(0usize..80, 0..6), prop::collection::vec(0usize..80, 0..6))),
            copy in any::<bool>(),
        ) {
            let (pa, pb) = (at.0 % (x.len() - k + 1), at.1 % (y.len() - k + 1));
            let mut y = y;
            if copy {
                // A planted k-gram, so that the usual case is tried too.
                y[pb..pb + k].copy_from_slice(&x[pa..pa + k]);
            }
            let mask = |len: usize, at: &[usize]| {
                let mut set = BitSet::new(len);
                for &i in at {
                    set.insert(i % len);
                }
                set
            };
            let masks = masked.map(|(ma, mb)| (mask(x.len(), &ma), mask(y.len(), &mb)));
            let (a, b) = (
                DocView { symbols: &x, base: masks.as_ref().map(|m| &m.0) },
                DocView { symbols: &y, base: masks.as_ref().map(|m| &m.1) },
            );
            let m = Match { a_doc: 0, a_pos: pa as u32, b_doc: 0, b_pos: pb as u32 };
            prop_assert_eq!(extend(a, b, m, k), extend_symbol_by_symbol(a, b, m, k));
        }

        /// Sorting packed keys gives the tuple order, and unpacking gives
        /// the matches back.
        #[test]
        fn packed_order_sorts_as_the_tuple((a_docs, b_docs, longest, mut matches) in matches()) {
            let mut expected = matches.clone();
            expected.sort_by_key(|m| (m.a_doc, m.b_doc, m.diagonal(), m.a_pos));
            let packing = Packing::new(a_docs, b_docs, longest);
            // Small units always pack; positions of 32 bits never do.
            prop_assert!(packing.is_some() || longest >= 50);
            prop_assert!(packing.is_none() || longest <= 1 << 31);
            sort_by_diagonal(&mut matches, packing, &mut Vec::new());
            prop_assert_eq!(matches, expected);
        }

        /// Fragments are taken longest first and then in their order, each
        /// once, whether sorted as packed keys or not.
        #[test]
        fn fragments_are_taken_longest_first(
            (a_docs, b_docs, longest, matches) in matches(),
            lengths in prop::collection::vec(any::<prop::sample::Index>(), 40),
            repeats in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
            packed in any::<bool>(),
        ) {
            // A fragment from each match, as long as fits both documents.
            let mut fragments: Vec<Fragment> = matches
                .iter()
                .zip(&lengths)
                .map(|(m, len)| {
                    let room = longest - m.a_pos.max(m.b_pos) as usize;
                    let len = 1 + len.index(room) as u32;
                    let range = |doc, start| SymbolRange { doc, start, end: start + len };
                    Fragment { a: range(m.a_doc, m.a_pos), b: range(m.b_doc, m.b_pos) }
                })
                .collect();
            if !fragments.is_empty() {
                let again: Vec<Fragment> = repeats.iter().map(|r| fragments[r.index(fragments.len())]).collect();
                fragments.extend(again);
            }
            let mut expected = fragments.clone();
            expected.sort_by_key(|f| (std::cmp::Reverse(f.len()), *f));
            expected.dedup();
            let packing = FragmentPacking::new(a_docs, b_docs, longest);
            // Small units always pack; positions of 31 bits never do.
            prop_assert!(packing.is_some() || longest >= 50);
            prop_assert!(packing.is_none() || longest < 1 << 20);
            let packing = packing.filter(|_| packed);
            let mut taken = Vec::new();
            each_longest_first(&mut fragments, (packing, &mut vec![7]), |f| taken.push(f));
            prop_assert_eq!(taken, expected);
        }

        /// Resolution by ranges while few fragments are kept and by bits
        /// past them, with the buffers reused from a previous pair, keeps
        /// what the plain one keeps, in the same order.
        #[test]
        fn overlaps_resolve_as_symbol_by_symbol(
            grown in prop::collection::vec((0u32..2, 0u32..150, 0u32..2, 0u32..150, 1u32..90), 0..60),
            k in 1usize..12,
            earlier in prop::collection::vec((0u32..2, 0u32..150, 0u32..2, 0u32..150, 1u32..90), 0..40),
            packed in any::<bool>(),
            short in any::<bool>(),
        ) {
            const LEN: usize = 240;
            // Short fragments overlap less, so that more are kept than
            // ranges are compared for.
            let fragment = |&(a_doc, a, b_doc, b, len): &(u32, u32, u32, u32, u32)| {
                let len = if short { 1 + len % 8 } else { len };
                Fragment {
                    a: SymbolRange { doc: a_doc, start: a, end: a + len },
                    b: SymbolRange { doc: b_doc, start: b, end: b + len },
                }
            };
            let unit = unit_of(2, LEN);
            let mut taken = TakenSides::default();
            // The kept buffer too comes from that pair.
            let mut kept = Vec::new();
            let packing = packed.then(|| FragmentPacking::new(2, 2, LEN)).flatten();
            let mut keys = Vec::new();
            resolve_overlaps(&mut earlier.iter().map(fragment).collect::<Vec<_>>(), 1, (packing, &mut keys), (&unit, &unit), &mut taken, &mut kept);
            let grown: Vec<Fragment> = grown.iter().map(fragment).collect();
            resolve_overlaps(&mut grown.clone(), k, (packing, &mut keys), (&unit, &unit), &mut taken, &mut kept);
            prop_assert_eq!(kept, resolve_symbol_by_symbol(&grown, k, LEN));
        }

        /// Matches taken as they come give the fragments that matches
        /// sorted by diagonal give, and without a hash collision they are
        /// taken so.
        #[test]
        fn unordered_growth_finds_the_fragments_of_ordered_growth(
            a_docs in prop::collection::vec(prop::collection::vec(0u32..3, 1..90), 1..3),
            b_docs in prop::collection::vec(prop::collection::vec(0u32..3, 1..90), 1..3),
            k in 1usize..8,
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..60),
            collisions in prop::collection::vec((0u32..3, 0u32..90, 0u32..3, 0u32..90), 0..3),
        ) {
            let unit = |docs: &[Vec<u32>]| {
                let documents = docs.iter().map(|symbols| {
                    let mut normalized = copyhound_fingerprint::NormalizedDocument::new();
                    for (i, &s) in symbols.iter().enumerate() {
                        normalized.push(s, i..i + 1);
                    }
                    crate::Document::new("d", normalized, Vec::new())
                });
                Unit::new("u", documents.collect())
            };
            let units = [unit(&a_docs), unit(&b_docs)];
            let hasher = copyhound_fingerprint::KGramHasher::new(k, 0);
            let prepared = crate::prepare::prepare(&units, &crate::BaseCode::none(), &hasher);
            let side = |u: usize| Side { unit: &units[u], prepared: &prepared[u] };
            // Every pair of equal k-grams, the matches a collision-free hash
            // gives; some of them, in a random order.
            let mut equal = Vec::new();
            for (a_doc, x) in a_docs.iter().enumerate() {
                for (b_doc, y) in b_docs.iter().enumerate() {
                    for i in 0..=x.len().saturating_sub(k) {
                        for j in 0..=y.len().saturating_sub(k) {
                            if x.len() >= k && y.len() >= k && x[i..i + k] == y[j..j + k] {
                                equal.push(Match { a_doc: a_doc as u32, a_pos: i as u32, b_doc: b_doc as u32, b_pos: j as u32 });
                            }
                        }
                    }
                }
            }
            let mut matches: Vec<Match> = if equal.is_empty() {
                Vec::new()
            } else {
                picks.iter().map(|p| equal[p.index(equal.len())]).collect()
            };
            // Unequal k-grams with one hash, where they fit.
            let fits = |docs: &[Vec<u32>], doc: u32, pos: u32| {
                docs.get(doc as usize).is_some_and(|d| pos as usize + k <= d.len())
            };
            let collided = collisions.iter().any(|&(a_doc, a_pos, b_doc, b_pos)| {
                let fit = fits(&a_docs, a_doc, a_pos) && fits(&b_docs, b_doc, b_pos);
                if fit {
                    matches.push(Match { a_doc, a_pos, b_doc, b_pos });
                }
                fit && a_docs[a_doc as usize][a_pos as usize..a_pos as usize + k]
                    != b_docs[b_doc as usize][b_pos as usize..b_pos as usize + k]
            });

            let mut ordered = PairScratch { matches: matches.clone(), ..PairScratch::default() };
            let packing = Packing::new(a_docs.len(), b_docs.len(), 90);
            sort_by_diagonal(&mut ordered.matches, packing, &mut ordered.keys);
            grow_in_order((side(0), side(1)), k, &ordered.matches, &mut ordered.grown);
            // Diagonals too crowded to search.
            let mut distinct = ordered.grown.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let mut diagonals: Vec<(u32, u32, i64)> = distinct
                .iter()
                .map(|f| (f.a.doc, f.b.doc, i64::from(f.b.start) - i64::from(f.a.start)))
                .collect();
            diagonals.sort_unstable();
            let crowded = diagonals.chunk_by(|x, y| x == y).any(|run| run.len() >= DiagonalTable::MAX_PER_DIAGONAL);
            let mut expected = Vec::new();
            resolve_overlaps(&mut ordered.grown, k, (None, &mut ordered.keys), (&units[0], &units[1]), &mut ordered.taken, &mut expected);

            let mut unordered = PairScratch::default();
            let taken = grow_unordered((side(0), side(1)), k, &matches, packing.unwrap(), &mut unordered.diagonals, &mut unordered.grown);
            prop_assert!(taken || collided || crowded);

            // The buffers, the table of diagonals among them, come from
            // that earlier pair.
            let mut scratch = PairScratch { matches, ..unordered };
            prop_assert_eq!(find_fragments(side(0), side(1), k, &mut scratch).clone(), expected);
        }
    }
}
