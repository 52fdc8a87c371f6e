//! C# read without a syntax tree: the table lexer's tokens made whole
//! where C# literals need it (`scan.rs`), then a pass that classes words
//! and splits closers as the tree-sitter grammar does.
//!
//! Why: tree-sitter's parse of C# is slow (see the `csharp_tokens` group
//! of `cargo bench -p copyhound-normalize --bench frontends`), and the tree
//! served only decisions that a look at the neighbouring tokens can make:
//!
//! - words C# reserves are keywords; its contextual words are keywords
//!   where they play their part and names elsewhere: `var` and `async`
//!   before a name, `await` before an operand, `yield` before `return` or
//!   `break`, `get`/`set`/`init`/`add`/`remove` as accessors, `record`,
//!   `partial`, `required`, `file` and `scoped` before a declaration,
//!   `global` before `using`, `where` before a constraint, `with` before
//!   `{`, `when` after a pattern or a `catch (…)`, the query words after
//!   `from x in` (at the query's bracket level), `and`, `or`, `not` and
//!   the discard `_` inside a pattern (after `is`, `case`, or at the
//!   start of a switch expression's arm), attribute targets
//!   (`[assembly: …]`); `nameof`, `dynamic` and `value` are always names;
//! - a lambda's one unparenthesised parameter (`x => …`) is a keyword, as
//!   the walker reads the grammar's `implicit_parameter` leaf;
//! - `>>` and `>>>` that close nested type arguments are single `>`s;
//! - directives (`#if`, `#region`, `#pragma warning disable …`) are one
//!   keyword with their `#`; their words as the grammar classes them, the
//!   text of `#region`, `#error` and `#warning` as the table reads it;
//! - with `drop_imports`, `using` directives go (`using static`, aliases,
//!   `global using`), not `using (…)` statements or declarations.
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule and on random well-formed C#.

mod scan;
mod specs;

use std::sync::OnceLock;

use super::Language;
use super::lexer::{WordSet, lexer};
use super::token::{Token, TokenKind};
use specs::{
    ACCESSOR_MODIFIERS, ATTRIBUTE_TARGETS, DIRECTIVE_WORDS, DIRECTIVES, KEYWORDS, MEMBER_MODIFIERS,
    PREDEFINED_TYPES, QUERY_WORDS,
};

/// The tokens of C# `text`, in order, comments and whitespace left out
/// (and `using` directives too, if `drop_imports`).
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Vec<Token> {
    let tokens = scan::lex(text);
    let mut reader = Reader {
        text,
        tokens: &tokens,
        out: Vec::with_capacity(tokens.len()),
        depth: 0,
        queries: Vec::new(),
        switch_arms: Vec::new(),
        pattern: None,
        designation: None,
        conventions: None,
    };
    reader.read();
    let mut out = reader.out;
    if drop_imports {
        drop_using_directives(text, &mut out);
    }
    split_type_argument_closers(text, &mut out);
    out
}

fn keywords() -> &'static WordSet {
    static SET: OnceLock<WordSet> = OnceLock::new();
    SET.get_or_init(|| KEYWORDS.iter().copied().collect())
}

fn is_word(token: Option<&Token>) -> bool {
    token.is_some_and(|t| matches!(t.kind, TokenKind::Identifier | TokenKind::Keyword))
}

/// The pass that classes words (see the module docs).
struct Reader<'a> {
    text: &'a str,
    tokens: &'a [Token],
    out: Vec<Token>,
    /// Brackets open.
    depth: usize,
    /// The bracket levels of the query expressions being read.
    queries: Vec<usize>,
    /// The levels inside the braces of switch expressions.
    switch_arms: Vec<usize>,
    /// The bracket level of the pattern being read, if one is.
    pattern: Option<usize>,
    /// The bracket level inside the parentheses of a `var (…)`
    /// deconstruction, if one is being read: its `_` are discards.
    designation: Option<usize>,
    /// The bracket level inside a function pointer's calling conventions
    /// (`delegate* unmanaged[Cdecl]`), if one is being read.
    conventions: Option<usize>,
}

impl Reader<'_> {
    fn word(&self, index: usize) -> &str {
        self.tokens
            .get(index)
            .map_or("", |token| &self.text[token.range.clone()])
    }

    fn last_word(&self) -> &str {
        self.out
            .last()
            .map_or("", |token| &self.text[token.range.clone()])
    }

    fn read(&mut self) {
        let mut index = 0;
        while index < self.tokens.len() {
            if self.starts_directive(index) {
                index = self.directive(index);
                continue;
            }
            let mut token = self.tokens[index].clone();
            if is_word(Some(&token)) {
                if self.word(index).starts_with('@') && self.is_implicit_parameter(index) {
                    // The grammar's `implicit_parameter` leaf is not all
                    // word characters, so the walker hands it to the table.
                    lexer(Language::CSharp).tokenize_into(self.text, token.range, &mut self.out);
                    index += 1;
                    continue;
                }
                token.kind = if self.is_keyword(index) {
                    TokenKind::Keyword
                } else {
                    TokenKind::Identifier
                };
            }
            self.follow(index, &token);
            self.out.push(token);
            index += 1;
        }
    }

    /// Keeps the brackets, queries, switch arms and patterns up to date
    /// with the token at `index` (of kind `token.kind`).
    fn follow(&mut self, index: usize, token: &Token) {
        let word = self.word(index);
        let at_pattern = self.pattern == Some(self.depth);
        match word {
            "(" | "[" => {
                let opens = (word, self.last_word());
                let designation = opens == ("(", "var") && self.designation.is_none();
                let conventions = opens == ("[", "unmanaged");
                self.depth += 1;
                if designation {
                    self.designation = Some(self.depth);
                }
                if conventions {
                    self.conventions = Some(self.depth);
                }
            }
            "{" => {
                self.depth += 1;
                if self.last_word() == "switch" {
                    self.switch_arms.push(self.depth);
                    self.pattern = Some(self.depth);
                }
            }
            ")" | "]" | "}" => {
                if word == "}" && self.switch_arms.last() == Some(&self.depth) {
                    self.switch_arms.pop();
                }
                self.depth = self.depth.saturating_sub(1);
                if self.designation.is_some_and(|d| d > self.depth) {
                    self.designation = None;
                }
                if self.conventions.is_some_and(|c| c > self.depth) {
                    self.conventions = None;
                }
                if self.pattern.is_some_and(|p| p > self.depth) {
                    self.pattern = None;
                }
                while self.queries.last().is_some_and(|&q| q > self.depth) {
                    self.queries.pop();
                }
            }
            "," => {
                if self.switch_arms.last() == Some(&self.depth) {
                    self.pattern = Some(self.depth);
                } else if at_pattern {
                    self.pattern = None;
                }
                if self.queries.last() == Some(&self.depth) {
                    self.queries.pop();
                }
            }
            ";" => {
                self.pattern = None;
                while self.queries.last().is_some_and(|&q| q >= self.depth) {
                    self.queries.pop();
                }
            }
            "=>" | "&&" | "||" | "?" | "=" | "==" | "!=" | "??" if at_pattern => {
                self.pattern = None;
            }
            ":" if at_pattern => self.pattern = None,
            "is" | "case" if token.kind == TokenKind::Keyword => self.pattern = Some(self.depth),
            "when" if token.kind == TokenKind::Keyword => self.pattern = None,
            "from" if token.kind == TokenKind::Keyword => self.queries.push(self.depth),
            _ => {}
        }
    }

    /// Whether the word at `index` is a keyword to the grammar.
    fn is_keyword(&self, index: usize) -> bool {
        let word = self.word(index);
        let (last, next, after_next) =
            (self.last_word(), self.word(index + 1), self.word(index + 2));
        let next_is_word = is_word(self.tokens.get(index + 1));
        if matches!(last, "." | "->" | "::") {
            return keywords().contains(word);
        }
        if keywords().contains(word) {
            return true;
        }
        let in_query = self.queries.last() == Some(&self.depth);
        let contextual = match word {
            "_" => self.pattern.is_some() || self.designation.is_some(),
            "and" | "or" | "not" => self.pattern.is_some(),
            "managed" | "unmanaged" if last == "*" => {
                self.out.len() >= 2
                    && &self.text[self.out[self.out.len() - 2].range.clone()] == "delegate"
            }
            "Cdecl" | "Stdcall" | "Thiscall" | "Fastcall" => self.conventions == Some(self.depth),
            "var" | "async" => next_is_word || next == "(",
            "await" => self.starts_operand(index + 1),
            "yield" => matches!(next, "return" | "break"),
            "get" | "set" | "init" | "add" | "remove" => {
                matches!(next, ";" | "{" | "=>")
                    && (matches!(last, "{" | "}" | ";" | "]") || ACCESSOR_MODIFIERS.contains(&last))
            }
            "record" => {
                matches!(next, "struct" | "class")
                    || (next_is_word && matches!(after_next, "(" | "{" | "<" | ":" | ";"))
            }
            "partial" | "required" | "file" | "scoped" => {
                next_is_word
                    && (is_word(self.tokens.get(index + 2))
                        || matches!(after_next, "<" | "?" | "[" | "."))
            }
            "global" => next == "using",
            "alias" => last == "extern",
            "where" => in_query || (next_is_word && after_next == ":"),
            "unmanaged" | "notnull" => matches!(last, ":" | ","),
            "with" => next == "{",
            "when" => {
                self.ends_operand()
                    && !matches!(next, "=" | ";" | ")" | "," | "." | "]" | "}" | "=>")
            }
            "from" => {
                next_is_word
                    && (after_next == "in"
                        || (is_word(self.tokens.get(index + 2)) && self.word(index + 3) == "in"))
            }
            _ if in_query && QUERY_WORDS.contains(&word) => true,
            _ if ATTRIBUTE_TARGETS.contains(&word) => last == "[" && next == ":",
            _ => false,
        };
        contextual || self.is_implicit_parameter(index)
    }

    /// Whether the name at `index` is a lambda's one parameter written
    /// without parentheses (`x => x + 1`), where an operand may start.
    fn is_implicit_parameter(&self, index: usize) -> bool {
        self.word(index + 1) == "=>"
            && self.pattern.is_none()
            && match self.last_word() {
                "?" => !self.ends_nullable_type(),
                last => matches!(
                    last,
                    "=" | "("
                        | ","
                        | "return"
                        | "=>"
                        | "async"
                        | "static"
                        | ":"
                        | "??"
                        | "&&"
                        | "||"
                ),
            }
    }

    /// Whether the `?` last pushed marks a nullable type of a member
    /// (`string? Name => …`) rather than a conditional (`c ? x => …`):
    /// it follows a type that starts the member.
    fn ends_nullable_type(&self) -> bool {
        let Some(before) = self.out.len().checked_sub(2) else {
            return false;
        };
        let word = |at: usize| &self.text[self.out[at].range.clone()];
        match word(before) {
            ">" | "]" => true,
            type_word if PREDEFINED_TYPES.contains(&type_word) => true,
            _ if self.out[before].kind == TokenKind::Identifier => {
                before == 0
                    || matches!(word(before - 1), "{" | "}" | ";" | "]")
                    || MEMBER_MODIFIERS.contains(&word(before - 1))
            }
            _ => false,
        }
    }

    /// Whether the last token pushed ends an operand or a pattern.
    fn ends_operand(&self) -> bool {
        self.out.last().is_some_and(|last| {
            matches!(
                last.kind,
                TokenKind::Identifier | TokenKind::Number | TokenKind::String | TokenKind::Char
            ) || matches!(
                &self.text[last.range.clone()],
                ")" | "]" | "}" | "null" | "true" | "false" | "_"
            )
        })
    }

    /// Whether the token at `index` can start an operand.
    fn starts_operand(&self, index: usize) -> bool {
        self.tokens
            .get(index)
            .is_some_and(|token| match token.kind {
                TokenKind::Operator | TokenKind::Punctuation => {
                    matches!(
                        self.word(index),
                        "(" | "!" | "-" | "+" | "~" | "++" | "--" | "&" | "*" | "^"
                    )
                }
                _ => true,
            })
    }

    /// Whether a directive starts at `index`: a `#` and a directive's
    /// name, with only spaces or tabs between. The grammar's directive
    /// tokens need not be first on their line (`{ #if X`), and C# has no
    /// other use for `#`.
    fn starts_directive(&self, index: usize) -> bool {
        self.word(index) == "#"
            && self.tokens.get(index + 1).is_some_and(|next| {
                self.text[self.tokens[index].range.end..next.range.start]
                    .bytes()
                    .all(|b| b == b' ' || b == b'\t')
                    && DIRECTIVES.contains(&self.word(index + 1))
            })
    }

    /// Reads the directive whose `#` is at `hash`; the index after its
    /// line.
    fn directive(&mut self, hash: usize) -> usize {
        let name = self.word(hash + 1).to_owned();
        self.out.push(Token {
            kind: TokenKind::Keyword,
            range: self.tokens[hash].range.start..self.tokens[hash + 1].range.end,
        });
        let mut index = hash + 2;
        while index < self.tokens.len() {
            let gap = &self.text[self.tokens[index - 1].range.end..self.tokens[index].range.start];
            if gap.contains('\n') {
                break;
            }
            let mut token = self.tokens[index].clone();
            if is_word(Some(&token)) {
                let word = self.word(index);
                let keyword = match name.as_str() {
                    "define" | "undef" | "if" | "elif" => matches!(word, "true" | "false"),
                    "pragma" | "nullable" | "line" => DIRECTIVE_WORDS.contains(&word),
                    _ => token.kind == TokenKind::Keyword,
                };
                token.kind = if keyword {
                    TokenKind::Keyword
                } else {
                    TokenKind::Identifier
                };
            }
            self.out.push(token);
            index += 1;
        }
        index
    }
}

/// Drops the `using` directives: `using A.B;`, `using static A.B;`,
/// `using X = A.B<C>;`, each with a `global` before it; not `using (…)`
/// statements or `using var x = …;` declarations.
fn drop_using_directives(text: &str, tokens: &mut Vec<Token>) {
    let word =
        |tokens: &[Token], index: usize| tokens.get(index).map_or("", |t| &text[t.range.clone()]);
    let mut dropped = vec![false; tokens.len()];
    let mut index = 0;
    while index < tokens.len() {
        if word(tokens, index) != "using" || tokens[index].kind != TokenKind::Keyword {
            index += 1;
            continue;
        }
        let start = if index > 0 && word(tokens, index - 1) == "global" {
            index - 1
        } else {
            index
        };
        let mut end = index + 1;
        if word(tokens, end) == "static" {
            end += 1;
        }
        let alias = tokens
            .get(end)
            .is_some_and(|t| t.kind == TokenKind::Identifier)
            && word(tokens, end + 1) == "=";
        if alias {
            while end < tokens.len() && word(tokens, end) != ";" {
                end += 1;
            }
        } else {
            while tokens.get(end).is_some_and(|t| {
                t.kind == TokenKind::Identifier || matches!(&text[t.range.clone()], "." | "::")
            }) {
                end += 1;
            }
        }
        if end > index + 1 && word(tokens, end) == ";" {
            dropped[start..=end].fill(true);
            index = end;
        }
        index += 1;
    }
    let mut at = 0;
    tokens.retain(|_| {
        at += 1;
        !dropped[at - 1]
    });
}

/// Splits the `>>` and `>>>` that close type arguments into single `>`s:
/// after a name, a `<` opens type arguments if what follows up to its
/// closer can only be a type's tokens. Gives up after 256 tokens.
fn split_type_argument_closers(text: &str, tokens: &mut Vec<Token>) {
    const MAX_LEN: usize = 256;
    let word = |token: &Token| &text[token.range.clone()];
    let mut split = Vec::new();
    let mut index = 1;
    while index < tokens.len() {
        if word(&tokens[index]) != "<" || tokens[index - 1].kind != TokenKind::Identifier {
            index += 1;
            continue;
        }
        let (mut depth, mut parens) = (0usize, 0usize);
        let first_split = split.len();
        let mut end = None;
        for (at, token) in tokens.iter().enumerate().skip(index).take(MAX_LEN) {
            let closes = match word(token) {
                "<" => {
                    depth += 1;
                    0
                }
                ">" => 1,
                ">>" => 2,
                ">>>" => 3,
                "(" => {
                    parens += 1;
                    0
                }
                ")" if parens > 0 => {
                    parens -= 1;
                    0
                }
                "," | "." | "::" | "?" | "[" | "]" | "*" => 0,
                "in" | "out" => 0,
                _ if token.kind == TokenKind::Identifier => 0,
                w if PREDEFINED_TYPES.contains(&w) => 0,
                _ => break,
            };
            if closes == 0 {
                continue;
            }
            if closes > depth {
                break;
            }
            if closes > 1 {
                split.push(at);
            }
            depth -= closes;
            if depth == 0 {
                end = Some(at);
                break;
            }
        }
        if let Some(end) = end {
            index = end + 1;
        } else {
            split.truncate(first_split);
            index += 1;
        }
    }
    if split.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(tokens.len() + split.len() * 2);
    let mut next = 0;
    for (index, token) in tokens.drain(..).enumerate() {
        if split.get(next) == Some(&index) {
            next += 1;
            for at in token.range {
                out.push(Token {
                    kind: TokenKind::Operator,
                    range: at..at + 1,
                });
            }
        } else {
            out.push(token);
        }
    }
    *tokens = out;
}
