"""Tests of score.py on tiny hand-made rankings whose measures are worked
out by hand. Run from this folder: python3 -m unittest"""

from __future__ import annotations

import io
import itertools
import json
import random
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

import score


def brute_force_auc(scored: list[tuple[float, int]]) -> float:
    positives = [s for s, label in scored if label == 1]
    negatives = [s for s, label in scored if label == 0]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def mean_ap_over_tie_orders(scored: list[tuple[float, int]]) -> float:
    """Average of plain (no-tie) AP over every order of the scored pairs
    that keeps the score order: for comparison with the group rule."""
    total, count = 0.0, 0
    for order in itertools.permutations(scored):
        if any(order[i][0] < order[i + 1][0] for i in range(len(order) - 1)):
            continue
        tp, ap = 0, 0.0
        for rank, (_, label) in enumerate(order, start=1):
            if label:
                tp += 1
                ap += tp / rank
        total += ap / sum(label for _, label in scored)
        count += 1
    return total / count


class RankingMeasures(unittest.TestCase):
    def test_perfect_ranking_scores_one_everywhere(self):
        scored = [(0.9, 1), (0.8, 1), (0.3, 0), (0.1, 0), (0.0, 0)]
        self.assertEqual(score.average_precision(scored), 1.0)
        self.assertEqual(score.roc_auc(scored), 1.0)
        self.assertEqual(score.best_f1(scored), (1.0, 0.8))
        self.assertEqual(score.precision_at_positives(scored), 1.0)

    def test_interleaved_ranking(self):
        # Ranked labels 1, 0, 1, 0.
        scored = [(4, 1), (3, 0), (2, 1), (1, 0)]
        # AP = (1/1 + 2/3) / 2.
        self.assertAlmostEqual(score.average_precision(scored), 5 / 6)
        # Positive 4 beats both negatives, positive 2 beats one of them.
        self.assertAlmostEqual(score.roc_auc(scored), 3 / 4)
        # t = 2: tp 2, fp 1 -> F1 = 4 / 5.
        f1, threshold = score.best_f1(scored)
        self.assertAlmostEqual(f1, 0.8)
        self.assertEqual(threshold, 2)
        # Top 2 = one positive, one negative.
        self.assertAlmostEqual(score.precision_at_positives(scored), 0.5)

    def test_reversed_ranking(self):
        scored = [(1, 1), (2, 0), (3, 0)]
        self.assertAlmostEqual(score.average_precision(scored), 1 / 3)
        self.assertEqual(score.roc_auc(scored), 0.0)
        self.assertEqual(score.precision_at_positives(scored), 0.0)

    def test_all_tied_gives_the_share_of_positives(self):
        scored = [(0.5, 0), (0.5, 1), (0.5, 0), (0.5, 0)]
        self.assertAlmostEqual(score.average_precision(scored), 0.25)
        self.assertAlmostEqual(score.roc_auc(scored), 0.5)
        # One place for a group of four holding one positive.
        self.assertAlmostEqual(score.precision_at_positives(scored), 0.25)
        # Everything predicted positive: 2 * 1 / (4 + 1).
        self.assertAlmostEqual(score.best_f1(scored)[0], 0.4)

    def test_tie_group_is_taken_together_whatever_the_row_order(self):
        rows = [(3, 1), (2, 1), (2, 0), (1, 0)]
        # Group {3}: recall 1/2 at precision 1; group {2, 2}: recall 1/2
        # more at precision 2/3.
        expected = 0.5 * 1 + 0.5 * 2 / 3
        for order in itertools.permutations(rows):
            self.assertAlmostEqual(score.average_precision(list(order)), expected)
        # P = 2: the {3} group, then one of two places in the tie.
        self.assertAlmostEqual(score.precision_at_positives(rows), 0.75)

    def test_tie_rule_is_pessimistic_against_the_mean_over_tie_orders(self):
        # The group rule is not the mean over orders of the tied pairs: it
        # credits the group's positives at the group's final precision.
        # Worked by hand: group rule 0.5; orders (1,0) -> 1.0, (0,1) -> 0.5.
        scored = [(1, 1), (1, 0)]
        self.assertAlmostEqual(score.average_precision(scored), 0.5)
        self.assertAlmostEqual(mean_ap_over_tie_orders(scored), 0.75)

    def test_auc_matches_pairwise_count(self):
        rng = random.Random(7)
        for _ in range(50):
            scored = [(rng.choice([0, 0.1, 0.2, 0.5, 1]), rng.randint(0, 1)) for _ in range(rng.randint(2, 30))]
            labels = {label for _, label in scored}
            if labels != {0, 1}:
                continue
            self.assertAlmostEqual(score.roc_auc(scored), brute_force_auc(scored))

    def test_ap_without_ties_matches_the_textbook_sum(self):
        rng = random.Random(11)
        for _ in range(50):
            n = rng.randint(1, 25)
            scores = rng.sample(range(1000), n)
            scored = [(s, rng.randint(0, 1)) for s in scores]
            if not any(label for _, label in scored):
                continue
            ranked = sorted(scored, key=lambda item: -item[0])
            tp, total = 0, 0.0
            for rank, (_, label) in enumerate(ranked, start=1):
                if label:
                    tp += 1
                    total += tp / rank
            self.assertAlmostEqual(score.average_precision(scored), total / tp)

    def test_no_positives_is_undefined(self):
        scored = [(1, 0), (0, 0)]
        self.assertTrue(score.average_precision(scored) != score.average_precision(scored))
        self.assertEqual(score.best_f1(scored), (0.0, None))


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


class DatasetScoring(unittest.TestCase):
    def make_dataset(self, folder: Path, unlisted: str) -> None:
        write(folder / "meta.json", json.dumps({"name": "tiny", "unit": "file", "unlisted": unlisted, "language": "text"}))
        write(folder / "units.csv", "unit\na.txt\nb.txt\nc.txt\nd.txt\n")
        write(folder / "truth.csv", "a,b,label,kind\nb.txt,a.txt,1,copy\nc.txt,d.txt,0,independent\n")
        write(folder / "ambiguous.csv", "a,b,reason\na.txt,c.txt,doubtful\n")

    def test_unlisted_negative_scores_every_pair_but_the_ambiguous(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            self.make_dataset(folder, "negative")
            dataset = score.load_dataset(folder)
            labels = dataset.scored_pairs()
            # 6 pairs of 4 units, less a~c.
            self.assertEqual(len(labels), 5)
            self.assertNotIn(("a.txt", "c.txt"), labels)
            self.assertEqual(labels[("a.txt", "b.txt")], 1)
            self.assertEqual(sum(labels.values()), 1)

    def test_unlisted_unknown_scores_only_truth_pairs(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            self.make_dataset(folder, "unknown")
            labels = score.load_dataset(folder).scored_pairs()
            self.assertEqual(labels, {("a.txt", "b.txt"): 1, ("c.txt", "d.txt"): 0})

    def test_scores_file_in_either_order_missing_pairs_zero(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            self.make_dataset(folder, "negative")
            # The positive pair reversed; an ambiguous pair scored high; a
            # path from elsewhere; b~d a fairly high negative.
            write(
                folder / "scores.csv",
                "a,b,similarity\nb.txt,a.txt,0.6\na.txt,c.txt,0.99\nzzz.txt,a.txt,0.5\nb.txt,d.txt,0.7\n",
            )
            labels = score.load_dataset(folder).scored_pairs()
            scores = score.load_scores(folder / "scores.csv")
            result = score.evaluate(labels, scores)
            self.assertEqual(result.pairs, 5)
            self.assertEqual(result.positives, 1)
            # Ranked: b~d (0.7, neg), a~b (0.6, pos), three pairs at 0.
            self.assertAlmostEqual(result.ap, 0.5)
            self.assertAlmostEqual(result.roc_auc, 3 / 4)
            self.assertAlmostEqual(result.p_at_p, 0.0)
            self.assertAlmostEqual(result.found, 1.0)
            self.assertEqual(result.unmatched_rows, 2)

    def test_named_column_and_duplicate_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "s.csv"
            write(path, "a,b,other,score\nx,y,9,0.1\ny,x,9,0.4\n")
            self.assertEqual(score.load_scores(path, "score"), {("x", "y"): 0.4})

    def test_restrict_to_covered_pairs(self):
        labels = {("a", "b"): 1, ("a", "c"): 0, ("b", "c"): 0}
        self.assertEqual(score.restrict(labels, {("a", "b"): 1.0, ("x", "y"): 1.0}), {("a", "b"): 1})

    def test_command_line_prints_the_measures(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            self.make_dataset(folder, "unknown")
            write(folder / "scores.csv", "a,b,similarity\na.txt,b.txt,0.9\n")
            out = io.StringIO()
            with redirect_stdout(out):
                score.main([str(folder), str(folder / "scores.csv"), "--json"])
            measures = json.loads(out.getvalue())
            self.assertEqual(measures["ap"], 1.0)
            self.assertEqual(measures["p_at_p"], 1.0)


if __name__ == "__main__":
    unittest.main()
