//! Byte offsets to line numbers.

/// The byte offset where each line of a text starts, to turn the byte span
/// of a symbol into a line number.
///
/// Lines end at `\n`; a `\r\n` ending belongs to the line it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// `starts[i]` is the byte offset of line `i` (0-based); `starts[0] == 0`.
    starts: Vec<u32>,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(at, _)| at as u32 + 1),
        );
        Self { starts }
    }

    /// Number of lines (a trailing newline opens an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_of(&self, offset: u32) -> u32 {
        (self.starts.partition_point(|&start| start <= offset) - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

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
}
