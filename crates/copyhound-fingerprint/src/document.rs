//! The normalised document: the one representation every front-end produces
//! and every later stage reads.

use std::ops::Range;

/// One normalised symbol: a folded character for text, a token class for code.
pub type Symbol = u32;

/// The byte range of the original text that one symbol came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end);
        Self {
            start: start as u32,
            end: end as u32,
        }
    }

    /// As a `Range<usize>`, for slicing the text.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A sequence of symbols and, for each, the bytes it came from.
///
/// Spans lie inside the text the front-end was given, so every k-gram (and
/// so every fingerprint) maps back to a byte range, and through a line
/// index to lines and columns. They are non-decreasing unless the
/// front-end reordered symbols (code whose independent statements it put
/// in a canonical order): each symbol then keeps its own span.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NormalizedDocument {
    /// The symbols, in document order.
    pub symbols: Vec<Symbol>,
    /// `spans[i]` is where `symbols[i]` came from.
    pub spans: Vec<Span>,
}

impl NormalizedDocument {
    /// An empty document.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one symbol that came from `bytes`.
    pub fn push(&mut self, symbol: Symbol, bytes: Range<usize>) {
        self.symbols.push(symbol);
        self.spans.push(Span::new(bytes.start, bytes.end));
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether there are no symbols.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The bytes covered by symbols `first..first + count`: from the first
    /// byte of any of them to the last (the start of the first to the end of
    /// the last, when spans are in order).
    ///
    /// # Panics
    /// If `count` is zero or the range is out of bounds.
    pub fn byte_range(&self, first: usize, count: usize) -> Range<usize> {
        assert!(count > 0, "an empty symbol range has no bytes");
        let spans = &self.spans[first..first + count];
        let start = spans.iter().map(|s| s.start).min().unwrap_or_default();
        let end = spans.iter().map(|s| s.end).max().unwrap_or_default();
        start as usize..end as usize
    }
}
