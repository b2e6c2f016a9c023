"""The Google Benchmark route: comops' gbench JSON (one entry per repetition per point, named
like "mpi/pingpong/np:2/bytes:8") compared by libbenchmark-tools' own compare.py."""

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
    benchmarks = []
    for family, (name, times) in enumerate(times_by_name.items()):
        nbytes = int(name.rsplit(":", 1)[1])
        for i, t in enumerate(times):
            benchmarks.append({
                "name": name, "family_index": family, "per_family_instance_index": 0,
                "run_name": name, "run_type": "iteration", "repetitions": len(times),
                "repetition_index": i, "threads": 1, "iterations": 1000, "real_time": t,
                "cpu_time": t, "time_unit": "us", "bytes_per_second": 2 * nbytes / (t * 1e-6)})
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
        reps = [10.0, 10.2, 9.9, 10.1, 9.8]
        base = synth.write(self.path("base-gbench.json"), gbench_doc(
            {"mpi/pingpong/np:2/bytes:8": reps, "mpi/broadcast/np:4/bytes:1024": reps}))
        new = synth.write(self.path("new-gbench.json"), gbench_doc(
            {"mpi/pingpong/np:2/bytes:8": [2 * t for t in reps],
             "mpi/broadcast/np:4/bytes:1024": reps}))
        dump = self.path("cmp.json")
        proc = subprocess.run([sys.executable, GBENCH_COMPARE, "--no-color", "-d", dump,
                               "benchmarks", base, new],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("mpi/pingpong/np:2/bytes:8", proc.stdout)
        self.assertIn("mpi/pingpong/np:2/bytes:8_pvalue", proc.stdout)  # the U test ran
        with open(dump) as f:
            rows = {r["name"]: r for r in json.load(f)}
        self.assertEqual(rows["mpi/pingpong/np:2/bytes:8"]["measurements"][0]["time"], 1.0)
        self.assertEqual(rows["mpi/broadcast/np:4/bytes:1024"]["measurements"][0]["time"], 0.0)


if __name__ == "__main__":
    unittest.main()
