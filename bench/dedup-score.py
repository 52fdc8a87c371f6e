#!/usr/bin/env python3
"""Recall of the planted pairs of bench/dedup-corpus.py.

    python3 bench/dedup-score.py TRUTH.json --copyhound OUT [--slice]
    python3 bench/dedup-score.py TRUTH.json --removed REMOVED.txt --slice

A near-duplicate pair is found when both documents land in one cluster
(``clusters.parquet``) or, for a tool that only removes documents, when
one of the two is removed. A partial copy is found when its pair is listed
in ``pairs.parquet`` with a passage covering at least half of the planted
bytes in the host (for a removal-only tool: when one of the two is
removed). ``--slice`` scores only the pairs of the first block (the
slice). Prints one JSON object.
"""

import argparse
import json

import pyarrow.parquet as pq


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("truth")
    parser.add_argument("--copyhound", help="an output directory of copyhound dedup or the Spark job")
    parser.add_argument("--removed", help="a file of removed ids, one per line")
    parser.add_argument("--slice", action="store_true")
    args = parser.parse_args()
    truth = json.load(open(args.truth))
    near, partial = truth["near"], truth["partial"]
    if args.slice:
        last = f"doc{truth['block']:07d}"
        near = [p for p in near if max(p[:2]) < last]
        partial = [p for p in partial if max(p[:2]) < last]
    if args.copyhound:
        clusters = {r["id"]: r["cluster"] for r in pq.read_table(f"{args.copyhound}/clusters.parquet").to_pylist()}
        pairs = pq.read_table(f"{args.copyhound}/pairs.parquet", columns=["a", "b", "passages"]).to_pylist()
        passages = {(r["a"], r["b"]): r["passages"] for r in pairs}
        near_found = sum(clusters[a] == clusters[b] for a, b in near)

        def covered(source, host, start, end):
            a, b = min(source, host), max(source, host)
            side = "b" if host == b else "a"
            for p in passages.get((a, b), []):
                overlap = min(end, p[f"{side}_end"]) - max(start, p[f"{side}_start"])
                if overlap >= (end - start) / 2:
                    return True
            return False

        partial_found = sum(covered(*p) for p in partial)
        listed = len(pairs)
    else:
        removed = set(open(args.removed).read().split())
        near_found = sum(a in removed or b in removed for a, b in near)
        partial_found = sum(s in removed or h in removed for s, h, _, _ in partial)
        listed = None
    print(json.dumps({
        "near": [near_found, len(near)],
        "partial": [partial_found, len(partial)],
        "near_recall": near_found / len(near) if near else None,
        "partial_recall": partial_found / len(partial) if partial else None,
        "pairs_listed": listed,
    }))


if __name__ == "__main__":
    main()
