"""scripts/plot.py: which figures it writes, in which format, and how it refuses bad input."""

import importlib.util
import os
import unittest

import helpers
import synth
from helpers import run_script

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None

FULL_FIGURES = {"pingpong-rate-np4", "broadcast-bw-np4", "reduce-max-bw-np4",
                "pingpong-small-np4", "pingpong-vs-np-800K", "broadcast-vs-np-800K",
                "reduce-max-vs-np-800K", "barrier-vs-np"}


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is missing: run with /usr/bin/python3 "
                     "(apt-get install python3-matplotlib)")
class PlotTest(helpers.TempDirTest):
    def plot(self, *args):
        return run_script("plot.py", *args)

    def written(self, proc):
        """The files plot.py listed on stdout, after checking they are all there is."""
        listed = proc.stdout.split()
        for path in listed:
            self.assertTrue(os.path.isfile(path), path)
        return listed

    def assertFigures(self, out_dir, names, ext, signature):
        self.assertEqual(sorted(os.listdir(out_dir)), sorted(f"{n}.{ext}" for n in names))
        for name in names:
            with open(os.path.join(out_dir, f"{name}.{ext}"), "rb") as f:
                head = f.read(4096)
            if ext == "svg":  # after the XML declaration and doctype
                self.assertIn(signature, head, name)
            else:
                self.assertTrue(head.startswith(signature), name)

    def test_full_result_writes_every_paper_figure_as_png(self):
        src = synth.write(self.path("results.json"), synth.full_result())
        out = self.path("fig")
        proc = self.plot(src, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFigures(out, FULL_FIGURES, "png", helpers.PNG_SIGNATURE)
        self.assertEqual(sorted(self.written(proc)),
                         sorted(os.path.join(out, f"{n}.png") for n in FULL_FIGURES))
        self.assertEqual(proc.stderr, "")

    def test_default_out_dir_is_the_first_inputs_directory(self):
        os.mkdir(self.path("run"))
        src = synth.write(self.path("run", "results.json"), synth.full_result())
        proc = self.plot(src)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(os.listdir(self.path("run"))),
                         sorted(["results.json"] + [f"{n}.png" for n in FULL_FIGURES]))

    def test_svg_and_pdf(self):
        src = synth.write(self.path("results.json"), synth.full_result())
        for fmt, signature in (("svg", b"<svg"), ("pdf", b"%PDF-")):
            out = self.path(fmt)
            proc = self.plot(src, "-o", out, "--format", fmt)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertFigures(out, FULL_FIGURES, fmt, signature)

    def test_optional_ops_get_their_figures(self):
        src = synth.write(self.path("results.json"), synth.full_result(
            ops=("pingpong", "broadcast", "reduce-max", "reduce-sum", "gather", "scatter")))
        out = self.path("fig")
        proc = self.plot(src, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        extra = {f"{op}-{kind}" for op in ("reduce-sum", "gather", "scatter")
                 for kind in ("bw-np4", "vs-np-800K")}
        self.assertFigures(out, FULL_FIGURES - {"barrier-vs-np"} | extra, "png",
                           helpers.PNG_SIGNATURE)
        self.assertEqual(proc.stderr, "")

    def test_np_and_np_bytes_options(self):
        doc = synth.full_result(ops=("pingpong",))
        # size rows at np 2 as well; versus-np rows at 64 bytes
        doc["results"] += [synth.row(b, "pingpong", 2, n, synth.noisy(5.0)) for b in synth.BACKENDS
                           for n in (8, 16, 1024)]
        doc["results"] += [synth.row(b, "pingpong", np_, 64, synth.noisy(np_), ("np",))
                           for b in synth.BACKENDS for np_ in (2, 3, 4)]
        src = synth.write(self.path("results.json"), doc)
        out = self.path("fig")
        proc = self.plot(src, "-o", out, "--np", "2", "--np-bytes", "64")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFigures(out, {"pingpong-rate-np2", "pingpong-small-np2", "pingpong-vs-np-64"},
                           "png", helpers.PNG_SIGNATURE)
        self.assertIn("no broadcast size rows at np 2: skipping broadcast-bw", proc.stderr)

    def test_partial_result_skips_figures_with_a_note(self):
        rows = [synth.row(b, "pingpong", 2, n, synth.noisy(5.0)) for b in ("mpi", "shm-staged")
                for n in (8, 16, 1024, 65536)]
        doc = {"comops_format": 1, "context": synth.context(), "results": rows}
        src = synth.write(self.path("results.json"), doc)
        out = self.path("fig")
        proc = self.plot(src, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFigures(out, {"pingpong-rate-np2", "pingpong-small-np2"}, "png",
                           helpers.PNG_SIGNATURE)
        for skipped in ("broadcast-bw", "reduce-max-bw", "pingpong-vs-np", "broadcast-vs-np",
                        "reduce-max-vs-np"):
            self.assertIn(f"skipping {skipped}", proc.stderr)

    def test_merge_later_file_wins_with_a_note(self):
        first = synth.full_result()
        second = {"comops_format": 1, "context": synth.context(),
                  "results": [synth.row("mpi", "pingpong", 4, 8, [99.0])]}
        a = synth.write(self.path("a.json"), first)
        b = synth.write(self.path("b.json"), second)
        out = self.path("fig")
        proc = self.plot(a, b, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(f"mpi/pingpong/np:4/bytes:8: {b} replaces the earlier row", proc.stderr)
        self.assertFigures(out, FULL_FIGURES, "png", helpers.PNG_SIGNATURE)

    def test_not_a_comops_file_exit_2(self):
        good = synth.write(self.path("results.json"), synth.full_result())
        bad = synth.write(self.path("other.json"), {"benchmarks": []})
        proc = self.plot(good, bad, "-o", self.path("fig"))
        self.assertOneLineError(proc, f"plot.py: {bad}: not a comops result (no comops_format")
        self.assertFalse(os.path.exists(self.path("fig")))
        with open(self.path("text.json"), "w") as f:
            f.write("not json at all\n")
        proc = self.plot(self.path("text.json"))
        self.assertOneLineError(proc, "text.json: not a comops result (invalid JSON")
        no_results = synth.write(self.path("nores.json"), {"comops_format": 1, "context": {}})
        proc = self.plot(no_results)
        self.assertOneLineError(proc, "nores.json: not a comops result (no results list)")

    def test_nothing_to_plot_exit_2(self):
        src = synth.write(self.path("empty.json"),
                          {"comops_format": 1, "context": synth.context(), "results": []})
        proc = self.plot(src, "-o", self.path("fig"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("plot.py: nothing to plot in", proc.stderr.splitlines()[-1])
        self.assertEqual(proc.stdout, "")


if __name__ == "__main__":
    unittest.main()
