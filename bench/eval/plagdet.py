#!/usr/bin/env python3
"""PAN's passage-level measures: character precision, recall, granularity
and plagdet (Potthast et al., "An Evaluation Framework for Plagiarism
Detection", COLING 2010), for a dataset with `fragments.csv`.

A case (true passage) and a detection both name a suspicious document, a
source document, and a character range in each. Both are read as sets of
characters: the range in the suspicious document plus the range in the
source, so |x| is the sum of the two lengths.

* A detection r detects a case s when they name the same two documents
  and their ranges overlap in the suspicious document and in the source.
* s ⊓ r is s ∩ r when r detects s, and nothing otherwise.
* precision = mean over detections r of |∪_s (s ⊓ r)| / |r|;
  recall = mean over cases s of |∪_r (s ⊓ r)| / |s|;
  granularity = mean over detected cases of the number of detections of
  each; plagdet = F1(precision, recall) / log2(1 + granularity).

With no detection, precision is 0 and granularity 1.

Detections may come from a CSV with the columns of fragments.csv (`susp,
susp_offset, susp_length, src, src_offset, src_length`) or from a
copyhound JSON report (`compare --json`), whose fragments carry byte
ranges; the documents here are ASCII, so bytes are characters. Only
detections on the document pairs of truth.csv count: unlisted pairs are
"unknown" in this dataset (related web pages share text), so a passage
found there is neither right nor wrong.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

Range = tuple[int, int]


@dataclass(frozen=True)
class Passage:
    """A case or a detection: [start, end) in the suspicious document and
    in the source."""

    susp: str
    susp_range: Range
    src: str
    src_range: Range

    def size(self) -> int:
        return (self.susp_range[1] - self.susp_range[0]) + (self.src_range[1] - self.src_range[0])


def overlaps(x: Range, y: Range) -> bool:
    return x[0] < y[1] and y[0] < x[1]


def intersection(x: Range, y: Range) -> Range | None:
    start, end = max(x[0], y[0]), min(x[1], y[1])
    return (start, end) if start < end else None


def union_length(ranges: list[Range]) -> int:
    total = 0
    current_start = current_end = None
    for start, end in sorted(ranges):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += current_end - current_start
    return total


def detects(r: Passage, s: Passage) -> bool:
    return (
        r.susp == s.susp
        and r.src == s.src
        and overlaps(r.susp_range, s.susp_range)
        and overlaps(r.src_range, s.src_range)
    )


def covered(target: Passage, others: list[Passage]) -> int:
    """|∪ (target ∩ other)| over the given passages, both sides summed."""
    susp = [i for o in others if (i := intersection(target.susp_range, o.susp_range))]
    src = [i for o in others if (i := intersection(target.src_range, o.src_range))]
    return union_length(susp) + union_length(src)


@dataclass
class Measures:
    precision: float
    recall: float
    granularity: float
    plagdet: float
    cases: int
    detections: int
    detected_cases: int


def measure(cases: list[Passage], detections: list[Passage]) -> Measures:
    """The PAN measures of `detections` against `cases` (see the module doc)."""
    by_pair: dict[tuple[str, str], list[Passage]] = {}
    for d in detections:
        by_pair.setdefault((d.susp, d.src), []).append(d)
    cases_by_pair: dict[tuple[str, str], list[Passage]] = {}
    for s in cases:
        cases_by_pair.setdefault((s.susp, s.src), []).append(s)

    recall_sum = 0.0
    granularity_sum = 0
    detected = 0
    for s in cases:
        hits = [r for r in by_pair.get((s.susp, s.src), []) if detects(r, s)]
        if hits:
            detected += 1
            granularity_sum += len(hits)
            recall_sum += covered(s, hits) / s.size()
    precision_sum = 0.0
    for r in detections:
        hits = [s for s in cases_by_pair.get((r.susp, r.src), []) if detects(r, s)]
        if hits and r.size():
            precision_sum += covered(r, hits) / r.size()

    recall = recall_sum / len(cases) if cases else 0.0
    precision = precision_sum / len(detections) if detections else 0.0
    granularity = granularity_sum / detected if detected else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Measures(
        precision=precision,
        recall=recall,
        granularity=granularity,
        plagdet=f1 / math.log2(1 + granularity),
        cases=len(cases),
        detections=len(detections),
        detected_cases=detected,
    )


def read_passages(path: Path) -> list[Passage]:
    """Passages from a CSV with the columns of fragments.csv; rows with
    empty offsets (no alignment found) are skipped."""
    passages = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if not row["susp_offset"] or not row["src_offset"]:
                continue
            so, sl = int(row["susp_offset"]), int(row["susp_length"])
            ro, rl = int(row["src_offset"]), int(row["src_length"])
            passages.append(Passage(row["susp"], (so, so + sl), row["src"], (ro, ro + rl)))
    return passages


def passages_from_copyhound(report: dict, susp_prefix: str = "susp/") -> list[Passage]:
    """Every passage of a copyhound JSON report (its fragments, in reports
    written before passages existed) between a suspicious and a source
    document, oriented suspicious first. Document paths in the report are
    relative to the input path, like the dataset's units. A report whose
    pairs were not all given their details (`--json-details`, schema 2)
    would silently lose detections, so it is refused."""
    detailed, listed = report.get("summary", {}).get("detailed_pairs"), len(report["pairs"])
    if detailed is not None and detailed < listed:
        raise ValueError(
            f"the report lists passages for only {detailed} of its {listed} pairs; "
            "run copyhound compare with --json-details all"
        )
    passages = []
    for pair in report["pairs"]:
        for fragment in pair.get("passages") or pair["fragments"]:
            a, b = fragment["a"], fragment["b"]
            a_susp, b_susp = a["path"].startswith(susp_prefix), b["path"].startswith(susp_prefix)
            if a_susp == b_susp:
                continue
            susp, src = (a, b) if a_susp else (b, a)
            passages.append(Passage(susp["path"], tuple(susp["bytes"]), src["path"], tuple(src["bytes"])))
    return passages


def truth_pairs(folder: Path) -> set[tuple[str, str]]:
    with open(folder / "truth.csv", newline="", encoding="utf-8") as f:
        return {(row["a"], row["b"]) for row in csv.DictReader(f) if row["label"] == "1"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="dataset folder with fragments.csv and truth.csv")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--copyhound-json", type=Path, help="a copyhound compare --json report")
    source.add_argument("--detections", type=Path, help="a CSV with the columns of fragments.csv")
    parser.add_argument("--json", action="store_true", help="print the measures as JSON")
    args = parser.parse_args(argv)

    cases = read_passages(args.dataset / "fragments.csv")
    if args.copyhound_json:
        detections = passages_from_copyhound(json.loads(args.copyhound_json.read_text(encoding="utf-8")))
    else:
        detections = read_passages(args.detections)
    listed = truth_pairs(args.dataset)
    kept = [d for d in detections if (d.susp, d.src) in listed]
    result = measure(cases, kept)
    if args.json:
        json.dump({**result.__dict__, "detections_outside_truth_pairs": len(detections) - len(kept)}, sys.stdout, indent=2)
        print()
    else:
        print(
            f"plagdet {result.plagdet:.3f}: precision {result.precision:.3f}, recall {result.recall:.3f}, "
            f"granularity {result.granularity:.3f}; {result.detected_cases}/{result.cases} cases detected by "
            f"{result.detections} detections ({len(detections) - len(kept)} more outside the truth pairs)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
