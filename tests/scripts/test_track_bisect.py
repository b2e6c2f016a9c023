"""scripts/bisect.sh on a throwaway git repository whose "comops" is a script with controlled
times: it finds the commit that made it slower, skips a commit that does not build, and refuses
bad usage. The fake's times are a fixed level with deterministic +-3 % jitter per run: the jitter
comes from the run's file name (run-I.json), so every commit's I-th run has the same jitter and
the verdicts do not depend on the temporary directory's random name (a path-based jitter let a
commit of GOOD's level come out "slower" by chance: 2 of about 50 runs here)."""

import os
import re
import shutil
import subprocess
import unittest

import helpers
from helpers import run_script

FAKE_COMOPS = r'''#!/usr/bin/python3
# fake comops: writes a comops results file with one point at LEVEL us, jittered by the output
# file's name (deterministic)
import hashlib, json, os, sys
level = @LEVEL@
out = sys.argv[sys.argv.index("--json") + 1]
jitter = int(hashlib.sha256(os.path.basename(out).encode()).hexdigest()[:8], 16) / 16 ** 8  # 0..1
reps = [level * (1 + 0.03 * (jitter - 0.5) + 0.01 * ((k * 7) % 5 - 2) / 2) for k in range(5)]
med = sorted(reps)[2]
row = {"backend": "mpi", "op": "pingpong", "np": 2, "bytes": 8, "pair": "intra",
       "repetitions": 5, "rep_times_us": reps, "contended": False, "cpu_stall_us": 0,
       "time_us": {"min": med, "avg": med, "max": med},
       "time_us_reps": {"median": med, "min": min(reps), "max": max(reps)}, "wrong": 0}
ctx = {"date": "2026-11-30T10:00:00Z", "git_sha": "fake", "options": {}}
json.dump({"comops_format": 1, "context": ctx, "results": [row]}, open(out, "w"))
'''

CMAKE = '''cmake_minimum_required(VERSION 3.13)
project(fake NONE)
file(READ ${CMAKE_SOURCE_DIR}/level.txt LEVEL)
string(STRIP "${LEVEL}" LEVEL)
configure_file(comops.in ${CMAKE_BINARY_DIR}/comops @ONLY
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
add_custom_target(comops)
'''


@unittest.skipIf(not (shutil.which("git") and shutil.which("cmake")),
                 "git or cmake is missing (scripts/setup.sh installs both)")
class BisectTest(helpers.TempDirTest):
    def git(self, *args):
        return subprocess.run(["git", "-C", self.repo, *args], check=True, capture_output=True,
                              text=True).stdout.strip()

    def commit(self, message, level=None, cmake=None):
        if level is not None:
            with open(os.path.join(self.repo, "level.txt"), "w") as f:
                f.write(f"{level}\n")
        if cmake is not None:
            with open(os.path.join(self.repo, "CMakeLists.txt"), "w") as f:
                f.write(cmake)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def setUp(self):
        super().setUp()
        self.repo = self.path("repo")
        os.mkdir(self.repo)
        self.git("init", "-q")
        self.git("config", "user.email", "t@example.org")
        self.git("config", "user.name", "test")
        with open(os.path.join(self.repo, "comops.in"), "w") as f:
            f.write(FAKE_COMOPS)
        # c0..c9: level 1.0 until c6, 1.25 from c7 on (the regression); c4 (the commit git
        # bisect tests first between c0 and c9) does not build
        self.shas = [self.commit("c0", 1.0, CMAKE)]
        for i in range(1, 10):
            cmake = CMAKE.replace("project(fake NONE)", "project(fake NONE)\nmessage(FATAL_ERROR"
                                  " broken)") if i == 4 else (CMAKE if i == 5 else None)
            self.shas.append(self.commit(f"c{i}", 1.25 if i >= 7 else None, cmake))

    def bisect(self, *args):
        return subprocess.run([os.path.join(helpers.SCRIPTS, "bisect.sh"), *args],
                              cwd=self.repo, capture_output=True, text=True, timeout=600,
                              env=dict(os.environ, TMPDIR=self.tmp))

    def test_finds_the_first_slow_commit_skipping_one_that_does_not_build(self):
        proc = self.bisect(self.shas[0], self.shas[9], "--", "--backend=mpi", "-r", "5")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.strip().splitlines()[-1],
                         f"{self.shas[7]} is the first bad commit")
        self.assertIn("mpi/pingpong/np:2/bytes:8", proc.stderr)  # the regressed point
        self.assertIn("build failed", proc.stderr)
        self.assertIn(f"git bisect skip {self.shas[4]}", proc.stdout)  # the bisect log
        # the worktree is gone and the user's checkout untouched
        self.assertEqual(self.git("rev-parse", "HEAD"), self.shas[9])
        self.assertEqual(len(self.git("worktree", "list").splitlines()), 1)
        self.assertEqual(os.listdir(self.tmp), ["repo"])

    def test_no_regression_exits_1(self):
        proc = self.bisect(self.shas[0], self.shas[6], "--")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("is not significantly slower than GOOD", proc.stderr)

    def test_bad_that_does_not_build_exits_3(self):
        proc = self.bisect(self.shas[0], self.shas[4], "--")
        self.assertEqual(proc.returncode, 3, proc.stdout + proc.stderr)
        self.assertIn("BAD (", proc.stderr.strip().splitlines()[-1])
        self.assertIn("cannot be built or run", proc.stderr)

    def test_usage_errors(self):
        for args, fragment in (((), "usage:"), (("a", "b", "c", "--"), "usage:"),
                               (("a", "b"), "GOOD a is not a commit"),
                               ((self.shas[0], self.shas[9], "--", "--json", "x"),
                                "must not contain --json"),
                               (("nope", self.shas[9], "--"), "GOOD nope is not a commit"),
                               ((self.shas[9], self.shas[0], "--"), "is not an ancestor"),
                               (("--runs", "4", self.shas[0], self.shas[9], "--"), "--runs")):
            proc = self.bisect(*args)
            self.assertEqual(proc.returncode, 2, (args, proc.stderr))
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
            self.assertIn(fragment, proc.stderr)

    def test_help(self):
        proc = run_script("bisect.sh", "--help")
        self.assertEqual(proc.returncode, 0)
        self.assertTrue(proc.stdout.startswith("Usage: scripts/bisect.sh"))
        for word in ("--runs", "BISECT_BUILD", "BISECT_ALPHA", "125", "Exit status"):
            self.assertIn(word, proc.stdout)
