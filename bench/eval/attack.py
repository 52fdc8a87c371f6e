#!/usr/bin/env python3
"""Obfuscation benchmark: programs from the labelled datasets attacked the
way students and tools hide a copy, at increasing strength, and how each
tool scores the attacked copies against the unrelated pairs.

    python3 bench/eval/attack.py                       # copyhound only
    python3 bench/eval/attack.py --tools all           # and every installed peer
    python3 bench/eval/attack.py --variant 'order=--statement-order canonical'

Originals: Java submissions of one task (progpedia19 `human/`), of six
Codeforces problems (conplag-train-tf, one file per submission) and of
five introductory tasks (irplag-open's originals and independent
solutions), and C programs (soco-train-c, those in no labelled copy
pair); those the attacks' parser cannot read are left out, and so is
any that shares half its token 5-grams with one taken before it. Each attack
(obfuscate.py) turns every original into one copy; a batch is the
originals and their copies, so its positives are the pairs (original,
its copy) and every other pair is an unrelated one. The batches are
written under bench/out/attack/<language>/<attack>/ in the datasets'
layout and scored by run.py's tools, each at its defaults (`--variant`
adds copyhound runs with other options).

Attacks (see obfuscate.py):

* format   comments dropped, new comments, another layout (every attack
           below starts from this one);
* rename   every name the program declares renamed consistently;
* reorder  adjacent statements that share no name (at most one calling
           anything) swapped;
* loops    `for (init; cond; step) body` rewritten as `init; while (cond)
           { body step; }`;
* extract  statements moved into new helper methods, called with the
           locals they read;
* dead-N   a dead statement (an unused local declared, incremented,
           assigned) inserted after N % of the statements;
* level-1…5  the attacks together at increasing strength: format;
           + rename; + reorder and loops; + extract and dead-25;
           + dead-100.

The table (bench/out/attack/attack.md) gives per tool and attack the
median similarity of the copies, the share of copies scoring above the
95th percentile of the unrelated pairs, and AP; attack.svg plots the
levels. Inlining (the opposite of extract) is not generated.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import run
import score
from obfuscate import ATTACKS, ParseError, attack, lex, parse

OUT = run.OUT / "attack"


@dataclass
class Original:
    name: str
    language: str
    text: str


def originals(datasets: Path) -> list[Original]:
    """The programs attacked: every one that parses."""
    found: list[Original] = []

    def add(name: str, language: str, path: Path) -> None:
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            parse(text)
        except (ParseError, IndexError, KeyError):
            return
        found.append(Original(name, language, text))

    progpedia = datasets / "progpedia19" / "files" / "human"
    for folder in sorted(progpedia.glob("subm*")):
        files = sorted(folder.glob("*.java"))
        if len(files) == 1:
            add(f"progpedia-{folder.name}", "java", files[0])
    conplag = datasets / "conplag-train-tf" / "files"
    seen: set[str] = set()
    for path in sorted(conplag.glob("*/*.java")):
        if path.stem not in seen and len(seen) < 60:
            seen.add(path.stem)
            add(f"conplag-{path.stem}", "java", path)
    irplag = datasets / "irplag-open" / "files"
    for path in sorted(irplag.glob("case-0*/original/*.java")) + sorted(irplag.glob("case-0*/non-plagiarized/*/*.java")):
        add(f"irplag-{path.parts[-3]}-{path.parent.name}", "java", path)
    soco = datasets / "soco-train-c"
    if soco.exists():
        copied = {name for row in score.read_csv(soco / "truth.csv") if row["label"] == "1" for name in (row["a"], row["b"])}
        for path in sorted((soco / "files").glob("*.c")):
            if path.name not in copied:
                add(f"soco-{path.stem}", "c", path)
    return distinct(found)


def distinct(found: list[Original], limit: float = 0.5) -> list[Original]:
    """The originals without near-duplicates: each is kept only if it
    shares less than `limit` of its token 5-grams (names as one token,
    Jaccard) with every one kept before it. Independent solutions of a
    tiny task are often near-identical, and an unrelated pair that is
    one would blur what an attack costs."""
    kept: list[tuple[Original, set]] = []
    for original in found:
        words = ["V" if t.kind == "ident" else t.text for t in lex(original.text)]
        grams = {tuple(words[i : i + 5]) for i in range(len(words) - 4)}
        similar = any(
            other.language == original.language and len(grams & seen) > limit * len(grams | seen)
            for other, seen in kept
        )
        if grams and not similar:
            kept.append((original, grams))
    return [original for original, _ in kept]


def write_batch(name: str, language: str, chosen: list[Original], steps: list[str], seed: int) -> Path:
    """One dataset folder: the originals and one attacked copy of each."""
    folder = OUT / language / name
    if folder.exists():
        shutil.rmtree(folder)
    files = folder / "files"
    files.mkdir(parents=True)
    extension = "java" if language == "java" else "c"
    units, truth = [], []
    for n, original in enumerate(chosen):
        a = f"orig/{original.name}.{extension}"
        b = f"copy/{original.name}.{extension}"
        (files / "orig").mkdir(exist_ok=True)
        (files / "copy").mkdir(exist_ok=True)
        (files / a).write_text(original.text, encoding="utf-8")
        (files / b).write_text(attack(original.text, steps, language, seed * 1000 + n), encoding="utf-8")
        units += [a, b]
        truth.append((a, b))
    with open(folder / "units.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["unit"])
        writer.writerows([u] for u in units)
    with open(folder / "truth.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["a", "b", "label"])
        writer.writerows([a, b, 1] for a, b in truth)
    meta = {"name": name, "language": language, "unit": "file", "unlisted": "negative", "description": f"attack {name}"}
    (folder / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return folder


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def measure(folder: Path, scores_csv: Path) -> dict:
    """Median copy similarity, the unrelated pairs' 95th percentile, the
    share of copies above it, and AP."""
    dataset = score.load_dataset(folder)
    labels = dataset.scored_pairs()
    scores = score.load_scores(scores_csv)
    copies = [scores.get(p, 0.0) for p, label in labels.items() if label == 1]
    unrelated = [scores.get(p, 0.0) for p, label in labels.items() if label == 0]
    p95 = percentile(unrelated, 0.95)
    return {
        "copies": statistics.median(copies),
        "unrelated_p95": p95,
        "above": sum(c > p95 for c in copies) / len(copies),
        "ap": score.evaluate(labels, scores).ap,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets-dir")
    parser.add_argument("--tools", default="copyhound", help="as run.py: copyhound, copydetect, dolos, sim, or all")
    parser.add_argument("--copyhound", type=Path)
    parser.add_argument(
        "--variant",
        action="append",
        metavar="NAME=ARGS",
        help="also run copyhound with these extra arguments, shown as `copyhound NAME` (repeatable)",
    )
    parser.add_argument("--attacks", nargs="+", default=list(ATTACKS), choices=list(ATTACKS))
    parser.add_argument("--languages", nargs="+", default=["java", "c"], choices=["java", "c"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    datasets = run.find_datasets_dir(args.datasets_dir)
    if datasets is None:
        print("attack.py: no datasets folder; nothing to attack")
        return 0
    pool = originals(datasets)
    # (label, tools, extra copyhound arguments) of each run.py call.
    runs = [("", args.tools, "")]
    for variant in args.variant or []:
        name, _, extra = variant.partition("=")
        runs.append((name, "copyhound", extra))
    results: dict[tuple[str, str], dict[str, dict]] = {}
    for language in args.languages:
        chosen = [o for o in pool if o.language == language]
        print(f"attack.py: {language}: {len(chosen)} originals", file=sys.stderr)
        for name in args.attacks:
            write_batch(name, language, chosen, ATTACKS[name], args.seed)
        for variant, tools, extra in runs:
            label = f"attack-{language}" + (f"-{variant}" if variant else "")
            forwarded = ["--datasets-dir", str(OUT / language), "--datasets", *args.attacks, "--tools", tools]
            forwarded += ["--label", label, f"--copyhound-args={extra}", "--pairs-only"]
            if args.copyhound:
                forwarded += ["--copyhound", str(args.copyhound)]
            started = time.time()
            run.main(forwarded)
            ran = ["copyhound", "copydetect", "dolos", "sim"] if tools == "all" else tools.split(",")
            for name in args.attacks:
                for tool in ran:
                    scores_csv = run.OUT / "eval" / label / name / f"{tool}.csv"
                    # Only what this run wrote: a tool it skipped may have
                    # left scores of other batches there.
                    if not scores_csv.exists() or scores_csv.stat().st_mtime < started:
                        continue
                    shown = f"{tool} {variant}" if variant else tool
                    results.setdefault((language, name), {})[shown] = measure(OUT / language / name, scores_csv)
    table = format_table(results)
    print(table)
    (OUT / "attack.md").write_text(table + "\n", encoding="utf-8")
    (OUT / "attack.json").write_text(
        json.dumps({f"{lang}/{name}": tools for (lang, name), tools in results.items()}, indent=2), encoding="utf-8"
    )
    (OUT / "attack.svg").write_text(plot(results), encoding="utf-8")
    print(f"attack.py: table in {OUT / 'attack.md'}, plot in {OUT / 'attack.svg'}", file=sys.stderr)
    return 0


def format_table(results: dict[tuple[str, str], dict[str, dict]]) -> str:
    tools = sorted({tool for by_tool in results.values() for tool in by_tool}, key=lambda t: (not t.startswith("copyhound"), t))
    header = "| language | attack | " + " | ".join(tools) + " |"
    lines = [
        "Each cell: median similarity of the copies / share of copies above the unrelated pairs' 95th percentile / AP.",
        "",
        header,
        "|---|---|" + "---:|" * len(tools),
    ]
    for (language, name), by_tool in results.items():
        cells = []
        for tool in tools:
            m = by_tool.get(tool)
            cells.append("–" if m is None else f"{m['copies']:.2f} / {m['above']:.2f} / {m['ap']:.3f}")
        lines.append(f"| {language} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(results: dict[tuple[str, str], dict[str, dict]]) -> str:
    """An SVG line chart per language: each tool's median copy similarity
    (solid) and unrelated 95th percentile (dashed) over levels 1–5."""
    width, height, margin = 420, 300, 45
    colours = ["#1b6ca8", "#d1495b", "#66a182", "#edae49", "#8e6c8a", "#555555", "#e07b39", "#2bb3c0"]
    languages = sorted({language for language, _ in results})
    tools = sorted({tool for by_tool in results.values() for tool in by_tool}, key=lambda t: (not t.startswith("copyhound"), t))
    levels = [f"level-{n}" for n in range(1, 6)]
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * max(1, len(languages))}" height="{height + 25 + 13 * len(tools)}" '
        'font-family="sans-serif" font-size="11">'
    ]
    for panel, language in enumerate(languages):
        x0 = panel * width

        def x(i: int) -> float:
            return x0 + margin + i * (width - 2 * margin) / (len(levels) - 1)

        def y(v: float) -> float:
            return margin + (1 - v) * (height - 2 * margin)

        svg.append(f'<text x="{x0 + width / 2}" y="20" text-anchor="middle" font-size="13">{language}: copies (solid) vs unrelated p95 (dashed)</text>')
        svg.append(f'<rect x="{x0 + margin}" y="{margin}" width="{width - 2 * margin}" height="{height - 2 * margin}" fill="none" stroke="#999"/>')
        for v in (0, 0.25, 0.5, 0.75, 1):
            svg.append(f'<text x="{x0 + margin - 5}" y="{y(v) + 4}" text-anchor="end">{v:.2f}</text>')
        for i, level in enumerate(levels):
            svg.append(f'<text x="{x(i)}" y="{height - margin + 15}" text-anchor="middle">{i + 1}</text>')
        svg.append(f'<text x="{x0 + width / 2}" y="{height - margin + 30}" text-anchor="middle">attack level</text>')
        for t, tool in enumerate(tools):
            colour = colours[t % len(colours)]
            for key, dash in (("copies", ""), ("unrelated_p95", ' stroke-dasharray="4 3"')):
                points = [
                    (x(i), y(results[(language, level)][tool][key]))
                    for i, level in enumerate(levels)
                    if tool in results.get((language, level), {})
                ]
                if len(points) > 1:
                    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
                    svg.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
            svg.append(f'<text x="{x0 + margin + 5}" y="{height + 15 + 12 * t}" fill="{colour}">{tool}</text>')
    svg.append("</svg>")
    return "\n".join(svg) + "\n"


if __name__ == "__main__":
    sys.exit(main())
