#!/usr/bin/env python3
"""Runs copyhound and its peers over the labelled datasets, times them and
scores them with score.py; prints one table and writes everything under
bench/out/eval/<label>/.

    python3 bench/eval/run.py                      # copyhound, every dataset
    python3 bench/eval/run.py --tools all          # and every installed peer
    python3 bench/eval/run.py --datasets soco-train-c clough-open
    python3 bench/eval/run.py --label k12 --copyhound-args='-k 12'

copyhound runs as a user would run it: `copyhound compare` on the
dataset's files with its default settings, `--unit file` or `--unit dir`
as the dataset's meta.json says. Peers compare one file per unit: for
folder units the runner first concatenates each unit's files (sorted by
path) into one file, since none of the peers pairs up multi-file
submissions by itself. Every tool's output is turned into `a,b,score`
rows over unit paths, and a pair the tool does not list scores 0.

Wall time and peak memory (the largest resident set of the tool's
process, from wait4) are those of the tool's own run; staging the
concatenated files is not counted.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import plagdet
import score

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = REPO / "bench" / "out"
PEERS = OUT / "peers"

DATASETS = [
    "soco-train-java",
    "soco-train-c",
    "conplag-train",
    "conplag-train-tf",
    "irplag-open",
    "clough-open",
    "progpedia19",
    "cheers-d1",
    "pan-even",
]

EXTENSIONS = {"java": "java", "c": "c", "text": "txt"}


def find_datasets_dir(given: str | None) -> Path | None:
    """The datasets folder: the option, then /work/shared/datasets, then
    ../shared/datasets beside the repository."""
    candidates = [Path(given)] if given else [Path("/work/shared/datasets"), REPO.parent / "shared" / "datasets"]
    for candidate in candidates:
        if (candidate / "README.md").exists() or any(candidate.glob("*/meta.json")):
            return candidate
    return None


@dataclass
class Measured:
    """A finished run of one tool: where its scores are, and its cost."""

    scores_csv: Path
    usage: Usage
    command: str
    # PAN measures, for datasets with passage-level truth.
    plagdet: plagdet.Measures | None = None


@dataclass
class Usage:
    """What one run of a tool cost: wall and CPU (user + system) seconds,
    and the peak resident set in MiB."""

    wall_s: float
    cpu_s: float
    peak_rss_mib: float


# copyhound's exit statuses that still leave a whole report: 1 says some
# file could not be read (the rest is compared; the log names the file).
COPYHOUND_SUCCESS = (0, 1)


class ToolFailed(Exception):
    """A tool exited with an error or its output could not be read."""


def warm_page_cache(files: Iterable[Path]) -> None:
    """Reads each of `files` once, so that each tool is timed with the
    files already in the OS page cache: otherwise the first tool run on a
    dataset alone pays for reading it from disk, a visible share of a
    0.1-second run."""
    for path in files:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


def run_measured(
    command: list[str],
    log: Path,
    cwd: Path | None = None,
    timeout: float = 3600,
    success: tuple[int, ...] = (0,),
) -> Usage:
    """Runs `command`, stdout and stderr to `log`; returns its cost. An
    exit status outside `success` is a failure.

    GNU time measures it when /usr/bin/time is there: the peak resident
    set that wait4 gives this (Python) process for a child counts the
    memory the child had before its exec, a copy of ours."""
    gnu_time = Path("/usr/bin/time")
    usage_file = log.with_suffix(".usage")
    wrapped = [str(gnu_time), "-f", "%e %U %S %M", "-o", str(usage_file), *command] if gnu_time.exists() else command
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(log, "wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen(wrapped, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise ToolFailed(f"timed out after {timeout:.0f} s: {shlex.join(command)}") from None
        wall = time.perf_counter() - start
    if process.returncode not in success:
        tail = log.read_text(errors="replace")[-2000:]
        raise ToolFailed(f"exit {process.returncode}: {shlex.join(command)}\n{tail}")
    if gnu_time.exists():
        fields = usage_file.read_text().split()[-4:]
        wall_s, user, system, rss_kib = (float(x) for x in fields)
        return Usage(wall_s, user + system, rss_kib / 1024)
    # Without GNU time: CPU from the difference of the children's totals;
    # the peak is the largest of any child so far, an upper bound.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Usage(wall, cpu, after.ru_maxrss / 1024)


# ---------------------------------------------------------------- inputs


def unit_roots(dataset: score.Dataset, files: Path) -> list[tuple[Path, str]]:
    """For folder units: the folders to hand to `compare --unit dir` and
    the prefix that turns a unit name found there back into a unit path.
    Units nested one level down (`human/subm0`) come from their parent."""
    parents = sorted({str(Path(u).parent) for u in dataset.units})
    return [(files / p if p != "." else files, "" if p == "." else p + "/") for p in parents]


def stage_flat(dataset: score.Dataset, files: Path, stage: Path) -> dict[str, str]:
    """One file per unit for the peers: the file itself for file units,
    the unit's files concatenated (sorted by path) for folder units.
    Returns staged path -> unit path."""
    ext = EXTENSIONS.get(dataset.language, "txt")
    mapping: dict[str, str] = {}
    if dataset.unit_kind == "file":
        for unit in dataset.units:
            mapping[str(files / unit)] = unit
        return mapping
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    for unit in dataset.units:
        target = stage / (unit.replace("/", "__") + "." + ext)
        with open(target, "wb") as out:
            for path in sorted((files / unit).rglob("*")):
                if path.is_file():
                    data = path.read_bytes()
                    out.write(data)
                    if not data.endswith(b"\n"):
                        out.write(b"\n")
        mapping[str(target)] = unit
    return mapping


def write_scores(path: Path, rows: list[tuple[str, str, float]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["a", "b", "score"])
        writer.writerows(rows)


# ---------------------------------------------------------------- tools


class Copyhound:
    name = "copyhound"

    def __init__(self, binary: Path, extra: list[str], passages: bool = True):
        self.binary = binary
        self.extra = extra
        # False: score pairs only, as the peers do (speed runs); the
        # passages of every pair that plagdet reads are not written.
        self.passages = passages

    def available(self) -> str | None:
        return None if self.binary.exists() else f"{self.binary} not built (cargo build --release -p copyhound)"

    def run(self, dataset: score.Dataset, files: Path, work: Path) -> Measured:
        raw = work / "copyhound-raw.csv"
        if dataset.unit_kind == "file":
            roots = [(files, "")]
            unit_args = ["--unit", "file"]
        else:
            roots = unit_roots(dataset, files)
            unit_args = ["--unit", "dir"]
        command = [
            str(self.binary),
            "compare",
            *[str(r) for r, _ in roots],
            *unit_args,
            "--csv",
            str(raw),
            "--quiet",
            *self.extra,
        ]
        # With several roots (units nested one level down) a unit's name
        # is relative to its root, prefixed only where two roots hold the
        # same name; read the JSON report instead, whose units carry their
        # root and their documents' paths relative to it (the first
        # component is the unit's folder). Passage-level truth needs the
        # passages of every pair; unit names need no pair's, and writing
        # them would be timed too.
        report = work / "copyhound.json"
        passage_truth = self.passages and (files.parent / "fragments.csv").exists()
        use_json = len(roots) > 1 or passage_truth
        if use_json:
            details = "all" if passage_truth else "0"
            json_args = ["--json", str(report), "--json-details", details]
            command[command.index("--csv") : command.index("--csv")] = json_args
        usage = run_measured(command, work / "copyhound.log", success=COPYHOUND_SUCCESS)
        prefix_of = {str(root): prefix for root, prefix in roots}
        rows = []
        if len(roots) > 1:
            parsed = json.loads(report.read_text(encoding="utf-8"))
            unit_path = {
                u["id"]: prefix_of[u["root"]] + u["documents"][0]["path"].split("/")[0] for u in parsed["units"]
            }
            for pair in parsed["pairs"]:
                rows.append((unit_path[pair["a"]["unit"]], unit_path[pair["b"]["unit"]], float(pair["similarity"])))
        else:
            with open(raw, newline="", encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    rows.append((row["a"], row["b"], float(row["similarity"])))
        scores = work / "copyhound.csv"
        write_scores(scores, rows)
        measured = Measured(scores, usage, shlex.join(command))
        if passage_truth:
            cases = plagdet.read_passages(files.parent / "fragments.csv")
            listed = plagdet.truth_pairs(files.parent)
            detections = plagdet.passages_from_copyhound(json.loads(report.read_text(encoding="utf-8")))
            measured.plagdet = plagdet.measure(cases, [d for d in detections if (d.susp, d.src) in listed])
        return measured


class Copydetect:
    """copydetect (PyPI) at its defaults but for reading (see
    peers/copydetect_pairs.py); a pair scores the larger of its two
    directed similarities."""

    name = "copydetect"
    python = PEERS / "venv" / "bin" / "python"

    def available(self) -> str | None:
        if not self.python.exists():
            return "not installed (bench/eval/install-peers.sh)"
        return None

    def command(self, language: str, listing: Path, raw: Path) -> list[str]:
        """The peer's command line: score the files `listing` names, in
        `language`, into `raw`."""
        command = [str(self.python), str(HERE / "peers" / "copydetect_pairs.py"), str(listing), str(raw)]
        if language == "text":
            command.append("--text")
        return command

    def run(self, dataset: score.Dataset, files: Path, work: Path) -> Measured:
        mapping, listing, raw = self.stage(dataset, files, work)
        command = self.command(dataset.language, listing, raw)
        usage = run_measured(command, work / f"{self.name}.log")
        return Measured(self.remap(raw, mapping, work), usage, shlex.join(command))

    def stage(self, dataset: score.Dataset, files: Path, work: Path) -> tuple[dict[str, str], Path, Path]:
        """Stages the files flat, lists them for the peer's script, and names
        the raw output it will write: (staged name → unit, listing, raw)."""
        mapping = stage_flat(dataset, files, work / "stage")
        listing = work / f"{self.name}-files.json"
        listing.write_text(json.dumps(sorted(mapping)), encoding="utf-8")
        return mapping, listing, work / f"{self.name}-raw.csv"

    def remap(self, raw: Path, mapping: dict[str, str], work: Path) -> Path:
        rows = []
        with open(raw, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                rows.append((mapping[row["a"]], mapping[row["b"]], float(row["score"])))
        scores = work / f"{self.name}.csv"
        write_scores(scores, rows)
        return scores


class Dolos(Copydetect):
    """Dolos (@dodona/dolos-lib) at its defaults: the similarity of its
    pairs.csv, through a node script of ours."""

    name = "dolos"
    module = PEERS / "node" / "node_modules" / "@dodona" / "dolos-lib"

    def available(self) -> str | None:
        if not self.module.exists():
            return "not installed (bench/eval/install-peers.sh)"
        if shutil.which("node") is None:
            return "node not found"
        return None

    def command(self, language: str, listing: Path, raw: Path) -> list[str]:
        language = {"java": "java", "c": "c", "text": "char"}.get(language, language)
        modules = PEERS / "node" / "node_modules"
        return ["node", str(HERE / "peers" / "dolos_pairs.mjs"), str(modules), language, str(listing), str(raw)]


class Sim(Copydetect):
    """SIM (Debian similarity-tester) at its defaults with -p (percentages)
    and -e (each file against each other file); a pair scores the larger
    of the two "A consists for x % of B material" lines."""

    name = "sim"

    def program(self, dataset: score.Dataset) -> str:
        return {"java": "sim_java", "c": "sim_c"}.get(dataset.language, "sim_text")

    def available(self) -> str | None:
        return None if shutil.which("sim_java") else "not installed (apt-get install similarity-tester)"

    def run(self, dataset: score.Dataset, files: Path, work: Path) -> Measured:
        mapping = stage_flat(dataset, files, work / "stage")
        out = work / "sim-raw.txt"
        command = [self.program(dataset), "-p", "-e", f"-o{out}", *sorted(mapping)]
        usage = run_measured(command, work / "sim.log")
        best: dict[score.Pair, float] = {}
        for line in out.read_text(errors="replace").splitlines():
            parsed = parse_sim_line(line)
            if parsed is None:
                continue
            a, b, percent = parsed
            if a in mapping and b in mapping and a != b:
                key = score.pair_key(mapping[a], mapping[b])
                best[key] = max(best.get(key, 0.0), percent / 100)
        scores = work / "sim.csv"
        write_scores(scores, [(a, b, s) for (a, b), s in best.items()])
        return Measured(scores, usage, shlex.join(command[:4]) + " FILES…")


def parse_sim_line(line: str) -> tuple[str, str, float] | None:
    """`A consists for 54 % of B material` -> (A, B, 54.0)."""
    marker = " consists for "
    if marker not in line or not line.endswith(" material"):
        return None
    a, rest = line.split(marker, 1)
    percent, rest = rest.split(" % of ", 1)
    return a, rest[: -len(" material")], float(percent)


# ---------------------------------------------------------------- main


def number(value: float, digits: int) -> str:
    return "–" if value != value else f"{value:.{digits}f}"


def format_table(rows: list[dict]) -> str:
    header = "| dataset | tool | pairs | pos | AP | ROC AUC | F1 | P@P | found | wall s | CPU s | peak MiB |"
    lines = [header, "|---|---|" + "---:|" * 10]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['dataset']} | {r['tool']} | – | – | {r['error']} | | | | | | | |")
            continue
        lines.append(
            f"| {r['dataset']} | {r['tool']} | {r['pairs']} | {r['positives']} | "
            + " | ".join(number(r[m], 3) for m in ("ap", "roc_auc", "f1", "p_at_p", "found"))
            + " | "
            f"{number(r['wall_s'], 2)} | {number(r['cpu_s'], 2)} | {number(r['peak_rss_mib'], 0)} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets-dir", help="default: /work/shared/datasets or ../shared/datasets")
    parser.add_argument("--datasets", nargs="+", default=DATASETS, metavar="NAME")
    parser.add_argument(
        "--tools", default="copyhound", help="comma-separated: copyhound, copydetect, dolos, sim, or all"
    )
    parser.add_argument("--copyhound", type=Path, default=None, help="binary (default: the release build)")
    parser.add_argument("--copyhound-args", default="", help="extra arguments for copyhound compare")
    parser.add_argument("--label", default="default", help="name of this run's folder under bench/out/eval")
    parser.add_argument(
        "--pairs-only",
        action="store_true",
        help="copyhound scores pairs only, as the peers do, without the passages plagdet needs (speed runs)",
    )
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="JSON",
        help="fail (exit 1) when a tool's AP on a dataset falls below the level this file records",
    )
    args = parser.parse_args(argv)

    datasets_dir = find_datasets_dir(args.datasets_dir)
    if datasets_dir is None:
        print("run.py: no datasets folder (/work/shared/datasets or ../shared/datasets); nothing to evaluate")
        return 0
    binary = args.copyhound
    if binary is None:
        target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
        binary = target / "release" / "copyhound"
    known = {
        "copyhound": lambda: Copyhound(binary, shlex.split(args.copyhound_args), not args.pairs_only),
        "copydetect": Copydetect,
        "dolos": Dolos,
        "sim": Sim,
    }
    names = list(known) if args.tools == "all" else args.tools.split(",")
    tools = [known[n]() for n in names]
    out_dir = OUT / "eval" / args.label
    out_dir.mkdir(parents=True, exist_ok=True)

    rows: list[dict] = []
    for name in args.datasets:
        folder = datasets_dir / name
        if not (folder / "meta.json").exists():
            print(f"run.py: skipping {name}: {folder} is absent")
            continue
        dataset = score.load_dataset(folder)
        labels = dataset.scored_pairs()
        jplag_pairs = None
        if (folder / "peer_jplag6.csv").exists():
            jplag_pairs = score.load_scores(folder / "peer_jplag6.csv", "score")
        for tool in tools:
            missing = tool.available()
            if missing:
                print(f"run.py: {tool.name}: {missing}; skipped")
                continue
            work = out_dir / name
            work.mkdir(parents=True, exist_ok=True)
            print(f"run.py: {name}: {tool.name} …", flush=True)
            warm_page_cache(path for path in (folder / "files").rglob("*") if path.is_file())
            try:
                measured = tool.run(dataset, folder / "files", work)
            except ToolFailed as error:
                print(f"run.py: {name}: {tool.name} failed: {error}")
                rows.append({"dataset": name, "tool": tool.name, "error": "failed"})
                continue
            scores = score.load_scores(measured.scores_csv)
            result = score.evaluate(labels, scores)
            row = {
                "dataset": name,
                "tool": tool.name,
                **result.as_dict(),
                "wall_s": measured.usage.wall_s,
                "cpu_s": measured.usage.cpu_s,
                "peak_rss_mib": measured.usage.peak_rss_mib,
                "command": measured.command,
            }
            if measured.plagdet is not None:
                row["plagdet"] = measured.plagdet.__dict__
                m = measured.plagdet
                print(
                    f"run.py: {name}: {tool.name}: plagdet {m.plagdet:.3f}, precision {m.precision:.3f}, "
                    f"recall {m.recall:.3f}, granularity {m.granularity:.3f} "
                    f"({m.detected_cases}/{m.cases} passages found)"
                )
            rows.append(row)
            if jplag_pairs is not None:
                covered = score.evaluate(score.restrict(labels, jplag_pairs), scores)
                rows.append({**row, **covered.as_dict(), "dataset": name + " (JPlag pairs)"})
        if jplag_pairs is not None:
            covered_labels = score.restrict(labels, jplag_pairs)
            result = score.evaluate(covered_labels, jplag_pairs)
            rows.append(
                {
                    "dataset": name + " (JPlag pairs)",
                    "tool": "jplag6 (published)",
                    **result.as_dict(),
                    "wall_s": float("nan"),
                    "cpu_s": float("nan"),
                    "peak_rss_mib": float("nan"),
                    "command": "peer_jplag6.csv",
                }
            )

    print(format_table(rows))
    # A run over some datasets or tools updates their rows and keeps the
    # others, so the files always hold the latest result of each.
    results = out_dir / "results.json"
    merged = json.loads(results.read_text(encoding="utf-8")) if results.exists() else []
    fresh = {(r["dataset"], r["tool"]) for r in rows}
    merged = [r for r in merged if (r["dataset"], r["tool"]) not in fresh] + rows
    order = {name: i for i, name in enumerate(DATASETS)}
    merged.sort(key=lambda r: (order.get(r["dataset"].split(" (")[0], len(order)), r["dataset"], r["tool"] != "copyhound", r["tool"]))
    results.write_text(json.dumps(merged, indent=2), encoding="utf-8")
    (out_dir / "results.md").write_text(format_table(merged) + "\n", encoding="utf-8")
    print(f"run.py: results in {out_dir.relative_to(REPO)}/results.json and results.md")
    if args.baseline:
        return check_baseline(rows, json.loads(args.baseline.read_text(encoding="utf-8")))
    return 0


def check_baseline(rows: list[dict], baseline: dict) -> int:
    """0 when every recorded AP is met (less the recorded tolerance), 1
    otherwise. The baseline file looks like
    {"tolerance": 0.005, "ap": {"copyhound": {"soco-train-c": 0.9}}}."""
    tolerance = baseline.get("tolerance", 0.0)
    failures = []
    checked = 0
    for row in rows:
        floor = baseline["ap"].get(row["tool"], {}).get(row["dataset"])
        if floor is None:
            continue
        checked += 1
        if "error" in row or not row["ap"] >= floor - tolerance:
            got = row.get("ap", "no result")
            failures.append(f"{row['tool']} on {row['dataset']}: AP {got} below the recorded {floor} (tolerance {tolerance})")
    for failure in failures:
        print(f"regression: FAILED: {failure}")
    if checked == 0:
        print("regression: FAILED: no result matched the baseline")
        return 1
    if not failures:
        print(f"regression: {checked} AP level(s) met")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
