"""scripts/plot.py's application figures (--app rows: "app" holds the parameters): per
application, np and parameter combination, the time and the speedup over swcc-sc versus the swcc
block size, the other backends as horizontal lines; rows keyed apart by their parameters."""

import importlib.util
import unittest

import helpers
import synth
from helpers import run_script

import comops_results as cr  # noqa: E402 (helpers puts scripts/ on sys.path)
import plot  # noqa: E402

NEEDS_MATPLOTLIB = unittest.skipUnless(
    importlib.util.find_spec("matplotlib") is not None,
    "matplotlib is missing: run with /usr/bin/python3 (apt-get install python3-matplotlib)")

# headline time (us) per backend of matmul n=64 at np 4; n=128 has mpi and swcc-64 only
TIMES = {"mpi": 100.0, "shm-direct": 50.0, "swcc-8": 4000.0, "swcc-64": 1000.0,
         "swcc-4096": 2000.0, "swcc-sc": 16000.0}


def arow(backend, n, t, np_=4):
    return {"backend": backend, "op": "matmul", "np": np_, "bytes": 0, "repetitions": 3,
            "app": {"n": n}, "time_us": {"min": t / 2, "avg": t, "max": t},
            "time_us_reps": {"median": t, "min": t / 2, "max": 2 * t},
            "rep_times_us": [t / 2, t, 2 * t], "wrong": 0, "oversubscribed": False,
            "contended": False, "tables": ["np"]}


def app_doc():
    rows = [arow(b, 64, t) for b, t in TIMES.items()]
    rows += [arow("mpi", 128, 400.0), arow("swcc-64", 128, 3000.0)]
    return {"comops_format": 1, "context": synth.context(), "results": rows}


class AppKeysTest(helpers.TempDirTest):
    """Rows of one app at one np differ by their parameters only: keyed apart, named as comops'
    gbench names them."""

    def test_keys_and_names(self):
        results = cr.load(synth.write(self.path("r.json"), app_doc()))
        self.assertEqual(len(results.rows), 8)
        self.assertIn(("swcc-64", "matmul n=128", 4, 0), results.rows)
        self.assertEqual(cr.key_name(("swcc-64", "matmul n=128", 4, 0)),
                         "swcc-64/matmul/np:4/n:128")
        self.assertEqual(cr.app_params(arow("mpi", 64, 1.0)), {"n": 64})
        self.assertEqual(cr.app_params({"op": "pingpong"}), {})


@NEEDS_MATPLOTLIB
class AppFigureTest(helpers.TempDirTest):
    """The figures Figures.all() builds from application rows, read back from matplotlib."""

    def setUp(self):
        super().setUp()
        self.notes = []
        results = cr.load(synth.write(self.path("r.json"), app_doc()))
        self.figures = dict(plot.Figures(results).all(None, 819200, self.notes.append))

    def test_one_figure_per_parameter_combination(self):
        self.assertIn("matmul-n64-np4", self.figures)
        self.assertIn("matmul-n128-np4", self.figures)
        self.assertEqual([n for n in self.figures if n.startswith("matmul")],
                         ["matmul-n64-np4", "matmul-n128-np4"])

    def test_time_and_speedup_versus_block_size(self):
        fig = self.figures["matmul-n64-np4"]
        self.assertIn("matmul n=64, np 4", fig._suptitle.get_text())
        time_ax, speed_ax = fig.axes
        label = "swcc-N (caching, N = block size)"
        for ax, want in ((time_ax, [4000.0, 1000.0, 2000.0]), (speed_ax, [4.0, 16.0, 8.0])):
            line = [ln for ln in ax.get_lines() if ln.get_label() == label][0]
            self.assertEqual(list(line.get_xdata()), [8, 64, 4096])
            self.assertEqual(list(line.get_ydata()), want)
            self.assertEqual(ax.get_xscale(), "log")
        refs = {ln.get_label(): ln.get_ydata()[0] for ln in time_ax.get_lines()
                if ln.get_label() != label}
        self.assertEqual(refs, {"mpi": 100.0, "shm-direct": 50.0, "swcc-sc": 16000.0})
        speed = {ln.get_label(): ln.get_ydata()[0] for ln in speed_ax.get_lines()
                 if ln.get_label() != label}
        self.assertEqual(speed, {"mpi": 160.0, "shm-direct": 320.0, "swcc-sc": 1.0})

    def test_without_sc_no_speedup(self):
        fig = self.figures["matmul-n128-np4"]
        time_ax, speed_ax = fig.axes
        self.assertEqual([ln.get_label() for ln in speed_ax.get_lines()], [])
        self.assertIn("no swcc-sc row: no speedup", [t.get_text() for t in speed_ax.texts])
        self.assertEqual(sorted(ln.get_label() for ln in time_ax.get_lines()),
                         ["mpi", "swcc-N (caching, N = block size)"])

    def test_files_written(self):
        path = synth.write(self.path("r.json"), app_doc())
        out = run_script("plot.py", path, "-o", self.path("figs"))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(self.path("figs", "matmul-n64-np4.png"), out.stdout.splitlines())


if __name__ == "__main__":
    unittest.main()
