"""scripts/track_noise.py (the noise model fitted to a history) and scripts/track_sim.py (CI
replayed on synthetic histories): exact figures on hand-made histories, the generator's steps
and drift without noise, the files a small simulation writes, and the refusals."""

import gzip
import json
import math
import os
import types
import unittest

import helpers
import synth
from helpers import run_script

try:
    import numpy as np
except ImportError:
    np = None
else:
    import track_noise  # noqa: E402 (helpers puts scripts/ on sys.path)
    import track_sim
    import track_sim_pool

needs_numpy = unittest.skipIf(np is None, "numpy is missing (apt-get install python3-numpy): "
                              "track_noise.py and track_sim.py need it")

# run medians of the two points (8 B and 64 KiB ping-pong) in 5 runs; run 3 of 8 B contended
MEDIANS = {8: [1.0, 1.1, 1.0, 2.0, 0.9], 65536: [10.0, 10.0, 12.0, 10.0, 10.0]}
REPS = [0.98, 1.0, 1.02]  # each run's repetitions: its median times these


def write_history(test, medians=MEDIANS, contended=((8, 3),)):
    paths = []
    for i in range(len(medians[8])):
        rows = [synth.row("mpi", "pingpong", 2, nbytes, [m[i] * r for r in REPS],
                          pair="intra", contended=(nbytes, i) in contended)
                for nbytes, m in medians.items()]
        doc = {"comops_format": 1, "results": rows,
               "context": synth.context(git_sha=f"c{i}", date=f"2026-11-0{i + 1}T00:00:00Z")}
        paths.append(synth.write(test.path(f"run{i}.json"), doc))
    return paths


@needs_numpy
class NoiseFitTest(helpers.TempDirTest):
    def test_figures_of_a_hand_made_history(self):
        series, nruns = track_noise.load_series(write_history(self))
        model = track_noise.fit(series, nruns)
        self.assertEqual((model["runs"], model["points"], model["points_fitted"]), (5, 2, 2))
        self.assertEqual(model["machines"], 1)
        # 8 B: the quiet runs 1.0, 1.1, 1.0, 0.9; 64 KiB: 10, 10, 12, 10, 10
        quiet8 = np.log([1.0, 1.1, 1.0, 0.9])
        quiet64 = np.log([10.0, 10.0, 12.0, 10.0, 10.0])
        sds = sorted([np.std(quiet8, ddof=1), np.std(quiet64, ddof=1)])
        self.assertAlmostEqual(model["sd_run"], (sds[0] + sds[1]) / 2)
        self.assertEqual([round(v, 12) for v in model["sd_run_points"]],
                         [round(v, 12) for v in sds])
        robust = [track_noise.robust_sigma(quiet8), track_noise.robust_sigma(quiet64)]
        self.assertAlmostEqual(model["sigma_run"], float(np.median(robust)))
        # 64 KiB's differences 0, log 1.2, -log 1.2, 0: their MAD is 0.5 (0 + log 1.2) / 2 ...
        d = np.diff(quiet64)
        self.assertAlmostEqual(robust[1], 1.4826 * float(np.median(np.abs(d - np.median(d))))
                               / math.sqrt(2))
        self.assertAlmostEqual(model["sigma_rep"], float(np.std(np.log(REPS), ddof=1)))
        self.assertEqual(model["contended_share"], 1 / 10)
        # one contended sample only: the factor is the stated default, not a fit
        self.assertEqual(model["contended_factor"], [1.2, 2.5])

    def test_cli_and_refusals(self):
        paths = write_history(self)
        proc = run_script("track_noise.py", *paths)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(proc.stdout.startswith("5 runs on 1 machine(s), 2 of 2 series (on 1 "
                                               "machine(s)) with 4 quiet runs or more: "))
        proc = run_script("track_noise.py", *paths[:3])
        self.assertOneLineError(proc, "track_noise.py: error: no point has 4 quiet runs: too "
                                "short a history to fit")
        proc = run_script("track_noise.py", self.path("missing.json"))
        self.assertOneLineError(proc, "track_noise.py: error: ", "missing.json")


@needs_numpy
class SimulationTest(helpers.TempDirTest):
    QUIET = {"sd_run": 0.0, "sd_run_points": [0.0], "shared": 0.0, "sigma_rep": 0.0,
             "contended_share": 0.0, "contended_factor": [1.2, 2.5]}

    def test_generator_steps_and_drifts_exactly_without_noise(self):
        args = types.SimpleNamespace(points=3, stepped=1, runs=30, reps=3)
        rng = np.random.default_rng(0)
        trial = 4  # the step at run 14
        step = track_sim.history(rng, self.QUIET, "step25", trial, args)
        self.assertEqual([r.median for r in step[0]], [1.0] * 14 + [1.25] * 16)
        self.assertEqual({r.median for r in step[1] + step[2]}, {1.0})
        drift = track_sim.history(rng, self.QUIET, "drift1", trial, args)
        self.assertEqual([round(r.median, 12) for r in drift[0]],
                         [round(1.01 ** i, 12) for i in range(30)])
        outliers = track_sim.history(np.random.default_rng(1), self.QUIET, "outliers", 0, args)
        contended = [r for s in outliers for r in s if r.contended]
        self.assertTrue(contended)  # 15 % of 90 point-runs
        self.assertTrue(all(1.2 <= r.median <= 2.5 for r in contended))
        self.assertEqual({r.median for s in outliers for r in s if not r.contended}, {1.0})

    def test_a_small_simulation_writes_its_files(self):
        paths = write_history(self)
        os.mkdir(self.path("history"))
        for p in paths:
            os.rename(p, self.path("history", os.path.basename(p)))
        out = self.path("out")
        proc = run_script("track_sim.py", "--history", self.path("history"), "--trials", "2",
                          "--runs", "8", "--points", "2", "--stepped", "1", "--scenario",
                          "step25", "--scenario", "noise", "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["README.md", "simulation.json"])
        with open(os.path.join(out, "simulation.json")) as f:
            doc = json.load(f)
        self.assertEqual(list(doc["results"]), ["step25", "noise"])
        self.assertEqual(doc["settings"], {"trials": 2, "runs": 8, "points": 2, "stepped": 1,
                                           "reps": 5, "seed": 1, "pool": None,
                                           "replay": "every", "per_commit": 1,
                                           "draw": "consecutive"})
        noise = doc["results"]["noise"]
        self.assertEqual(noise["quiet_checks"], 2 * (8 - track_sim.FIRST_CHECK + 1))
        self.assertEqual(noise["red_at_step"], 0.0)  # no step: never red at one
        self.assertIsNone(noise["late_red_per_check"])
        self.assertEqual(noise["stepped_series_found"], 0.0)
        self.assertTrue(doc["command"].startswith("/usr/bin/python3 scripts/track_sim.py "))
        with open(os.path.join(out, "README.md")) as f:
            text = f.read()
        self.assertIn(f"Written by `{doc['command']}`", text)
        self.assertIn("| scenario | red at the step's commit (or next) |", text)
        self.assertIn(proc.stdout.splitlines()[0] + "\n|---|", text)  # the printed table

    def test_jobs_do_not_change_the_figures(self):
        os.mkdir(self.path("history"))
        for p in write_history(self):
            os.rename(p, self.path("history", os.path.basename(p)))
        results = []
        for jobs in ("1", "2"):
            out = self.path(f"out{jobs}")
            proc = run_script("track_sim.py", "--history", self.path("history"), "--trials",
                              "2", "--runs", "7", "--points", "2", "--stepped", "1",
                              "--scenario", "step25", "--jobs", jobs, "--out", out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(out, "simulation.json")) as f:
                results.append(json.load(f)["results"])
        self.assertEqual(results[0], results[1])

    def test_refusals(self):
        proc = run_script("track_sim.py", "--stepped", "5", "--points", "2")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--stepped must be at most --points", proc.stderr)
        proc = run_script("track_sim.py", "--history", self.path("none"), "--out",
                          self.path("out"))
        self.assertOneLineError(proc, "track_sim.py: error: ")
        self.assertFalse(os.path.exists(self.path("out")))


# A pool's points and its runs: point 0 takes 1.0 us in the fast mode (probe 0.05 us) and 2.0 in
# the slow one (0.5 us); point 1 10 and 20 us; the runs alternate fast, slow, slow.
POOL_KEYS = [["mpi", "pingpong", 2, 8], ["shm-direct", "pingpong", 2, 8]]


def pool_row(key, median, probe, contended=False):
    return key + [median, probe, probe, contended]


def write_pool(test, rounds=30, odd=False):
    """A rounds file of ab_seq_power.py's form; odd: one run of round 2 has other points."""
    out = []
    for k in range(rounds):
        runs = {}
        for j, kind in enumerate(("a", "b", "s")):
            slow = (2 * k + j) % 3 != 0
            runs[kind] = [pool_row(POOL_KEYS[0], 2.0 if slow else 1.0, 0.5 if slow else 0.05),
                          pool_row(POOL_KEYS[1], 20.0 if slow else 10.0, 0.5 if slow else 0.05,
                                   contended=k == 0 and kind == "a")]
        if odd and k == 1:
            runs["b"] = runs["b"][:1]
        out.append({"round": k + 1, "runs": runs})
    path = test.path("rounds.json.gz")
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump({"rounds": out}, f)
    return path


@needs_numpy
class PoolTest(helpers.TempDirTest):
    def test_load_keeps_the_unchanged_builds_runs(self):
        keys, runs = track_sim_pool.load(write_pool(self, rounds=4, odd=True))
        self.assertEqual(keys, [tuple(k) for k in POOL_KEYS])
        self.assertEqual(len(runs), 2 * 4 - 1)  # a and b of every round, less round 2's b
        self.assertEqual(runs[0], [(1.0, False, (0.05, 0.05)), (10.0, True, (0.05, 0.05))])
        self.assertEqual(runs[1], [(2.0, False, (0.5, 0.5)), (20.0, False, (0.5, 0.5))])

    def test_history_draws_each_run_once_and_steps_the_chosen_point(self):
        pool = track_sim_pool.load(write_pool(self, rounds=10))

        def factor_at(p, run):
            return 1.5 if p == 1 and run >= 4 else 1.0

        points = track_sim_pool.history(np.random.default_rng(3), pool, factor_at, 20, 0.0, 3)
        self.assertEqual([key for key, _ in points], [tuple(k) + ("",) for k in POOL_KEYS])
        first, second = (entries for _, entries in points)
        self.assertEqual([e[0] for e in first], list(range(20)))
        # every run of the pool once: 20 runs, 2 of 3 slow in a round's a and b
        self.assertEqual(sorted(e[1] for e in first), sorted(
            m[0][0] for m in pool[1]))
        for e0, e1 in zip(first, second):
            self.assertEqual(e1[1], 10 * e0[1] * (1.5 if e0[0] >= 4 else 1.0))
            self.assertEqual(e1[2], [e1[1]] * 3)  # sigma_rep 0: every repetition the median
            self.assertEqual(e0[8], (0.05, 0.05) if e0[1] == 1.0 else (0.5, 0.5))
        with self.assertRaisesRegex(track_sim_pool.PoolError, "the pool has 20 runs, fewer "
                                    "than the 21 a history needs"):
            track_sim_pool.history(np.random.default_rng(3), pool, factor_at, 21, 0.0, 3)

    def test_check_splits_the_points_by_mode(self):
        pool = track_sim_pool.load(write_pool(self, rounds=30))
        points = track_sim_pool.history(np.random.default_rng(5), pool,
                                        lambda p, run: 1.0, 40, 0.0, 3)
        detection = types.SimpleNamespace(alpha=0.01, newest_alpha=0.01, permutations=None,
                                          keep_contended=False)
        found = track_sim_pool.check(points, 40, detection)
        # each point twice, once per mode; a mode's runs are all alike: no change anywhere
        self.assertEqual(sorted(p for p, _ in found), [0, 0, 1, 1])
        self.assertEqual([c for _, c in found], [[]] * 4)

    def test_refusals(self):
        bad = self.path("bad.json.gz")
        with open(bad, "w") as f:
            f.write("{}")
        with self.assertRaisesRegex(track_sim_pool.PoolError, "not a rounds file"):
            track_sim_pool.load(bad)


@needs_numpy
class PoolSimulationTest(helpers.TempDirTest):
    def history_dir(self):
        os.mkdir(self.path("history"))
        for p in write_history(self):
            os.rename(p, self.path("history", os.path.basename(p)))
        return self.path("history")

    def test_a_small_pool_simulation_writes_its_files(self):
        pool, out = write_pool(self, rounds=20), self.path("out")
        proc = run_script("track_sim.py", "--history", self.history_dir(), "--rounds", pool,
                          "--trials", "2", "--runs", "24", "--stepped", "1", "--replay", "step",
                          "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "simulation.json")) as f:
            doc = json.load(f)
        self.assertEqual(list(doc["results"]), ["noise", "step10", "step25", "drift1"])
        self.assertEqual(doc["settings"]["pool"], pool)
        self.assertEqual(doc["settings"]["replay"], "step")
        self.assertEqual(doc["settings"]["points"], 2)  # the pool's
        # noise: every run from FIRST_CHECK checked; a step scenario: its step and the next only
        self.assertEqual(doc["results"]["noise"]["quiet_checks"],
                         2 * (24 - track_sim.FIRST_CHECK + 1))
        self.assertEqual(doc["results"]["step25"]["quiet_checks"], 0)
        self.assertIsNone(doc["results"]["step25"]["false_red_per_check"])
        # the pool's 2 modes are alike but for the 2x: noise holds no change
        self.assertEqual(doc["results"]["noise"]["other_series_with_a_change"], 0.0)
        with open(os.path.join(out, "README.md")) as f:
            self.assertIn("40 runs of 2 points from " + pool + " (placement modes: 0.05 us "
                          "(35%), 0.5 us (65%); contended 1.2% of point-runs).\n\n2 trials per scenario, 24 runs, "
                          "2 points (1 of\nthem stepped", f.read())

    def test_pool_refusals(self):
        history, pool = self.history_dir(), write_pool(self, rounds=5)
        proc = run_script("track_sim.py", "--history", history, "--rounds", pool, "--runs",
                          "24", "--stepped", "1", "--out", self.path("out"))
        self.assertOneLineError(proc, "track_sim.py: error: ", "has 2 points and 10 runs: "
                                "fewer than --stepped 1 or --runs 24")
        proc = run_script("track_sim.py", "--history", history, "--rounds", pool,
                          "--scenario", "outliers")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("the outliers scenario is the model's only", proc.stderr)
        proc = run_script("track_sim.py", "--history", history, "--rounds",
                          self.path("missing.json.gz"), "--out", self.path("out"))
        self.assertOneLineError(proc, "track_sim.py: error: ", "missing.json.gz: not a rounds "
                                "file")
        self.assertFalse(os.path.exists(self.path("out")))


if __name__ == "__main__":
    unittest.main()
