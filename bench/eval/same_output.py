#!/usr/bin/env python3
"""Two copyhound binaries, byte for byte: the outputs of `compare` on every
labelled set, run as run.py runs it, must be identical.

    python3 bench/eval/same_output.py OLD_BINARY NEW_BINARY [--sets a,b]

For a change that must not change behaviour (a refactoring, a speed-up):
each set is compared with `--csv`, `--json` with every pair's details
(`--json-details all`) and `--report` (the HTML page, which holds no
timestamp), and the table on stdout and the warnings on stderr are kept
too; the README's example command is run the same way. Every output of the
two binaries is compared with `cmp`; those that differ are named and the
exit code is 1. The outputs go to bench/out/same-output/ and are removed
when they are the same (the JSON of a set can take gigabytes).
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import run
import score

OUT = run.OUT / "same-output"
OUTPUTS = ["out.csv", "out.json", "out.html", "stdout", "stderr"]


def batches(datasets: Path, names: list[str]) -> list[tuple[str, list[str]]]:
    """Each set's `compare` inputs as run.py gives them, then the README's
    example batch."""
    found = []
    for name in names:
        dataset = score.load_dataset(datasets / name)
        files = datasets / name / "files"
        if dataset.unit_kind == "file":
            found.append((name, [str(files), "--unit", "file"]))
        else:
            roots = [str(root) for root, _ in run.unit_roots(dataset, files)]
            found.append((name, [*roots, "--unit", "dir"]))
    examples = run.REPO / "examples" / "compare"
    found.append(
        (
            "readme-example",
            [
                str(examples / "submissions"),
                "--base",
                str(examples / "base"),
                "--old",
                str(examples / "previous"),
            ],
        )
    )
    return found


def outputs(binary: str, inputs: list[str], folder: Path) -> None:
    """Runs `binary compare` on `inputs`, every output written to `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        binary,
        "compare",
        *inputs,
        "--csv",
        str(folder / "out.csv"),
        "--json",
        str(folder / "out.json"),
        "--json-details",
        "all",
        "--report",
        str(folder / "out.html"),
        "--quiet",
    ]
    with open(folder / "stdout", "wb") as out, open(folder / "stderr", "wb") as err:
        status = subprocess.run(command, stdout=out, stderr=err, check=False).returncode
    (folder / "status").write_text(f"{status}\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--sets", default=",".join(run.DATASETS))
    parser.add_argument("--datasets")
    args = parser.parse_args()
    datasets = run.find_datasets_dir(args.datasets)
    if datasets is None:
        raise SystemExit("same_output: no datasets folder (--datasets)")
    differ = False
    for name, inputs in batches(datasets, args.sets.split(",")):
        folders = {which: OUT / name / which for which in ("old", "new")}
        outputs(args.old, inputs, folders["old"])
        outputs(args.new, inputs, folders["new"])
        different = [
            output
            for output in [*OUTPUTS, "status"]
            if not filecmp.cmp(folders["old"] / output, folders["new"] / output, shallow=False)
        ]
        sizes = ", ".join(f"{o} {(folders['new'] / o).stat().st_size:,} B" for o in OUTPUTS[:3])
        if different:
            differ = True
            print(f"{name}: DIFFERENT: {', '.join(different)} (see {OUT / name})")
        else:
            print(f"{name}: identical ({sizes})")
            shutil.rmtree(OUT / name)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
