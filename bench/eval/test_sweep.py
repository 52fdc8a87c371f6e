"""Tests of sweep.py's table on hand-made results: the mean over hash
keys, the worst key, and the summary columns. Run from this folder:
python3 -m unittest"""

from __future__ import annotations

import unittest

import sweep


def result(ap: float, cpu: float = 1.0) -> dict:
    return {"ap": ap, "cpu_s": cpu}


class FormatTable(unittest.TestCase):
    def test_one_run_per_setting_prints_plain_cells(self):
        table = {"a": [{"x": result(0.5), "y": result(0.75)}]}
        lines = sweep.format_table(["x", "y"], [("a", "-k 9")], table).splitlines()
        self.assertEqual(lines[0], "| setting | args | x | y | mean | worst | CPU s |")
        self.assertEqual(lines[2], "| a | `-k 9` | 0.500 | 0.750 | 0.625 | 0.500 | 2.0 |")

    def test_several_keys_give_the_mean_and_the_worst_key(self):
        table = {
            "d": [
                {"x": result(0.9), "y": result(0.2, cpu=3.0)},
                {"x": result(0.7), "y": result(0.4, cpu=1.0)},
            ]
        }
        row = sweep.format_table(["x", "y"], [("d", "")], table).splitlines()[2]
        # x: mean 0.8, worst 0.7; y: mean 0.3, worst 0.2; the summary
        # columns are over the means; CPU is one run's (mean over keys).
        self.assertEqual(row, "| d | `(defaults)` | 0.800 (0.700) | 0.300 (0.200) | 0.550 | 0.300 | 3.0 |")

    def test_a_dataset_missing_from_a_key_run_is_unknown(self):
        table = {"d": [{"x": result(0.9), "y": result(0.5)}, {"x": result(0.7)}]}
        row = sweep.format_table(["x", "y"], [("d", "")], table).splitlines()[2]
        self.assertIn("| 0.800 (0.700) | – (–) | 0.800 | 0.800 |", row)

    def test_passage_sets_get_a_plagdet_column(self):
        table = {"d": [{"p": {"ap": 1.0, "cpu_s": 0.5, "plagdet": {"plagdet": 0.9}}}]}
        lines = sweep.format_table(["p"], [("d", "")], table).splitlines()
        self.assertEqual(lines[0], "| setting | args | p | mean | worst | p plagdet | CPU s |")
        self.assertEqual(lines[2], "| d | `(defaults)` | 1.000 | 1.000 | 1.000 | 0.900 | 0.5 |")


if __name__ == "__main__":
    unittest.main()
