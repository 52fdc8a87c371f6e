//! Jupyter notebooks (`.ipynb`, nbformat 4): the code of their code cells,
//! in the notebook's kernel language, and the prose of their markdown
//! cells, each joined into one text of its own.
//!
//! The code text is each code cell's source in order, each after a line
//! that names the cell in a comment of the language (`# %% cell 3`, as the
//! percent format of notebook tools writes it): the code front-end drops
//! comments, so the lines only tell a reader which cell a line is in.
//! The markdown text is each markdown cell's source after a line `---` (a
//! markdown rule): the text front-end keeps letters and digits, so a line
//! naming the cell would make the numbering of cells shared text.
//! Where each cell starts is kept ([`JoinedCells::cells`]), so that
//! reports give positions as a cell and a line within it.
//! Raw cells, outputs and metadata are not read. The language is the
//! kernel's (`metadata.kernelspec.language`, else
//! `metadata.language_info.name`), Python when the notebook names none.

use std::fmt::Write;

use copyhound_source::CellStart;
use serde_json::Value;

use super::ExtractError;
use crate::code::Language;

/// A notebook's code cells and markdown cells, each kind joined into one
/// text, and the language of the code.
#[derive(Debug, PartialEq, Eq)]
pub struct Notebook {
    /// The kernel's language, as the notebook names it (`python` when it
    /// names none).
    pub language: String,
    /// The code cells, each after a comment line naming it.
    pub code: JoinedCells,
    /// The markdown cells, each after a line `---`, when they were read.
    pub markdown: JoinedCells,
}

/// Cells of one kind joined into one text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct JoinedCells {
    /// Each cell's source after a line before it.
    pub text: String,
    /// Where each cell's first line is in [`text`](Self::text).
    pub cells: Vec<CellStart>,
}

impl JoinedCells {
    /// Adds the source of cell `index` (0-based) after the line `before`.
    fn push(&mut self, index: usize, before: &str, source: &Value) -> Result<(), ExtractError> {
        let number = index + 1;
        writeln!(self.text, "{before}").expect("writing to a string");
        self.cells.push(CellStart {
            number: u32::try_from(number).unwrap_or(u32::MAX),
            offset: self.text.len(),
        });
        match source {
            Value::String(line) => self.text.push_str(line),
            Value::Array(lines) => {
                for line in lines {
                    let line = line.as_str().ok_or_else(|| {
                        ExtractError::CorruptNotebook(format!(
                            "cell {number}: a line of `source` is not a string"
                        ))
                    })?;
                    self.text.push_str(line);
                }
            }
            _ => {
                return Err(ExtractError::CorruptNotebook(format!(
                    "cell {number}: `source` is neither a string nor a list of lines"
                )));
            }
        }
        if !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        Ok(())
    }
}

/// The code cells of the notebook in `bytes`, and its markdown cells
/// when `with_markdown` (else [`Notebook::markdown`] is empty, and a
/// malformed markdown cell goes unnoticed, as one not read).
pub fn read_notebook(bytes: &[u8], with_markdown: bool) -> Result<Notebook, ExtractError> {
    let notebook: Value = serde_json::from_slice(bytes)
        .map_err(|error| ExtractError::CorruptNotebook(format!("not JSON: {error}")))?;
    let cells = notebook
        .get("cells")
        .and_then(Value::as_array)
        .ok_or_else(|| ExtractError::CorruptNotebook("no list of `cells`".into()))?;
    let metadata = notebook.get("metadata");
    let named = |path: [&str; 2]| {
        metadata
            .and_then(|m| m.get(path[0]))
            .and_then(|m| m.get(path[1]))
            .and_then(Value::as_str)
    };
    let language = named(["kernelspec", "language"])
        .or_else(|| named(["language_info", "name"]))
        .unwrap_or("python")
        .to_string();
    let comment = Language::from_name(&language).map_or("#", comment_of);
    let mut code = JoinedCells::default();
    let mut markdown = JoinedCells::default();
    for (index, cell) in cells.iter().enumerate() {
        let (joined, before) = match cell.get("cell_type").and_then(Value::as_str) {
            Some("code") => (&mut code, format!("{comment} %% cell {}", index + 1)),
            Some("markdown") if with_markdown => (&mut markdown, "---".to_string()),
            _ => continue,
        };
        let source = cell.get("source").ok_or_else(|| {
            ExtractError::CorruptNotebook(format!("cell {} has no `source`", index + 1))
        })?;
        joined.push(index, &before, source)?;
    }
    Ok(Notebook {
        language,
        code,
        markdown,
    })
}

/// How a line comment starts in `language`.
fn comment_of(language: Language) -> &'static str {
    match language {
        Language::Python | Language::Ruby | Language::Bash => "#",
        Language::Haskell => "--",
        _ => "//",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_cells_in_order_after_a_line_naming_each() {
        let notebook = br##"{"cells": [
            {"cell_type": "markdown", "source": ["# Title\n"]},
            {"cell_type": "code", "source": ["x = 1\n", "y = 2"], "outputs": [{"text": "no"}]},
            {"cell_type": "code", "source": "print(x)\n"}
        ], "metadata": {}, "nbformat": 4}"##;
        let read = read_notebook(notebook, false).unwrap();
        assert_eq!(read.language, "python");
        assert_eq!(read.markdown, JoinedCells::default());
        let code = read.code;
        assert_eq!(
            code.text,
            "# %% cell 2\nx = 1\ny = 2\n# %% cell 3\nprint(x)\n"
        );
        let start = |number, line: &str| CellStart {
            number,
            offset: code.text.find(line).unwrap(),
        };
        assert_eq!(code.cells, [start(2, "x = 1"), start(3, "print")]);
    }

    #[test]
    fn the_kernel_names_the_language() {
        let notebook = br#"{"cells": [{"cell_type": "code", "source": ["int x;"]}],
            "metadata": {"kernelspec": {"language": "C++"}}}"#;
        let read = read_notebook(notebook, false).unwrap();
        assert_eq!(read.language, "C++");
        assert_eq!(read.code.text, "// %% cell 1\nint x;\n");
    }

    #[test]
    fn a_malformed_notebook_says_what_is_wrong() {
        for (bytes, why) in [
            (&b"{not json"[..], "not JSON"),
            (b"{\"nbformat\": 4}", "no list of `cells`"),
            (
                b"{\"cells\": [{\"cell_type\": \"code\", \"source\": 3}]}",
                "cell 1: `source` is neither",
            ),
        ] {
            let error = read_notebook(bytes, false).unwrap_err().to_string();
            assert!(error.contains(why), "{error}");
        }
    }

    #[test]
    fn markdown_cells_are_read_on_request_apart_from_the_code() {
        let cells = r##"
            {"cell_type": "markdown", "source": ["# Title\n", "Some prose."]},
            {"cell_type": "code", "source": ["x = 1\n"]},
            {"cell_type": "raw", "source": "not read\n"},
            {"cell_type": "markdown", "source": "More prose.\n"}"##;
        let malformed =
            format!(r#"{{"cells": [{cells}, {{"cell_type": "markdown", "source": 7}}]}}"#);
        let error = read_notebook(malformed.as_bytes(), true)
            .unwrap_err()
            .to_string();
        assert!(error.contains("cell 5: `source` is neither"), "{error}");
        // Not read, a malformed markdown cell is not noticed.
        assert!(read_notebook(malformed.as_bytes(), false).is_ok());
        let read = read_notebook(format!(r#"{{"cells": [{cells}]}}"#).as_bytes(), true).unwrap();
        assert_eq!(read.code.text, "# %% cell 2\nx = 1\n");
        let markdown = read.markdown;
        assert_eq!(
            markdown.text,
            "---\n# Title\nSome prose.\n---\nMore prose.\n"
        );
        let start = |number, line: &str| CellStart {
            number,
            offset: markdown.text.find(line).unwrap(),
        };
        assert_eq!(markdown.cells, [start(1, "# Title"), start(4, "More")]);
    }
}
