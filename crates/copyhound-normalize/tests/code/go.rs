//! The Go lexer against the Go grammar: the same tokens, kinds and byte
//! ranges, on the fixture, on hand-written cases of each rule, on random
//! well-formed Go and on the Go sources of the machine.

use std::path::PathBuf;

use copyhound_normalize::code::Language;
use proptest::prelude::*;

use super::real_files::{assert_files_read_as_grammar, command_line, source_files, sources_dir};
use super::support::{assert_left_to_grammar, assert_same_as_grammar, fixture};

fn assert_same(text: &str) {
    assert_same_as_grammar(Language::Go, text, false);
    assert_same_as_grammar(Language::Go, text, true);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    assert_same(&fixture("sample.go"));
}

#[test]
fn operand_words_are_keywords_as_operands_and_names_elsewhere() {
    for code in [
        "package p\nfunc f(x any) bool {\n\tswitch v := x.(type) {\n\tcase nil, int:\n\t\treturn v == nil\n\t}\n\tswitch x {\n\tcase nil:\n\t\treturn true\n\t}\n\treturn false\n}\n",
        "package p\nfunc f(iota int, true bool, nil map[string]int) {}\ntype T struct { false chan int }\n",
        "package p\nconst (\n\ttrue = 0 == 0\n\tfalse = !true\n)\nvar nil = 1\nconst iota = 0\n",
        "package p\nfunc f() error {\n\tx.nil = y.true\n\tg(s, nil...)\n\treturn nil\n}\nfunc g() { a := new(T); b := make([]int, 0); _ = iota }\n",
        // A generic call's type argument is a name to the grammar, which
        // reads the call across a line break too; an index is an operand.
        "package p\nfunc f() {\n\tx = -a[nil]\n\t(a).a\n\ty = a.b[true](c)\n\tz = a[nil]\n\tw = a[iota] + 1\n}\n",
        // Nested in three indexes of names, or two and then a `[` or
        // `(`, the grammar reads the brackets as type arguments; in
        // fewer, after a literal, or of `new` or `make`, as indexes.
        "package p\nvar x = a[a[a[nil]]]\nvar y = a[b[c[d[true]]]]\nvar z = a[a[nil]][b]\nvar w = a[a[iota]](x)\nvar v = (a[a[a[false]]]).b\n",
        "package p\nvar x = new[nil](a)\nvar y = make[nil]\n(a)\nvar z = new[new[new[true]]]\nvar w = new[a[nil]](b)\nvar v = a[a[new[nil]]]\nvar u = a[(nil)](b)\nvar t = a[a[(nil)]]\n",
        "package p\nvar x = a[a[nil]]\nvar y = a[nil][b][c]\nvar z = a[a[nil]].b\nvar w = a[a[a[0]]][nil]\nvar v = a[0][a[nil]]\nvar u = a[b.c[nil]]\nfunc f() {\n\tif m[true] {\n\t}\n\tfor a[a[nil]] {\n\t}\n}\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn literals_and_operators_are_the_longest_match() {
    for code in [
        "package p\nvar x = []any{0x1p-2, 1_000, 017, 0o17, 0b101, 08.5, 089i, 1.5i, .5e3, 5., 0x_ff, 0X.8p1, 1e9}\n",
        "package p\nvar r = []rune{'a', '\\'', '\\x41', '\\u1234', '\\U00012345', '\\000', '世', '\\n'}\n",
        "package p\nvar s = []string{\"a\\\"b\", \"\\x41\\u00e9\\U0001F600\\n\\\\\", `raw\n\\n`, \"\"}\n",
        "package p\nfunc f(c chan int, a, b uint) {\n\tc <- 1; x := <-c; a &^= b; a <<= 2; b >>= 1\n\ty := a &^ b ^ ^a\n\tz := [...]int{1, 2}; g(z[:]...); a++; b--\n\tif x<-1 { }\n}\n",
        "package p\n/* block\ncomment */ func f() {} // line\n",
        "package p\nfunc f() {\n\tx = a < &^b\n\ty = &&c\n\tz = (--d)\n}\n",
        // A line that starts a statement starts with an operand: `&^a`,
        // `&&a`, `-=a` there are unary operators; after a literal's `}`
        // on its line, binary ones.
        "package p\nfunc f() {\n\ta := a\n\t&^a\n\tb := b\n\t&&b\n\tc := c\n\t-=c\n\tif d {\n\t}\n\t!=d\n\tx := S{} != S{} && T{} &^ u\n}\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn imports_and_one_line_requires_go_with_drop_imports() {
    for code in [
        "package main\n\nimport (\n\t\"fmt\"\n\tm \"math\"\n\t. \"strings\"\n\t_ \"embed\"\n)\nimport \"os\"\n\nfunc main() { fmt.Println(m.Pi, os.Args) }\n",
        "package main;\n",
        "package main; // only this\n",
        "package p\nvar x = require(\"y\")\nfunc f() { require(x) }\nfunc g() {\n\trequire(x)\n}\nvar y = 1 +\n\trequire(2)\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn lexical_errors_are_left_to_the_grammar() {
    for code in [
        "package p\nvar s = \"abc\n",
        "package p\nvar r = 'ab'\n",
        "package p\nvar x = a @ b\n",
        "package p\nfunc f() {\n",
        "package p\n/* open\n",
        "package p\nvar s = \"\\u12\"\n",
        "package p\nvar s = `open\n",
    ] {
        assert_left_to_grammar(Language::Go, code);
    }
}

/// The Go sources of the machine (`go env GOROOT`, or `/usr/lib/go`), or
/// the folder `COPYHOUND_GO_SOURCES` names.
fn go_sources() -> Option<PathBuf> {
    let goroot = command_line("go", &["env", "GOROOT"]).map(PathBuf::from);
    let defaults: Vec<PathBuf> = goroot
        .into_iter()
        .chain([PathBuf::from("/usr/lib/go")])
        .map(|root| root.join("src"))
        .collect();
    sources_dir("COPYHOUND_GO_SOURCES", &defaults)
}

#[test]
fn the_go_sources_read_as_the_grammar_reads_them() {
    let Some(dir) = go_sources() else {
        eprintln!(
            "skipped: no Go sources (apt-get install golang-go, or set COPYHOUND_GO_SOURCES)"
        );
        return;
    };
    let files = source_files(&dir, &[".go"], &[]);
    assert_files_read_as_grammar(Language::Go, &dir.display().to_string(), &files, false);
}

mod generated {
    //! Random well-formed Go: declarations, statements of every kind,
    //! type switches, literals of every form, comments.

    use super::*;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["a", "b", "xs", "count", "T", "new", "make", "é"])
            .prop_map(str::to_owned)
    }

    fn function() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["f", "len", "fmt.Println", "é"]).prop_map(str::to_owned)
    }

    fn literal() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "0",
            "42",
            "0x1f",
            "1_000",
            "017",
            "0b101",
            "1.5",
            ".5",
            "1e9",
            "2i",
            "0x1p-2",
            "'a'",
            "'\\n'",
            "'\\x41'",
            "\"s\"",
            "\"a\\tb\"",
            "`raw`",
            "nil",
            "true",
            "false",
            "iota",
        ])
        .prop_map(str::to_owned)
    }

    fn go_type() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec!["int", "string", "error", "T", "any", "byte"])
            .prop_map(str::to_owned);
        leaf.prop_recursive(2, 8, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|t| format!("[]{t}")),
                inner.clone().prop_map(|t| format!("*{t}")),
                (inner.clone(), inner.clone()).prop_map(|(k, v)| format!("map[{k}]{v}")),
                inner.clone().prop_map(|t| format!("chan {t}")),
                inner.prop_map(|t| format!("func({t}) error")),
            ]
        })
    }

    fn expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![name(), literal()];
        leaf.prop_recursive(3, 24, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    prop::sample::select(vec![
                        "+", "-", "*", "/", "%", "<<", ">>", "&", "&^", "|", "^", "==", "!=", "<",
                        "<=", ">", ">=", "&&", "||"
                    ]),
                    inner.clone()
                )
                    .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
                (
                    prop::sample::select(vec!["-", "!", "^", "&", "<-", "*"]),
                    inner.clone()
                )
                    .prop_map(|(op, e)| format!("{op}{e}")),
                // `new` and `make` take a type first (the grammar's rule).
                (function(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
                (go_type(), inner.clone())
                    .prop_map(|(t, n)| format!("make([]{t}, {n}) != new({t})")),
                (inner.clone(), name()).prop_map(|(e, n)| format!("({e}).{n}")),
                (name(), inner.clone()).prop_map(|(a, i)| format!("{a}[{i}]")),
                (name(), inner.clone()).prop_map(|(a, i)| format!("{a}[{i}:]")),
                (go_type(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(t, items)| format!("[]{t}{{{}}}", items.join(", "))),
                (name(), go_type()).prop_map(|(a, t)| format!("{a}.({t})")),
                inner
                    .clone()
                    .prop_map(|e| format!("func() int {{ return {e} }}()")),
                inner.prop_map(|e| format!("({e})")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        let simple = prop_oneof![
            (name(), expr()).prop_map(|(n, e)| format!("{n} := {e}")),
            (
                name(),
                prop::sample::select(vec!["=", "+=", "&^=", "<<="]),
                expr()
            )
                .prop_map(|(n, op, e)| format!("{n} {op} {e}")),
            expr(),
            name().prop_map(|n| format!("{n}++")),
            (name(), expr()).prop_map(|(c, e)| format!("{c} <- {e}")),
        ];
        simple.prop_recursive(2, 12, 3, |inner| {
            let block = prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|statements| format!("{{\n{}\n}}", statements.join("\n")));
            prop_oneof![
                (expr(), block.clone(), prop::option::of(block.clone())).prop_map(
                    |(c, then, otherwise)| match otherwise {
                        Some(otherwise) => format!("if {c} {then} else {otherwise}"),
                        None => format!("if {c} {then}"),
                    }
                ),
                (name(), expr(), block.clone())
                    .prop_map(|(i, n, b)| format!("for {i} := 0; {i} < {n}; {i}++ {b}")),
                (name(), name(), block.clone())
                    .prop_map(|(k, xs, b)| format!("for {k}, _ := range {xs} {b}")),
                (name(), go_type(), block.clone()).prop_map(|(x, t, b)| {
                    format!("switch v := {x}.(type) {{\ncase nil, {t}:\n_ = v\ndefault: {b}\n}}")
                }),
                (expr(), expr(), inner.clone()).prop_map(|(x, c, s)| format!(
                    "switch {x} {{\ncase {c}, nil:\n{s}\nfallthrough\ndefault:\n}}"
                )),
                expr().prop_map(|e| format!("defer func() {{ _ = {e} }}()")),
                expr().prop_map(|e| format!("go f({e})")),
                expr().prop_map(|e| format!("return {e}")),
                block.prop_map(|b| format!("outer:\nfor {b}")),
                Just("// a comment".to_owned()),
                Just("/* a\nblock */ x := 1".to_owned()),
            ]
        })
    }

    fn declaration() -> impl Strategy<Value = String> {
        prop_oneof![
            (
                name(),
                prop::collection::vec((name(), go_type()), 0..3),
                go_type(),
                prop::collection::vec(statement(), 0..4)
            )
                .prop_map(|(f, params, result, body)| {
                    let params: Vec<String> = params
                        .into_iter()
                        .map(|(n, t)| format!("{n} {t}"))
                        .collect();
                    format!(
                        "func {f}({}) {result} {{\n{}\n}}",
                        params.join(", "),
                        body.join("\n")
                    )
                }),
            (name(), go_type()).prop_map(|(n, t)| format!(
                "type {n}[K comparable, V any] struct {{\n\tk K\n\tv {t}\n\t*T\n}}"
            )),
            Just("type I interface {\n\tM(int) (string, error)\n\t~int | ~string\n}".to_owned()),
            (name(), expr()).prop_map(|(n, e)| format!("var {n} = {e}")),
            Just("const (\n\tA = iota\n\tB\n\tC = 1 << iota\n)".to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_go_reads_as_the_grammar_reads_it(
            declarations in prop::collection::vec(declaration(), 1..5),
        ) {
            let code = format!(
                "package main\n\nimport (\n\t\"fmt\"\n)\n\n{}\n",
                declarations.join("\n\n")
            );
            assert_same(&code);
        }
    }
}
