//! The Java lexer against the Java grammar it replaced: the same tokens,
//! kinds and byte ranges, on the fixture, on hand-written cases of each
//! rule, and on every Java file of the evaluation data sets.

use copyhound_normalize::code::{Language, tokenize};

use super::support::{assert_dataset_files_same_as_grammar, assert_same_as_grammar, fixture};

fn assert_same(text: &str, drop_imports: bool) {
    assert_same_as_grammar(Language::Java, text, drop_imports);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    let text = fixture("Sample.java");
    assert_same(&text, false);
    assert_same(&text, true);
}

#[test]
fn nested_type_arguments_close_with_single_angles() {
    for code in [
        "class A { Map<String, List<Integer>> m = new HashMap<>(); }",
        "class A { List<List<List<Integer>>> deep; }",
        "class A { <T extends Comparable<T>> void sort(List<T> xs) {} }",
        "class A { void f() { x = a >> 2; y = b >>> c; z = p < q ? r : s; if (i < n && j > m) {} } }",
        "class A { void f() { x = Collections.<List<String>>emptyList(); } }",
        "class A { Class<?>[] types; Map.Entry<K, V[]> e; }",
    ] {
        assert_same(code, false);
    }
}

#[test]
fn whole_operand_parentheses_go_as_the_grammar_drops_them() {
    for code in [
        "class A { int x = (a + b), y = ((c)); }",
        "class A { void f() { x = (y); x += (a * b); return (x); } }",
        "class A { int f() { g((a + b), (c)); new B((d)); this.<T>h((e)); return ((x)); } }",
        "class A { void f() { if ((a)) {} while (((b))) {} do {} while ((c)); switch ((k)) {} } }",
        "class A { void f() { if ((a) > b) {} x = (a) + b; x = (int) (y); x = (String) s; } }",
        "class A { void f() { x = c ? (a) : (b); x = -(a); x = (a).b; x = (a)[0]; throw (e); } }",
        "class A { void f() { r = (a, b) -> (a + b); for (int i = (0); i < (n); i++) {} } }",
        "class A { void f() { int[] v = {(1), (2)}; (x).run(); y = new int[(n)]; } }",
        "@A(v = (1)) class B { @C((2)) int x; void f() { while ((line = r.read()) != null) {} } }",
        "class A { A() { this((1)); } A(int a) { super((a)); } }",
        "class A { void f() { x = a > (b) ? (c) : d; y = new ArrayList<>((xs)); } }",
    ] {
        assert_same(code, false);
    }
}

#[test]
fn import_and_package_declarations_drop_up_to_their_semicolon() {
    let code = "package a.b;\nimport java.util.*; import static java.lang.Math.max;\npublic class C { int importCount; }";
    assert_same(code, true);
    assert_same(code, false);
}

#[test]
fn odd_words_are_classed_as_the_grammar_classes_them() {
    assert_same(
        "@interface Marker { int goto = 1; } class A { Object const; }",
        false,
    );
}

#[test]
fn bracket_soup_is_read_in_one_pass() {
    // Each pass looks a bounded distance back or ahead, so hostile input
    // costs time in proportion to its length (a quadratic pass would take
    // minutes here), and unbalanced brackets are no error.
    let soup = [
        "(", "<", "a", ">>", "=", ")", "@", "x", ".", "for", "(", "(", "<",
    ]
    .repeat(20_000);
    let text = soup.join(" ");
    let tokens = tokenize(Language::Java, &text, true);
    assert!(tokens.len() > 200_000, "{}", tokens.len());
    let nested = format!(
        "class A {{ int x = {}1{}; }}",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    let tokens = tokenize(Language::Java, &nested, false);
    assert!(
        tokens.iter().all(|t| &nested[t.range.clone()] != "("),
        "all redundant"
    );
}

#[test]
fn dataset_java_files_read_as_the_grammar_reads_them() {
    assert_dataset_files_same_as_grammar(Language::Java, "java");
}

mod generated {
    //! Random well-formed Java built from the constructs the passes reason
    //! about — nested parentheses, casts, calls, lambdas, conditions,
    //! generic types and shifts — read both ways.

    use proptest::prelude::*;

    use super::assert_same;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["a", "b", "count", "xs", "Foo"]).prop_map(str::to_owned)
    }

    /// A type, possibly with nested type arguments (`Map<K, List<V>>`).
    fn java_type() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec!["int", "String", "Integer", "T", "long"])
            .prop_map(str::to_owned);
        leaf.prop_recursive(3, 12, 2, |inner| {
            (
                prop::sample::select(vec!["List", "Map", "Set"]),
                prop::collection::vec(inner, 1..3),
            )
                .prop_map(|(outer, args)| {
                    let args: Vec<String> = args
                        .into_iter()
                        .map(|arg| match arg.as_str() {
                            "int" | "long" => "Integer".to_owned(),
                            _ => arg,
                        })
                        .collect();
                    format!("{outer}<{}>", args.join(", "))
                })
        })
    }

    fn expression() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            name(),
            (0u32..100).prop_map(|n| n.to_string()),
            Just("\"s\"".to_owned()),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| format!("({e})")),
                (
                    inner.clone(),
                    prop::sample::select(vec!["+", "*", "<", ">", ">>", ">>>", "==", "&&"]),
                    inner.clone()
                )
                    .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
                (name(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
                (
                    prop::sample::select(vec!["int", "String", "Foo"]),
                    inner.clone()
                )
                    .prop_map(|(t, e)| format!("({t}) {e}")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
                inner.clone().prop_map(|e| format!("-{e}")),
                inner.clone().prop_map(|e| format!("(x) -> {e}")),
                (inner.clone(), name()).prop_map(|(e, field)| format!("({e}).{field}")),
                (java_type(), prop::collection::vec(inner, 0..2))
                    .prop_map(|(t, args)| format!("new {t}({})", args.join(", "))),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        prop_oneof![
            (java_type(), name(), expression()).prop_map(|(t, v, e)| format!("{t} {v} = {e};")),
            (
                name(),
                prop::sample::select(vec!["=", "+=", ">>="]),
                expression()
            )
                .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
            expression().prop_map(|e| format!("return {e};")),
            (prop::sample::select(vec!["if", "while"]), expression())
                .prop_map(|(kw, e)| format!("{kw} ({e}) {{ }}")),
            (name(), prop::collection::vec(expression(), 0..3))
                .prop_map(|(f, args)| format!("{f}({});", args.join(", "))),
        ]
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_java_reads_as_the_grammar_reads_it(
            body in prop::collection::vec(statement(), 1..6),
        ) {
            let code = format!("class C {{ <T> Object m() {{ {} }} }}", body.join(" "));
            assert_same(&code, false);
        }
    }
}

#[test]
fn contextual_keywords_and_switch_rules_read_as_the_grammar_reads_them() {
    for code in [
        "record Point(int x, int y) { } class A { Object record; void f() { record = null; } }",
        "record Pair<A, B>(A a, B b) { }",
        "sealed interface S permits A, B { } final class A implements S { } non-sealed class B implements S { }",
        "class A { int f(int k) { return switch (k) { case 1 -> (k); case 2, 3 -> { yield (k); } default -> { yield k + 1; } }; } }",
        "class A { void f(int k) { switch (k) { case 1 -> (x).run(); default -> g((k)); } } }",
        "class A { void f() { Runnable r = () -> g((1)); h(x -> (x)); int yield = 1; yield = (2); } }",
        "class A { void f() { var x = (1); } }",
    ] {
        assert_same(code, false);
    }
}
