"""scripts/compare.py: verdicts, exit codes and messages on synthetic comops results."""

import importlib.util
import json
import random
import unittest

import helpers
import synth
from helpers import run_script

import compare  # noqa: E402 (helpers puts scripts/ on sys.path)

BASE_REPS = [10.0, 10.2, 9.9, 10.1, 9.8]


def doc(rows):
    return {"comops_format": 1, "context": synth.context(), "results": rows}


def points(reps_by_bytes, extra=None):
    """mpi/pingpong rows at np 2, one per size in reps_by_bytes, each with its repetition times;
    extra: {bytes: {row keyword: value}}."""
    return [synth.row("mpi", "pingpong", 2, nbytes, reps, **(extra or {}).get(nbytes, {}))
            for nbytes, reps in reps_by_bytes.items()]


class CompareTest(helpers.TempDirTest):
    def write_pair(self, base_rows, new_rows):
        return (synth.write(self.path("base.json"), doc(base_rows)),
                synth.write(self.path("new.json"), doc(new_rows)))

    def compare(self, base_rows, new_rows, *args):
        base, new = self.write_pair(base_rows, new_rows)
        out = self.path("cmp.json")
        proc = run_script("compare.py", base, new, "--json", out, *args)
        verdicts = {}
        if proc.returncode in (0, 1):
            with open(out) as f:
                report = json.load(f)
            verdicts = {p["point"]: p["verdict"] for p in report["points"]}
            self.report = report
        return proc, verdicts

    def test_flags_2x_slowdown(self):
        base = points({8: BASE_REPS, 64: BASE_REPS, 1024: BASE_REPS})
        new = points({8: BASE_REPS, 64: [2 * t for t in BASE_REPS], 1024: BASE_REPS})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same",
                                    "mpi/pingpong/np:2/bytes:64": "slower",
                                    "mpi/pingpong/np:2/bytes:1024": "same"})
        line = [l for l in proc.stdout.splitlines() if l.startswith("mpi/pingpong/np:2/bytes:64")]
        self.assertEqual(len(line), 1)
        self.assertTrue(line[0].endswith("slower"), line[0])
        self.assertIn(" U ", line[0])
        self.assertIn("REGRESSION", proc.stderr)
        self.assertEqual(self.report["exit_status"], 1)

    def test_change_within_noise_passes(self):
        base = points({8: BASE_REPS, 64: BASE_REPS})
        new = points({8: [9.9, 10.3, 10.0, 9.7, 10.2], 64: [10.5, 10.1, 9.9, 10.4, 10.0]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(set(verdicts.values()), {"same"})
        self.assertEqual(proc.stderr, "")

    def test_large_but_insignificant_change_is_noisy(self):
        base = points({8: [10, 12, 14, 16, 18]})
        new = points({8: [13, 15, 18, 19, 21]})  # median ratio 18 / 14 = 1.29, overlapping
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "noisy"})
        self.assertGreaterEqual(self.report["points"][0]["p_value"], 0.05)

    def test_speedup_is_faster_and_passes(self):
        base = points({8: BASE_REPS})
        new = points({8: [t / 2 for t in BASE_REPS]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "faster"})

    def test_slowdown_below_threshold_passes(self):
        base = points({8: BASE_REPS})
        new = points({8: [1.1 * t for t in BASE_REPS]})  # significant, but only 10 %
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same"})
        proc, verdicts = self.compare(base, new, "--threshold", "0.05")
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "slower"})

    def test_report_only_exits_0_on_slowdown(self):
        base = points({8: BASE_REPS})
        new = points({8: [2 * t for t in BASE_REPS]})
        proc, verdicts = self.compare(base, new, "--report-only")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "slower"})
        self.assertIn("slower", proc.stdout)
        self.assertIn("--report-only", proc.stderr)

    def test_range_rule_with_few_repetitions(self):
        # 3 against 3 repetitions: the U test cannot reach p < 0.05, the range rule decides.
        base = points({8: [10, 11, 12], 64: [10, 11, 12], 1024: [10]})
        new = points({8: [20, 21, 22], 64: [11.5, 15, 16], 1024: [25]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "slower",
                                    "mpi/pingpong/np:2/bytes:64": "noisy",
                                    "mpi/pingpong/np:2/bytes:1024": "slower"})
        self.assertEqual({p["test"] for p in self.report["points"]}, {"range"})
        self.assertEqual({p["p_value"] for p in self.report["points"]}, {None})

    def test_points_in_one_file_are_listed_not_failed(self):
        base = points({8: BASE_REPS, 64: BASE_REPS})
        new = points({8: BASE_REPS, 1024: [5 * t for t in BASE_REPS]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same"})
        self.assertIn("only in baseline (1, not compared):\n  mpi/pingpong/np:2/bytes:64",
                      proc.stdout)
        self.assertIn("only in new (1, not compared):\n  mpi/pingpong/np:2/bytes:1024",
                      proc.stdout)

    def test_wrong_results_in_new_fail(self):
        base = points({8: BASE_REPS})
        new = points({8: BASE_REPS}, extra={8: {"wrong": 3}})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same"})
        self.assertIn("WRONG RESULTS IN NEW:\n  mpi/pingpong/np:2/bytes:8: 3 wrong elements",
                      proc.stdout)
        self.assertIn("wrong results", proc.stderr)
        self.assertEqual(self.report["wrong_in_new"], {"mpi/pingpong/np:2/bytes:8": 3})

    def test_wrong_results_in_baseline_only_do_not_fail(self):
        base = points({8: BASE_REPS}, extra={8: {"wrong": 3}})
        proc, _ = self.compare(base, points({8: BASE_REPS}))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("wrong results in baseline", proc.stdout)

    def test_no_common_points_exit_2(self):
        base, new = self.write_pair(points({8: BASE_REPS}), points({64: BASE_REPS}))
        proc = run_script("compare.py", base, new)
        self.assertOneLineError(proc, f"compare.py: error: {base} and {new} have no point "
                                "(backend, op, np, bytes) in common (1 and 1 points)")

    def test_unwritable_json_report_exit_2(self):
        base, new = self.write_pair(points({8: BASE_REPS}), points({8: BASE_REPS}))
        proc = run_script("compare.py", base, new, "--json", self.tmp)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(),
                         [f"compare.py: error: cannot write {self.tmp} (Is a directory)"])


class StatisticsTest(unittest.TestCase):
    def test_min_p_value_decides_when_the_u_test_can_run(self):
        self.assertAlmostEqual(compare.min_p_value(3, 3), 0.1)
        self.assertGreater(compare.min_p_value(3, 4), 0.05)
        self.assertLessEqual(compare.min_p_value(4, 4), 0.05)
        self.assertLessEqual(compare.min_p_value(3, 5), 0.05)
        self.assertGreater(compare.min_p_value(2, 7), 0.05)
        self.assertLessEqual(compare.min_p_value(2, 8), 0.05)
        self.assertEqual(compare.min_p_value(0, 5), 1.0)

    def test_identical_samples_are_not_significant(self):
        self.assertEqual(compare.mann_whitney_p([5.0] * 5, [5.0] * 5), 1.0)
        self.assertEqual(compare._mann_whitney_p_plain([5.0] * 5, [5.0] * 5), 1.0)


@unittest.skipUnless(importlib.util.find_spec("scipy"), "scipy is missing: run with "
                     "/usr/bin/python3 (apt-get install python3-scipy)")
class ScipyCrossCheckTest(unittest.TestCase):
    """compare.py's own Mann-Whitney U test, used without scipy, against scipy's."""

    def test_plain_mann_whitney_matches_scipy(self):
        from scipy.stats import mannwhitneyu
        rng = random.Random(7)
        for _ in range(200):
            a = [round(rng.gauss(10, 1), rng.choice([0, 1, 4])) for _ in range(rng.randint(1, 12))]
            b = [round(rng.gauss(10.5, 1), rng.choice([0, 1, 4]))
                 for _ in range(rng.randint(1, 12))]
            expected = mannwhitneyu(a, b, alternative="two-sided").pvalue
            self.assertAlmostEqual(compare._mann_whitney_p_plain(a, b), expected, places=9,
                                   msg=f"{a} {b}")


if __name__ == "__main__":
    unittest.main()
