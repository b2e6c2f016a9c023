"""scripts/ab_seq_power.py: rounds of results/ab/measure.sh compacted and cut into the gate's
jobs, for rounds of three runs (a, b and the slowed s) and of two (KINDS="a b": no-change jobs
only): exact rounds kept, each run's seconds, the jobs' counts and the table's lines."""

import gzip
import json
import os
import unittest

import helpers
import synth
from helpers import run_script

try:
    import numpy  # noqa: F401 (ab_seq_power needs it)
except ImportError:
    numpy = None

needs_numpy = unittest.skipIf(numpy is None, "numpy is missing (apt-get install python3-numpy): "
                              "ab_seq_power.py needs it")

POINTS = (("mpi", "pingpong", 2, 8, 1.0), ("shm-direct", "pingpong", 2, 8, 0.5))


def run_doc(scale):
    probe = {"before_us": 0.4, "after_us": 0.41, "cores": [0, 1]}
    rows = [synth.row(b, op, np_, n, [us * scale * f for f in (0.99, 1.0, 1.01)],
                      placement=probe) for b, op, np_, n, us in POINTS]
    return {"comops_format": 1, "context": synth.context(), "results": rows}


def write_raw(test, rounds, kinds, step_s=2.0):
    """RAW_DIR as measure.sh writes it: rounds of `kinds` runs, one every step_s seconds; the
    last round lacks its last run (an interruption)."""
    raw = test.path("raw")
    os.mkdir(raw)
    lines = []
    for k in range(1, rounds + 1):
        for j, kind in enumerate(kinds):
            if k == rounds and j == len(kinds) - 1:
                break
            start = (k - 1) * len(kinds) * step_s + j * step_s
            lines.append(f"{k} {kind} {start:.1f} 0.00 0.00 0.00 1/100 1\n")
            scale = 1.05 if kind == "s" else 1.0
            synth.write(os.path.join(raw, f"run-{k:03d}-{kind}.json"), run_doc(scale))
    with open(os.path.join(raw, "load.txt"), "w") as f:
        f.writelines(lines)
    return raw


@needs_numpy
class SeqPowerTest(helpers.TempDirTest):
    def compact(self, kinds, rounds=9):
        out = self.path("rounds.json.gz")
        proc = run_script("ab_seq_power.py", "compact", write_raw(self, rounds, kinds), out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, f"{rounds - 1} complete rounds of {rounds} into {out}\n")
        with gzip.open(out, "rt") as f:
            return out, json.load(f)["rounds"]

    def analyze(self, rounds_path, *options):
        out = self.path("power.json")
        proc = run_script("ab_seq_power.py", "analyze", rounds_path, "--out", out, *options)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(out) as f:
            return proc.stdout.splitlines(), json.load(f)

    def test_two_kind_rounds_give_no_change_jobs_only(self):
        path, rounds = self.compact("ab")
        self.assertEqual([sorted(r["runs"]) for r in rounds], [["a", "b"]] * 8)
        self.assertEqual(rounds[0]["runs"]["a"][0], ["mpi", "pingpong", 2, 8, 1.0, 0.4, 0.41,
                                                     False])
        # a run every 2 s: 2 runs a round, 4 s apart, so 2 s a run; a job of 8 s of runs is
        # two rounds, at most, and the 8 rounds make 4 jobs
        lines, doc = self.analyze(path, "--max-seconds", "8", "--look-every", "100")
        modes = doc["designs"]["modes"]
        self.assertEqual(modes["slowdown"]["jobs"], [])
        self.assertEqual([j["rounds"] for j in modes["no_change"]["jobs"]], [2, 2, 2, 2])
        self.assertEqual([j["seconds"] for j in modes["no_change"]["jobs"]], [8.0] * 4)
        self.assertEqual(modes["no_change"]["false_alarms"], {"count": 0, "jobs": 4})
        self.assertEqual(lines[3:], ["| modes, no change | 4 | - | 0 of 4 | 2 | 8 |",
                                     "| every pair, no change | 4 | - | 0 of 4 | 2 | 8 |"])

    def test_three_kind_rounds_give_both_kinds_of_job(self):
        path, rounds = self.compact("abs")
        self.assertEqual([sorted(r["runs"]) for r in rounds], [["a", "b", "s"]] * 8)
        lines, doc = self.analyze(path, "--max-seconds", "8", "--look-every", "100")
        modes = doc["designs"]["modes"]
        self.assertEqual([j["rounds"] for j in modes["slowdown"]["jobs"]], [2, 2, 2, 2])
        self.assertEqual([j["rounds"] for j in modes["no_change"]["jobs"]], [2, 2, 2, 2])
        self.assertEqual(len(lines), 3 + 4)

    def test_min_rounds_hold_a_job_past_its_time(self):
        path, _ = self.compact("ab")
        # 8 s of runs is two rounds; --min-rounds 3 holds each job to 3 (12 s): 2 jobs of 8 rounds
        lines, doc = self.analyze(path, "--max-seconds", "8", "--look-every", "100",
                                  "--min-rounds", "3")
        jobs = doc["designs"]["modes"]["no_change"]["jobs"]
        self.assertEqual([j["rounds"] for j in jobs], [3, 3])
        self.assertEqual([j["seconds"] for j in jobs], [12.0, 12.0])
        self.assertIn("a look every 100 rounds, at least 3 rounds, at most 8.0 s", lines[0])


if __name__ == "__main__":
    unittest.main()
