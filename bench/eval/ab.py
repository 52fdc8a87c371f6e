#!/usr/bin/env python3
"""Two or more copyhound binaries, alternated on the labelled sets where a
run takes tens of milliseconds: the median (and least) wall time and the
median CPU time of each, so that a change is measured against the build
before it under the same load.

    python3 bench/eval/ab.py OLD_BINARY NEW_BINARY [--runs 10]
                             [--sets irplag-open,conplag-train-tf,pan-even,progpedia19]

Each run writes what the speed run (speed.py) has copyhound write; the
outputs go to bench/out/ab/. One run of a 50 ms batch is too short to
compare two builds by, and running one build ten times and then the other
lets the machine's state drift between them: alternating does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

import run

OUT = run.OUT / "ab"
DEFAULT_SETS = ["irplag-open", "conplag-train-tf", "pan-even", "progpedia19"]
# Unit folders of progpedia19 are one level down, one root per origin.
NESTED = {"progpedia19": ["gpt", "gptobf", "human", "insert", "refactor"]}


def arguments(datasets: Path, name: str) -> list[str]:
    """The `compare` arguments of the speed run for data set `name`."""
    files = datasets / name / "files"
    csv = ["--csv", str(OUT / "out.csv"), "--quiet"]
    if name in NESTED:
        roots = [str(files / root) for root in NESTED[name]]
        return [*roots, "--unit", "dir", "--json", str(OUT / "out.json"), "--json-details", "0", *csv]
    return [str(files), "--unit", "file", *csv]


def timed(binary: str, args: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one run. Not
    run.run_measured: it times through GNU time, whose 10 ms resolution
    and extra process are what this script is for avoiding."""
    start = time.perf_counter()
    child = subprocess.Popen([binary, "compare", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise SystemExit(f"ab: {binary} failed on {args[0]}")
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--datasets")
    options = parser.parse_args()
    datasets = run.find_datasets_dir(options.datasets)
    if datasets is None:
        raise SystemExit("ab: no datasets folder (give --datasets)")
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()}")
    for name in options.sets.split(","):
        args = arguments(datasets, name)
        times: dict[str, list[tuple[float, float]]] = {b: [] for b in options.binaries}
        for _ in range(options.runs):
            for binary in options.binaries:
                times[binary].append(timed(binary, args))
        for binary, runs in times.items():
            walls = [wall for wall, _ in runs]
            cpu = statistics.median(c for _, c in runs)
            print(
                f"{name:18} {binary}: wall median {statistics.median(walls):.1f} ms, "
                f"least {min(walls):.1f} ms; CPU median {cpu:.1f} ms"
            )


if __name__ == "__main__":
    main()
