//! The C lexer against the C grammar it replaced: the same tokens, kinds
//! and byte ranges, with and without `drop_imports`, on the fixture, on
//! hand-written cases of each rule, on random well-formed C and on every C
//! file of the evaluation data sets.

use copyhound_normalize::code::{Language, tokenize};

use super::support::{assert_dataset_files_same_as_grammar, assert_same_as_grammar, fixture};

fn assert_same(text: &str) {
    assert_same_as_grammar(Language::C, text, false);
    assert_same_as_grammar(Language::C, text, true);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    assert_same(&fixture("sample.c"));
}

#[test]
fn directives_read_as_the_grammar_reads_them() {
    for code in [
        "#include <stdio.h>\n#include \"local.h\"\n#  include <sys/time.h>\nint x;\n",
        "#include<stdio.h>\n#include MACRO_PATH\n#include \"x.h\" // why\nint y;\n",
        "#include <stdio.h>",
        "int main() {\n#include \"inner.h\"\n  return 0;\n}\n",
        "#define MAX 100\n#define SQ(x) ((x) * (x))\n#define STR(x) #x\n#define bool int\n",
        "#define LONG(a, b) \\\n    do { a = b; } while (0)\n#define F(a, ...) \\\n  a + \\\n  1\nint z;\n",
        "#define VERSION \"1.0\" /* string */\n#define EMPTY\n#define NEG -1\nint g;\n",
        "#ifndef GUARD\n#define GUARD\n#endif\n",
        "#if defined(X) && X > -1\nint a = 1;\n#elif defined Y\nint a = 2;\n#else\nint a = 3;\n#endif\n",
        "#if A \\\n  && B\n#endif\n#pragma once\n#undef MAX\n#error stop's here\n",
        "int f(int n) {\n#ifdef DEBUG\n  printf(\"%d\\n\", n);\n#endif\n  return n;\n}\n",
        "#define X 1\\\n",
        "#include <stdio.h>  \n#include \"a.h\"\t\nint x;\n# \nint y; # (\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn a_name_followed_by_space_takes_the_next_line_as_its_body() {
    // The grammar reads space after a macro's name, then a line break, as
    // the gap before its raw text, which is then the next line.
    for code in [
        "#define MAX_COMBO \n#define false 0\n#define true 1\nint x;\n",
        "#define EMPTY  \nint x;\n#define E2 /* c */\nint y;\n#pragma   \nint z;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn literals_read_as_the_grammar_reads_them() {
    for code in [
        "const char *s = L\"wide\" u8\"utf\" \"plain\" U\"c\" u\"d\";\n",
        "char c = 'a', c2 = L'b', c3 = '\\n', c4 = u8'x', c5 = U'y';\n",
        "double d = 1.5e-3, e = 1., f = .5, g = 2.f, h = 1.e5, i = 0x1p-3, j = 3.L;\n",
        "unsigned long long u = 10ULL + 0x1Fu + 017 + 0b101 + 1e+5 + 1'000;\n",
        "int v = 123abc;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn signed_numbers_read_as_the_grammar_reads_them() {
    // Where an operand is expected the grammar's number takes its sign;
    // after an operand the sign is an operator.
    for code in [
        "int x = -1, y = +2, z = x - 1, w = x -1, v = x- 1;\n",
        "void f() { x = x - -1; x = (x)-1; x = x*-1; x = a[-1]; g(-1, -2); }\n",
        "int f(int x) { if (x == -1) return -1; switch (x) { case -1: break; case +2: break; } return x > -1 ? -2 : 0; }\n",
        "int arr[] = {-1, -2}; enum e { ONE = -1, TWO };\n",
        "void f() { z = (int)-1; u = (unsigned char)-1; p = (int *)-1; s = (size_t)-1; n = sizeof(int) - 1; }\n",
        "void f() { r = -0x1F; r = -1.5e3; r = -.5; }\n",
        "int f() { return sizeof(int) && a; n = sizeof(int)-1; n = sizeof(long) -1; }\n",
        // `(a) -1` is ambiguous in C; the grammar reads a cast where an
        // operator that binds tighter follows.
        "void f() { x = (x)-1; x = (x) -1 * a; x = (x)-1 / a; x = (x) -1 + a; x = (a) && b; }\n",
        "void f() { p = (FILE *)-1; q = (struct s *)-1; n = sizeof(a)-1; n = sizeof a -1; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn operators_read_as_the_grammar_reads_them() {
    for code in [
        "void f() { r = !r && r || -r; r = (r) & (r); r = *&r; r -= 1; r += -2; r *= -3; p = q->next; }\n",
        "void f() { p = q->NULL; p = s.TRUE; p = q->size_t; }\n",
        // Broken code (anonymised names): where only a unary operator can
        // stand, the grammar reads `->` as `-` and `>`, `&&` as two `&`.
        "void f() { for (i = ->; i <= -> && i < n; i++) {} ; ->= m; }\n",
        // `(a) && b + c`: to the grammar a cast of `&&b` to a type `a`
        // where an operator binding tighter than `&&` follows `b`.
        "void f() { x = -(a) && a + a; if ((a) && b[1](2) * c) g((a) && !b.c << d); }\n",
        "void f() { x = (a) && sizeof(b) + d; y = (a) && b; z = (a) && b || c + d; }\n",
        "void f() { x = sizeof (a) && b + c; y = (a) && b = c; z = (a) && b + c ? 1 : 2; }\n",
        // A number ending in `.`, a prefixed literal, a cast: one operand each.
        "void f() { x = -(-(a) && -1. + \"s\"); y = (a) && 1. * b; z = (a) && L\"w\" + a; }\n",
        "void f() { x = -(-(a) && (int)\"s\" + a); y = (a) && (long) b * c; }\n",
        // Array declarators end a cast's type, whatever their sizes hold;
        // a `*` before a name dereferences it.
        "void f() { x = (a[a]) && a - 0; y = (a[f(1)][]) && b * c; z = (int[3]) && b; w = (a[2]) -1; v = (a[a]) && b; }\n",
        // A type in parentheses before a sign casts the signed operand.
        "void f() { x = (a) && (int)-0; if (-(a) && (int *)-0) { } y = (a) && (int)-0 + 1; z = (a) && (b * c)-0; }\n",
        "void f() { x = (*a) && b - 0; y = (*a[2]) && b - 0; z = (int * const) && b - 0; w = (*a) -1; v = (b[0] = 1) && c - 0; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn words_are_classed_as_the_grammar_classes_them() {
    for code in [
        "int t = TRUE, ff = FALSE; void *p = NULL; bool b = true; size_t n = sizeof(int);\n",
        "__attribute__((unused)) static int h(int x) { return x; }\nuint8_t small; int64_t big;\n",
        "int include, define, pragma; _Bool flag;\n",
        // A function whose name was anonymised away.
        "int (void) { return 0; }\nchar (int) { return 0; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn include_lines_are_dropped_with_imports() {
    let code = "#include <stdio.h>\n#include \"a.h\"\nint main(void) { return 0; }\n";
    let tokens = tokenize(Language::C, code, true);
    assert_eq!(&code[tokens[0].range.clone()], "int");
    assert_same(code);
}

#[test]
fn dataset_c_files_read_as_the_grammar_reads_them() {
    assert_dataset_files_same_as_grammar(Language::C, "c");
}

#[test]
fn hostile_input_is_read_in_one_pass() {
    // The passes look a bounded distance back, so long runs of casts,
    // signs and directives cost time in proportion to their length.
    let soup = [
        "(", "int", ")", "-", "1", "->", "#", "define", "(", "\\", "#", "(",
    ]
    .repeat(20_000);
    let text = soup.join(" ");
    let tokens = tokenize(Language::C, &text, true);
    assert!(tokens.len() > 100_000, "{}", tokens.len());
    let casts = format!("x = {}1;", "(int)-".repeat(50_000));
    assert!(tokenize(Language::C, &casts, false).len() > 100_000);
    // Each `&&` after `(a)` looks over the operand after it, here a group
    // that never closes.
    let ands = format!("x = {}1;", "(a) && (".repeat(50_000));
    assert!(tokenize(Language::C, &ands, false).len() > 100_000);
}

mod generated {
    //! Random well-formed C built from the constructs the passes reason
    //! about — directives, signed and suffixed numbers, literal prefixes,
    //! casts, member access and logic operators — read both ways.

    use proptest::prelude::*;

    use super::assert_same;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["a", "b", "count", "xs"]).prop_map(str::to_owned)
    }

    /// A name, or a word the grammar reads as a keyword (but for a field).
    fn word() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["a", "b", "count", "TRUE", "NULL", "false"])
            .prop_map(str::to_owned)
    }

    fn number() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "0", "1", "42", "1.", "2.5", ".5", "1e-3", "1.5e+3", "2.f", "0x1F", "10UL", "017",
            "3.0L",
        ])
        .prop_map(str::to_owned)
    }

    fn c_type() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "int",
            "char",
            "unsigned long",
            "size_t",
            "double",
            "int *",
            "const char *",
        ])
        .prop_map(str::to_owned)
    }

    fn expression() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            word(),
            number(),
            number().prop_map(|n| format!("-{n}")),
            prop::sample::select(vec!["\"s\"", "L\"w\"", "u8\"u\"", "'c'", "L'x'", "'\\n'"])
                .prop_map(str::to_owned),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| format!("({e})")),
                (
                    inner.clone(),
                    prop::sample::select(vec![
                        "+", "-", "*", "<", ">", ">>", "==", "&&", "||", "&", "-", "+"
                    ]),
                    inner.clone()
                )
                    .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
                // A sign that touches the number after an operand: binary.
                // (After a group in parentheses C is ambiguous: `(a()) -1`
                // may cast `-1` to a function type; see the cases above.)
                (name(), prop::sample::select(vec!["-", "+"]), number())
                    .prop_map(|(l, op, n)| format!("{l} {op}{n}")),
                (name(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
                (c_type(), inner.clone()).prop_map(|(t, e)| format!("({t}){e}")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
                (
                    prop::sample::select(vec!["-", "+", "!", "~", "*", "&"]),
                    inner.clone()
                )
                    .prop_map(|(op, e)| format!("{op}({e})")),
                (inner.clone(), word()).prop_map(|(e, field)| format!("({e})->{field}")),
                (name(), inner).prop_map(|(a, i)| format!("{a}[{i}]")),
                c_type().prop_map(|t| format!("sizeof({t})")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        prop_oneof![
            (c_type(), name(), expression()).prop_map(|(t, v, e)| format!("{t} {v} = {e};")),
            (
                name(),
                prop::sample::select(vec!["=", "+=", "-=", ">>="]),
                expression()
            )
                .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
            expression().prop_map(|e| format!("return {e};")),
            (prop::sample::select(vec!["if", "while"]), expression())
                .prop_map(|(kw, e)| format!("{kw} ({e}) {{ }}")),
            (name(), number()).prop_map(|(v, n)| format!("switch ({v}) {{ case -{n}: break; }}")),
        ]
    }

    fn directive() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("#include <stdio.h>".to_owned()),
            Just("#include \"local.h\"".to_owned()),
            (name(), expression()).prop_map(|(n, e)| format!("#define M_{n} {e}")),
            (name(), expression()).prop_map(|(n, e)| format!("#define F_{n}(x, y) \\\n  {e}")),
            name().prop_map(|n| format!("#ifdef {n}\nint on_{n};\n#endif")),
            (name(), number()).prop_map(|(n, v)| {
                format!("#if defined({n}) && {n} > -{v}\nint on;\n#else\nint off;\n#endif")
            }),
            Just("#pragma once".to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_c_reads_as_the_grammar_reads_it(
            directives in prop::collection::vec(directive(), 0..4),
            body in prop::collection::vec(statement(), 1..6),
        ) {
            let code = format!(
                "{}\nint f(int a, int b) {{ {} }}\n",
                directives.join("\n"),
                body.join(" ")
            );
            assert_same(&code);
        }
    }
}

mod noise {
    //! Broken C made of the pieces the pass looks at — directive words,
    //! `#`, brackets, line continuations, literal prefixes, signs and
    //! number parts — never panics and keeps the front-end's invariants
    //! (spans in order, on character boundaries, inside the text).

    use copyhound_normalize::code::{CodeOptions, Language};
    use proptest::prelude::*;

    use super::super::support::check_invariants;

    fn c_noise() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "#", "include", "define", "if", "ifdef", "elif", "endif", "pragma", "undef", "defined",
            "<", ">", "\"", "'", "L", "u8", "u", "\\", "\\\n", "\n", " ", "(", ")", "{", "}", "[",
            "]", "-", "+", "->", ".", "*", "/", "%", "=", ",", ";", "1", "1.", "0x1p-3", "2.f",
            "1'000", "e", "int", "void", "sizeof", "size_t", "TRUE", "x", "_Bool", "/*", "*/",
            "//", "é",
        ]);
        prop::collection::vec(pieces, 0..80).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn broken_c_keeps_the_invariants(text in c_noise()) {
            for drop_imports in [false, true] {
                let options = CodeOptions { drop_imports, ..CodeOptions::default() };
                check_invariants(Language::C, &text, &options);
            }
        }
    }
}
