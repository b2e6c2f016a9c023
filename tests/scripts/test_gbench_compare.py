"""The Google Benchmark route: comops' gbench JSON (one entry per repetition per point, named
like "mpi/pingpong/np:2/bytes:8", times in nanoseconds as harness/report/gbench_reporter.cpp writes
them) compared by libbenchmark-tools' own compare.py."""

import importlib.util
import json
import os
import subprocess
import sys
import unittest

import helpers
import synth

# Debian 12's libbenchmark-tools installs it at the first path; upstream keeps it in tools/.
CANDIDATES = ("/usr/share/benchmark/compare.py", "/usr/share/benchmark/tools/compare.py")
GBENCH_COMPARE = next((p for p in CANDIDATES if os.path.isfile(p)), None)


def have_scipy():
    return importlib.util.find_spec("scipy") is not None


def gbench_doc(times_by_name):
    """times_by_name: {name: repetition times in ns}."""
    benchmarks = []
    for family, (name, times) in enumerate(times_by_name.items()):
        nbytes = int(name.rsplit(":", 1)[1])
        for i, t in enumerate(times):
            benchmarks.append({
                "name": name, "family_index": family, "per_family_instance_index": 0,
                "run_name": name, "run_type": "iteration", "repetitions": len(times),
                "repetition_index": i, "threads": 1, "iterations": 1000, "real_time": t,
                "cpu_time": t, "time_unit": "ns", "bytes_per_second": 2 * nbytes / (t * 1e-9)})
    return {"context": {"date": "2026-11-29T23:59:00+00:00", "host_name": "testhost",
                        "executable": "comops", "num_cpus": 2, "mhz_per_cpu": 2000,
                        "cpu_scaling_enabled": False, "caches": [], "load_avg": [],
                        "library_build_type": "release"},
            "benchmarks": benchmarks}


@unittest.skipUnless(GBENCH_COMPARE, "Google Benchmark's compare.py is not installed "
                     "(apt-get install libbenchmark-tools)")
@unittest.skipUnless(have_scipy(), "scipy is missing; Google Benchmark's compare.py needs it "
                     "(apt-get install python3-scipy)")
class GbenchCompareTest(helpers.TempDirTest):
    def test_compare_py_reads_comops_gbench_json(self):
        # sub-microsecond points: in us, compare.py printed them as whole units, "1 -> 1"
        reps = [940.0, 935.0, 950.0, 960.0, 945.0]
        third = [t / 3 for t in reps]
        base = synth.write(self.path("base-gbench.json"), gbench_doc(
            {"mpi/pingpong/np:2/bytes:8": reps, "mpi/broadcast/np:4/bytes:1024": third}))
        new = synth.write(self.path("new-gbench.json"), gbench_doc(
            {"mpi/pingpong/np:2/bytes:8": [1.5 * t for t in reps],
             "mpi/broadcast/np:4/bytes:1024": third}))
        dump = self.path("cmp.json")
        proc = subprocess.run([sys.executable, GBENCH_COMPARE, "--no-color", "-d", dump,
                               "benchmarks", base, new],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        rows = [line.split() for line in proc.stdout.splitlines()]
        pingpong = [r for r in rows if r and r[0] == "mpi/pingpong/np:2/bytes:8"]
        broadcast = [r for r in rows if r and r[0] == "mpi/broadcast/np:4/bytes:1024"]
        # name, time and CPU change, then old and new time and CPU in whole nanoseconds
        self.assertEqual(pingpong[0], ["mpi/pingpong/np:2/bytes:8", "+0.5000", "+0.5000",
                                       "940", "1410", "940", "1410"])
        self.assertEqual(broadcast[0], ["mpi/broadcast/np:4/bytes:1024", "+0.0000", "+0.0000",
                                        "313", "313", "313", "313"])
        self.assertEqual((len(pingpong), len(broadcast)), (5, 5))
        self.assertIn("mpi/pingpong/np:2/bytes:8_pvalue", proc.stdout)  # the U test ran
        with open(dump) as f:
            dumped = {r["name"]: r for r in json.load(f)}
        self.assertEqual(dumped["mpi/pingpong/np:2/bytes:8"]["time_unit"], "ns")
        self.assertEqual(dumped["mpi/pingpong/np:2/bytes:8"]["measurements"][0]["time"], 0.5)
        self.assertEqual(dumped["mpi/broadcast/np:4/bytes:1024"]["measurements"][0]["time"], 0.0)

if __name__ == "__main__":
    unittest.main()
