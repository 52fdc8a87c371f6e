//! The TypeScript lexer (the JavaScript lexer with TypeScript's rules)
//! against the TypeScript and TSX grammars: the same tokens, kinds and
//! byte ranges, on the fixtures, on hand-written cases of each rule, on
//! random well-formed TypeScript and on the TypeScript files of a folder
//! (`COPYHOUND_TYPESCRIPT_SOURCES`; the data sets hold none).

use std::path::PathBuf;

use copyhound_normalize::code::Language;
use proptest::prelude::*;

use super::real_files::{assert_files_read_as_grammar, source_files, sources_dir};
use super::support::{
    assert_dataset_files_same_as_grammar, assert_left_to_grammar, assert_same_as_grammar, fixture,
};

/// Asserts that both grammars read `text` as the lexer does, with and
/// without `drop_imports`.
fn assert_same(text: &str) {
    for lang in [Language::TypeScript, Language::Tsx] {
        assert_same_as_grammar(lang, text, false);
        assert_same_as_grammar(lang, text, true);
    }
}

#[test]
fn the_fixtures_read_as_the_grammar_reads_them() {
    assert_same(&fixture("sample.ts"));
    assert_same_as_grammar(Language::Tsx, &fixture("sample.tsx"), false);
    assert_same_as_grammar(Language::Tsx, &fixture("sample.tsx"), true);
}

#[test]
fn jsx_in_tsx_reads_as_the_grammar_reads_it() {
    for code in [
        "const C: React.FC<Props> = ({ a }: Props) => <div title={a as string}>{a!}</div>;\n",
        // Reserved words name attributes and elements in TSX.
        "const el = <div class=\"x\" for=\"y\"><this.X/>{`t ${a}`}</div>;\n",
        "function List<T>({ items }: { items: T[] }) {\n  return <ul>{items.map((i: T, n: number) => <li key={n}>{String(i)} &amp; more</li>)}</ul>;\n}\n",
        "const f = (x: number) => x < 2 ? <A n={x}/> : <></>;\n",
        // Generic arrow functions, not elements.
        "const d = <T,>(x: T) => x;\nconst e = <T extends object>(x: T): T => <div>{String(x)}</div>;\nconst g = <K, V = string>(m: Map<K, V>) => m;\n",
    ] {
        assert_same_as_grammar(Language::Tsx, code, false);
    }
}

#[test]
fn angle_brackets_where_an_operand_starts_are_the_grammars_in_typescript() {
    for code in [
        // Generic arrow functions and type assertions.
        "const a = <T>(x: T) => x;\nconst b = <number>c;\nconst d = <T, U extends keyof T = keyof T>(t: T, u: U): T[U] => t[u];\n",
        "const e = <const T,>(x: T): T => x;\nf(<Map<string, number[]>>g, <any>/re/, <T>(h));\nconst i = <string>(j) + 1;\n",
        "x = y < <number>z ? <A | B>w : <{ k: T }>v;\nconst k = async <T>(x: T) => x;\n",
    ] {
        assert_same_as_grammar(Language::TypeScript, code, false);
        assert_same_as_grammar(Language::TypeScript, code, true);
    }
}

#[test]
fn annotations_are_types_where_the_grammar_reads_them_so() {
    for code in [
        "let a: number = 1, b: string, c: Array<Map<string, number[]>>;\nconst [d, e]: [number, string?] = f;\nvar g!: boolean;\n",
        "function f(this: Window, a: number, b?: string, ...rest: any[]): void {}\nfunction g<T extends keyof U, U = {}>(x: T): x is T { return true; }\n",
        // Optional destructured parameters: their `?` marks, not a ternary.
        "export declare function h({ a }?: Partial<{ a: boolean }>): void;\nfunction i([b]?: number[], { c }?: { c: string }) {}\nconst j = ({ d }?: { d: boolean }) => d ? 1 : 2;\n",
        "const h = (a: number, { b }: { b: string }): Promise<void> => g(a);\nconst i = async (a?: unknown): Promise<never> => { throw a; };\n",
        "let j: (a: number, b: string) => void;\nlet k: new () => Foo;\nlet l: typeof m.n;\nlet o: keyof typeof p;\nlet q: (string | number)[];\n",
        "let r: { a: number; b?: string, readonly c: T[]; [key: string]: unknown; m(x: number): void; new (x: T): U; (y: T): V };\n",
        "let s: { readonly [K in keyof T]?: T[K] }; let t: { -readonly [K in T as Uppercase<K>]-?: V }; let t2: { +readonly [K in T]+?: V; };\n",
        "let u: T extends (infer U)[] ? U : never;\nlet v: 'a' | \"b\" | 1 | -1 | true | null | undefined | void | object | symbol | unique symbol;\n",
        "let w: [first: string, second?: number, ...rest: boolean[]];\nlet x: A.B.C<D>['e'][number];\nlet y: this;\n",
        "try { z(); } catch (err: unknown) { }\nfor (const item of items as string[]) { }\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn declarations_are_the_grammars() {
    for code in [
        "interface A<T> extends B<T>, C.D { a: T; b(): void; get c(): number; set c(v: number); }\nexport interface E {}\n",
        "type F<T> = T | null;\nexport type G = { [k: string]: F<number> };\ntype H = (a: number) => void;\n",
        "enum I { A, B = 1 << 2, C = 'c' }\nconst enum J { K }\ndeclare enum L { M }\n",
        "namespace N.O { export const p = 1; }\ndeclare module 'q' { export function r(): void; }\ndeclare global { interface Window { s: number } }\nmodule T {}\n",
        "declare const u: number;\ndeclare function v(a: string): void;\ndeclare let w: any;\nexport declare class X {}\n",
        "import type { Y } from './y';\nimport { type Z, W } from './z';\nexport type { Y };\nimport type Q from './q';\n",
        "let type = 1, declare = 2, abstract = 3, namespace = 4, module = 5, as = 6, is = 7;\ntype = declare + abstract + as;\n",
        "let string = 1, number = 2, any = 3;\nf(string, (number), [any]); x = string < number;\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn classes_are_the_grammars() {
    for code in [
        "abstract class A<T> extends B<T> implements C, D<T> {\n  private readonly a: number = 1;\n  protected static b?: string;\n  public c!: T;\n  declare d: number;\n  static readonly e = 2;\n  [key: string]: any;\n  abstract f(): void;\n  protected abstract g?(): void;\n  override h<U>(u: U): U { return u; }\n  constructor(private x: number, public readonly y?: string) { super(); }\n  get i(): number { return 1; }\n  private get j() { return 2; }\n  m(a: string): void;\n  m(a: any) {}\n}\n",
        "class K { type: string; declare: number; readonly: boolean; public; private = 1; static async *gen(): AsyncGenerator<number> {} }\n",
        "@Component({ selector: 'x' })\nexport class L {\n  @Input() name: string;\n  constructor(@Inject(TOKEN) private readonly t: T) {}\n}\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn angle_brackets_and_slashes_are_the_grammars() {
    for code in [
        "const a = new Map<string, Array<number>>();\nconst b = f<T>(c);\nconst d = g<Array<number>>(e) >> 1;\nh<string>`tpl`;\n",
        "for (let i = 0; i < n; i++) { if (i > 2 && i >= 3 || i >> 1 < 2) {} }\nconst j = a < b, k = c > d;\n",
        "const l = m! / 2; const n = o!.p; const q = r as number / 2; const s = t satisfies U;\nconst v = w as const;\n",
        "const x = (y) / 2; if (z) /re/.test(s);\nconst aa = y! + 1;\nconst bb = !y;\n",
        "class C<T> { m<U extends T = T>(): U { return null!; } }\nfunction f<const T>(x: T) {}\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn what_the_lexer_cannot_tell_is_left_to_the_grammar() {
    for (lang, code) in [
        (Language::TypeScript, "let g: `a${string}`;\n"),
        // Before `(`, type arguments or comparisons of an arrow function:
        // the grammar reads either, by what comes before.
        (
            Language::TypeScript,
            "x < (f<((a: number) => number)>('s'));\n",
        ),
        (Language::TypeScript, "f(a < (g<Array<string>>(a)));\n"),
        // The grammar reads `(number)` after `<` as a type, and finds a
        // `>` missing.
        (Language::TypeScript, "x = a < (number);\n"),
        (Language::TypeScript, "import h = require('h');\n"),
        (
            Language::TypeScript,
            "function i(x: any): asserts x is string {}\n",
        ),
    ] {
        assert_left_to_grammar(lang, code);
    }
}

/// The TypeScript files of `COPYHOUND_TYPESCRIPT_SOURCES` (sources and
/// declaration files of npm packages, say).
fn typescript_sources() -> Option<PathBuf> {
    sources_dir("COPYHOUND_TYPESCRIPT_SOURCES", &[])
}

/// The data sets hold no TypeScript now; any they get is tested here.
#[test]
fn dataset_typescript_reads_as_the_grammar_reads_it() {
    assert_dataset_files_same_as_grammar(Language::TypeScript, "ts");
    assert_dataset_files_same_as_grammar(Language::Tsx, "tsx");
}

#[test]
fn typescript_files_read_as_the_grammar_reads_them() {
    let Some(dir) = typescript_sources() else {
        eprintln!("skipped: no TypeScript sources (set COPYHOUND_TYPESCRIPT_SOURCES)");
        return;
    };
    for (lang, extensions) in [
        (Language::TypeScript, &[".ts", ".mts", ".cts"][..]),
        (Language::Tsx, &[".tsx"][..]),
    ] {
        let files = source_files(&dir, extensions, &["node_modules"]);
        // The lexer leaves what it cannot tell to the grammar (see above),
        // so it may leave files the grammar reads without error.
        assert_files_read_as_grammar(lang, &dir.display().to_string(), &files, true);
    }
}

mod generated {
    //! Random well-formed TypeScript: types in every place an annotation
    //! goes, declarations, class members with modifiers, `as`, `!`, and
    //! `<` and `>` as comparisons, shifts, type arguments and parameters.

    use copyhound_normalize::code::{TokenKind, tokenize_with_own_lexer};

    use super::super::real_files::grammar_finds_error;
    use super::*;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "a",
            "xs",
            "$el",
            "_x",
            "get",
            "set",
            "of",
            "async",
            "type",
            "declare",
            "readonly",
            "module",
            "namespace",
            "as",
            "is",
        ])
        .prop_map(str::to_owned)
    }

    fn type_name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["T", "Foo", "A.B", "Promise", "Map", "Array"])
            .prop_map(str::to_owned)
    }

    fn ty() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            prop::sample::select(vec![
                "number",
                "string",
                "boolean",
                "any",
                "unknown",
                "never",
                "void",
                "object",
                "symbol",
                "null",
                "undefined",
                "true",
                "'lit'",
                "42",
                "-1",
                "this",
                "T",
            ])
            .prop_map(str::to_owned),
            type_name(),
        ];
        leaf.prop_recursive(3, 20, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) | ({b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) & ({b})[]")),
                inner.clone().prop_map(|t| format!("({t})[]")),
                (type_name(), prop::collection::vec(inner.clone(), 1..3))
                    .prop_map(|(n, args)| format!("{n}<{}>", args.join(", "))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| format!("((a: {a}, b?: {b}) => {a})")),
                (name(), inner.clone(), inner.clone()).prop_map(|(n, a, b)| format!(
                    "{{ {n}: {a}; readonly k?: {b}, m(x: {a}): {b}; [key: string]: {b} }}"
                )),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}?]")),
                inner.clone().prop_map(|t| format!("keyof ({t})")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(a, b, c)| format!("({a}) extends ({b}) ? {c} : never")),
                (inner.clone(), inner).prop_map(|(a, b)| format!("{{ [K in keyof {a}]?: {b} }}")),
            ]
        })
    }

    /// A type argument of a call (no nested arguments: after a comparison,
    /// the grammar reads `f<A<B>>(x)` as comparisons and a shift).
    fn call_type() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "number",
            "T",
            "A.B",
            "Array<string> | T",
            "Map<string, number[]>[]",
            "{ a: number; b?: T }",
            "[T, string?]",
            "'a' | 'b'",
            "keyof T",
        ])
        .prop_map(str::to_owned)
    }

    fn expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            name(),
            prop::sample::select(vec!["0", "1.5", "'s'", "`u`", "/re/g", "null", "this"])
                .prop_map(str::to_owned),
        ];
        leaf.prop_recursive(3, 20, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    prop::sample::select(vec![
                        "+",
                        "-",
                        "/",
                        "<",
                        ">",
                        "<=",
                        ">=",
                        ">>",
                        ">>>",
                        "<<",
                        "&&",
                        "||",
                        "??",
                        "instanceof",
                        "==="
                    ]),
                    inner.clone()
                )
                    .prop_map(|(l, op, r)| format!("({l}) {op} ({r})")),
                (inner.clone(), ty()).prop_map(|(e, t)| format!("(({e}) as {t})")),
                (inner.clone(), ty()).prop_map(|(e, t)| format!("(({e}) satisfies {t})")),
                inner.clone().prop_map(|e| format!("({e})!")),
                (type_name(), call_type(), inner.clone())
                    .prop_map(|(n, t, e)| format!("new {n}<{t}>({e})")),
                // No function type, which the lexer leaves to the grammar.
                (call_type(), inner.clone()).prop_map(|(t, e)| format!("f_call<{t}>({e})")),
                (ty(), ty(), inner.clone())
                    .prop_map(|(a, b, e)| format!("(p: {a}, q?: {b}): {a} => ({e})")),
                (name(), inner.clone()).prop_map(|(k, v)| format!("({{ {k}: {v} }})")),
                (ty(), inner)
                    .prop_map(|(t, e)| format!("function (z: {t}): {t} {{ return {e}; }}")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        let simple = prop_oneof![
            (
                prop::sample::select(vec!["const", "let", "var"]),
                ty(),
                expr()
            )
                .prop_map(|(kw, t, e)| format!("{kw} v: {t} = {e};")),
            (ty(), ty()).prop_map(|(a, b)| format!("let w: {a}, x!: {b};")),
            expr().prop_map(|e| format!("x = {e};")),
            expr().prop_map(|e| format!("x = {e}\n/re/g.test(y)")),
            (type_name(), ty())
                .prop_map(|(n, t)| format!("type Alias<U extends {n} = {t}> = {t} | U;")),
            ty().prop_map(|t| format!("interface I<T> extends Foo<T> {{ p: {t}; m?(): void }}")),
            Just("enum E { A, B = 2 }".to_owned()),
            (ty(), expr()).prop_map(|(t, e)| format!("declare const d: {t};\nf({e});")),
        ];
        simple.prop_recursive(2, 10, 3, |inner| {
            let block = prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|statements| format!("{{\n{}\n}}", statements.join("\n")));
            prop_oneof![
                (expr(), block.clone(), block.clone())
                    .prop_map(|(c, a, b)| format!("if ({c}) {a} else {b}")),
                (ty(), ty(), block.clone()).prop_map(|(a, b, body)| format!(
                    "function g_name<T>(a: {a}, b?: {b}, ...rest: ({a})[]): {b} {body}"
                )),
                (ty(), expr(), block.clone()).prop_map(|(t, e, body)| format!(
                    "export abstract class Q<T> extends P<{t}> implements R {{\n  private readonly f: {t} = {e};\n  static g?: {t};\n  [key: string]: any;\n  constructor(private h: {t}, public i?: {t}) {{ super(); }}\n  abstract j(): {t};\n  protected get k(): {t} {body}\n  m<U>(u: U): U {body}\n}}"
                )),
                (name(), block).prop_map(|(n, b)| format!("namespace NS_{n} {b}")),
            ]
        })
    }

    /// `statements`, then each of `values` declared as a constant.
    fn program(statements: &[String], values: &[String]) -> String {
        let declared: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, v)| format!("const v{i} = {v};"))
            .collect();
        format!("{}\n{}\n", statements.join("\n"), declared.join("\n"))
    }

    /// TypeScript's `<` where an operand starts: generic arrow functions
    /// and type assertions around the generator's types and expressions.
    fn angle_operand() -> impl Strategy<Value = String> {
        prop_oneof![
            (ty(), expr()).prop_map(|(t, e)| format!("<T>(x: T, y: {t}): {t} => ({e})")),
            (ty(), expr()).prop_map(|(t, e)| format!("<T, U extends {t} = {t}>(u: U) => ({e})")),
            (ty(), expr()).prop_map(|(t, e)| format!("(<{t}>({e}))")),
            (ty(), name()).prop_map(|(t, n)| format!("(<{t}>{n})")),
            expr().prop_map(|e| format!("async <const V,>(v: V) => ({e})")),
        ]
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(128))]
        #[test]
        fn random_angle_operands_read_as_the_typescript_grammar_reads_them(
            statements in prop::collection::vec(statement(), 0..3),
            operands in prop::collection::vec(angle_operand(), 1..4),
        ) {
            let code = program(&statements, &operands);
            prop_assume!(!grammar_finds_error(Language::TypeScript, &code));
            assert_same_as_grammar(Language::TypeScript, &code, false);
        }
    }

    /// A TSX element around TypeScript expressions: in attribute values,
    /// among children and in a nested element's attributes.
    fn element() -> impl Strategy<Value = String> {
        let tag = prop::sample::select(vec!["div", "Foo.Bar", "my-el", "x:y", "this.C", "class"]);
        let text = prop::sample::select(vec!["hi", " a &amp; b ", "\n  line\n", "&#65;", ""]);
        (tag, expr(), expr(), text, any::<bool>()).prop_map(|(tag, a, b, text, fragment)| {
            let children = format!("{text}{{{b}}}<i for={{{a}}} />{text}");
            if fragment {
                format!("<>{children}</>")
            } else {
                format!("<{tag} data-a={{{a}}} class=\"c\">{children}</{tag}>")
            }
        })
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(128))]
        #[test]
        fn random_tsx_reads_as_the_grammar_reads_it(
            statements in prop::collection::vec(statement(), 0..3),
            elements in prop::collection::vec(prop_oneof![
                3 => element().boxed(),
                1 => expr().prop_map(|e| format!("<T,>(x: T) => ({e})")).boxed(),
                1 => (ty(), expr()).prop_map(|(t, e)| format!("<T extends {t}>(x: T): T => ({e})")).boxed(),
            ], 1..4),
        ) {
            let code = program(&statements, &elements);
            prop_assume!(!grammar_finds_error(Language::Tsx, &code));
            assert_same_as_grammar(Language::Tsx, &code, false);
        }
    }

    /// After `<` and `(`, the grammars take `{` for an object type and
    /// err (`a < ({ k: v } satisfies T)` is well-formed): their recovery
    /// reads `satisfies` as a name, the lexer as the operator it is.
    #[test]
    fn satisfies_after_less_than_is_the_operator_where_the_grammars_err() {
        let code = "const v = a < ({ k: v } satisfies T);\n";
        for lang in [Language::TypeScript, Language::Tsx] {
            assert!(grammar_finds_error(lang, code), "{lang}");
            let tokens = tokenize_with_own_lexer(lang, code, false).expect("the lexer reads it");
            let satisfies = tokens
                .iter()
                .find(|t| &code[t.range.clone()] == "satisfies")
                .expect("a satisfies token");
            assert_eq!(satisfies.kind, TokenKind::Keyword, "{lang}");
        }
    }

    proptest! {
        #![proptest_config(crate::code::support::random_programs(256))]
        #[test]
        fn random_typescript_reads_as_the_grammar_reads_it(
            statements in prop::collection::vec(statement(), 1..6),
        ) {
            let code = format!(
                "import a1, {{ b1 as c1, type D1 }} from \"m\";\n{}\nexport default {{}};\n",
                statements.join("\n")
            );
            // Well-formed TypeScript the grammars err on (`a < ({ k: v }
            // satisfies T)`, below) is read by their error recovery,
            // which no local rule predicts.
            prop_assume!(
                !grammar_finds_error(Language::TypeScript, &code)
                    && !grammar_finds_error(Language::Tsx, &code)
            );
            assert_same(&code);
        }
    }
}
