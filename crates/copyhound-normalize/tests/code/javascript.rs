//! The JavaScript lexer against the JavaScript grammar: the same tokens,
//! kinds and byte ranges, on the fixture, on hand-written cases of each
//! rule, on random well-formed JavaScript and on the JavaScript files
//! installed on the machine (npm's own).

use std::path::PathBuf;

use copyhound_normalize::code::Language;
use proptest::prelude::*;

use super::real_files::{assert_files_read_as_grammar, source_files, sources_dir};
use super::support::{assert_left_to_grammar, assert_same_as_grammar, fixture};

fn assert_same(text: &str) {
    assert_same_as_grammar(Language::JavaScript, text, false);
    assert_same_as_grammar(Language::JavaScript, text, true);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    assert_same(&fixture("sample.js"));
}

#[test]
fn slashes_are_regular_expressions_where_an_operand_starts() {
    for code in [
        "if (a) /x/.test(b); else /y/g.exec(c);\n{ } /z/.source;\n",
        "var o = {} / 2, q = (a) / 2, w = [1] / 2, e = a++ / 2, r = /=/.test(x); x /= 2;\n",
        "x = a\n/b/g\ny = function () {} / 2\nz = typeof /r/ + void /s/\n",
        "switch (s) { case 1: { t = /re/; break; } default: t = { a: 1 } / 2; }\n",
        "const r = /ab+[/]c\\//gi.test(s) ? 1 / 2 : a / b / c;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn words_are_keywords_where_the_grammar_parses_them_so() {
    for code in [
        "class K { static get\n  x() {} static async *[Symbol.iterator]() {} 'constructor'() {} get get() {} set set(v) {} static static() {} async async() {} #a = 1; static #b; m() { return #a in this; } static { init(); } }\n",
        "class F { number; constructed; class; delete() {} static x\n y = 1 }\n",
        "o = { get [x]() {}, set 'y'(v) {}, async *[z]() {}, get, set, async, static: 1, new: 2, class: 3, default: { if: 4 } };\n",
        "f1 = async x => x; f2 = async (a, b) => { return a }; f3 = async(a); f4 = async function () {};\n",
        "async function f() { await g(); await (0, h)(p); await (x).y; const v = await; }\n",
        "let [p1, p2] = arr; let {p3} = obj; let = 5; for (let i of xs) {} for (const of of list) {} for await (const x of it) {}\n",
        "let of = /x/, y; let\nof = 2; let\n[a] = b; if (a) let\nx = 1; let of\n= 2;\n",
        "var undefined = 1; x.undefined; y = undefined; lbl: while (1) { break lbl; continue lbl; }\n",
        "function* gen() { yield 1; yield* other(); } x = new.target; y = import.meta.url; using r = open();\n",
        "try { a() } catch { return } finally {}\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn literals_and_templates_are_the_grammars() {
    for code in [
        "n = [0.5, 1e10, .5, 5., 1n, 0b11n, 017, 09.5, 0X1f, 1_000_000, 0.1e-5, 0x1F_n];\n",
        "t = `a${`b${c}d`}e${f}` + `` + `\\`${g}\\`` + tag`q${z}`;\n",
        "s = ['a\\'b', \"c\\\"d\", '\\x41\\u0042\\u{1F600}', 'line\\\ncontinued'];\n",
        "h = a?.b ?? c ? .5 : d; a ??= b ||= c &&= d; x >>>= 1; y = a ** b;\n",
        "#!/usr/bin/env node\n@dec class D {} @dec.x(1) class E extends F {}\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn imports_and_one_line_requires_go_with_drop_imports() {
    for code in [
        "export default class {}\nexport * as ns from \"x\";\nexport { a1 as b1, c1 } from \"y\";\nimport x1, * as y1 from \"z\";\nimport \"side-effect\";\nimport json from \"./x.json\" with { type: \"json\" };\n",
        "const m1 = import.meta.url, m2 = await import(\"w\");\n",
        "import { async as a2, default as d2, get } from \"r\";\nexport { x3 as default, set as s3 };\nexport function as(u) { return u; }\n",
        "const r1 = require(\"a\"), r2 = 1\nconst { r3,\n  r4 } = require(\"b\")\nz = require(\"c\"); w2 = 3\nfunction f() { return require(\"d\") }\n",
        // A block's `}` ends its statement on the same line (minified
        // code): the `require` line is the declaration after it alone.
        "function g(){return 1}var r5=require(\"e\"),r6=2;if(a){b()}else{c()}var r7=require(\"f\")\ntry{d()}catch(e){}finally{}do{x()}while(y);var r8=require(\"g\")\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn jsx_reads_as_the_grammar_reads_it() {
    for code in [
        // Attributes of every kind, text, character references, members
        // and namespaces, fragments, comments in braces.
        "const e = <div className=\"x &amp; y\" id='q' data-id={1} {...rest} disabled>\n  Hello, {name}! &nbsp; a &lt; b\n  <Foo.Bar x={<b>bold</b>} />\n  <ns:tag a:b=\"c\"/>\n  <>frag {x ? <i/> : null}</>\n  {/* comment */}\n  {items.map(i => <li key={i}>{i}</li>)}\n</div>;\n",
        "function App() {\n  return (\n    <ul>\n      {list.map((item) => (\n        <Item key={item.id} {...item} onClick={() => select(item)} />\n      ))}\n    </ul>\n  );\n}\n",
        // Text of spaces alone is a token unless it starts a line; numeric
        // references; an element ends an operand, so `/` divides after it.
        "const a = <a> </a>, b = <b>\n</b>, c = <c>x&#123;y&#x1F;z</c>;\nx = cond ? <A/> : <B>text</B>\n/re/g.test(y)\n",
        "const el = <div // c\n  a=\"1\" /* x */ b='multi\nline' >{}</div>;\n",
        "function f() { if (a) return <p>it's a/b \"q\" // not a comment</p>; return <svg:rect {...props} />; }\n",
        "x = <Foo.Bar.Baz>t</Foo.Bar.Baz>;\nconst t = <p>\n  one&nbsp;two&copy;\n</p>;\nrender(<App />, document.getElementById(\"root\"));\n",
        "const list = items.filter(i => i.n < 3).map(i => <b>{i.n > 2 ? \"a\" : `t${<i/>}`}</b>);\n",
        "const w = <p>\r\n  crlf\r\n</p>;\r\nconst v = <p>\r\n</p>;\nexport default () => <><Child/></>;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn what_the_lexer_cannot_tell_is_left_to_the_grammar() {
    for code in [
        // Errors in JSX: a reserved word as a name, an `&` that starts no
        // reference, text that runs to the end, a stray `>`.
        "const e = <div class=\"x\">{y}</div>;\n",
        "const e = <this.X />;\n",
        "const e = <p>a & b</p>;\n",
        "const e = <p>&#1234567;</p>;\n",
        "const e = <p>open\n",
        "const e = <p>a > b</p>;\n",
        "x = 'open\n",
        "x = `open\n",
        "f(a;\n",
        "x = /open\n",
        "<!-- html comment\n",
        "\\u0061bc = 1;\n",
        // A call of `await`, or an awaited expression: the grammar reads
        // `g(await (a))` as either, by the statements around.
        "async function f() { if (x) { g(await (a)); } }\n",
    ] {
        assert_left_to_grammar(Language::JavaScript, code);
    }
}

/// npm's JavaScript (`/usr/lib/node_modules`, `/usr/share/nodejs`), or the
/// folder `COPYHOUND_JAVASCRIPT_SOURCES` names.
fn javascript_sources() -> Option<PathBuf> {
    sources_dir(
        "COPYHOUND_JAVASCRIPT_SOURCES",
        &[
            PathBuf::from("/usr/lib/node_modules"),
            PathBuf::from("/usr/share/nodejs"),
        ],
    )
}

#[test]
fn installed_javascript_reads_as_the_grammar_reads_it() {
    let Some(dir) = javascript_sources() else {
        eprintln!("skipped: no npm packages (set COPYHOUND_JAVASCRIPT_SOURCES)");
        return;
    };
    let files = source_files(&dir, &[".js", ".cjs", ".mjs", ".jsx"], &[]);
    // The lexer leaves `await (…)` to the grammar (see above), so it may
    // leave files the grammar reads without error.
    assert_files_read_as_grammar(
        Language::JavaScript,
        &dir.display().to_string(),
        &files,
        true,
    );
}

mod generated {
    //! Random well-formed JavaScript: the places where a slash is a
    //! division or a regular expression, a brace a block or an object, a
    //! word a keyword or a name.

    use super::*;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "a", "b", "xs", "$el", "_x", "get", "set", "of", "async", "let", "static", "from",
            "as", "é",
        ])
        .prop_map(str::to_owned)
    }

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "a", "if", "class", "new", "default", "get", "set", "static", "async", "await", "'s'",
            "42", "[k]", "return", "this",
        ])
        .prop_map(str::to_owned)
    }

    /// A word after `.`: any word is a name there.
    fn member() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "a", "if", "class", "new", "default", "get", "await", "return", "this", "target",
        ])
        .prop_map(str::to_owned)
    }

    fn literal() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "0",
            "1.5",
            ".5",
            "0x1f",
            "10n",
            "1e3",
            "'s'",
            "\"t\"",
            "`u`",
            "/re/g",
            "/[/]x/",
            "null",
            "true",
            "this",
            "undefined",
        ])
        .prop_map(str::to_owned)
    }

    /// A JSX element whose attribute values and children in braces are
    /// `inner`'s expressions.
    fn element(inner: &BoxedStrategy<String>) -> impl Strategy<Value = String> + use<> {
        let tag = prop::sample::select(vec!["div", "Foo.Bar", "my-el", "svg:rect", "A", "é"]);
        let attribute = (
            prop::sample::select(vec!["a", "data-x", "on-click", "x:y", "get", "async"]),
            prop_oneof![
                Just(String::new()),
                Just("=\"v &amp; 'w'\"".to_owned()),
                Just("='multi\nline'".to_owned()),
                Just("=<i/>".to_owned()),
                inner.clone().prop_map(|e| format!("={{{e}}}")),
            ],
        )
            .prop_map(|(name, value)| format!(" {name}{value}"));
        let child = prop_oneof![
            prop::sample::select(vec![
                "hi",
                " two  words ",
                "\n  line\n  ",
                "&nbsp;",
                "&#65;&#x42;",
                "a/b 'q' \"r\"",
                "// no comment",
                " ",
                "\n",
            ])
            .prop_map(str::to_owned),
            inner.clone().prop_map(|e| format!("{{{e}}}")),
            Just("{/* c */}".to_owned()),
            Just("<br/>".to_owned()),
        ];
        (
            tag,
            prop::collection::vec(attribute, 0..3),
            prop::collection::vec(child, 0..4),
            any::<bool>(),
        )
            .prop_map(|(tag, attributes, children, fragment)| {
                let attributes = attributes.concat();
                if fragment {
                    format!("<>{}</>", children.concat())
                } else if children.is_empty() {
                    format!("<{tag}{attributes} />")
                } else {
                    format!("<{tag}{attributes}>{}</{tag}>", children.concat())
                }
            })
    }

    fn expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![name(), literal()];
        leaf.prop_recursive(3, 24, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    prop::sample::select(vec![
                        "+",
                        "-",
                        "*",
                        "/",
                        "%",
                        "**",
                        "==",
                        "===",
                        "!=",
                        "<",
                        ">=",
                        "&&",
                        "||",
                        "??",
                        "&",
                        "|",
                        "^",
                        "<<",
                        ">>>",
                        "instanceof",
                        "in"
                    ]),
                    inner.clone()
                )
                    .prop_map(|(l, op, r)| format!("({l}) {op} ({r})")),
                (
                    prop::sample::select(vec!["!", "-", "~", "typeof ", "void "]),
                    inner.clone()
                )
                    .prop_map(|(op, e)| format!("{op}({e})")),
                // `await (x)` the lexer leaves to the grammar.
                inner.clone().prop_map(|e| format!("await f_a({e})")),
                (name(), prop::collection::vec(inner.clone(), 0..3))
                    .prop_map(|(f, args)| format!("f_{f}({})", args.join(", "))),
                (inner.clone(), member()).prop_map(|(e, m)| format!("({e}).{m}")),
                (inner.clone(), inner.clone()).prop_map(|(e, i)| format!("({e})?.[{i}]")),
                prop::collection::vec((key(), inner.clone()), 0..3).prop_map(|pairs| {
                    let pairs: Vec<String> = pairs
                        .into_iter()
                        .map(|(k, v)| format!("{k}: {v}"))
                        .collect();
                    format!("({{{}}})", pairs.join(", "))
                }),
                prop::collection::vec(inner.clone(), 0..3)
                    .prop_map(|items| format!("[{}]", items.join(", "))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| format!("`t${{{a}}}u${{`v${{{b}}}`}}`")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| format!("({c}) ? ({a}) : ({b})")),
                inner.clone().prop_map(|e| format!("(x) => ({e})")),
                inner
                    .clone()
                    .prop_map(|e| format!("async (y) => {{ return {e} }}")),
                inner
                    .clone()
                    .prop_map(|e| format!("function (z) {{ return {e}; }}")),
                inner.clone().prop_map(|e| format!("new C({e})")),
                element(&inner.boxed()),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        let simple = prop_oneof![
            (prop::sample::select(vec!["const", "let", "var"]), expr())
                .prop_map(|(kw, e)| format!("{kw} v = {e};")),
            expr().prop_map(|e| format!("x = {e};")),
            expr().prop_map(|e| format!("x = {e}\n/re/g.test(y)")),
            expr().prop_map(|e| format!("f({e});")),
            expr().prop_map(|e| format!("return {e};")),
            Just("x++; --y; z /= 2;".to_owned()),
        ];
        simple.prop_recursive(2, 10, 3, |inner| {
            let block = prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|statements| format!("{{\n{}\n}}", statements.join("\n")));
            prop_oneof![
                (expr(), block.clone(), block.clone())
                    .prop_map(|(c, a, b)| format!("if ({c}) {a} else {b}")),
                (expr(), inner.clone()).prop_map(|(c, s)| format!("if ({c}) /r/.test({s:?});")),
                (name(), expr(), block.clone())
                    .prop_map(|(n, e, b)| format!("for (const {n} of {e}) {b}")),
                (expr(), block.clone()).prop_map(|(e, b)| format!("while ({e}) {b}")),
                (block.clone(), block.clone()).prop_map(|(a, b)| format!("try {a} catch (err) {b} finally {{}}")),
                (expr(), inner.clone()).prop_map(|(e, s)| {
                    format!("switch ({e}) {{\ncase 1: {{ {s} }}\ncase 2: x = {{ a: 1 }}; break;\ndefault:\n}}")
                }),
                (name(), block.clone()).prop_map(|(n, b)| format!("lbl_{n}: for (;;) {b}")),
                block.prop_map(|b| format!("function g_name(a, b = 1, ...rest) {b}")),
                (key(), expr()).prop_map(|(k, e)| format!(
                    "class Q extends P {{\n  static {k} = {e};\n  get {k}() {{ return this; }}\n  static async *m() {{ yield {e}; }}\n  #p = 1;\n}}"
                )),
            ]
        })
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_javascript_reads_as_the_grammar_reads_it(
            statements in prop::collection::vec(statement(), 1..6),
        ) {
            let code = format!(
                "import a1, {{ b1 as c1 }} from \"m\";\nconst fs = require(\"fs\");\n{}\nexport default {{}};\n",
                statements.join("\n")
            );
            assert_same(&code);
        }
    }
}
