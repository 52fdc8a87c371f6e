#!/usr/bin/env python3
"""datatrove's MinHash deduplication (signatures, buckets, clusters,
filter) on a JSONL file of ``{"id", "text"}`` rows, with its defaults
(5-gram words, 14 buckets of 8 hashes); writes the ids it removes, one per
line, to ``OUT/removed.txt``.

    python3 bench/dedup-datatrove.py IN.jsonl OUT [--workers 2]

Run by bench/dedup.sh in its own virtual environment (datatrove pins its
own dependencies).
"""

import glob
import gzip
import json
import os

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.dedup import MinhashDedupSignature
from datatrove.pipeline.dedup.minhash import (
    MinhashConfig,
    MinhashDedupBuckets,
    MinhashDedupCluster,
    MinhashDedupFilter,
)
from datatrove.pipeline.readers import JsonlReader
from datatrove.pipeline.writers import JsonlWriter
from dedup_minhash import parse_args


def main():
    args = parse_args(__doc__.split("\n\n")[0])
    work = args.out
    config = MinhashConfig()
    tasks = args.workers

    def reader():
        return JsonlReader(os.path.dirname(os.path.abspath(args.input)), glob_pattern=os.path.basename(args.input), id_key="id")

    LocalPipelineExecutor(
        pipeline=[reader(), MinhashDedupSignature(output_folder=f"{work}/signatures", config=config)],
        tasks=tasks, workers=args.workers, logging_dir=f"{work}/logs/signatures",
    ).run()
    LocalPipelineExecutor(
        pipeline=[MinhashDedupBuckets(input_folder=f"{work}/signatures", output_folder=f"{work}/buckets", config=config)],
        tasks=config.num_buckets, workers=args.workers, logging_dir=f"{work}/logs/buckets",
    ).run()
    LocalPipelineExecutor(
        pipeline=[MinhashDedupCluster(input_folder=f"{work}/buckets", output_folder=f"{work}/remove_ids", config=config)],
        tasks=1, workers=1, logging_dir=f"{work}/logs/clusters",
    ).run()
    LocalPipelineExecutor(
        pipeline=[
            reader(),
            MinhashDedupFilter(input_folder=f"{work}/remove_ids", exclusion_writer=JsonlWriter(f"{work}/removed")),
        ],
        tasks=tasks, workers=args.workers, logging_dir=f"{work}/logs/filter",
    ).run()
    removed = []
    for path in sorted(glob.glob(f"{work}/removed/*")):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as rows:
            removed += [json.loads(line)["id"] for line in rows]
    with open(f"{work}/removed.txt", "w") as out:
        out.write("\n".join(removed) + "\n")
    print(f"datatrove removed {len(removed)} documents")


if __name__ == "__main__":
    main()
