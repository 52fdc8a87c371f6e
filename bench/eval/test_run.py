"""Tests of run.py's tool runner: which exit statuses fail a run. Run from
this folder: python3 -m unittest"""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

import run


class RunMeasured(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.log = Path(self.work.name) / "tool.log"

    def tearDown(self):
        self.work.cleanup()

    def test_an_exit_status_it_accepts_returns_the_cost(self):
        usage = run.run_measured(["sh", "-c", "echo partial; exit 1"], self.log, success=(0, 1))
        self.assertGreaterEqual(usage.wall_s, 0)
        self.assertIn("partial", self.log.read_text())

    def test_any_other_exit_status_fails_with_the_log_tail(self):
        with self.assertRaises(run.ToolFailed) as failed:
            run.run_measured(["sh", "-c", "echo broken; exit 1"], self.log)
        self.assertIn("exit 1", str(failed.exception))
        self.assertIn("broken", str(failed.exception))
        with self.assertRaises(run.ToolFailed):
            run.run_measured(["sh", "-c", "exit 2"], self.log, success=(0, 1))


if __name__ == "__main__":
    unittest.main()
