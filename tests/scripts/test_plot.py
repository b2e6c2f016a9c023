"""scripts/plot.py: what each figure draws (series, points, limits, axes, legend, read from the
matplotlib Figures that Figures.all() builds), and the files main() writes from them."""

import importlib.util
import os
import unittest

import helpers
import synth
from helpers import run_script

import comops_results as cr  # noqa: E402 (helpers puts scripts/ on sys.path)
import plot  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
NEEDS_MATPLOTLIB = unittest.skipUnless(
    HAVE_MATPLOTLIB, "matplotlib is missing: run with /usr/bin/python3 (apt-get install "
    "python3-matplotlib)")

FULL_FIGURES = {"pingpong-rate-np4", "broadcast-bw-np4", "reduce-max-bw-np4",
                "pingpong-small-np4", "pingpong-vs-np-800K", "broadcast-vs-np-800K",
                "reduce-max-vs-np-800K", "barrier-vs-np"}

# -- a small hand-made result whose every plotted value is a literal ------------------------------
# Each row's headline (time_us_reps.median) t is a power of two, its repetitions span t / 2 to
# 2 t, so the shaded band of a bandwidth v is exactly v / 2 to 2 v (v * t / (2 t), v * t / (t / 2)).


def prow(backend, op, np_, nbytes, t, tables=("size",), flagged=False, **fields):
    row = {"backend": backend, "op": op, "np": np_, "bytes": nbytes, "repetitions": 3,
           "time_us": {"min": t / 4, "avg": t / 2, "max": t},
           "time_us_reps": {"median": t, "min": t / 2, "max": 2 * t},
           "rep_times_us": [t / 2, t, 2 * t], "wrong": 0, "oversubscribed": flagged,
           "contended": False, "tables": list(tables)}
    row.update(fields)
    return row


# ping-pong size rows at np 4: {backend: {bytes: (headline us, rate GB/s)}}; swcc-64 has no
# rate_GBps (plot.py then computes bytes / headline) and its 64-byte point is oversubscribed.
RATE = {"mpi": {8: (1.0, 0.01), 64: (2.0, 0.05), 1024: (4.0, 0.5), 65536: (8.0, 2.0)},
        "shm-staged": {8: (0.5, 0.02), 64: (1.0, 0.1), 1024: (2.0, 1.5)},
        "swcc-64": {8: (16.0, None), 64: (32.0, None)}}
INTER_RATE = {8: (64.0, 0.001), 1024: (128.0, 0.01)}  # "mpi" pair "inter": backend "mpi inter"
BCAST_BW = {"mpi": {64: (2.0, 0.1), 1024: (4.0, 1.0), 65536: (16.0, 3.0)},
            "shm-staged": {1024: (2.0, 2.5)}}  # one point: an error bar, not a band
MEMCPY = {8: 2.0, 64: 4.0, 1024: 8.0, 65536: 16.0, 819200: 10.0, 4194304: 5.0}
PINGPONG_NP = {2: 1.0, 3: 8.0, 4: 64.0}  # at 800K, np rows: 64x, a log axis
BCAST_NP = {2: (2.0, 8.0), 3: (4.0, 6.0), 4: (8.0, 4.0)}  # (headline, bw); memcpy_GBps 16
BARRIER_NP = {2: 1.0, 3: 2.0, 4: 4.0}
CACHELINE_LABEL = "cache-line round trip, cores 0-3 (machine limit, 0.5 us)"
# MEMCPY's sizes are far apart: the limit is marked at those sizes, not drawn as a line
RATE_LIMIT = "memcpy / 2, 1 thread (machine limit: one copy each way); marks at the measured " \
    "sizes only"
BW_LIMIT = "memcpy, 1 thread (machine limit); marks at the measured sizes only"


def content_doc():
    rows = []
    for backend, points in RATE.items():
        for nbytes, (t, rate) in points.items():
            # bw_GBps (2 x size / round trip) must not be taken for the rate
            extra = {"bw_GBps": 2 * (rate or nbytes / t * 1e-3)}
            if rate is not None:
                extra["rate_GBps"] = rate
            rows.append(prow(backend, "pingpong", 4, nbytes, t,
                             flagged=backend == "swcc-64" and nbytes == 64, **extra))
    for nbytes, (t, rate) in INTER_RATE.items():
        rows.append(prow("mpi", "pingpong", 4, nbytes, t, pair="inter", rate_GBps=rate))
    for backend, points in BCAST_BW.items():
        for nbytes, (t, bw) in points.items():
            rows.append(prow(backend, "broadcast", 4, nbytes, t, bw_GBps=bw))
    for np_, t in PINGPONG_NP.items():
        rows.append(prow("mpi", "pingpong", np_, 819200, t, tables=("np",)))
    for np_, (t, bw) in BCAST_NP.items():
        rows.append(prow("mpi", "broadcast", np_, 819200, t, tables=("np",), bw_GBps=bw,
                         memcpy_GBps=16.0, oversubscribed=np_ == 4))
    for np_, t in BARRIER_NP.items():
        rows.append(prow("mpi", "barrier", np_, 0, t, tables=("np",)))
    ctx = synth.context(limits={"cacheline_rtt_us": 0.5, "cacheline_cores": [0, 3],
                                "memcpy": [{"bytes": b, "bw_GBps": bw}
                                           for b, bw in MEMCPY.items()]})
    return {"comops_format": 1, "context": ctx, "results": rows}


def series_of(ax):
    """{label: (xs, ys)} of the labelled lines, as plain Python lists."""
    return {line.get_label(): (list(line.get_xdata()), list(line.get_ydata()))
            for line in ax.get_lines() if not line.get_label().startswith("_")}


def line_of(ax, label):
    found = [line for line in ax.get_lines() if line.get_label() == label]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} lines labelled {label!r}")
    return found[0]


def hollow_points(ax):
    """(x, y) of the hollow markers: unlabelled lines without a line, white-faced."""
    return sorted((x, y) for line in ax.get_lines()
                  if line.get_label().startswith("_") and line.get_linestyle() == "None"
                  and line.get_markerfacecolor() == "white"
                  for x, y in zip(line.get_xdata(), line.get_ydata()))


def band_ranges(collection):
    """{x: (lowest y, highest y)} of a fill_between band's outline."""
    ranges = {}
    for x, y in collection.get_paths()[0].vertices:
        lo, hi = ranges.get(x, (y, y))
        ranges[x] = (min(lo, y), max(hi, y))
    return ranges


def bands(ax):
    """band_ranges() of each shaded band, in drawing order."""
    from matplotlib.collections import PolyCollection
    return [band_ranges(c) for c in ax.collections if isinstance(c, PolyCollection)]


def legend_texts(ax):
    """The legend's labels, each unwrapped (plot.py wraps long ones over lines)."""
    return [" ".join(t.get_text().split("\n")) for t in ax.get_legend().get_texts()]


@NEEDS_MATPLOTLIB
class FigureContentTest(helpers.TempDirTest):
    """In-process: the Figures plot.py would save, inspected through matplotlib's objects."""

    def build(self, doc, wanted_np=None, nbytes=819200):
        self.notes = []
        results = cr.load(synth.write(self.path("r.json"), doc))
        self.figures = dict(plot.Figures(results).all(wanted_np, nbytes, self.notes.append))
        return self.figures

    def axes(self, name):
        fig = self.figures[name]
        self.assertEqual(len(fig.axes), 1, name)
        return fig.axes[0]

    def setUp(self):
        super().setUp()
        self.build(content_doc())

    def test_figures_and_notes(self):
        self.assertEqual(list(self.figures), ["pingpong-rate-np4", "broadcast-bw-np4",
                                              "pingpong-small-np4", "pingpong-vs-np-800K",
                                              "broadcast-vs-np-800K", "barrier-vs-np"])
        self.assertEqual(self.notes, [
            "no reduce-max size rows at np 4: skipping reduce-max-bw",
            "fewer than 2 np values for reduce-max at 800K: skipping reduce-max-vs-np"])

    def test_pingpong_rate_series_and_limit(self):
        ax = self.axes("pingpong-rate-np4")
        expected = {b: (sorted(p), [p[n][1] if p[n][1] is not None else n / p[n][0] * 1e-3
                                     for n in sorted(p)]) for b, p in RATE.items()}
        expected["mpi inter"] = (sorted(INTER_RATE), [INTER_RATE[n][1] for n in sorted(INTER_RATE)])
        sizes = [n for n in sorted(MEMCPY) if n <= 65536]
        expected[RATE_LIMIT] = (sizes, [MEMCPY[n] / 2 for n in sizes])
        self.assertEqual(series_of(ax), expected)
        limit = line_of(ax, RATE_LIMIT)
        self.assertEqual((limit.get_linestyle(), limit.get_marker()), ("None", "_"))
        self.assertEqual(hollow_points(ax), [(64, 64 / 32.0 * 1e-3)])  # swcc-64's oversubscribed
        self.assertEqual(legend_texts(ax), ["mpi", "mpi inter", "shm-staged", "swcc-64",
                                            RATE_LIMIT, plot.BAND_TEXT, plot.FLAG_TEXT])
        self.assertEqual(len(self.figures["pingpong-rate-np4"].texts), 1)  # the footer only

    def test_pingpong_rate_axes(self):
        ax = self.axes("pingpong-rate-np4")
        self.assertEqual(ax.get_title(), "Ping-pong rate, np = 4 - testhost")
        self.assertEqual(ax.get_xlabel(), "message size (bytes; K = 1024)")
        self.assertEqual(ax.get_ylabel(), "ping-pong rate = size / round trip (GB/s, GB = 1e9 B)")
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        self.assertEqual(ax.xaxis.get_transform().base, 2)
        self.assertEqual(ax.yaxis.get_transform().base, 10)
        # 8 .. 64K: 14 powers of two, every second one labelled, K = 1024
        ticks = [int(t) for t in ax.get_xticks()]
        self.assertEqual(ticks, [8, 32, 128, 512, 2048, 8192, 32768])
        formatter = ax.xaxis.get_major_formatter()
        self.assertEqual([formatter(t, i) for i, t in enumerate(ticks)],
                         ["8", "32", "128", "512", "2K", "8K", "32K"])
        self.assertEqual(self.figures["pingpong-rate-np4"].texts[0].get_text(),
                         "host testhost | 2026-11-29 | comops 0.1.0 (abc1234) | "
                         "MPICH 4.0.2 | np 4")

    def test_line_styles_and_colors(self):
        ax = self.axes("pingpong-rate-np4")
        styles = {b: (line_of(ax, b).get_linestyle(), line_of(ax, b).get_marker())
                  for b in ("mpi", "mpi inter", "shm-staged", "swcc-64")}
        self.assertEqual(styles, {"mpi": ("-", "o"), "mpi inter": ("--", "o"),
                                  "shm-staged": ("--", "s"), "swcc-64": (":", "^")})
        colors = {b: line_of(ax, b).get_color() for b in styles}
        self.assertEqual(len(set(colors.values())), 4, colors)
        self.assertEqual(line_of(ax, RATE_LIMIT).get_color(), "black")
        # the same backend keeps its color on every figure
        small = self.axes("pingpong-small-np4")
        bcast = self.axes("broadcast-bw-np4")
        for backend in ("mpi", "shm-staged"):
            self.assertEqual(line_of(small, backend).get_color(), colors[backend])
            self.assertEqual(line_of(bcast, backend).get_color(), colors[backend])
        # the oversubscribed point has no filled marker on the line itself, only the hollow one
        self.assertEqual(line_of(ax, "swcc-64").get_markevery(), [0])
        self.assertEqual(line_of(ax, "mpi").get_markevery(), [0, 1, 2, 3])

    def test_pingpong_rate_bands(self):
        ax = self.axes("pingpong-rate-np4")
        expected = []
        for points in (RATE["mpi"], INTER_RATE, RATE["shm-staged"], RATE["swcc-64"]):
            ranges = {}
            for n, (t, rate) in points.items():
                v = rate if rate is not None else n / t * 1e-3
                ranges[n] = (v / 2, 2 * v)
            expected.append(ranges)
        self.assertEqual(bands(ax), expected)

    def test_broadcast_bandwidth(self):
        ax = self.axes("broadcast-bw-np4")
        self.assertEqual(ax.get_title(), "Broadcast bandwidth, np = 4 - testhost")
        self.assertEqual(ax.get_ylabel(), "bandwidth (GB/s, GB = 1e9 B)")
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        sizes = [64, 1024, 65536]  # the memcpy sizes within the rows' sizes
        self.assertEqual(series_of(ax), {
            "mpi": (sizes, [0.1, 1.0, 3.0]), "shm-staged": ([1024], [2.5]),
            BW_LIMIT: (sizes, [MEMCPY[n] for n in sizes])})  # no aggregate copy in this file
        self.assertEqual(legend_texts(ax), ["mpi", "shm-staged", BW_LIMIT, plot.BAND_TEXT,
                                            plot.ERRORBAR_TEXT])
        self.assertEqual(hollow_points(ax), [])
        # mpi: a band; shm-staged's single point: an error bar from v / 2 to 2 v
        self.assertEqual(bands(ax), [{64: (0.05, 0.2), 1024: (0.5, 2.0), 65536: (1.5, 6.0)}])
        (bar,) = ax.containers
        segments = [s.tolist() for s in bar.lines[2][0].get_segments()]
        self.assertEqual(segments, [[[1024, 1.25], [1024, 5.0]]])

    def test_small_pingpong(self):
        ax = self.axes("pingpong-small-np4")
        self.assertEqual(ax.get_title(), "Small-message ping-pong time, np = 4 - testhost")
        self.assertEqual(ax.get_xlabel(), "message size (bytes)")
        self.assertEqual(ax.get_ylabel(), "round-trip time (us, log scale)")
        # a log y axis: the backends' times span 100x, the fastest would sit on the floor
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("linear", "log"))
        low, high = ax.get_ylim()
        self.assertGreater(low, 0)
        self.assertLessEqual(low, 0.5)  # the cache-line line and every point are on the axis
        small = {b: {n: p for n, p in points.items() if n <= plot.SMALL_MAX_BYTES}
                 for b, points in RATE.items()}
        expected = {b: (sorted(p), [p[n][0] for n in sorted(p)]) for b, p in small.items()}
        expected["mpi inter"] = ([8], [INTER_RATE[8][0]])
        self.assertEqual({k: v for k, v in series_of(ax).items() if k != CACHELINE_LABEL},
                         expected)
        cacheline = line_of(ax, CACHELINE_LABEL)
        self.assertEqual(list(cacheline.get_ydata()), [0.5, 0.5])
        self.assertEqual(hollow_points(ax), [(64, 32.0)])
        # mpi inter's single point has an error bar, the others a band
        self.assertEqual(legend_texts(ax), ["mpi", "mpi inter", "shm-staged", "swcc-64",
                                            CACHELINE_LABEL, plot.BAND_TEXT, plot.ERRORBAR_TEXT,
                                            plot.FLAG_TEXT])
        # bands from time_us_reps min to max
        self.assertEqual(bands(ax)[0], {8: (0.5, 2.0), 64: (1.0, 4.0)})

    def test_versus_np(self):
        ax = self.axes("pingpong-vs-np-800K")
        self.assertEqual(ax.get_title(),
                         "Ping-pong time versus participants, 800K (819200 bytes) - testhost")
        self.assertEqual(ax.get_xlabel(), "participants (np)")
        self.assertEqual(ax.get_ylabel(), "round-trip time (us)")
        self.assertEqual(ax.get_yscale(), "log")  # 1 to 64 us: more than 30x
        self.assertEqual(series_of(ax), {"mpi": ([2, 3, 4], [1.0, 8.0, 64.0])})
        self.assertEqual(legend_texts(ax), ["mpi", plot.BAND_TEXT])

        ax = self.axes("broadcast-vs-np-800K")
        self.assertEqual(ax.get_ylabel(), "time per operation, slowest rank (us)")
        self.assertEqual(ax.get_yscale(), "linear")  # 2 to 8 us
        self.assertEqual(ax.get_ylim()[0], 0)
        limit = "memcpy of the bytes moved, 1 thread (machine limit)"
        # bytes moved = bw x time_us.max, at 16 GB/s: 8 x 2 / 16, 6 x 4 / 16, 4 x 8 / 16
        self.assertEqual(series_of(ax), {"mpi": ([2, 3, 4], [2.0, 4.0, 8.0]),
                                         limit: ([2, 3, 4], [1.0, 1.5, 2.0])})
        self.assertEqual(hollow_points(ax), [(4, 8.0)])
        self.assertEqual(legend_texts(ax), ["mpi", limit, plot.BAND_TEXT, plot.FLAG_TEXT])

    def test_barrier_versus_np(self):
        ax = self.axes("barrier-vs-np")
        self.assertEqual(ax.get_title(), "Barrier time versus participants - testhost")
        self.assertEqual(series_of(ax), {"mpi": ([2, 3, 4], [1.0, 2.0, 4.0]),
                                         CACHELINE_LABEL: ([0, 1], [0.5, 0.5])})
        self.assertEqual(ax.get_yscale(), "linear")
        self.assertEqual(self.figures["barrier-vs-np"].texts[0].get_text(),
                         "host testhost | 2026-11-29 | comops 0.1.0 (abc1234) | "
                         "MPICH 4.0.2")

    def test_np_and_np_bytes_choose_the_rows(self):
        doc = content_doc()
        doc["results"] += [prow("mpi", "pingpong", 2, n, 2.0, rate_GBps=r)
                           for n, r in ((8, 0.25), (16, 0.5))]
        doc["results"] += [prow("mpi", "broadcast", np_, 64, t, tables=("np",), bw_GBps=1.0)
                           for np_, t in ((2, 1.0), (5, 2.0))]
        self.build(doc, wanted_np=2, nbytes=64)
        self.assertEqual(list(self.figures), ["pingpong-rate-np2", "pingpong-small-np2",
                                              "broadcast-vs-np-64", "barrier-vs-np"])
        self.assertEqual(series_of(self.axes("pingpong-rate-np2"))["mpi"],
                         ([8, 16], [0.25, 0.5]))
        self.assertEqual(series_of(self.axes("broadcast-vs-np-64"))["mpi"],
                         ([2, 5], [1.0, 2.0]))
        self.assertEqual(self.axes("broadcast-vs-np-64").get_title(),
                         "Broadcast time versus participants, 64 (64 bytes) - testhost")

    def test_default_np_is_4_else_the_largest(self):
        doc = content_doc()
        doc["results"] = [dict(r, np=r["np"] + 4) if r["np"] == 4 else r
                          for r in doc["results"]]
        doc["results"].append(prow("mpi", "pingpong", 3, 8, 2.0, rate_GBps=0.125))
        self.build(doc)
        self.assertIn("pingpong-rate-np8", self.figures)
        self.assertEqual(series_of(self.axes("pingpong-rate-np8"))["mpi"][0],
                         sorted(RATE["mpi"]))

    def test_merged_later_row_is_drawn(self):
        first = synth.write(self.path("a.json"), content_doc())
        second = synth.write(self.path("b.json"), {
            "comops_format": 1, "context": synth.context(),
            "results": [prow("mpi", "pingpong", 4, 64, 2.0, rate_GBps=0.75)]})
        results = cr.load_all([first, second])
        figures = dict(plot.Figures(results).all(None, 819200, lambda text: None))
        xs, ys = series_of(figures["pingpong-rate-np4"].axes[0])["mpi"]
        self.assertEqual(dict(zip(xs, ys)), {8: 0.01, 64: 0.75, 1024: 0.5, 65536: 2.0})

    def test_files_of_two_mpi_libraries_are_drawn_apart(self):
        first = synth.write(self.path("a.json"), content_doc())
        second = synth.write(self.path("b.json"), {
            "comops_format": 1, "context": synth.context(
                mpi_library="Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4"),
            "results": [prow("mpi", "pingpong", 4, 64, 2.0, rate_GBps=0.75),
                        prow("mpi", "pingpong", 4, 8, 2.0, rate_GBps=0.25)]})
        results = cr.load_all([first, second])
        figures = dict(plot.Figures(results).all(None, 819200, lambda text: None))
        ax = figures["pingpong-rate-np4"].axes[0]
        series = series_of(ax)
        self.assertEqual(dict(zip(*series["mpi [Open MPI 4.1.4]"])), {8: 0.25, 64: 0.75})
        self.assertEqual(series["mpi [MPICH 4.0.2]"][0], sorted(RATE["mpi"]))
        self.assertNotIn("mpi", series)
        self.assertEqual(legend_texts(ax)[:5], ["mpi [MPICH 4.0.2]", "mpi inter [MPICH 4.0.2]",
                                                "mpi [Open MPI 4.1.4]", "shm-staged",
                                                "swcc-64 [MPICH 4.0.2]"])
        self.assertEqual(line_of(ax, "mpi inter [MPICH 4.0.2]").get_linestyle(), "--")
        footer = figures["pingpong-rate-np4"].texts[0].get_text()
        self.assertIn(" | MPICH 4.0.2 + Open MPI 4.1.4", footer)

    def test_rows_outside_the_size_table_are_not_drawn_by_size(self):
        doc = content_doc()
        for r in doc["results"]:
            if r["backend"] == "shm-staged":
                r["tables"] = ["np"]
        self.build(doc)
        for name in ("pingpong-rate-np4", "broadcast-bw-np4", "pingpong-small-np4"):
            self.assertNotIn("shm-staged", series_of(self.axes(name)), name)


def limit_band(ax):
    """band_ranges() of the machine limit's range band (fill_between labelled '_limit range')."""
    (band,) = [c for c in ax.collections if c.get_label() == "_limit range"]
    return band_ranges(band)


def beyond_points(ax):
    """(x, y) of the stars on points beyond their machine limit."""
    return sorted((x, y) for line in ax.get_lines() if line.get_label() == "_beyond limit"
                  for x, y in zip(line.get_xdata(), line.get_ydata()))


def errorbar_segments(container):
    return [s.tolist() for s in container.lines[2][0].get_segments()]


@NEEDS_MATPLOTLIB
class ShapeAndLimitsFigureTest(helpers.TempDirTest):
    """Figures of one size, backend order, and the machine limits: dense or sparse memcpy sizes,
    the limits' ranges, the aggregate copy and points beyond their limit (context.limits keys
    cacheline_rtt_us_range, memcpy[].bw_GBps_range, aggregate_memcpy; row beyond_limit)."""

    def build(self, rows, limits=None, wanted_np=None):
        ctx = synth.context(limits=limits or {"cacheline_rtt_us": 0.5, "cacheline_cores": [0, 3],
                                              "memcpy": [{"bytes": b, "bw_GBps": bw}
                                                         for b, bw in MEMCPY.items()]})
        results = cr.load(synth.write(self.path("r.json"),
                                      {"comops_format": 1, "context": ctx, "results": rows}))
        self.figures = dict(plot.Figures(results).all(wanted_np, 819200, lambda text: None))
        return self.figures

    def axes(self, name):
        (ax,) = self.figures[name].axes
        return ax

    def test_swcc_variants_sort_by_number(self):
        backends = ["swcc-sc", "swcc-4096", "swcc-64", "swcc-8", "shm-staged", "mpi"]
        self.build([prow(b, "pingpong", 2, n, 1.0 + i) for i, b in enumerate(backends)
                    for n in (8, 64)])
        ordered = ["mpi", "shm-staged", "swcc-8", "swcc-64", "swcc-4096", "swcc-sc"]
        import matplotlib
        colors = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
        for name in ("pingpong-rate-np2", "pingpong-small-np2"):
            ax = self.axes(name)
            self.assertEqual(legend_texts(ax)[:6], ordered, name)
            # colors are given in the same order, the same on every figure
            self.assertEqual([line_of(ax, b).get_color() for b in ordered], colors[:6], name)

    def test_mpi_variants_are_lines_of_their_own(self):
        # --mpi-variant labels (mpi-NAME): after mpi, by name, mpi's line style and marker,
        # a color each; the values drawn are each variant's own.
        backends = ["shm-direct", "mpi-nocma", "mpi", "mpi-cma"]
        self.build([prow(b, "pingpong", 2, n, 2.0 ** i) for i, b in enumerate(backends)
                    for n in (8, 64)])
        ordered = ["mpi", "mpi-cma", "mpi-nocma", "shm-direct"]
        import matplotlib
        colors = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
        ax = self.axes("pingpong-small-np2")
        self.assertEqual(legend_texts(ax)[:4], ordered)
        self.assertEqual([line_of(ax, b).get_color() for b in ordered], colors[:4])
        for b in ordered[:3]:
            self.assertEqual((line_of(ax, b).get_linestyle(), line_of(ax, b).get_marker()),
                             ("-", "o"), b)
        self.assertEqual(list(line_of(ax, "mpi-nocma").get_ydata()), [2.0, 2.0])
        self.assertEqual(list(line_of(ax, "mpi-cma").get_ydata()), [8.0, 8.0])

    def test_one_small_size_is_a_point_per_backend(self):
        heads = {"mpi": 2.0, "shm-staged": 1.0, "swcc-64": 8.0}
        self.build([prow(b, "pingpong", 2, n, t * n / 8) for b, t in heads.items()
                    for n in (8, 1048576)])
        ax = self.axes("pingpong-small-np2")
        self.assertEqual(ax.get_title(), "Small-message ping-pong time, 8 B, np = 2 - testhost")
        self.assertEqual(ax.get_xlabel(), "backend (message size 8 B, the only size of at most "
                         "80 bytes measured)")
        self.assertEqual(list(ax.get_xticks()), [0, 1, 2])
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()],
                         ["mpi", "shm-staged", "swcc-64"])
        self.assertEqual(ax.get_xlim(), (-0.6, 2.6))
        self.assertEqual({k: v for k, v in series_of(ax).items() if k != CACHELINE_LABEL},
                         {"mpi": ([0], [2.0]), "shm-staged": ([1], [1.0]),
                          "swcc-64": ([2], [8.0])})
        # one error bar per backend, t / 2 to 2 t; no shaded band, and the legend says so
        self.assertEqual([errorbar_segments(c) for c in ax.containers],
                         [[[[0, 1.0], [0, 4.0]]], [[[1, 0.5], [1, 2.0]]],
                          [[[2, 4.0], [2, 16.0]]]])
        self.assertEqual(bands(ax), [])
        self.assertEqual(legend_texts(ax), ["mpi", "shm-staged", "swcc-64", CACHELINE_LABEL,
                                            plot.ERRORBAR_TEXT])

    def test_one_size_bandwidth_has_a_padded_axis(self):
        self.build([prow(b, "broadcast", 2, 65536, 4.0, bw_GBps=bw)
                    for b, bw in (("mpi", 2.0), ("shm-direct", 8.0))])
        ax = self.axes("broadcast-bw-np2")
        self.assertEqual(ax.get_xlim(), (32768, 131072))
        self.assertEqual(list(ax.get_xticks()), [65536])
        self.assertEqual(ax.xaxis.get_major_formatter()(65536, 0), "64K")
        self.assertEqual(legend_texts(ax), ["mpi", "shm-direct", BW_LIMIT, plot.ERRORBAR_TEXT])
        self.assertEqual(series_of(ax)[BW_LIMIT], ([65536], [16.0]))

    def test_dense_memcpy_sizes_are_a_line(self):
        memcpy = {2 ** e: float(e) for e in range(3, 17)}  # 8 B to 64 KiB, every power of two
        self.build([prow("mpi", "broadcast", 2, n, 1.0, bw_GBps=1.0) for n in (8, 1024, 65536)],
                   {"memcpy": [{"bytes": b, "bw_GBps": bw} for b, bw in memcpy.items()]})
        ax = self.axes("broadcast-bw-np2")
        limit = line_of(ax, "memcpy, 1 thread (machine limit)")
        self.assertEqual((limit.get_linestyle(), limit.get_marker()), ("--", "None"))
        self.assertEqual((list(limit.get_xdata()), list(limit.get_ydata())),
                         (sorted(memcpy), [memcpy[b] for b in sorted(memcpy)]))
        self.assertEqual(legend_texts(ax), ["mpi", "memcpy, 1 thread (machine limit)",
                                            plot.BAND_TEXT])
        self.assertEqual([plot.dense(s) for s in ([8, 16], [8, 16, 64], [8], [])],
                         [True, False, False, False])

    def ranged_doc_rows(self):
        sizes = [8, 16, 32, 64]
        rows = [prow("mpi", "broadcast", 2, n, 2.0, bw_GBps=n / 16, aggregate_GBps=8.0,
                     beyond_limit=None) for n in sizes]
        rows += [prow("shm-direct", "broadcast", 2, n, 1.0, bw_GBps=n / 4, aggregate_GBps=8.0,
                      beyond_limit="split copy: each of 2 participants copies half; aggregate "
                      "memcpy 8 GB/s" if n == 64 else None) for n in sizes]
        rows += [prow("mpi", "pingpong", 2, n, 1.0, rate_GBps=n / 1000) for n in sizes]
        return rows

    def test_limit_ranges_aggregate_copy_and_points_beyond(self):
        memcpy = {8: 2.0, 16: 4.0, 32: 8.0, 64: 16.0}       # dense: a line and a band
        aggregate = {8: 4.0, 64: 32.0}                      # sparse: marks with bars
        self.build(self.ranged_doc_rows(), synth.ranged_limits(memcpy, aggregate, threads=2))
        ax = self.axes("broadcast-bw-np2")
        memcpy_label = "memcpy, 1 thread (machine limit); band: its range"
        aggregate_label = ("aggregate memcpy, 2 threads at once (machine limit of a split copy); "
                           "marks at the measured sizes only, bar: range")
        self.assertEqual(series_of(ax), {
            "mpi": ([8, 16, 32, 64], [0.5, 1.0, 2.0, 4.0]),
            "shm-direct": ([8, 16, 32, 64], [2.0, 4.0, 8.0, 16.0]),
            memcpy_label: ([8, 16, 32, 64], [2.0, 4.0, 8.0, 16.0])})
        self.assertEqual(limit_band(ax), {8: (1.5, 2.5), 16: (3.0, 5.0), 32: (6.0, 10.0),
                                          64: (12.0, 20.0)})
        (aggregate_bars,) = [c for c in ax.containers if c.get_label() == aggregate_label]
        marks = aggregate_bars.lines[0]
        self.assertEqual((list(marks.get_xdata()), list(marks.get_ydata())),
                         ([8, 64], [4.0, 32.0]))
        self.assertEqual(errorbar_segments(aggregate_bars),
                         [[[8, 3.0], [8, 5.0]], [[64, 24.0], [64, 40.0]]])
        # shm-direct's 64 B point is beyond its limit: a star and a footnote that says why
        self.assertEqual(beyond_points(ax), [(64, 16.0)])
        self.assertEqual(legend_texts(ax), ["mpi", "shm-direct", memcpy_label, aggregate_label,
                                            plot.BAND_TEXT, plot.BEYOND_TEXT])
        # long labels are wrapped in the legend, not in the line's own label
        self.assertEqual(ax.get_legend().get_texts()[3].get_text(),
                         "aggregate memcpy, 2 threads at once (machine limit of a\n"
                         "split copy); marks at the measured sizes only, bar: range")
        fig = self.figures["broadcast-bw-np2"]
        self.assertEqual([t.get_text() for t in fig.texts[1:]], [
            "* shm-direct 64 B: split copy: each of 2 participants copies half; aggregate "
            "memcpy 8 GB/s"])
        self.assertEqual(fig.comops_bottom, 0.03 + plot.NOTE_LINE)
        # the ping-pong rate: half the memcpy range; a ping-pong is no split copy
        rate = self.axes("pingpong-rate-np2")
        self.assertEqual(legend_texts(rate)[1:], [
            "memcpy / 2, 1 thread (machine limit: one copy each way); band: its range",
            plot.BAND_TEXT])
        self.assertEqual(limit_band(rate), {8: (0.75, 1.25), 16: (1.5, 2.5), 32: (3.0, 5.0),
                                            64: (6.0, 10.0)})
        self.assertEqual(beyond_points(rate), [])
        self.assertEqual(len(self.figures["pingpong-rate-np2"].texts), 1)
        # the cache-line round trip with its range as a grey band
        small = self.axes("pingpong-small-np2")
        label = ("cache-line round trip, cores 0-1 (machine limit, 0.5 us); grey band: its range, "
                 "0.25-1 us")
        self.assertEqual(list(line_of(small, label).get_ydata()), [0.5, 0.5])
        (span,) = [p for p in small.patches if p.get_label() == "_cache-line range"]
        self.assertEqual(sorted({y for _, y in span.get_xy()}), [0.25, 1.0])

    def test_many_points_beyond_are_summed_up(self):
        rows = [prow("shm-direct", "broadcast", 2, 2 ** e, 1.0, bw_GBps=1.0,
                     beyond_limit=f"reason {e}") for e in range(3, 11)]
        self.build(rows)
        fig = self.figures["broadcast-bw-np2"]
        self.assertEqual(fig.texts[1].get_text().splitlines(),
                         [f"* shm-direct {cr.human_bytes(2 ** e)}: reason {e}"
                          for e in range(3, 9)] + ["... and 2 more points beyond their limit"])
        self.assertEqual(fig.comops_bottom, 0.03 + 7 * plot.NOTE_LINE)
        self.assertEqual(len(beyond_points(self.axes("broadcast-bw-np2"))), 8)

    def test_files_without_ranges_draw_no_range(self):
        self.build(self.ranged_doc_rows())  # the MEMCPY limits, no ranges, no aggregate copy
        ax = self.axes("broadcast-bw-np2")
        self.assertEqual([c.get_label() for c in ax.collections if
                          c.get_label().startswith("_limit")], [])
        self.assertEqual(ax.containers, [])
        self.assertEqual(legend_texts(ax), ["mpi", "shm-direct", BW_LIMIT, plot.BAND_TEXT,
                                            plot.BEYOND_TEXT])
        self.assertEqual(list(self.axes("pingpong-small-np2").patches), [])
        self.assertIn(CACHELINE_LABEL, legend_texts(self.axes("pingpong-small-np2")))

    def test_limits_figures_are_written(self):
        rows = self.ranged_doc_rows()
        ctx = synth.context(limits=synth.ranged_limits({8: 2.0, 64: 16.0}, {8: 4.0, 64: 32.0}))
        src = synth.write(self.path("results.json"),
                          {"comops_format": 1, "context": ctx, "results": rows})
        proc = run_script("plot.py", src, "-o", self.path("fig"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(os.listdir(self.path("fig"))),
                         ["broadcast-bw-np2.png", "pingpong-rate-np2.png",
                          "pingpong-small-np2.png"])


@NEEDS_MATPLOTLIB
class OddFieldFigureTest(helpers.TempDirTest):
    """Odd values in the fields plot.py reads: the loader refuses them, or every figure is built
    without an exception, and drawn when the value is a number (extremes: log axes, overflow);
    compare.py: test_errors.OddFieldTest."""

    ROW_FIELDS = ("backend", "np", "bytes", "pair", "time_us", "time_us_reps", "rep_times_us",
                  "bw_GBps", "rate_GBps", "memcpy_GBps", "oversubscribed", "tables",
                  "beyond_limit", "aggregate_GBps")
    CONTEXT_PATHS = ("options.np_bytes", "limits.memcpy", "limits.cacheline_rtt_us",
                     "limits.cacheline_cores", "limits.cacheline_rtt_us_range",
                     "limits.aggregate_memcpy", "mpi_library")

    def test_refused_or_drawn(self):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        # ping-pong at np 2 (rate, small) and np 2, 3 (versus np); the odd row is the first
        rows = [synth.row(b, "pingpong", np_, n, [1.0 + n / 1000, 2.0 + np_, 1.5],
                          tables=("size", "np") if n == 819200 else ("size",), flagged=np_ == 3)
                for b in ("mpi", "shm-staged") for np_ in (2, 3) for n in (8, 819200)]
        doc = {"comops_format": 1, "context": synth.context(), "results": rows}
        refused = built = drawn = 0
        for what, value, odd in synth.odd_docs(doc, self.ROW_FIELDS, self.CONTEXT_PATHS):
            with self.subTest(what):
                try:
                    results = cr.load(synth.write(self.path("odd.json"), odd))
                except cr.ResultsError:
                    refused += 1
                    continue
                numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
                names = []
                for name, fig in plot.Figures(results).all(2, 819200, lambda text: None):
                    if numeric:
                        FigureCanvasAgg(fig).draw()
                    names.append(name)
                self.assertTrue(names)
                built += 1
                drawn += numeric
        self.assertGreater(refused, 100)
        self.assertGreater(built, 80)
        self.assertGreater(drawn, 25)


@NEEDS_MATPLOTLIB
class PlotFilesTest(helpers.TempDirTest):
    """plot.py run as a program: the files it writes and lists, formats, notes, exit status."""

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
        self.assertEqual(proc.stderr, f"plot.py: note: mpi/pingpong/np:4/bytes:8: {b} replaces "
                         "the earlier row\n")
        self.assertFigures(out, FULL_FIGURES, "png", helpers.PNG_SIGNATURE)

    def test_nothing_to_plot_exit_2(self):
        src = synth.write(self.path("empty.json"),
                          {"comops_format": 1, "context": synth.context(), "results": []})
        proc = self.plot(src, "-o", self.path("fig"))
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr.splitlines()[-1], f"plot.py: error: nothing to plot in {src}")
        self.assertEqual(proc.stdout, "")

    def test_unwritable_out_dir_exit_3(self):
        src = synth.write(self.path("results.json"), synth.full_result(ops=("pingpong",)))
        with open(self.path("file"), "w"):
            pass
        proc = self.plot(src, "-o", self.path("file"))
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(),
                         [f"plot.py: error: cannot create {self.path('file')} (File exists)"])


if __name__ == "__main__":
    unittest.main()
