"""Tests of plagdet.py on hand-made cases. Run from this folder:
python3 -m unittest"""

import math
import unittest

from plagdet import Passage, measure, passages_from_copyhound, union_length


def passage(susp_range, src_range, susp="s1", src="r1"):
    return Passage(susp, susp_range, src, src_range)


CASE = passage((0, 100), (1000, 1100))


class PlagdetMeasures(unittest.TestCase):
    def test_exact_detection_is_perfect(self):
        m = measure([CASE], [CASE])
        self.assertEqual((m.precision, m.recall, m.granularity, m.plagdet), (1.0, 1.0, 1.0, 1.0))

    def test_half_found_halves_recall(self):
        m = measure([CASE], [passage((0, 50), (1000, 1050))])
        self.assertAlmostEqual(m.recall, 0.5)
        self.assertAlmostEqual(m.precision, 1.0)
        self.assertAlmostEqual(m.plagdet, 2 / 3)

    def test_split_detection_costs_granularity(self):
        m = measure([CASE], [passage((0, 50), (1000, 1050)), passage((50, 100), (1050, 1100))])
        self.assertAlmostEqual(m.recall, 1.0)
        self.assertAlmostEqual(m.granularity, 2.0)
        self.assertAlmostEqual(m.plagdet, 1 / math.log2(3))

    def test_overlong_detection_halves_precision(self):
        m = measure([CASE], [passage((0, 200), (1000, 1200))])
        self.assertAlmostEqual(m.precision, 0.5)
        self.assertAlmostEqual(m.recall, 1.0)

    def test_overlapping_detections_are_not_counted_twice(self):
        m = measure([CASE], [passage((0, 80), (1000, 1080)), passage((20, 100), (1020, 1100))])
        self.assertAlmostEqual(m.recall, 1.0)
        self.assertAlmostEqual(m.granularity, 2.0)

    def test_detection_must_overlap_both_sides_of_the_same_pair(self):
        wrong_source_range = passage((0, 100), (0, 100))
        wrong_document = passage((0, 100), (1000, 1100), src="r2")
        m = measure([CASE], [wrong_source_range, wrong_document])
        self.assertEqual(m.recall, 0.0)
        self.assertEqual(m.precision, 0.0)
        self.assertEqual(m.detected_cases, 0)
        self.assertEqual(m.plagdet, 0.0)

    def test_no_detection(self):
        m = measure([CASE], [])
        self.assertEqual((m.precision, m.recall, m.granularity, m.plagdet), (0.0, 0.0, 1.0, 0.0))

    def test_union_length_merges_touching_and_nested_ranges(self):
        self.assertEqual(union_length([(0, 10), (10, 20), (5, 8), (30, 31)]), 21)
        self.assertEqual(union_length([]), 0)


class CopyhoundReport(unittest.TestCase):
    def test_fragments_are_oriented_suspicious_first(self):
        report = {
            "pairs": [
                {
                    "fragments": [
                        {
                            "a": {"path": "src/r1.txt", "bytes": [5, 9]},
                            "b": {"path": "susp/s1.txt", "bytes": [100, 104]},
                        },
                        {
                            "a": {"path": "src/r1.txt", "bytes": [0, 4]},
                            "b": {"path": "src/r2.txt", "bytes": [0, 4]},
                        },
                    ]
                }
            ]
        }
        self.assertEqual(
            passages_from_copyhound(report),
            [Passage("susp/s1.txt", (100, 104), "src/r1.txt", (5, 9))],
        )

    def test_passages_replace_their_fragments_when_reported(self):
        def side(path, start, end):
            return {"path": path, "bytes": [start, end]}

        report = {
            "pairs": [
                {
                    "fragments": [
                        {"a": side("src/r1.txt", 0, 30), "b": side("susp/s1.txt", 10, 40)},
                        {"a": side("src/r1.txt", 31, 60), "b": side("susp/s1.txt", 42, 71)},
                    ],
                    "passages": [{"a": side("src/r1.txt", 0, 60), "b": side("susp/s1.txt", 10, 71)}],
                }
            ]
        }
        self.assertEqual(
            passages_from_copyhound(report),
            [Passage("susp/s1.txt", (10, 71), "src/r1.txt", (0, 60))],
        )

    def test_a_report_with_capped_details_is_refused(self):
        side = {"path": "susp/s1.txt", "bytes": [0, 4]}
        report = {
            "summary": {"detailed_pairs": 1},
            "pairs": [
                {"fragments": [{"a": side, "b": {"path": "src/r1.txt", "bytes": [0, 4]}}], "passages": []},
                {"fragment_count": 3},
            ],
        }
        with self.assertRaisesRegex(ValueError, "--json-details all"):
            passages_from_copyhound(report)


if __name__ == "__main__":
    unittest.main()
