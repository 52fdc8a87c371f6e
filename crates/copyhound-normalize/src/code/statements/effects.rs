//! What each statement of a function does, read off its own tokens by
//! identifier text before names become `V`: the function's locals it
//! mentions and writes, whether it does anything else (a call, a write
//! through a parameter or to a field, output, a jump), and whether it reads
//! state outside the locals.
//!
//! Locals are resolved by scope: in Java, C, C++ and C#, a declaration is
//! seen from where it stands to the end of its block (a `for` or `catch`
//! header's to the end of its statement); in Python, a name assigned
//! anywhere in a function is local to all of it (unless `global` or
//! `nonlocal`). A name that is not a local — a field, a global, a type, a
//! function — is state outside. The facts are deliberately simple: a call
//! counts as an effect unless its name is one of a few well-known pure
//! functions (`len`, `size`, `abs`, `max`, …), and an expression statement
//! that is neither a declaration nor an assignment counts as an effect
//! (`cout << x;`). A write to an element or field through a local the
//! function declared (`a[i] = 0`, `node.next = n`) writes that local; through
//! a parameter or a non-local it is an effect.
//!
//! The words these facts hang on are listed in `words`; the declarations
//! of the brace dialects are read in `declarations`, what Python
//! statements bind in `python`.

use foldhash::{HashMap, HashMapExt};
use std::ops::Range;

mod declarations;
mod python;
mod words;

use super::super::token::TokenKind;
use super::syntax::{Body, Form, Part, Source, Statement};
use declarations::{angle_end, declaration};
use python::{collect_python_targets, python_header_targets, python_targets};
use words::{ASSIGNMENTS, PURE_CALLS, PURE_CONSTRUCTORS, nested};

/// The language rules the analysis follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    Java,
    C,
    Cpp,
    CSharp,
    Python,
}

/// Local ids. Nearly every statement names a few: held in place, since
/// allocating them one statement at a time cost more than analysing them.
pub(super) type Locals = smallvec::SmallVec<[u32; 6]>;

/// What one statement's own tokens (not its bodies') do.
#[derive(Clone, Debug, Default)]
pub(super) struct Facts {
    /// Locals named.
    pub(super) mentions: Locals,
    /// Locals declared or assigned.
    pub(super) writes: Locals,
    /// Something besides setting locals: a call, a write through a
    /// parameter or to non-local state, output, a jump, a label.
    pub(super) effect: bool,
    /// Reads state that is not a local (a field, a global, a pure call).
    pub(super) reads_outside: bool,
}

/// Facts of every statement of the function body `unit` into `facts`
/// (indexed by statement id); the number of locals found.
pub(super) fn analyse(
    source: &Source<'_>,
    dialect: Dialect,
    unit: &Body,
    facts: &mut [Facts],
) -> usize {
    let mut walker = Walker {
        source,
        dialect,
        facts,
        scopes: Vec::new(),
        next: 0,
        python_locals: HashMap::new(),
    };
    walker.unit(unit);
    walker.next as usize
}

/// A local: its number and whether it is a parameter.
#[derive(Clone, Copy)]
struct Local {
    id: u32,
    parameter: bool,
}

struct Walker<'s, 'a> {
    source: &'s Source<'a>,
    dialect: Dialect,
    facts: &'s mut [Facts],
    /// Brace dialects: the names declared in each open scope.
    scopes: Vec<Vec<(&'a str, Local)>>,
    next: u32,
    /// Python: every local of the function, by name.
    python_locals: HashMap<&'a str, Local>,
}

impl<'a> Walker<'_, 'a> {
    fn unit(&mut self, unit: &Body) {
        let parameters = unit
            .function
            .as_ref()
            .map(|f| f.parameters.clone())
            .unwrap_or_default();
        if self.dialect == Dialect::Python {
            let mut globals = Vec::new();
            for &token in &parameters {
                self.python_local(self.source.word(token), true);
            }
            let mut targets = Vec::new();
            for statement in &unit.statements {
                collect_python_targets(self.source, statement, &mut targets, &mut globals);
            }
            for name in targets {
                if !globals.contains(&name) {
                    self.python_local(name, false);
                }
            }
            for statement in &unit.statements {
                self.statement(statement);
            }
            return;
        }
        self.scopes.push(Vec::new());
        for &token in &parameters {
            self.declare(token, true);
        }
        for statement in &unit.statements {
            self.statement(statement);
        }
        self.scopes.pop();
    }

    fn python_local(&mut self, name: &'a str, parameter: bool) {
        let next = &mut self.next;
        self.python_locals.entry(name).or_insert_with(|| {
            *next += 1;
            Local {
                id: *next - 1,
                parameter,
            }
        });
    }

    fn declare(&mut self, token: usize, parameter: bool) -> u32 {
        let id = self.next;
        self.next += 1;
        let name = self.source.word(token);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name, Local { id, parameter }));
        }
        id
    }

    fn resolve(&self, name: &str) -> Option<Local> {
        if self.dialect == Dialect::Python {
            return self.python_locals.get(name).copied();
        }
        self.scopes
            .iter()
            .rev()
            .flat_map(|scope| scope.iter().rev())
            .find(|(declared, _)| *declared == name)
            .map(|&(_, local)| local)
    }

    fn body(&mut self, body: &Body) {
        if body.function.is_some() {
            // A nested function is a unit of its own.
            return;
        }
        let scoped = self.dialect != Dialect::Python;
        if scoped {
            self.scopes.push(Vec::new());
        }
        for statement in &body.statements {
            self.statement(statement);
        }
        if scoped {
            self.scopes.pop();
        }
    }

    fn statement(&mut self, statement: &Statement) {
        let mut facts = Facts::default();
        match statement.form {
            Form::Simple => {
                let range = statement.own_tokens().next().unwrap_or(0..0);
                let mut skip = Vec::new();
                if self.dialect != Dialect::Python
                    && let Some(declaration) = declaration(self.source, self.dialect, range.clone())
                {
                    for name in declaration.names {
                        let id = self.declare(name, false);
                        facts.writes.push(id);
                        facts.mentions.push(id);
                    }
                    skip.push(declaration.type_tokens);
                }
                let pure = self.scan(range.clone(), &skip, &mut facts);
                facts.effect |= !pure;
            }
            Form::Loop | Form::Branch | Form::Label => {
                let scoped = self.dialect != Dialect::Python;
                if scoped {
                    self.scopes.push(Vec::new());
                }
                for part in &statement.parts {
                    match part {
                        Part::Tokens(range) => {
                            let skip = self.header_declarations(range.clone(), &mut facts);
                            self.scan(range.clone(), &skip, &mut facts);
                        }
                        Part::Body(body) => self.body(body),
                    }
                }
                if scoped {
                    self.scopes.pop();
                }
                facts.effect |= statement.form == Form::Label;
            }
            Form::Declaration => {
                // A nested definition: what it mentions of this function's
                // locals, anywhere inside, it reads; its name it writes.
                let mut ranges = Vec::new();
                all_tokens(statement, &mut ranges);
                for range in ranges {
                    self.scan(range, &[], &mut facts);
                }
                if let Some(name) = self.defined_name(statement)
                    && let Some(local) = self.resolve(self.source.word(name))
                {
                    facts.writes.push(local.id);
                }
                facts.effect = true;
            }
            Form::Exit | Form::LoopExit | Form::Opaque | Form::Empty => {
                for range in statement.own_tokens() {
                    self.scan(range, &[], &mut facts);
                }
                facts.effect = statement.form != Form::Empty;
            }
        }
        facts.mentions.sort_unstable();
        facts.mentions.dedup();
        facts.writes.sort_unstable();
        facts.writes.dedup();
        self.facts[statement.id] = facts;
    }

    /// The name a Python `def` or `class` defines.
    fn defined_name(&self, statement: &Statement) -> Option<usize> {
        let range = statement.own_tokens().next()?;
        (range.start..range.end)
            .find(|&i| matches!(self.source.word(i), "def" | "class"))
            .map(|i| i + 1)
            .filter(|&i| self.source.is_identifier(i))
    }

    /// Declares what the header `range` declares (`for (int i = 0; …)`,
    /// `catch (E e)`, `for (String s : xs)`, Python's `for x in`, `as x`)
    /// and returns the type tokens to skip.
    fn header_declarations(&mut self, range: Range<usize>, facts: &mut Facts) -> Vec<Range<usize>> {
        let source = self.source;
        let mut skip = Vec::new();
        if self.dialect == Dialect::Python {
            for target in python_header_targets(source, range) {
                self.lvalue_write(target, target, facts);
            }
            return skip;
        }
        let Some(open) = (range.start..range.end).find(|&i| source.word(i) == "(") else {
            return skip;
        };
        if !matches!(
            source.word(range.start),
            "for" | "catch" | "try" | "foreach" | "using" | "fixed"
        ) {
            return skip;
        }
        let close = source.partner(open).unwrap_or(range.end).min(range.end);
        let mut start = open + 1;
        let mut index = start;
        while index <= close {
            if index == close || source.word(index) == ";" {
                if let Some(declaration) = declaration(source, self.dialect, start..index) {
                    for name in declaration.names {
                        let id = self.declare(name, false);
                        facts.writes.push(id);
                        facts.mentions.push(id);
                    }
                    skip.push(declaration.type_tokens);
                }
                start = index + 1;
            }
            index = match source.partner(index) {
                Some(end) if end > index && end < close => end + 1,
                _ => index + 1,
            };
        }
        skip
    }

    /// Reads the tokens `range` into `facts`; true if they are of a pure
    /// form: a declaration, an assignment or an increment whose only
    /// effects are on locals.
    fn scan(&mut self, range: Range<usize>, skip: &[Range<usize>], facts: &mut Facts) -> bool {
        let source = self.source;
        let python = self.dialect == Dialect::Python;
        let mut assigns = !skip.is_empty();
        let mut depth = 0usize;
        let mut after_new = false;
        for index in range.clone() {
            let word = source.word(index);
            depth = nested(depth, word);
            if skip.iter().any(|r| r.contains(&index)) {
                continue;
            }
            let kind = source.kind(index);
            if kind == Some(TokenKind::Keyword) {
                match word {
                    "new" => after_new = true,
                    "this" | "super" | "self" if source.word(index + 1) == "(" => {
                        facts.effect = true;
                    }
                    "this" | "super" => facts.reads_outside = true,
                    "del" | "import" | "from" | "print" | "exec" | "assert" => facts.effect = true,
                    _ => {}
                }
                continue;
            }
            if ASSIGNMENTS.contains(&word) && (!python || depth == 0 || word == ":=") {
                if index > range.start {
                    self.assignment(range.clone(), index, facts);
                    assigns = true;
                }
                continue;
            }
            if matches!(word, "++" | "--") {
                self.increment(range.clone(), index, facts);
                assigns = true;
                continue;
            }
            if word == "(" && index > range.start && matches!(source.word(index - 1), ")" | "]") {
                facts.effect = true;
                continue;
            }
            if kind != Some(TokenKind::Identifier) {
                if !matches!(word, "." | "::" | "<" | ">" | ",") {
                    after_new = false;
                }
                continue;
            }
            let member = index > range.start && matches!(source.word(index - 1), "." | "->" | "::");
            let next = source.word(index + 1);
            if python && depth > 0 && next == "=" {
                // A keyword argument's name.
                continue;
            }
            if after_new {
                // The type of `new T(…)` or `new T[n]`: an allocation, but a
                // constructor may do anything.
                let constructed = next == "(" || (next == "<" && self.constructor_after(index));
                if constructed && !PURE_CONSTRUCTORS.contains(&word) {
                    facts.effect = true;
                }
                continue;
            }
            let local = if member { None } else { self.resolve(word) };
            if let Some(local) = local {
                facts.mentions.push(local.id);
            }
            if next == "(" {
                if PURE_CALLS.contains(&word) {
                    facts.reads_outside = true;
                } else {
                    facts.effect = true;
                }
            } else if local.is_none() && !member {
                facts.reads_outside = true;
            }
        }
        assigns
    }

    /// Whether the type arguments opening after the type name at `name`
    /// (`new T<…>(`) are followed by a constructor's `(`.
    fn constructor_after(&self, name: usize) -> bool {
        angle_end(self.source, name + 1, self.source.tokens.len())
            .is_some_and(|close| self.source.word(close + 1) == "(")
    }

    /// An assignment operator at `op` in `range`: the write of its target.
    fn assignment(&mut self, range: Range<usize>, op: usize, facts: &mut Facts) {
        if self.dialect == Dialect::Python && self.source.word(op) != ":=" {
            for target in python_targets(self.source, range.start..op) {
                self.lvalue_write(target.start, target.end - 1, facts);
            }
            return;
        }
        self.lvalue_write(range.start, op - 1, facts);
    }

    /// `++` or `--` at `op`: the write of its operand.
    fn increment(&mut self, range: Range<usize>, op: usize, facts: &mut Facts) {
        let source = self.source;
        let postfix = op > range.start
            && (source.is_identifier(op - 1) || matches!(source.word(op - 1), "]" | ")"));
        if postfix {
            self.lvalue_write(range.start, op - 1, facts);
        } else if op + 1 < range.end {
            // Prefix: the operand runs to the next operator or the end.
            let mut last = op + 1;
            while last + 1 < range.end {
                match source.word(last + 1) {
                    "." | "->" => last += 2,
                    "[" => last = source.partner(last + 1).unwrap_or(last + 1),
                    _ => break,
                }
            }
            self.lvalue_write(op + 1, last.min(range.end - 1), facts);
        } else {
            facts.effect = true;
        }
    }

    /// The write of the lvalue ending at `last` (not before `start`): to a
    /// local if its base is one and it is written directly or through a
    /// local the function declared; otherwise an effect.
    fn lvalue_write(&mut self, start: usize, last: usize, facts: &mut Facts) {
        let source = self.source;
        let mut at = last;
        let mut direct = true;
        loop {
            let word = source.word(at);
            if word == "]" {
                match source.partner(at) {
                    Some(open) if open > start => {
                        at = open - 1;
                        direct = false;
                        continue;
                    }
                    _ => break,
                }
            }
            if source.is_identifier(at) {
                if at >= start + 2 && matches!(source.word(at - 1), "." | "->") {
                    at -= 2;
                    direct = false;
                    continue;
                }
                let dereferenced = at > start && source.word(at - 1) == "*";
                if let Some(local) = self.resolve(word)
                    && ((direct && !dereferenced) || !local.parameter)
                {
                    facts.writes.push(local.id);
                    facts.mentions.push(local.id);
                    return;
                }
            }
            break;
        }
        facts.effect = true;
    }
}

/// Every token range of a statement, its bodies' included, in order.
fn all_tokens(statement: &Statement, out: &mut Vec<Range<usize>>) {
    for part in &statement.parts {
        match part {
            Part::Tokens(range) => out.push(range.clone()),
            Part::Body(body) => {
                for inner in &body.statements {
                    all_tokens(inner, out);
                }
            }
        }
    }
}
