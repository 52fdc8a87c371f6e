//! Matches and fragments packed into one `u64` each, so that a pair's
//! matches sort by diagonal and its fragments longest first as plain
//! integers.

use super::{Fragment, Match, SymbolRange};

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
pub(super) struct Packing {
    /// Bits of a symbol position.
    pub(super) pos_bits: u32,
    /// Bits of `b`'s document index.
    b_doc_bits: u32,
}

impl Packing {
    /// The packing for units of `a_docs` and `b_docs` documents whose
    /// longest holds `longest` symbols, if the fields fit in 64 bits.
    pub(super) fn new(a_docs: usize, b_docs: usize, longest: usize) -> Option<Self> {
        let pos_bits = bits_for(longest);
        let b_doc_bits = bits_for(b_docs);
        let total = bits_for(a_docs) + b_doc_bits + 2 * pos_bits + 1;
        (total <= 64).then_some(Self {
            pos_bits,
            b_doc_bits,
        })
    }

    pub(super) fn pack(self, m: Match) -> u64 {
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
pub(super) struct FragmentPacking {
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
    pub(super) fn new(a_docs: usize, b_docs: usize, longest: usize) -> Option<Self> {
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
pub(super) fn sort_by_diagonal(
    matches: &mut [Match],
    packing: Option<Packing>,
    keys: &mut Vec<u64>,
) {
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

/// Sorts `fragments` longest first and then by their order, dropping
/// repeats; as packed keys (in `keys`) when `packing` fits the units.
/// Calls `take` with each in turn.
pub(super) fn each_longest_first(
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

    proptest! {
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
    }
}
