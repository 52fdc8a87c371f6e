#!/usr/bin/env python3
"""Scores a ranked list of unit pairs against a labelled dataset.

A dataset folder has the layout of /work/shared/datasets (see its
README): `units.csv`, `truth.csv`, `meta.json` and maybe `ambiguous.csv`.
The scores file is a CSV whose first two columns name the units of a pair
(paths relative to the dataset's `files/`) and whose score column (the
third one unless `--column` says otherwise) is larger for pairs more
likely to be copies. Row order and the order of `a` and `b` carry no
meaning.

Which pairs are scored follows the dataset's `meta.json` -> `unlisted`:

* `negative`: every pair of distinct units. A pair is positive when
  `truth.csv` says label 1, negative otherwise.
* `unknown`: exactly the pairs of `truth.csv`.

In both cases the pairs of `ambiguous.csv` are left out. A scored pair
missing from the scores file scores 0; a row of the scores file outside
the scored pairs is ignored (it is counted, so a caller can notice paths
that do not match).

Measures, all over the scored pairs ranked by score, highest first:

* AP, average precision. Tie rule: pairs with equal scores form one group
  and are taken together, never in some order. AP is the sum over groups
  of (recall gained in the group) x (precision after the whole group),
  which is what scikit-learn's `average_precision_score` computes. A
  detector that gives every pair the same score gets AP = share of
  positives, whatever the row order.
* ROC AUC: the chance that a random positive scores above a random
  negative, ties counting one half (Mann-Whitney U / (P * N)).
* F1: the best F1 over thresholds "score >= t", t running over the
  distinct scores (plus "nothing is positive", F1 = 0).
* P@P: precision among the P highest-scored pairs, P = number of
  positives. When the P-th place falls inside a group of tied scores, the
  group's positives count in proportion to the places it gets (the
  expected precision over every order of the tied pairs).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

Pair = tuple[str, str]


def pair_key(a: str, b: str) -> Pair:
    """The order-free key of a pair."""
    return (a, b) if a <= b else (b, a)


@dataclass
class Dataset:
    """The labels of one dataset folder."""

    name: str
    units: list[str]
    unit_kind: str
    unlisted: str
    language: str
    truth: dict[Pair, int]
    ambiguous: set[Pair] = field(default_factory=set)
    # Extra truth.csv columns per pair (kind, level, category...).
    attributes: dict[Pair, dict[str, str]] = field(default_factory=dict)

    def scored_pairs(self) -> dict[Pair, int]:
        """Every pair that counts, with its label (1 or 0)."""
        if self.unlisted == "negative":
            pairs = {
                pair_key(a, b): self.truth.get(pair_key(a, b), 0)
                for a, b in itertools.combinations(self.units, 2)
            }
        elif self.unlisted == "unknown":
            pairs = dict(self.truth)
        else:
            raise ValueError(f"{self.name}: meta.json unlisted = {self.unlisted!r}, expected negative or unknown")
        for pair in self.ambiguous:
            pairs.pop(pair, None)
        return pairs


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def load_dataset(folder: Path) -> Dataset:
    """Reads `meta.json`, `units.csv`, `truth.csv` and `ambiguous.csv`."""
    folder = Path(folder)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    units = [row["unit"] for row in read_csv(folder / "units.csv")]
    truth: dict[Pair, int] = {}
    attributes: dict[Pair, dict[str, str]] = {}
    for row in read_csv(folder / "truth.csv"):
        key = pair_key(row["a"], row["b"])
        label = int(row["label"])
        if label not in (0, 1):
            raise ValueError(f"{folder / 'truth.csv'}: label {label} for {key}, expected 0 or 1")
        truth[key] = label
        attributes[key] = {k: v for k, v in row.items() if k not in ("a", "b", "label")}
    ambiguous: set[Pair] = set()
    if (folder / "ambiguous.csv").exists():
        ambiguous = {pair_key(r["a"], r["b"]) for r in read_csv(folder / "ambiguous.csv")}
    return Dataset(
        name=meta.get("name", folder.name),
        units=units,
        unit_kind=meta["unit"],
        unlisted=meta["unlisted"],
        language=meta.get("language", ""),
        truth=truth,
        ambiguous=ambiguous,
        attributes=attributes,
    )


def load_scores(path: Path, column: str | None = None) -> dict[Pair, float]:
    """Pair -> score from a CSV with a header; the score column is `column`
    or the third one. A pair listed twice keeps its larger score."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            return {}
        if column is None:
            if len(header) < 3:
                raise ValueError(f"{path}: need at least three columns (a,b,score), found {header}")
            index = 2
        else:
            if column not in header:
                raise ValueError(f"{path}: no column {column!r} in {header}")
            index = header.index(column)
        scores: dict[Pair, float] = {}
        for line, row in enumerate(reader, start=2):
            if not row:
                continue
            try:
                value = float(row[index])
            except (ValueError, IndexError) as error:
                raise ValueError(f"{path}:{line}: bad score in {row}: {error}") from None
            key = pair_key(row[0], row[1])
            scores[key] = max(value, scores.get(key, value))
    return scores


def ranked_groups(scored: list[tuple[float, int]]) -> list[tuple[int, int]]:
    """(positives, negatives) of each group of equal scores, highest first."""
    groups: list[tuple[int, int]] = []
    ordered = sorted(scored, key=lambda item: -item[0])
    for _, members in itertools.groupby(ordered, key=lambda item: item[0]):
        labels = [label for _, label in members]
        positives = sum(labels)
        groups.append((positives, len(labels) - positives))
    return groups


def average_precision(scored: list[tuple[float, int]]) -> float:
    """AP with tied scores taken as one group (see the module doc)."""
    groups = ranked_groups(scored)
    total_positives = sum(p for p, _ in groups)
    if total_positives == 0:
        return float("nan")
    ap = 0.0
    tp = fp = 0
    for positives, negatives in groups:
        tp += positives
        fp += negatives
        if positives:
            ap += positives / total_positives * tp / (tp + fp)
    return ap


def roc_auc(scored: list[tuple[float, int]]) -> float:
    """P(score of a positive > score of a negative), ties counting 1/2."""
    groups = ranked_groups(scored)
    total_positives = sum(p for p, _ in groups)
    total_negatives = sum(n for _, n in groups)
    if total_positives == 0 or total_negatives == 0:
        return float("nan")
    wins = 0.0
    negatives_below = total_negatives
    for positives, negatives in groups:
        negatives_below -= negatives
        wins += positives * (negatives_below + negatives / 2)
    return wins / (total_positives * total_negatives)


def best_f1(scored: list[tuple[float, int]]) -> tuple[float, float | None]:
    """The best F1 over thresholds `score >= t`, and that t (None when no
    threshold beats F1 = 0). The highest t wins a tie."""
    total_positives = sum(label for _, label in scored)
    best, threshold = 0.0, None
    tp = fp = 0
    ordered = sorted(scored, key=lambda item: -item[0])
    for score, members in itertools.groupby(ordered, key=lambda item: item[0]):
        labels = [label for _, label in members]
        tp += sum(labels)
        fp += len(labels) - sum(labels)
        f1 = 2 * tp / (tp + fp + total_positives) if total_positives else 0.0
        if f1 > best:
            best, threshold = f1, score
    return best, threshold


def precision_at_positives(scored: list[tuple[float, int]]) -> float:
    """Precision among the top P pairs, a tie group across the cut counted
    in proportion (see the module doc)."""
    groups = ranked_groups(scored)
    total_positives = sum(p for p, _ in groups)
    if total_positives == 0:
        return float("nan")
    places = total_positives
    hits = 0.0
    for positives, negatives in groups:
        size = positives + negatives
        if size <= places:
            hits += positives
            places -= size
        else:
            hits += positives * places / size
            places = 0
        if places == 0:
            break
    return hits / total_positives


@dataclass
class Result:
    """The measures of one scores file on one dataset."""

    pairs: int
    positives: int
    ap: float
    roc_auc: float
    f1: float
    f1_threshold: float | None
    p_at_p: float
    # Share of positives with a score above 0: pair recall of a detector
    # that lists only the pairs it found.
    found: float
    listed_rows: int
    unmatched_rows: int

    def as_dict(self) -> dict:
        return {
            "pairs": self.pairs,
            "positives": self.positives,
            "ap": self.ap,
            "roc_auc": self.roc_auc,
            "f1": self.f1,
            "f1_threshold": self.f1_threshold,
            "p_at_p": self.p_at_p,
            "found": self.found,
            "listed_rows": self.listed_rows,
            "unmatched_rows": self.unmatched_rows,
        }


def evaluate(
    labels: dict[Pair, int],
    scores: dict[Pair, float],
) -> Result:
    """Measures `scores` on the labelled pairs `labels` (missing scores 0)."""
    scored = [(scores.get(pair, 0.0), label) for pair, label in labels.items()]
    f1, threshold = best_f1(scored)
    positives = [s for s, label in scored if label == 1]
    return Result(
        pairs=len(scored),
        positives=sum(label for _, label in scored),
        ap=average_precision(scored),
        roc_auc=roc_auc(scored),
        f1=f1,
        f1_threshold=threshold,
        p_at_p=precision_at_positives(scored),
        found=sum(1 for s in positives if s > 0) / len(positives) if positives else float("nan"),
        listed_rows=len(scores),
        unmatched_rows=sum(1 for pair in scores if pair not in labels),
    )


def misranked(
    labels: dict[Pair, int],
    scores: dict[Pair, float],
    count: int,
) -> tuple[list[tuple[float, Pair]], list[tuple[float, Pair]]]:
    """The `count` lowest-scored positives and highest-scored negatives."""
    positives = sorted((scores.get(p, 0.0), p) for p, label in labels.items() if label == 1)
    negatives = sorted(
        ((scores.get(p, 0.0), p) for p, label in labels.items() if label == 0),
        reverse=True,
    )
    return positives[:count], negatives[:count]


def by_attribute(
    dataset: Dataset,
    labels: dict[Pair, int],
    scores: dict[Pair, float],
    column: str,
) -> dict[str, Result]:
    """Measures per value of a truth.csv column: each value's positives
    against all negatives (pairs without the column count as negatives
    only). Shows which kinds of copying a detector misses."""
    values: dict[str, dict[Pair, int]] = {}
    negatives = {p: 0 for p, label in labels.items() if label == 0}
    for pair, label in labels.items():
        if label == 1:
            value = dataset.attributes.get(pair, {}).get(column, "")
            values.setdefault(value, dict(negatives))[pair] = 1
    return {value: evaluate(subset, scores) for value, subset in sorted(values.items())}


def restrict(labels: dict[Pair, int], keep: dict[Pair, float]) -> dict[Pair, int]:
    """Only the labelled pairs that `keep` lists."""
    return {pair: label for pair, label in labels.items() if pair in keep}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="dataset folder (meta.json, units.csv, truth.csv)")
    parser.add_argument("scores", type=Path, help="CSV of scored pairs: a,b,score,...")
    parser.add_argument("--column", help="score column (default: the third)")
    parser.add_argument(
        "--only-pairs",
        type=Path,
        metavar="CSV",
        help="score only the labelled pairs this CSV (a,b,...) lists, e.g. a peer's covered pairs",
    )
    parser.add_argument("--by", metavar="COLUMN", help="also measure per value of this truth.csv column")
    parser.add_argument("--worst", type=int, default=0, metavar="N", help="list the N worst-ranked positives and negatives")
    parser.add_argument("--json", action="store_true", help="print the measures as JSON")
    args = parser.parse_args(argv)

    dataset = load_dataset(args.dataset)
    labels = dataset.scored_pairs()
    if args.only_pairs:
        labels = restrict(labels, load_scores(args.only_pairs))
    scores = load_scores(args.scores, args.column)
    result = evaluate(labels, scores)
    if args.json:
        out = {"dataset": dataset.name, **result.as_dict()}
        if args.by:
            out["by"] = {v: r.as_dict() for v, r in by_attribute(dataset, labels, scores, args.by).items()}
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        print(
            f"{dataset.name}: pairs {result.pairs}, positives {result.positives}, "
            f"AP {result.ap:.3f}, ROC AUC {result.roc_auc:.3f}, F1 {result.f1:.3f} "
            f"(score >= {result.f1_threshold}), P@P {result.p_at_p:.3f}, found {result.found:.3f}; "
            f"{result.listed_rows} rows, {result.unmatched_rows} outside the scored pairs"
        )
        if args.by:
            for value, r in by_attribute(dataset, labels, scores, args.by).items():
                print(f"  {args.by}={value or '-'}: positives {r.positives}, AP {r.ap:.3f}, ROC AUC {r.roc_auc:.3f}")
    if args.worst:
        low, high = misranked(labels, scores, args.worst)
        print("lowest-scored positives:")
        for score, (a, b) in low:
            print(f"  {score:.4f}  {a}  {b}  {dataset.attributes.get((a, b), {})}")
        print("highest-scored negatives:")
        for score, (a, b) in high:
            print(f"  {score:.4f}  {a}  {b}  {dataset.attributes.get((a, b), {})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
