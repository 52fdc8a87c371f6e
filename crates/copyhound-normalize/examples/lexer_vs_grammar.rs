//! Reads source files and tokenises each one way, for the instruction
//! count (`valgrind --tool=callgrind`) or CPU time of a language's own
//! lexer against its tree-sitter grammar:
//!
//! ```text
//! cargo build --profile test -p copyhound-normalize --example lexer_vs_grammar
//! valgrind --tool=callgrind target/debug/examples/lexer_vs_grammar typescript lexer FILE…
//! ```
//!
//! The way is `read` (the files only, the baseline), `lexer` (the front-end
//! as it reads: the own lexer, or the grammar for a file the lexer leaves to
//! it) or `grammar` (the grammar alone). It prints the bytes, tokens and
//! files read, and how many files the lexer left to the grammar.

use copyhound_normalize::code::{Language, tokenize_with_grammar, tokenize_with_own_lexer};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: lexer_vs_grammar LANGUAGE read|lexer|grammar FILE…";
    let (Some(lang), Some(way)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(lang) = Language::from_name(lang) else {
        eprintln!("lexer_vs_grammar: unknown language {lang}\n{usage}");
        std::process::exit(2);
    };
    let (mut bytes, mut tokens, mut left) = (0, 0, 0);
    for path in &args[2..] {
        let text = std::fs::read_to_string(path).unwrap_or_else(|error| {
            eprintln!("lexer_vs_grammar: {path}: {error}");
            std::process::exit(1);
        });
        bytes += text.len();
        let grammar = || tokenize_with_grammar(lang, &text, false).unwrap_or_default();
        tokens += match way.as_str() {
            "read" => 0,
            "lexer" => tokenize_with_own_lexer(lang, &text, false).map_or_else(
                || {
                    left += 1;
                    grammar().len()
                },
                |tokens| tokens.len(),
            ),
            "grammar" => grammar().len(),
            _ => {
                eprintln!("lexer_vs_grammar: unknown way {way}\n{usage}");
                std::process::exit(2);
            }
        };
    }
    println!(
        "{} files, {bytes} bytes, {tokens} tokens, {left} left to the grammar",
        args.len() - 2
    );
}
