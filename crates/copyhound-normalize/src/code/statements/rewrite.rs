//! Dead statements left out and independent ones put in a canonical order,
//! one function at a time.
//!
//! *Dead code* (mark and sweep): a statement with an effect is live; a
//! live statement makes every local it mentions live; a statement that
//! writes a live local is live, and so is a statement with a live
//! statement inside. What is never marked is left out: declarations of
//! locals nothing reads, assignments to them, loops and branches with
//! nothing live inside — the statements a dead-code inserter adds.
//!
//! *Order*: within a body, statement `b` must stay after an earlier `a`
//! when `b` reads or writes a local `a` writes, or writes one `a` reads;
//! when one has an effect and the other an effect or a read of outside
//! state; and around jumps and labels, which nothing crosses. Those edges
//! are drawn from the last writer and the readers since of each local, and
//! do not depend on how independent statements were ordered. The body is
//! then emitted in a topological order that always takes, among the
//! statements whose predecessors are out, the one with the smallest key: a
//! hash of its symbols, then of the keys of what depends on it. Two
//! orderings of the same statements that differ only by swaps of
//! independent ones come out the same.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use foldhash::{HashMap, HashMapExt};

use crate::Symbol;

use super::effects::{Dialect, Facts, Locals, analyse};
use super::syntax::{Body, Form, Part, Source, Statement};

/// What the rewrite does.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rewrite {
    pub(crate) drop_dead_code: bool,
    pub(crate) canonical_order: bool,
    /// The symbol of `while`, if `for` loops are to read as `while` loops.
    pub(crate) while_loops: Option<Symbol>,
}

/// Emits rewritten bodies as token indices.
pub(super) struct Emitter<'s, 'a> {
    pub(super) source: &'s Source<'a>,
    pub(super) symbols: &'s mut [Symbol],
    pub(super) dialect: Dialect,
    pub(super) rewrite: Rewrite,
    /// Facts by statement id, filled in one function at a time.
    pub(super) facts: Vec<Facts>,
    /// Liveness by statement id.
    pub(super) live: Vec<bool>,
}

/// A statement's ordering facts, over it and everything inside it that
/// belongs to the same function.
#[derive(Clone, Debug, Default)]
struct Summary {
    mentions: Locals,
    writes: Locals,
    effect: bool,
    reads_outside: bool,
    /// How control may leave it.
    exits: Exits,
}

/// How control may leave a statement other than by its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Exits {
    #[default]
    Never,
    /// An unlabelled `break` or `continue` not inside a loop of its own:
    /// out of the enclosing loop.
    Loop,
    /// A `return`, `throw`, `goto`, or a label: nothing may cross it.
    Anywhere,
}

impl Emitter<'_, '_> {
    /// Appends the tokens of `unit`, a function body, rewritten.
    pub(super) fn function(&mut self, unit: &Body, out: &mut Vec<usize>) {
        let variables = analyse(self.source, self.dialect, unit, &mut self.facts);
        self.mark_live(unit, variables);
        self.body(unit, out);
    }

    /// Marks the live statements of `unit` (all of them when dead code is
    /// kept).
    fn mark_live(&mut self, unit: &Body, variables: usize) {
        let mut statements: Vec<(usize, Option<usize>)> = Vec::new();
        collect(unit, None, &mut statements);
        let module = unit.function.as_ref().is_some_and(|f| f.module);
        if !self.rewrite.drop_dead_code || module {
            for &(id, _) in &statements {
                self.live[id] = true;
            }
            return;
        }
        // The statements writing each variable, in one vector: variable
        // `v`'s are `writers[starts[v]..starts[v + 1]]` (a vector per
        // variable was most of the allocations of reading a file).
        let mut starts = vec![0usize; variables + 1];
        for &(id, _) in &statements {
            for &v in &self.facts[id].writes {
                starts[v as usize + 1] += 1;
            }
        }
        for v in 0..variables {
            starts[v + 1] += starts[v];
        }
        let mut writers = vec![0usize; starts[variables]];
        let mut next = starts.clone();
        let mut parent = HashMap::with_capacity(statements.len());
        let mut queue = Vec::new();
        for &(id, up) in &statements {
            for &v in &self.facts[id].writes {
                writers[next[v as usize]] = id;
                next[v as usize] += 1;
            }
            if let Some(up) = up {
                parent.insert(id, up);
            }
            if self.facts[id].effect {
                queue.push(id);
            }
        }
        let mut live_variable = vec![false; variables];
        while let Some(id) = queue.pop() {
            if self.live[id] {
                continue;
            }
            self.live[id] = true;
            for &v in &self.facts[id].mentions {
                if !live_variable[v as usize] {
                    live_variable[v as usize] = true;
                    queue.extend_from_slice(&writers[starts[v as usize]..starts[v as usize + 1]]);
                }
            }
            if let Some(&up) = parent.get(&id) {
                queue.push(up);
            }
        }
    }

    /// Appends a body of the function being rewritten: braces, and its
    /// live statements in order.
    fn body(&mut self, body: &Body, out: &mut Vec<usize>) {
        out.extend(body.open);
        let live: Vec<&Statement> = body.statements.iter().filter(|s| self.live[s.id]).collect();
        if self.rewrite.canonical_order && live.len() > 1 {
            self.ordered(&live, out);
        } else {
            for statement in live {
                self.statement(statement, out);
            }
        }
        out.extend(body.close);
    }

    /// Appends one statement: its own tokens, its bodies rewritten.
    fn statement(&mut self, statement: &Statement, out: &mut Vec<usize>) {
        if statement.form == Form::Loop
            && let Some(while_symbol) = self.rewrite.while_loops
            && self.for_as_while(statement, while_symbol, out)
        {
            return;
        }
        for part in &statement.parts {
            match part {
                Part::Tokens(range) => out.extend(range.clone()),
                Part::Body(body) if body.function.is_some() => self.function(body, out),
                Part::Body(body) if statement.form == Form::Declaration => {
                    self.container(body, out);
                }
                Part::Body(body) => self.body(body, out),
            }
        }
    }

    /// Appends `for (init; cond; step) body` as `init; while (cond) { body
    /// step; }` would be, its `for` read as `while` (`symbol`): the same
    /// tokens in another order, so a loop rewritten either way reads the
    /// same. False (nothing appended) for any other loop.
    fn for_as_while(
        &mut self,
        statement: &Statement,
        symbol: Symbol,
        out: &mut Vec<usize>,
    ) -> bool {
        let source = self.source;
        let [Part::Tokens(header), Part::Body(body)] = statement.parts.as_slice() else {
            return false;
        };
        let (keyword, open) = (header.start, header.start + 1);
        let close = header.end - 1;
        if source.word(keyword) != "for"
            || source.word(open) != "("
            || source.partner(open) != Some(close)
        {
            return false;
        }
        let mut separators = Vec::new();
        let mut at = open + 1;
        while at < close {
            match source.word(at) {
                ";" => separators.push(at),
                ":" | "in" => return false,
                _ => {}
            }
            at = source
                .partner(at)
                .filter(|&p| p > at && p < close)
                .unwrap_or(at)
                + 1;
        }
        let &[first, second] = separators.as_slice() else {
            return false;
        };
        if first > open + 1 {
            out.extend(open + 1..=first);
        }
        self.symbols[keyword] = symbol;
        out.push(keyword);
        out.push(open);
        out.extend(first + 1..second);
        out.push(close);
        out.extend(body.open);
        let live: Vec<&Statement> = body.statements.iter().filter(|s| self.live[s.id]).collect();
        if self.rewrite.canonical_order && live.len() > 1 {
            self.ordered(&live, out);
        } else {
            for inner in live {
                self.statement(inner, out);
            }
        }
        if second + 1 < close {
            out.extend(second + 1..close);
            out.push(second);
        }
        out.extend(body.close);
        true
    }

    /// Appends a class body (Python): its statements as written, the
    /// functions in it rewritten.
    fn container(&mut self, body: &Body, out: &mut Vec<usize>) {
        out.extend(body.open);
        for statement in &body.statements {
            for part in &statement.parts {
                match part {
                    Part::Tokens(range) => out.extend(range.clone()),
                    Part::Body(inner) if inner.function.is_some() => self.function(inner, out),
                    Part::Body(inner) => self.container(inner, out),
                }
            }
        }
        out.extend(body.close);
    }

    /// Appends `statements` (live, of one body) in the canonical order.
    fn ordered(&mut self, statements: &[&Statement], out: &mut Vec<usize>) {
        let count = statements.len();
        let mut emitted: Vec<Vec<usize>> = Vec::with_capacity(count);
        let mut keys: Vec<u64> = Vec::with_capacity(count);
        let mut summaries: Vec<Summary> = Vec::with_capacity(count);
        for statement in statements {
            let mut tokens = Vec::new();
            self.statement(statement, &mut tokens);
            keys.push(hash_symbols(tokens.iter().map(|&i| self.symbols[i])));
            emitted.push(tokens);
            let mut summary = Summary::default();
            self.summarise(statement, &mut summary);
            summary.mentions.sort_unstable();
            summary.mentions.dedup();
            summary.writes.sort_unstable();
            summary.writes.dedup();
            summaries.push(summary);
        }
        let successors = dependencies(&summaries);
        // What depends on a statement sets its key's tie-break: edges only
        // go forward, so walking backwards sees successors first.
        let mut tie = vec![0u64; count];
        for index in (0..count).rev() {
            let mut below: Vec<u64> = successors[index].iter().map(|&s| tie[s]).collect();
            below.sort_unstable();
            tie[index] = hash_words(std::iter::once(keys[index]).chain(below));
        }
        let mut waiting = vec![0usize; count];
        for list in &successors {
            for &s in list {
                waiting[s] += 1;
            }
        }
        let mut ready: BinaryHeap<Reverse<(u64, u64, usize)>> = (0..count)
            .filter(|&i| waiting[i] == 0)
            .map(|i| Reverse((keys[i], tie[i], i)))
            .collect();
        while let Some(Reverse((_, _, index))) = ready.pop() {
            out.extend_from_slice(&emitted[index]);
            for &s in &successors[index] {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.push(Reverse((keys[s], tie[s], s)));
                }
            }
        }
    }

    /// Adds the facts of `statement` and of the live statements inside it
    /// (not nested functions) to `summary`.
    fn summarise(&self, statement: &Statement, summary: &mut Summary) {
        let facts = &self.facts[statement.id];
        summary.mentions.extend_from_slice(&facts.mentions);
        summary.writes.extend_from_slice(&facts.writes);
        summary.effect |= facts.effect;
        summary.reads_outside |= facts.reads_outside;
        match statement.form {
            Form::Exit | Form::Label | Form::Opaque => summary.exits = Exits::Anywhere,
            Form::LoopExit => summary.exits = summary.exits.max(Exits::Loop),
            _ => {}
        }
        let inside_loop = statement.form == Form::Loop;
        for body in statement.bodies() {
            if body.function.is_some() {
                continue;
            }
            for inner in body.statements.iter().filter(|s| self.live[s.id]) {
                let mut nested = Summary::default();
                self.summarise(inner, &mut nested);
                summary.mentions.extend(nested.mentions);
                summary.writes.extend(nested.writes);
                summary.effect |= nested.effect;
                summary.reads_outside |= nested.reads_outside;
                // A label inside (a `case`) belongs to its statement; a jump
                // out of it does not.
                let exits = match nested.exits {
                    Exits::Anywhere if inner.form == Form::Label => Exits::Never,
                    Exits::Loop if inside_loop => Exits::Never,
                    exits => exits,
                };
                summary.exits = summary.exits.max(exits);
            }
        }
    }
}

/// Every statement of `body` that belongs to its function, with its
/// parent statement.
fn collect(body: &Body, parent: Option<usize>, out: &mut Vec<(usize, Option<usize>)>) {
    for statement in &body.statements {
        out.push((statement.id, parent));
        for inner in statement.bodies() {
            if inner.function.is_none() && statement.form != Form::Declaration {
                collect(inner, Some(statement.id), out);
            }
        }
    }
}

/// For each statement, the later ones that must stay after it.
fn dependencies(summaries: &[Summary]) -> Vec<Vec<usize>> {
    let count = summaries.len();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut last_writer: HashMap<u32, usize> = HashMap::new();
    let mut readers: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut outside_writer: Option<usize> = None;
    let mut outside_readers: Vec<usize> = Vec::new();
    let mut last_barrier: Option<usize> = None;
    let mut since_barrier: Vec<usize> = Vec::new();
    for (index, summary) in summaries.iter().enumerate() {
        let mut before: Vec<usize> = Vec::new();
        let barrier = summary.exits != Exits::Never;
        if barrier {
            before.extend_from_slice(&since_barrier);
        }
        before.extend(last_barrier);
        for v in &summary.mentions {
            before.extend(last_writer.get(v));
        }
        for v in &summary.writes {
            before.extend(readers.get(v).into_iter().flatten());
        }
        if summary.effect {
            before.extend(outside_writer);
            before.extend_from_slice(&outside_readers);
        } else if summary.reads_outside {
            before.extend(outside_writer);
        }
        before.sort_unstable();
        before.dedup();
        for b in before {
            if b != index {
                successors[b].push(index);
            }
        }
        for &v in &summary.mentions {
            readers.entry(v).or_default().push(index);
        }
        for &v in &summary.writes {
            last_writer.insert(v, index);
            readers.insert(v, vec![index]);
        }
        if summary.effect {
            outside_writer = Some(index);
            outside_readers.clear();
        } else if summary.reads_outside {
            outside_readers.push(index);
        }
        if barrier {
            last_barrier = Some(index);
            since_barrier.clear();
        } else {
            since_barrier.push(index);
        }
    }
    successors
}

fn hash_symbols(symbols: impl Iterator<Item = Symbol>) -> u64 {
    hash_words(symbols.map(u64::from))
}

/// A 64-bit hash of a sequence of words (a multiply-xorshift mix per
/// word): the same on every machine and run.
fn hash_words(words: impl Iterator<Item = u64>) -> u64 {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for word in words {
        state = (state ^ word).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        state ^= state >> 31;
    }
    state
}
