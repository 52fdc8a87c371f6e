//! What is compared: units (a file, or a directory submitted as a whole)
//! made of normalised, fingerprinted documents.

use std::ops::Range;

use copyhound_fingerprint::{Fingerprint, NormalizedDocument, Scheme, Span, Symbol};

use copyhound_source::LineRange;

use crate::LineIndex;
use crate::spans::PackedSpans;

/// One normalised file of a unit with its fingerprints.
#[derive(Clone, Debug, Default)]
pub struct Document {
    /// The name shown to users (a path relative to the unit, usually).
    pub name: String,
    /// The normalised symbols, in document order.
    pub symbols: Vec<Symbol>,
    /// Where each symbol came from, packed: in a large batch they
    /// would be a large part of its memory, and only reports read them.
    pub(crate) spans: PackedSpans,
    /// The selected fingerprints, in position order, taken with the
    /// scheme given to the comparison: read them with
    /// [`fingerprints`](Self::fingerprints).
    pub(crate) fingerprints: Vec<Fingerprint>,
    /// How many there were, also once released.
    fingerprint_count: usize,
    /// Line starts of the original text, when lines should be reported.
    pub lines: Option<LineIndex>,
}

impl Document {
    /// A document with precomputed fingerprints and no line information.
    pub(crate) fn new(
        name: impl Into<String>,
        normalized: NormalizedDocument,
        mut fingerprints: Vec<Fingerprint>,
    ) -> Self {
        let mut symbols = normalized.symbols;
        // Kept for the whole comparison: vectors grown one push at a time
        // may have room for as many again, which would be a large part of
        // a batch's memory.
        symbols.shrink_to_fit();
        fingerprints.shrink_to_fit();
        Self {
            name: name.into(),
            spans: PackedSpans::new(&normalized.spans),
            symbols,
            fingerprint_count: fingerprints.len(),
            fingerprints,
            lines: None,
        }
    }

    /// A document fingerprinted with `scheme`, the scheme of the
    /// comparison it takes part in, with no line information.
    pub fn fingerprinted(
        name: impl Into<String>,
        normalized: NormalizedDocument,
        scheme: &Scheme,
    ) -> Self {
        let mut fingerprints = Vec::new();
        scheme.fingerprint(&normalized.symbols, &mut fingerprints);
        Self::new(name, normalized, fingerprints)
    }

    /// The selected fingerprints, in position order; none once
    /// [`crate::compare_with_progress`] has released them.
    pub fn fingerprints(&self) -> &[Fingerprint] {
        &self.fingerprints
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether there are no symbols.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Where each symbol came from, in order.
    pub fn spans(&self) -> impl ExactSizeIterator<Item = Span> + '_ {
        self.spans.iter()
    }

    /// The symbols and their spans, unpacked.
    pub fn into_normalized(self) -> NormalizedDocument {
        NormalizedDocument {
            spans: self.spans.iter().collect(),
            symbols: self.symbols,
        }
    }

    /// How many fingerprints were selected, released or not.
    pub fn fingerprint_count(&self) -> usize {
        self.fingerprint_count
    }

    /// Lets the fingerprints go; their count stays.
    pub(crate) fn release_fingerprints(&mut self) {
        self.fingerprints = Vec::new();
    }

    /// Adds the line starts of the original text.
    #[must_use]
    pub fn with_lines(mut self, lines: LineIndex) -> Self {
        self.lines = Some(lines);
        self
    }

    /// The bytes of symbols `symbols` in the original text.
    ///
    /// # Panics
    /// If the range is empty or out of bounds.
    pub fn byte_range(&self, symbols: Range<u32>) -> Range<usize> {
        self.spans.byte_range(
            symbols.start as usize,
            (symbols.end - symbols.start) as usize,
        )
    }

    /// The lines of symbols `symbols`, when lines are known.
    pub fn line_range(&self, symbols: Range<u32>) -> Option<LineRange> {
        let lines = self.lines.as_ref()?;
        Some(lines.line_range(self.byte_range(symbols)))
    }
}

/// How a unit takes part in pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Role {
    /// A current submission: paired with every other unit.
    #[default]
    New,
    /// An earlier submission: paired with new units, never with other old
    /// ones.
    Old,
}

/// What is compared: one file, or several files submitted together.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// The name shown to users; ties in the ranking are broken by name.
    pub name: String,
    /// The unit's documents.
    pub documents: Vec<Document>,
    /// New or old submission.
    pub role: Role,
    /// Units of the same group (author, team) are never paired.
    pub group: Option<String>,
}

impl Unit {
    /// A new, ungrouped unit.
    pub fn new(name: impl Into<String>, documents: Vec<Document>) -> Self {
        Self {
            name: name.into(),
            documents,
            role: Role::New,
            group: None,
        }
    }

    /// Sets the role.
    #[must_use]
    pub fn with_role(mut self, role: Role) -> Self {
        self.role = role;
        self
    }

    /// Sets the group.
    #[must_use]
    pub fn with_group(mut self, group: impl Into<String>) -> Self {
        self.group = Some(group.into());
        self
    }

    /// Total number of symbols over the documents.
    pub fn symbol_count(&self) -> usize {
        self.documents.iter().map(Document::len).sum()
    }

    /// A unit of one document, no symbols, fingerprinted with `hashes`
    /// at positions 0, 1, 2…: what the index and counting tests need.
    #[cfg(test)]
    pub(crate) fn of_hashes(name: &str, hashes: &[u64]) -> Self {
        let fingerprints = hashes
            .iter()
            .enumerate()
            .map(|(i, &h)| copyhound_fingerprint::Fingerprint::new(h, i))
            .collect();
        let document = Document::new(
            name,
            copyhound_fingerprint::NormalizedDocument::new(),
            fingerprints,
        );
        Self::new(name, vec![document])
    }
}
