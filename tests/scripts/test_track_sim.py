"""scripts/track_noise.py (the noise model fitted to a history) and scripts/track_sim.py (CI
replayed on synthetic histories): exact figures on hand-made histories, the generator's steps
and drift without noise, the files a small simulation writes, and the refusals."""

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
                                           "reps": 5, "seed": 1})
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


if __name__ == "__main__":
    unittest.main()
