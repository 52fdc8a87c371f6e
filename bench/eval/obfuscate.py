#!/usr/bin/env python3
"""Program transformations that hide a copy, as students and tools make
them, on Java and C source: the attacks of attack.py's benchmark.

No compiler: a light parse of braces and statements (`parse`), the attacks
on its tree, and a printer that lays the program out anew. The copies are
meant to be read by copy detectors, not compiled: every attack keeps the
program's meaning where it can tell (it swaps only statements that share
no name, extracts only statements that assign no outer local), but types
of extracted parameters are copied from declarations as written.

    import obfuscate
    copy = obfuscate.attack(source, ["rename", "dead-25"], "java", seed=1)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

JAVA_KEYWORDS = set(
    """abstract assert boolean break byte case catch char class const continue default do double else enum
    extends final finally float for goto if implements import instanceof int interface long native new package
    private protected public return short static strictfp super switch synchronized this throw throws transient
    try void volatile while true false null var record""".split()
)
C_KEYWORDS = set(
    """auto break case char const continue default do double else enum extern float for goto if inline int long
    register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
    bool true false NULL size_t""".split()
)
# Names of the standard libraries a renamer leaves alone even where the
# program declares the same name.
LIBRARY_NAMES = set(
    """main args String System out in err println print printf Scanner Math Integer Long Double Boolean Character
    Object List ArrayList LinkedList Map HashMap TreeMap Set HashSet TreeSet Deque ArrayDeque Queue Stack
    PriorityQueue Arrays Collections Iterator BufferedReader InputStreamReader IOException Exception
    StringBuilder StringTokenizer length size get set add put remove contains containsKey isEmpty charAt equals
    nextInt nextLine next hasNext hasNextInt readLine parseInt valueOf toString append clear push pop peek poll
    offer keySet values entrySet getKey getValue sort max min abs sqrt pow split trim substring indexOf
    printf scanf puts gets getchar putchar malloc calloc free strlen strcpy strcmp strcat memset memcpy
    FILE fopen fclose fprintf fscanf stdin stdout stderr exit atoi sizeof""".split()
)
TYPE_WORDS = {"int", "long", "double", "float", "boolean", "char", "short", "byte", "bool", "unsigned"}

TOKEN_RE = re.compile(
    r"""(?P<pp>^[ \t]*\#[^\n]*(?:\\\n[^\n]*)*)
      |(?P<ws>\s+)
      |(?P<comment>//[^\n]*|/\*.*?\*/)
      |(?P<string>"(?:\\.|[^"\\\n])*")
      |(?P<char>'(?:\\.|[^'\\\n])*')
      |(?P<number>\d[\w.]*|\.\d[\w.]*)
      |(?P<ident>[A-Za-z_$][\w$]*)
      |(?P<op>>>>=|<<=|>>=|>>>|\+\+|--|->|::|&&|\|\||[-+*/%&|^!=<>]=|<<|\.\.\.|[^\s\w])""",
    re.S | re.X | re.M,
)


@dataclass
class Tok:
    kind: str  # pp, string, char, number, ident, op
    text: str


def lex(source: str) -> list[Tok]:
    """The tokens of `source` without whitespace and comments."""
    tokens = []
    for match in TOKEN_RE.finditer(source):
        kind = match.lastgroup
        if kind in ("ws", "comment"):
            continue
        tokens.append(Tok(kind, match.group().strip() if kind == "pp" else match.group()))
    return tokens


class ParseError(Exception):
    pass


# ---------------------------------------------------------------- structure


@dataclass
class Block:
    """`{ statements }`: a method body or a nested block."""

    items: list["Stmt"]
    members: bool = False  # a class or file body: declarations, not statements


@dataclass
class Stmt:
    """A statement: tokens and nested blocks or statements, in order."""

    kind: str  # simple, block, if, for, while, do, switch, try, member, method, type, pp
    parts: list = field(default_factory=list)  # Tok | Block | Stmt

    def tokens(self) -> list[Tok]:
        out = []
        for part in self.parts:
            if isinstance(part, Tok):
                out.append(part)
            elif isinstance(part, Stmt):
                out.extend(part.tokens())
            else:
                out.append(Tok("op", "{"))
                for item in part.items:
                    out.extend(item.tokens())
                out.append(Tok("op", "}"))
        return out


class Parser:
    def __init__(self, tokens: list[Tok]):
        self.t = tokens
        self.partner = match_brackets(tokens)

    def text(self, i: int) -> str:
        return self.t[i].text if i < len(self.t) else ""

    def members(self, i: int, end: int) -> list[Stmt]:
        """Declarations of a class or a file up to `end`."""
        out = []
        while i < end:
            if self.t[i].kind == "pp":
                out.append(Stmt("pp", [self.t[i]]))
                i += 1
                continue
            j = i
            header: list = []
            while j < end:
                w = self.text(j)
                if w == ";":
                    header.append(self.t[j])
                    out.append(Stmt("member", header))
                    j += 1
                    break
                if w in "([":
                    k = self.partner[j]
                    header.extend(self.t[j : k + 1])
                    j = k + 1
                    continue
                if w == "{":
                    k = self.partner[j]
                    words = {tok.text for tok in header}
                    prev = header[-1].text if header else ""
                    if prev in ("=", "]", ",") or "=" in words:
                        header.extend(self.t[j : k + 1])
                        j = k + 1
                        continue
                    if words & {"class", "interface", "enum", "struct", "union", "namespace"}:
                        block = Block(self.members(j + 1, k), members=True)
                        kind = "type"
                    elif ")" in (tok.text for tok in header[-6:]) or not header:
                        block = Block(self.statements(j + 1, k))
                        kind = "method"
                    else:
                        block = Block(self.members(j + 1, k), members=True)
                        kind = "type"
                    j = k + 1
                    parts = header + [block]
                    if j < end and self.text(j) == ";":
                        parts.append(self.t[j])
                        j += 1
                    out.append(Stmt(kind, parts))
                    break
                if self.t[j].kind == "pp":
                    break
                header.append(self.t[j])
                j += 1
            else:
                if header:
                    out.append(Stmt("member", header))
            if j == i:
                raise ParseError(f"stuck at {self.text(i)!r}")
            i = j
        return out

    def statements(self, i: int, end: int) -> list[Stmt]:
        out = []
        while i < end:
            stmt, i = self.statement(i, end)
            out.append(stmt)
        return out

    def body(self, i: int, end: int) -> tuple[Stmt, int]:
        if i >= end:
            raise ParseError("missing body")
        return self.statement(i, end)

    def statement(self, i: int, end: int) -> tuple[Stmt, int]:
        w = self.text(i)
        if self.t[i].kind == "pp":
            return Stmt("pp", [self.t[i]]), i + 1
        if w == "{":
            k = self.partner[i]
            return Stmt("block", [Block(self.statements(i + 1, k))]), k + 1
        if w in ("if", "while", "for", "switch", "synchronized") and self.text(i + 1) == "(":
            k = self.partner[i + 1]
            parts: list = self.t[i : k + 1]
            body, j = self.body(k + 1, end)
            parts.append(body)
            if w == "if" and self.text(j) == "else":
                other, j = self.body(j + 1, end)
                parts += [self.t[j - 1 - len(other.tokens())] if False else Tok("ident", "else"), other]
            return Stmt(w, parts), j
        if w == "do":
            body, j = self.body(i + 1, end)
            parts = [self.t[i], body]
            k = j
            while k < end and self.text(k) != ";":
                k += 1
            parts += self.t[j : k + 1]
            return Stmt("do", parts), k + 1
        if w == "try":
            parts = [self.t[i]]
            j = i + 1
            while j < end and self.text(j) in ("(", "{", "catch", "finally"):
                if self.text(j) == "{":
                    k = self.partner[j]
                    parts.append(Block(self.statements(j + 1, k)))
                    j = k + 1
                elif self.text(j) == "(":
                    k = self.partner[j]
                    parts += self.t[j : k + 1]
                    j = k + 1
                else:
                    parts.append(self.t[j])
                    j += 1
            return Stmt("try", parts), j
        j = i
        parts = []
        while j < end:
            tw = self.text(j)
            if tw == ";":
                parts.append(self.t[j])
                return Stmt("simple", parts), j + 1
            if tw in "([{":
                k = self.partner[j]
                parts += self.t[j : k + 1]
                j = k + 1
                continue
            parts.append(self.t[j])
            j += 1
        return Stmt("simple", parts), j


def match_brackets(tokens: list[Tok]) -> dict[int, int]:
    partner: dict[int, int] = {}
    stack: list[int] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for i, tok in enumerate(tokens):
        if tok.kind != "op":
            continue
        if tok.text in "([{":
            stack.append(i)
        elif tok.text in pairs:
            if not stack or tokens[stack[-1]].text != pairs[tok.text]:
                raise ParseError(f"unbalanced {tok.text!r}")
            partner[stack.pop()] = i
    if stack:
        raise ParseError("unclosed bracket")
    return partner


def parse(source: str) -> list[Stmt]:
    tokens = lex(source)
    return Parser(tokens).members(0, len(tokens))


# ---------------------------------------------------------------- printing


def render(items: list[Stmt], style: int, rng: random.Random) -> str:
    """The program text: one statement a line, indented by `style`
    (2 or 4 spaces, braces on their own line or not), a comment now and
    then."""
    lines: list[str] = []
    indent = "  " if style % 2 == 0 else "    "
    brace_own_line = style % 3 == 0

    def join(tokens: list[Tok]) -> str:
        out = ""
        for tok in tokens:
            if out and needs_space(out[-1], tok.text):
                out += " "
            out += tok.text
        return out

    def emit(stmt: Stmt, depth: int) -> None:
        pad = indent * depth
        if rng.random() < 0.08:
            lines.append(pad + "// " + rng.choice(COMMENTS))
        head: list[Tok] = []
        for part in stmt.parts:
            if isinstance(part, Tok):
                head.append(part)
            elif isinstance(part, Stmt):
                if head:
                    lines.append(pad + join(head))
                    head = []
                emit(part, depth + 1 if part.kind != "block" else depth)
            else:
                if brace_own_line or not head:
                    if head:
                        lines.append(pad + join(head))
                    lines.append(pad + "{")
                else:
                    lines.append(pad + join(head) + " {")
                head = []
                for item in part.items:
                    emit(item, depth + 1)
                lines.append(pad + "}")
        if head:
            lines.append(pad + join(head))

    for item in items:
        emit(item, 0)
    return "\n".join(lines) + "\n"


COMMENTS = [
    "read the input",
    "helper",
    "check the bounds",
    "main loop",
    "update the result",
    "TODO tidy up",
    "print the answer",
    "edge case",
]


def needs_space(last: str, word: str) -> bool:
    """Whether two tokens printed side by side need a space between them."""
    word_char = lambda c: c.isalnum() or c in "_$\"'"
    if word_char(word[0]) and (word_char(last) or last in ">]*"):
        return True
    return last in "=+-*/<&|%!" and word[0] in "=+-*/<>&|%"


# ---------------------------------------------------------------- attacks


def walk_bodies(items: list[Stmt]):
    """Every statement list inside a method, outermost first."""
    for stmt in items:
        for part in stmt.parts:
            if isinstance(part, Block):
                if part.members:
                    yield from walk_bodies(part.items)
                else:
                    yield from statement_lists(part)
            elif isinstance(part, Stmt):
                yield from walk_bodies([part])


def statement_lists(block: Block):
    yield block.items
    for stmt in block.items:
        for part in stmt.parts:
            if isinstance(part, Block):
                yield from statement_lists(part)
            elif isinstance(part, Stmt):
                wrapper = Block([part])
                yield from statement_lists(wrapper)


def methods(items: list[Stmt]):
    """(method statement, its class's member list) for every method."""
    for stmt in items:
        if stmt.kind == "method":
            yield stmt, items
        for part in stmt.parts:
            if isinstance(part, Block) and part.members:
                yield from methods(part.items)


def declared_names(tokens: list[Tok], keywords: set[str]) -> set[str]:
    """Names the program declares: an identifier right after a type (a
    name, a type keyword, `>` or `]`) and before `=`, `;`, `,`, `(`, `)`,
    `[` or `:`; and class names."""
    names = set()
    for i in range(1, len(tokens) - 1):
        tok = tokens[i]
        if tok.kind != "ident" or tok.text in keywords or tok.text in LIBRARY_NAMES:
            continue
        prev, nxt = tokens[i - 1], tokens[i + 1]
        after_type = (prev.kind == "ident" and prev.text not in ("return", "new", "else", "case")) or prev.text in (">", "]", "*")
        if prev.text in ("class", "struct", "interface", "enum"):
            names.add(tok.text)
        elif after_type and nxt.text in ("=", ";", ",", "(", ")", "[", ":"):
            names.add(tok.text)
    return names


def rename(items: list[Stmt], keywords: set[str], rng: random.Random) -> None:
    tokens = [tok for stmt in items for tok in stmt.tokens() if isinstance(tok, Tok)]
    names = sorted(declared_names(tokens, keywords))
    pool = ["val", "tmp", "data", "item", "node", "acc", "res", "cnt", "idx", "buf", "aux", "cur", "nxt", "elem"]
    mapping = {}
    for n, name in enumerate(names):
        fresh = rng.choice(pool) + str(n)
        mapping[name] = fresh[0].upper() + fresh[1:] if name[:1].isupper() else fresh
    for stmt in items:
        apply_tokens(stmt, lambda tok: Tok(tok.kind, mapping.get(tok.text, tok.text)) if tok.kind == "ident" else tok)


def apply_tokens(stmt: Stmt, f) -> None:
    for n, part in enumerate(stmt.parts):
        if isinstance(part, Tok):
            stmt.parts[n] = f(part)
        elif isinstance(part, Stmt):
            apply_tokens(part, f)
        else:
            for item in part.items:
                apply_tokens(item, f)


def is_jump(stmt: Stmt) -> bool:
    """Whether control never passes to the statement after `stmt`: a jump,
    or an `if`/`else` or block whose every way ends in one."""
    toks = stmt.tokens()
    if not toks:
        return False
    if toks[0].text in ("return", "break", "continue", "throw", "goto", "case", "default"):
        return True
    inner = [part for part in stmt.parts if isinstance(part, Stmt)]
    blocks = [part for part in stmt.parts if isinstance(part, Block)]
    if stmt.kind == "if" and len(inner) == 2:
        return all(is_jump(branch) for branch in inner)
    if stmt.kind == "block" and blocks and blocks[0].items:
        return is_jump(blocks[0].items[-1])
    return False


def names_of(stmt: Stmt) -> set[str]:
    """The variables a statement uses: identifiers not used as a type (not
    followed by a name) and not members."""
    toks = stmt.tokens()
    out = set()
    for i, tok in enumerate(toks):
        if tok.kind != "ident":
            continue
        if i > 0 and toks[i - 1].text in (".", "->"):
            continue
        if i + 1 < len(toks) and (toks[i + 1].kind == "ident" or toks[i + 1].text in ("<",)):
            continue
        out.add(tok.text)
    return out


def calls(stmt: Stmt) -> bool:
    toks = stmt.tokens()
    return any(tok.kind == "ident" and i + 1 < len(toks) and toks[i + 1].text == "(" for i, tok in enumerate(toks))


def reorder(items: list[Stmt], rng: random.Random, share: float = 1.0) -> None:
    for body in walk_bodies(items):
        i = 0
        while i + 1 < len(body):
            a, b = body[i], body[i + 1]
            independent = (
                a.kind == "simple"
                and b.kind == "simple"
                and not is_jump(a)
                and not is_jump(b)
                and not (names_of(a) & names_of(b))
                and not (calls(a) and calls(b))
            )
            if independent and rng.random() < share:
                body[i], body[i + 1] = b, a
                i += 2
            else:
                i += 1


def rewrite_loops(items: list[Stmt], rng: random.Random, share: float = 1.0) -> None:
    for body in walk_bodies(items):
        for n, stmt in enumerate(body):
            if stmt.kind != "for" or rng.random() >= share:
                continue
            header = [p for p in stmt.parts if isinstance(p, Tok)]
            inner = [p for p in stmt.parts if isinstance(p, Stmt)][0]
            texts = [t.text for t in header]
            if ":" in texts or any(t.text == "continue" for t in inner.tokens()):
                continue
            # for ( init ; cond ; step )
            depth, cuts = 0, []
            for i, t in enumerate(header):
                if t.text in "([":
                    depth += 1
                elif t.text in ")]":
                    depth -= 1
                elif t.text == ";" and depth == 1:
                    cuts.append(i)
            if len(cuts) != 2:
                continue
            init = header[2 : cuts[0] + 1]
            cond = header[cuts[0] + 1 : cuts[1]] or [Tok("ident", "true")]
            step = header[cuts[1] + 1 : -1]
            loop_body = inner.parts[0].items[:] if inner.kind == "block" else [inner]
            if step:
                loop_body.append(Stmt("simple", step + [Tok("op", ";")]))
            loop = Stmt("while", [Tok("ident", "while"), Tok("op", "("), *cond, Tok("op", ")"), Stmt("block", [Block(loop_body)])])
            replacement = [Stmt("simple", init), loop] if len(init) > 1 else [loop]
            body[n : n + 1] = [Stmt("block", [Block(replacement)])] if len(init) > 1 else replacement


DEAD_TEMPLATES = [
    "int {v} = {n};",
    "boolean {v} = false;",
    "String {v} = \"\";",
    "double {v} = {n}.0;",
    "int {v}; {v} = {n};",
    "int {v} = {n}; {v}++;",
    "long {v} = {n}L;",
]
C_DEAD_TEMPLATES = [
    "int {v} = {n};",
    "int {v}; {v} = {n};",
    "int {v} = {n}; {v}++;",
    "double {v} = {n}.0;",
    "char {v} = 'a';",
]


def insert_dead(items: list[Stmt], rng: random.Random, share: float, language: str) -> None:
    templates = DEAD_TEMPLATES if language == "java" else C_DEAD_TEMPLATES
    counter = [0]
    for body in list(walk_bodies(items)):
        if any(s.tokens() and s.tokens()[0].text in ("case", "default") for s in body):
            continue
        out = []
        for stmt in body:
            out.append(stmt)
            if is_jump(stmt) or rng.random() >= share:
                continue
            counter[0] += 1
            code = rng.choice(templates).format(v=f"dead{counter[0]}", n=rng.randint(0, 9))
            for piece in code.split(";")[:-1]:
                out.append(Stmt("simple", lex(piece + ";")))
        body[:] = out


def extract(items: list[Stmt], rng: random.Random, share: float, language: str) -> None:
    """Moves statements of methods into new helper methods called with the
    locals they read; only statements that assign no outer local and do
    not jump."""
    helper = 0
    for method, members in list(methods(items)):
        block = method.parts[-1] if isinstance(method.parts[-1], Block) else None
        if block is None:
            continue
        header = [p for p in method.parts if isinstance(p, Tok)]
        static = any(t.text == "static" for t in header)
        locals_: dict[str, str] = params_of(header)
        new_items = []
        for stmt in block.items:
            declared = local_declaration(stmt)
            candidate = (
                stmt.kind in ("simple", "if", "for", "while")
                and declared is None
                and not any(t.text in ("return", "break", "continue", "throw", "yield") for t in stmt.tokens())
                and not (assigned_names(stmt) & set(locals_))
                and rng.random() < share
            )
            if candidate:
                used = [name for name in locals_ if name in {t.text for t in stmt.tokens() if t.kind == "ident"}]
                helper += 1
                name = f"helper{helper}"
                call = Stmt("simple", lex(f"{name}({', '.join(used)});"))
                params = ", ".join(locals_[u] for u in used)
                prefix = ("private static void" if static else "private void") if language == "java" else "static void"
                head = lex(f"{prefix} {name}({params})")
                members.insert(members.index(method) + 1, Stmt("method", head + [Block([stmt])]))
                new_items.append(call)
            else:
                new_items.append(stmt)
            if declared:
                locals_.update(declared)
        block.items[:] = new_items


def params_of(header: list[Tok]) -> dict[str, str]:
    """Parameter name → its declaration text, from a method header."""
    texts = [t.text for t in header]
    if "(" not in texts:
        return {}
    open_at = texts.index("(")
    depth, close_at = 0, len(texts) - 1
    for i in range(open_at, len(texts)):
        depth += texts[i] == "("
        depth -= texts[i] == ")"
        if depth == 0:
            close_at = i
            break
    out = {}
    current: list[Tok] = []
    for tok in header[open_at + 1 : close_at] + [Tok("op", ",")]:
        if tok.text == "," and current:
            names = [t for t in current if t.kind == "ident"]
            if len(names) >= 2 or (names and any(t.text in TYPE_WORDS for t in current)):
                out[names[-1].text] = render_tokens(current)
            current = []
        else:
            current.append(tok)
    return out


def local_declaration(stmt: Stmt) -> dict[str, str] | None:
    """`Type name [= …], …;` → {name: "Type name"} (C arrays as `T name[]`)."""
    if stmt.kind != "simple":
        return None
    toks = stmt.tokens()
    i = 0
    while i < len(toks) and toks[i].text in ("final", "const", "static", "unsigned", "struct"):
        i += 1
    start = i
    if i >= len(toks) or toks[i].kind != "ident":
        return None
    i += 1
    if i < len(toks) and toks[i].text == "<":
        depth = 0
        while i < len(toks):
            depth += toks[i].text == "<"
            depth -= toks[i].text == ">"
            i += 1
            if depth == 0:
                break
    while i + 1 < len(toks) and toks[i].text == "[" and toks[i + 1].text == "]":
        i += 2
    stars = ""
    while i < len(toks) and toks[i].text == "*":
        stars += "*"
        i += 1
    if i >= len(toks) or toks[i].kind != "ident" or i + 1 >= len(toks) or toks[i + 1].text not in ("=", ";", ",", "["):
        return None
    type_text = render_tokens(toks[start:i])
    out = {}
    depth = 0
    expect_name = True
    for j in range(i, len(toks)):
        t = toks[j]
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
        elif t.text == "," and depth == 0:
            expect_name = True
            continue
        if expect_name and t.kind == "ident" and depth == 0:
            array = j + 1 < len(toks) and toks[j + 1].text == "["
            out[t.text] = f"{type_text} {t.text}" + ("[]" if array else "")
            expect_name = False
    return out


def assigned_names(stmt: Stmt) -> set[str]:
    toks = stmt.tokens()
    out = set()
    for i, tok in enumerate(toks):
        if tok.text in ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=") and i > 0:
            if toks[i - 1].kind == "ident":
                out.add(toks[i - 1].text)
        if tok.text in ("++", "--"):
            for j in (i - 1, i + 1):
                if 0 <= j < len(toks) and toks[j].kind == "ident":
                    out.add(toks[j].text)
        if tok.text == "&" and i + 1 < len(toks) and toks[i + 1].kind == "ident":
            out.add(toks[i + 1].text)  # scanf("%d", &x)
    return out


def render_tokens(tokens: list[Tok]) -> str:
    out = ""
    for tok in tokens:
        if out and needs_space(out[-1], tok.text):
            out += " "
        out += tok.text
    return out


# ---------------------------------------------------------------- attacks by name

ATTACKS = {
    "format": [],
    "rename": ["rename"],
    "reorder": ["reorder"],
    "loops": ["loops"],
    "extract": ["extract"],
    "dead-25": ["dead-25"],
    "dead-100": ["dead-100"],
    "level-1": [],
    "level-2": ["rename"],
    "level-3": ["rename", "reorder", "loops"],
    "level-4": ["rename", "reorder", "loops", "extract", "dead-25"],
    "level-5": ["rename", "reorder", "loops", "extract", "dead-100"],
}


def attack(source: str, steps: list[str], language: str, seed: int) -> str:
    rng = random.Random(seed)
    items = parse(source)
    keywords = JAVA_KEYWORDS if language == "java" else C_KEYWORDS
    for step in steps:
        if step == "extract":
            extract(items, rng, 0.3, language)
        elif step == "reorder":
            reorder(items, rng)
        elif step == "loops":
            rewrite_loops(items, rng)
        elif step.startswith("dead-"):
            insert_dead(items, rng, int(step.split("-")[1]) / 100, language)
    # Renaming last, so that helpers and dead variables are renamed too.
    if "rename" in steps:
        rename(items, keywords, rng)
    return render(items, seed % 6, rng)
