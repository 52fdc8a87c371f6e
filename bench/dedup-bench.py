#!/usr/bin/env python3
"""Runs each deduplication tool on the corpus and its slice, one after
the other, and prints a Markdown table: documents, wall seconds, CPU
seconds (user + system of the process and all its descendants: what the
kernel reports for reaped children, or, when more, the sum of each
descendant's own CPU time sampled every 0.2 s, since worker pools that are
never waited for are missing from the first), documents per
second per core (documents / CPU seconds), peak memory (the largest sum of
the resident sets of the process tree, sampled every 0.2 s), and the
recall of each planted kind. Called by bench/dedup.sh."""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
#: The MinHash tools, run on the slice only: the option naming the Python
#: of their environment, their script, and the input they read.
MINHASH = {
    "datatrove": ("datatrove_python", "dedup-datatrove.py", ".jsonl"),
    "text-dedup": ("text_dedup_python", "dedup-textdedup.py", ".parquet"),
}


def tree(pid):
    """``pid`` and its descendants."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def usage(pid):
    """Resident bytes and own CPU seconds (user + system) of ``pid``."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return rss, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0, 0.0


def measure(command, log):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        peak = 0
        cpu_seen = {}
        while process.poll() is None:
            rss = 0
            for pid in tree(process.pid):
                used, cpu = usage(pid)
                rss += used
                cpu_seen[pid] = max(cpu_seen.get(pid, 0.0), cpu)
            peak = max(peak, rss)
            time.sleep(0.2)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed; see {log}")
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, max(reaped, sum(cpu_seen.values())), peak


def score(truth, args):
    result = subprocess.run([sys.executable, os.path.join(HERE, "dedup-score.py"), truth, *args], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--runs", required=True)
    parser.add_argument("--copyhound", required=True)
    parser.add_argument("--datatrove-python", required=True)
    parser.add_argument("--text-dedup-python", required=True)
    parser.add_argument("--tools", nargs="+", default=["copyhound", "datatrove", "text-dedup", "spark"])
    parser.add_argument("--inputs", nargs="+", default=["corpus", "slice"], help="the whole corpus, its slice, or both")
    args = parser.parse_args()
    truth = os.path.join(args.corpus, "truth.json")
    documents = json.load(open(truth))
    # The slice first: a slow tool's time on it tells how long the whole
    # corpus will take.
    inputs = [("slice", os.path.join(args.corpus, "slice.parquet"), documents["block"], ["--slice"]),
              ("corpus", os.path.join(args.corpus, "corpus.parquet"), documents["documents"], [])]
    rows = []
    for tool in args.tools:
        for name, path, count, flags in (i for i in inputs if i[0] in args.inputs):
            out = os.path.join(args.runs, f"{tool}-{name}")
            shutil.rmtree(out, ignore_errors=True)
            if tool == "copyhound":
                command = [args.copyhound, "dedup", path, "--id-column", "id", "--text-column", "text", "--output", out, "-q"]
            elif tool == "spark":
                command = [sys.executable, "-m", "copyhound.spark", "--input", path, "--id-column", "id",
                           "--text-column", "text", "--output", out, "--master", "local[2]", "--driver-memory", "4g"]
            elif tool in MINHASH:
                if name != "slice":
                    continue
                python, script, data = MINHASH[tool]
                command = [getattr(args, python), os.path.join(HERE, script), path.replace(".parquet", data), out]
            else:
                sys.exit(f"unknown tool {tool}")
            os.makedirs(args.runs, exist_ok=True)
            wall, cpu, peak = measure(command, out + ".log")
            found = score(truth, (["--removed", os.path.join(out, "removed.txt")] if tool in MINHASH else ["--copyhound", out]) + flags)
            rows.append((tool, count, wall, cpu, count / cpu, peak / 2**20, found))
            print(json.dumps({"tool": tool, "input": name, "documents": count, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                              "docs_per_cpu_s": round(count / cpu), "peak_mib": round(peak / 2**20), **found}), flush=True)
            if tool in MINHASH:
                shutil.rmtree(out, ignore_errors=True)
    print()
    print("| tool | documents | wall s | CPU s | docs/s per core | peak memory | near-duplicates found | partial copies found |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for tool, count, wall, cpu, rate, peak, found in rows:
        near, partial = found["near"], found["partial"]
        print(f"| {tool} | {count:,} | {wall:,.1f} | {cpu:,.1f} | {rate:,.0f} | {peak:,.0f} MiB | "
              f"{near[0]:,}/{near[1]:,} ({100 * near[0] / near[1]:.1f} %) | {partial[0]:,}/{partial[1]:,} ({100 * partial[0] / partial[1]:.1f} %) |")


if __name__ == "__main__":
    main()
