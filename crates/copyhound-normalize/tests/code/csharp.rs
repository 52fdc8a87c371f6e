//! The C# lexer against the C# grammar: the same tokens, kinds and byte
//! ranges, with and without `drop_imports`, on the fixture, on
//! hand-written cases of each rule, on random well-formed C# and on the C#
//! sources of the machine (few: Debian and the registries ship C# as
//! compiled assemblies).

use std::path::PathBuf;

use copyhound_normalize::code::{Language, tokenize};

use super::real_files::{assert_files_read_as_grammar, source_files, sources_dir};
use super::support::{assert_same_as_grammar, fixture};

fn assert_same(text: &str) {
    assert_same_as_grammar(Language::CSharp, text, false);
    assert_same_as_grammar(Language::CSharp, text, true);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    assert_same(&fixture("sample.cs"));
}

#[test]
fn strings_read_as_the_grammar_reads_them() {
    for code in [
        "class D { string a = @\"C:\\x\"\"y\"\"\"; string b = \"\"\"\n  raw \"quoted\" text\n  \"\"\"; var h = \"abc\"u8; char i = '\\n'; }\n",
        "class D { string c = $\"x{y}z{{w}}{f(1, \"s\")}\"; string d = $@\"p{q}\\r\"; string e = @$\"p{q}\"; }\n",
        "class D { string f = $\"\"\"{x} and {{y}}\"\"\"; string g = $$\"\"\"{{x}} and {y}\"\"\"; }\n",
        "class D { string k = $\"{x,5:F2}\"; string l = $\"{(a ? b : c)}\"; string m = $\"a{x:N2}b{y,-3}c\"; }\n",
        "class D { string n = $\"{{}}{x}\"; string o = $\"{$\"in{x}\"}\"; string p = \"\"\"\"q\"\"\"\" ; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn contextual_words_are_classed_as_the_grammar_classes_them() {
    for code in [
        "class A { int P { get; set; } int Q { get => q; private init => q = value; } event E X { add { } remove { } } }\n",
        "class A { async Task<int> F() { var x = await G(); yield return 1; var var = 2; int get = 3; int value = 4; dynamic d = nameof(x); } }\n",
        "record R(int A); record struct S(int B); partial class B { } class C<T> where T : class, new() { }\n",
        "class A { void F() { var q = from x in xs where x > 0 orderby x descending select x; int from = 1; var select = 2; } }\n",
        "class A { void F() { var g = from x in xs group x by x.K into y select y; var j = from a in xs join b in ys on a.K equals b.K let c = a select c; } }\n",
        "class A { void F() { Func<int,int> f = x => x + 1; var g = (a, b) => a; var _ = M(); _ = M(); M(out _); } }\n",
        "class A { void F() { if (o is not null and { Length: > 0 }) { } var s = o switch { 1 => \"a\", _ => \"b\" }; var t = x with { A = 1 }; } }\n",
        "class A { void F() { if (o is _) {} switch (o) { case _: break; } var z = o switch { int n when n > 0 => n, _ => 0 }; try { } catch (E e) when (e.X) { } } }\n",
        "[assembly: Foo] class A { [field: NonSerialized] int x; global::System.String s; object c = @class; int P => 1; }\n",
        "class A { void F() { G(@foo => 1); G(@base => 1); G(static x => 1); var (_, d) = x; (_, _) = x; foreach (var (_, b) in xs) { } var a = b ? x => 1 : null; } string? N => n; public static List<int>? L => l; }\n",
        "unsafe class A { delegate* unmanaged[Cdecl, SuppressGCTransition]<int, void> p; delegate* managed<int> q; delegate*<int> s; int unmanaged; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn query_words_are_names_where_a_name_stands() {
    for code in [
        "class A { void F() { var q = from by in xs where this.a orderby by descending select by < o?.P; var s = from int on in xs let into = on join equals in ys on on equals equals select into; } }\n",
        "class A { void F() { var t = from x in xs orderby x ascending, base.y descending, F(x) select new { x }; var u = from x in xs orderby (a) descending, (b) ascending where (a) select x; } }\n",
        "class A { void F() { var v = from var in xs orderby var ascending select var; foreach (var async in xs) { } var w = from x in xs join record in ys on record equals x select x; } }\n",
        "class A { void F() { var q = from int select in xs where select > 0 select select; var r = from where in xs select where; } }\n",
        "class A { void F() { var q = a switch { 1 => from a in xs orderby a => a, a ascending group a by a => a into a select a, _ => 0 }; var r = from x in xs where x is int let y = x select y; } }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn lambdas_and_casts_read_as_the_grammar_reads_them() {
    for code in [
        // The one parameter of a lambda wherever an operand starts.
        "class A { void F() { a[a => a] = 1; foreach (var a in a => a) { } a += a => a; x = await a => a; x = a + b => b; x = from a in xs select a => a; } }\n",
        // `(a) && b` is a cast of `&(&b)` to the grammar; `(var)` a type
        // before an operand, a name before an operator.
        "class A { void F() { x = (a) && b; x = (A.B<C, D>[]) && b; x = f(a) && b; x = (0) && b; x = (a, b) && c; x = (var) - 1; x = (var) * 2; x = a(var) + 1; x = (var) && b; } }\n",
        // An array rank holds any expression to the grammar; a `(` after
        // a comparison's `>` may open a cast, one after type arguments
        // is a call's.
        "class A { void F() { x = (a[a..^1]) && a; y = a[a > (var)..^1]; z = this.a < var > (a); w = F<int>(x); } }\n",
        // `this` and `base` as a generic call's type argument are names
        // to the grammar; `var` is a keyword there only unqualified.
        "class A { void F() { x = a < this.a > (a); y = a.b < base.c.d > (a); z = a < this > (a); w = a < var.b > (a); v = a < this.a > a; } }\n",
        // So is every keyword that is no type; a type's keeps its kind.
        "class A { void F() { x = a < null > (b); x = a < true > (b); x = a < default > (b); x = a < null.b > (c); x = a < class > (b); x = a < int > (b); x = a < ref > (b); x = a < null > b; x = a < true ? b : c; } }\n",
        "class A { void F() { var (a, b) = t; var c = var(); x = o is var; x = o is List<int> ? a => 1 : null; x = a[1] ? b => 1 : null; when >>= 1; } int[]? P => p; }\n",
        // `(var) * …` is a cast of a dereference where the operand is a
        // name, or parentheses around names, member accesses, indexes
        // and type arguments ending in a name, `]` or `>`; else a product.
        "class A { void F() { x = (var) * a; x = (var) * (this.a); x = (var) * (o!.Q); x = (var) * ((a)); x = (var) * (*a); x = (var) * (a.b[0]); x = (var) * (a, b); x = (var) * a(); } }\n",
        "class A { void F() { x = (var) * 1; x = (var) * -a; x = (var) * (1); x = (var) * (a()); x = (var) * (a++); x = (var) * (a!); x = (var) * (a + b); x = (var) * new A(); x = a<List<int>>(var) * (a()); } }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn shifts_after_type_arguments_read_as_the_grammar_reads_them() {
    for code in [
        // A `>>` family closer with more `>`s than lists open after a
        // name closes them and is an operator after: `a<b> > c`.
        "class A { void F() { x = a < b >> c; x = a < b.c >> (d); x = a < b, c >> d; x = a < int >> 1; x = a < b? >> c; x = a < b * >> 1; x = a < b[] >> c; x = a < global::b >> c; } }\n",
        "class A { void F() { x = a < b >>> c; x = a < b < c >>> d; x = a < b >>= c; x = a < b < c >>= d; x = a < b >>>= c; x = a < b<c> >> d; x = a < b.c<d>.e >> f; F(a < b, c >> d); F((a, b < c >> d)); } }\n",
        // `this`, `base` and `var` there as in a generic call's one type
        // argument; an index holds any expression.
        "class A { void F() { x = this.a < this.a >> (a); x = a < base >> 1; x = a < var >> 1; x = a < var.b >> 1; x = a < null >> b; x = a < a[0 + 1] >> a; x = a < a[b > c] >> a; x = a < a[b >> c] >> a; x = a < a[x => 1] >> a; } }\n",
        // Not type arguments: a literal, a non-tuple in parentheses, a
        // `?.`, an operator, or no name before the `<`.
        "class A { void F() { x = a < 1 >> a; x = a < (c) >> a; x = a < b < (c) >> a; x = a < ((b, c)) >> a; x = a < (b, (c)) >> a; x = a < b?.c >> 1; x = a < b < c?.d >> e; x = a < a + b >> a; x = F<a>(b) < c >> 1; x = (a < a) >> a; } }\n",
        // Tuples are types.
        "class A { void F() { x = a < (c, d) >> a; x = a < (int, string) >> a; x = a < b < (c, d) >> a; } }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn operators_and_numbers_read_as_the_grammar_reads_them() {
    for code in [
        "class A { void F() { int? n = null; var q = o?.P ?? d; q ??= e; var r = xs[1..^1]; var u = o!.P; x >>>= 1; y = x >>> 2; } }\n",
        "class A { List<List<int>> l; Dictionary<string, List<int>> y; void F() { var z = a >> 2; bool v = a < b && c >> d; var w = a < b > c; } }\n",
        "class A { decimal a = 1.5m + 1_000 + 0x1F + 0b1010 + 1e3f + 10UL + 2.5e-3d + .5 + 1L; var b = 1.ToString(); var c = (int)-1 - -1; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn directives_read_as_the_grammar_reads_them() {
    assert_same(
        "#define DEBUG\n#region Stuff for now\nusing System;\n#if DEBUG && !TRACE\nclass A { }\n#elif X == true\nclass B { }\n#else\nclass C { }\n#endif\n#pragma warning disable CS0168, CS0219\n#nullable enable\n#endregion\n#error oops here\n#warning careful\n#line 200 \"x.cs\"\n#undef DEBUG\nclass D { void F() {\n#if X\n  int a = 1;\n#endif\n} }\n",
    );
    // Not first on its line, and spaces after the `#`.
    assert_same("class D { void F() { x = 1; #if X\n_ = a;\n  #  endif\n } }\n");
}

#[test]
fn using_directives_are_dropped_with_imports() {
    let code = "using System;\nusing static System.Math;\nusing X = System.Text;\nglobal using System.IO;\nextern alias Y;\nclass A { void F() { using (var r = G()) { } using var s = G(); } }\n";
    let tokens = tokenize(Language::CSharp, code, true);
    assert_eq!(&code[tokens[0].range.clone()], "extern");
    assert_same(code);
}

#[test]
fn hostile_input_is_read_in_one_pass() {
    // About 1 MB each. Interpolated strings open inside holes nest without
    // bound, type arguments are looked for as far as they go and aliases
    // to their `;`: every pass reads each byte a bounded number of times,
    // so these cost time in proportion to their length (the nested
    // strings cost minutes when each hole was measured before it was
    // read).
    let soup = [
        "List", "<", "a", "$\"{", "@", "\"\"\"", ">>", "from", "x", "in", "$$@$", "(",
    ]
    .repeat(40_000);
    let text = soup.join(" ");
    assert!(tokenize(Language::CSharp, &text, true).len() > 100_000);
    let nested = format!("class A {{ string s = {}; }}", "$\"{a + ".repeat(200_000));
    assert!(tokenize(Language::CSharp, &nested, false).len() > 500_000);
    let generics = format!("class A {{ {} x; }}", "B<C, D<(int, E<F<".repeat(50_000));
    assert!(tokenize(Language::CSharp, &generics, false).len() > 500_000);
    let aliases = "using A = B.C<D> ".repeat(60_000);
    assert!(tokenize(Language::CSharp, &aliases, true).len() > 300_000);
    let signs = format!("{}x", "$".repeat(1_000_000));
    assert!(tokenize(Language::CSharp, &signs, false).len() > 500_000);
}

#[test]
fn the_machines_csharp_sources_read_as_the_grammar_reads_them() {
    // Debian and the registries ship C# compiled; sources come with a few
    // packages: npm's node-gyp has one, and `COPYHOUND_CSHARP_DIR` may
    // name more (the source archive of pythonnet 3.2.1 on PyPI, unpacked,
    // has 150).
    let defaults = [PathBuf::from("/usr/lib/node_modules")];
    let Some(dir) = sources_dir("COPYHOUND_CSHARP_DIR", &defaults) else {
        eprintln!("skipped: no /usr/lib/node_modules (set COPYHOUND_CSHARP_DIR)");
        return;
    };
    let files = source_files(&dir, &[".cs"], &[]);
    if files.is_empty() {
        eprintln!("skipped: no C# sources under {}", dir.display());
        return;
    }
    assert_files_read_as_grammar(Language::CSharp, &dir.display().to_string(), &files, false);
}

mod generated {
    //! Random well-formed C# built from the constructs the pass reasons
    //! about — contextual words in both roles, patterns, queries, lambdas,
    //! generics and their closers, verbatim, raw and interpolated strings,
    //! directives and `using` — read both ways.

    use copyhound_normalize::code::Language;
    use proptest::prelude::*;

    use super::super::real_files::grammar_finds_error;
    use super::assert_same;

    fn select(items: &[&'static str]) -> impl Strategy<Value = String> + Clone {
        prop::sample::select(items.to_vec()).prop_map(str::to_owned)
    }

    /// A name, or a contextual word used as one.
    fn name() -> impl Strategy<Value = String> + Clone {
        select(&[
            "a", "b", "count", "xs", "var", "get", "value", "from", "select", "record", "where",
            "when", "by",
        ])
    }

    fn literal() -> impl Strategy<Value = String> + Clone {
        select(&[
            "0",
            "42",
            "1.5",
            ".5",
            "1e-3",
            "2.5f",
            "0x1F",
            "10UL",
            "1_000",
            "3.0m",
            "\"s\"",
            "@\"v\"\"q\"",
            "\"u\"u8",
            "\"\"\"raw \"q\" \"\"\"",
            "$\"i{a}n{{b}}\"",
            "$@\"v{a}\"",
            "$\"f{a,3:N2}\"",
            "'c'",
            "'\\n'",
            "true",
            "null",
        ])
    }

    fn cs_type() -> impl Strategy<Value = String> + Clone {
        select(&[
            "int",
            "string",
            "var",
            "int?",
            "int[]",
            "List<int>",
            "List<List<int>>",
            "Dictionary<string, List<int>>",
            "(int, string)",
        ])
    }

    fn expression() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            name(),
            literal(),
            select(&["this.a", "base.b", "o?.P", "o!.Q"])
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| format!("({e})")),
                (
                    inner.clone(),
                    select(&[
                        "+", "-", "*", "<", ">", ">>", "==", "&&", "||", "??", "<="
                    ]),
                    inner.clone()
                )
                    // A lambda right of `>`, `>>` or `*` (no C#, but the
                    // grammar reads one) looks like a member after its type
                    // (`List<int> P => …`, `List<List<int>> P`, `T* P`).
                    .prop_map(|(l, op, r)| if matches!(op.as_str(), ">" | ">>" | "*") {
                        format!("{l} {op} ({r})")
                    } else {
                        format!("{l} {op} {r}")
                    }),
                // No relational pattern: the grammar reads `(a) is > 0` as
                // a cast of a name `is`.
                (
                    inner.clone(),
                    select(&["int", "null", "string s", "List<int>", "not null", "var v"])
                )
                    .prop_map(|(e, pattern)| format!("{e} is {pattern}")),
                (name(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
                (name(), inner.clone()).prop_map(|(f, e)| format!("{f}<List<int>>({e})")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
                (name(), inner.clone()).prop_map(|(x, e)| format!("{x} => {e}")),
                (name(), name(), inner.clone()).prop_map(|(x, y, e)| format!("({x}, {y}) => {e}")),
                inner.clone().prop_map(|e| format!("await {e}")),
                inner
                    .clone()
                    .prop_map(|e| format!("o is not null and {{ Length: > 0 }} && {e}")),
                (inner.clone(), inner.clone()).prop_map(|(s, e)| format!(
                    "{s} switch {{ 1 => {e}, int n when n > 0 => n, _ => 0 }}"
                )),
                // `where {e} == true`: the grammar reads `(a) orderby` as
                // a cast of a name `orderby`.
                (name(), inner.clone()).prop_map(|(x, e)| format!(
                    "from {x} in xs where {e} == true orderby {x} descending select {x}"
                )),
                (name(), name(), inner.clone()).prop_map(|(x, y, e)| format!(
                    "from {x} in xs orderby {e}, {x} ascending, {y} descending group {x} by {e} into {y} select {y}"
                )),
                (name(), name(), inner.clone()).prop_map(|(x, y, e)| format!(
                    "from int {x} in xs join {y} in ys on {x} equals {e} let {y} = {e} select new {{ {x}, {y} }}"
                )),
                inner
                    .clone()
                    .prop_map(|e| format!("new {{ A = {e} }} with {{ A = 1 }}")),
                (name(), inner).prop_map(|(a, i)| format!("{a}[{i}..^1]")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        prop_oneof![
            (cs_type(), name(), expression()).prop_map(|(t, v, e)| format!("{t} {v} = {e};")),
            (name(), select(&["=", "+=", "??=", ">>="]), expression())
                .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
            expression().prop_map(|e| format!("return {e};")),
            expression().prop_map(|e| format!("yield return {e};")),
            (select(&["if", "while"]), expression())
                .prop_map(|(kw, e)| format!("{kw} ({e}) {{ }}")),
            (name(), expression()).prop_map(|(v, e)| format!("foreach (var {v} in {e}) {{ }}")),
            expression().prop_map(|e| format!("using (var r = {e}) {{ }}")),
            name().prop_map(|v| format!(
                "switch ({v}) {{ case 1 when {v} > 0: break; case _: break; }}"
            )),
            expression().prop_map(|e| format!("try {{ }} catch (Exception e) when ({e}) {{ }}")),
            expression().prop_map(|e| format!("#if DEBUG\n_ = {e};\n#endif\n")),
        ]
    }

    fn member() -> impl Strategy<Value = String> {
        prop_oneof![
            (cs_type(), name())
                .prop_map(|(t, n)| format!("public {t} P_{n} {{ get; private set; }}")),
            (cs_type(), name(), expression())
                .prop_map(|(t, n, e)| format!("public {t} Q_{n} => {e};")),
            name().prop_map(|n| format!("public record R_{n}(int A, string B);")),
            name().prop_map(|n| format!("[field: NonSerialized] private int f_{n};")),
        ]
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_csharp_reads_as_the_grammar_reads_it(
            members in prop::collection::vec(member(), 0..3),
            body in prop::collection::vec(statement(), 1..6),
        ) {
            let code = format!(
                "using System;\nusing static System.Math;\nnamespace N;\n#region R\npublic partial class C<T> where T : class {{\n{}\n  async Task<int> F(int a, int b) {{ {} }}\n}}\n#endregion\n",
                members.join("\n"),
                body.join(" ")
            );
            // Well-formed C# the grammar errs on (`case 1 when async > 0:`)
            // is read by its error recovery, which no local rule predicts.
            prop_assume!(!grammar_finds_error(Language::CSharp, &code));
            assert_same(&code);
        }
    }
}

mod noise {
    //! Broken C# made of the pieces the passes look at never panics and
    //! keeps the front-end's invariants.

    use copyhound_normalize::code::{CodeOptions, Language};
    use proptest::prelude::*;

    use super::super::support::check_invariants;

    fn cs_noise() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "#", "if", "region", "\n", " ", "(", ")", "[", "]", "{", "}", "{{", "}}", "<", ">",
            ">>", "$", "@", "\"", "\"\"\"", "'", ":", ",", ".", "..", "?", "=>", "u8", "x", "var",
            "from", "in", "is", "_", "using", ";", "/*", "*/", "//", "é",
        ]);
        prop::collection::vec(pieces, 0..80).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn broken_csharp_keeps_the_invariants(text in cs_noise()) {
            for drop_imports in [false, true] {
                let options = CodeOptions { drop_imports, ..CodeOptions::default() };
                check_invariants(Language::CSharp, &text, &options);
            }
        }
    }
}
