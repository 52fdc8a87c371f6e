//! Statements of the languages of braces and semicolons (Java, C, C++,
//! C#): where the function bodies are, and the statement tree of each.
//!
//! No grammar: brackets are matched once ([`Source`]), and a statement is
//! recognised by its first token — a block, a keyword that takes a
//! parenthesised header and a body (`if`, `for`, `while`, `switch`, …),
//! `do`, `try`, a `case` label, a jump, or else a simple statement running
//! to its `;` (brackets skipped whole, so a lambda's or an anonymous
//! class's braces stay inside it). Function bodies are braces at the level
//! of declarations that follow a parameter list: `) {`, `) throws E {`,
//! `) const {`.

use super::super::token::TokenKind;
use super::syntax::{
    Body, Form, Function, Ids, MAX_DEPTH, Part, Parts, Source, Statement, starting_with,
};

/// The function bodies of a file, each parsed into statements, in order.
pub(super) fn function_bodies(source: &Source<'_>, ids: &mut Ids, c_like: bool) -> Vec<Body> {
    let mut parser = Parser {
        source,
        ids,
        c_like,
    };
    let mut bodies = Vec::new();
    let mut member_start = 0;
    let mut index = 0;
    let count = source.tokens.len();
    while index < count {
        if is_directive(source, index) {
            index = directive_end(source, index);
            member_start = index;
            continue;
        }
        match source.word(index) {
            ";" | "}" => {
                index += 1;
                member_start = index;
            }
            "(" | "[" => index = source.partner(index).map_or(index + 1, |close| close + 1),
            "{" => {
                let Some(close) = source.partner(index) else {
                    index += 1;
                    continue;
                };
                match classify_brace(source, member_start, index) {
                    Brace::Function(parameters) => {
                        let mut body = parser.braced(index, close, 1);
                        body.function = Some(Function {
                            parameters,
                            module: false,
                        });
                        bodies.push(body);
                        index = close + 1;
                        member_start = index;
                    }
                    Brace::Expression => index = close + 1,
                    Brace::Declarations => {
                        index += 1;
                        member_start = index;
                    }
                }
            }
            _ => index += 1,
        }
    }
    bodies
}

/// What a `{` at the level of declarations opens.
enum Brace {
    /// A function body (or an initialiser block), with the tokens that name
    /// its parameters.
    Function(Vec<usize>),
    /// An initialiser (`= {1, 2}`, `= new T() { … }`): part of its member.
    Expression,
    /// A class, struct, namespace or enum body: more declarations.
    Declarations,
}

/// Words that declare a type or namespace whose body holds declarations.
const TYPE_DECLARATIONS: &[&str] = &[
    "class",
    "interface",
    "enum",
    "record",
    "struct",
    "union",
    "namespace",
    "@interface",
];

/// Words allowed between a parameter list and its body.
const AFTER_PARAMETERS: &[&str] = &[
    "throws", "const", "noexcept", "override", "final", "volatile", "mutable", "where", ".", ",",
    "::", "<", ">", "&", "&&", "*", "->",
];

fn classify_brace(source: &Source<'_>, member_start: usize, open: usize) -> Brace {
    let member: Vec<usize> = top_level(source, member_start, open).collect();
    if member.is_empty() || (member.len() == 1 && source.word(member[0]) == "static") {
        return Brace::Function(Vec::new());
    }
    if member.iter().any(|&i| source.word(i) == "=") {
        return Brace::Expression;
    }
    if member.iter().any(|&i| {
        source.kind(i) == Some(TokenKind::Keyword) && TYPE_DECLARATIONS.contains(&source.word(i))
    }) {
        return Brace::Declarations;
    }
    let mut at = open;
    while at > member_start {
        at -= 1;
        let word = source.word(at);
        if word == ")" {
            return match source.partner(at) {
                Some(start) if start >= member_start => {
                    Brace::Function(parameter_names(source, start, at))
                }
                _ => Brace::Declarations,
            };
        }
        let skippable = source.is_identifier(at) || AFTER_PARAMETERS.contains(&word);
        if !skippable {
            break;
        }
    }
    Brace::Declarations
}

/// The indices of `start..end` outside any bracket group.
fn top_level<'s>(
    source: &'s Source<'_>,
    start: usize,
    end: usize,
) -> impl Iterator<Item = usize> + 's {
    let mut at = start;
    std::iter::from_fn(move || {
        if at >= end {
            return None;
        }
        let here = at;
        at = match source.partner(here) {
            Some(close) if close > here && close < end => close + 1,
            _ => here + 1,
        };
        Some(here)
    })
}

/// The tokens naming the parameters of the list `open..=close`: the last
/// name of each comma-separated parameter (`int a`, `final List<T> xs`,
/// `char *s`, `int v[]`, `String... args`); commas inside type arguments
/// do not separate.
fn parameter_names(source: &Source<'_>, open: usize, close: usize) -> Vec<usize> {
    let mut names = Vec::new();
    let mut last_name = None;
    let mut angle = 0usize;
    let mut at = open + 1;
    while at < close {
        match source.word(at) {
            "<" => angle += 1,
            ">" => angle = angle.saturating_sub(1),
            "," if angle == 0 => names.extend(last_name.take()),
            "=" => {
                // A default value: the name is already seen.
                names.extend(last_name.take());
                while at + 1 < close && source.word(at + 1) != "," {
                    at = source
                        .partner(at + 1)
                        .filter(|&p| p < close)
                        .unwrap_or(at + 1);
                }
            }
            _ if source.is_identifier(at) && angle == 0 => last_name = Some(at),
            _ => {}
        }
        if source.opens_group(at) && source.word(at) != "(" {
            at = source.partner(at).unwrap_or(at);
        }
        at += 1;
    }
    names.extend(last_name);
    names
}

/// Whether token `index` starts a preprocessor directive (`#include`,
/// `#define`, …: the C lexer makes `#` and the word one keyword).
pub(super) fn is_directive(source: &Source<'_>, index: usize) -> bool {
    source.word(index).starts_with('#')
}

/// One past the last token of the directive starting at `index`: the rest
/// of its line, continued lines included.
fn directive_end(source: &Source<'_>, index: usize) -> usize {
    let mut at = index + 1;
    while at < source.tokens.len() {
        let gap = &source.text[source.tokens[at - 1].range.end..source.tokens[at].range.start];
        let continued = gap
            .split('\n')
            .next()
            .is_some_and(|line| line.trim_end().ends_with('\\'));
        if gap.contains('\n') && !continued {
            break;
        }
        at += 1;
    }
    at
}

struct Parser<'s, 'a> {
    source: &'s Source<'a>,
    ids: &'s mut Ids,
    /// C and C++: a `struct`, `union` or `enum` declaration runs on to its
    /// `;` (`struct P { … } origin;`).
    c_like: bool,
}

impl Parser<'_, '_> {
    /// The body `{` at `open` … `}` at `close`.
    fn braced(&mut self, open: usize, close: usize, depth: usize) -> Body {
        Body {
            open: Some(open),
            statements: self.statements(open + 1, close, depth),
            close: Some(close),
            function: None,
        }
    }

    fn statements(&mut self, mut at: usize, end: usize, depth: usize) -> Vec<Statement> {
        let mut statements = Vec::new();
        while at < end {
            let (statement, next) = self.statement(at, end, depth);
            debug_assert!(next > at, "a statement takes at least one token");
            statements.push(statement);
            at = next.max(at + 1);
        }
        statements
    }

    fn make(&mut self, form: Form, parts: Parts) -> Statement {
        Statement {
            id: self.ids.next(),
            form,
            parts,
        }
    }

    /// The statement starting at `at` (before `end`) and the index after it.
    fn statement(&mut self, at: usize, end: usize, depth: usize) -> (Statement, usize) {
        let source = self.source;
        if depth >= MAX_DEPTH {
            let next = self.simple_end(at, end);
            return (self.make(Form::Opaque, starting_with(at..next)), next);
        }
        if is_directive(source, at) {
            let next = directive_end(source, at).min(end);
            return (self.make(Form::Label, starting_with(at..next)), next);
        }
        let word = source.word(at);
        if word == "{"
            && let Some(close) = source.partner(at).filter(|&close| close < end)
        {
            let body = self.braced(at, close, depth + 1);
            return (
                self.make(Form::Branch, smallvec::smallvec![Part::body(body)]),
                close + 1,
            );
        }
        if word == ";" {
            return (self.make(Form::Empty, starting_with(at..at + 1)), at + 1);
        }
        if source.kind(at) == Some(TokenKind::Keyword) {
            if let Some(parsed) = self.keyword_statement(at, end, depth) {
                return parsed;
            }
        } else if source.is_identifier(at) && source.word(at + 1) == ":" && at + 1 < end {
            return (self.make(Form::Label, starting_with(at..at + 2)), at + 2);
        }
        let next = self.simple_end(at, end);
        (self.make(Form::Simple, starting_with(at..next)), next)
    }

    /// A statement that starts with a keyword, if its shape is the one the
    /// keyword promises.
    fn keyword_statement(
        &mut self,
        at: usize,
        end: usize,
        depth: usize,
    ) -> Option<(Statement, usize)> {
        let source = self.source;
        let word = source.word(at);
        match word {
            "if" => self.headed(at, end, depth, Form::Branch, true),
            "for" | "while" | "switch" | "foreach" => {
                self.headed(at, end, depth, Form::Loop, false)
            }
            "synchronized" | "lock" | "fixed" | "using" => {
                self.headed(at, end, depth, Form::Branch, false)
            }
            "do" => Some(self.do_statement(at, end, depth)),
            "try" => self.try_statement(at, end, depth),
            "case" | "default" => self.label(at, end),
            "return" | "throw" | "goto" | "yield" | "break" | "continue" => {
                let next = self.simple_end(at, end);
                let unlabelled = matches!(word, "break" | "continue") && source.word(at + 1) == ";";
                let form = if unlabelled {
                    Form::LoopExit
                } else {
                    Form::Exit
                };
                Some((self.make(form, starting_with(at..next)), next))
            }
            _ if TYPE_DECLARATIONS.contains(&word) => self.type_declaration(at, end),
            _ => None,
        }
    }

    /// `keyword ( … ) body`, and for `if` an `else body`; `if constexpr`
    /// too.
    fn headed(
        &mut self,
        at: usize,
        end: usize,
        depth: usize,
        form: Form,
        with_else: bool,
    ) -> Option<(Statement, usize)> {
        let source = self.source;
        let mut open = at + 1;
        if source.word(open) == "constexpr" {
            open += 1;
        }
        if source.word(open) != "(" {
            return None;
        }
        let close = source.partner(open).filter(|&close| close < end)?;
        let mut parts = starting_with(at..close + 1);
        let (body, mut next) = self.sub_statement(close + 1, end, depth);
        parts.push(Part::body(body));
        if with_else && next < end && source.is_keyword(next, "else") {
            parts.push(Part::Tokens(next..next + 1));
            let (body, after) = self.sub_statement(next + 1, end, depth);
            parts.push(Part::body(body));
            next = after;
        }
        Some((self.make(form, parts), next))
    }

    /// The body of a control statement: a block, or one statement.
    fn sub_statement(&mut self, at: usize, end: usize, depth: usize) -> (Body, usize) {
        if at >= end {
            return (Body::default(), at);
        }
        if self.source.word(at) == "{"
            && let Some(close) = self.source.partner(at).filter(|&close| close < end)
        {
            return (self.braced(at, close, depth + 1), close + 1);
        }
        let (statement, next) = self.statement(at, end, depth + 1);
        let body = Body {
            statements: vec![statement],
            ..Body::default()
        };
        (body, next)
    }

    /// `do body while ( … ) ;`
    fn do_statement(&mut self, at: usize, end: usize, depth: usize) -> (Statement, usize) {
        let source = self.source;
        let mut parts = starting_with(at..at + 1);
        let (body, mut next) = self.sub_statement(at + 1, end, depth);
        parts.push(Part::body(body));
        if next < end && source.is_keyword(next, "while") && source.word(next + 1) == "(" {
            let tail = self.simple_end(next, end);
            parts.push(Part::Tokens(next..tail));
            next = tail;
        }
        (self.make(Form::Loop, parts), next)
    }

    /// `try [( … )] { … } catch [( … )] { … } … [finally { … }]`.
    fn try_statement(&mut self, at: usize, end: usize, depth: usize) -> Option<(Statement, usize)> {
        let source = self.source;
        let mut parts = Parts::new();
        let mut head = at;
        loop {
            let mut open = head + 1;
            if source.word(open) == "(" {
                open = source.partner(open).filter(|&close| close < end)? + 1;
            }
            if source.word(open) != "{" {
                // A clause without its block: what came before, and the
                // rest up to its `;`, kept as one statement.
                if head == at {
                    return None;
                }
                let next = self.simple_end(head, end);
                parts.push(Part::Tokens(head..next));
                return Some((self.make(Form::Opaque, parts), next));
            }
            let close = source.partner(open).filter(|&close| close < end)?;
            parts.push(Part::Tokens(head..open));
            parts.push(Part::body(self.braced(open, close, depth + 1)));
            head = close + 1;
            let continues = head < end
                && (source.is_keyword(head, "catch") || source.is_keyword(head, "finally"));
            if !continues {
                return Some((self.make(Form::Branch, parts), head));
            }
        }
    }

    /// `case …:`, `default:` and Java's `case … ->`.
    fn label(&mut self, at: usize, end: usize) -> Option<(Statement, usize)> {
        let source = self.source;
        let mut index = at + 1;
        while index < end {
            match source.word(index) {
                ":" | "->" => {
                    let statement = self.make(Form::Label, starting_with(at..index + 1));
                    return Some((statement, index + 1));
                }
                ";" | "{" | "}" => return None,
                _ => {}
            }
            index = source
                .partner(index)
                .filter(|&close| close > index && close < end)
                .unwrap_or(index)
                + 1;
        }
        None
    }

    /// A local `class`, `struct`, `enum`…: kept whole as written. A C
    /// `struct` runs on to its `;`; a `struct T x;` is a simple
    /// declaration.
    fn type_declaration(&mut self, at: usize, end: usize) -> Option<(Statement, usize)> {
        let source = self.source;
        let open = top_level(source, at, end).find(|&i| matches!(source.word(i), "{" | ";"))?;
        if source.word(open) == ";" {
            return None;
        }
        let close = source.partner(open)?;
        let next = if self.c_like {
            self.simple_end(close + 1, end)
        } else {
            close + 1
        };
        Some((self.make(Form::Declaration, starting_with(at..next)), next))
    }

    /// One past the end of the simple statement at `at`: its `;`, brackets
    /// skipped whole. A braced group after `)` that nothing continues
    /// (`FOR(i, n) { … }`, a macro loop) ends it too; a stray `}` ends it
    /// before.
    fn simple_end(&self, at: usize, end: usize) -> usize {
        let source = self.source;
        let mut index = at;
        while index < end {
            match source.word(index) {
                ";" => return index + 1,
                "}" if source.partner(index).is_none_or(|open| open < at) => {
                    return index.max(at + 1);
                }
                "{" => {
                    let Some(close) = source.partner(index).filter(|&close| close < end) else {
                        index += 1;
                        continue;
                    };
                    let after_call = index > at && source.word(index - 1) == ")";
                    let continued = matches!(source.word(close + 1), ";" | ")" | "," | "." | "]");
                    index = close + 1;
                    if after_call && !continued {
                        return index;
                    }
                }
                "(" | "[" => {
                    index = source
                        .partner(index)
                        .filter(|&close| close < end)
                        .map_or(index + 1, |close| close + 1);
                }
                _ => index += 1,
            }
        }
        end
    }
}
