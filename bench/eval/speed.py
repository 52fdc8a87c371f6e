#!/usr/bin/env python3
"""Speed and memory of `copyhound compare` against copydetect and Dolos
on the same corpora, side by side; run through bench/compare-speed.sh.

    python3 bench/eval/speed.py [--corpora NAME…] [--tools copyhound,copydetect,dolos]
                                [--timeout-min 10] [--fresh]

Corpora:

* `datasets`: the labelled sets of /work/shared/datasets, through run.py
  (which records each tool's wall time, CPU seconds and peak memory);
* `registry-N`, `registry`: N (or all) Rust files under
  ~/.cargo/registry/src, a seeded sample, hard-linked into one folder so
  every tool reads the same files;
* `synth-N`: the first N files of the synthetic corpus that
  bench/synth-corpus.py writes (whole folders of 1,000), with planted
  copies: the table says how many pairs of copies (planted, or linked
  through planted ones: two copies of one file) each tool ranks among as
  many top pairs.

Each (corpus, tool) result is kept in bench/out/speed/<corpus>/<tool>.json
and not measured again unless `--fresh`: an interrupted run resumes where
it stopped. A peer that did not finish in the time limit (CPU seconds,
so that a loaded machine does not cut runs short) is recorded as such; it is then not started on a larger corpus of the same family (it
would not finish either). The table goes to bench/out/speed/results.md,
with the machine's core count and load average at each run.
"""

from __future__ import annotations

import argparse
import csv
import heapq
import json
import os
import random
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

import run

OUT = run.OUT / "speed"
SYNTH = run.OUT / "synth-100000"
REGISTRY = Path.home() / ".cargo" / "registry" / "src"
TOOLS = ["copyhound", "copydetect", "dolos"]
PEERS = {"copydetect": run.Copydetect, "dolos": run.Dolos}
DEFAULT_CORPORA = ["datasets", "synth-1000", "synth-5000", "synth-100000", "registry-1000", "registry-5000", "registry"]


# ---------------------------------------------------------------- corpora


class Corpus:
    """A set of files, given to copyhound as PATHs and to the peers as a
    list of files."""

    def __init__(self, name: str, language: str, paths: list[Path], files: list[Path], planted: set[tuple[str, str]]):
        self.name = name
        self.language = language
        self.paths = paths
        self.files = files
        self.planted = planted

    def family(self) -> tuple[str, int]:
        """(family, size): `synth-5000` is ("synth", 5000); a whole corpus
        sorts last."""
        base, _, size = self.name.partition("-")
        return base, int(size) if size else sys.maxsize


def synth_corpus(name: str, size: int) -> Corpus:
    done = SYNTH / "done"
    if not done.exists() or int(done.read_text().split()[0]) < size:
        raise SystemExit(f"speed: {SYNTH} lacks {size} files; run: python3 bench/synth-corpus.py {SYNTH} --files 100000")
    folders = sorted(p for p in (SYNTH / "files").iterdir() if p.is_dir())[: (size + 999) // 1000]
    files = sorted(f for folder in folders for f in folder.glob("*.py"))[:size]
    if len(files) != size:
        raise SystemExit(f"speed: {name}: found {len(files)} files, expected {size}")
    paths = [SYNTH / "files"] if len(folders) == len(list((SYNTH / "files").iterdir())) else folders
    planted = []
    with open(SYNTH / "planted.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if int(Path(row["b"]).stem) < size:
                planted.append((Path(row["a"]).name, Path(row["b"]).name))
    return Corpus(name, "python", paths, files, copy_pairs(planted))


def copy_pairs(planted: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Every pair of files in one family of copies: the planted pairs (a
    file and its copy) and the pairs they link (two copies of one file, a
    copy of a copy and the first file), which are copies of each other too,
    so a tool is right to rank them among its top pairs."""
    family: dict[str, str] = {}

    def root(name: str) -> str:
        while family.get(name, name) != name:
            name = family[name]
        return name

    for a, b in planted:
        family.setdefault(a, a)
        family.setdefault(b, b)
        family[root(b)] = root(a)
    members: dict[str, list[str]] = {}
    for name in family:
        members.setdefault(root(name), []).append(name)
    return {
        run.score.pair_key(x, y)
        for names in members.values()
        for i, x in enumerate(names)
        for y in names[i + 1 :]
    }


def registry_corpus(name: str, size: int | None) -> Corpus:
    """A seeded sample of the registry's Rust files (all of them without a
    size), hard-linked (or copied) into bench/out/speed/stage/<name>."""
    every = sorted(
        p
        for p in REGISTRY.rglob("*.rs")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(REGISTRY).parts)
    )
    chosen = every if size is None or size >= len(every) else sorted(random.Random(1).sample(every, size))
    stage = OUT / "stage" / name
    files = []
    for source in chosen:
        target = stage / source.relative_to(REGISTRY)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source, target)
            except OSError:
                target.write_bytes(source.read_bytes())
        files.append(target)
    return Corpus(name, "rust", [stage], files, set())


def corpus(name: str) -> Corpus:
    match = re.fullmatch(r"(synth|registry)(?:-(\d+))?", name)
    if not match:
        raise SystemExit(f"speed: unknown corpus {name}")
    family, size = match.group(1), int(match.group(2)) if match.group(2) else None
    if family == "synth":
        return synth_corpus(name, size or 100_000)
    return registry_corpus(name, size)


# ---------------------------------------------------------------- tools


def copyhound_command(binary: Path, corpus: Corpus, work: Path) -> tuple[list[str], Path]:
    csv_out = work / "copyhound.csv"
    command = [str(binary), "compare", *map(str, corpus.paths), "--unit", "file", "--no-ignore", "--quiet", "--top", "0", "--csv", str(csv_out)]
    if corpus.language == "rust":
        command += ["--include", "*.rs"]
    return command, csv_out


def peer_command(tool: str, corpus: Corpus, work: Path) -> tuple[list[str], Path]:
    listing = work / f"{tool}-files.json"
    listing.write_text(json.dumps([str(f) for f in corpus.files]), encoding="utf-8")
    raw = work / f"{tool}-raw.csv"
    return PEERS[tool]().command(corpus.language, listing, raw), raw


def planted_found(corpus: Corpus, scores_csv: Path, column: str) -> int | None:
    """How many planted pairs are among the tool's len(planted) best pairs."""
    if not corpus.planted or not scores_csv.exists():
        return None
    with open(scores_csv, newline="", encoding="utf-8") as f:
        # A peer lists every pair (12.5 M rows for 5,000 files): stream them.
        rows = ((float(row[column]), row["a"], row["b"]) for row in csv.DictReader(f))
        best = heapq.nlargest(len(corpus.planted), rows)
    return sum(1 for _, a, b in best if run.score.pair_key(Path(a).name, Path(b).name) in corpus.planted)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_seconds(usage_file: Path) -> float | None:
    """User + system seconds from GNU time's output, also for a killed run."""
    try:
        fields = usage_file.read_text().split()[-4:]
        return float(fields[1]) + float(fields[2])
    except (OSError, ValueError, IndexError):
        return None


def measure(tool: str, corpus: Corpus, binary: Path, cpu_limit_s: float) -> dict:
    work = OUT / corpus.name
    work.mkdir(parents=True, exist_ok=True)
    if tool == "copyhound":
        command, scores, column = (*copyhound_command(binary, corpus, work), "similarity")
    else:
        command, scores, column = (*peer_command(tool, corpus, work), "score")
    result = {"corpus": corpus.name, "tool": tool, "files": len(corpus.files), "command": shlex.join(command), "load_before": load_average()}
    print(f"speed: {corpus.name}: {tool} ({len(corpus.files)} files, load {result['load_before']}) …", flush=True)
    # The limit is on CPU seconds, so that a loaded machine does not cut a
    # run short; the wall-clock limit only stops a run that hangs.
    limited = ["prlimit", f"--cpu={int(cpu_limit_s)}", "--", *command] if shutil.which("prlimit") else command
    run.warm_page_cache(corpus.files)
    started = time.time()
    try:
        success = run.COPYHOUND_SUCCESS if tool == "copyhound" else (0,)
        usage = run.run_measured(limited, work / f"{tool}.log", timeout=cpu_limit_s * 4, success=success)
    except run.ToolFailed as error:
        cpu = cpu_seconds(work / f"{tool}.usage")
        # The kernel's CPU accounting and GNU time's differ by a few percent.
        timed_out = str(error).startswith("timed out") or (cpu is not None and cpu >= cpu_limit_s * 0.9)
        result.update(status="timeout" if timed_out else "failed", error=str(error)[-500:], wall_s=time.time() - started, cpu_s=cpu)
        return result
    result.update(status="ok", wall_s=usage.wall_s, cpu_s=usage.cpu_s, peak_rss_mib=usage.peak_rss_mib, load_after=load_average())
    result["planted"] = len(corpus.planted) or None
    result["planted_found"] = planted_found(corpus, scores, column)
    return result


# ---------------------------------------------------------------- table


def cell(result: dict | None, key: str, digits: int) -> str:
    if result is None:
        return "not run"
    if result["status"] == "timeout":
        return f"did not finish in {result['timeout_min']:g} CPU min" if key == "wall_s" else "–"
    if result["status"] == "skipped":
        return result["reason"] if key == "wall_s" else "–"
    if result["status"] != "ok":
        return "failed" if key == "wall_s" else "–"
    return f"{result[key]:.{digits}f}"


def format_table(results: dict[tuple[str, str], dict], corpora: list[str]) -> str:
    lines = [
        "| corpus | files | tool | wall s | CPU s | peak MiB | planted found | × copyhound CPU | load (1, 5, 15 min) |",
        "|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for name in corpora:
        ours = results.get((name, "copyhound"))
        for tool in TOOLS:
            r = results.get((name, tool))
            if r is None:
                continue
            found = f"{r['planted_found']}/{r['planted']}" if r.get("planted") and r.get("planted_found") is not None else ""
            ratio = ""
            if tool != "copyhound" and r["status"] == "ok" and ours and ours["status"] == "ok" and ours["cpu_s"] > 0:
                ratio = f"{r['cpu_s'] / ours['cpu_s']:.0f}×"
            lines.append(
                f"| {name} | {r['files']} | {tool} | {cell(r, 'wall_s', 1)} | {cell(r, 'cpu_s', 1)} | "
                f"{cell(r, 'peak_rss_mib', 0)} | {found} | {ratio} | {r.get('load_before', '')} |"
            )
    return "\n".join(lines)


def datasets_rows(tools: list[str], binary: Path, fresh: bool, timeout_s: float) -> list[dict]:
    """The labelled sets through run.py, one (dataset, tool) at a time so an
    interrupted run resumes; returns run.py's rows."""
    label_dir = run.OUT / "eval" / "speed"
    results = label_dir / "results.json"
    for dataset in run.DATASETS:
        for tool in tools:
            done = json.loads(results.read_text(encoding="utf-8")) if results.exists() else []
            if not fresh and any(r["dataset"] == dataset and r["tool"] == tool for r in done):
                continue
            print(f"speed: datasets: {dataset}: {tool} (load {load_average()}) …", flush=True)
            # Pair scores only: the peers list pairs, not passages.
            run.main(["--label", "speed", "--pairs-only", "--datasets", dataset, "--tools", tool, "--copyhound", str(binary), "--timeout", str(timeout_s)])
    return json.loads(results.read_text(encoding="utf-8")) if results.exists() else []


def datasets_table(rows: list[dict], tools: list[str]) -> str:
    lines = ["| dataset | tool | wall s | CPU s | peak MiB | AP | × copyhound CPU |", "|---|---|---:|---:|---:|---:|---:|"]
    ours = {r["dataset"]: r for r in rows if r["tool"] == "copyhound" and "error" not in r}
    for r in rows:
        if r["tool"] not in tools or "(" in r["dataset"]:
            continue
        if "error" in r:
            lines.append(f"| {r['dataset']} | {r['tool']} | failed | | | | |")
            continue
        mine = ours.get(r["dataset"])
        ratio = f"{r['cpu_s'] / mine['cpu_s']:.0f}×" if mine and r["tool"] != "copyhound" and mine["cpu_s"] > 0 else ""
        lines.append(
            f"| {r['dataset']} | {r['tool']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_rss_mib']:.0f} | {r['ap']:.3f} | {ratio} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", nargs="+", default=DEFAULT_CORPORA, metavar="NAME")
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--copyhound", type=Path, help="binary (default: the release build)")
    parser.add_argument(
        "--timeout-min", type=float, default=10, help="CPU minutes per peer run (copyhound gets 6× as many)"
    )
    parser.add_argument("--fresh", action="store_true", help="measure again what has a result")
    args = parser.parse_args()
    tools = args.tools.split(",")
    binary = args.copyhound or Path(os.environ.get("CARGO_TARGET_DIR", run.REPO / "target")) / "release" / "copyhound"
    if "copyhound" in tools and not binary.exists():
        raise SystemExit(f"speed: {binary} missing (cargo build --release -p copyhound)")
    OUT.mkdir(parents=True, exist_ok=True)

    sections = [f"Machine: {os.cpu_count()} cores; load average at the start: {load_average()}."]
    if "datasets" in args.corpora:
        rows = datasets_rows(tools, binary, args.fresh, args.timeout_min * 60)
        sections.append("### Labelled datasets\n\n" + datasets_table(rows, tools))

    results: dict[tuple[str, str], dict] = {}
    named = [c for c in args.corpora if c != "datasets"]
    corpora = sorted((corpus(name) for name in named), key=lambda c: c.family())
    for item in corpora:
        for tool in tools:
            stored = OUT / item.name / f"{tool}.json"
            if stored.exists() and not args.fresh:
                results[(item.name, tool)] = json.loads(stored.read_text(encoding="utf-8"))
                continue
            timeout_min = args.timeout_min * (6 if tool == "copyhound" else 1)
            beaten = [
                r
                for (name, t), r in results.items()
                if t == tool and r["status"] in ("timeout", "failed", "skipped") and name.split("-")[0] == item.family()[0]
            ]
            if beaten and tool != "copyhound":
                smaller = beaten[0]
                result = {"corpus": item.name, "tool": tool, "files": len(item.files), "status": "skipped",
                          "reason": f"not run: did not finish on {smaller['corpus']}"}
            else:
                if tool != "copyhound" and tool not in PEERS:
                    raise SystemExit(f"speed: unknown tool {tool}")
                missing = PEERS[tool]().available() if tool in PEERS else None
                if missing:
                    print(f"speed: {tool}: {missing}; skipped")
                    continue
                result = measure(tool, item, binary, timeout_min * 60)
                result["timeout_min"] = timeout_min
            stored.parent.mkdir(parents=True, exist_ok=True)
            stored.write_text(json.dumps(result, indent=2), encoding="utf-8")
            results[(item.name, tool)] = result
            print(format_table({(item.name, tool): result}, [item.name]).splitlines()[-1], flush=True)
    if corpora:
        sections.append("### Large corpora\n\n" + format_table(results, [c.name for c in corpora]))
    text = "\n\n".join(sections) + "\n"
    (OUT / "results.md").write_text(text, encoding="utf-8")
    print(text)
    print(f"speed: table in {(OUT / 'results.md').relative_to(run.REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
