"""Every script that reads comops results (compare.py, plot.py), given a file it cannot use
(empty, truncated, not UTF-8, another tool's JSON, wrong fields or types, a directory, a missing
file): exit status 2 and exactly one line on stderr that names the file and says why, never a
traceback. Run as programs, as each argument position; none of these needs matplotlib."""

import contextlib
import io
import json
import os
import sys
import unittest

import helpers
import synth
from helpers import run_script

import comops_results as cr  # noqa: E402 (helpers puts scripts/ on sys.path)
import compare  # noqa: E402

NOT_COMOPS = "not a comops results file"


def good_doc():
    return {"comops_format": 1, "context": synth.context(),
            "results": [synth.row("mpi", "pingpong", 2, 8, [1.0, 1.1, 0.9])]}


def with_row(**fields):
    """A comops document whose only row has fields replaced (a value None: the field removed)."""
    row = synth.row("mpi", "pingpong", 2, 8, [1.0, 1.1, 0.9])
    for name, value in fields.items():
        if value is None:
            row.pop(name)
        else:
            row[name] = value
    return {"comops_format": 1, "context": {}, "results": [row]}


def as_bytes(doc):
    return json.dumps(doc).encode()


COMPACT = as_bytes(good_doc())
HUGE_INT_LIMITED = hasattr(sys, "set_int_max_str_digits")  # Python >= 3.11
NINES = b"9" * 5000  # an integer of 5000 digits
GBENCH = {"context": {"date": "2026-11-29T23:59:00+00:00", "host_name": "testhost",
                      "executable": "comops", "num_cpus": 2, "library_build_type": "release"},
          "benchmarks": [{"name": "mpi/pingpong/np:2/bytes:8", "run_type": "iteration",
                          "repetitions": 1, "iterations": 1000, "real_time": 1000.0,
                          "cpu_time": 1000.0, "time_unit": "ns"}]}

# (file name, content: bytes, or None for "no file", or "dir" for a directory; the message after
# "FILE: "). Every line a script prints for a bad file is "PROG: error: FILE: MESSAGE".
CASES = [
    # empty and truncated files
    ("empty.json", b"", f"{NOT_COMOPS} (empty file)"),
    ("blank.json", b"\n  \n", f"{NOT_COMOPS} (empty file)"),
    ("cut-one-line.json", COMPACT[: len(COMPACT) // 2],
     f"{NOT_COMOPS} (truncated JSON: it ends at line 1 before its brackets close)"),
    ("cut-line-3.json", b'{\n "comops_format": 1,\n "results": [\n',
     f"{NOT_COMOPS} (truncated JSON: it ends at line 3 before its brackets close)"),
    ("cut-in-string.json", b'{"comops_format": 1, "context": {"host": "te',
     f"{NOT_COMOPS} (truncated JSON: it ends at line 1 before its brackets close)"),
    ("cut-in-character.json", '{"comops_format": 1, "context": {"host": "Zü'.encode()[:-1],
     f"{NOT_COMOPS} (truncated JSON: it ends at line 1 before its brackets close)"),
    ("cut-in-literal.json", b'{"comops_format": 1, "context": {"psi_available": tr',
     f"{NOT_COMOPS} (truncated JSON: it ends at line 1 before its brackets close)"),
    # not text, not JSON
    ("latin1.json", b'{"comops_format": 1, "context": {"host": "Z\xfcrich"}, "results": []}',
     f"{NOT_COMOPS} (not UTF-8 text: byte 0xfc at offset 43)"),
    ("figure.json", helpers.PNG_SIGNATURE + b"\x00\x00\x00\rIHDR",
     f"{NOT_COMOPS} (not UTF-8 text: byte 0x89 at offset 0)"),
    ("results.json.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
     f"{NOT_COMOPS} (not UTF-8 text: byte 0x8b at offset 1)"),
    ("zeros.json", b"\x00" * 16,
     f"{NOT_COMOPS} (invalid JSON at line 1 column 1: Expecting value)"),
    ("text.json", b"not json at all\n",
     f"{NOT_COMOPS} (invalid JSON at line 1 column 1: Expecting value)"),
    ("results.csv", b"backend,op,np,bytes\nmpi,pingpong,2,8\nmpi,ping",  # a CSV cut mid-line
     f"{NOT_COMOPS} (invalid JSON at line 1 column 1: Expecting value)"),
    ("trailing-comma.json", b'{"comops_format": 1, "results": [],}',
     f"{NOT_COMOPS} (invalid JSON at line 1 column 36: Expecting property name enclosed in "
     "double quotes)"),
    ("two-documents.json", b'{"a": 1}\n{"b": 2}\n',
     f"{NOT_COMOPS} (invalid JSON at line 2 column 1: Extra data)"),
    ("nan.json", COMPACT.replace(b'"min": 0.9', b'"min": NaN', 1),
     f"{NOT_COMOPS} (invalid JSON: NaN is not JSON)"),
    ("infinity.json", COMPACT.replace(b'"min": 0.9', b'"min": -Infinity', 1),
     f"{NOT_COMOPS} (invalid JSON: -Infinity is not JSON)"),
    ("deep.json", b"[" * 100000 + b"]" * 100000, f"{NOT_COMOPS} (invalid JSON: nested too deeply)"),
    ("huge-int.json", as_bytes(with_row(bytes=7)).replace(b'"bytes": 7', b'"bytes": ' + NINES),
     f"{NOT_COMOPS} (invalid JSON: Exceeds the limit (4300 digits) for integer string conversion)"
     if HUGE_INT_LIMITED else
     f"{NOT_COMOPS} (results[0].bytes missing or not a non-negative integer)"),
    # JSON of other tools, or of no tool
    ("gbench.json", as_bytes(GBENCH),
     f"{NOT_COMOPS} (a Google Benchmark JSON, for Google Benchmark's compare.py; comops' own "
     "results are in results.json)"),
    ("gbench-compare-dump.json", as_bytes([{"name": "mpi/pingpong/np:2/bytes:8",
                                            "measurements": [{"time": 0.5}]}]),
     f"{NOT_COMOPS} (the top level is an array, not an object)"),
    ("number.json", b"42\n", f"{NOT_COMOPS} (the top level is a number, not an object)"),
    ("string.json", b'"results.json"', f"{NOT_COMOPS} (the top level is a string, not an object)"),
    ("null.json", b"null", f"{NOT_COMOPS} (the top level is null, not an object)"),
    ("package.json", as_bytes({"name": "x", "version": "1.0"}),
     f'{NOT_COMOPS} (no comops_format field; it has "name", "version")'),
    ("many-keys.json", as_bytes({k: 1 for k in "abcdefg"}),
     f'{NOT_COMOPS} (no comops_format field; it has "a", "b", "c", "d", "e", ...)'),
    ("object.json", b"{}", f"{NOT_COMOPS} (no comops_format field; it has no field)"),
    # comops-like, with a wrong field or type
    ("format-2.json", as_bytes(dict(good_doc(), comops_format=2)),
     f"{NOT_COMOPS} (comops_format 2 is not one of 1)"),
    ("format-string.json", as_bytes(dict(good_doc(), comops_format="1")),
     f'{NOT_COMOPS} (comops_format "1" is not one of 1)'),
    ("format-true.json", as_bytes(dict(good_doc(), comops_format=True)),
     f"{NOT_COMOPS} (comops_format true is not one of 1)"),
    ("format-float.json", as_bytes(dict(good_doc(), comops_format=1.0)),
     f"{NOT_COMOPS} (comops_format 1.0 is not one of 1)"),
    ("no-results.json", as_bytes({"comops_format": 1, "context": {}}),
     f"{NOT_COMOPS} (no results list)"),
    ("results-object.json", as_bytes({"comops_format": 1, "results": {"mpi": []}}),
     f"{NOT_COMOPS} (results is an object, not a list)"),
    ("context-list.json", as_bytes(dict(good_doc(), context=[])),
     f"{NOT_COMOPS} (context is not an object)"),
    ("row-string.json", as_bytes({"comops_format": 1, "results": [with_row()["results"][0], "x"]}),
     f"{NOT_COMOPS} (results[1] is not an object)"),
    ("no-backend.json", as_bytes(with_row(backend=None)),
     f"{NOT_COMOPS} (results[0].backend missing or not a string)"),
    ("op-number.json", as_bytes(with_row(op=3)),
     f"{NOT_COMOPS} (results[0].op missing or not a string)"),
    ("np-string.json", as_bytes(with_row(np="2")),
     f"{NOT_COMOPS} (results[0].np missing or not a positive integer)"),
    ("np-float.json", as_bytes(with_row(np=2.0)),
     f"{NOT_COMOPS} (results[0].np missing or not a positive integer)"),
    ("bytes-negative.json", as_bytes(with_row(bytes=-8)),
     f"{NOT_COMOPS} (results[0].bytes missing or not a non-negative integer)"),
    ("bytes-huge.json", as_bytes(with_row(bytes=10 ** 30)),
     f"{NOT_COMOPS} (results[0].bytes missing or not a non-negative integer)"),
    ("time-string.json", as_bytes(with_row(time_us_reps="1.2")),
     f"{NOT_COMOPS} (results[0].time_us_reps is not an object of non-negative numbers)"),
    ("time-negative.json", as_bytes(with_row(time_us={"min": -1.0, "avg": 1.0, "max": 2.0})),
     f"{NOT_COMOPS} (results[0].time_us is not an object of non-negative numbers)"),
    ("reps-null.json", as_bytes(with_row(rep_times_us=[1.0, None])),
     f"{NOT_COMOPS} (results[0].rep_times_us is not a list of non-negative numbers)"),
    ("bw-string.json", as_bytes(with_row(bw_GBps="fast")),
     f"{NOT_COMOPS} (results[0].bw_GBps is not a non-negative number or null)"),
    ("memcpy-list.json", as_bytes(with_row(memcpy_GBps=[5.0])),
     f"{NOT_COMOPS} (results[0].memcpy_GBps is not a non-negative number or null)"),
    ("flag-string.json", as_bytes(with_row(oversubscribed="no")),
     f"{NOT_COMOPS} (results[0].oversubscribed is not true, false or null)"),
    ("tables-string.json", as_bytes(with_row(tables="size")),
     f"{NOT_COMOPS} (results[0].tables is not a list of strings)"),
    ("pair-number.json", as_bytes(with_row(pair=1)),
     f"{NOT_COMOPS} (results[0].pair is not a string)"),
    ("wrong-string.json", as_bytes(with_row(wrong="0")),
     f"{NOT_COMOPS} (results[0].wrong is not a non-negative integer)"),
    # not a file
    ("a-directory.json", "dir", "is a directory, not a comops results file"),
    ("absent.json", None, "no such file"),
]


def make(path, content):
    if content == "dir":
        os.mkdir(path)
    elif content is not None:
        with open(path, "wb") as f:
            f.write(content)


class BadFileTest(helpers.TempDirTest):
    """Each case, through each script and argument position, as a program."""

    def setUp(self):
        super().setUp()
        self.good = synth.write(self.path("good.json"), good_doc())

    def check(self, prog, args_of):
        for name, content, message in CASES:
            with self.subTest(prog=prog, file=name):
                path = self.path(name)
                make(path, content)
                args = args_of(path)
                proc = run_script(prog, *args)
                self.assertNotIn("Traceback", proc.stderr)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(proc.stderr.splitlines(), [f"{prog}: error: {path}: {message}"])
                self.assertEqual(proc.stdout, "")
                self.assertFalse(os.path.exists(self.path("out")))
                self.assertFalse(os.path.exists(self.path("cmp.json")))

    def test_compare_baseline(self):
        self.check("compare.py", lambda bad: [bad, self.good, "--json", self.path("cmp.json")])

    def test_compare_new(self):
        self.check("compare.py", lambda bad: [self.good, bad, "--json", self.path("cmp.json")])

    def test_plot_only_input(self):
        self.check("plot.py", lambda bad: [bad, "-o", self.path("out")])

    def test_plot_later_input(self):
        self.check("plot.py", lambda bad: [self.good, bad, "-o", self.path("out")])

    def test_a_newline_in_the_name_keeps_one_line(self):
        bad = self.path("two\nlines.json")
        make(bad, b"[]")
        for prog, args in (("compare.py", [self.good, bad]), ("plot.py", [bad])):
            proc = run_script(prog, *args)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertEqual(proc.stderr.splitlines(),
                             [f"{prog}: error: {ascii(bad)}: {NOT_COMOPS} (the top level is an "
                              "array, not an object)"])

    def test_the_first_bad_file_is_the_one_reported(self):
        make(self.path("empty.json"), b"")
        proc = run_script("plot.py", self.good, self.path("absent.json"), self.path("empty.json"))
        self.assertEqual(proc.stderr.splitlines(),
                         [f"plot.py: error: {self.path('absent.json')}: no such file"])
        self.assertEqual(proc.returncode, 2)


class MissingMatplotlibTest(helpers.TempDirTest):
    def test_plot_without_matplotlib_exit_3(self):
        # a matplotlib that cannot be imported, first on the path, whatever the interpreter has
        os.mkdir(self.path("matplotlib"))
        with open(self.path("matplotlib", "__init__.py"), "w") as f:
            f.write('raise ImportError("No module named \'matplotlib\' (simulated)")\n')
        good = synth.write(self.path("good.json"), good_doc())
        proc = run_script("plot.py", good, "-o", self.path("out"), env={"PYTHONPATH": self.tmp})
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(), [
            f"plot.py: error: matplotlib is missing for {sys.executable} (No module named "
            "'matplotlib' (simulated)); run it with /usr/bin/python3 (apt-get install "
            "python3-matplotlib)"])
        self.assertFalse(os.path.exists(self.path("out")))


class UsageTest(helpers.TempDirTest):
    def test_bad_options_are_usage_errors(self):
        # argparse's own form: the usage line, then "PROG: error: ...", exit 2
        good = synth.write(self.path("good.json"), good_doc())
        for prog, args, message in (
                ("plot.py", [good, "--np", "0"], "--np must be a positive integer"),
                ("plot.py", [good, "--dpi", "0"], "--dpi must be a positive integer"),
                ("plot.py", [good, "--np-bytes", "1.5K"],
                 "--np-bytes: not a size: '1.5K' (use 8, 800K, 1M)"),
                ("plot.py", [good, "--format", "jpg"], "argument --format: invalid choice: 'jpg' "
                 "(choose from 'png', 'svg', 'pdf')"),
                ("compare.py", [good, good, "--alpha", "1"],
                 "--threshold must be >= 0 and --alpha between 0 and 1"),
                ("compare.py", [good], "the following arguments are required: NEW")):
            with self.subTest(prog=prog, args=args[1:]):
                proc = run_script(prog, *args)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                lines = proc.stderr.splitlines()
                self.assertTrue(lines[0].startswith(f"usage: {prog} "), lines[0])
                self.assertEqual(lines[-1], f"{prog}: error: {message}")
                self.assertNotIn("Traceback", proc.stderr)
                self.assertFalse(os.path.exists(self.path("cmp.json")))


class CasesTest(helpers.TempDirTest):
    def test_every_case_is_refused_by_the_loader_with_its_message(self):
        # in-process, so that a case that stops being refused shows here first
        for name, content, message in CASES:
            with self.subTest(file=name):
                path = self.path(name)
                make(path, content)
                with self.assertRaises(cr.ResultsError) as caught:
                    cr.load(path)
                self.assertEqual(str(caught.exception), f"{path}: {message}")


class OddFieldTest(helpers.TempDirTest):
    """Any value in any field the scripts read: refused with one line, or compared without
    an exception (plot.py: test_plot.OddFieldFigureTest)."""

    ROW_FIELDS = ("backend", "op", "np", "bytes", "pair", "time_us", "time_us_reps",
                  "rep_times_us", "bw_GBps", "rate_GBps", "latency_us", "memcpy_GBps", "wrong",
                  "oversubscribed", "contended", "tables", "iterations", "repetitions", "cores")
    # the context compare.py's header reads as well
    CONTEXT_PATHS = ("host", "options", "limits", "git_sha", "mpi_library", "compiler",
                     "topology", "topology.cpu_model", "topology.cores", "options.sizes_bytes",
                     "options.ops", "limits.memcpy", "limits.cacheline_rtt_us")

    def test_compare_refuses_or_compares(self):
        base = synth.write(self.path("base.json"), good_doc())
        refused = compared = 0
        for what, _, doc in synth.odd_docs(good_doc(), self.ROW_FIELDS, self.CONTEXT_PATHS):
            with self.subTest(what):
                odd = synth.write(self.path("odd.json"), doc)
                for args in ([base, odd], [odd, base], [odd, odd]):
                    out, err = io.StringIO(), io.StringIO()
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                        status = compare.main(args + ["--json", self.path("cmp.json")])
                    lines = err.getvalue().splitlines()
                    if status == 2:
                        self.assertEqual(len(lines), 1, err.getvalue())
                        self.assertRegex(lines[0], rf"^compare\.py: error: (.*odd\.json: "
                                         rf"{NOT_COMOPS} \(results\[0\]\.\w+ |.* have no "
                                         r"point \(backend, op, np, bytes\) in common)")
                        refused += 1
                    elif status == compare.NOTHING_JUDGED:  # odd and odd, both contended
                        self.assertEqual(len(lines), 1, err.getvalue())
                        self.assertTrue(lines[0].startswith("compare.py: nothing could be "
                                                            "judged: "), lines[0])
                        compared += 1
                    else:
                        self.assertIn(status, (0, 1), err.getvalue())
                        compared += 1
        self.assertGreater(refused, 100)
        self.assertGreater(compared, 100)


if __name__ == "__main__":
    unittest.main()
