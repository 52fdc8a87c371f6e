//! Jupyter notebooks (`.ipynb`, nbformat 4): the code of their code cells,
//! in the notebook's kernel language.
//!
//! The text is each code cell's source in order, each after a line that
//! names the cell in a comment of the language (`# %% cell 3`, as the
//! percent format of notebook tools writes it): the code front-end drops
//! comments, so the lines only tell a reader which cell a line is in.
//! Where each cell starts is kept ([`NotebookCode::cells`]), so that
//! reports give positions as a cell and a line within it.
//! Markdown and raw cells, outputs and metadata are not read. The language
//! is the kernel's (`metadata.kernelspec.language`, else
//! `metadata.language_info.name`), Python when the notebook names none.

use std::fmt::Write;

use copyhound_source::CellStart;
use serde_json::Value;

use super::ExtractError;
use crate::code::Language;

/// The code of a notebook and the language it is in.
#[derive(Debug, PartialEq, Eq)]
pub struct NotebookCode {
    /// The kernel's language, as the notebook names it (`python` when it
    /// names none).
    pub language: String,
    /// The code cells, each after a comment line naming it.
    pub text: String,
    /// Where each code cell's first line is in [`text`](Self::text).
    pub cells: Vec<CellStart>,
}

/// The code cells of the notebook in `bytes`.
pub fn notebook_code(bytes: &[u8]) -> Result<NotebookCode, ExtractError> {
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
    let mut text = String::new();
    let mut starts = Vec::new();
    for (index, cell) in cells.iter().enumerate() {
        if cell.get("cell_type").and_then(Value::as_str) != Some("code") {
            continue;
        }
        writeln!(text, "{comment} %% cell {}", index + 1).expect("writing to a string");
        starts.push(CellStart {
            number: u32::try_from(index + 1).unwrap_or(u32::MAX),
            offset: text.len(),
        });
        let source = cell.get("source").ok_or_else(|| {
            ExtractError::CorruptNotebook(format!("cell {} has no `source`", index + 1))
        })?;
        match source {
            Value::String(line) => text.push_str(line),
            Value::Array(lines) => {
                for line in lines {
                    let line = line.as_str().ok_or_else(|| {
                        ExtractError::CorruptNotebook(format!(
                            "cell {}: a line of `source` is not a string",
                            index + 1
                        ))
                    })?;
                    text.push_str(line);
                }
            }
            _ => {
                return Err(ExtractError::CorruptNotebook(format!(
                    "cell {}: `source` is neither a string nor a list of lines",
                    index + 1
                )));
            }
        }
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    Ok(NotebookCode {
        language,
        text,
        cells: starts,
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
        let code = notebook_code(notebook).unwrap();
        assert_eq!(code.language, "python");
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
        let code = notebook_code(notebook).unwrap();
        assert_eq!(code.language, "C++");
        assert_eq!(code.text, "// %% cell 1\nint x;\n");
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
            let error = notebook_code(bytes).unwrap_err().to_string();
            assert!(error.contains(why), "{error}");
        }
    }
}
