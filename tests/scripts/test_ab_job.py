"""scripts/ab_job.sh end to end on a tiny sweep with base == head (the built comops as both), its
usage errors, and the test-only slowdown: a default build does not honour COMOPS_TEST_SLOWDOWN,
a test build (-DCOMOPS_TEST_SLOWDOWN=ON) does."""

import json
import os
import subprocess
import unittest

from helpers import REPO, TempDirTest, run_script

import ab_judge

BINARY = os.environ.get("COMOPS_BINARY", "")
SLOWDOWN_BUILD = os.environ.get("COMOPS_TEST_SLOWDOWN_BUILD", "OFF").upper() in ("ON", "1", "TRUE")
TINY = "--backend=shm --op=pingpong --sizes=8 -r 3 --no-limits"


def worktrees():
    return subprocess.run(["git", "-C", REPO, "worktree", "list", "--porcelain"],
                          capture_output=True, text=True, check=True).stdout


@unittest.skipUnless(os.access(BINARY, os.X_OK), "COMOPS_BINARY is not set to a built comops")
class AbJobTest(TempDirTest):
    def job(self, *args):
        build = os.path.dirname(BINARY)
        env = {"TMPDIR": self.path("tmp")}
        os.makedirs(self.path("tmp"))
        return run_script("ab_job.sh", "--base", "HEAD", "--base-build", build, "--head-build",
                          build, "--sweep", TINY, "--out", self.path("out"), "--judge", "fixed",
                          *args, env=env)

    def expected_verdict(self):
        """From the round files: "no change" when a point has 3 uncontended pairs (3 pairs can
        never reach p <= 0.01), else "nothing judged"."""
        rounds = ab_judge.load_rounds(ab_judge.round_files(self.path("out", "rounds")))
        points = ab_judge.paired_values(rounds)
        judged = any(len(e["base"]) >= ab_judge.MIN_PAIRS for e in points.values())
        return "no change" if judged else "nothing judged"

    def test_base_equals_head(self):
        before = worktrees()
        proc = self.job("--rounds", "3", "--gate")
        verdict = self.expected_verdict()
        self.assertEqual(proc.returncode, {"no change": 0, "nothing judged": 4}[verdict],
                         proc.stdout + proc.stderr)
        self.assertEqual(sorted(os.listdir(self.path("out", "rounds"))),
                         [f"{side}-{k:03d}.json" for side in ("base", "head") for k in (1, 2, 3)])
        with open(self.path("out", "ab.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["verdict"], verdict)
        self.assertEqual(doc["rounds"], 3)
        self.assertEqual(doc["base"], doc["head"].replace("-dirty", ""))
        self.assertEqual(sorted(p["point"] for p in doc["points"]),
                         ["shm-direct/pingpong/np:2/bytes:8", "shm-staged/pingpong/np:2/bytes:8"])
        self.assertFalse(any(p["changed"] for p in doc["points"]))
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), 1, proc.stdout)
        self.assertTrue(lines[0].startswith(f"verdict: {verdict}: "), lines[0])
        with open(self.path("out", "ab.txt")) as f:
            text = f.read().splitlines()
        self.assertEqual(text[-1], lines[0])
        self.assertEqual(len(text), 4)  # the header, two points, the verdict
        self.assertIn("3 rounds (6 runs)", proc.stderr)
        self.assertEqual(worktrees(), before)
        self.assertEqual(os.listdir(self.path("tmp")), [])

    def test_report_only_exits_zero(self):
        proc = self.job("--rounds", "1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.path("out", "ab.json")) as f:
            self.assertEqual(json.load(f)["verdict"], "nothing judged")  # 1 pair per point

    def test_base_that_is_not_a_commit(self):
        before = worktrees()
        self.assertOneLineError(self.job("--base", "no-such-rev-1234"),
                                "--base no-such-rev-1234 is not a commit")
        self.assertEqual(worktrees(), before)
        self.assertEqual(os.listdir(self.path("tmp")), [])


class AbJobUsageTest(TempDirTest):
    def test_unknown_option(self):
        self.assertOneLineError(run_script("ab_job.sh", "--frobnicate"),
                                "unknown option --frobnicate")

    def test_bad_rounds(self):
        self.assertOneLineError(run_script("ab_job.sh", "--rounds", "0"),
                                "--rounds must be a positive integer (got 0)")

    def test_bad_alpha(self):
        self.assertOneLineError(run_script("ab_job.sh", "--alpha", "1.5"),
                                "--alpha must be a number between 0 and 1 (got 1.5)")

    def test_bad_test(self):
        self.assertOneLineError(run_script("ab_job.sh", "--test", "ttest"),
                                "--test must be median or sign (got ttest)")

    def test_bad_judge(self):
        self.assertOneLineError(run_script("ab_job.sh", "--judge", "bayes"),
                                "--judge must be sequential or fixed (got bayes)")

    def test_bad_sequential_settings(self):
        for option, value, word in (("--max-seconds", "0", "a positive integer"),
                                    ("--look-every", "x", "a positive integer"),
                                    ("--threshold", "0", "a positive fraction"),
                                    ("--threshold", "-1", "a positive fraction")):
            self.assertOneLineError(run_script("ab_job.sh", option, value),
                                    f"{option} must be {word} (got {value})")

    def test_sweep_with_its_own_output(self):
        self.assertOneLineError(run_script("ab_job.sh", "--sweep", "--op=pingpong --json x"),
                                "--sweep must not contain --json")

    def test_help(self):
        proc = run_script("ab_job.sh", "--help")
        self.assertEqual(proc.returncode, 0)
        for option in ("--base REV", "--head REV", "--rounds K", "--gate", "--out DIR",
                       "--judge sequential|fixed", "--max-seconds S", "--threshold T",
                       "Accept-slowdown: POINT REASON"):
            self.assertIn(option, proc.stdout)


@unittest.skipUnless(os.access(BINARY, os.X_OK), "COMOPS_BINARY is not set to a built comops")
class TestSlowdownBuildTest(TempDirTest):
    """COMOPS_TEST_SLOWDOWN_BUILD says how the build was configured (ctest passes it)."""

    def comops(self, value):
        env = dict(os.environ, COMOPS_TEST_SLOWDOWN=value)
        return subprocess.run([BINARY, "--backend=shm", "--op=pingpong", "--sizes=8",
                               "-r", "1", "--no-limits", "--progress=never", "-o", self.tmp],
                              capture_output=True, text=True, env=env, timeout=120)

    def test_the_variable_is_honoured_only_by_a_test_build(self):
        with open(BINARY, "rb") as f:
            self.assertEqual(b"COMOPS_TEST_SLOWDOWN" in f.read(), SLOWDOWN_BUILD)
        proc = self.comops("shm-direct:pingpong:8:0.05")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        note = "comops: note: test build: shm-direct pingpong 8 B slowed by 5 %"
        self.assertEqual(note in proc.stderr, SLOWDOWN_BUILD, proc.stderr)

    def test_a_malformed_variable(self):
        proc = self.comops("shm-direct:pingpong:8")
        if SLOWDOWN_BUILD:  # a runtime error of the environment: exit 3
            self.assertEqual(proc.returncode, 3, proc.stderr)
            self.assertIn("COMOPS_TEST_SLOWDOWN=shm-direct:pingpong:8: expected "
                          "BACKEND:OP:BYTES:FRACTION", proc.stderr)
        else:
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertNotIn("COMOPS_TEST_SLOWDOWN", proc.stderr)


if __name__ == "__main__":
    unittest.main()
