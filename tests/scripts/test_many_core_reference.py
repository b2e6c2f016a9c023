"""scripts/many_core_reference.sh: end to end at a tiny size with the built comops and
bench/swcc_state_latency (every file, the exact benchmark set, the three-party ratio, exact
validation of every comops row, what machine.txt says about the cores), and its one-line refusals
(exit 2) with no program run."""

import json
import os
import re
import tempfile
import unittest

from helpers import TempDirTest, run_script

BUILD = os.environ.get("COMOPS_BUILD_DIR", "")
HAVE_BUILD = all(os.access(os.path.join(BUILD, b), os.X_OK)
                 for b in ("comops", "bench/swcc_state_latency"))
TINY = {
    "MAX_NP": "3", "RUNS": "2", "REPS": "1", "COMMIT": "abc1234",
    "SWEEP_OPTIONS": "--sizes 64K -n 5 -r 2 --backend mpi,shm",
    "LATENCY_OPTIONS": "--accesses=8 --batch=8 --benchmark_filter=/(64|sc)/",
}


def run(*args, env=None, timeout=240):
    return run_script("many_core_reference.sh", *args, env=env, timeout=timeout)


@unittest.skipUnless(HAVE_BUILD, "COMOPS_BUILD_DIR does not hold comops and bench/swcc_state_latency")
class ManyCoreRunTest(TempDirTest):
    """One tiny run: 3 ranks, 2 latency runs of 1 repetition, mpi and shm at np 2 and 3."""

    @classmethod
    def setUpClass(cls):
        cls._dir = tempfile.TemporaryDirectory(prefix="comops-many-core-")
        cls.out = os.path.join(cls._dir.name, "out")
        cls.proc = run(cls.out, env=dict(TINY, BUILD=BUILD))
        cls.cores = os.cpu_count()

    @classmethod
    def tearDownClass(cls):
        cls._dir.cleanup()

    def test_exit_and_files(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        files = sorted(os.path.relpath(os.path.join(d, f), self.out)
                       for d, _, fs in os.walk(self.out) for f in fs)
        self.assertEqual(files, [
            "machine.txt",
            "np-sweep/gbench.json", "np-sweep/results.csv", "np-sweep/results.json",
            "np-sweep/table.txt",
            "swcc-latency-np3/gbench1.json", "swcc-latency-np3/gbench2.json",
            "swcc-latency-np3/ratios1.json", "swcc-latency-np3/ratios2.json",
            "swcc-latency-np3/table1.txt", "swcc-latency-np3/table2.txt"])

    def test_latency_runs_have_every_case_and_the_three_party_ratio(self):
        for r in (1, 2):
            with open(os.path.join(self.out, f"swcc-latency-np3/table{r}.txt")) as f:
                table = f.read()
            names = re.findall(r"^(state/[a-z_]+/(?:read|write)/(?:64|sc))/", table, re.M)
            # np 3: 12 cached cases at block 64 and 3 sc cases, a read and a write each.
            self.assertEqual(len(names), 30, names)
            self.assertEqual(len(set(names)), 30)
            self.assertIn("state/remote_miss_flush/write/64", names)
            self.assertNotIn("error", table.lower())
            with open(os.path.join(self.out, f"swcc-latency-np3/ratios{r}.json")) as f:
                ratios = {x["ratio"]: x for x in json.load(f)["ratios"]}
            three = ratios["three-party miss / clean miss"]["ours"]
            for rw in ("read", "write"):
                self.assertGreater(three[rw]["64"], 0)

    def test_sweep_rows_are_exact_and_flagged_by_the_cores(self):
        with open(os.path.join(self.out, "np-sweep/results.json")) as f:
            rows = [r for r in json.load(f)["results"] if "np" in r["tables"]]
        got = {(r["backend"], r["op"], r["np"]) for r in rows}
        ops = {"pingpong", "broadcast", "reduce-max", "gather", "scatter", "barrier"}
        self.assertEqual(got, {(b, op, np) for b in ("mpi", "shm-staged", "shm-direct")
                               for op in ops for np in (2, 3)})
        self.assertEqual([r for r in rows if r["wrong"]], [])
        for r in rows:
            self.assertEqual(r["oversubscribed"], r["np"] > self.cores,
                             (r["backend"], r["op"], r["np"]))

    def test_machine_txt(self):
        with open(os.path.join(self.out, "machine.txt")) as f:
            text = f.read()
        over = self.cores < 3
        self.assertIn("commit: abc1234\n", text)
        self.assertRegex(text, rf"\nhost: [^,]+, {self.cores} cores online; MAX_NP 3"
                               + (r" \(oversubscribed\)\n" if over else r"\n"))
        self.assertRegex(text, r"\nlatency runs: .*-bind-to core, 2 runs of 1 repetitions"
                               + (r", oversubscribed \(3 ranks\)\n" if over else r"\n"))
        if over:
            self.assertIn("no real-time priority", text)
        self.assertEqual(len(re.findall(r"^load (before|after): [0-9.]+ ", text, re.M)), 2)
        self.assertIn("--- lscpu\n", text)


class ManyCoreUsageTest(TempDirTest):
    """Refusals: exit 2, one line, nothing written, no program run (the BUILD is stubs)."""

    def setUp(self):
        super().setUp()
        self.build = self.path("build")
        os.makedirs(os.path.join(self.build, "bench"))
        for b in ("comops", "bench/swcc_state_latency"):
            path = os.path.join(self.build, b)
            with open(path, "w") as f:
                f.write("#!/bin/sh\necho ran >> \"$(dirname \"$0\")/ran\"\nexit 9\n")
            os.chmod(path, 0o755)

    def refused(self, *fragments, args=(), **env):
        proc = run(*args, env=dict({"BUILD": self.build}, **env), timeout=60)
        self.assertOneLineError(proc, "many_core_reference.sh: ", *fragments)
        self.assertFalse(os.path.exists(os.path.join(self.build, "ran")))
        self.assertFalse(os.path.exists(os.path.join(self.build, "bench", "ran")))

    def test_numbers(self):
        self.refused("MAX_NP must be at least 3", "not 2", args=(self.path("o"),), MAX_NP="2")
        self.refused("MAX_NP must be a positive integer, not 'x'", args=(self.path("o"),),
                     MAX_NP="x")
        self.refused("RUNS must be a positive integer, not '0'", args=(self.path("o"),), RUNS="0")
        self.refused("REPS must be a positive integer, not '-1'", args=(self.path("o"),),
                     REPS="-1")
        self.assertFalse(os.path.exists(self.path("o")))

    def test_build_and_launcher(self):
        self.refused(f"{self.path('none')}/comops is missing", args=(self.path("o"),),
                     BUILD=self.path("none"))
        self.refused("MPI launcher 'no-such-mpiexec' not found", args=(self.path("o"),),
                     MPIEXEC="no-such-mpiexec")

    def test_output_directory(self):
        with open(self.path("file"), "w") as f:
            f.write("x")
        self.refused(f"{self.path('file')} exists and is not a directory",
                     args=(self.path("file"),), MPIEXEC="true")
        os.makedirs(self.path("full"))
        with open(self.path("full", "kept"), "w") as f:
            f.write("measured")
        self.refused(f"{self.path('full')} exists and is not empty", args=(self.path("full"),),
                     MPIEXEC="true")
        with open(self.path("full", "kept")) as f:
            self.assertEqual(f.read(), "measured")
        self.refused("at most one argument", args=(self.path("a"), self.path("b")))


if __name__ == "__main__":
    unittest.main()
