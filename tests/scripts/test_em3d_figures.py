"""plot.py's EM3D figure versus the remote-edge percentage (scripts/em3d_figures.py) on synthetic
--app=em3d rows: when it is drawn and named how, and the exact times and speedups over swcc-sc
on its lines."""

import os
import unittest

import helpers
import synth

import comops_results as cr

try:
    import matplotlib  # noqa: F401
    import plot
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False

NEEDS_MATPLOTLIB = unittest.skipUnless(HAVE_MATPLOTLIB, "needs matplotlib (python3-matplotlib)")

# Time of one run in us by backend and remote-edge percentage (np 2, nodes 1000, degree 10,
# iters 10, split 0).
TIMES = {
    "mpi": {0: 100.0, 10: 200.0, 50: 400.0},
    "shm-direct": {0: 50.0, 10: 60.0, 50: 80.0},
    "swcc-8": {0: 300.0, 10: 3000.0, 50: 9000.0},
    "swcc-64": {0: 300.0, 10: 1000.0, 50: 4000.0},
    "swcc-4096": {0: 300.0, 10: 500.0, 50: 2000.0},
    "swcc-sc": {0: 300.0, 10: 6000.0, 50: 24000.0},
}


def em3d_row(backend, remote, time_us, np_=2, **params):
    app = {"nodes": 1000, "degree": 10, "remote": remote, "iters": 10, "split": 0}
    app.update(params)
    r = synth.row(backend, "em3d", np_, 0, [time_us] * 3, tables=("np",), app=app)
    r["bw_GBps"] = None
    return r


def em3d_doc(times=TIMES, **params):
    rows = [em3d_row(b, remote, t, **params) for b, by in times.items() for remote, t in by.items()]
    return {"comops_format": 1, "context": synth.context(), "results": rows}


def line_data(ax):
    """{label: (xs, ys)} of the axes' labelled lines."""
    return {line.get_label(): (list(line.get_xdata()), list(line.get_ydata()))
            for line in ax.get_lines() if not line.get_label().startswith("_")}


@NEEDS_MATPLOTLIB
class Em3dFigureTest(helpers.TempDirTest):
    def figures(self, doc):
        self.notes = []
        results = cr.load(synth.write(self.path("r.json"), doc))
        return dict(plot.Figures(results).all(None, 819200, self.notes.append))

    def test_names(self):
        figs = self.figures(em3d_doc())
        self.assertEqual([n for n in figs if n.startswith("em3d-vs")], ["em3d-vs-remote-np2"])
        # beside plot.py's application figure of each point's parameters (versus block size)
        self.assertIn("em3d-nodes1000-degree10-remote10-iters10-split0-np2", figs)

    def test_time_and_speedup_versus_remote(self):
        fig = self.figures(em3d_doc())["em3d-vs-remote-np2"]
        top, bottom = fig.axes[0], fig.axes[1]
        times = line_data(top)
        for backend, by in TIMES.items():
            self.assertEqual(times[backend], ([0, 10, 50], [by[r] / 1000.0 for r in (0, 10, 50)]))
        speedups = line_data(bottom)
        for backend, by in TIMES.items():
            self.assertEqual(speedups[backend][0], [0, 10, 50], backend)
            for got, remote in zip(speedups[backend][1], (0, 10, 50)):
                self.assertAlmostEqual(got, TIMES["swcc-sc"][remote] / by[remote], places=12)
        self.assertIn("speedup over swcc-sc", bottom.get_ylabel())
        self.assertIn("remote edges", bottom.get_xlabel())

    def test_one_remote_percentage_is_a_note(self):
        doc = em3d_doc({"mpi": {10: 1.0}, "swcc-64": {10: 2.0}, "swcc-sc": {10: 3.0}})
        figs = self.figures(doc)
        self.assertEqual([n for n in figs if n.startswith("em3d-vs")], [])
        self.assertIn("em3d: fewer than 2 remote-edge percentages: skipping em3d-vs-remote",
                      self.notes)

    def test_groups_at_one_np_name_their_parameters(self):
        doc = em3d_doc()
        doc["results"] += em3d_doc(split=1)["results"]
        names = [n for n in self.figures(doc) if n.startswith("em3d-vs-remote")]
        self.assertEqual(names, ["em3d-vs-remote-np2-nodes1000-degree10-iters10-split0",
                                 "em3d-vs-remote-np2-nodes1000-degree10-iters10-split1"])

    def test_plot_writes_the_em3d_files(self):
        src = synth.write(self.path("r.json"), em3d_doc())
        proc = helpers.run_script("plot.py", src, "-o", self.path("out"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        written = sorted(os.path.basename(p) for p in proc.stdout.split())
        self.assertEqual([p for p in written if p.startswith("em3d-vs")],
                         ["em3d-vs-remote-np2.png"])


if __name__ == "__main__":
    unittest.main()
