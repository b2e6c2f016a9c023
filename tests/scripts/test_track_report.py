"""scripts/track_report.py, the dashboard of track.py report: the page's content read back with
html.parser (charts, tables, escaping), the charts' Figures, the refusals and the atomic write;
and the page opened in headless Chromium (screenshot and DOM)."""

import base64
import html.parser
import importlib.util
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import unittest
from unittest import mock

import helpers
from helpers import run_script

import track_report  # noqa: E402 (helpers puts scripts/ on sys.path)

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
NEEDS_MATPLOTLIB = unittest.skipUnless(
    HAVE_MATPLOTLIB, "matplotlib is missing: run with /usr/bin/python3 (apt-get install "
    "python3-matplotlib)")
CHROMIUM = shutil.which("chromium")

# -- the fixture: 12 runs of one machine, 5 points in 3 charts ------------------------------------
COMMITS = ["0a11ce0", "1b22df1", "2c33e02", "3d44f13", "4e55024", "5f66135", "6077246",
           "feed7e1", "8199468", "92aa579", "a3bb68a", "b4cc79b"]
STEP_COMMIT = COMMITS[7]   # mpi pingpong np 2 8 B (intra) is 10 % slower from here on
LATEST = COMMITS[-1]       # swcc reduce-max improves here
MPI_LIBRARY = ("MPICH Version:      4.0.2\nMPICH Release date: Thu Apr  7 12:34:45 CDT 2022\n"
               "MPICH ABI:          14:2:2\nMPICH Device:       ch4:ofi\nMPICH configure: "
               + "--with-option " * 20)


def value(run, median, contended=False):
    return {"run": run, "median": median, "reps": [median * 0.95, median * 1.05],
            "contended": contended}


def series(backend, op, np_, nbytes, pair, values, changes=(), latest=None, stable=None,
           since=None):
    return {"backend": backend, "op": op, "np": np_, "bytes": nbytes, "pair": pair,
            "unit": "us", "values": values, "changes": list(changes), "latest": latest,
            "stable_median": stable, "stable_since_commit": since}


def fixture():
    step = {"run": 7, "commit": STEP_COMMIT, "direction": "regression", "ratio": 1.10,
            "ci": [1.07, 1.13], "p_value": 0.002, "before_median": 1.0, "after_median": 1.1}
    better = {"run": 11, "commit": LATEST, "direction": "improvement", "ratio": 0.8,
              "ci": [0.75, 0.85], "p_value": 0.0004, "before_median": 400.0,
              "after_median": 320.0}
    return {
        "generated": "2026-11-30T12:00:00Z",
        "machines": [{
            "id": "m1a2b3c",
            "fingerprint": {"cpu_model": "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz",
                            "cores": 2, "nodes": 1, "mpi_library": MPI_LIBRARY,
                            "compiler": "GNU 12.2.0",
                            "options": {"warmup": 2, "pin": "core", "iterations": None,
                                        "placement": None}},
            "runs": [{"commit": c, "date": f"2026-11-{i + 1:02d}T10:00:00Z"}
                     for i, c in enumerate(COMMITS)],
            "series": [
                # a 10 % step at run 7
                series("mpi", "pingpong", 2, 8, "intra",
                       [value(r, 1.0 if r < 7 else 1.1) for r in range(12)], [step],
                       latest=1.1, stable=1.1, since=STEP_COMMIT),
                # not measured at run 3, contended (3x) at run 5
                series("mpi", "pingpong", 2, 65536, "intra",
                       [value(r, 30.0 if r == 5 else 10.0, contended=r == 5)
                        for r in range(12) if r != 3], latest=10.0, stable=10.0,
                       since=COMMITS[0]),
                series("mpi", "pingpong", 2, 8, "inter",
                       [value(r, 2.5) for r in range(12)], latest=2.5, stable=2.5,
                       since=COMMITS[0]),
                # the latest run's value is contended
                series("shm", "broadcast", 4, 1048576, None,
                       [value(r, 1500.0, contended=r == 11) for r in range(12)],
                       latest=1500.0, stable=1500.0, since=COMMITS[0]),
                # 20 % faster at the latest run
                series("swcc", "reduce-max", 4, 819200, None,
                       [value(r, 400.0 if r < 11 else 320.0) for r in range(12)], [better],
                       latest=320.0, stable=400.0, since=COMMITS[0]),
                # measured only in the first runs
                series("swcc", "reduce-max", 2, 819200, None,
                       [value(r, 200.0) for r in range(4)], latest=None, stable=200.0,
                       since=COMMITS[0]),
            ],
        }],
    }


LATEST_ROWS = [  # point, latest, stable median, ratio, stable since, verdict
    ["mpi pingpong np 2 8 B (inter)", "2.5 us", "2.5 us", "1.000", COMMITS[0],
     "not significant"],
    ["mpi pingpong np 2 8 B (intra)", "1.1 us", "1.1 us", "1.000", STEP_COMMIT,
     "not significant"],
    ["mpi pingpong np 2 64 KiB (intra)", "10 us", "10 us", "1.000", COMMITS[0],
     "not significant"],
    ["shm broadcast np 4 1 MiB", "1500 us", "1500 us", "1.000", COMMITS[0],
     "contended, not judged"],
    ["swcc reduce-max np 2 800 KiB", "– us", "200 us", "–", COMMITS[0], "not measured"],
    ["swcc reduce-max np 4 800 KiB", "320 us", "400 us", "0.800", COMMITS[0], "improvement"],
]
CHANGE_ROWS = [  # commit, date, point, direction, before, after, ratio [interval], p
    [LATEST, "2026-11-12T10:00:00Z", "swcc reduce-max np 4 800 KiB", "improvement", "400 us",
     "320 us", "0.800 [0.750, 0.850]", "0.0004"],
    [STEP_COMMIT, "2026-11-08T10:00:00Z", "mpi pingpong np 2 8 B (intra)", "regression",
     "1 us", "1.1 us", "1.100 [1.070, 1.130]", "0.002"],
]  # newest first
CHART_TITLES = ["pingpong - mpi", "broadcast - shm", "reduce-max - swcc"]
AB = {"verdict": "regression in 1 point", "base": "0a11ce0", "head": "b4cc79b", "rounds": 10,
      "contended_rounds": 2, "extra": "ignored",
      "points": [{"point": "mpi/pingpong/np:2/bytes:8", "before_us": 1.0, "after_us": 1.06,
                  "ratio": 1.06, "ci_low": 1.03, "ci_high": 1.09, "changed": True},
                 {"point": "shm-direct/broadcast/np:2/bytes:65536", "before_us": 12.0,
                  "after_us": 15.6, "ratio": 1.3, "ci_low": 0.8, "ci_high": 2.1,
                  "changed": False}]}
AB_ROWS = [  # point, base, head, ratio [interval], verdict: changed first
    ["mpi/pingpong/np:2/bytes:8", "1 us", "1.06 us", "1.060 [1.030, 1.090]", "changed"],
    ["shm-direct/broadcast/np:2/bytes:65536", "12 us", "15.6 us", "1.300 [0.800, 2.100]",
     "not significant"]]
HOSTILE = '<script>alert("x")</script> & $\\frac{'


class Page(html.parser.HTMLParser):
    """What the tests read from a page: <body> attributes, images, figure captions, the cells
    of each table by class, and all text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.body, self.images, self.captions, self.tables = {}, [], [], {}
        self.text, self.details, self.scripts = [], [], 0
        self._table, self._cell, self._caption = None, None, None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body = attrs
        elif tag == "img":
            self.images.append(attrs)
        elif tag == "details":
            self.details.append(attrs)
        elif tag == "script":
            self.scripts += 1
        elif tag == "figcaption":
            self._caption = []
        elif tag == "table":
            self._table = self.tables.setdefault(attrs.get("class"), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "figcaption":
            self.captions.append("".join(self._caption))
            self._caption = None

    def handle_data(self, data):
        self.text.append(data)
        for sink in (self._cell, self._caption):
            if sink is not None:
                sink.append(data)


def png_of(img):
    prefix = "data:image/png;base64,"
    src = img.get("src", "")
    if not src.startswith(prefix):
        raise AssertionError(f"not an embedded PNG: {src[:40]!r}")
    return base64.b64decode(src[len(prefix):], validate=True)


@NEEDS_MATPLOTLIB
class PageContentTest(helpers.TempDirTest):
    _fixture_page = None  # the fixture's page, drawn once for the tests that only read it

    def write(self, data=None, out="report"):
        path = track_report.write_report(data or fixture(), self.path(out))
        self.assertEqual(str(path), self.path(out, "index.html"))
        with open(path, encoding="utf-8") as f:
            return Page(f.read())

    def fixture_page(self):
        if PageContentTest._fixture_page is None:
            PageContentTest._fixture_page = self.write(out="fixture")
        return PageContentTest._fixture_page

    def test_one_embedded_png_chart_per_op_and_backend(self):
        from matplotlib import image
        page = self.write()
        self.assertEqual(page.captions, CHART_TITLES)
        self.assertEqual(len(page.images), 3)
        for img in page.images:
            data = png_of(img)
            self.assertEqual(data[:8], helpers.PNG_SIGNATURE)
            pixels = image.imread(io.BytesIO(data), format="png")
            self.assertGreater(pixels.shape[1], 800)
            self.assertGreater(pixels.shape[0], 300)
        # nothing that needs the network: every src is a data URI
        self.assertEqual(os.listdir(self.path("report")), ["index.html"])

    def test_latest_against_stable_rows(self):
        page = self.fixture_page()
        head, *rows = page.tables["latest"]
        self.assertEqual(head, ["point", "latest", "stable median", "ratio", "stable since",
                                "verdict"])
        self.assertEqual(rows, LATEST_ROWS)

    def test_change_points_listed_newest_first(self):
        page = self.fixture_page()
        head, *rows = page.tables["changes"]
        self.assertEqual(head, ["commit", "date", "point", "direction", "before", "after",
                                "ratio [interval]", "p"])
        self.assertEqual(rows, CHANGE_ROWS)

    def test_several_points_at_one_commit_share_its_cell(self):
        data = fixture()
        extra = {"run": 7, "commit": STEP_COMMIT, "direction": "regression", "ratio": 1.2,
                 "ci": None, "p_value": None}
        data["machines"][0]["series"][2]["changes"] = [extra]  # mpi pingpong 8 B inter
        _, *rows = self.write(data).tables["changes"]
        self.assertEqual(rows[1:], [
            [STEP_COMMIT, "2026-11-08T10:00:00Z", "mpi pingpong np 2 8 B (inter)",
             "regression", "– us", "– us", "1.200", "–"],
            ["mpi pingpong np 2 8 B (intra)", "regression", "1 us", "1.1 us",
             "1.100 [1.070, 1.130]", "0.002"]])

    def test_fingerprint_long_mpi_library_folds(self):
        page = self.fixture_page()
        rows = {r[0]: r[1] for r in page.tables["fingerprint"]}
        self.assertEqual(rows["id"], "m1a2b3c")
        self.assertEqual(rows["cores"], "2")
        self.assertEqual(rows["compiler"], "GNU 12.2.0")
        # the summary is cut, the <pre> inside <details> keeps the whole text
        flat = " ".join(MPI_LIBRARY.split())
        self.assertTrue(rows["mpi_library"].startswith(flat[:track_report.LONG_TEXT - 1] + "…"))
        self.assertIn(MPI_LIBRARY.strip(), rows["mpi_library"])
        self.assertIn("pin = core", rows["options"])
        # an option without a value says what that means, never a blank
        # (the cell's text: its <li> items, each key = value, joined)
        self.assertEqual(rows["options"], "iterations = by size (comops' default)"
                         "pin = coreplacement = not setwarmup = 2")

    def test_summary_and_regression_alert(self):
        text = " ".join("".join(self.fixture_page().text).split())
        self.assertIn("12 runs, from 0a11ce0 to b4cc79b (2026-11-12T10:00:00Z); 6 points.", text)
        self.assertNotIn("starts a regression", text)
        data = fixture()
        data["machines"][0]["series"][4]["changes"][0]["direction"] = "regression"
        text = " ".join("".join(self.write(data, "again").text).split())
        self.assertIn("The latest run (b4cc79b) starts a regression in 1 point.", text)

    def test_hostile_strings_are_escaped(self):
        data = fixture()
        machine = data["machines"][0]
        machine["id"] = HOSTILE
        machine["fingerprint"]["cpu_model"] = HOSTILE
        machine["fingerprint"]["options"] = {HOSTILE: HOSTILE}
        machine["fingerprint"]["mpi_library"] = HOSTILE + "\n" + "x" * 100  # <details title=..>
        machine["runs"][7]["commit"] = HOSTILE
        machine["series"][0]["changes"][0]["commit"] = HOSTILE
        machine["series"][0]["stable_since_commit"] = HOSTILE
        machine["series"][3]["backend"] = HOSTILE
        machine["series"][3]["unit"] = HOSTILE
        path = track_report.write_report(data, self.path("report"))
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        self.assertNotIn("<script>alert", raw)
        page = Page(raw)
        self.assertEqual(page.scripts, 1)  # only the page's own load script
        text = "".join(page.text)
        # machine heading and id, cpu_model, options key and value, mpi_library (summary and
        # <pre>), the change's commit, stable since, the point, its two units, the caption
        self.assertEqual(text.count(HOSTILE), 13)
        details = [a for a in page.details if HOSTILE in a.get("title", "")]
        self.assertEqual(len(details), 1)
        self.assertEqual(details[0]["title"], HOSTILE + " " + "x" * 100)
        self.assertEqual([img["alt"] for img in page.images][1], f"broadcast - {HOSTILE} over runs")
        self.assertEqual(page.tables["changes"][2][0], HOSTILE)
        self.assertIn(f"broadcast - {HOSTILE}", page.captions)
        self.assertEqual(len(page.images), 3)  # '$' did not stop a chart

    def test_a_section_per_machine(self):
        data = fixture()
        other = json.loads(json.dumps(data["machines"][0]))
        other["id"] = "m9z8y7x"
        other["series"] = other["series"][3:4]  # shm broadcast only
        data["machines"].append(other)
        page = self.write(data)
        self.assertEqual(page.captions, CHART_TITLES + ["broadcast - shm"])
        self.assertEqual(len(page.images), 4)
        # both fingerprint tables (7 rows each) land in one list: their id rows
        self.assertEqual(page.tables["fingerprint"][::7], [["id", "m1a2b3c"], ["id", "m9z8y7x"]])
        text = " ".join("".join(page.text).split())
        self.assertIn("by scripts/track.py report; 2 machine fingerprints.", text)
        self.assertIn("12 runs, from 0a11ce0 to b4cc79b (2026-11-12T10:00:00Z); 1 point.", text)

    def test_ab_verdict_at_the_top(self):
        data = fixture()
        data["ab"] = json.loads(json.dumps(AB))
        path = track_report.write_report(data, self.path("report"))
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        page = Page(raw)
        head, *rows = page.tables["ab"]
        self.assertEqual(head, ["point", "base", "head", "ratio [interval]", "verdict"])
        self.assertEqual(rows, AB_ROWS)
        text = " ".join("".join(page.text).split())
        self.assertIn("Verdict: regression in 1 point. Head b4cc79b against base 0a11ce0, 10 "
                      "interleaved rounds, 2 contended rounds left out; 1 of 2 points changed.",
                      text)
        # at the top: before the first machine's section
        self.assertLess(raw.index('<section class="ab"'), raw.index('<section class="machine"'))

    def test_without_ab_the_place_says_how_to_fill_it(self):
        text = " ".join("".join(self.fixture_page().text).split())
        self.assertIn("No A/B result given (track.py report --ab DIR/ab.json, from "
                      "scripts/ab_job.sh).", text)
        self.assertNotIn("ab", self.fixture_page().tables)

    def test_empty_history(self):
        page = self.write({"generated": "x", "machines": []})
        self.assertIn("No runs recorded.", "".join(page.text))
        data = fixture()
        data["machines"][0]["series"] = []
        page = self.write(data, "again")
        self.assertIn("No runs recorded for this machine.", "".join(page.text))
        self.assertEqual(page.images, [])


@NEEDS_MATPLOTLIB
class ChartFigureTest(unittest.TestCase):
    """What a chart draws, read from the matplotlib Figure chart_figure builds."""

    def figure(self, group):
        machine = fixture()["machines"][0]
        groups = dict(track_report.chart_groups(machine))
        return track_report.chart_figure(machine, group[0], group[1], groups[group])

    def test_pingpong_chart(self):
        ax = self.figure(("pingpong", "mpi")).axes[0]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertEqual(legend, [
            "np 2 8 B inter (1 = 2.5 us)", "np 2 8 B intra (1 = 1 us)",
            "np 2 64 KiB intra (1 = 10 us)", track_report.BAND_TEXT,
            track_report.CONTENDED_TEXT, "change point: regression (commit: points that changed, ratio)"])
        lines = {line.get_label(): line for line in ax.get_lines()}
        step = lines["np 2 8 B intra (1 = 1 us)"].get_ydata()
        self.assertEqual([round(y, 6) for y in step], [1.0] * 7 + [1.1] * 5)
        # the line skips run 3 (not measured) and run 5 (contended)
        gap = lines["np 2 64 KiB intra (1 = 10 us)"]
        self.assertEqual(list(gap.get_xdata()), [0, 1, 2, 4, 6, 7, 8, 9, 10, 11])
        self.assertEqual(list(gap.get_ydata()), [1.0] * 10)
        changes = [line for line in ax.get_lines() if (line.get_gid() or "").startswith("change")]
        self.assertEqual([line.get_gid() for line in changes], ["change-7"])
        self.assertEqual(list(changes[0].get_xdata()), [7, 7])
        # the change line names its commit, the series that changed there and the ratio
        self.assertEqual([t.get_text() for t in ax.texts], [f"{STEP_COMMIT}: np 2 8 B intra x1.100"])
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        self.assertEqual(ticks, COMMITS)
        # the contended 3x value is above the axis: drawn as a triangle on its top edge
        self.assertLess(ax.get_ylim()[1], 3.0)
        edge = [line for line in ax.get_lines() if line.get_marker() == "^" and
                len(line.get_xdata())]
        self.assertEqual([list(line.get_xdata()) for line in edge], [[5]])

    def test_improvement_chart_without_contended_key(self):
        ax = self.figure(("reduce-max", "swcc")).axes[0]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertEqual(legend, [
            "np 2 800 KiB (1 = 200 us)", "np 4 800 KiB (1 = 400 us)", track_report.BAND_TEXT,
            "change point: improvement (commit: points that changed, ratio)"])
        lines = {line.get_label(): line for line in ax.get_lines()}
        self.assertEqual([round(y, 6) for y in lines["np 4 800 KiB (1 = 400 us)"].get_ydata()],
                         [1.0] * 11 + [0.8])


class RefusalTest(helpers.TempDirTest):
    """Bad out_dir or data: ReportError (one line), nothing replaced; the CLI exits 2."""

    def test_out_dir_that_is_a_file(self):
        with open(self.path("file"), "w") as f:
            f.write("keep")
        with self.assertRaises(track_report.ReportError) as ctx:
            track_report.write_report(fixture(), self.path("file"))
        self.assertEqual(str(ctx.exception),
                         f"{self.path('file')}: exists and is not a directory")
        with open(self.path("file")) as f:
            self.assertEqual(f.read(), "keep")

    def test_index_html_that_is_not_a_regular_file(self):
        os.makedirs(self.path("out", "index.html"))
        with self.assertRaises(track_report.ReportError) as ctx:
            track_report.write_report(fixture(), self.path("out"))
        self.assertIn("index.html: exists and is not a regular file; not replacing it",
                      str(ctx.exception))
        with open(self.path("target"), "w") as f:
            f.write("keep")
        os.makedirs(self.path("linked"))
        os.symlink(self.path("target"), self.path("linked", "index.html"))
        with self.assertRaises(track_report.ReportError):
            track_report.write_report(fixture(), self.path("linked"))
        with open(self.path("target")) as f:
            self.assertEqual(f.read(), "keep")
        self.assertEqual(sorted(os.listdir(self.path("linked"))), ["index.html"])

    def test_data_off_contract(self):
        cases = [
            ([], "bad report data: the data is not an object"),
            ({"machines": {}}, "bad report data: machines is not a list"),
        ]
        data = fixture()
        data["machines"][0]["series"][1]["values"][2]["run"] = 12
        cases.append((data, "bad report data: machines[0].series[1].values[2].run is not a run "
                            "index (0 to 11)"))
        data = fixture()
        data["machines"][0]["series"][0]["changes"][0]["direction"] = "worse"
        cases.append((data, 'bad report data: machines[0].series[0].changes[0].direction is '
                            'not "regression" or "improvement"'))
        data = fixture()
        data["machines"][0]["series"][4]["values"][0]["median"] = float("nan")
        cases.append((data, "bad report data: machines[0].series[4].values[0].median is not a "
                            "number or null"))
        for data, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(track_report.ReportError) as ctx:
                    track_report.write_report(data, self.path("out"))
                self.assertEqual(str(ctx.exception), message)
        self.assertFalse(os.path.exists(self.path("out")))

    def test_ab_file_off_schema(self):
        cases = [("[]", "not an A/B verdict (the file is not an object)"),
                 ("{", "not JSON"),
                 (json.dumps(dict(AB, rounds="ten")),
                  "not an A/B verdict (ab.json.rounds is not a non-negative integer)"),
                 (json.dumps(dict(AB, points=[dict(AB["points"][0], changed="yes")])),
                  "not an A/B verdict (ab.json.points[0].changed is not true or false)"),
                 (json.dumps({k: v for k, v in AB.items() if k != "head"}),
                  "not an A/B verdict (ab.json.head is not a string)")]
        with open(self.path("data.json"), "w") as f:
            json.dump(fixture(), f)
        for text, message in cases:
            with self.subTest(message=message):
                with open(self.path("ab.json"), "w") as f:
                    f.write(text)
                with self.assertRaises(track_report.ReportError) as ctx:
                    track_report.load_ab(self.path("ab.json"))
                self.assertTrue(str(ctx.exception).startswith(
                    f"{self.path('ab.json')}: {message}"), str(ctx.exception))
                proc = run_script("track_report.py", self.path("data.json"), "-o",
                                  self.path("out"), "--ab", self.path("ab.json"))
                self.assertOneLineError(proc, "track_report.py: error: ", message)
                proc = run_script("track.py", "report", "--db", self.path("none.sqlite"), "-o",
                                  self.path("out"), "--ab", self.path("ab.json"))
                self.assertOneLineError(proc, "track.py: error: ", message)
        self.assertFalse(os.path.exists(self.path("out")))
        with self.assertRaises(track_report.ReportError) as ctx:
            track_report.load_ab(self.path("missing.json"))
        self.assertEqual(str(ctx.exception), f"{self.path('missing.json')}: No such file or "
                         "directory")

    def test_without_matplotlib(self):
        with mock.patch.object(track_report.importlib.util, "find_spec", return_value=None):
            with self.assertRaises(track_report.ReportError) as ctx:
                track_report.write_report(fixture(), self.path("out"))
        self.assertEqual(str(ctx.exception), "matplotlib is missing: run with /usr/bin/python3 "
                         "(apt-get install python3-matplotlib)")
        self.assertFalse(os.path.exists(self.path("out")))

    def test_cli_errors(self):
        with open(self.path("bad.json"), "w") as f:
            f.write("{")
        proc = run_script("track_report.py", self.path("bad.json"), "-o", self.path("out"))
        self.assertOneLineError(proc, "track_report.py: error:", "bad.json: not JSON")
        proc = run_script("track_report.py", self.path("missing.json"), "-o", self.path("out"))
        self.assertOneLineError(proc, "track_report.py: error:", "missing.json: No such file")
        with open(self.path("odd.json"), "w") as f:
            json.dump({"machines": [1]}, f)
        proc = run_script("track_report.py", self.path("odd.json"), "-o", self.path("out"))
        self.assertOneLineError(proc, "track_report.py: error: bad report data: machines[0] is "
                                "not an object")
        self.assertFalse(os.path.exists(self.path("out")))


@NEEDS_MATPLOTLIB
class AtomicWriteTest(helpers.TempDirTest):
    def test_replaces_the_old_page_whole_and_leaves_no_temporary(self):
        os.makedirs(self.path("out"))
        with open(self.path("out", "index.html"), "w") as f:
            f.write("old page")
        inode = os.stat(self.path("out", "index.html")).st_ino
        with mock.patch.object(track_report.os, "replace",
                               side_effect=OSError(28, "No space left on device")):
            with self.assertRaises(track_report.ReportError) as ctx:
                track_report.write_report(fixture(), self.path("out"))
        self.assertIn("cannot write the report: No space left on device", str(ctx.exception))
        with open(self.path("out", "index.html")) as f:
            self.assertEqual(f.read(), "old page")  # the old page is still whole
        self.assertEqual(os.listdir(self.path("out")), ["index.html"])  # temporary removed
        track_report.write_report(fixture(), self.path("out"))
        self.assertNotEqual(os.stat(self.path("out", "index.html")).st_ino, inode)  # replaced
        self.assertEqual(os.listdir(self.path("out")), ["index.html"])

    def test_cli_writes_the_page(self):
        with open(self.path("data.json"), "w") as f:
            json.dump(fixture(), f)
        with open(self.path("ab.json"), "w") as f:
            json.dump(AB, f)
        proc = run_script("track_report.py", self.path("data.json"), "-o",
                          self.path("new", "dir"), "--ab", self.path("ab.json"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, self.path("new", "dir", "index.html") + "\n")
        self.assertEqual(proc.stderr, "")
        with open(self.path("new", "dir", "index.html"), encoding="utf-8") as f:
            page = Page(f.read())
        self.assertEqual(len(page.images), 3)
        self.assertEqual(page.tables["ab"][1:], AB_ROWS)


# -- the page in a real browser -------------------------------------------------------------------
WIDTH, HEIGHT = 1280, 2000


def run_chromium(args, home, timeout=60):
    """Runs headless Chromium in its own process group with a throwaway profile; on a timeout
    kills that group (only Chromium's processes) and fails."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           f"--user-data-dir={home}/profile", *args]
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/config",
               XDG_CACHE_HOME=f"{home}/cache")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"chromium did not finish within {timeout} s: {' '.join(cmd)}")
    if proc.returncode != 0:
        raise AssertionError(f"chromium exited {proc.returncode}: {err[-2000:]}")
    return out


@NEEDS_MATPLOTLIB
@unittest.skipUnless(CHROMIUM, "chromium is missing (apt-get install --no-install-recommends "
                     "chromium; scripts/setup.sh installs it)")
class BrowserTest(unittest.TestCase):
    """The page opened by headless Chromium: it renders (a screenshot that is not blank, with
    the charts' colours in it) and its DOM, after the load event, has every chart decoded and
    the change point listed."""

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="comops-browser-")
        cls.tmp = cls._tmp.name
        data = fixture()
        data["ab"] = AB
        cls.page = track_report.write_report(data, os.path.join(cls.tmp, "report"))
        cls.url = cls.page.resolve().as_uri()

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def test_screenshot_is_a_rendered_page(self):
        from matplotlib import image
        shot = os.path.join(self.tmp, "shot.png")
        run_chromium([f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}",
                      "--hide-scrollbars", self.url], self.tmp)
        with open(shot, "rb") as f:
            self.assertEqual(f.read(8), helpers.PNG_SIGNATURE)
        pixels = image.imread(shot)[:, :, :3]
        self.assertEqual(pixels.shape, (HEIGHT, WIDTH, 3))
        non_white = (pixels < 0.95).any(axis=2).mean()
        self.assertGreater(non_white, 0.02)  # text, tables and charts, not a blank page
        self.assertGreater(pixels.std(), 0.05)
        # the first chart's lines (tab10 blue #1f77b4) were painted: only a chart has that colour
        blue = (abs(pixels - [0x1f / 255, 0x77 / 255, 0xb4 / 255]) < 0.06).all(axis=2).sum()
        self.assertGreater(blue, 100)

    def test_dom_has_every_chart_decoded_and_the_change_point(self):
        dom = run_chromium(["--dump-dom", self.url], self.tmp)
        page = Page(dom)
        self.assertEqual(page.body.get("data-images"), "3")
        self.assertEqual(page.body.get("data-images-loaded"), "3")
        self.assertEqual(page.captions, CHART_TITLES)
        _, *rows = page.tables["changes"]
        self.assertEqual([r[0] for r in rows], [LATEST, STEP_COMMIT])
        self.assertEqual(rows[1][3:6], ["regression", "1 us", "1.1 us"])
        self.assertEqual(page.tables["ab"][1:], AB_ROWS)
        verdicts = [r[-1] for r in page.tables["latest"][1:]]
        self.assertNotIn("no change", verdicts)
        self.assertEqual(verdicts.count("not significant"), 3)


if __name__ == "__main__":
    unittest.main()
