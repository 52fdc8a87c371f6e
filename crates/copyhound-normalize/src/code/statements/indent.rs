//! Statements of Python, recovered from the tokens' places in the text:
//! the tokenisers keep no line or indent tokens, but every token's span
//! says where its line starts and how far in it is.
//!
//! A logical line starts at a token that begins a physical line outside
//! brackets (unless the line before ends in `\`); its indent is that
//! token's column. A line whose first word is a compound keyword and that
//! holds the header's `:` opens a body: the lines indented further, or the
//! rest of the line after the `:`. `elif`, `else`, `except` and `finally`
//! at the same indent continue the statement; decorators join the
//! definition they decorate. Simple lines split at `;`.

use std::ops::Range;

use super::syntax::{
    Body, Form, Function, Ids, MAX_DEPTH, Part, Parts, Source, Statement, starting_with,
};

/// The module: every statement of the file.
pub(super) fn module(source: &Source<'_>, ids: &mut Ids) -> Body {
    let lines = logical_lines(source);
    let mut parser = Parser {
        source,
        ids,
        lines: &lines,
    };
    let mut at = 0;
    let statements = parser.suite(&mut at, None, 0);
    Body {
        statements,
        function: Some(Function {
            parameters: Vec::new(),
            module: true,
        }),
        ..Body::default()
    }
}

/// One logical line.
#[derive(Debug)]
struct Line {
    tokens: Range<usize>,
    indent: usize,
}

fn logical_lines(source: &Source<'_>) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut depth = 0usize;
    for index in 0..source.tokens.len() {
        let starts = index == 0
            || (depth == 0 && source.line_break_before(index) && !continued(source, index));
        if starts {
            lines.push(Line {
                tokens: index..index + 1,
                indent: column(source, index),
            });
        } else if let Some(line) = lines.last_mut() {
            line.tokens.end = index + 1;
        }
        match source.word(index) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    lines
}

/// Whether the line break before token `index` is escaped by a `\`.
fn continued(source: &Source<'_>, index: usize) -> bool {
    let gap = &source.text[source.tokens[index - 1].range.end..source.tokens[index].range.start];
    gap.split('\n')
        .next()
        .is_some_and(|line| line.trim_end().ends_with('\\'))
}

/// The column of token `index`, a tab advancing to the next multiple of 8.
fn column(source: &Source<'_>, index: usize) -> usize {
    let start = source.tokens[index].range.start;
    let line_start = source.text[..start].rfind('\n').map_or(0, |at| at + 1);
    source.text[line_start..start].chars().fold(0, |col, c| {
        if c == '\t' {
            (col / 8 + 1) * 8
        } else {
            col + 1
        }
    })
}

/// Keywords that open a compound statement.
const COMPOUND: &[&str] = &[
    "if", "for", "while", "try", "with", "def", "class", "async", "match", "case",
];

/// Clauses that continue the compound statement before them.
const CLAUSES: &[&str] = &["elif", "else", "except", "finally"];

struct Parser<'s, 'a> {
    source: &'s Source<'a>,
    ids: &'s mut Ids,
    lines: &'s [Line],
}

impl Parser<'_, '_> {
    fn make(&mut self, form: Form, parts: Parts) -> Statement {
        Statement {
            id: self.ids.next(),
            form,
            parts,
        }
    }

    /// The statements of the lines from `at` indented deeper than `parent`
    /// (all lines for the module).
    fn suite(&mut self, at: &mut usize, parent: Option<usize>, depth: usize) -> Vec<Statement> {
        let mut statements = Vec::new();
        while let Some(line) = self.lines.get(*at) {
            if parent.is_some_and(|indent| line.indent <= indent) {
                break;
            }
            self.line_statements(at, depth, &mut statements);
        }
        statements
    }

    /// The statements that start at line `at`, moving `at` past them.
    fn line_statements(&mut self, at: &mut usize, depth: usize, out: &mut Vec<Statement>) {
        let source = self.source;
        let line = &self.lines[*at];
        let first = line.tokens.start;
        let word = source.word(first);
        if depth < MAX_DEPTH
            && (word == "@" || self.compound_keyword(first))
            && let Some(statement) = self.compound(at, depth)
        {
            out.push(statement);
            return;
        }
        *at += 1;
        if depth >= MAX_DEPTH {
            let statement = self.make(Form::Opaque, starting_with(line.tokens.clone()));
            out.push(statement);
            return;
        }
        self.simple_statements(line.tokens.clone(), out);
    }

    fn compound_keyword(&self, index: usize) -> bool {
        let word = self.source.word(index);
        (COMPOUND.contains(&word) || CLAUSES.contains(&word))
            && self.source.kind(index) == Some(super::super::token::TokenKind::Keyword)
    }

    /// The simple statements of `tokens`, split at `;`.
    fn simple_statements(&mut self, tokens: Range<usize>, out: &mut Vec<Statement>) {
        let source = self.source;
        let mut start = tokens.start;
        let mut index = start;
        while index < tokens.end {
            if source.word(index) == ";" {
                out.push(self.simple(start..index + 1));
                start = index + 1;
            }
            index = match source.partner(index) {
                Some(close) if close > index && close < tokens.end => close + 1,
                _ => index + 1,
            };
        }
        if start < tokens.end {
            out.push(self.simple(start..tokens.end));
        }
    }

    fn simple(&mut self, tokens: Range<usize>) -> Statement {
        let source = self.source;
        let first = tokens.start;
        let form = match source.word(first) {
            "pass" | "..." if tokens.len() <= 2 => Form::Empty,
            "return" | "raise" | "yield" => Form::Exit,
            "break" | "continue" => Form::LoopExit,
            "global" | "nonlocal" => Form::Label,
            _ => Form::Simple,
        };
        self.make(form, starting_with(tokens))
    }

    /// The compound statement at line `at` (decorators first, if any), or
    /// `None` (and `at` unmoved) if its header has no `:`.
    fn compound(&mut self, at: &mut usize, depth: usize) -> Option<Statement> {
        let source = self.source;
        let start_line = *at;
        let mut header_line = start_line;
        while source.word(self.lines[header_line].tokens.start) == "@" {
            header_line += 1;
            if header_line >= self.lines.len() {
                return None;
            }
        }
        let header = &self.lines[header_line];
        let mut first = header.tokens.start;
        if source.word(first) == "async" {
            first += 1;
        }
        let keyword = source.word(first);
        if !(COMPOUND.contains(&keyword) || CLAUSES.contains(&keyword)) {
            return None;
        }
        let colon = self.header_colon(header.tokens.clone())?;
        let form = match keyword {
            "for" | "while" => Form::Loop,
            "def" | "class" => Form::Declaration,
            "case" => Form::Label,
            _ => Form::Branch,
        };
        let decorators = self.lines[start_line].tokens.start..header.tokens.start;
        let mut parts = Parts::new();
        let header_start = if decorators.is_empty() {
            header.tokens.start
        } else {
            decorators.start
        };
        parts.push(Part::Tokens(header_start..colon + 1));
        *at = header_line;
        let mut body = self.clause_body(at, colon, depth);
        body.function = (keyword == "def").then(|| Function {
            parameters: self.parameters(first, colon),
            module: false,
        });
        parts.push(Part::body(body));
        // Continuing clauses at the same indent.
        let indent = self.lines[header_line].indent;
        while let Some(line) = self.lines.get(*at) {
            let clause = line.tokens.start;
            if line.indent != indent || !CLAUSES.contains(&source.word(clause)) {
                break;
            }
            let Some(colon) = self.header_colon(line.tokens.clone()) else {
                break;
            };
            parts.push(Part::Tokens(clause..colon + 1));
            let body = self.clause_body(at, colon, depth);
            parts.push(Part::body(body));
        }
        Some(self.make(form, parts))
    }

    /// The body after the header `:` at `colon` on line `at`: the rest of
    /// the line, or the lines indented deeper; moves `at` past it.
    fn clause_body(&mut self, at: &mut usize, colon: usize, depth: usize) -> Body {
        let line = &self.lines[*at];
        let indent = line.indent;
        let rest = colon + 1..line.tokens.end;
        *at += 1;
        let mut statements = Vec::new();
        if rest.is_empty() {
            statements = self.suite(at, Some(indent), depth + 1);
        } else {
            self.simple_statements(rest, &mut statements);
        }
        Body {
            statements,
            ..Body::default()
        }
    }

    /// The `:` that ends the header in `tokens`: the first outside brackets
    /// that no `lambda` claims.
    fn header_colon(&self, tokens: Range<usize>) -> Option<usize> {
        let source = self.source;
        let mut lambdas = 0usize;
        let mut index = tokens.start;
        while index < tokens.end {
            match source.word(index) {
                "lambda" => lambdas += 1,
                ":" if lambdas > 0 => lambdas -= 1,
                ":" => return Some(index),
                _ => {}
            }
            index = match source.partner(index) {
                Some(close) if close > index && close < tokens.end => close + 1,
                _ => index + 1,
            };
        }
        None
    }

    /// The parameter names of the `def` header `def_at..colon`: names in
    /// its parentheses after `(`, `,`, `*` or `**`.
    fn parameters(&self, def_at: usize, colon: usize) -> Vec<usize> {
        let source = self.source;
        let Some(open) = (def_at..colon).find(|&i| source.word(i) == "(") else {
            return Vec::new();
        };
        let close = source.partner(open).unwrap_or(colon).min(colon);
        let mut names = Vec::new();
        let mut index = open + 1;
        while index < close {
            if source.is_identifier(index)
                && matches!(source.word(index - 1), "(" | "," | "*" | "**")
            {
                names.push(index);
            }
            index = match source.partner(index) {
                Some(end) if end > index && end < close => end + 1,
                _ => index + 1,
            };
        }
        names
    }
}
