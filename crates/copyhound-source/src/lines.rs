//! Byte offsets to lines.

use std::ops::Range;

use crate::cells::{CellLines, CellRange, CellStart};

/// The byte offset where each line of a text starts, to turn the byte span
/// of a symbol into a line number.
///
/// Lines end at `\n`; a `\r\n` ending belongs to the line it ends. The
/// text of a notebook also knows where its cells start
/// ([`with_cells`](Self::with_cells)), to say which cell a line is in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// `starts[i]` is the byte offset of line `i` (0-based); `starts[0] == 0`.
    starts: Vec<u32>,
    /// The notebook cells of the text: none for other texts.
    cells: CellLines,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &[u8]) -> Self {
        // `memchr` skips the bytes between newlines many at a time, where
        // a filter looks at each one.
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text).map(|at| at as u32 + 1));
        Self {
            starts,
            cells: CellLines::default(),
        }
    }

    /// The index of a text whose lines after the first start at `later`
    /// (ascending byte offsets, as [`later_starts`](Self::later_starts)
    /// gives them): what is kept of a text that is not kept itself.
    pub fn from_later_starts(later: impl IntoIterator<Item = u32>) -> Self {
        let mut starts = vec![0];
        starts.extend(later);
        Self {
            starts,
            cells: CellLines::default(),
        }
    }

    /// Where each line after the first starts (the first starts at 0).
    pub fn later_starts(&self) -> &[u32] {
        &self.starts[1..]
    }

    /// The same index, for the text of a notebook whose cells start at
    /// `cells`.
    #[must_use]
    pub fn with_cells(mut self, cells: &[CellStart]) -> Self {
        self.cells = CellLines::new(&self, cells);
        self
    }

    /// The notebook cells and lines within them `bytes` lie on, as
    /// [`line_range`](Self::line_range) the lines of the text; `None` for
    /// a text without cells.
    pub fn cell_range(&self, bytes: Range<usize>) -> Option<CellRange> {
        if self.cells.is_empty() {
            return None;
        }
        self.cells.cell_range(self, bytes)
    }

    /// Number of lines (a trailing newline opens an empty last line).
    #[inline]
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based index of the line holding byte `offset`: for sets of
    /// lines; what users see is [`line_number`](Self::line_number).
    #[inline]
    pub fn line_of(&self, offset: u32) -> u32 {
        (self.starts.partition_point(|&start| start <= offset) - 1) as u32
    }

    /// [`line_of`](Self::line_of) for each of `offsets`, which usually
    /// ascend (the symbols of a document): the line is found by stepping
    /// forward from the previous one, not searched for anew; an offset
    /// below the previous one is searched for.
    pub fn lines_of(&self, offsets: impl IntoIterator<Item = u32>) -> impl Iterator<Item = u32> {
        // The line found last, the offset it was found for, and where the
        // line after it starts (past every offset when there is none): an
        // offset on the same line, nearly every one, costs two comparisons.
        let mut line = 0;
        let mut last = 0;
        let mut next = self.start_after(0);
        offsets.into_iter().map(move |offset| {
            if offset < last {
                line = self.line_of(offset) as usize;
                next = self.start_after(line);
            } else {
                while u64::from(offset) >= next {
                    line += 1;
                    next = self.start_after(line);
                }
            }
            last = offset;
            line as u32
        })
    }

    /// Where the line after line `line` starts, or a value above every
    /// offset when `line` is the last.
    #[inline]
    fn start_after(&self, line: usize) -> u64 {
        self.starts
            .get(line + 1)
            .map_or(u64::MAX, |&start| u64::from(start))
    }

    /// The 1-based number of the line holding byte `offset`.
    #[inline]
    pub fn line_number(&self, offset: usize) -> u32 {
        self.line_of(offset as u32) + 1
    }

    /// The lines `bytes` lie on: from the line of its first byte to that
    /// of its last (of its start when it is empty).
    #[inline]
    pub fn line_range(&self, bytes: Range<usize>) -> LineRange {
        let last_byte = bytes.end.saturating_sub(1).max(bytes.start);
        LineRange {
            first: self.line_number(bytes.start),
            last: self.line_number(last_byte),
        }
    }
}

/// Lines of a text, 1-based and inclusive, as reports show them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineRange {
    /// The first line.
    pub first: u32,
    /// The last line, at least `first`.
    pub last: u32,
}

impl From<LineRange> for [u32; 2] {
    /// `[first, last]`, as the JSON reports write it.
    fn from(range: LineRange) -> Self {
        [range.first, range.last]
    }
}

#[cfg(test)]
mod tests {
    use super::{LineIndex, LineRange};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn an_offset_is_on_the_line_numbered_by_the_newlines_before_it(text in "[a\n\r]{0,300}") {
            let lines = LineIndex::new(text.as_bytes());
            let newlines = text.matches('\n').count();
            prop_assert_eq!(lines.line_count(), newlines + 1);
            for offset in 0..=text.len() {
                let before = text[..offset].matches('\n').count();
                prop_assert_eq!(lines.line_of(offset as u32) as usize, before);
            }
        }

        #[test]
        fn lines_of_agrees_with_line_of(text in "[a\n]{0,60}", offsets in prop::collection::vec(0u32..64, 0..20)) {
            let lines = LineIndex::new(text.as_bytes());
            let mut sorted = offsets.clone();
            sorted.sort_unstable();
            for order in [offsets, sorted] {
                let stepped: Vec<u32> = lines.lines_of(order.iter().copied()).collect();
                let searched: Vec<u32> = order.iter().map(|&o| lines.line_of(o)).collect();
                prop_assert_eq!(stepped, searched);
            }
        }
    }

    proptest! {
        #[test]
        fn an_index_made_from_its_later_starts_is_the_same(text in "[a\r\n]{0,60}") {
            let lines = LineIndex::new(text.as_bytes());
            let kept = LineIndex::from_later_starts(lines.later_starts().iter().copied());
            prop_assert_eq!(kept, lines);
        }
    }

    #[test]
    fn offsets_map_to_their_line() {
        let lines = LineIndex::new(b"ab\ncd\r\n\nef");
        assert_eq!(lines.line_count(), 4);
        assert_eq!(lines.line_of(0), 0);
        assert_eq!(lines.line_of(2), 0);
        assert_eq!(lines.line_of(3), 1);
        assert_eq!(lines.line_of(6), 1);
        assert_eq!(lines.line_of(7), 2);
        assert_eq!(lines.line_of(9), 3);
    }

    #[test]
    fn numbers_and_ranges_count_from_one() {
        let lines = LineIndex::new(b"ab\ncd\r\n\nef");
        assert_eq!(lines.line_number(0), 1);
        assert_eq!(lines.line_number(9), 4);
        let range = |first, last| LineRange { first, last };
        // "cd\r\n" ends with its line's newline: still line 2 alone.
        assert_eq!(lines.line_range(3..7), range(2, 2));
        assert_eq!(lines.line_range(1..9), range(1, 4));
        // An empty range is on the line of its start.
        assert_eq!(lines.line_range(3..3), range(2, 2));
        assert_eq!(<[u32; 2]>::from(range(2, 4)), [2, 4]);
    }
}
