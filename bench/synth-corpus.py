#!/usr/bin/env python3
"""Writes a deterministic synthetic corpus of Python programs for the
speed benchmark (bench/compare-speed.sh), with planted copies so that a
run's result can be checked.

    python3 bench/synth-corpus.py OUT --files 100000 [--seed 1] [--jobs 2]

Layout: OUT/files/NNN/NNNNNNN.py, 1,000 files per folder, so the first
1,000 and 5,000 files are whole folders (the subsets the peers run on).
OUT/planted.csv lists the planted pairs (`a,b` as paths relative to
OUT/files); OUT/done holds the file count once everything is written, and
a rerun with the same arguments does nothing, and an interrupted run
resumes at the first unfinished folder (OUT/parts/ marks finished ones).

Every file is a small program written by a random grammar: imports,
constants, functions with loops, branches, comprehensions, calls, and
sometimes a class. File i depends only on (seed, i), so any part of the
corpus can be regenerated on its own. About 1 % of the files are copies
of an earlier file of the same folder, disguised the way students do it:
identifiers renamed, functions reordered, constants changed, a few
statements dropped or added, comments added.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import sys
from multiprocessing import Pool
from pathlib import Path

PER_FOLDER = 1000
COPY_SHARE = 0.01

WORDS = (
    "item value count total index node tree list queue stack graph edge path cost score "
    "name key data buffer result answer left right low high mid start end step size limit "
    "word line text token char digit number prime factor row col grid cell matrix vector "
    "point dist angle speed time rate price amount balance account user order record entry "
    "cache table bucket slot weight height width depth level parent child root leaf visit "
    "seen best worst first last next prev head tail min max sum avg mean median mode delta"
).split()
VERBS = (
    "get set find make build compute count check parse read load save update merge split "
    "sort filter scan walk visit solve search insert remove push pop add apply reduce "
    "collect format print render encode decode convert normalize validate process handle"
).split()
MODULES = ["math", "sys", "os", "re", "random", "itertools", "functools", "collections", "heapq", "bisect", "string", "json"]
BINOPS = ["+", "-", "*", "//", "%"]
CMPOPS = ["<", "<=", ">", ">=", "==", "!="]
COMMENTS = [
    "# helper", "# edge case", "# main loop", "# TODO: tidy up", "# check the bounds",
    "# accumulate", "# done", "# fast path", "# see the assignment", "# keep going",
]


class Program:
    """Builds one program from a seeded generator."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.functions: list[str] = []

    def name(self) -> str:
        words = self.rng.sample(WORDS, self.rng.choice((1, 1, 2, 2, 3)))
        return "_".join(words)

    def function_name(self) -> str:
        return self.rng.choice(VERBS) + "_" + self.name()

    def expr(self, names: list[str], depth: int = 0) -> str:
        rng = self.rng
        roll = rng.random()
        if depth > 2 or roll < 0.3:
            return rng.choice(names) if rng.random() < 0.7 else str(rng.randint(0, 100))
        if roll < 0.75:
            return f"{self.expr(names, depth + 1)} {rng.choice(BINOPS)} {self.expr(names, depth + 1)}"
        if roll < 0.85 and self.functions:
            args = ", ".join(self.expr(names, depth + 1) for _ in range(rng.randint(1, 2)))
            return f"{rng.choice(self.functions)}({args})"
        if roll < 0.92:
            return f"len({rng.choice(names)})" if rng.random() < 0.5 else f"abs({self.expr(names, depth + 1)})"
        return f"({self.expr(names, depth + 1)})"

    def condition(self, names: list[str]) -> str:
        text = f"{self.expr(names, 1)} {self.rng.choice(CMPOPS)} {self.expr(names, 1)}"
        if self.rng.random() < 0.2:
            text += f" and {self.rng.choice(names)}"
        return text

    def block(self, names: list[str], indent: int, depth: int, length: int) -> list[str]:
        lines: list[str] = []
        pad = "    " * indent
        for _ in range(length):
            lines.extend(self.statement(names, indent, depth))
        return lines or [pad + "pass"]

    def statement(self, names: list[str], indent: int, depth: int) -> list[str]:
        rng = self.rng
        pad = "    " * indent
        roll = rng.random()
        if depth < 2 and roll < 0.18:
            var = rng.choice(["i", "j", "k", self.name()])
            source = rng.choice([f"range({self.expr(names, 1)})", rng.choice(names), f"enumerate({rng.choice(names)})"])
            if source.startswith("enumerate"):
                var = f"{var}, {self.name()}"
            inner = names + [v.strip() for v in var.split(",")]
            return [f"{pad}for {var} in {source}:", *self.block(inner, indent + 1, depth + 1, rng.randint(1, 3))]
        if depth < 2 and roll < 0.33:
            lines = [f"{pad}if {self.condition(names)}:", *self.block(names, indent + 1, depth + 1, rng.randint(1, 3))]
            if rng.random() < 0.3:
                lines += [f"{pad}elif {self.condition(names)}:", *self.block(names, indent + 1, depth + 1, 1)]
            if rng.random() < 0.4:
                lines += [f"{pad}else:", *self.block(names, indent + 1, depth + 1, rng.randint(1, 2))]
            return lines
        if depth < 2 and roll < 0.38:
            return [f"{pad}while {self.condition(names)}:", *self.block(names, indent + 1, depth + 1, rng.randint(1, 3)), f"{pad}    break"]
        if roll < 0.45:
            var = self.name()
            names.append(var)
            item = rng.choice(["x", "y", "v"])
            return [f"{pad}{var} = [{self.expr(names + [item], 1)} for {item} in {rng.choice(names)} if {item} {rng.choice(CMPOPS)} {rng.randint(0, 9)}]"]
        if roll < 0.52:
            return [f"{pad}{rng.choice(names)}.append({self.expr(names)})"]
        if roll < 0.57:
            return [f"{pad}print({rng.choice(names)}, {self.expr(names)})"]
        if roll < 0.62 and depth > 0:
            return [f"{pad}{rng.choice(['continue', 'break', 'return ' + self.expr(names)])}"] if depth > 1 else [f"{pad}return {self.expr(names)}"]
        var = self.name() if rng.random() < 0.5 else rng.choice(names)
        if var not in names:
            names.append(var)
        op = rng.choice(["=", "=", "+=", "-="]) if var in names[:-1] else "="
        return [f"{pad}{var} {op} {self.expr(names)}"]

    def function(self, indent: int = 0, method: bool = False) -> list[str]:
        rng = self.rng
        name = self.function_name()
        params = list(dict.fromkeys(self.name() for _ in range(rng.randint(1, 3))))
        pad = "    " * indent
        signature = ", ".join((["self"] if method else []) + params)
        lines = [f"{pad}def {name}({signature}):"]
        if rng.random() < 0.4:
            lines.append(f'{pad}    """{rng.choice(VERBS).capitalize()} the {rng.choice(WORDS)} of the {rng.choice(WORDS)}."""')
        names = list(params)
        lines += self.block(names, indent + 1, 0, rng.randint(2, 6))
        lines.append(f"{pad}    return {self.expr(names)}")
        self.functions.append(("self." if method else "") + name)
        return lines

    def write(self) -> list[list[str]]:
        """The program as sections (imports first, then one per
        top-level definition, the entry point last)."""
        rng = self.rng
        sections = [[f"import {m}" for m in sorted(rng.sample(MODULES, rng.randint(1, 4)))]]
        constants = [f"{self.name().upper()} = {rng.randint(1, 1000)}" for _ in range(rng.randint(0, 3))]
        if constants:
            sections.append(constants)
        for _ in range(rng.randint(2, 6)):
            if rng.random() < 0.12:
                class_name = "".join(w.capitalize() for w in self.name().split("_"))
                body = [f"class {class_name}:", "    def __init__(self, size):", "        self.size = size", "        self.items = []"]
                for _ in range(rng.randint(1, 3)):
                    body += [""] + self.function(indent=1, method=True)
                sections.append(body)
            else:
                sections.append(self.function())
        main_call = rng.choice([f for f in self.functions if not f.startswith("self.")] or ["print"])
        sections.append(["if __name__ == \"__main__\":", f"    {main_call}(int(sys.argv[1]) if len(sys.argv) > 1 else 10)"])
        if "import sys" not in sections[0]:
            sections[0].append("import sys")
        return sections


def render(sections: list[list[str]]) -> str:
    return "\n\n\n".join("\n".join(s) for s in sections) + "\n"


def original(seed: int, index: int) -> list[list[str]]:
    return Program(random.Random(f"{seed}:{index}")).write()


def disguise(sections: list[list[str]], rng: random.Random) -> list[list[str]]:
    """A copy the way it is hidden: renamed identifiers, reordered
    definitions, changed constants, a few lines dropped or commented."""
    import re

    words = sorted(set(WORDS))
    renames = dict(zip(words, rng.sample(words, len(words))))
    identifier = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")
    body = sections[1:-1]
    rng.shuffle(body)
    out = [sections[0]]
    for section in body + [sections[-1]]:
        lines = []
        for line in section:
            line = identifier.sub(lambda m: renames[m.group(1)], line)
            if rng.random() < 0.05:
                line = re.sub(r"\b\d+\b", lambda m: str(int(m.group(0)) + rng.randint(1, 5)), line)
            roll = rng.random()
            stripped = line.strip()
            droppable = not stripped.endswith(":") and not stripped.startswith(("def ", "class ", "return", '"""'))
            if roll < 0.03 and droppable and len(section) > 4:
                continue
            if roll < 0.08:
                lines.append(line[: len(line) - len(line.lstrip())] + rng.choice(COMMENTS))
            lines.append(line)
        out.append(lines)
    return out


def file_name(index: int) -> str:
    return f"{index // PER_FOLDER:03d}/{index:07d}.py"


def planted_source(seed: int, index: int) -> int | None:
    """The file that file `index` copies, if it is a planted copy: an
    earlier file of the same folder."""
    rng = random.Random(f"{seed}:copy:{index}")
    first = index - index % PER_FOLDER
    if index == first or rng.random() >= COPY_SHARE:
        return None
    return rng.randrange(first, index)


def program(seed: int, index: int) -> list[list[str]]:
    """File `index` as sections; a copy of a copy copies the copy."""
    source = planted_source(seed, index)
    if source is None:
        return original(seed, index)
    return disguise(program(seed, source), random.Random(f"{seed}:disguise:{index}"))


def write_folder(job: tuple[Path, int, int, int]) -> list[tuple[str, str]]:
    """Writes one folder, unless a previous run finished it; returns its
    planted pairs."""
    out, seed, start, stop = job
    folder = out / "files" / f"{start // PER_FOLDER:03d}"
    stamp = out / "parts" / f"{start // PER_FOLDER:03d}.csv"
    planted = []
    for index in range(start, stop):
        source = planted_source(seed, index)
        if source is not None:
            planted.append((file_name(source), file_name(index)))
    finished = f"{seed},{start},{stop}\n"
    if stamp.exists() and stamp.read_text(encoding="utf-8") == finished:
        return planted
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(start, stop):
        (out / "files" / file_name(index)).write_text(render(program(seed, index)), encoding="utf-8")
    stamp.write_text(finished, encoding="utf-8")
    return planted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    done = args.out / "done"
    stamp = f"{args.files} files, seed {args.seed}\n"
    if done.exists() and done.read_text() == stamp:
        print(f"synth-corpus: {args.out} already holds {stamp.strip()}")
        return 0
    (args.out / "parts").mkdir(parents=True, exist_ok=True)
    jobs = [(args.out, args.seed, s, min(s + PER_FOLDER, args.files)) for s in range(0, args.files, PER_FOLDER)]
    with Pool(args.jobs) as pool:
        planted = [pair for folder in pool.imap(write_folder, jobs) for pair in folder]
    with open(args.out / "planted.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["a", "b"])
        writer.writerows(planted)
    done.write_text(stamp)
    print(f"synth-corpus: {args.files} files, {len(planted)} planted copies in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
