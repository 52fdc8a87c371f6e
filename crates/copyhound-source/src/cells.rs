//! Notebook cells: where each cell is in the one text a notebook's cells
//! are joined into, and a line of that text as a line of its cell.
//!
//! A notebook is read as one text: each cell read after a line that names
//! it (a comment, `# %% cell 3`). Users think in cells, so a stretch of
//! that text is reported as the cell and the line within the cell it
//! starts and ends on: line 1 is the cell's first line, and line 0 the
//! line naming the cell, before it.

use std::ops::Range;

use crate::LineIndex;

/// Where a cell's source starts in the text a notebook's cells are
/// joined into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellStart {
    /// The cell's 1-based number among all the cells of the notebook, as
    /// Jupyter numbers them (cells that are not read count too).
    pub number: u32,
    /// The byte offset of the cell's first line in the joined text.
    pub offset: usize,
}

/// A line of a notebook cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellLine {
    /// The cell's number ([`CellStart::number`]).
    pub cell: u32,
    /// The 1-based line within the cell; 0 is the line naming the cell,
    /// before its first.
    pub line: u32,
}

/// The cells and lines within them that a stretch of a notebook's text
/// starts and ends on, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRange {
    /// Where the stretch starts.
    pub first: CellLine,
    /// Where it ends.
    pub last: CellLine,
}

/// The cells of a text, by the line of the text each starts on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellLines {
    /// The 1-based line of each cell's first line, and its number, in
    /// text order.
    first_lines: Vec<(u32, u32)>,
}

impl CellLines {
    /// The cells starting at `cells` in the text of `lines`.
    pub(crate) fn new(lines: &LineIndex, cells: &[CellStart]) -> Self {
        let mut first_lines: Vec<(u32, u32)> = cells
            .iter()
            .map(|cell| (lines.line_number(cell.offset), cell.number))
            .collect();
        first_lines.sort_unstable();
        Self { first_lines }
    }

    /// Whether the text has no cells.
    pub(crate) fn is_empty(&self) -> bool {
        self.first_lines.is_empty()
    }

    /// Line `line` (1-based) of the text as a line of its cell: of the
    /// last cell whose naming line (the one before its first) is at or
    /// before it. `None` before the first cell's naming line.
    fn cell_line(&self, line: u32) -> Option<CellLine> {
        let after = self
            .first_lines
            .partition_point(|&(first, _)| first.saturating_sub(1) <= line);
        let (first, cell) = *self.first_lines.get(after.checked_sub(1)?)?;
        Some(CellLine {
            cell,
            line: (line + 1).saturating_sub(first),
        })
    }

    /// The cells and lines `bytes` of the text of `lines` lie on.
    pub(crate) fn cell_range(&self, lines: &LineIndex, bytes: Range<usize>) -> Option<CellRange> {
        let range = lines.line_range(bytes);
        Some(CellRange {
            first: self.cell_line(range.first)?,
            last: self.cell_line(range.last)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The text of `cells` (number, lines) joined as a notebook's are, a
    /// line naming each before it, and where each starts.
    fn joined(cells: &[(u32, Vec<String>)]) -> (String, Vec<CellStart>) {
        let mut text = String::new();
        let mut starts = Vec::new();
        for (number, lines) in cells {
            text.extend(["# %% cell ", &number.to_string(), "\n"]);
            starts.push(CellStart {
                number: *number,
                offset: text.len(),
            });
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
        }
        (text, starts)
    }

    #[test]
    fn a_stretch_in_one_cell_is_in_its_lines() {
        let lines = |n: usize, tag: &str| (1..=n).map(|i| format!("{tag}{i}")).collect();
        let (text, starts) = joined(&[(2, lines(3, "a")), (3, lines(5, "b")), (5, lines(1, "c"))]);
        let index = LineIndex::new(text.as_bytes()).with_cells(&starts);
        let at = |needle: &str| text.find(needle).unwrap();
        let line = |cell, line| CellLine { cell, line };
        // Lines 2 to 4 of cell 3.
        let range = index.cell_range(at("b2")..at("b4") + 2).unwrap();
        assert_eq!(range.first, line(3, 2));
        assert_eq!(range.last, line(3, 4));
        // Across cells: from cell 2's last line to cell 5's first.
        let range = index.cell_range(at("a3")..at("c1") + 1).unwrap();
        assert_eq!((range.first, range.last), (line(2, 3), line(5, 1)));
        // The line naming cell 3 is its line 0.
        let naming = at("# %% cell 3");
        assert_eq!(
            index.cell_range(naming..naming + 3).unwrap().first,
            line(3, 0)
        );
        // A text without cells has no cell lines.
        assert_eq!(LineIndex::new(text.as_bytes()).cell_range(0..2), None);
    }

    proptest! {
        /// Every line of every cell is found as that line of that cell.
        #[test]
        fn each_line_is_found_in_its_cell(
            sizes in prop::collection::vec(0usize..6, 1..8),
            numbering_gaps in prop::collection::vec(1u32..3, 8),
        ) {
            let mut number = 0;
            let cells: Vec<(u32, Vec<String>)> = sizes
                .iter()
                .zip(&numbering_gaps)
                .map(|(&size, &gap)| {
                    number += gap;
                    (number, (1..=size).map(|line| format!("{number}:{line}")).collect())
                })
                .collect();
            let (text, starts) = joined(&cells);
            let index = LineIndex::new(text.as_bytes()).with_cells(&starts);
            for (cell, lines) in &cells {
                for (i, line) in lines.iter().enumerate() {
                    let at = text.find(&format!("\n{line}\n")).unwrap() + 1;
                    let expected = CellLine { cell: *cell, line: i as u32 + 1 };
                    let range = index.cell_range(at..at + line.len()).unwrap();
                    prop_assert_eq!(range.first, expected);
                    prop_assert_eq!(range.last, expected);
                }
            }
        }
    }
}
