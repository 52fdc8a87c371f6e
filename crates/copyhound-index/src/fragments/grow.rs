//! Merging: a pair's matches grown into fragments along their diagonals,
//! a match inside a fragment already grown on its diagonal absorbed by it;
//! in diagonal order, or as the matches come with a table of diagonals.

use super::extend::{Side, extend};
use super::packing::Packing;
use super::{Fragment, Match, SymbolRange};

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
pub(super) fn grow_in_order(
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
pub(super) fn grow_unordered(
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
pub(super) struct DiagonalTable {
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
    pub(super) const MAX_PER_DIAGONAL: usize = 8;

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
