#!/usr/bin/env python3
"""Checks `compare --against` against a plain `compare` on the labelled
data sets: each set's units are split into an archive half and a new half
(alternately, in name order), the archive half registered with
`db init A --code` and `db add A DIR --unit U`, and

    copyhound compare NEW --unit U --against A --csv OUT -q

must list exactly the rows that

    copyhound compare NEW ARCHIVE_HALF --unit U --csv OUT -q

lists for the pairs with a new unit (every column but the origins). When
the plain listing reaches --max-pairs (archived pairs take places in it),
`--against` lists more pairs with a new unit: none may be more similar than
the plain listing's last.

    python3 bench/archive-split.py [--binary target/release/copyhound]
        [--datasets /work/shared/datasets] [--sets soco-train-c …]

Prints one line per set: units on each side, rows compared, rows that
differ or are missing (0 when the two agree), rows only `--against` lists,
and the seconds of each command. The halves
are hard links (or copies) in a temporary folder, removed at the end.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def place(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def split(dataset: Path, work: Path) -> tuple[Path, Path, str, int, int]:
    meta = json.loads((dataset / "meta.json").read_text())
    unit_mode = meta["unit"]
    with open(dataset / "units.csv", newline="") as f:
        units = sorted(row["unit"] for row in csv.DictReader(f))
    halves = (work / "archive-half", work / "new-half")
    for i, unit in enumerate(units):
        half = halves[i % 2]
        source = dataset / "files" / unit
        if source.is_dir():
            # One folder per unit, directly in the half, as `--unit dir`
            # reads it (`task/alice` becomes `task__alice`).
            folder = half / unit.replace("/", "__")
            for file in sorted(p for p in source.rglob("*") if p.is_file()):
                place(file, folder / file.relative_to(source))
        else:
            place(source, half / unit)
    return halves[0], halves[1], unit_mode, (len(units) + 1) // 2, len(units) // 2


def rows(binary: str, args: list[str]) -> tuple[dict[tuple[str, str], list[str]], float]:
    start = time.monotonic()
    out = subprocess.run(
        [binary, "compare", *args, "--csv", "-", "-q"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    seconds = time.monotonic() - start
    if out.returncode not in (0, 1):
        sys.exit(f"archive-split: {' '.join(args)}: exit {out.returncode}\n{out.stderr}")
    reader = csv.DictReader(io.StringIO(out.stdout))
    found = {}
    for row in reader:
        a, b = sorted((row["a"], row["b"]))
        values = [v for k, v in row.items() if k not in ("a", "b", "a_origin", "b_origin")]
        found[(a, b)] = values
    return found, seconds


def check(binary: str, dataset: Path) -> str:
    with tempfile.TemporaryDirectory(prefix="archive-split-") as tmp:
        work = Path(tmp)
        old, new, unit, n_old, n_new = split(dataset, work)
        archive = work / "archive"
        subprocess.run([binary, "db", "init", str(archive), "--code"], check=True, capture_output=True)
        start = time.monotonic()
        add = subprocess.run(
            [binary, "db", "add", str(archive), str(old), "--unit", unit],
            capture_output=True,
            text=True,
        )
        add_seconds = time.monotonic() - start
        if add.returncode not in (0, 1):
            sys.exit(f"archive-split: db add: exit {add.returncode}\n{add.stderr}")
        plain, plain_seconds = rows(binary, [str(new), str(old), "--unit", unit])
        expected = {
            pair: values
            for pair, values in plain.items()
            if (new / pair[0]).exists() or (new / pair[1]).exists()
        }
        against, against_seconds = rows(binary, [str(new), "--unit", unit, "--against", str(archive)])
        differ = sum(1 for pair, values in expected.items() if against.get(pair) != values)
        extra = [values for pair, values in against.items() if pair not in expected]
        # The plain listing stops at --max-pairs over all pairs, archived
        # ones included: --against may list more pairs with a new unit,
        # none of them more similar than the plain listing's last.
        floor = min((float(v[0]) for v in plain.values()), default=0.0)
        above = sum(1 for values in extra if float(values[0]) > floor)
        return (
            f"{dataset.name}: {n_old} archived, {n_new} new units; {len(expected)} rows with a new unit, "
            f"{differ} differ or missing; {len(extra)} more listed by --against "
            f"({above} above the plain listing's last, {len(plain)} rows); db add {add_seconds:.1f} s, "
            f"plain compare {plain_seconds:.1f} s, --against {against_seconds:.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/release/copyhound")
    parser.add_argument("--datasets", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--sets", nargs="*")
    args = parser.parse_args()
    names = args.sets or sorted(
        p.name for p in args.datasets.iterdir() if (p / "meta.json").is_file()
    )
    for name in names:
        print(check(args.binary, args.datasets / name), flush=True)


if __name__ == "__main__":
    main()
