//! Python read without a syntax tree: a scanner that cuts the text as the
//! tree-sitter grammar's lexer and external scanner do (`scan.rs`), then a
//! pass over its statements that recovers what the tree decided for the
//! tree walker (`statements.rs`).
//!
//! Why: on the 100,000-file synthetic Python corpus, tree-sitter's parse
//! of Python was the largest single cost of `compare`.
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed Python and on
//! every file of the Python standard library. Where the lexer meets what
//! the grammar reads as an error, it gives up (`None`), and the caller
//! reads the file through the grammar, whose error recovery no local rule
//! predicts.

mod scan;
mod statements;

use super::token::Token;

/// The tokens of Python `text`, as the grammar and the tree walker give
/// them, or `None` where the grammar would find a syntax error.
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Option<Vec<Token>> {
    let lexemes = scan::scan(text)?;
    statements::read(text, &lexemes, drop_imports)
}
