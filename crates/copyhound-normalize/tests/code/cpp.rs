//! The C++ lexer against the C++ grammar: the same tokens, kinds and byte
//! ranges, with and without `drop_imports`, on the fixture, on
//! hand-written cases of each rule, on random well-formed C++ and on the
//! C++ headers of the machine (where the grammar reads them without
//! error).

use std::path::PathBuf;

use copyhound_normalize::code::{Language, tokenize};

use super::real_files::{assert_files_read_as_grammar, source_files, sources_dir};
use super::support::{assert_same_as_grammar, fixture};

fn assert_same(text: &str) {
    assert_same_as_grammar(Language::Cpp, text, false);
    assert_same_as_grammar(Language::Cpp, text, true);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    assert_same(&fixture("sample.cpp"));
}

#[test]
fn literals_read_as_the_grammar_reads_them() {
    for code in [
        "auto c = u8\"x\" L\"y\" R\"d(raw \"quoted\" )\" text)d\" LR\"(x)\" u8R\"(z)\";\n",
        "auto e = R\"(a\nb)\"; auto f = R\"--(x)\")--\"; int g = 1;\n",
        "auto a = \"abc\"s; auto b = 'x'_c; auto d = u8\"x\"sv; auto e = \"a\" \"b\" \"c\"_s;\n",
        "auto n = 1.5_km + 10ULL + 0x1Fu + 1'000'000 + 12_x + 3.f + 1e5f + 0b1010 + 2z;\n",
        "auto m = 1.0f16 + 123abc + 1.2.3 + 0x1p-3 + 0x1.8p3f + .5e-2L + 07 + 10uz + 5LLU;\n",
        "char c = u8'a', d = L'b', e = '\\n', f = U'c';\n",
        // A literal's suffix opens no template arguments: `>>` shifts.
        "void f() { a = 'c'_ch < a >> a; b = \"s\"_s < b >> b; c = 1_km < c >> c; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn templates_read_as_the_grammar_reads_them() {
    for code in [
        "std::vector<std::vector<int>> v; std::map<int, std::vector<int>> m;\n",
        "template <typename T, int N = (1 >> 2)> class A { std::array<T, N> a; };\n",
        "void f() { x = a >> b; y = a < b > c; v = f<int>(x) >> 2; t = x > y >> 1; }\n",
        "void f() { v = static_cast<int>(-1); w = a<b>-1; u = f<3>(-1); q = a < b >= c; }\n",
        // The grammar reads a template wherever it can, so a comparison
        // followed by `>>` or by `>` and a sign is one to it.
        "void f() { if (a < b && c >> d) {} bool b = i < n >> 1; x = a < b ? c : d > -1; }\n",
        "void f() { for (i = 0; i < n && a[i] > -1; i++) {} if (i < n && j > 0) {} }\n",
        "void f() { s = a.b<c>-1; r = p->q < r > -1; x = a < 0 || b > -1; }\n",
        "auto p = std::make_unique<Foo<int>>(1); std::function<void(int)> g;\n",
        "template <class T> using Vec = std::vector<T>; Vec<Vec<int>> w;\n",
        // A list inside brackets inside a list is a list too.
        "int f() { return a + this->a < sizeof(std::vector<std::vector<int>>) + a > a; x = a < (b<c<int>>) + a > a; }\n",
        // After a member or a qualified name, a `>=` or `>>=` closes a
        // list of names and assigns; a literal or `.` inside compares.
        "int f() { x = this->a < a >= a; y = p.a < b, c >= a; z = a::b < c >= a; w = a < a >= a; }\n",
        "int f() { x = p->a < b<c>>= a; y = p->a < b<c> >= a; z = p->a < a >>= a; w = p->a < 1 >= a; v = p->a < a.b >= a; }\n",
        // A `>>` after a member's argument that cannot be a type shifts;
        // after a name, a call (a function type) or elsewhere it closes.
        "int f() { x = p->a < 0 >> a; y = p.a < \"s\" >> a; z = p->a < (0) >> a; w = p->a < f(b) >> a; v = p->a < b >> a; u = a < (0) >> a; t = p->a < 0, b >> a; }\n",
        // `sizeof` of a qualified type is an operand: `&&` after it is one
        // operator, where after a cast it would be two unary `&`.
        "void f() { b = sizeof(std::string) && (g(a)); c = sizeof(int) && x; d = (std::size_t)-1; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn attributes_and_operator_names_read_as_the_grammar_reads_them() {
    for code in [
        "[[nodiscard]] int h(); [[gnu::always_inline, deprecated(\"x\")]] void k();\n",
        "void h() { [[maybe_unused]] int x = a[b[c]]; switch (x) { case 1: [[fallthrough]]; default: break; } }\n",
        "void h() { x = a[[]{ return 0; }()]; auto l = [&](int y) -> bool { return y; }; }\n",
        "int operator()(int); bool operator[](int); T& operator=(const T&);\n",
        "void* operator new[](size_t); void operator delete[](void*); long double operator\"\"_km(long double);\n",
        "void f() { delete[] p; delete [] q; auto g = [=, &x]() mutable -> int { return 1; }; }\n",
        "void f() { return operator==(o); x.operator=(y); this->operator()(1); a = Foo::operator+(b, c); }\n",
        "bool A::operator<(const A& o) const { return 1; } A::operator bool() const { return 1; }\n",
        "struct B : A<int> { B<int> operator()(size_type n) const; };\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn a_name_in_parentheses_before_and_reads_as_the_grammar_reads_it() {
    // `(a) && b + c`: to the grammar a cast of `&&b` to a type `a` where
    // an operator binding tighter than `&&` follows `b`.
    for code in [
        "void f() { x = -(a) && a + a; if ((a) && b::c * d) g((a) && this->b << c); }\n",
        "void f() { x = sizeof (a) && b + c; y = (a) && b; z = (a) && b || c + d; }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn words_are_classed_as_the_grammar_classes_them() {
    for code in [
        "int final = 1; class A final : B { void f() override final; int override; };\n",
        "void f() const override { x.template foo<int>(); y = T::template bar<int>::baz; }\n",
        "std::size_t n = (std::size_t)-1; std::int8_t s; auto t = this; bool u = TRUE && nullptr;\n",
        "void f() { if (a and not b or c) {} x = compl y; co_return 1; }\n",
        "namespace ns { inline constexpr auto v = decltype(x){}; } int wchar_t_like; wchar_t w;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn directives_read_as_the_grammar_reads_them() {
    for code in [
        "#include <vector>\n#include \"a.h\"\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint x;\n",
        "#define X a<b>>c\n#define S \"abc\"s\n#define F final\nint y;\n",
        "#if defined(X) && X > -1\nint a = 1;\n#else\nint a = 2;\n#endif\n",
        "#define LONG(a) \\\n  do { a; } while (0) \\\n\n#define NEXT 1\nint z;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn using_declarations_are_dropped_with_imports() {
    let code = "#include <vector>\nusing namespace std;\nusing std::cout;\nusing T = int;\nint main() { using ::x; return 0; }\n";
    let tokens = tokenize(Language::Cpp, code, true);
    assert_eq!(&code[tokens[0].range.clone()], "using");
    assert_eq!(&code[tokens[1].range.clone()], "T");
    assert_same(code);
}

#[test]
fn hostile_input_is_read_in_one_pass() {
    // Template arguments are looked for a bounded distance ahead.
    let soup = ["a", "<", "b", "(", "[[", "R\"x(", ">>", "-", "1"].repeat(20_000);
    let text = soup.join(" ");
    assert!(tokenize(Language::Cpp, &text, true).len() > 100_000);
}

#[test]
fn the_machines_cpp_headers_read_as_the_grammar_reads_them() {
    // GCC's libstdc++ headers, or the folder `COPYHOUND_CPP_DIR` names
    // (Boost's, say: `/usr/include/boost` from `libboost-dev`). Every file
    // is read: the standard headers have no extension (`vector`).
    let defaults = [PathBuf::from("/usr/include/c++")];
    let Some(dir) = sources_dir("COPYHOUND_CPP_DIR", &defaults) else {
        eprintln!("skipped: no /usr/include/c++ (set COPYHOUND_CPP_DIR)");
        return;
    };
    let files = source_files(&dir, &[""], &[]);
    assert_files_read_as_grammar(Language::Cpp, &dir.display().to_string(), &files, false);
}

mod generated {
    //! Random well-formed C++ built from the constructs the pass reasons
    //! about — templates and their closers, literals with prefixes and
    //! suffixes, raw strings, attributes, operator names, lambdas,
    //! contextual words and `using` — read both ways.

    use proptest::prelude::*;

    use super::assert_same;

    fn select(items: &[&'static str]) -> impl Strategy<Value = String> + Clone {
        prop::sample::select(items.to_vec()).prop_map(str::to_owned)
    }

    fn name() -> impl Strategy<Value = String> + Clone {
        select(&["a", "b", "count", "xs", "final", "override"])
    }

    fn literal() -> impl Strategy<Value = String> + Clone {
        select(&[
            "0",
            "42",
            "1.5",
            ".5",
            "1e-3",
            "2.f",
            "0x1F",
            "10ULL",
            "1'000",
            "3.0L",
            "1.5_km",
            "12_x",
            "0b101",
            "\"s\"",
            "\"s\"s",
            "u8\"u\"",
            "L\"w\"",
            "R\"(r\"aw)\"",
            "R\"d(x)\"y)d\"",
            "'c'",
            "u'x'",
            "'\\n'",
            "'c'_ch",
            "true",
            "nullptr",
            "NULL",
        ])
    }

    fn cpp_type() -> impl Strategy<Value = String> + Clone {
        select(&[
            "int",
            "auto",
            "unsigned long",
            "std::size_t",
            "size_t",
            "std::string",
            "std::vector<int>",
            "std::vector<std::vector<int>>",
            "std::map<std::string, std::vector<int>>",
            "const char *",
            "Box<int, 3>",
        ])
    }

    fn expression() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            name(),
            literal(),
            literal().prop_map(|l| format!("-{l}")),
            select(&["this->a", "x.template get<int>()", "std::move(a)"]),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| format!("({e})")),
                (
                    inner.clone(),
                    select(&[
                        "+", "-", "*", "<", ">", ">>", "<<", "==", "&&", "||", "&", "<=", ">=",
                        "and", "or", "<=>",
                    ]),
                    inner.clone()
                )
                    .prop_map(|(l, op, r)| {
                        // Without knowing what names are, `(f(a)) and x` may
                        // be a cast of the name `and` to the type `f(a)`, and
                        // `(f(a)) && x` one of `&(&x)` (two tokens), as the
                        // grammar reads them; C++ reads the operator. `!=`
                        // cannot start an operand, so nothing is cast.
                        if matches!(op.as_str(), "and" | "or" | "&&") && l.ends_with(')') {
                            format!("{l} != 0 {op} {r}")
                        } else {
                            format!("{l} {op} {r}")
                        }
                    }),
                (name(), select(&["-", "+"]), literal())
                    .prop_map(|(l, op, n)| format!("{l} {op}{n}")),
                (name(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
                (name(), cpp_type(), inner.clone()).prop_map(|(f, t, e)| format!("{f}<{t}>({e})")),
                (cpp_type(), inner.clone()).prop_map(|(t, e)| format!("static_cast<{t}>({e})")),
                (select(&["int", "unsigned", "std::size_t"]), inner.clone())
                    .prop_map(|(t, e)| format!("({t})({e})")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
                (select(&["-", "!", "~", "*", "&", "not "]), inner.clone())
                    .prop_map(|(op, e)| format!("{op}({e})")),
                (inner.clone(), name()).prop_map(|(e, field)| format!("({e}).{field}")),
                // `[[` opens an attribute, so a lambda index is wrapped.
                (name(), inner.clone()).prop_map(|(a, i)| {
                    if i.starts_with('[') {
                        format!("{a}[({i})]")
                    } else {
                        format!("{a}[{i}]")
                    }
                }),
                inner
                    .clone()
                    .prop_map(|e| format!("[&](int v) -> bool {{ return {e}; }}(1)")),
                (select(&["int", "std::string", "Box<int, 3>"]), inner)
                    .prop_map(|(t, e)| format!("new {t}[{e}]")),
                cpp_type().prop_map(|t| format!("sizeof({t})")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        prop_oneof![
            (cpp_type(), name(), expression()).prop_map(|(t, v, e)| format!("{t} {v} = {e};")),
            (cpp_type(), name(), expression()).prop_map(|(t, v, e)| format!("{t} {v}{{{e}}};")),
            (
                name(),
                select(&["=", "+=", "-=", ">>=", "<<="]),
                expression()
            )
                .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
            expression().prop_map(|e| format!("return {e};")),
            (select(&["if", "while", "if constexpr"]), expression())
                .prop_map(|(kw, e)| format!("{kw} ({e}) {{ }}")),
            (name(), expression()).prop_map(|(v, e)| format!("for (auto& {v} : {e}) {{ }}")),
            name().prop_map(|v| format!("[[maybe_unused]] int {v}_ = 0; delete[] {v};")),
            name().prop_map(|v| format!(
                "switch ({v}) {{ case -1: [[fallthrough]]; default: break; }}"
            )),
            Just("using std::swap;".to_owned()),
        ]
    }

    fn declaration() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("#include <vector>".to_owned()),
            Just("#include \"local.hpp\"".to_owned()),
            Just("using namespace std;".to_owned()),
            cpp_type().prop_map(|t| format!("using Alias = {t};")),
            (name(), expression()).prop_map(|(n, e)| format!("#define M_{n} {e}")),
            (name(), expression()).prop_map(|(n, e)| {
                format!("template <typename T, int N = 3>\nclass Box_{n} final : public Base<T> {{\npublic:\n  T get(int i) const override {{ return {e}; }}\n  bool operator==(const Box_{n}& o) const;\n  T& operator[](int i);\n  int operator()(int v) {{ return v; }}\n  explicit operator bool() const noexcept {{ return true; }}\nprivate:\n  std::array<T, N> items_;\n}};")
            }),
            name().prop_map(|n| format!("[[nodiscard]] static inline int {n}_f() noexcept;")),
            name().prop_map(|n| format!("namespace {n}_ns {{ constexpr auto k = 1'000; }}")),
        ]
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_cpp_reads_as_the_grammar_reads_it(
            declarations in prop::collection::vec(declaration(), 0..4),
            body in prop::collection::vec(statement(), 1..6),
        ) {
            let code = format!(
                "{}\nint f(int a, int b) {{ {} }}\n",
                declarations.join("\n"),
                body.join(" ")
            );
            assert_same(&code);
        }
    }
}

mod noise {
    //! Broken C++ made of the pieces the pass looks at never panics and
    //! keeps the front-end's invariants.

    use copyhound_normalize::code::{CodeOptions, Language};
    use proptest::prelude::*;

    use super::super::support::check_invariants;

    fn cpp_noise() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "#",
            "include",
            "define",
            "\\\n",
            "\n",
            " ",
            "(",
            ")",
            "[",
            "]",
            "[[",
            "]]",
            "{",
            "}",
            "<",
            ">",
            ">>",
            ">=",
            "-",
            "+",
            "1",
            "1.5_km",
            "'",
            "\"",
            "R\"",
            "R\"x(",
            ")x\"",
            "u8",
            "L",
            "s",
            "operator",
            "new",
            "delete",
            "template",
            "final",
            "::",
            ".",
            "->",
            ";",
            ",",
            "using",
            "namespace",
            "x",
            "int",
            "/*",
            "*/",
            "//",
            "é",
        ]);
        prop::collection::vec(pieces, 0..80).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn broken_cpp_keeps_the_invariants(text in cpp_noise()) {
            for drop_imports in [false, true] {
                let options = CodeOptions { drop_imports, ..CodeOptions::default() };
                check_invariants(Language::Cpp, &text, &options);
            }
        }
    }
}
