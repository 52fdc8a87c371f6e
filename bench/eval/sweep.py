#!/usr/bin/env python3
"""Runs copyhound under several settings over the same datasets and prints
one AP table: a row per setting, a column per dataset, and the mean and
the worst AP across them (a good default is good everywhere).

    python3 bench/eval/sweep.py --datasets soco-train-c irplag-open \\
        --setting 'default=' --setting 'k12=-k 12' --setting 'exact=--level exact'

Each setting is LABEL=ARGS, ARGS being extra `copyhound compare`
arguments. Every run's files go to bench/out/eval/sweep-LABEL/; the
table goes to stdout and to bench/out/eval/sweep.md (appended).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path

import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", required=True, metavar="NAME")
    parser.add_argument("--setting", action="append", required=True, metavar="LABEL=ARGS")
    parser.add_argument("--datasets-dir")
    parser.add_argument("--copyhound", type=Path)
    args = parser.parse_args(argv)

    table: dict[str, dict[str, dict]] = {}
    for setting in args.setting:
        label, _, extra = setting.partition("=")
        forwarded = ["--datasets", *args.datasets, "--label", f"sweep-{label}", f"--copyhound-args={extra}"]
        if args.datasets_dir:
            forwarded += ["--datasets-dir", args.datasets_dir]
        if args.copyhound:
            forwarded += ["--copyhound", str(args.copyhound)]
        quiet = io.StringIO()
        with contextlib.redirect_stdout(quiet):
            run.main(forwarded)
        rows = json.loads((run.OUT / "eval" / f"sweep-{label}" / "results.json").read_text(encoding="utf-8"))
        table[label] = {r["dataset"]: r for r in rows if r["tool"] == "copyhound"}
        print(f"sweep: {label} ({extra or 'defaults'}) done", file=sys.stderr, flush=True)

    names = args.datasets
    # Datasets with passage-level truth also get a plagdet column.
    passage_sets = [n for n in names if any("plagdet" in table[label].get(n, {}) for label in table)]
    header = (
        "| setting | args | "
        + " | ".join(names)
        + " | mean | worst | "
        + "".join(f"{n} plagdet | " for n in passage_sets)
        + "CPU s |"
    )
    lines = [header, "|---|---|" + "---:|" * (len(names) + 3 + len(passage_sets))]
    for setting in args.setting:
        label, _, extra = setting.partition("=")
        results = table[label]
        aps = [results[n]["ap"] if n in results and "ap" in results[n] else float("nan") for n in names]
        cpu = sum(results[n].get("cpu_s", 0.0) for n in names if n in results)
        known = [ap for ap in aps if ap == ap]
        mean = sum(known) / len(known) if known else float("nan")
        worst = min(known) if known else float("nan")
        cells = " | ".join(run.number(ap, 3) for ap in aps)
        passages = "".join(
            run.number(results.get(n, {}).get("plagdet", {}).get("plagdet", float("nan")), 3) + " | " for n in passage_sets
        )
        lines.append(
            f"| {label} | `{extra or '(defaults)'}` | {cells} | {run.number(mean, 3)} | {run.number(worst, 3)} | "
            f"{passages}{cpu:.1f} |"
        )
    text = "\n".join(lines)
    print(text)
    with open(run.OUT / "eval" / "sweep.md", "a", encoding="utf-8") as f:
        f.write(text + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
