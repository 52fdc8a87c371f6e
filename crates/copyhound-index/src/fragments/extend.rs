//! Extension: one match grown into the maximal exact run on its diagonal
//! through its k-gram, a block of symbols at a time where no base code is
//! in the way.

use copyhound_fingerprint::Symbol;

use super::Match;
use crate::Unit;
use crate::bitset::BitSet;
use crate::prepare::PreparedUnit;

/// One unit as the fragment finder sees it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub(crate) unit: &'a Unit,
    pub(crate) prepared: &'a PreparedUnit,
}

impl Side<'_> {
    pub(super) fn doc(&self, d: u32) -> DocView<'_> {
        DocView {
            symbols: &self.unit.documents[d as usize].symbols,
            base: self.prepared.documents[d as usize].base.as_ref(),
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct DocView<'a> {
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
pub(super) fn extend(
    a: DocView<'_>,
    b: DocView<'_>,
    m: Match,
    k: usize,
) -> Option<(usize, usize, usize)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
    }
}
