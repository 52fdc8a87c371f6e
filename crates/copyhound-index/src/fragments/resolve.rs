//! Resolving overlaps: a pair's fragments taken longest first, the parts
//! of each that an earlier one takes on either side cut away, the rest of
//! at least k symbols kept.

use super::packing::{FragmentPacking, each_longest_first};
use super::{Fragment, SymbolRange};
use crate::Unit;
use crate::bitset;

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
            end += document.len().div_ceil(64);
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

/// What the fragments kept so far take on each side of a pair: one bit
/// per symbol of each unit, in buffers reused from pair to pair. Testing
/// a fragment costs a word or two per side for the short fragments most
/// pairs are made of; comparing it with each kept fragment instead (while
/// few are kept) measured no faster on any labelled set and slower on the
/// larger ones, whose pairs keep dozens.
#[derive(Debug, Default)]
pub(super) struct TakenSides {
    a: Occupancy,
    b: Occupancy,
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
pub(super) fn resolve_overlaps(
    grown: &mut Vec<Fragment>,
    k: usize,
    packing: (Option<FragmentPacking>, &mut Vec<u64>),
    units: (&Unit, &Unit),
    taken: &mut TakenSides,
    kept: &mut Vec<Fragment>,
) {
    kept.clear();
    if grown.is_empty() {
        return;
    }
    taken.a.reset(units.0);
    taken.b.reset(units.1);
    each_longest_first(grown, packing, |f| {
        take_pieces_by_bits(f, k, (&mut taken.a, &mut taken.b), kept);
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
    use crate::bitset::BitSet;
    use proptest::prelude::*;

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
        /// Resolution by bits, with the buffers reused from a previous
        /// pair, keeps what the plain one keeps, in the same order.
        #[test]
        fn overlaps_resolve_as_symbol_by_symbol(
            grown in prop::collection::vec((0u32..2, 0u32..150, 0u32..2, 0u32..150, 1u32..90), 0..60),
            k in 1usize..12,
            earlier in prop::collection::vec((0u32..2, 0u32..150, 0u32..2, 0u32..150, 1u32..90), 0..40),
            packed in any::<bool>(),
            short in any::<bool>(),
        ) {
            const LEN: usize = 240;
            // Short fragments overlap less, so that many are kept.
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
    }
}
