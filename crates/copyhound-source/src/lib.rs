//! Where things are in a source text: the bottom vocabulary crate of
//! copyhound, with no dependencies.
//!
//! Every front-end gives each symbol the byte span it came from; users see
//! lines. [`LineIndex`] turns byte offsets into lines, and it is the one
//! place where a line number is worked out: 0-based line indices for sets
//! of lines ([`LineIndex::line_of`], [`LineIndex::lines_of`]), 1-based line
//! numbers and inclusive [`LineRange`]s for what reports show
//! ([`LineIndex::line_number`], [`LineIndex::line_range`]). For the text a
//! notebook's cells are joined into, it also gives the cell and the line
//! within the cell ([`LineIndex::with_cells`], [`LineIndex::cell_range`]).
//!
//! ```
//! use copyhound_source::{LineIndex, LineRange};
//!
//! let text = "first line\nsecond line\nthird line\n";
//! let lines = LineIndex::new(text.as_bytes());
//! let second = text.find("second").unwrap();
//! assert_eq!(lines.line_number(second), 2);
//! // The bytes of "line\nthird" run from line 2 to line 3.
//! let start = second + "second ".len();
//! assert_eq!(lines.line_range(start..start + 10), LineRange { first: 2, last: 3 });
//! ```
#![deny(missing_docs)]

mod cells;
mod lines;

pub use cells::{CellLine, CellRange, CellStart};
pub use lines::{LineIndex, LineRange};
