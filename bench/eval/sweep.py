#!/usr/bin/env python3
"""Runs copyhound under several settings over the same datasets and prints
one AP table: a row per setting, a column per dataset, and the mean and
the worst AP across them (a good default is good everywhere).

    python3 bench/eval/sweep.py --datasets soco-train-c irplag-open \\
        --setting 'default=' --setting 'k12=-k 12' --setting 'exact=--level exact'

Each setting is LABEL=ARGS, ARGS being extra `copyhound compare`
arguments. Every run's files go to bench/out/eval/sweep-LABEL/; the
table goes to stdout and to bench/out/eval/sweep.md (appended).

`--seeds 0 1 2 3 4` runs every setting once per hash key (`--seed S`,
files in sweep-LABEL-sS/): winnowing keeps a key-dependent share of the
short shared runs, which moves AP on small sets by a few hundredths
(docs/EVALUATION.md, "Hash-key noise"). Each cell is then the mean AP
over the keys with the worst key's in parentheses, and "mean" and
"worst" are taken over those per-dataset means.
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
    parser.add_argument("--seeds", nargs="+", type=int, metavar="S", help="run every setting at each of these hash keys")
    args = parser.parse_args(argv)

    # Per setting: one {dataset: result row} per hash key run.
    table: dict[str, list[dict[str, dict]]] = {}
    for setting in args.setting:
        label, _, extra = setting.partition("=")
        runs = [(f"sweep-{label}", extra)] if not args.seeds else [
            (f"sweep-{label}-s{seed}", f"{extra} --seed {seed}".strip()) for seed in args.seeds
        ]
        table[label] = []
        for run_label, run_args in runs:
            forwarded = ["--datasets", *args.datasets, "--label", run_label, f"--copyhound-args={run_args}"]
            if args.datasets_dir:
                forwarded += ["--datasets-dir", args.datasets_dir]
            if args.copyhound:
                forwarded += ["--copyhound", str(args.copyhound)]
            quiet = io.StringIO()
            with contextlib.redirect_stdout(quiet):
                run.main(forwarded)
            rows = json.loads((run.OUT / "eval" / run_label / "results.json").read_text(encoding="utf-8"))
            table[label].append({r["dataset"]: r for r in rows if r["tool"] == "copyhound"})
            print(f"sweep: {run_label} ({run_args or 'defaults'}) done", file=sys.stderr, flush=True)

    settings = [(label, extra) for label, _, extra in (s.partition("=") for s in args.setting)]
    text = format_table(args.datasets, settings, table)
    print(text)
    with open(run.OUT / "eval" / "sweep.md", "a", encoding="utf-8") as f:
        f.write(text + "\n\n")
    return 0


def format_table(names: list[str], settings: list[tuple[str, str]], table: dict[str, list[dict[str, dict]]]) -> str:
    """The AP table: a row per (label, args) setting, a column per dataset
    of `names`; `table[label]` holds one {dataset: result row} per hash key
    run. With several keys a cell is the mean AP and the worst key's AP in
    parentheses; "mean" and "worst" are over the per-dataset means, and CPU
    seconds are those of one run (the mean over keys)."""
    # Datasets with passage-level truth also get a plagdet column.
    passage_sets = [
        n for n in names if any("plagdet" in keyed.get(n, {}) for label in table for keyed in table[label])
    ]
    header = (
        "| setting | args | "
        + " | ".join(names)
        + " | mean | worst | "
        + "".join(f"{n} plagdet | " for n in passage_sets)
        + "CPU s |"
    )
    lines = [header, "|---|---|" + "---:|" * (len(names) + 3 + len(passage_sets))]
    for label, extra in settings:
        keyed = table[label]
        per_key = [[key_run.get(n, {}).get("ap", float("nan")) for key_run in keyed] for n in names]
        aps = [average(values) for values in per_key]
        cpu = sum(key_run[n].get("cpu_s", 0.0) for key_run in keyed for n in names if n in key_run) / len(keyed)
        known = [ap for ap in aps if ap == ap]
        mean = sum(known) / len(known) if known else float("nan")
        worst = min(known) if known else float("nan")
        cells = " | ".join(
            run.number(ap, 3) + (f" ({run.number(lowest(values), 3)})" if len(values) > 1 else "")
            for ap, values in zip(aps, per_key)
        )
        passages = "".join(
            run.number(
                average([key_run.get(n, {}).get("plagdet", {}).get("plagdet", float("nan")) for key_run in keyed]), 3
            )
            + " | "
            for n in passage_sets
        )
        lines.append(
            f"| {label} | `{extra or '(defaults)'}` | {cells} | {run.number(mean, 3)} | {run.number(worst, 3)} | "
            f"{passages}{cpu:.1f} |"
        )
    return "\n".join(lines)


def average(values: list[float]) -> float:
    """The mean of `values`; NaN if any is NaN (a dataset a run lacked)."""
    return sum(values) / len(values) if values else float("nan")


def lowest(values: list[float]) -> float:
    """The least of `values`; NaN if any is NaN (`min` would skip it)."""
    return float("nan") if any(v != v for v in values) else min(values)


if __name__ == "__main__":
    sys.exit(main())
