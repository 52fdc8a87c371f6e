//! Throughput of the code front-ends, in symbols per second: the own
//! lexers (C, Java, Python, …; TSX with JSX), two table-lexer languages (Pascal, Lua),
//! each over about 200 KB of generated source; then the tokens of each
//! language with its own lexer, from that lexer and from its grammar
//! (`java_tokens`, `c_tokens`, `python_tokens`, …).

use std::hint::black_box;

use copyhound_normalize::code::{
    CodeOptions, Language, normalize_code, tokenize, tokenize_with_grammar,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// One function's worth of source per language; `{n}` makes names unique.
fn unit(lang: Language) -> &'static str {
    match lang {
        Language::C => {
            "/* sum of squares */\nlong sum_{n}(const int *xs, int len) {\n    long total = 0;\n    for (int i = 0; i < len; i++) {\n        if (xs[i] % 2 == 0) total += xs[i] * xs[i];\n        else total -= 3;\n    }\n    printf(\"%ld\\n\", total);\n    return total;\n}\n"
        }
        Language::Cpp => {
            "// sum of squares\ntemplate <typename T>\nlong sum_{n}(const std::vector<std::vector<T>>& rows) {\n    long total = 0;\n    for (const auto& xs : rows) {\n        for (std::size_t i = 0; i < xs.size(); ++i) {\n            if (xs[i] % 2 == 0) total += xs[i] * xs[i];\n            else total -= 3'000;\n        }\n    }\n    std::cout << \"total \" << total << std::endl;\n    return total;\n}\n"
        }
        Language::CSharp => {
            "// sum of squares\nstatic long Sum{n}(List<List<int>> rows) {\n    long total = 0;\n    foreach (var xs in rows) {\n        for (int i = 0; i < xs.Count; i++) {\n            if (xs[i] % 2 == 0) { total += xs[i] * xs[i]; } else { total -= 3; }\n        }\n    }\n    var odd = from x in rows select x.Count;\n    Console.WriteLine($\"total {total}\");\n    return total;\n}\n"
        }
        Language::Java => {
            "// sum of squares\nstatic long sum{n}(int[] xs) {\n    long total = 0;\n    for (int i = 0; i < xs.length; i++) {\n        if (xs[i] % 2 == 0) { total += xs[i] * xs[i]; } else { total -= 3; }\n    }\n    System.out.println(\"total \" + total);\n    return total;\n}\n"
        }
        Language::Python => {
            "# sum of squares\ndef sum_{n}(xs):\n    total = 0\n    for i in range(len(xs)):\n        if xs[i] % 2 == 0:\n            total += xs[i] * xs[i]\n        else:\n            total -= 3\n    print(f\"total {total}\")\n    return total\n\n"
        }
        Language::JavaScript => {
            "// sum of squares\nfunction sum{n}(xs) {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) {\n    if (xs[i] % 2 === 0) { total += xs[i] * xs[i]; } else { total -= 3; }\n  }\n  console.log(`total ${total}`);\n  return total;\n}\n"
        }
        Language::TypeScript => {
            "// sum of squares\ninterface Sums{n} { total: number; label?: string }\nfunction sum{n}(xs: Array<number>, seen: Map<string, number[]>): Sums{n} {\n  let total: number = 0;\n  for (let i = 0; i < xs.length; i++) {\n    if (xs[i] % 2 === 0) { total += xs[i] * xs[i]; } else { total -= 3; }\n  }\n  console.log(`total ${total}`);\n  return { total } as Sums{n};\n}\n"
        }
        Language::Tsx => {
            "// a list of squares\nexport function Squares{n}({ xs, title }: { xs: number[]; title?: string }) {\n  const total = xs.reduce((a, x) => a + x * x, 0);\n  return (\n    <section className=\"squares\" data-count={xs.length}>\n      <h2>{title ?? \"Squares\"} &amp; sums</h2>\n      <ul>\n        {xs.map((x, i) => (\n          <li key={i} onClick={() => console.log(x)}>{x} squared is {x * x}</li>\n        ))}\n      </ul>\n      <p>Total: {total}</p>\n    </section>\n  );\n}\n"
        }
        Language::Go => {
            "// sum of squares\nfunc sum{n}(xs []int) int {\n\ttotal := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\tif xs[i]%2 == 0 {\n\t\t\ttotal += xs[i] * xs[i]\n\t\t} else {\n\t\t\ttotal -= 3\n\t\t}\n\t}\n\tfmt.Printf(\"total %d\\n\", total)\n\treturn total\n}\n\n"
        }
        Language::Pascal => {
            "{ sum of squares }\nfunction Sum{n}(const xs: array of Integer): LongInt;\nvar i: Integer; total: LongInt;\nbegin\n  total := 0;\n  for i := 0 to High(xs) do\n    if xs[i] mod 2 = 0 then total := total + xs[i] * xs[i]\n    else total := total - 3;\n  WriteLn('total ', total);\n  Sum{n} := total;\nend;\n"
        }
        Language::Lua => {
            "-- sum of squares\nlocal function sum_{n}(xs)\n  local total = 0\n  for i = 1, #xs do\n    if xs[i] % 2 == 0 then total = total + xs[i] * xs[i]\n    else total = total - 3 end\n  end\n  print(\"total \" .. total)\n  return total\nend\n"
        }
        _ => unreachable!("not benchmarked"),
    }
}

fn source(lang: Language, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 512);
    let mut n = 0;
    while text.len() < bytes {
        text.push_str(&unit(lang).replace("{n}", &n.to_string()));
        n += 1;
    }
    text
}

fn frontends(c: &mut Criterion) {
    let mut group = c.benchmark_group("code_frontends");
    group.sample_size(10);
    let options = CodeOptions::default();
    for lang in [
        Language::C,
        Language::Cpp,
        Language::CSharp,
        Language::Java,
        Language::Python,
        Language::Go,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Pascal,
        Language::Lua,
    ] {
        let text = source(lang, 200_000);
        let symbols = normalize_code(lang, &text, &options).len();
        group.throughput(Throughput::Elements(symbols as u64));
        group.bench_function(lang.name(), |b| {
            b.iter(|| normalize_code(lang, black_box(&text), &options));
        });
    }
    group.finish();
}

/// Tokens of the languages read by their own lexer, from that lexer and
/// from the grammar (`java_tokens`, `c_tokens`, `python_tokens`, …).
fn lexer_and_grammar(c: &mut Criterion) {
    for (lang, name) in [
        (Language::Java, "java_tokens"),
        (Language::C, "c_tokens"),
        (Language::Cpp, "cpp_tokens"),
        (Language::CSharp, "csharp_tokens"),
        (Language::Python, "python_tokens"),
        (Language::Go, "go_tokens"),
        (Language::JavaScript, "javascript_tokens"),
        (Language::TypeScript, "typescript_tokens"),
        (Language::Tsx, "tsx_tokens"),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        let text = source(lang, 200_000);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("lexer", |b| {
            b.iter(|| tokenize(lang, black_box(&text), true));
        });
        group.bench_function("grammar", |b| {
            b.iter(|| tokenize_with_grammar(lang, black_box(&text), true));
        });
        group.finish();
    }
}

criterion_group!(benches, frontends, lexer_and_grammar);
criterion_main!(benches);
