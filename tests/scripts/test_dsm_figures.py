"""scripts/dsm_figures.py on synthetic output of scripts/dsm_reference.sh: the exact tables of
summary.md (latency by state with the np 3 run filling in the three-party cases, SCI-VM, EM3D),
the figures, and the refusals (one line on stderr, exit 2)."""

import json
import os
import unittest

import helpers
import synth

try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False

NEEDS_MATPLOTLIB = unittest.skipUnless(HAVE_MATPLOTLIB, "needs matplotlib (python3-matplotlib)")


def ratios(times):
    """A --ratios_out document with these {benchmark name: ns} times."""
    return {"paper": "SWCC-Split-C", "ratios": [], "time_unit": "ns", "times": times}


NP2 = {"state/private/read/8": 9.5, "state/remote_miss_clean/read/8": 2400.0,
       "state/remote_miss_clean/write/64": 3730.0, "state/home_fast/read/4096": 42.0,
       "state/remote/read/sc": 3380.0, "state/remote/write/sc": 2850.0}
# The np 3 run: the three-party case, and a two-party one that the np 2 run must override.
NP3 = {"state/remote_miss_flush/read/8": 36500.0, "state/remote_miss_clean/read/8": 9999.0}

SCIVM = {"np": 2, "sum_n": 65536, "matmul_n": 32, "page_bytes": 4096, "prefetch": 8, "reps": 3,
         "rows": [
             {"kernel": "sum", "version": "local", "time_ms": 0.02, "overhead_pct": 0.0,
              "misses": 0, "prefetches": 0, "check": "passed", "paper": "baseline"},
             {"kernel": "sum", "version": "optimised (cached, prefetch)", "time_ms": 0.2,
              "overhead_pct": 900.0, "misses": 3, "prefetches": 12, "check": "passed",
              "paper": "< 75 %"}]}


def em3d_results(times):
    rows = []
    for backend, by_remote in times.items():
        for remote, t in by_remote.items():
            app = {"nodes": 1000, "degree": 10, "remote": remote, "iters": 10, "split": 0}
            r = synth.row(backend, "em3d", 2, 0, [t] * 3, tables=("np",), app=app)
            r["bw_GBps"] = None
            rows.append(r)
    return {"comops_format": 1, "context": synth.context(), "results": rows}


class DsmInputs(helpers.TempDirTest):
    def write(self, rel, doc):
        path = self.path(*rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)

    def full(self):
        self.write("one-host/latency-np2/ratios.json", ratios(NP2))
        self.write("one-host/latency-np3/ratios.json", ratios(NP3))
        self.write("one-host/scivm.json", SCIVM)
        self.write("one-host/em3d/results.json",
                   em3d_results({"mpi": {0: 600.0, 10: 570.0}, "swcc-64": {0: 1300.0, 10: 12900.0}}))
        self.write("sim-hosts/scivm.json", SCIVM)


class DsmSummaryTest(DsmInputs):
    def summary(self):
        with open(self.path("summary.md"), encoding="utf-8") as f:
            return f.read().splitlines()

    def test_summary_tables(self):
        self.full()
        proc = helpers.run_script("dsm_figures.py", self.tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = self.summary()
        # Cases in the order; np 2 wins where both runs have a case; np 3 marked.
        i = lines.index("| case | read 8 | read 64 | read 4096 | write 8 | write 64 | write 4096 |")
        self.assertEqual(lines[i + 2:i + 9], [
            "| private | 0.0095 | - | - | - | - | - |",
            "| home_fast | - | - | 0.042 | - | - | - |",
            "| remote_miss_clean | 2.4 | - | - | - | 3.73 | - |",
            "| remote_miss_flush | 36.5 (np 3) | - | - | - | - | - |",
            "| sc private | - | - | | | | |",
            "| sc home | - | - | | | | |",
            "| sc remote | 3.38 | 2.85 | | | | |"])
        self.assertIn("| sum | optimised (cached, prefetch) | 0.200 | 900.0 | 3 | 12 | passed |",
                      lines)
        self.assertIn("### SCI-VM, simulated hosts, 25 us each way (np 2, sum_n 65536, "
                      "matmul_n 32, prefetch 8, reps 3)", lines)
        i = lines.index("### EM3D, one host: time of one run in us (median of repetitions)")
        self.assertEqual(lines[i + 2:i + 6], ["| backend | 0 % remote | 10 % remote |",
                                              "|---|---|---|", "| mpi | 600 | 570 |",
                                              "| swcc-64 | 1300 | 12900 |"])
        # What is missing is noted, not an error.
        self.assertIn("sim-hosts/latency-np2/ratios.json: not there, left out", proc.stderr)

    def test_refusals(self):
        proc = helpers.run_script("dsm_figures.py", self.path("nothing"))
        self.assertOneLineError(proc, "nothing: not a directory")
        proc = helpers.run_script("dsm_figures.py", self.tmp)
        self.assertOneLineError(proc, "no latency or SCI-VM results")
        self.write("one-host/latency-np2/ratios.json", {"ratios": []})
        proc = helpers.run_script("dsm_figures.py", self.tmp)
        self.assertOneLineError(proc, "ratios.json", "no \"times\" object")
        self.write("one-host/latency-np2/ratios.json", ratios(NP2))
        os.mkdir(self.path("summary.md"))
        proc = helpers.run_script("dsm_figures.py", self.tmp)
        self.assertOneLineError(proc, "summary.md exists and is not a regular file")
        self.assertTrue(os.path.isdir(self.path("summary.md")))


@NEEDS_MATPLOTLIB
class DsmFigureTest(DsmInputs):
    def test_figures_are_written(self):
        self.full()
        proc = helpers.run_script("dsm_figures.py", self.tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name in ("latency-by-state.png", "scivm-overhead.png"):
            with open(self.path(name), "rb") as f:
                self.assertEqual(f.read(8), helpers.PNG_SIGNATURE, name)


if __name__ == "__main__":
    unittest.main()
