"""scripts/sweep_np.sh: the comops command it builds, its checks and its exit codes, run with a
stand-in comops that records its arguments."""

import os
import stat

import helpers
from helpers import run_script

FAKE_COMOPS = """#!/bin/sh
# stand-in comops: records its arguments, writes the files of --output-dir, exits $FAKE_STATUS
printf '%s\\n' "$@" > "$FAKE_ARGS"
while [ $# -gt 0 ]; do [ "$1" = --output-dir ] && dir=$2; shift; done
for f in results.json results.csv table.txt gbench.json; do : > "$dir/$f"; done
exit "${FAKE_STATUS:-0}"
"""


class SweepNpTest(helpers.TempDirTest):
    def setUp(self):
        super().setUp()
        self.comops = self.path("comops")
        with open(self.comops, "w") as f:
            f.write(FAKE_COMOPS)
        os.chmod(self.comops, os.stat(self.comops).st_mode | stat.S_IXUSR)
        self.args_file = self.path("args.txt")

    def sweep(self, *args, **env):
        base = {"COMOPS": self.comops, "MPIEXEC": "none", "FAKE_ARGS": self.args_file}
        return run_script("sweep_np.sh", *args, env=dict(base, **env))

    def recorded(self):
        with open(self.args_file) as f:
            return f.read().splitlines()

    def test_help(self):
        proc = self.sweep("--help")
        self.assertEqual(proc.returncode, 0)
        self.assertTrue(proc.stdout.startswith("Usage: scripts/sweep_np.sh"))
        for option in ("MAX_NP", "--min-np", "--sizes", "--backend", "--dry-run", "COMOPS",
                       "MPIEXEC"):
            self.assertIn(option, proc.stdout)

    def test_runs_comops_over_every_np(self):
        out = self.path("out")
        proc = self.sweep("6", "-r", "3", "-o", out, "--", "--bind=compact")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.recorded(), ["--backend=all", "--np=2,3,4,5,6", "--sizes=800K",
                                           "-r", "3", "--output-dir", out, "--bind=compact"])
        self.assertEqual(sorted(os.listdir(out)),
                         ["gbench.json", "results.csv", "results.json", "table.txt"])
        self.assertIn("results.json", proc.stdout)

    def test_default_max_np_is_16_and_options(self):
        proc = self.sweep("--min-np", "4", "--backend", "mpi,shm", "--op", "broadcast",
                          "--sizes", "64K,800K", "-n", "50", "-o", self.path("o"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.recorded()[:6],
                         ["--backend=mpi,shm", f"--np={','.join(map(str, range(4, 17)))}",
                          "--sizes=64K,800K", "--op=broadcast", "-n", "50"])

    def test_mpiexec_launches_max_np_ranks(self):
        launcher = self.path("mpiexec")
        with open(launcher, "w") as f:
            f.write('#!/bin/sh\necho "launcher $1 $2" > "$FAKE_ARGS.launch"\nshift 2\nexec "$@"\n')
        os.chmod(launcher, 0o755)
        proc = self.sweep("3", "-o", self.path("o"), MPIEXEC=launcher)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.args_file + ".launch") as f:
            self.assertEqual(f.read(), "launcher -n 3\n")

    def test_dry_run_prints_and_runs_nothing(self):
        proc = self.sweep("--dry-run", "3", "-o", self.path("o"), COMOPS="/nonexistent/comops")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("/nonexistent/comops --backend=all --np=2,3 --sizes=800K", proc.stdout)
        self.assertFalse(os.path.exists(self.path("o")))
        self.assertFalse(os.path.exists(self.args_file))

    def test_comops_exit_status_is_passed_on(self):
        proc = self.sweep("2", "-o", self.path("o"), FAKE_STATUS="1")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("comops exited with 1", proc.stdout)

    def test_usage_errors_exit_2(self):
        cases = [
            (("x",), "MAX_NP must be a positive integer, not 'x'"),
            (("--min-np", "5", "4"), "--min-np 5 is above MAX_NP 4"),
            (("-r", "0"), "-r must be a positive integer, not '0'"),
            (("--bogus",), "unknown option --bogus"),
            (("--sizes",), "--sizes needs a value"),
        ]
        for args, message in cases:
            proc = self.sweep(*args, "-o", self.path("o")) if args != ("--sizes",) else \
                self.sweep(*args)
            self.assertOneLineError(proc, "sweep_np.sh: ", message)

    def test_missing_binary_exit_2(self):
        proc = self.sweep("3", "-o", self.path("o"), COMOPS=self.path("absent"))
        self.assertOneLineError(proc, "comops binary not found or not executable",
                                "set COMOPS=")

    def test_missing_launcher_exit_2(self):
        proc = self.sweep("3", "-o", self.path("o"), MPIEXEC="no-such-mpiexec-here")
        self.assertOneLineError(proc, "MPI launcher 'no-such-mpiexec-here' not found")

    def test_refuses_a_non_empty_output_dir_without_force(self):
        out = self.path("o")
        os.mkdir(out)
        with open(os.path.join(out, "old.txt"), "w"):
            pass
        proc = self.sweep("3", "-o", out)
        self.assertOneLineError(proc, f"{out} exists and is not empty")
        proc = self.sweep("3", "-o", out, "--force")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # comops refuses a non-empty directory too: --force goes on to it.
        self.assertEqual(self.recorded()[-3:], ["--output-dir", out, "--force"])
