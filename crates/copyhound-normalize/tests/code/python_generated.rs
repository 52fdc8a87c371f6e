//! Random well-formed Python, read by the lexer and by the grammar: every
//! kind of statement and block, the soft keywords as keywords and as
//! names, f-strings with nested fields, Python 2 statements, comments at
//! any depth, continuation lines, with and without `drop_imports`.

use proptest::prelude::*;

use super::support::assert_same_as_grammar;
use copyhound_normalize::code::Language;

/// Names, the soft keywords among them.
fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "b",
        "xs",
        "count",
        "Foo",
        "self",
        "match",
        "case",
        "type",
        "print",
        "exec",
        "_",
        "nonascii_é",
    ])
    .prop_map(str::to_owned)
}

/// A name that can be assigned to and called by keyword.
fn plain_name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "xs", "count", "Foo", "match", "case", "_"])
        .prop_map(str::to_owned)
}

fn number() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "0", "1", "42", "1.5", "0x1f", "1_000", "2j", "1e5", ".5", "1.", "0o17", "0b101",
    ])
    .prop_map(str::to_owned)
}

fn plain_string() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "'s'",
        "\"t\"",
        "r'\\d+'",
        "b'x'",
        "'''q\nr'''",
        "\"\\\"\"",
        "u'\\n'",
        "'\\N{DASH}'",
    ])
    .prop_map(str::to_owned)
}

/// An expression and whether it is a primary (may stand as an operand of
/// a binary operator, a call or an attribute without parentheses).
fn expression() -> impl Strategy<Value = (String, bool)> {
    let leaf = prop_oneof![
        name().prop_map(|n| (n, true)),
        number().prop_map(|n| (n, false)),
        plain_string().prop_map(|s| (s, false)),
        prop::sample::select(vec!["None", "True", "False", "..."])
            .prop_map(|s| (s.to_owned(), false)),
    ];
    leaf.prop_recursive(4, 40, 3, |inner| {
        let operand = inner
            .clone()
            .prop_map(|(e, primary)| if primary { e } else { format!("({e})") });
        prop_oneof![
            (
                operand.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "//", "%", "**", "@", "|", "&", "^", "<<", ">>"
                ]),
                operand.clone()
            )
                .prop_map(|(l, op, r)| (format!("{l} {op} {r}"), true)),
            (
                operand.clone(),
                prop::sample::select(vec![
                    "<", ">", "==", "!=", "<=", ">=", "in", "not in", "is", "is not"
                ]),
                operand.clone()
            )
                .prop_map(|(l, op, r)| (format!("{l} {op} {r}"), false)),
            (
                operand.clone(),
                prop::sample::select(vec!["and", "or"]),
                operand.clone()
            )
                .prop_map(|(l, op, r)| (format!("{l} {op} {r}"), false)),
            (
                prop::sample::select(vec!["-", "+", "~", "not ", "await "]),
                operand.clone()
            )
                .prop_map(|(op, e)| (format!("{op}{e}"), op != "not ")),
            (
                operand.clone(),
                prop::collection::vec(argument(inner.clone()), 0..3)
            )
                .prop_map(|(f, args)| (format!("{f}({})", args.join(", ")), true)),
            (operand.clone(), plain_name()).prop_map(|(e, n)| (format!("{e}.{n}"), true)),
            (operand.clone(), inner.clone(), prop::bool::ANY).prop_map(|(e, (i, _), slice)| {
                (
                    if slice {
                        format!("{e}[{i}:]")
                    } else {
                        format!("{e}[{i}]")
                    },
                    true,
                )
            }),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|items| {
                let items: Vec<String> = items.into_iter().map(|(e, _)| e).collect();
                (format!("[{}]", items.join(", ")), true)
            }),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|items| {
                let items: Vec<String> = items.into_iter().map(|(e, _)| e).collect();
                (format!("({},)", items.join(", ")), true)
            }),
            (inner.clone(), inner.clone())
                .prop_map(|((k, _), (v, _))| (format!("{{{k}: {v}}}"), true)),
            (
                inner.clone(),
                plain_name(),
                operand.clone(),
                operand.clone()
            )
                .prop_map(|((e, _), x, xs, c)| (format!("[{e} for {x} in {xs} if {c}]"), true)),
            (operand.clone(), operand.clone(), operand.clone())
                .prop_map(|(a, c, b)| (format!("{a} if {c} else {b}"), false)),
            (plain_name(), inner.clone())
                .prop_map(|(x, (e, _))| (format!("lambda {x}: {e}"), false)),
            (plain_name(), inner.clone()).prop_map(|(x, (e, _))| (format!("({x} := {e})"), true)),
            fstring(inner).prop_map(|s| (s, false)),
        ]
    })
}

/// A call argument.
fn argument(inner: impl Strategy<Value = (String, bool)> + Clone) -> impl Strategy<Value = String> {
    prop_oneof![
        inner.clone().prop_map(|(e, _)| e),
        (plain_name(), inner.clone()).prop_map(|(k, (e, _))| format!("{k}={e}")),
        inner.clone().prop_map(|(e, primary)| if primary {
            format!("*{e}")
        } else {
            format!("*({e})")
        }),
        inner.prop_map(|(e, primary)| if primary {
            format!("**{e}")
        } else {
            format!("**({e})")
        }),
    ]
}

/// An f-string in double quotes whose fields hold expressions without
/// double quotes or braces of their own.
fn fstring(inner: impl Strategy<Value = (String, bool)>) -> impl Strategy<Value = String> {
    let field = (
        inner,
        prop::sample::select(vec![
            "",
            "=",
            "!r",
            "!s",
            ":>10",
            ":{w}",
            ":{a.b}x",
            "!r:{w}.{p}",
        ]),
    )
        .prop_map(|((e, _), tail)| {
            if e.contains(['"', '{', '}', '\n', '#', '\\']) || e.starts_with("lambda") {
                "{x}".to_owned()
            } else {
                format!("{{{e}{tail}}}")
            }
        });
    (
        prop::sample::select(vec!["f", "F", "rf", "fR"]),
        prop::collection::vec(
            prop_oneof![
                field,
                prop::sample::select(vec!["text", " ", "{{", "}}", "\\N{DASH}", "'"])
                    .prop_map(str::to_owned)
            ],
            0..4,
        ),
    )
        .prop_map(|(prefix, parts)| format!("{prefix}\"{}\"", parts.concat()))
}

fn expr() -> impl Strategy<Value = String> {
    expression().prop_map(|(e, _)| e)
}

/// An expression as an operand (parenthesised if it must be).
fn operand() -> impl Strategy<Value = String> {
    expression().prop_map(|(e, primary)| if primary { e } else { format!("({e})") })
}

/// A type annotation. (An annotation that goes on after a generic type,
/// `x: A[1] + b`, is an error to the grammar.)
fn annotation() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "int",
        "List[int]",
        "'T'",
        "a.B",
        "int | None",
        "match",
    ])
    .prop_map(str::to_owned)
}

fn target() -> impl Strategy<Value = String> {
    prop_oneof![
        plain_name(),
        (plain_name(), plain_name()).prop_map(|(a, b)| format!("{a}.{b}")),
        (plain_name(), expr()).prop_map(|(a, i)| format!("{a}[{i}]")),
        (plain_name(), plain_name()).prop_map(|(a, b)| format!("{a}, {b}")),
    ]
}

fn simple_statement() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (target(), expr()).prop_map(|(t, e)| format!("{t} = {e}")),
        1 => (target(), prop::sample::select(vec!["+=", "-=", "//=", "**=", "@=", ">>="]), expr())
            .prop_map(|(t, op, e)| format!("{t} {op} {e}")),
        1 => (plain_name(), annotation(), expr()).prop_map(|(n, t, e)| format!("{n}: {t} = {e}")),
        3 => expr(),
        1 => expr().prop_map(|e| format!("return {e}")),
        1 => Just("return".to_owned()),
        1 => Just("pass".to_owned()),
        1 => Just("break".to_owned()),
        1 => target().prop_map(|t| format!("del {t}")),
        1 => Just("global a, b".to_owned()),
        1 => (expr(), expr()).prop_map(|(a, b)| format!("assert {a}, {b}")),
        1 => (operand(), operand()).prop_map(|(a, b)| format!("raise {a} from {b}")),
        1 => expr().prop_map(|e| format!("yield {e}")),
        1 => prop::sample::select(vec![
            "import os",
            "import a.b as c, d",
            "from . import x",
            "from ..pkg import (a,\n    b,)",
            "from __future__ import annotations",
            "from m import *",
        ])
        .prop_map(str::to_owned),
        1 => (operand(), operand()).prop_map(|(a, b)| format!("print {a}, {b}")),
        1 => expr().prop_map(|e| format!("print >>sys.stderr, {e}")),
        1 => (plain_string(), number()).prop_map(|(s, n)| format!("print {s} % {n}")),
        1 => Just("exec \"code\" in d".to_owned()),
        1 => (plain_name(), annotation()).prop_map(|(n, t)| format!("type {n} = {t}")),
        1 => plain_string(),
        1 => fstring(expression()),
        1 => expr().prop_map(|e| format!("x = require({e})")),
        1 => (expr(), expr()).prop_map(|(a, b)| format!("x = ({a},\n    {b})")),
        1 => (operand(), operand()).prop_map(|(a, b)| format!("x = {a} + \\\n    {b}")),
    ]
}

/// One statement's lines at indentation `indent`, nested up to `depth`.
fn statement(indent: usize, depth: u32) -> BoxedStrategy<Vec<String>> {
    let pad = " ".repeat(indent);
    let simple = {
        let pad = pad.clone();
        (
            prop::collection::vec(simple_statement(), 1..3),
            prop::option::of(Just("  # note")),
        )
            .prop_map(move |(statements, comment)| {
                vec![format!(
                    "{pad}{}{}",
                    statements.join("; "),
                    comment.unwrap_or_default()
                )]
            })
    };
    let comment =
        (0usize..indent + 9).prop_map(|spaces| vec![format!("{}# comment", " ".repeat(spaces))]);
    if depth == 0 {
        return prop_oneof![4 => simple, 1 => comment].boxed();
    }
    let body = move || suite(indent, depth - 1);
    let header = |text: &'static str| {
        let pad = " ".repeat(indent);
        (expr(), body())
            .prop_map(move |(e, suite)| join_header(&pad, &format!("{text} {e}:"), suite))
    };
    let compound = prop_oneof![
        header("if"),
        header("while"),
        (header("if"), expr(), body(), body()).prop_map({
            let pad = pad.clone();
            move |(mut lines, e, elif, otherwise)| {
                lines.extend(join_header(&pad, &format!("elif {e}:"), elif));
                lines.extend(join_header(&pad, "else:", otherwise));
                lines
            }
        }),
        (plain_name(), operand(), body(), prop::option::of(body())).prop_map({
            let pad = pad.clone();
            move |(x, xs, b, otherwise)| {
                let mut lines = join_header(&pad, &format!("for {x} in {xs}:"), b);
                if let Some(otherwise) = otherwise {
                    lines.extend(join_header(&pad, "else:", otherwise));
                }
                lines
            }
        }),
        (body(), operand(), body(), body()).prop_map({
            let pad = pad.clone();
            move |(b, e, handler, last)| {
                let mut lines = join_header(&pad, "try:", b);
                lines.extend(join_header(&pad, &format!("except {e} as err:"), handler));
                lines.extend(join_header(&pad, "finally:", last));
                lines
            }
        }),
        (operand(), plain_name(), body()).prop_map({
            let pad = pad.clone();
            move |(e, n, b)| join_header(&pad, &format!("with {e} as {n}:"), b)
        }),
        definition(indent, depth),
        (plain_name(), body()).prop_map({
            let pad = pad.clone();
            move |(n, b)| join_header(&pad, &format!("class {n}(Base, metaclass=M):"), b)
        }),
        match_statement(indent, depth),
    ];
    prop_oneof![4 => simple, 1 => comment, 3 => compound].boxed()
}

/// A function definition, with decorators, at `indent`.
fn definition(indent: usize, depth: u32) -> impl Strategy<Value = Vec<String>> {
    let pad = " ".repeat(indent);
    let body = move || suite(indent, depth - 1);
    (
        prop::sample::select(vec!["def", "async def"]),
        plain_name(),
        prop::sample::select(vec![
            "",
            "self, a, b=1",
            "a, /, b, *, c: int = 2, **kw",
            "*args, d: 'T'",
        ]),
        prop::option::of(annotation()),
        body(),
        prop::collection::vec(
            prop_oneof![plain_name(), expr().prop_map(|e| format!("dec({e})"))],
            0..2,
        ),
    )
        .prop_map({
            move |(def, n, params, returns, b, decorators)| {
                let mut lines: Vec<String> =
                    decorators.iter().map(|d| format!("{pad}@{d}")).collect();
                // `-> T: x[0] = 1` is an error to the grammar (a
                // constrained type `T: x[0]`): a block instead.
                let b = match b {
                    Suite::Inline(statements) if returns.is_some() => {
                        Suite::Block(statements.iter().map(|s| format!("{pad}    {s}")).collect())
                    }
                    b => b,
                };
                let returns = returns.map(|r| format!(" -> {r}")).unwrap_or_default();
                lines.extend(join_header(
                    &pad,
                    &format!("{def} {n}({params}){returns}:"),
                    b,
                ));
                lines
            }
        })
}

/// A match statement at `indent`.
fn match_statement(indent: usize, depth: u32) -> impl Strategy<Value = Vec<String>> {
    let pad = " ".repeat(indent);
    (
        prop_oneof![plain_name(), expr().prop_map(|e| format!("({e})"))],
        prop::collection::vec(
            (
                pattern(),
                prop::option::of(expr()),
                suite(indent + 4, depth - 1),
            ),
            1..3,
        ),
    )
        .prop_map(move |(subject, cases)| {
            let mut lines = vec![format!("{pad}match {subject}:")];
            let case_pad = format!("{pad}    ");
            for (p, guard, b) in cases {
                let guard = guard.map(|g| format!(" if {g}")).unwrap_or_default();
                lines.extend(join_header(&case_pad, &format!("case {p}{guard}:"), b));
            }
            lines
        })
}

/// A case pattern.
fn pattern() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "_",
        "1 | 2",
        "-1",
        "'s'",
        "None",
        "x",
        "[a, *_]",
        "(a, _)",
        "{'k': v, **rest}",
        "Point(x=0, y=_)",
        "Color.RED",
        "[_, (1 | 2) as y]",
        "1+2j",
    ])
    .prop_map(str::to_owned)
}

/// A suite: simple statements on the header's line, or a block.
fn suite(indent: usize, depth: u32) -> BoxedStrategy<Suite> {
    prop_oneof![
        prop::collection::vec(simple_statement(), 1..3).prop_map(Suite::Inline),
        prop::collection::vec(statement(indent + 4, depth), 1..4)
            .prop_map(|statements| Suite::Block(statements.concat())),
    ]
    .boxed()
}

#[derive(Clone, Debug)]
enum Suite {
    Inline(Vec<String>),
    Block(Vec<String>),
}

fn join_header(pad: &str, header: &str, suite: Suite) -> Vec<String> {
    match suite {
        Suite::Inline(statements) => vec![format!("{pad}{header} {}", statements.join("; "))],
        Suite::Block(mut lines) => {
            // A block needs a statement, not only comments.
            if lines.iter().all(|line| line.trim_start().starts_with('#')) {
                lines.push(format!("{pad}    pass"));
            }
            let mut out = vec![format!("{pad}{header}")];
            out.extend(lines);
            out
        }
    }
}

proptest! {
    #![proptest_config(crate::code::support::random_programs(256))]
    #[test]
    fn random_python_reads_as_the_grammar_reads_it(
        statements in prop::collection::vec(statement(0, 2), 1..8),
        crlf in prop::bool::weighted(0.1),
    ) {
        let mut code = statements.concat().join("\n");
        code.push('\n');
        if crlf {
            code = code.replace('\n', "\r\n");
        }
        assert_same_as_grammar(Language::Python, &code, false);
        assert_same_as_grammar(Language::Python, &code, true);
    }
}
