//! What Python statements bind: assignment targets, the names of `for`,
//! `with` and `except` headers, imports, and `global` or `nonlocal` names.

use std::ops::Range;

use smallvec::SmallVec;

use super::super::syntax::{Form, Part, Source, Statement};
use super::words::{ASSIGNMENTS, nested};

/// Targets, or names, of one statement: nearly always a few, held in
/// place, since every assignment of every function asks for them.
pub(super) type Few<T> = SmallVec<[T; 4]>;

/// The targets of a Python assignment whose left side is `range` (`a`,
/// `a, b`, `(a, b)`, `a[i]`, `x.y`, `x: int`): each element's token range.
pub(super) fn python_targets(source: &Source<'_>, range: Range<usize>) -> Few<Range<usize>> {
    let mut range = range;
    // Chained `a = b = 1`: each `=` is seen on its own; take the last part.
    while let Some(eq) = top_level_find(source, range.clone(), "=") {
        range.start = eq + 1;
    }
    // An annotation `x: int` ends the target at its `:`.
    if let Some(colon) = top_level_find(source, range.clone(), ":") {
        range.end = colon;
    }
    if range.is_empty() {
        return Few::new();
    }
    if matches!(source.word(range.start), "(" | "[")
        && source.partner(range.start) == Some(range.end - 1)
    {
        range = range.start + 1..range.end - 1;
    }
    let mut targets = Few::new();
    let mut start = range.start;
    let mut index = start;
    while index < range.end {
        if source.word(index) == "," {
            if start < index {
                targets.push(start..index);
            }
            start = index + 1;
        }
        index = match source.partner(index) {
            Some(close) if close > index && close < range.end => close + 1,
            _ => index + 1,
        };
    }
    if start < range.end {
        targets.push(start..range.end);
    }
    for target in &mut targets {
        if source.word(target.start) == "*" {
            target.start += 1;
        }
    }
    targets.retain(|target| target.start < target.end);
    targets
}

/// The names a Python header binds: `for a, b in`, `with … as a`,
/// `except E as e`; as the index of each target's last token.
pub(super) fn python_header_targets(source: &Source<'_>, range: Range<usize>) -> Few<usize> {
    let mut out = Few::new();
    let first = range.start;
    if source.word(first) == "for"
        || (source.word(first) == "async" && source.word(first + 1) == "for")
    {
        let start = if source.word(first) == "for" {
            first + 1
        } else {
            first + 2
        };
        if let Some(in_at) = (start..range.end).find(|&i| source.word(i) == "in") {
            for target in python_targets(source, start..in_at) {
                out.push(target.end - 1);
            }
        }
    }
    for index in range.clone() {
        if source.word(index) == "as" && source.is_identifier(index + 1) {
            out.push(index + 1);
        }
    }
    out
}

/// The names a Python statement (and its bodies, not nested functions)
/// binds, and those it declares `global` or `nonlocal`.
pub(super) fn collect_python_targets<'a>(
    source: &Source<'a>,
    statement: &Statement,
    targets: &mut Vec<&'a str>,
    globals: &mut Vec<&'a str>,
) {
    let bind = |index: usize, targets: &mut Vec<&'a str>| {
        if source.is_identifier(index) && !(index > 0 && source.word(index - 1) == ".") {
            targets.push(source.word(index));
        }
    };
    if statement.form == Form::Declaration {
        // A nested definition binds its name; its inside is its own.
        if let Some(range) = statement.own_tokens().next()
            && let Some(def) = range
                .clone()
                .find(|&i| matches!(source.word(i), "def" | "class"))
        {
            bind(def + 1, targets);
        }
        return;
    }
    for part in &statement.parts {
        let range = match part {
            Part::Tokens(range) => range.clone(),
            Part::Body(body) => {
                for inner in &body.statements {
                    collect_python_targets(source, inner, targets, globals);
                }
                continue;
            }
        };
        let first = source.word(range.start);
        if matches!(first, "global" | "nonlocal") {
            globals.extend(
                (range.start + 1..range.end)
                    .filter(|&i| source.is_identifier(i))
                    .map(|i| source.word(i)),
            );
            continue;
        }
        if matches!(first, "import" | "from") {
            // `import a, b`, `import a as b`, `from m import a as b`.
            for index in range.clone() {
                let last_of_name =
                    index + 1 == range.end || matches!(source.word(index + 1), "," | "as");
                let after_as = index > range.start && source.word(index - 1) == "as";
                if after_as || (last_of_name && source.word(index + 1) != "as") {
                    bind(index, targets);
                }
            }
            continue;
        }
        for index in python_header_targets(source, range.clone()) {
            bind(index, targets);
        }
        let mut depth = 0usize;
        for index in range.clone() {
            let word = source.word(index);
            depth = nested(depth, word);
            if word == ":=" && index > range.start {
                bind(index - 1, targets);
            }
            if depth == 0 && ASSIGNMENTS.contains(&word) && index > range.start {
                for target in python_targets(source, range.start..index) {
                    if target.len() == 1 {
                        bind(target.start, targets);
                    }
                }
            }
        }
    }
}

/// The first token spelled `word` in `range` outside brackets.
fn top_level_find(source: &Source<'_>, range: Range<usize>, word: &str) -> Option<usize> {
    let mut index = range.start;
    while index < range.end {
        if source.word(index) == word {
            return Some(index);
        }
        index = match source.partner(index) {
            Some(close) if close > index && close < range.end => close + 1,
            _ => index + 1,
        };
    }
    None
}
