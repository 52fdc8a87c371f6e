#!/usr/bin/env python3
"""text-dedup's MinHash deduplication (``python -m text_dedup.minhash``,
its defaults: 5-gram words, 250 permutations, threshold 0.7) on a Parquet
file of ``{"id", "text"}`` rows; writes the ids it removes, one per line,
to ``OUT/removed.txt``.

    python3 bench/dedup-textdedup.py IN.parquet OUT [--workers 2]

Run by bench/dedup.sh in its own virtual environment (text-dedup pins its
own dependencies).
"""

import os
import subprocess
import sys

import pyarrow.parquet as pq
from datasets import load_from_disk
from dedup_minhash import parse_args


def main():
    args = parse_args(__doc__.split("\n\n")[0])
    work = args.out
    kept_dir = os.path.join(work, "kept")
    # Local files only: nothing is fetched from a hub.
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": os.path.join(work, "hf")}
    subprocess.run(
        [sys.executable, "-m", "text_dedup.minhash", "--path", "parquet", "--data_files", os.path.abspath(args.input),
         "--split", "train", "--cache_dir", os.path.join(work, "cache"), "--output", kept_dir, "--column", "text",
         "--num_proc", str(args.workers)],
        check=True, env=env,
    )
    kept = set(load_from_disk(kept_dir)["id"])
    removed = [i for i in pq.read_table(args.input, columns=["id"]).column("id").to_pylist() if i not in kept]
    with open(os.path.join(work, "removed.txt"), "w") as out:
        out.write("\n".join(removed) + "\n")
    print(f"text-dedup removed {len(removed)} documents")


if __name__ == "__main__":
    main()
