"""The sequential A/B gate: its statistics (scripts/ab_sequential.py), its verdicts on rounds
written by a small fake comops (fake_ab_comops.py) and scripts/ab_job.sh --judge sequential
end to end with that fake as both builds: failing on an injected 5 % slowdown, passing on an
unchanged build, an Accept-slowdown trailer, a missing base build and a signal."""

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np

from helpers import HERE, REPO, TempDirTest, run_script

import ab_gate
import ab_sequential as seq

FAKE = os.path.join(HERE, "fake_ab_comops.py")
PINGPONG = "mpi/pingpong/np:2/bytes:8"
POINTS = [PINGPONG, "mpi/broadcast/np:2/bytes:65536", "shm-direct/reduce-max/np:2/bytes:65536"]
SLOW = {"COMOPS_TEST_SLOWDOWN": "mpi:pingpong:8:0.05"}
HEAD_ENV = "COMOPS_TEST_SLOWDOWN=mpi:pingpong:8:0.05"


class ModesTest(TempDirTest):
    def test_two_modes_are_found_between_them(self):
        rng = np.random.default_rng(3)
        probes = np.concatenate([np.exp(rng.normal(math.log(0.06), 0.15, 700)),
                                 np.exp(rng.normal(math.log(0.44), 0.15, 300))])
        (bound,) = seq.mode_bounds(probes)
        self.assertLess(probes[:700].max(), 0.44)
        self.assertTrue(0.09 < bound < 0.3, bound)
        self.assertEqual(seq.mode_of(0.05, [bound]), 0)
        self.assertEqual(seq.mode_of(0.5, [bound]), 1)
        centres = seq.mode_centres(probes, [bound])
        self.assertAlmostEqual(centres[0], float(np.median(probes[probes < bound])))

    def test_one_mode_is_not_split(self):
        rng = np.random.default_rng(4)
        for probes in (np.exp(rng.normal(0, 0.1, 500)), rng.uniform(1, 2, 500),
                       np.exp(0.1 * rng.standard_t(2, 500))):
            self.assertEqual(seq.mode_bounds(probes), [])

    def test_a_few_outliers_are_no_mode(self):
        probes = [0.06] * 98 + [0.5, 0.51]
        self.assertEqual(seq.mode_bounds(probes), [])  # 2 % of the probes, under 3 %

    def test_a_point_whose_probes_disagree_is_mixed(self):
        self.assertEqual(seq.point_mode((0.05, 0.06), [0.2]), 0)
        self.assertEqual(seq.point_mode((0.4, 0.5), [0.2]), 1)
        self.assertIsNone(seq.point_mode((0.05, 0.5), [0.2]))
        self.assertIsNone(seq.point_mode(None, [0.2]))


class ConfidenceSequenceTest(TempDirTest):
    def test_accepted_counts_are_those_under_one_over_alpha(self):
        for n, alpha in ((10, 0.05), (40, 0.01), (100, 0.001)):
            low, high = seq.accepted_counts(n, alpha)
            for k in range(n + 1):
                inside = seq.log_mixture(k, n) < math.log(1 / alpha)
                self.assertEqual(inside, low <= k <= high, (n, k))

    def test_mixture_at_half_is_one_with_no_data(self):
        self.assertAlmostEqual(float(seq.log_mixture(0, 0)), 0.0)

    def test_fewest_pairs_to_exclude_zero(self):
        n = seq.minimum_pairs(0.01 / 18)
        self.assertEqual(seq.accepted_counts(n - 1, 0.01 / 18)[1], n - 1)
        self.assertLess(seq.accepted_counts(n, 0.01 / 18)[1], n)
        low, _ = seq.confidence_sequence([0.05] * (n - 1), 0.01 / 18)
        self.assertEqual(low, -math.inf)
        low, high = seq.confidence_sequence([0.05] * n, 0.01 / 18)
        self.assertEqual((low, high), (0.05, 0.05))

    def test_the_sequence_is_the_running_intersection(self):
        d = [0.1, -0.2, 0.3, 0.05, 0.02, -0.01, 0.2, 0.15] * 6
        alpha = 0.05
        low, high = -math.inf, math.inf
        for n in range(1, len(d) + 1):
            ordered = sorted(d[:n])
            k_low, k_high = seq.accepted_counts(n, alpha)
            inside = [m for m in ordered + [-1.0, 1.0]
                      if k_low <= sum(1 for x in d[:n] if x > m) <= k_high]
            if n - k_high >= 1:
                low = max(low, ordered[n - k_high - 1])
                self.assertEqual(min(inside), ordered[n - k_high - 1])
            if n - k_low + 1 <= n:
                high = min(high, ordered[n - k_low])
        self.assertEqual(seq.confidence_sequence(d, alpha), (low, high))

    def test_false_alarms_stay_under_alpha_at_every_look(self):
        rng = np.random.default_rng(7)
        alarms = 0
        for _ in range(400):
            d = rng.standard_t(3, 120) * 0.1
            low, high = seq.confidence_sequence(d, 0.05)
            alarms += low > 0 or high < 0
        self.assertLessEqual(alarms, 400 * 0.05)

    def test_decisions(self):
        limit = math.log(1.05)
        self.assertEqual(seq.decide(0.01, limit, 0.05), "slower")
        self.assertEqual(seq.decide(0.01, limit * 0.99, 0.05), "same")  # under 5 %: not a fail
        self.assertEqual(seq.decide(-0.2, limit * 0.99, 0.05), "same")
        self.assertEqual(seq.decide(-0.01, 0.2, 0.05), "undecided")
        self.assertEqual(seq.decide(-math.inf, math.inf, 0.05), "undecided")


def write_rounds(folder, rounds, head_env=None, env=None):
    """Rounds 1..rounds of the fake comops, base and head, into folder."""
    os.makedirs(folder, exist_ok=True)
    for k in range(1, rounds + 1):
        for side, extra in (("base", {}), ("head", head_env or {})):
            subprocess.run([sys.executable, FAKE, "--json",
                            os.path.join(folder, f"{side}-{k:03d}.json")],
                           env=dict(os.environ, **(env or {}), **extra), check=True)


class GateVerdictTest(TempDirTest):
    def gate(self, *args):
        return run_script("ab_gate.py", self.path("rounds"), "--out", self.path("out"), *args)

    def doc(self):
        with open(self.path("out", "ab.json")) as f:
            return json.load(f)

    def test_a_five_percent_slowdown_fails(self):
        write_rounds(self.path("rounds"), 40, SLOW)
        proc = self.gate("--gate")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), 2, proc.stdout)
        self.assertTrue(lines[0].startswith(f"slower: {PINGPONG}  "), lines[0])
        self.assertRegex(lines[0], r"ratio 1\.0\d\d \[1\.0\d\d, 1\.\d\d\d\]; \d+ of 40 pairs used "
                                   r"\(mode 1 \(0\.06\d* us\): \d+, mode 2 \(0\.4\d* us\): \d+; "
                                   r"0 mixed, \d+ across modes, 0 contended\)")
        self.assertTrue(lines[1].startswith("verdict: slower: 1 slower, 2 same, 0 undecided, "
                                            "0 not judged of 3 points"), lines[1])
        doc = self.doc()
        (point,) = [p for p in doc["points"] if p["decision"] == "slower"]
        self.assertEqual(point["point"], PINGPONG)
        self.assertEqual(point["used"], sum(point["modes_used"].values()))
        self.assertEqual(point["used"] + point["across"], 40)
        self.assertEqual([m["mode"] for m in doc["modes"]], [1, 2])
        self.assertEqual(sum(m["probes"] for m in doc["modes"]), 40 * 2 * 3 * 2)
        self.assertTrue(point["ci_low"] > 1 and point["ci_high"] >= 1.05, point)

    def test_the_dashboard_reads_the_verdict(self):
        import track_report  # noqa: E402 (helpers puts scripts/ on sys.path)
        write_rounds(self.path("rounds"), 40, SLOW)
        self.assertEqual(self.gate().returncode, 0)
        ab = track_report.load_ab(self.path("out", "ab.json"))
        self.assertEqual([p["point"] for p in ab["points"] if p["changed"]], [PINGPONG])
        self.assertEqual(ab["contended_rounds"], 0)

    def test_an_unchanged_build_passes(self):
        write_rounds(self.path("rounds"), 40)
        proc = self.gate("--gate")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[0][:40],
                         "verdict: no slowdown: 0 slower, 3 same, ")
        self.assertEqual([p["decision"] for p in self.doc()["points"]], ["same"] * 3)

    def test_an_accepted_slowdown_passes_and_is_recorded(self):
        write_rounds(self.path("rounds"), 40, SLOW)
        proc = self.gate("--gate", "--accept", f"{PINGPONG} a checksum pass, reviewed")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        first = proc.stdout.splitlines()[0]
        self.assertTrue(first.startswith(f"accepted: {PINGPONG}  "), first)
        self.assertTrue(first.endswith("; Accept-slowdown: a checksum pass, reviewed"), first)
        self.assertIn("1 slower (1 accepted)", proc.stdout)
        (point,) = [p for p in self.doc()["points"] if p["point"] == PINGPONG]
        self.assertEqual(point["accepted"], "a checksum pass, reviewed")

    def test_no_same_mode_pair_is_not_judged(self):
        write_rounds(self.path("rounds"), 12, env={"FAKE_AB_PLACEMENT": "mixed"})
        proc = self.gate("--gate")
        self.assertEqual(proc.returncode, 4, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[:3], [f"not judged: placement: {p}: 0 of 12 pairs used (none; 12 "
                                     f"mixed, 0 across modes, 0 contended)" for p in POINTS])
        self.assertTrue(lines[3].startswith("verdict: not judged: "), lines[3])

    def test_rounds_without_probes_use_every_pair_and_say_so(self):
        write_rounds(self.path("rounds"), 6, env={"FAKE_AB_PLACEMENT": "none"})
        proc = self.gate()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(proc.stdout.strip().endswith("placement: no probe (every pair used)"))
        self.assertEqual([p["used"] for p in self.doc()["points"]], [6, 6, 6])

    def test_look_says_whether_to_go_on(self):
        write_rounds(self.path("rounds"), 4)
        proc = self.gate("--look")
        self.assertEqual((proc.returncode, proc.stdout, proc.stderr), (10, "", ""))
        self.assertFalse(os.path.exists(self.path("out")))
        write_rounds(self.path("rounds"), 40, SLOW)
        self.assertEqual(self.gate("--look").returncode, 0)

    def test_bad_accepts(self):
        write_rounds(self.path("rounds"), 2)
        self.assertOneLineError(self.gate("--accept", PINGPONG),
                                f"ab_gate.py: error: Accept-slowdown: '{PINGPONG}' needs a point "
                                f"and a reason")
        self.assertOneLineError(self.gate("--accept", "mpi/nothing/np:2/bytes:8 why"),
                                "Accept-slowdown names mpi/nothing/np:2/bytes:8, which is not a "
                                "point of this job")

    def test_bad_options(self):
        os.makedirs(self.path("rounds"))
        self.assertOneLineError(self.gate("--threshold", "0"), "--threshold 0 is not between")
        self.assertOneLineError(self.gate("--alpha", "2"), "--alpha 2 is not between 0 and 1")
        self.assertOneLineError(self.gate(), "no round files")


def git(folder, *args):
    return subprocess.run(["git", "-C", folder, *args], capture_output=True, text=True,
                          check=True).stdout


class AbJobGateTest(TempDirTest):
    """ab_job.sh in a repository of its own (its scripts and two commits), the fake comops as
    both builds, so that a commit's trailer can be tested without touching this repository."""

    def setUp(self):
        super().setUp()
        repo = self.path("repo")
        os.makedirs(os.path.join(repo, "scripts"))
        for name in ("ab_job.sh", "ab_gate.py", "ab_judge.py", "ab_sequential.py",
                     "comops_results.py"):
            shutil.copy(os.path.join(REPO, "scripts", name), os.path.join(repo, "scripts"))
        git(repo, "init", "-q")
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty",
            "-m", "head")
        self.build = self.path("fake")
        os.makedirs(self.build)
        with open(os.path.join(self.build, "comops"), "w") as f:
            f.write(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
        os.chmod(os.path.join(self.build, "comops"), 0o755)
        os.makedirs(self.path("tmp"))

    def job_command(self, *args):
        return [os.path.join(self.path("repo"), "scripts", "ab_job.sh"), "--base", "HEAD~1",
                "--base-build", self.build, "--head-build", self.build, "--out",
                self.path("out"), "--gate", *args]

    def job(self, *args, env=None):
        proc = subprocess.run(self.job_command(*args), cwd=self.path("repo"), capture_output=True,
                              text=True, timeout=600,
                              env=dict(os.environ, TMPDIR=self.path("tmp"), **(env or {})))
        self.assertEqual(os.listdir(self.path("tmp")), [])
        return proc

    def test_fails_on_an_injected_slowdown(self):
        proc = self.job("--head-env", HEAD_ENV)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertTrue(proc.stdout.startswith(f"slower: {PINGPONG}  "), proc.stdout)
        self.assertIn("stopped: every point decided", proc.stderr)

    def test_passes_on_an_unchanged_build(self):
        proc = self.job()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertTrue(proc.stdout.startswith("verdict: no slowdown: 0 slower, 3 same"),
                        proc.stdout)
        with open(self.path("out", "ab.json")) as f:
            rounds = json.load(f)["rounds"]
        self.assertEqual(rounds % 4, 0)  # stopped at a look, every point decided
        self.assertEqual(len(os.listdir(self.path("out", "rounds"))), 2 * rounds)

    def test_min_rounds_holds_a_decided_job_on(self):
        def rounds_of(*args):
            proc = self.job("--head-env", HEAD_ENV, *args)
            self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
            with open(self.path("out", "ab.json")) as f:
                return json.load(f)["rounds"], proc.stderr

        decided, _ = rounds_of()
        rounds, stderr = rounds_of("--min-rounds", str(decided + 1))
        self.assertEqual(rounds, decided + 4)  # the first look after --min-rounds
        self.assertEqual(len(os.listdir(self.path("out", "rounds"))), 2 * rounds)
        self.assertIn(f"{rounds} rounds ({2 * rounds} runs)", stderr)

    def test_min_rounds_above_rounds(self):
        proc = self.job("--min-rounds", "9", "--rounds", "8")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(),
                         ["ab_job.sh: error: --min-rounds 9 is above --rounds 8"])

    def test_a_trailer_accepts_the_slowdown(self):
        git(self.path("repo"), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
            "--amend", "--allow-empty", "-m", f"head\n\nAccept-slowdown: {PINGPONG} the new checksum, reviewed")
        proc = self.job("--head-env", HEAD_ENV)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertTrue(proc.stdout.startswith(f"accepted: {PINGPONG}  "), proc.stdout)
        with open(self.path("out", "ab.json")) as f:
            (point,) = [p for p in json.load(f)["points"] if p["point"] == PINGPONG]
        self.assertEqual(point["accepted"], "the new checksum, reviewed")

    def test_a_missing_base_build(self):
        proc = self.job("--base-build", self.path("nothing"))
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(),
                         [f"ab_job.sh: error: --base-build {self.path('nothing')} has no comops: "
                          f"build the base there, or leave --base-build out"])

    def test_a_signal_stops_the_job_with_its_rounds_kept(self):
        proc = subprocess.Popen(self.job_command("--rounds", "400", "--look-every", "400"),
                                cwd=self.path("repo"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                env=dict(os.environ, TMPDIR=self.path("tmp")))
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not os.path.exists(
                    self.path("out", "rounds", "head-003.json")):
                time.sleep(0.05)
            os.killpg(proc.pid, signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
        self.assertEqual(proc.returncode, 130, err)
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertRegex(lines[0], r"^ab_job\.sh: error: stopped by a signal after \d+ complete "
                                   r"rounds; the runs so far are in .*/out/rounds$")
        kept = int(lines[0].split(" after ")[1].split()[0])
        self.assertGreaterEqual(kept, 3)
        names = os.listdir(self.path("out", "rounds"))
        for k in range(1, kept + 1):
            self.assertIn(f"base-{k:03d}.json", names)
            self.assertIn(f"head-{k:03d}.json", names)
        self.assertEqual(os.listdir(self.path("tmp")), [])
