"""scripts/comops_results.py: validation, merging, headline times and size syntax."""

import codecs
import json
import unittest

import helpers
import synth

import comops_results as cr  # noqa: E402 (helpers puts scripts/ on sys.path)


class LoadTest(helpers.TempDirTest):
    def load_doc(self, doc):
        return cr.load(synth.write(self.path("r.json"), doc))

    def assertRejected(self, doc, reason):
        with self.assertRaises(cr.ResultsError) as caught:
            self.load_doc(doc)
        self.assertEqual(str(caught.exception),
                         f"{self.path('r.json')}: not a comops results file ({reason})")

    def test_loads_rows_by_key(self):
        res = self.load_doc(synth.full_result(ops=("pingpong",)))
        self.assertIn(("mpi", "pingpong", 4, 8), res.rows)
        self.assertEqual(len(res.rows), 3 * (len(synth.SIZES) + 2))
        self.assertEqual(res.points()[0], ("mpi", "pingpong", 2, 819200))

    def test_summary_view_is_ignored(self):
        # comops writes a derived "summary" beside "results" (docs/results_format.md); the
        # loader builds everything from the rows, so the same rows load with or without it.
        doc = synth.full_result(ops=("pingpong",))
        plain = self.load_doc(doc)
        doc["summary"] = [{"op": "pingpong", "table": "size", "np": 2, "backends": ["mpi"],
                           "rows": [{"bytes": 8, "time_us": {"mpi": 1.0}, "flags": {},
                                     "winner": "mpi", "runner_up": None, "margin": None,
                                     "memcpy_us": None}]}]
        with_summary = self.load_doc(doc)
        self.assertEqual(with_summary.rows, plain.rows)
        self.assertEqual(with_summary.context, plain.context)

    def test_synthetic_rows_of_every_op_load(self):
        # The rows the other tests build must satisfy the loader's own rules.
        ops = ("pingpong", "broadcast", "reduce-max", "reduce-sum", "gather", "scatter", "barrier")
        res = self.load_doc(synth.full_result(ops=ops))
        self.assertEqual({p[1] for p in res.points()}, set(ops))
        self.assertEqual([p[1] for p in res.points()][-1], "barrier")

    def test_rejects_what_is_not_a_comops_result(self):
        # the reasons of files (empty, truncated, foreign) are in test_errors.CASES
        good = synth.row("mpi", "pingpong", 2, 8, [1.0])
        self.assertRejected([1, 2], "the top level is an array, not an object")
        self.assertRejected({"results": []}, 'no comops_format field; it has "results"')
        self.assertRejected({"comops_format": "1", "results": []},
                            'comops_format "1" is not one of 1')
        self.assertRejected({"comops_format": 1}, "no results list")
        self.assertRejected({"comops_format": 1, "context": [], "results": []},
                            "context is not an object")
        self.assertRejected({"comops_format": 1, "results": [good, "x"]},
                            "results[1] is not an object")
        for field, value, reason in (
                ("np", 0, "np missing or not a positive integer"),
                ("np", True, "np missing or not a positive integer"),
                ("np", 2 ** 53 + 1, "np missing or not a positive integer"),
                ("bytes", "8", "bytes missing or not a non-negative integer"),
                ("bytes", 8.0, "bytes missing or not a non-negative integer"),
                ("backend", "", "backend missing or not a string"),
                ("op", None, "op missing or not a string"),
                ("rep_times_us", [1, "x"], "rep_times_us is not a list of non-negative numbers"),
                ("rep_times_us", [1, -1], "rep_times_us is not a list of non-negative numbers"),
                ("time_us_reps", 3, "time_us_reps is not an object of non-negative numbers"),
                ("time_us", {"max": True}, "time_us is not an object of non-negative numbers"),
                ("percentiles_us", [1.0, 2.0],
                 "percentiles_us is not an object of non-negative numbers"),
                ("percentiles_us", {"p50": -1.0, "max": 2.0},
                 "percentiles_us is not an object of non-negative numbers"),
                ("percentiles_us", {"p50": "1"},
                 "percentiles_us is not an object of non-negative numbers"),
                ("rate_GBps", -0.5, "rate_GBps is not a non-negative number or null"),
                ("latency_us", "1", "latency_us is not a non-negative number or null"),
                ("cpu_stall_us", {}, "cpu_stall_us is not a non-negative number or null"),
                ("cpu_stall_window_us", -1.0,
                 "cpu_stall_window_us is not a non-negative number or null"),
                ("cpu_steal_us", -3, "cpu_steal_us is not a non-negative number or null"),
                ("cpu_steal_window_us", "9",
                 "cpu_steal_window_us is not a non-negative number or null"),
                ("contended", 1, "contended is not true, false or null"),
                ("tables", ["size", 1], "tables is not a list of strings"),
                ("pair", ["inter"], "pair is not a string"),
                ("wrong", -1, "wrong is not a non-negative integer"),
                ("wrong", 1.0, "wrong is not a non-negative integer"),
                ("aggregate_GBps", "2", "aggregate_GBps is not a non-negative number or null"),
                ("beyond_limit", True, "beyond_limit is not a string or null"),
                ("beyond_limit", ["x"], "beyond_limit is not a string or null")):
            with self.subTest(field=field, value=value):
                self.assertRejected(
                    {"comops_format": 1, "results": [dict(good, **{field: value})]},
                    f"results[0].{reason}")

    def test_unknown_top_level_keys_are_ignored(self):
        # comops may add derived views beside "results" (a "summary"); readers skip them
        doc = dict(synth.full_result(ops=("pingpong",)), summary={"pingpong": []}, extra=[1])
        self.assertEqual(self.load_doc(doc).rows,
                         self.load_doc(synth.full_result(ops=("pingpong",))).rows)

    def test_accepts_null_and_absent_optional_fields(self):
        good = synth.row("mpi", "barrier", 2, 0, [1.0])
        optional = ("time_us", "time_us_reps", "rep_times_us", "bw_GBps", "rate_GBps",
                    "latency_us", "memcpy_GBps", "cpu_stall_us", "cpu_stall_window_us",
                    "cpu_steal_us", "cpu_steal_window_us", "oversubscribed", "contended", "wrong", "tables", "pair", "aggregate_GBps",
                    "beyond_limit", "percentiles_us")
        for field in optional:
            with self.subTest(field=field):
                row = dict(good, **{field: None})
                self.assertEqual(self.load_doc({"comops_format": 1, "results": [row]}).rows,
                                 {("mpi", "barrier", 2, 0): row})
                row.pop(field)
                self.assertEqual(len(self.load_doc({"comops_format": 1, "results": [row]}).rows),
                                 1)

    def test_accepts_percentiles_as_comops_writes_them(self):
        # --sync=barrier or --percentiles: per-call percentiles in us (docs/results_format.md)
        row = dict(synth.row("mpi", "reduce-max", 2, 8, [1.0, 1.5]),
                   percentiles_us={"p50": 1.2, "p90": 1.9, "p99": 4.0, "max": 31.5})
        rows = self.load_doc({"comops_format": 1, "results": [row]}).rows
        self.assertEqual(rows[("mpi", "reduce-max", 2, 8)]["percentiles_us"],
                         {"p50": 1.2, "p90": 1.9, "p99": 4.0, "max": 31.5})

    def test_every_cut_of_a_file_is_truncated_json(self):
        # A results file cut at any byte (a copy interrupted, a disk full) is refused as
        # truncated: inside a key, a string, a \u escape, a multi-byte character, a number, a
        # literal, between tokens.
        doc = {"comops_format": 1, "context": synth.context(host="Zürich \"\u00e9\\", psi=None),
               "results": [synth.row("mpi", "pingpong", 2, 8, [1.5e-3, 2.0, 0.25]),
                           synth.row("shm-staged", "barrier", 4, 0, [3.0], tables=("np",))]}
        for indent in (None, 1):
            for ensure_ascii in (True, False):
                data = json.dumps(doc, indent=indent, ensure_ascii=ensure_ascii).encode()
                for cut in range(1, len(data)):
                    if not data[:cut].strip():
                        continue
                    with self.subTest(indent=indent, ascii=ensure_ascii, cut=cut):
                        with open(self.path("r.json"), "wb") as f:
                            f.write(data[:cut])
                        with self.assertRaises(cr.ResultsError) as caught:
                            cr.load(self.path("r.json"))
                        self.assertIn("(truncated JSON: it ends at line ", str(caught.exception))

    def test_utf8_byte_order_mark_is_accepted(self):
        data = json.dumps(synth.full_result(ops=("pingpong",))).encode("utf-8-sig")
        with open(self.path("r.json"), "wb") as f:
            f.write(data)
        self.assertEqual(len(cr.load(self.path("r.json")).rows), 3 * (len(synth.SIZES) + 2))
        with open(self.path("r.json"), "wb") as f:
            f.write(codecs.BOM_UTF8 + b'{"host": "\xff"}')
        with self.assertRaises(cr.ResultsError) as caught:
            cr.load(self.path("r.json"))
        self.assertEqual(str(caught.exception), f"{self.path('r.json')}: not a comops results "
                         "file (not UTF-8 text: byte 0xff at offset 13)")

    def test_merge_later_wins_and_merges_limits(self):
        a = synth.full_result(ops=("pingpong",))
        b = {"comops_format": 1,
             "context": synth.context(host="other", options={"np_bytes": 65536},
                                      limits={"cacheline_rtt_us": 0.3,
                                              "cacheline_rtt_us_range": [0.2, 0.4],
                                              "memcpy": [{"bytes": 8, "bw_GBps": 99.0},
                                                         {"bytes": 3, "bw_GBps": 1.0}],
                                              "aggregate_memcpy": [
                                                  {"bytes": 8, "bw_GBps": 150.0,
                                                   "bw_GBps_range": [140.0, 160.0],
                                                   "threads": 2}]}),
             "results": [synth.row("mpi", "pingpong", 4, 8, [42.0]),
                         synth.row("mpi", "pingpong", 4, 24, [43.0])]}
        notes = []
        res = cr.load_all([synth.write(self.path("a.json"), a),
                           synth.write(self.path("b.json"), b)], notes.append)
        self.assertEqual(cr.headline_us(res.rows[("mpi", "pingpong", 4, 8)]), 42.0)
        self.assertEqual(len(res.rows), len(a["results"]) + 1)
        self.assertEqual(notes, ["merging results from different hosts: other, testhost",
                                 f"mpi/pingpong/np:4/bytes:8: {self.path('b.json')} replaces "
                                 "the earlier row"])
        self.assertEqual(res.options()["np_bytes"], 65536)
        self.assertEqual(res.limits()["cacheline_rtt_us"], 0.3)
        self.assertEqual(res.limits()["cacheline_rtt_us_range"], [0.2, 0.4])  # with its median
        self.assertEqual(res.limits()["aggregate_memcpy"],
                         [{"bytes": 8, "bw_GBps": 150.0, "bw_GBps_range": [140.0, 160.0],
                           "threads": 2}])
        memcpy = res.memcpy_GBps()
        self.assertEqual(memcpy[8], 99.0)
        self.assertEqual(memcpy[3], 1.0)
        self.assertEqual(sorted(memcpy), sorted(set(synth.SIZES) | {3}))
        self.assertEqual(res.context["host"], "testhost")  # the first file's context

    def test_merge_labels_mpi_rows_of_different_libraries(self):
        rows = [synth.row(b, "pingpong", 2, 8, [t]) for b, t in
                (("mpi", 1.0), ("swcc-64", 3.0), ("shm-staged", 0.5))]
        inter = dict(synth.row("mpi", "pingpong", 2, 8, [5.0]), pair="inter")
        mpich = {"comops_format": 1, "results": rows + [inter], "context": synth.context(
            mpi_library="MPICH Version: 4.0.2 MPICH Device: ch4:ucx")}
        ompi = {"comops_format": 1, "results": [synth.row(r["backend"], "pingpong", 2, 8,
                                                          [2 * r["rep_times_us"][0]])
                                                for r in rows], "context": synth.context(
            mpi_library="Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4")}
        notes = []
        res = cr.load_all([synth.write(self.path("a.json"), mpich),
                           synth.write(self.path("b.json"), ompi)], notes.append)
        self.assertEqual(sorted(res.rows), [
            ("mpi [MPICH 4.0.2 (ch4:ucx)]", "pingpong", 2, 8),
            ("mpi [Open MPI 4.1.4]", "pingpong", 2, 8),
            ("mpi inter [MPICH 4.0.2 (ch4:ucx)]", "pingpong", 2, 8),
            ("shm-staged", "pingpong", 2, 8),
            ("swcc-64 [MPICH 4.0.2 (ch4:ucx)]", "pingpong", 2, 8),
            ("swcc-64 [Open MPI 4.1.4]", "pingpong", 2, 8)])
        self.assertEqual(res.libraries, ["MPICH 4.0.2 (ch4:ucx)", "Open MPI 4.1.4"])
        self.assertEqual(cr.headline_us(res.rows[("mpi [Open MPI 4.1.4]", "pingpong", 2, 8)]),
                         2.0)
        self.assertEqual(cr.headline_us(res.rows[("mpi [MPICH 4.0.2 (ch4:ucx)]", "pingpong", 2,
                                                  8)]), 1.0)
        self.assertEqual(notes, [
            "the files come from 2 MPI libraries (MPICH 4.0.2 (ch4:ucx), Open MPI 4.1.4): the "
            "rows of mpi and swcc are labelled with theirs",
            f"shm-staged/pingpong/np:2/bytes:8: {self.path('b.json')} replaces the earlier row"])
        # the rows as the files have them: the label is the loader's, in key() only
        self.assertEqual(res.rows[("mpi [Open MPI 4.1.4]", "pingpong", 2, 8)]["backend"], "mpi")
        self.assertEqual(
            [cr.key_name(p) for p in res.points()],
            ["mpi [MPICH 4.0.2 (ch4:ucx)]/pingpong/np:2/bytes:8",
             "mpi [MPICH 4.0.2 (ch4:ucx)]/pingpong/np:2/bytes:8/pair:inter",
             "mpi [Open MPI 4.1.4]/pingpong/np:2/bytes:8", "shm-staged/pingpong/np:2/bytes:8",
             "swcc-64 [MPICH 4.0.2 (ch4:ucx)]/pingpong/np:2/bytes:8",
             "swcc-64 [Open MPI 4.1.4]/pingpong/np:2/bytes:8"])

    def test_merge_of_one_library_keeps_labels(self):
        a = {"comops_format": 1, "context": synth.context(),
             "results": [synth.row("mpi", "pingpong", 2, 8, [1.0])]}
        no_library = {"comops_format": 1, "context": synth.context(mpi_library=None),
                      "results": [synth.row("mpi", "pingpong", 2, 64, [1.0])]}
        notes = []
        res = cr.load_all([synth.write(self.path("a.json"), a),
                           synth.write(self.path("b.json"), a),
                           synth.write(self.path("c.json"), no_library)], notes.append)
        self.assertEqual(sorted(res.rows), [("mpi", "pingpong", 2, 8), ("mpi", "pingpong", 2, 64)])
        self.assertEqual(res.libraries, ["MPICH 4.0.2"])
        self.assertEqual(notes, [f"mpi/pingpong/np:2/bytes:8: {self.path('b.json')} replaces "
                                 "the earlier row"])

    def test_limits_with_ranges_and_the_aggregate_copy(self):
        ctx = synth.context(limits=synth.ranged_limits({8: 2.0, 64: 4.0}, {8: 4.0, 64: 16.0},
                                                       threads=4))
        res = self.load_doc({"comops_format": 1, "context": ctx, "results": []})
        self.assertEqual(res.memcpy_limits(), {8: (2.0, (1.5, 2.5)), 64: (4.0, (3.0, 5.0))})
        self.assertEqual(res.memcpy_limits("aggregate_memcpy"),
                         {8: (4.0, (3.0, 5.0)), 64: (16.0, (12.0, 20.0))})
        self.assertEqual(res.aggregate_threads(), 4)
        self.assertEqual(res.cacheline_rtt_us(), (0.5, (0.25, 1.0)))
        self.assertEqual(res.memcpy_GBps(), {8: 2.0, 64: 4.0})
        # files written before the ranges: no range, no aggregate copy
        old = self.load_doc(synth.full_result(ops=("pingpong",)))
        self.assertEqual(old.memcpy_limits()[8], (min(20.0, 0.4 * 8 ** 0.5), None))
        self.assertEqual(old.memcpy_limits("aggregate_memcpy"), {})
        self.assertIsNone(old.aggregate_threads())
        self.assertEqual(old.cacheline_rtt_us(), (0.48, None))
        # odd ranges are no ranges
        for bad in ([1.0], [2.0, 1.0], [-1.0, 1.0], ["0", 1], None, {}):
            self.assertIsNone(cr.number_range(bad), bad)

    def test_merge_takes_later_ranges_and_aggregate_copy(self):
        a = synth.full_result(ops=("pingpong",))
        b = {"comops_format": 1, "results": [],
             "context": synth.context(limits=synth.ranged_limits({8: 99.0}, {8: 198.0},
                                                                 rtt=0.3, rtt_range=(0.2, 0.4)))}
        res = cr.load_all([synth.write(self.path("a.json"), a),
                           synth.write(self.path("b.json"), b)])
        self.assertEqual(res.cacheline_rtt_us(), (0.3, (0.2, 0.4)))
        self.assertEqual(res.memcpy_limits()[8], (99.0, (74.25, 123.75)))
        self.assertEqual(res.memcpy_limits()[16], (1.6, None))  # the first file's
        self.assertEqual(res.memcpy_limits("aggregate_memcpy"), {8: (198.0, (148.5, 247.5))})
        self.assertEqual(res.aggregate_threads(), 2)


class RowTest(unittest.TestCase):
    def test_headline_spread_samples(self):
        row = synth.row("mpi", "broadcast", 4, 8, [3.0, 1.0, 2.0, 4.0])
        self.assertEqual(cr.headline_us(row), 2.5)
        self.assertEqual(cr.spread_us(row), (1.0, 4.0))
        self.assertEqual(cr.samples_us(row), [3.0, 1.0, 2.0, 4.0])
        bare = {"backend": "mpi", "op": "broadcast", "np": 4, "bytes": 8,
                "time_us": {"min": 1.0, "avg": 2.0, "max": 3.0}}
        self.assertEqual(cr.headline_us(bare), 3.0)
        self.assertIsNone(cr.spread_us(bare))
        only_reps = dict(bare, time_us=None, rep_times_us=[5.0, 1.0, 3.0])
        self.assertEqual(cr.headline_us(only_reps), 3.0)
        self.assertEqual(cr.spread_us(only_reps), (1.0, 5.0))
        self.assertIsNone(cr.headline_us(dict(bare, time_us=None)))

    def test_flagged(self):
        row = synth.row("mpi", "broadcast", 4, 8, [1.0])
        self.assertFalse(cr.flagged(row))
        self.assertTrue(cr.flagged(dict(row, oversubscribed=True)))
        self.assertTrue(cr.flagged(dict(row, contended=True)))

    def test_sizes(self):
        self.assertEqual(cr.parse_bytes("800K"), 819200)
        self.assertEqual(cr.parse_bytes("1m"), 1048576)
        self.assertEqual(cr.parse_bytes("2GB"), 2 * 1024 ** 3)
        self.assertEqual(cr.parse_bytes("64"), 64)
        for bad in ("", "K", "1.5K", "-8", "8X"):
            with self.assertRaises(ValueError):
                cr.parse_bytes(bad)
        self.assertEqual([cr.format_bytes(n) for n in (0, 8, 1000, 1024, 819200, 1048576)],
                         ["0", "8", "1000", "1K", "800K", "1M"])
        self.assertEqual(cr.key_name(("swcc-64", "reduce-max", 4, 1024)),
                         "swcc-64/reduce-max/np:4/bytes:1024")
        self.assertEqual([cr.human_bytes(n) for n in (0, 8, 1000, 1024, 1536, 65536, 819200,
                                                      1048576, 3 * 1024 ** 3)],
                         ["0 B", "8 B", "1000 B", "1 KiB", "1536 B", "64 KiB", "800 KiB",
                          "1 MiB", "3 GiB"])

    def test_backend_order_sorts_variants_by_number(self):
        labels = ["swcc-sc", "swcc-4096", "shm-staged", "mpi inter", "swcc-64", "swcc-8", "mpi",
                  "shm-direct", "swcc"]
        self.assertEqual(sorted(labels, key=cr.backend_order),
                         ["mpi", "mpi inter", "shm-direct", "shm-staged", "swcc", "swcc-8",
                          "swcc-64", "swcc-4096", "swcc-sc"])
        self.assertEqual([cr.backend_family(b) for b in ("mpi inter", "shm-staged", "swcc-64")],
                         ["mpi", "shm", "swcc"])
        points = [("swcc-64", "pingpong", 2, 8), ("swcc-8", "pingpong", 2, 8),
                  ("mpi", "broadcast", 2, 8)]
        self.assertEqual(sorted(points, key=cr.sort_key), [points[1], points[0], points[2]])

    def test_labels_with_a_library(self):
        self.assertEqual(cr.split_label("mpi inter [Open MPI 4.1.4]"),
                         ("mpi", True, "Open MPI 4.1.4"))
        self.assertEqual(cr.split_label("swcc-64 [MPICH 4.0.2 (ch4:ucx)]"),
                         ("swcc-64", False, "MPICH 4.0.2 (ch4:ucx)"))
        self.assertEqual(cr.split_label("mpi inter"), ("mpi", True, ""))
        self.assertEqual(cr.split_label("shm-direct"), ("shm-direct", False, ""))
        labels = ["swcc-64 [Open MPI 4.1.4]", "mpi inter [Open MPI 4.1.4]", "swcc-8",
                  "mpi [Open MPI 4.1.4]", "swcc-64 [MPICH 4.0.2]", "mpi inter [MPICH 4.0.2]",
                  "mpi [MPICH 4.0.2]", "shm-staged"]
        self.assertEqual(sorted(labels, key=cr.backend_order), [
            "mpi [MPICH 4.0.2]", "mpi inter [MPICH 4.0.2]", "mpi [Open MPI 4.1.4]",
            "mpi inter [Open MPI 4.1.4]", "shm-staged", "swcc-8", "swcc-64 [MPICH 4.0.2]",
            "swcc-64 [Open MPI 4.1.4]"])
        self.assertEqual([cr.backend_family(b) for b in labels[:2]], ["swcc", "mpi"])
        labelled = dict(synth.row("mpi", "pingpong", 2, 8, [1.0]), pair="inter",
                        **{cr.LIBRARY_FIELD: "Open MPI 4.1.4"})
        self.assertEqual(cr.key(labelled), ("mpi inter [Open MPI 4.1.4]", "pingpong", 2, 8))

    def test_short_mpi_library(self):
        mpich = ("MPICH Version:      4.0.2\nMPICH Release date: Thu Apr  7 12:34:45 CDT 2022\n"
                 "MPICH ABI:          14:2:2\nMPICH Device:       ch4:ucx\nMPICH configure: "
                 "--build=x86_64-linux-gnu --prefix=/usr\n")
        cases = [(mpich, "MPICH 4.0.2 (ch4:ucx)"),
                 (" ".join(mpich.split()), "MPICH 4.0.2 (ch4:ucx)"),  # as a one-line string
                 ("MPICH Version: 4.0.2", "MPICH 4.0.2"),
                 ("MVAPICH2 Version      :\t2.3.7\nMVAPICH2 Release date :\tWed March 02 2022\n"
                  "MVAPICH2 Device       :\tch3:mrail\n", "MVAPICH2 2.3.7 (ch3:mrail)"),
                 ("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, "
                  "May 26, 2022", "Open MPI 4.1.4"),
                 ("Intel(R) MPI Library 2021.10 for Linux* OS\n", "Intel(R) MPI Library 2021.10"),
                 ("Some MPI 1.0\nsecond line", "Some MPI 1.0"),
                 ("An MPI whose version text is one long line without any structure at all",
                  "An MPI whose version text is one long..."),
                 ("An MPI whose version text is one longer line without any structure",
                  "An MPI whose version text is one..."),
                 ("", ""), (None, "")]
        for text, short in cases:
            self.assertEqual(cr.short_mpi_library(text), short, text)

    def test_inter_node_pairs_are_their_own_points(self):
        intra = dict(synth.row("mpi", "pingpong", 2, 8, [1.0]), pair="intra")
        inter = dict(intra, pair="inter")
        self.assertEqual(cr.key(intra), ("mpi", "pingpong", 2, 8))
        self.assertEqual(cr.key(inter), ("mpi inter", "pingpong", 2, 8))
        self.assertEqual(cr.key(synth.row("mpi", "pingpong", 2, 8, [1.0])), cr.key(intra))
        # The same name comops gives the row in its gbench JSON.
        self.assertEqual(cr.key_name(cr.key(inter)), "mpi/pingpong/np:2/bytes:8/pair:inter")
        self.assertEqual(cr.key_name(cr.key(intra)), "mpi/pingpong/np:2/bytes:8")



if __name__ == "__main__":
    unittest.main()
