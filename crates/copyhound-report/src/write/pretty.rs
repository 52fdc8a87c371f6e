//! Pretty-printed JSON from any depth, so that parts of one document can
//! be serialised on their own (on several threads) and joined.
//!
//! `serde_json`'s `PrettyFormatter` keeps its depth to itself and always
//! starts at the top, so a value serialised with it alone is indented as
//! if it were the whole document. [`PrettyAtDepth`] prints the same bytes
//! as `PrettyFormatter::new()` (two spaces per level, `[]` and `{}` for
//! empty containers, `": "` after a key) but starts at a given depth.

use std::io::{self, Write};

use serde_json::ser::Formatter;

/// Pretty-prints like `serde_json`'s `PrettyFormatter`, for a value found
/// `depth` levels deep in the document.
#[derive(Clone, Copy, Debug)]
pub(super) struct PrettyAtDepth {
    /// Open arrays and objects, counting those the value is inside.
    depth: usize,
    /// Whether the innermost open array or object has an element yet:
    /// it is closed on a line of its own only then.
    has_value: bool,
}

impl PrettyAtDepth {
    /// A formatter for a value inside `depth` arrays or objects (0 for
    /// the whole document).
    pub(super) fn new(depth: usize) -> Self {
        Self {
            depth,
            has_value: false,
        }
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            writer.write_all(b"\n")?;
            indent(writer, self.depth)?;
        }
        writer.write_all(bracket)
    }

    /// Starts an element or a key on a line of its own.
    fn new_line<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        writer.write_all(if first { b"\n" } else { b",\n" })?;
        indent(writer, self.depth)
    }
}

impl Formatter for PrettyAtDepth {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Two spaces per level, written at once.
fn indent<W: ?Sized + Write>(writer: &mut W, depth: usize) -> io::Result<()> {
    const SPACES: [u8; 64] = [b' '; 64];
    let mut left = 2 * depth;
    while left > 0 {
        let step = left.min(SPACES.len());
        writer.write_all(&SPACES[..step])?;
        left -= step;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::{Serializer, json};

    use super::PrettyAtDepth;

    fn at_depth(value: &serde_json::Value, depth: usize) -> String {
        let mut out = Vec::new();
        value
            .serialize(&mut Serializer::with_formatter(
                &mut out,
                PrettyAtDepth::new(depth),
            ))
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn at_depth_zero_it_prints_what_the_pretty_formatter_prints() {
        let value = json!({
            "empty": [], "none": {}, "nested": [[], [{}], {"a": [1, 2.5, null]}],
            "text": "a\n\"b\"\u{1}é", "more": [true, {"x": {"y": []}}]
        });
        assert_eq!(
            at_depth(&value, 0),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn deeper_it_indents_every_line_but_the_first_two_spaces_a_level() {
        let value = json!({"a": [1, {}], "b": {"c": []}});
        let top = serde_json::to_string_pretty(&value).unwrap();
        for depth in [1, 3, 40] {
            let margin = "  ".repeat(depth);
            assert_eq!(
                at_depth(&value, depth),
                top.replace('\n', &format!("\n{margin}")),
                "depth {depth}"
            );
        }
    }
}
