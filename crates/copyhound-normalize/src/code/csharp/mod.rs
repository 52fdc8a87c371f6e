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
//!   `from x in` (at the query's bracket level) where they start a
//!   clause, after an operand (a query word where a name stands, after
//!   `from` or an operator, is a name), `and`, `or`, `not` and
//!   the discard `_` inside a pattern (after `is`, `case`, or at the
//!   start of a switch expression's arm), attribute targets
//!   (`[assembly: …]`); `nameof`, `dynamic` and `value` are always names;
//! - a lambda's one unparenthesised parameter (`x => …`) is a keyword, as
//!   the walker reads the grammar's `implicit_parameter` leaf, wherever
//!   an operand may start (the grammar takes a lambda after any binary
//!   operator too);
//! - where the grammar reads a cast C# does not, so does the pass: a type
//!   in parentheses before `&&` makes it `&` `&` (`(a) && b`), `var` in
//!   parentheses before an operand is the keyword, and so is
//!   `descending` after a name in parentheses (`orderby (a) descending`);
//! - `>>` and `>>>` that close nested type arguments are single `>`s,
//!   and one with more `>`s than lists open closes them and is an
//!   operator after (`a < b >> c` is `a<b>` `>` `c`);
//! - directives (`#if`, `#region`, `#pragma warning disable …`) are one
//!   keyword with their `#`; their words as the grammar classes them, the
//!   text of `#region`, `#error` and `#warning` as the table reads it;
//! - with `drop_imports`, `using` directives go (`using static`, aliases,
//!   `global using`), not `using (…)` statements or declarations.
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed C# and on
//! real sources. Every pass reads each token a bounded number of times
//! (lookahead and lookback have fixed limits; nesting is kept on stacks),
//! so hostile input costs time in proportion to its length.

mod scan;
mod specs;

use std::sync::OnceLock;

use super::Language;
use super::lexer::{WordSet, lexer};
use super::token::{Token, TokenKind};
use specs::{
    ACCESSOR_MODIFIERS, ATTRIBUTE_TARGETS, DIRECTIVE_WORDS, DIRECTIVES, KEYWORDS, MEMBER_MODIFIERS,
    PREDEFINED_TYPES, QUERY_WORDS, SYNTAX_BEFORE_PARENTHESES,
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
        conditional_after_pattern: None,
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

/// A query expression being read.
struct Query {
    /// Its bracket level.
    depth: usize,
    /// Whether its `orderby` clause is being read: its commas separate
    /// orderings, not arguments.
    ordering: bool,
}

/// The pass that classes words (see the module docs).
struct Reader<'a> {
    text: &'a str,
    tokens: &'a [Token],
    out: Vec<Token>,
    /// Brackets open.
    depth: usize,
    /// The bracket levels of the query expressions being read.
    queries: Vec<Query>,
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
    /// Where in `out` a `?` after a pattern is: a conditional's, not a
    /// nullable type's (`x is List<int> ? a : b`).
    conditional_after_pattern: Option<usize>,
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
            if self.word(index) == "&&" && self.closes_parenthesised_type() {
                // The grammar reads `(a) && b` as a cast of `&(&b)`.
                let at = token.range.start;
                for range in [at..at + 1, at + 1..at + 2] {
                    self.out.push(Token {
                        kind: TokenKind::Operator,
                        range,
                    });
                }
                index += 1;
                continue;
            }
            self.follow(index, &token);
            self.out.push(token);
            index += 1;
        }
    }

    /// Whether the last tokens pushed are a type's tokens in parentheses
    /// (`(a)`, `(A.B<C>[0])`, `(int?)`) where an operand starts: the
    /// grammar reads a cast there. Looks a bounded distance back.
    fn closes_parenthesised_type(&self) -> bool {
        const MAX_LEN: usize = 32;
        let word = |at: usize| &self.text[self.out[at].range.clone()];
        let Some(close) = self.out.len().checked_sub(1) else {
            return false;
        };
        if word(close) != ")" {
            return false;
        }
        // `>`s open when read backwards: a `,` is a type's only inside.
        let mut angles = 0usize;
        // `]`s open when read backwards: a number is a type's (an array
        // size, `(a[0])`) only inside.
        let mut squares = 0usize;
        for at in (close.saturating_sub(MAX_LEN)..close).rev() {
            let token = &self.out[at];
            match word(at) {
                // An array rank holds any expression to the grammar
                // (`(a[a..^1])`).
                w if squares > 0 && !matches!(w, "[" | "]" | "(" | ")") => {}
                closer @ (">" | ">>" | ">>>") => angles += closer.len(),
                "<" => angles = angles.saturating_sub(1),
                "," if angles == 0 => return false,
                "(" if at + 1 == close => return false,
                "(" => return self.may_open_cast(at),
                "?" if at + 1 < close && word(at + 1) == "." => return false,
                "]" => squares += 1,
                "[" => squares = squares.saturating_sub(1),
                _ if token.kind == TokenKind::Number && squares == 0 => return false,
                "." | "::" | "," | "?" | "*" => {}
                w if PREDEFINED_TYPES.contains(&w) || w == "var" => {}
                _ if matches!(token.kind, TokenKind::Identifier | TokenKind::Number) => {}
                _ => return false,
            }
        }
        false
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
                while self.queries.last().is_some_and(|q| q.depth > self.depth) {
                    self.queries.pop();
                }
            }
            "," => {
                let query = self.queries.last().filter(|q| q.depth == self.depth);
                if query.is_some_and(|q| q.ordering) {
                    // Between two orderings of a query.
                    if at_pattern {
                        self.pattern = None;
                    }
                } else if self.switch_arms.last() == Some(&self.depth) {
                    self.pattern = Some(self.depth);
                } else if at_pattern {
                    self.pattern = None;
                }
                if query.is_some_and(|q| !q.ordering) {
                    self.queries.pop();
                }
            }
            ";" => {
                self.pattern = None;
                while self.queries.last().is_some_and(|q| q.depth >= self.depth) {
                    self.queries.pop();
                }
            }
            "=>" | "&&" | "||" | "?" | "=" | "==" | "!=" | "??" if at_pattern => {
                if word == "?" {
                    self.conditional_after_pattern = Some(self.out.len());
                }
                self.pattern = None;
            }
            ":" if at_pattern => self.pattern = None,
            "is" | "case" if token.kind == TokenKind::Keyword => self.pattern = Some(self.depth),
            "when" if token.kind == TokenKind::Keyword => self.pattern = None,
            "from" if token.kind == TokenKind::Keyword => {
                self.queries.push(Query {
                    depth: self.depth,
                    ordering: false,
                });
                if at_pattern {
                    self.pattern = None;
                }
            }
            // Not a lambda's parameter (`select => 0`).
            "orderby" | "where" | "select" | "group" | "join" | "let" | "into"
                if token.kind == TokenKind::Keyword && self.word(index + 1) != "=>" =>
            {
                let ordering = word == "orderby";
                if let Some(query) = self.queries.last_mut()
                    && query.depth == self.depth
                {
                    query.ordering = ordering;
                    if at_pattern {
                        self.pattern = None;
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether the word at `index` is a keyword to the grammar.
    fn is_keyword(&self, index: usize) -> bool {
        let word = self.word(index);
        let (last, next, after_next) =
            (self.last_word(), self.word(index + 1), self.word(index + 2));
        let next_is_word = is_word(self.tokens.get(index + 1));
        let next_is_name = self
            .tokens
            .get(index + 1)
            .is_some_and(|t| t.kind == TokenKind::Identifier);
        if matches!(last, "." | "->" | "::") {
            return keywords().contains(word);
        }
        if keywords().contains(word) {
            // The grammar reads a keyword that cannot be a type as a name
            // where it is the one type argument (`a<null>(b)`, `a<this.b>(c)`).
            let type_word = PREDEFINED_TYPES.contains(&word) || matches!(word, "ref" | "delegate");
            return type_word || !self.is_one_type_argument(index);
        }
        let in_query = self.queries.last().is_some_and(|q| q.depth == self.depth);
        let contextual = match word {
            // Before `in` a query word is a range variable, whatever comes
            // before it (`from int select in xs`: a type that could end a
            // pattern).
            _ if in_query && next == "in" && QUERY_WORDS.contains(&word) => false,
            "_" => self.pattern.is_some() || self.designation.is_some(),
            "and" | "or" | "not" => self.pattern.is_some(),
            "managed" | "unmanaged" if last == "*" => {
                self.out.len() >= 2
                    && &self.text[self.out[self.out.len() - 2].range.clone()] == "delegate"
            }
            "Cdecl" | "Stdcall" | "Thiscall" | "Fastcall" => self.conventions == Some(self.depth),
            // A query word after them in a query starts the next clause.
            "var" | "async" | "record" | "partial" | "required" | "file" | "scoped"
                if in_query && QUERY_WORDS.contains(&next) =>
            {
                false
            }
            // `x is var` is a type pattern to the grammar.
            "var" => {
                next_is_name
                    || last == "is"
                    || (last == "("
                        && next == ")"
                        && self.may_open_cast(self.out.len() - 1)
                        && self.starts_cast_operand(index + 2))
                    || (next == "(" && self.designation_follows(index + 1))
                    // The type argument of a generic call (`this.a<var>(a)`),
                    // not qualified (`a<var.b>(c)` names a type `var`).
                    || (next != "." && self.is_one_type_argument(index))
            }
            "async" => {
                (next_is_word
                    && !matches!(
                        next,
                        "in" | "is" | "as" | "switch" | "with" | "when" | "and" | "or"
                    ))
                    || next == "("
            }
            "await" => self.starts_operand(index + 1),
            "yield" => matches!(next, "return" | "break"),
            "get" | "set" | "init" | "add" | "remove" => {
                matches!(next, ";" | "{" | "=>")
                    && (matches!(last, "{" | "}" | ";" | "]") || ACCESSOR_MODIFIERS.contains(&last))
            }
            "record" => {
                matches!(next, "struct" | "class")
                    || (next_is_name && matches!(after_next, "(" | "{" | "<" | ":" | ";"))
            }
            "partial" | "required" | "file" | "scoped" => {
                next_is_word
                    && (is_word(self.tokens.get(index + 2))
                        || matches!(after_next, "<" | "?" | "[" | "."))
            }
            "global" => next == "using",
            "alias" => last == "extern",
            "where" => {
                (in_query && self.ends_query_operand(word)) || (next_is_word && after_next == ":")
            }
            "unmanaged" | "notnull" => matches!(last, ":" | ","),
            "with" => next == "{",
            "when" => {
                // Not a name assigned to (`when >>= 1`) or read.
                self.ends_operand()
                    && !next.ends_with('=')
                    && !matches!(next, ";" | ")" | "," | "." | "]" | "}" | "=>" | "++" | "--")
            }
            "from" => {
                next_is_word
                    && (after_next == "in"
                        || (is_word(self.tokens.get(index + 2)) && self.word(index + 3) == "in"))
            }
            _ if in_query && QUERY_WORDS.contains(&word) => self.ends_query_operand(word),
            _ if ATTRIBUTE_TARGETS.contains(&word) => last == "[" && next == ":",
            _ => false,
        };
        contextual || self.is_implicit_parameter(index)
    }

    /// Whether the word at `index`, with the names qualified from it, is
    /// the one type argument of a generic call (`a<var>(b)`,
    /// `a<this.b>(c)`) or of a list a `>>` closes with a `>` to spare
    /// (`a < this.b >> c`, which the grammar reads as `a<this.b> > c`):
    /// the grammar reads `var` there as a keyword, and the keywords no
    /// type is (`this`, `null`, `class`) as names.
    fn is_one_type_argument(&self, index: usize) -> bool {
        let after_name =
            self.out.len() >= 2 && self.out[self.out.len() - 2].kind == TokenKind::Identifier;
        if self.last_word() != "<" || !after_name {
            return false;
        }
        let mut at = index + 1;
        while self.word(at) == "." && is_word(self.tokens.get(at + 1)) {
            at += 2;
        }
        match self.word(at) {
            ">" => self.word(at + 1) == "(",
            ">>" | ">>>" | ">>=" | ">>>=" => true,
            _ => false,
        }
    }

    /// Whether the name at `index` is a lambda's one parameter written
    /// without parentheses (`x => x + 1`), where an operand may start.
    fn is_implicit_parameter(&self, index: usize) -> bool {
        // Not a switch arm's pattern (`{ a => 1 }`).
        self.word(index + 1) == "=>"
            && !(self.pattern.is_some() && self.pattern == self.switch_arms.last().copied())
            && match self.last_word() {
                "?" => !self.ends_nullable_type(),
                last => {
                    matches!(
                        last,
                        "=" | "("
                            | "["
                            | "in"
                            | ","
                            | "return"
                            | "=>"
                            | "async"
                            | "await"
                            | "static"
                            | ":"
                            | "??"
                            | "&&"
                            | "||"
                    ) || self.after_binary_operator()
                        || self.after_query_clause_word()
                }
            }
    }

    /// Whether the last token pushed is an operator that an operand
    /// follows: the grammar reads a lambda there (`a + x => x`), where C#
    /// has none. Not a `>` or `>>`, which may close a member's type
    /// (`List<List<int>> P => …`, closers not yet split), nor a `*`, `?`
    /// or `!` that may end one, nor `++` or `--`.
    fn after_binary_operator(&self) -> bool {
        self.out
            .last()
            .is_some_and(|t| t.kind == TokenKind::Operator)
            && !matches!(
                self.last_word(),
                ">" | ">>" | ">>>" | "*" | "?" | "!" | "++" | "--"
            )
    }

    /// Whether the last token pushed is a query word that an expression
    /// follows (`select x => …`, `by k => …`).
    fn after_query_clause_word(&self) -> bool {
        self.out
            .last()
            .is_some_and(|t| t.kind == TokenKind::Keyword)
            && matches!(
                self.last_word(),
                "where" | "select" | "orderby" | "group" | "by" | "on" | "equals" | "let"
            )
    }

    /// Whether the `?` last pushed marks a nullable type of a member
    /// (`string? Name => …`) rather than a conditional (`c ? x => …`):
    /// it follows a type that starts the member.
    fn ends_nullable_type(&self) -> bool {
        let Some(before) = self.out.len().checked_sub(2) else {
            return false;
        };
        if self.conditional_after_pattern == Some(before + 1) {
            return false;
        }
        let word = |at: usize| &self.text[self.out[at].range.clone()];
        match word(before) {
            ">" => true,
            // A type's brackets hold only commas (`int[,]?`), an index more.
            "]" => before > 0 && matches!(word(before - 1), "[" | ","),
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

    /// Whether the `(` at `open` starts the designation of a `var`
    /// deconstruction (`var (a, (b, _)) = …`, `foreach (var (k, v) in …)`):
    /// names, commas and parentheses, then `=` or `in`. A call `var(…)`
    /// has other tokens; looks a bounded distance ahead.
    fn designation_follows(&self, open: usize) -> bool {
        const MAX_LEN: usize = 64;
        let mut depth = 0usize;
        for index in open..self.tokens.len().min(open + MAX_LEN) {
            match self.word(index) {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        return index > open + 1 && matches!(self.word(index + 1), "=" | "in");
                    }
                }
                "," => {}
                _ if self.tokens[index].kind == TokenKind::Identifier => {}
                _ => return false,
            }
        }
        false
    }

    /// Whether the last token pushed ends an operand of a query: a query
    /// word after it starts a clause, and anywhere else (after `from`,
    /// `in`, an operator) it is a name.
    fn ends_query_operand(&self, word: &str) -> bool {
        (self.ends_operand()
            && !(matches!(word, "ascending" | "descending") && self.ends_cast_type()))
            || matches!(self.last_word(), "this" | "base")
            // A type that ends a pattern (`x is int select …`).
            || (self.pattern.is_some()
                && (PREDEFINED_TYPES.contains(&self.last_word()) || self.last_word() == ">"))
            || (matches!(self.last_word(), "ascending" | "descending")
                && self
                    .out
                    .last()
                    .is_some_and(|t| t.kind == TokenKind::Keyword))
    }

    /// Whether the last tokens pushed are a name in parentheses where an
    /// operand starts (`orderby (a)`): the grammar reads a cast, and the
    /// `ascending` or `descending` after it as its operand (a query word
    /// that starts a clause, such as `select`, it reads as a keyword).
    fn ends_cast_type(&self) -> bool {
        let [.., before, open, name, close] = self.out.as_slice() else {
            return false;
        };
        let word = |token: &Token| &self.text[token.range.clone()];
        word(close) == ")"
            && name.kind == TokenKind::Identifier
            && word(open) == "("
            && !(is_word(Some(before)) && before.kind == TokenKind::Identifier)
            && !matches!(word(before), ">" | ")" | "]")
    }

    /// Whether the `(` pushed at `open` may open a cast: it follows no
    /// name, closer or keyword whose own syntax it is (`f(`, `typeof(`).
    fn may_open_cast(&self, open: usize) -> bool {
        open.checked_sub(1).is_none_or(|at| {
            let before = &self.out[at];
            match &self.text[before.range.clone()] {
                ")" | "]" => false,
                // A comparison's `>` (`a > (var)..^1`) may; one closing type
                // arguments (`F<int>(x)`) is a call's.
                ">" => !self.closes_type_arguments(at),
                w if before.kind == TokenKind::Keyword => !SYNTAX_BEFORE_PARENTHESES.contains(&w),
                _ => matches!(before.kind, TokenKind::Operator | TokenKind::Punctuation),
            }
        })
    }

    /// Whether the `>` pushed at `close` closes type arguments: before it,
    /// over tokens a type can hold, a `<` after a name (or `var`).
    fn closes_type_arguments(&self, close: usize) -> bool {
        let word = |at: usize| &self.text[self.out[at].range.clone()];
        let mut depth = 0usize;
        for at in (0..close).rev() {
            match word(at) {
                ">" => depth += 1,
                "<" if depth > 0 => depth -= 1,
                "<" => {
                    return at > 0
                        && (self.out[at - 1].kind == TokenKind::Identifier
                            || word(at - 1) == "var");
                }
                "," | "." | "::" | "?" | "[" | "]" | "*" => {}
                w if self.out[at].kind == TokenKind::Identifier
                    || PREDEFINED_TYPES.contains(&w)
                    || w == "var" => {}
                _ => return false,
            }
        }
        false
    }

    /// Whether the token at `index` can start the operand of a cast
    /// (`(var) -1`, `(var) x`): the grammar reads a type in the
    /// parentheses before it.
    fn starts_cast_operand(&self, index: usize) -> bool {
        self.tokens
            .get(index)
            .is_some_and(|token| match token.kind {
                // A query word after it starts a clause (`where (var) orderby`).
                TokenKind::Identifier => !QUERY_WORDS.contains(&self.word(index)),
                TokenKind::Number | TokenKind::String | TokenKind::Char => true,
                TokenKind::Keyword => matches!(
                    self.word(index),
                    "this" | "base" | "new" | "null" | "true" | "false" | "default" | "typeof"
                ),
                TokenKind::Operator | TokenKind::Punctuation => match self.word(index) {
                    "-" | "+" | ".." | "^" | "!" | "~" | "&" | "&&" | "(" => true,
                    "*" => self.dereferences_name(index),
                    _ => false,
                },
            })
    }

    /// Whether the `*` at `index` is followed, through more `*`s, by a
    /// name, `this` or `base`, or by parentheses around names, member
    /// accesses, indexes and type arguments that end in a name, `]` or
    /// `>`: the grammar reads `(var) * a` and `(var) * (o!.b[0])` as a
    /// cast of a dereference, and `(var) * 1`, `(var) * !a`, `(var) *
    /// (a())` or `(var) * (a + b)` as a product.
    fn dereferences_name(&self, index: usize) -> bool {
        let (mut at, mut parentheses) = (index + 1, 0);
        while matches!(self.word(at), "*" | "(") {
            parentheses += usize::from(self.word(at) == "(");
            at += 1;
        }
        let is_name = |at: usize| {
            self.tokens.get(at).is_some_and(|token| {
                token.kind == TokenKind::Identifier || matches!(self.word(at), "this" | "base")
            })
        };
        if parentheses == 0 {
            return is_name(at);
        }
        let mut brackets = 0usize;
        let start = at;
        loop {
            match self.word(at) {
                "[" => brackets += 1,
                "]" if brackets > 0 => brackets -= 1,
                ")" if brackets == 0 => break,
                "" => return false,
                _ if brackets > 0 || is_name(at) => {}
                "." | "!" | "->" | "," | "<" | ">" => {}
                _ => return false,
            }
            at += 1;
        }
        let ends = at > start && (is_name(at - 1) || matches!(self.word(at - 1), "]" | ">"));
        ends && (at..at + parentheses).all(|at| self.word(at) == ")")
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
    // The first `;` at or after where the last alias looked: aliases
    // without one would each look to the end.
    let mut semicolon = 0;
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
            semicolon = semicolon.max(end);
            while semicolon < tokens.len() && word(tokens, semicolon) != ";" {
                semicolon += 1;
            }
            end = semicolon;
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
/// closer can only be a type's tokens.
///
/// One pass: the `<` and `(` open since the last token no type has are a
/// stack, and a closer that closes a `<` after a name keeps the splits
/// made since it. A `[`…`]` holds an expression, whatever its tokens. A
/// `)`, `]` or closer that crosses another bracket, a parenthesised group
/// that is no tuple (`(c)`: one element), a `?.`, or any token no type
/// has, ends every candidate open.
///
/// A `>>`, `>>>`, `>>=` or `>>>=` with more `>`s than lists open closes
/// those it can, and its rest is one operator (`a < b >> c` is `a<b> > c`
/// to the grammar, `a < b >>= c` is `a<b> >= c`); a `>` followed by `=`
/// is not split (the grammar reads `a < b >= c` either way, by what
/// follows).
fn split_type_argument_closers(text: &str, tokens: &mut Vec<Token>) {
    let mut open: Vec<Open> = Vec::new();
    // Closers inside candidates still open, and those kept with how many
    // single `>`s each gives.
    let (mut pending, mut split): (Vec<usize>, Vec<(usize, usize)>) = (Vec::new(), Vec::new());
    for (at, token) in tokens.iter().enumerate() {
        let word = &text[token.range.clone()];
        // A bracket in a type holds an expression (`a[0]`, `a[b > c]`):
        // only its own nesting counts.
        if open.last() == Some(&Open::Bracket) && word != "[" && word != "]" {
            continue;
        }
        let previous = at
            .checked_sub(1)
            .map_or("", |p| &text[tokens[p].range.clone()]);
        if word == "<" {
            // `var` too: a method of that name in a pattern (`is
            // var<T>(…)`), whose `var` the grammar reads as a keyword.
            let after_name =
                at > 0 && (tokens[at - 1].kind == TokenKind::Identifier || previous == "var");
            if after_name || !open.is_empty() {
                open.push(Open::Angle {
                    after_name,
                    pending: pending.len(),
                });
            }
            continue;
        }
        let Some(closes) = candidate_step(&mut open, word, token.kind, previous) else {
            if open.is_empty() {
                pending.clear();
            }
            continue;
        };
        let angles = open
            .iter()
            .rev()
            .take_while(|o| matches!(o, Open::Angle { .. }))
            .count();
        let closed = closes.min(angles);
        if closed == 0 {
            open.clear();
            pending.clear();
            continue;
        }
        let Open::Angle {
            after_name,
            pending: since,
        } = open[open.len() - closed]
        else {
            unreachable!("the lists closed are angles");
        };
        if closed < word.len() {
            // The closer ends every list it can and is an operator after
            // them: what it closes is settled now.
            if after_name {
                split.extend(pending.drain(since..).map(|p| (p, tokens[p].range.len())));
                split.push((at, closed));
            }
            open.clear();
            pending.clear();
            continue;
        }
        if closes > 1 {
            pending.push(at);
        }
        if after_name {
            split.extend(pending.drain(since..).map(|p| (p, tokens[p].range.len())));
        }
        open.truncate(open.len() - closes);
        if open.is_empty() {
            pending.clear();
        }
    }
    if !split.is_empty() {
        split.sort_unstable();
        split_closers(tokens, &split);
    }
}

/// What a token other than `<`, in or out of candidates `open`, does to
/// them: the `>`s of a closer (`>`, `>>`, `>>>`, `>>=`, `>>>=`), else
/// `None`, a bracket or a comma counted, and every candidate ended by a
/// token no type has; `previous` is the token before.
fn candidate_step(
    open: &mut Vec<Open>,
    word: &str,
    kind: TokenKind,
    previous: &str,
) -> Option<usize> {
    match word {
        ">" | ">>" | ">>>" | ">>=" | ">>>=" => return Some(word.trim_end_matches('=').len()),
        _ if open.is_empty() => {}
        "(" => open.push(Open::Paren { tuple: false }),
        ")" => match open.iter().rposition(|o| matches!(o, Open::Paren { .. })) {
            Some(paren) if open[paren] == (Open::Paren { tuple: true }) => open.truncate(paren),
            _ => open.clear(),
        },
        "," => {
            if let Some(Open::Paren { tuple }) = open.last_mut() {
                *tuple = true;
            }
        }
        "[" => open.push(Open::Bracket),
        "]" => match open.iter().rposition(|o| *o == Open::Bracket) {
            Some(bracket) => open.truncate(bracket),
            None => open.clear(),
        },
        "." if previous == "?" => open.clear(),
        "." | "::" | "?" | "*" | "in" | "out" => {}
        _ if kind == TokenKind::Identifier => {}
        w if PREDEFINED_TYPES.contains(&w) || w == "var" => {}
        _ => open.clear(),
    }
    None
}

/// `tokens` with each token at a place of `split` (ascending) cut into
/// as many single `>`s as it says, and its rest (`>`, `>=`, …) as one
/// operator.
fn split_closers(tokens: &mut Vec<Token>, split: &[(usize, usize)]) {
    let mut out = Vec::with_capacity(tokens.len() + split.len() * 2);
    let mut next = 0;
    for (index, token) in tokens.drain(..).enumerate() {
        match split.get(next) {
            Some(&(at, singles)) if at == index => {
                next += 1;
                let rest = token.range.start + singles;
                for at in token.range.start..rest {
                    out.push(Token {
                        kind: TokenKind::Operator,
                        range: at..at + 1,
                    });
                }
                if rest < token.range.end {
                    out.push(Token {
                        kind: TokenKind::Operator,
                        range: rest..token.range.end,
                    });
                }
            }
            _ => out.push(token),
        }
    }
    *tokens = out;
}

/// A bracket open in a run of tokens that may be type arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// A `<`: after a name it starts a candidate, whose splits are
    /// those pending from `pending` on.
    Angle { after_name: bool, pending: usize },
    /// A `(`: a tuple type once a `,` at its level was met.
    Paren { tuple: bool },
    /// A `[`: an array type's rank, or an index.
    Bracket,
}
