"""The command line of the MinHash wrappers that bench/dedup-bench.py runs
(bench/dedup-datatrove.py, bench/dedup-textdedup.py): ``IN OUT
[--workers N]``, each in its tool's own virtual environment, so this
module needs only the standard library."""

import argparse
import os


def parse_args(description):
    """``input``, ``out`` (made absolute) and ``workers``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("input")
    parser.add_argument("out")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    args.out = os.path.abspath(args.out)
    return args
