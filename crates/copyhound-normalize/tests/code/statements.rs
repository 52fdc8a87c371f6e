//! Statement normalisation (`StatementOptions`: dead code, canonical order,
//! counted loops as `while` loops): hand-made obfuscated copies, cases of
//! each rule, property tests on generated functions, and a snapshot of
//! each normalised fixture.

use std::fmt::Write as _;

use copyhound_normalize::NormalizedDocument;
use copyhound_normalize::code::{
    CodeOptions, Language, StatementOptions, normalize_code, tokenize,
};
use proptest::prelude::*;

use super::support::fixture;

fn options(dead: bool, order: bool) -> CodeOptions {
    CodeOptions {
        statements: StatementOptions {
            drop_dead_code: dead,
            canonical_order: order,
            ..StatementOptions::default()
        },
        ..CodeOptions::default()
    }
}

fn normalized(lang: Language, text: &str, dead: bool, order: bool) -> NormalizedDocument {
    let doc = normalize_code(lang, text, &options(dead, order));
    check_spans(lang, text, &doc);
    assert_eq!(
        doc,
        normalize_code(lang, text, &options(dead, order)),
        "{lang}: not deterministic"
    );
    doc
}

/// The source text of each symbol kept, in order, joined by spaces.
fn kept(lang: Language, text: &str, dead: bool, order: bool) -> String {
    let doc = normalized(lang, text, dead, order);
    doc.spans
        .iter()
        .map(|span| &text[span.range()])
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the pass promises of spans: each symbol's span is the span of a
/// token of the text, whole, and its own (no two symbols share one), so
/// spans lie inside the text, on character boundaries, and never overlap.
fn check_spans(lang: Language, text: &str, doc: &NormalizedDocument) {
    let tokens = tokenize(lang, text, false);
    let mut seen = std::collections::HashSet::new();
    for span in &doc.spans {
        let range = span.range();
        let token = tokens
            .iter()
            .find(|t| t.range.start == range.start)
            .unwrap_or_else(|| panic!("{lang}: span {range:?} is no token's"));
        assert_eq!(token.range, range, "{lang}: a token's whole span");
        assert!(
            seen.insert(range.start),
            "{lang}: two symbols share {range:?}"
        );
    }
}

#[test]
fn obfuscated_copies_normalise_to_their_originals() {
    for (lang, original, obfuscated) in [
        (
            Language::Java,
            "statements/Original.java",
            "statements/Obfuscated.java",
        ),
        (
            Language::C,
            "statements/original.c",
            "statements/obfuscated.c",
        ),
        (
            Language::Python,
            "statements/original.py",
            "statements/obfuscated.py",
        ),
    ] {
        let original = fixture(original);
        let obfuscated = fixture(obfuscated);
        let plain = |text: &str| normalized(lang, text, false, false).symbols;
        assert_ne!(plain(&original), plain(&obfuscated), "{lang}");
        assert_eq!(
            normalized(lang, &original, true, true).symbols,
            normalized(lang, &obfuscated, true, true).symbols,
            "{lang}:\n{}\n{}",
            kept(lang, &original, true, true),
            kept(lang, &obfuscated, true, true)
        );
    }
}

#[test]
fn normalised_fixtures() {
    for (lang, name) in [
        (Language::Java, "statements/Obfuscated.java"),
        (Language::C, "statements/obfuscated.c"),
        (Language::Python, "statements/obfuscated.py"),
    ] {
        let text = fixture(name);
        let mut out = String::new();
        for (dead, order, title) in [
            (true, false, "dead code dropped"),
            (true, true, "dead code dropped, canonical order"),
        ] {
            writeln!(out, "== {title}").unwrap();
            let doc = normalized(lang, &text, dead, order);
            for span in &doc.spans {
                let range = span.range();
                writeln!(
                    out,
                    "{:>4}..{:<4} {:?}",
                    range.start,
                    range.end,
                    &text[range.clone()]
                )
                .unwrap();
            }
        }
        insta::with_settings!({
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            description => format!("{name} read as {lang}, statements normalised"),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("statements_{}", name.replace(['/', '.'], "_")), out);
        });
    }
}

/// Java statements in a method body, as `kept` shows them.
fn java_body(body: &str) -> String {
    format!("class A {{ int f(int p, int[] q) {{ {body} }} }}")
}

fn java_kept(body: &str, dead: bool, order: bool) -> String {
    let text = java_body(body);
    let all = kept(Language::Java, &text, dead, order);
    let inner = all
        .strip_prefix("class A { int f ( int p , int [ ] q ) { ")
        .and_then(|rest| rest.strip_suffix(" } }"))
        .unwrap_or(&all);
    inner.to_owned()
}

#[test]
fn what_dead_code_is() {
    let cases = [
        // Declared, assigned, incremented, never read.
        ("int x = 1; x = 2; x++; return p;", "return p ;"),
        // Read by a live statement: kept, with what it depends on.
        (
            "int x = p; int y = x + 1; return y;",
            "int x = p ; int y = x + 1 ; return y ;",
        ),
        // A loop and a branch with nothing live inside.
        (
            "int s = 0; for (int i = 0; i < p; i++) { s += i; } if (p > 0) { s = 1; } return p;",
            "return p ;",
        ),
        // Calls, output and writes through a parameter or to a field are
        // effects, whatever they assign.
        (
            "int n = g(); System.out.println(1); q[0] = 1; this.f = 2; count++;",
            "int n = g ( ) ; System . out . println ( 1 ) ; q [ 0 ] = 1 ; this . f = 2 ; count ++ ;",
        ),
        // A pure call or an allocation is not; a constructor is.
        (
            "int n = Math.max(p, 1); List<Integer> l = new ArrayList<>(); Gui g = new Gui(); return p;",
            "Gui g = new Gui ( ) ; return p ;",
        ),
        // An empty statement.
        ("; ; return p;", "return p ;"),
    ];
    for (body, expected) in cases {
        assert_eq!(java_kept(body, true, false), expected, "{body}");
    }
}

#[test]
fn what_may_move() {
    // Independent declarations swap freely.
    assert_eq!(
        java_kept("int a = 1; int b = p; return a + b;", false, true),
        java_kept("int b = p; int a = 1; return a + b;", false, true)
    );
    // A read after a write, a write after a read, two writes: order kept.
    for (first, second) in [
        ("int a = p;", "int b = a;"),
        ("int b = a0;", "a0 = 2;"),
        ("x = 1;", "x = 2;"),
        // Two effects, or an effect and a read of outside state.
        ("g();", "h();"),
        ("g();", "int z = field;"),
    ] {
        let body = |a: &str, b: &str| format!("int a0 = p; int x; {a} {b} return a0 + x + p;");
        assert_ne!(
            java_kept(&body(first, second), false, true),
            java_kept(&body(second, first), false, true),
            "{first} {second}"
        );
    }
    // Nothing crosses a return.
    assert_ne!(
        java_kept(
            "int a = 1; if (p > 0) return 0; int b = 2; return a + b;",
            false,
            true
        ),
        java_kept(
            "int b = 2; if (p > 0) return 0; int a = 1; return a + b;",
            false,
            true
        )
    );
}

#[test]
fn python_and_cpp_follow_the_same_rules() {
    let py = |body: &str| kept(Language::Python, &format!("def f(p):\n{body}"), true, true);
    assert_eq!(
        py("    unused = 3\n    a = p\n    b = 2\n    return a + b\n"),
        py("    b = 2\n    a = p\n    return a + b\n")
    );
    assert_eq!(
        py("    x = 1\n    x += 1\n    return p\n"),
        "def f ( p ) : return p"
    );
    // What a module binds another module may import: never dead.
    let module = "LIMIT = 10\nunused = []\nclass A:\n    size = 1\n";
    assert_eq!(
        kept(Language::Python, module, true, false),
        kept(Language::Python, module, false, false)
    );
    let cpp = |body: &str| {
        kept(
            Language::Cpp,
            &format!("int f(int p) {{ {body} }}"),
            true,
            true,
        )
    };
    assert_eq!(
        cpp("int dead = 0; dead++; int a = p; cout << a; return a;"),
        cpp("int a = p; cout << a; return a;")
    );
    // `cout << a` is output: never dead, never moved across other output.
    assert!(cpp("int a = p; cout << a; return 0;").contains("cout << a"));
}

#[test]
fn other_languages_and_code_outside_functions_are_untouched() {
    for (lang, text) in [
        (Language::Go, "func f() int { x := 1; y := 2; return 3 }"),
        (
            Language::Java,
            "class A { int unused = 1; static int also; }",
        ),
        (Language::C, "int table[] = {1, 2, 3}; static int dead;"),
    ] {
        assert_eq!(
            kept(lang, text, true, true),
            kept(lang, text, false, false),
            "{lang}"
        );
    }
}

#[test]
fn for_loops_read_as_the_while_loops_they_equal() {
    let loops = CodeOptions {
        statements: StatementOptions {
            while_loops: true,
            ..StatementOptions::default()
        },
        ..CodeOptions::default()
    };
    let counted_c = "int f(int n) { int s = 0, i; for (i = 0; i < n; i++) { s += i; } return s; }";
    let while_c = "int f(int n) { int s = 0, i; i = 0; while (i < n) { s += i; i++; } return s; }";
    for (lang, counted, rewritten) in [
        (
            Language::Java,
            "class A { int f(int n) { int s = 0; for (int i = 0; i < n; i++) { s += i; } return s; } }",
            "class A { int f(int n) { int s = 0; int i = 0; while (i < n) { s += i; i++; } return s; } }",
        ),
        (Language::C, counted_c, while_c),
        (Language::Cpp, counted_c, while_c),
    ] {
        let doc = normalize_code(lang, counted, &loops);
        check_spans(lang, counted, &doc);
        assert_eq!(
            doc.symbols,
            normalize_code(lang, rewritten, &loops).symbols,
            "{lang}"
        );
        let plain = |text: &str| normalize_code(lang, text, &CodeOptions::default()).symbols;
        assert_ne!(plain(counted), plain(rewritten), "{lang}");
    }
    // A for-each loop has no `while` form; a `while` loop is as written.
    for text in [
        "class A { int f(int[] a) { int s = 0; for (int x : a) { s += x; } return s; } }",
        "class A { int f(int n) { while (n > 0) { n--; } return n; } }",
    ] {
        assert_eq!(
            normalize_code(Language::Java, text, &loops),
            normalize_code(Language::Java, text, &CodeOptions::default())
        );
    }
}

/// One generated statement: its Java and Python text, the variables it
/// reads and the one it writes (`None` for output), so that the tests
/// know which statements are independent.
#[derive(Clone, Debug)]
struct Generated {
    java: String,
    python: String,
    reads: Vec<usize>,
    writes: Option<usize>,
}

fn statement() -> impl Strategy<Value = Generated> {
    (0usize..4, 0usize..4, 0usize..4, 0i32..9).prop_map(|(form, target, source, constant)| {
        match form {
            0 => Generated {
                java: format!("v{target} = v{source} + {constant};"),
                python: format!("v{target} = v{source} + {constant}"),
                reads: vec![source],
                writes: Some(target),
            },
            1 => Generated {
                java: format!("v{target} = {constant};"),
                python: format!("v{target} = {constant}"),
                reads: Vec::new(),
                writes: Some(target),
            },
            2 => Generated {
                java: format!("v{target} += v{source} * v{target};"),
                python: format!("v{target} += v{source} * v{target}"),
                reads: vec![source, target],
                writes: Some(target),
            },
            _ => Generated {
                java: format!("System.out.println(v{source});"),
                python: format!("print(v{source})"),
                reads: vec![source],
                writes: None,
            },
        }
    })
}

fn independent(a: &Generated, b: &Generated) -> bool {
    let touches = |s: &Generated, v: usize| s.reads.contains(&v) || s.writes == Some(v);
    let output = |s: &Generated| s.writes.is_none();
    !(output(a) && output(b))
        && a.writes.is_none_or(|v| !touches(b, v))
        && b.writes.is_none_or(|v| !touches(a, v))
}

fn java_program(statements: &[String]) -> String {
    format!(
        "class T {{\n  void run(int v0) {{\n    int v1 = 1, v2 = 2, v3 = 3;\n    {}\n    System.out.println(v0 + v1 + v2 + v3);\n  }}\n}}\n",
        statements.join("\n    ")
    )
}

fn python_program(statements: &[String]) -> String {
    let mut text = String::from("def run(v0):\n    v1, v2, v3 = 1, 2, 3\n");
    for statement in statements {
        writeln!(text, "    {statement}").unwrap();
    }
    text.push_str("    print(v0 + v1 + v2 + v3)\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Inserting statements on fresh locals that nothing reads — declared,
    /// assigned, incremented, looped over — leaves the normalised stream
    /// as it was.
    #[test]
    fn inserted_dead_statements_change_nothing(
        body in prop::collection::vec(statement(), 0..12),
        insertions in prop::collection::vec((0usize..13, 0usize..5), 0..8),
    ) {
        let java: Vec<String> = body.iter().map(|s| s.java.clone()).collect();
        let python: Vec<String> = body.iter().map(|s| s.python.clone()).collect();
        let mut java_dead = java.clone();
        let mut python_dead = python.clone();
        for (n, &(at, form)) in insertions.iter().enumerate() {
            let (j, p) = match form {
                0 => (format!("int d{n} = {n};"), format!("d{n} = {n}")),
                1 => (format!("boolean d{n} = false; d{n} = true;"), format!("d{n} = False")),
                2 => (format!("int d{n} = v1; d{n}++;"), format!("d{n} = v1 + 1")),
                3 => (format!("String d{n} = \"\";"), format!("d{n} = []")),
                _ => (
                    format!("int d{n} = 0; for (int i = 0; i < 3; i++) {{ d{n} += i; }}"),
                    format!("d{n} = 0\n    for i in range(3):\n        d{n} += i"),
                ),
            };
            let at = at.min(java_dead.len());
            java_dead.insert(at, j);
            python_dead.insert(at, p);
        }
        for order in [false, true] {
            prop_assert_eq!(
                normalized(Language::Java, &java_program(&java), true, order).symbols,
                normalized(Language::Java, &java_program(&java_dead), true, order).symbols
            );
            prop_assert_eq!(
                normalized(Language::Python, &python_program(&python), true, order).symbols,
                normalized(Language::Python, &python_program(&python_dead), true, order).symbols
            );
        }
    }

    /// Swapping two adjacent independent statements leaves the canonical
    /// stream as it was; dependent statements keep their order in it.
    #[test]
    fn independent_statements_swap_freely(
        body in prop::collection::vec(statement(), 2..12),
        at in 0usize..11,
    ) {
        let at = at % (body.len() - 1);
        let mut swapped = body.clone();
        swapped.swap(at, at + 1);
        let texts = |b: &[Generated], python: bool| -> Vec<String> {
            b.iter().map(|s| if python { s.python.clone() } else { s.java.clone() }).collect()
        };
        let java = |b: &[Generated]| normalized(Language::Java, &java_program(&texts(b, false)), false, true).symbols;
        let python = |b: &[Generated]| normalized(Language::Python, &python_program(&texts(b, true)), false, true).symbols;
        if independent(&body[at], &body[at + 1]) {
            prop_assert_eq!(java(&body), java(&swapped));
            prop_assert_eq!(python(&body), python(&swapped));
        } else {
            // Each statement is on a line of its own, the third on.
            let text = java_program(&texts(&body, false));
            let line = |n: usize| {
                let start = text.split_inclusive('\n').take(n).map(str::len).sum::<usize>();
                start..start + text.split_inclusive('\n').nth(n).map_or(0, str::len)
            };
            let doc = normalized(Language::Java, &text, false, true);
            let first_symbol = |n: usize| {
                let range = line(n);
                doc.spans.iter().position(|span| range.contains(&(span.start as usize)))
            };
            prop_assert!(first_symbol(at + 3) < first_symbol(at + 4), "{}", text);
        }
    }
}

/// Code-like noise in the shapes the parsers look for: braces, brackets,
/// keywords, `;`, `:`, line breaks and indents.
fn structured_noise() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ":",
        ",",
        "=",
        "+=",
        "++",
        "x",
        "y",
        "int",
        "if",
        "else",
        "for",
        "while",
        "do",
        "try",
        "catch",
        "finally",
        "switch",
        "case",
        "default",
        "return",
        "break",
        "def",
        "class",
        "lambda",
        "\n",
        "\n    ",
        "\n        ",
        "\\\n",
        "#define X",
        "1",
        "\"s\"",
        "f(",
        "new",
        "A",
        "<",
        ">",
        "->",
        "@",
        "elif",
        "pass",
        "global",
    ]);
    prop::collection::vec(pieces, 0..80).prop_map(|pieces| pieces.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Broken code never makes the pass panic, and spans stay the tokens'
    /// own.
    #[test]
    fn noise_keeps_spans_honest(text in structured_noise()) {
        for lang in [Language::Java, Language::C, Language::Cpp, Language::CSharp, Language::Python] {
            let wrapped = format!("class A {{ void f() {{ {text} }} }}\nint g() {{ {text} }}\ndef h():\n    {text}\n");
            for (dead, order) in [(true, false), (false, true), (true, true)] {
                normalized(lang, &text, dead, order);
                normalized(lang, &wrapped, dead, order);
            }
            let all = CodeOptions {
                statements: StatementOptions { while_loops: true, ..options(true, true).statements },
                ..CodeOptions::default()
            };
            for text in [&text, &wrapped] {
                check_spans(lang, text, &normalize_code(lang, text, &all));
            }
        }
    }
}
