//! The Python lexer against the Python grammar: the same tokens, kinds
//! and byte ranges, on the fixture, on hand-written cases of each rule,
//! on random well-formed Python (`python_generated.rs`) and on the
//! Python standard library of the machine. Where the grammar finds a
//! syntax error the lexer leaves the file to it.

use std::path::PathBuf;

use copyhound_normalize::code::Language;

use super::real_files::{assert_files_read_as_grammar, command_line, source_files, sources_dir};
use super::support::{assert_left_to_grammar, assert_same_as_grammar, fixture};

fn assert_same(text: &str) {
    assert_same_as_grammar(Language::Python, text, false);
    assert_same_as_grammar(Language::Python, text, true);
}

#[test]
fn the_fixture_reads_as_the_grammar_reads_it() {
    assert_same(&fixture("sample.py"));
}

#[test]
fn soft_keywords_are_keywords_where_the_grammar_parses_them_so() {
    for code in [
        // Python 2 statements, and the same words as names.
        "print \"hello\"\nprint x, y,\nprint >>f, x\nprint >> f\nprint not x\nprint ~x\nprint ...\n",
        "print {1}\nprint lambda: 1\nprint None\nprint f'{x}'\n",
        "print(\"x\")\nprint\nprint -1\nprint (a), b\nprint[0]\nprint.x = 1\nprint if x else y\nprint not in xs\n",
        "exec \"code\"\nexec code in d\nexec \"a\" in d, e\nexec(code)\nexec = 1\n",
        // Type aliases where `type L = R` parses, names elsewhere.
        "type X = int\ntype X[T] = list[T]\ntype(backend).x = 1\ntype[int] = 5\ntype(a)[0] = 1\n",
        "type(x).f = lambda: 0\ntype(a).b: int = 3\ntype -x = 3\n",
        "type = 5\ntype.x = 1\ntype(x)\ntype(a).b += 1\ntype(x).a = b, c\ntype(a).b = c = d\ntype(a) == b\n",
        // async and await.
        "async def f():\n    await g()\n    async for x in y: pass\n    async with a as b: pass\n    return [x async for x in z]\n",
        "await -x\nawait [1]\nawait *x\nawait ~x\nawait(x)\nawait\nx = await\nawait.x\nasync = 1\nasync(x)\n",
        // match and case, and names of the same spelling.
        "match x:\n    case [a, _]: y = _\n    case {\"k\": _} if _ > 1: pass\n    case Point(x=_) | (_, *_): pass\n    case -1 | 1+2j: pass\n    case _: pass\nmatch = 3\nmatch(x)\nmatch[a]: int\ncase = 1\n",
        "match (a, b):\n    case (1, 2):\n        pass\n    case _ as y:\n        print(y)\n",
        "match x:\n",
        "def match(case, type, print, _): return match.case(type, _)\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn strings_are_one_token_or_their_literal_pieces() {
    for code in [
        "x = 'a' \"b\" '''c''' \"\"\"d\ne\"\"\" r'\\d' R\"\\\"\" b'x' Rb'y' bu\"w\" ff'q' u'z' `repr`\n",
        "x = '\\'' \"\\\\\" '\\\n' r'\\'' '\\N{DASH}' b'\\N{x}'\n",
        // f-strings: pieces, interpolations, conversions, self-documenting
        // `=`, escaped braces, format specifications with nested fields.
        "z = f\"a{x!r:>{width}.{p.q}} {y=} {{z}} {d['k']}\"\n",
        "z = f'{x:#x}' + f'{y:{{}}}' + f'{x:=5}' + f'{a.b:=5}' + f'{lambda: 1}'\n",
        "z = f'{x}' f\"{y}\" rf'\\{x}' F'{a!s}' f'''{\n  x\n}''' f'{f\"{y}\"}' f'{x:{f\"{y}\"}}'\n",
        "z = f'{x:{a.b}{c(d)}}' f'{x:{1}}' f'{x:{\"s\"}}' f'\\N{BULLET} {x}' t'{x}'\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn docstrings_are_dropped_as_the_tree_walker_drops_them() {
    for code in [
        "\"\"\"Module.\"\"\"\nclass A:\n    'doc'\n    def f(self):\n        f\"doc {x}\"\n        return 1\n",
        "\"a\",\n\"a\" \"b\"\n(\"a\")\n\"a\" + b\n\"a\"; x = 1\nif x: \"doc\"\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn numbers_and_operators_are_the_longest_match() {
    for code in [
        "x = 1.e5 + 0x_ff + 1_ + 1__0 + 0777 + 10L + 1.5j + .5 + 1e5j + 0b102 + 1if y else 2\n",
        "x = a <> b != c ** d // e @ f -> g\nx //= 1; x **= 2; x >>= 3; x <<= 4; x @= 5; x := 6\n",
        "from ... import a\nfrom .. import b\nfrom .x import c\nraise E from ...\nx = ...\n",
        "def f(a, /, b, *, c) -> int: pass\ntry: pass\nexcept* E: pass\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn lines_blocks_and_comments_follow_the_external_scanner() {
    for code in [
        // Continuations, brackets across lines, decorators, walrus.
        "x = 1 + \\\n    2\ny = (1,\n  2)\n@dec\n@dec2(a=1)\ndef f(): pass\nif (n := len(a)) > 10: pass\n",
        // Deeper lines after no `:` are not indents; shallower ones close
        // blocks one at a time, and comments shallower than a block close
        // it only if the next line does.
        "if x: y\n    z\nif a:\n        b\n    c\nd\n",
        "def f():\n    a\n##  b\n    c\n# d\ne\n",
        "if x:\n    # c1\n    import y;\nif x:\n    import y;\n    # c2\nz = 1\n",
        "class A:\n\tdef f(self):\n\t\treturn 1\n\x0c\ndef g(): pass\r\nh = 2\r\n",
        "\u{feff}x = 1\nif x:\n\n    # only a comment\n\n    y = 2\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn imports_go_with_their_suite_or_their_line() {
    for code in [
        "import a.b as c, d\nfrom x import (e,\n  f)\nfrom __future__ import annotations\nimport __future__\n",
        "import x;\n",
        "import x;  # c\n",
        "if x: import y;\nif x: import y;  # c\nif x: import y; import z\ntry:\n    import json;\nexcept ImportError:\n    json = None\n",
        // One-line top-level statements that mention `require`.
        "x = require(\"y\")\nz = 1 # require(x)\ndef f(): return 1  # require me\nif a: b = require(c)\nelse: pass\nprint(\"you require help\")\n",
        "def f():\n    x = require(y)\nclass A: require(x)\nw = [require(x),\n  1]\n",
    ] {
        assert_same(code);
    }
}

#[test]
fn what_the_grammar_reads_as_an_error_is_left_to_it() {
    for code in [
        "x = (1,\n",
        "x = 'abc\n",
        "if x\n    y = 1\n",
        "else: pass\n",
        "x = $y\n",
        "x = a ! b\n",
        "@dec\nx = 1\n",
        "match x:\n    y = 1\n",
        "from __future__ import *\n",
        "def f():\n        (bar.\n    baz)\n",
        "x = 1 \\ 2\n",
        "x = f'{x}}'\n",
        "if x: if y: pass\n",
        "def f() -> int: x[0] = 1\n",
        "x = await * (1,)\n",
        "x = 1 + not y\n",
        "type a = a[1:]\n",
        "type a = a[1] < b\n",
        "x: Foo[1.] + (1.5) = 2\n",
        "match (0).a:\n    case -1: 's'\n",
    ] {
        assert_left_to_grammar(Language::Python, code);
    }
}

/// The Python standard library (without installed packages), or the
/// folder `COPYHOUND_PYTHON_SOURCES` names.
fn python_library() -> Option<PathBuf> {
    let stdlib = command_line(
        "python3",
        &[
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ],
    );
    sources_dir(
        "COPYHOUND_PYTHON_SOURCES",
        &stdlib.into_iter().map(PathBuf::from).collect::<Vec<_>>(),
    )
}

#[test]
fn the_python_library_reads_as_the_grammar_reads_it() {
    let Some(dir) = python_library() else {
        eprintln!("skipped: no python3 (set COPYHOUND_PYTHON_SOURCES)");
        return;
    };
    let files = source_files(&dir, &[".py"], &["site-packages", "dist-packages"]);
    assert_files_read_as_grammar(Language::Python, &dir.display().to_string(), &files, false);
}
