"""scripts/track_aggregate.py and track.py archive --aggregate: the runs of one commit folded into
one history entry (the uncontended runs of a point's most frequent placement mode, exact), its
own history apart from single runs, and the refusals; track_sim.py --per-commit on a pool."""

import json
import os
import shutil
import sqlite3
import subprocess
import unittest

import helpers
import synth
from helpers import run_script

try:
    import numpy as np
except ImportError:
    np = None
else:
    import track_aggregate  # noqa: E402 (helpers puts scripts/ on sys.path)
    import track_sim_pool
    from test_track_sim import POOL_KEYS, write_pool

needs_numpy = unittest.skipIf(np is None, "numpy is missing (apt-get install python3-numpy): "
                              "track_aggregate.py needs it")

SLOW, FAST = (0.50, 0.51), (0.050, 0.051)
# per run: (8 B median, 8 B contended, 8 B probe, 64 KiB median, 64 KiB probe)
RUNS = [(2.0, False, SLOW, 20.0, SLOW),
        (2.2, False, SLOW, 22.0, SLOW),
        (2.1, False, SLOW, 21.0, SLOW),
        (1.0, False, FAST, 10.0, FAST),
        (1.1, False, FAST, 11.0, (FAST[0], SLOW[0])),  # 64 KiB: moved during the point
        (5.0, True, SLOW, 23.0, SLOW)]


def probe(before_after):
    return {"before_us": before_after[0], "after_us": before_after[1], "cores": [0, 1]}


def write_runs(test, runs=RUNS, commit="abc1234", wrong_in=None):
    paths = []
    for i, (m8, c8, p8, m64, p64) in enumerate(runs):
        rows = [synth.row("mpi", "pingpong", 2, 8, [m8] * 3, pair="intra", contended=c8,
                          placement=probe(p8), cpu_stall_us=float(i),
                          wrong=1 if wrong_in == i else 0),
                synth.row("mpi", "pingpong", 2, 65536, [m64] * 3, pair="intra",
                          placement=probe(p64), oversubscribed=i == 2)]
        doc = {"comops_format": 1, "results": rows,
               "context": synth.context(git_sha=commit, date=f"2026-12-0{i + 1}T00:00:00Z")}
        paths.append(synth.write(test.path(f"head-{i:03d}.json"), doc))
    return paths


def read(path):
    with open(path) as f:
        return json.load(f)


@needs_numpy
class FoldTest(helpers.TempDirTest):
    def doc(self, **kw):
        return track_aggregate.aggregate(write_runs(self, **kw))

    def rows(self, doc):
        return {r["bytes"]: r for r in doc["results"]}

    def test_the_most_frequent_modes_uncontended_runs(self):
        doc = self.doc()
        self.assertEqual(doc["context"]["aggregate"],
                         {"runs": 6, "rule": track_aggregate.RULE})
        self.assertEqual(doc["context"]["date"], "2026-12-01T00:00:00Z")  # the first run's
        r8, r64 = self.rows(doc)[8], self.rows(doc)[65536]
        # 8 B: slow mode 3 clean runs (and 1 contended, left out), fast 2
        self.assertEqual(r8["rep_times_us"], [2.0, 2.2, 2.1])
        self.assertEqual(r8["time_us_reps"], {"min": 2.0, "median": 2.1, "max": 2.2})
        self.assertEqual(r8["repetitions"], 3)
        self.assertEqual(r8["aggregate"], {"runs": 3, "of": 6})
        self.assertEqual(r8["placement"], probe(SLOW))
        self.assertEqual(r8["cpu_stall_us"], 1.0)  # median of runs 0, 1, 2
        self.assertFalse(r8["contended"])
        self.assertNotIn("time_us", r8)
        # 64 KiB: slow 4 runs, fast 1 (run 4 mixed, left out)
        self.assertEqual(r64["rep_times_us"], [20.0, 22.0, 21.0, 23.0])
        self.assertEqual(r64["aggregate"], {"runs": 4, "of": 6})
        self.assertTrue(r64["oversubscribed"])  # run 2 was

    def test_a_tie_takes_the_faster_mode(self):
        runs = RUNS[:1] + [(2.2, True, SLOW, 22.0, SLOW)] + RUNS[2:]
        r8 = self.rows(self.doc(runs=runs))[8]
        self.assertEqual(r8["rep_times_us"], [1.0, 1.1])  # 2 clean runs in each mode
        self.assertEqual(r8["placement"], probe(FAST))

    def test_contended_everywhere_stays_contended(self):
        runs = [(m8, True, p8, m64, p64) for m8, _, p8, m64, p64 in RUNS]
        r8 = self.rows(self.doc(runs=runs))[8]
        self.assertTrue(r8["contended"])
        self.assertEqual(r8["rep_times_us"], [2.0, 2.2, 2.1, 5.0])  # the slow mode's 4 runs

    def test_the_centre_is_a_trimmed_mean(self):
        self.assertEqual(track_aggregate.centre([1.0] * 8 + [100.0, 0.0]), 1.0)  # 1 cut each end
        self.assertEqual(track_aggregate.centre([1.0, 2.0, 3.0, 6.0]), 3.0)  # 4 runs: none cut
        runs = [(2.0 + 0.1 * i, False, SLOW, 20.0, SLOW) for i in range(9)] + [
            (9.0, False, SLOW, 20.0, SLOW)]
        r8 = self.rows(self.doc(runs=runs))[8]
        self.assertEqual(r8["time_us_reps"]["median"], track_aggregate.centre(
            [2.0 + 0.1 * i for i in range(9)] + [9.0]))
        self.assertAlmostEqual(r8["time_us_reps"]["median"], 2.45)  # 2.1 .. 2.8 and 9.0 cut
        self.assertEqual(r8["time_us_reps"]["max"], 9.0)

    def test_a_wrong_result_in_any_run_shows(self):
        self.assertEqual(self.rows(self.doc(wrong_in=3))[8]["wrong"], 1)  # a fast run, unused

    def test_refusals(self):
        paths = write_runs(self)
        other = read(paths[1])
        other["context"]["git_sha"] = "def5678"
        synth.write(paths[1], other)
        with self.assertRaisesRegex(track_aggregate.AggregateError,
                                    "head-001.json: commit def5678, not abc1234 as .*head-000"
                                    r"\.json: the runs of one commit only"):
            track_aggregate.aggregate(paths)
        paths = write_runs(self)
        other = read(paths[2])
        other["results"] = other["results"][:1]
        synth.write(paths[2], other)
        with self.assertRaisesRegex(track_aggregate.AggregateError, "head-002.json: other "
                                    "points than .*head-000.json: the runs of one sweep only"):
            track_aggregate.aggregate(paths)
        with self.assertRaisesRegex(track_aggregate.AggregateError, "no run to aggregate"):
            track_aggregate.aggregate([])


@needs_numpy
class ArchiveAggregateTest(helpers.TempDirTest):
    def test_archive_add_and_a_history_of_its_own(self):
        paths = write_runs(self)
        os.mkdir(self.path("hist"))
        proc = run_script("track.py", "archive", "--aggregate", *paths, "--dir",
                          self.path("hist"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        archived = proc.stdout.strip()
        self.assertEqual(os.path.basename(archived), "20261201T000000Z-abc1234.json")
        with open(archived) as f:
            doc = json.load(f)
        self.assertEqual(doc["context"]["aggregate"]["runs"], 6)
        self.assertEqual([r["aggregate"] for r in doc["results"]],
                         [{"runs": 3, "of": 6}, {"runs": 4, "of": 6}])
        db = self.path("h.sqlite")
        proc = run_script("track.py", "add", archived, paths[0], "--db", db)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        conn = sqlite3.connect(db)
        try:
            machines = conn.execute("SELECT COUNT(DISTINCT machine) FROM runs").fetchall()
            medians = conn.execute("SELECT p.median FROM points p JOIN runs r ON p.run = r.id "
                                   "WHERE p.bytes = 8 ORDER BY p.median").fetchall()
        finally:
            conn.close()
        self.assertEqual(machines, [(2,)])  # the folded entry's history is apart
        self.assertEqual(medians, [(2.0,), (2.1,)])

    def test_refusals(self):
        paths = write_runs(self)
        os.mkdir(self.path("hist"))
        proc = run_script("track.py", "archive", *paths[:2], "--dir", self.path("hist"))
        self.assertOneLineError(proc, "track.py: error: archive takes one RUN.json (2 given); "
                                "--aggregate folds the runs of one commit into one entry")
        proc = run_script("track.py", "archive", "--aggregate", paths[0],
                          self.path("missing.json"), "--dir", self.path("hist"))
        self.assertOneLineError(proc, "track.py: error: ", "missing.json: no such file")
        self.assertEqual(os.listdir(self.path("hist")), [])


@needs_numpy
class CiStageTest(helpers.TempDirTest):
    """.ci/folded_history.sh in a tree of its own (.ci/ and scripts/ copied): the gate's head
    runs folded, archived and checked, report-only."""

    def tree(self):
        root = self.path("tree")
        shutil.copytree(os.path.join(helpers.REPO, "scripts"), os.path.join(root, "scripts"),
                        ignore=shutil.ignore_patterns("__pycache__", "sim_cluster"))
        os.makedirs(os.path.join(root, ".ci"))
        shutil.copy(os.path.join(helpers.REPO, ".ci", "folded_history.sh"),
                    os.path.join(root, ".ci"))
        os.makedirs(os.path.join(root, "build", "ab", "rounds"))
        return root

    def stage(self, root):
        return subprocess.run(["bash", os.path.join(root, ".ci", "folded_history.sh")],
                              capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, TMPDIR=self.path()))

    def test_folds_archives_and_checks(self):
        root = self.tree()
        for path in write_runs(self):
            shutil.move(path, os.path.join(root, "build", "ab", "rounds"))
        proc = self.stage(root)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("folding 6 head runs", proc.stdout)
        self.assertEqual(os.listdir(os.path.join(root, "results", "history", "folded")),
                         ["20261201T000000Z-abc1234.json"])
        self.assertIn("newest commit abc1234 (run 0): ", proc.stdout)
        self.assertEqual(os.listdir(self.path()), ["tree"])  # its database's folder removed

    def test_no_round_no_entry(self):
        root = self.tree()
        proc = self.stage(root)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("the gate ran no round; nothing to fold", proc.stdout)
        self.assertFalse(os.path.exists(os.path.join(root, "results")))


@needs_numpy
class PerCommitPoolTest(helpers.TempDirTest):
    def test_each_commit_folds_its_runs(self):
        pool = track_sim_pool.load(write_pool(self, rounds=10))
        points = track_sim_pool.history(np.random.default_rng(3), pool, lambda p, run: 1.0,
                                        5, 0.0, 3, per_commit=4)
        self.assertEqual([key for key, _ in points], [tuple(k) + ("",) for k in POOL_KEYS])
        for _, entries in points:
            self.assertEqual([e[0] for e in entries], list(range(5)))
        # the pool's 20 runs in 5 blocks of 4 consecutive ones: every block once, folded
        _, runs = pool
        blocks = [runs[4 * b:4 * b + 4] for b in range(5)]
        for p, (_, entries) in enumerate(points):
            expected = []
            for block in blocks:
                values = [run[p] for run in block]
                every = [v for run in block for v in run]
                expected.append(track_aggregate.fold(values, track_aggregate.mode_bounds(every)))
            self.assertEqual(sorted((e[1], e[3], e[8]) for e in entries),
                             sorted(f[:3] for f in expected))
        with self.assertRaisesRegex(track_sim_pool.PoolError, "the pool has 20 runs, fewer "
                                    "than the 24 a history needs"):
            track_sim_pool.history(np.random.default_rng(3), pool, lambda p, run: 1.0, 6, 0.0,
                                   3, per_commit=4)

    def test_the_step_scales_every_run_of_its_commit(self):
        pool = track_sim_pool.load(write_pool(self, rounds=10))
        flat = track_sim_pool.history(np.random.default_rng(3), pool, lambda p, run: 1.0,
                                      5, 0.0, 3, per_commit=4)
        stepped = track_sim_pool.history(np.random.default_rng(3), pool,
                                         lambda p, run: 1.5 if run >= 2 else 1.0, 5, 0.0, 3,
                                         per_commit=4)
        for (_, a), (_, b) in zip(flat, stepped):
            self.assertEqual([e[1] * (1.5 if e[0] >= 2 else 1.0) for e in a],
                             [e[1] for e in b])

    def test_consecutive_or_random_runs(self):
        rng = np.random.default_rng(1)
        blocks = track_sim_pool.commit_runs(rng, 23, 5, 4, "consecutive")
        self.assertEqual(len(blocks), 5)
        for block in blocks:
            self.assertEqual(list(block), list(range(block[0], block[0] + 4)))
            self.assertEqual(block[0] % 4, 0)
        self.assertEqual(len({b[0] for b in blocks}), 5)  # 5 of the 5 whole blocks of 23 runs
        chosen = track_sim_pool.commit_runs(rng, 23, 5, 4, "random")
        every = [r for c in chosen for r in c]
        self.assertEqual(len(every), 20)
        self.assertEqual(len(set(every)), 20)
        with self.assertRaisesRegex(track_sim_pool.PoolError, "the pool has 23 runs, fewer than "
                                    "the 24 a history needs"):
            track_sim_pool.commit_runs(rng, 23, 6, 4, "consecutive")

    def test_per_commit_needs_rounds(self):
        proc = run_script("track_sim.py", "--per-commit", "4")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--per-commit needs --rounds", proc.stderr)


if __name__ == "__main__":
    unittest.main()
