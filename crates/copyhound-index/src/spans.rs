//! The byte spans of a document's symbols, packed: about 2 bytes a symbol
//! instead of 8. A batch holds a span per symbol of every file from
//! loading to the report, and only the reported pairs' passages read
//! them, a few at a time.

use std::ops::Range;

use copyhound_fingerprint::Span;

/// Spans per block: finding one decodes at most this many, from the
/// start of its block.
const BLOCK: usize = 64;

/// A document's spans, each as LEB128 numbers: how far its start lies
/// from the previous span's end (zigzag-coded, as a front-end that put
/// statements in a canonical order sends spans backwards), or for the
/// first of a block its start, then its length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PackedSpans {
    bytes: Box<[u8]>,
    /// Where each block's first span starts in `bytes`.
    blocks: Box<[u32]>,
    len: usize,
}

impl PackedSpans {
    /// `spans`, packed.
    ///
    /// # Panics
    /// If they take 4 GiB or more packed.
    pub(crate) fn new(spans: &[Span]) -> Self {
        // Most spans take 2 bytes: a short gap and a short token.
        let mut bytes = Vec::with_capacity(spans.len() * 2 + 8);
        let mut blocks = Vec::with_capacity(spans.len().div_ceil(BLOCK));
        let mut previous_end = 0;
        for (i, span) in spans.iter().enumerate() {
            let gap = if i.is_multiple_of(BLOCK) {
                blocks.push(
                    u32::try_from(bytes.len()).expect("a document's packed spans under 4 GiB"),
                );
                u64::from(span.start)
            } else {
                zigzag(i64::from(span.start) - i64::from(previous_end))
            };
            push_number(&mut bytes, gap);
            push_number(&mut bytes, u64::from(span.end - span.start));
            previous_end = span.end;
        }
        Self {
            bytes: bytes.into_boxed_slice(),
            blocks: blocks.into_boxed_slice(),
            len: spans.len(),
        }
    }

    /// The spans, in order.
    pub(crate) fn iter(&self) -> Spans<'_> {
        self.starting_at_block(0)
    }

    /// The spans from the first of block `block` on.
    fn starting_at_block(&self, block: usize) -> Spans<'_> {
        Spans {
            packed: self,
            at: self
                .blocks
                .get(block)
                .map_or(self.bytes.len(), |&at| at as usize),
            index: block * BLOCK,
            previous_end: 0,
        }
    }

    /// The bytes covered by spans `first..first + count`: from the
    /// first byte of any of them to the last, as
    /// [`copyhound_fingerprint::NormalizedDocument::byte_range`] gives
    /// them.
    ///
    /// # Panics
    /// If `count` is zero or the range is out of bounds.
    pub(crate) fn byte_range(&self, first: usize, count: usize) -> Range<usize> {
        assert!(count > 0, "an empty symbol range has no bytes");
        assert!(
            first + count <= self.len,
            "symbols {first}..{} of a document of {}",
            first + count,
            self.len
        );
        let spans = self
            .starting_at_block(first / BLOCK)
            .skip(first % BLOCK)
            .take(count);
        let (start, end) = spans.fold((u32::MAX, 0), |(start, end), span| {
            (start.min(span.start), end.max(span.end))
        });
        start as usize..end as usize
    }
}

/// Spans decoded one after the other.
pub(crate) struct Spans<'a> {
    packed: &'a PackedSpans,
    /// The next span's first byte in `packed.bytes`.
    at: usize,
    /// The next span's index.
    index: usize,
    previous_end: u32,
}

impl Iterator for Spans<'_> {
    type Item = Span;

    fn next(&mut self) -> Option<Span> {
        if self.index == self.packed.len {
            return None;
        }
        let bytes = &self.packed.bytes;
        let gap = read_number(bytes, &mut self.at);
        let start = if self.index.is_multiple_of(BLOCK) {
            gap
        } else {
            (i64::from(self.previous_end) + unzigzag(gap)).cast_unsigned()
        };
        let end = start + read_number(bytes, &mut self.at);
        self.index += 1;
        // Both came from u32 offsets.
        self.previous_end = end as u32;
        Some(Span {
            start: start as u32,
            end: end as u32,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.packed.len - self.index;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Spans<'_> {}

fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)).cast_unsigned()
}

fn unzigzag(n: u64) -> i64 {
    (n >> 1).cast_signed() ^ -(n & 1).cast_signed()
}

/// Appends `n` in LEB128: 7 bits a byte, low first, the high bit set on
/// all but the last.
fn push_number(bytes: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        bytes.push((n as u8) | 0x80);
        n >>= 7;
    }
    bytes.push(n as u8);
}

/// The LEB128 number at `bytes[*at..]`, moving `at` past it.
fn read_number(bytes: &[u8], at: &mut usize) -> u64 {
    let mut n = 0;
    let mut shift = 0;
    loop {
        let byte = bytes[*at];
        *at += 1;
        n |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return n;
        }
        shift += 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use copyhound_fingerprint::NormalizedDocument;
    use proptest::prelude::*;

    /// Spans as front-ends make them: mostly short gaps and tokens in
    /// order, some far apart, long, empty or backwards (reordered
    /// statements), offsets up to the largest.
    fn spans() -> impl Strategy<Value = Vec<Span>> {
        let step = prop_oneof![
            4 => (0u32..4, 0u32..12),
            1 => (0u32..70_000, 0u32..300),
        ];
        (
            prop::collection::vec((step, any::<bool>(), 0u32..200), 0..300),
            prop_oneof![Just(0u32), Just(u32::MAX - 100_000_000)],
        )
            .prop_map(|(steps, base)| {
                let mut at = base;
                let mut spans = Vec::new();
                for ((gap, len), backwards, back) in steps {
                    at = if backwards {
                        at.saturating_sub(back).max(base)
                    } else {
                        at + gap
                    };
                    spans.push(Span {
                        start: at,
                        end: at + len,
                    });
                    at += len;
                }
                spans
            })
    }

    proptest! {
        /// Packed spans decode to what was packed, and give every range
        /// of symbols the bytes the unpacked document gives.
        #[test]
        fn packed_spans_are_the_spans(spans in spans(), cuts in prop::collection::vec((0usize..300, 1usize..150), 8)) {
            let packed = PackedSpans::new(&spans);
            prop_assert_eq!(packed.iter().len(), spans.len());
            prop_assert_eq!(packed.iter().collect::<Vec<_>>(), spans.clone());
            let document = NormalizedDocument { symbols: vec![0; spans.len()], spans: spans.clone() };
            for (first, count) in cuts {
                if first + count <= spans.len() {
                    prop_assert_eq!(packed.byte_range(first, count), document.byte_range(first, count));
                }
            }
        }
    }

    #[test]
    fn ordinary_spans_take_about_two_bytes() {
        let spans: Vec<Span> = (0..1000u32)
            .map(|i| Span {
                start: i * 5,
                end: i * 5 + 4,
            })
            .collect();
        let packed = PackedSpans::new(&spans);
        assert!(packed.bytes.len() + packed.blocks.len() * 4 < 2 * 1000 + 100);
    }
}
