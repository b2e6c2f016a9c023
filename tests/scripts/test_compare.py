"""scripts/compare.py: verdicts, exit codes and messages on synthetic comops results."""

import importlib.util
import json
import random
import unittest

import helpers
import synth
from helpers import run_script

import compare  # noqa: E402 (helpers puts scripts/ on sys.path)

BASE_REPS = [10.0, 10.2, 9.9, 10.1, 9.8]


def doc(rows):
    return {"comops_format": 1, "context": synth.context(), "results": rows}


def points(reps_by_bytes, extra=None):
    """mpi/pingpong rows at np 2, one per size in reps_by_bytes, each with its repetition times;
    extra: {bytes: {row keyword: value}}."""
    return [synth.row("mpi", "pingpong", 2, nbytes, reps, **(extra or {}).get(nbytes, {}))
            for nbytes, reps in reps_by_bytes.items()]


def table_of(stdout):
    """The comparison table's rows (after its "op backend ..." header), split on spaces."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["op", "backend"])
    rows = []
    for line in lines[start + 1:]:
        if not line:
            break
        rows.append(line.split())
    return rows


class CompareTest(helpers.TempDirTest):
    def write_pair(self, base_rows, new_rows):
        return (synth.write(self.path("base.json"), doc(base_rows)),
                synth.write(self.path("new.json"), doc(new_rows)))

    def compare(self, base_rows, new_rows, *args):
        base, new = self.write_pair(base_rows, new_rows)
        out = self.path("cmp.json")
        proc = run_script("compare.py", base, new, "--json", out, *args)
        verdicts = {}
        if proc.returncode in (0, 1, compare.NOTHING_JUDGED):
            with open(out) as f:
                report = json.load(f)
            verdicts = {p["point"]: p["verdict"] for p in report["points"]}
            self.report = report
        return proc, verdicts

    def test_flags_2x_slowdown(self):
        base = points({8: BASE_REPS, 64: BASE_REPS, 1024: BASE_REPS})
        new = points({8: BASE_REPS, 64: [2 * t for t in BASE_REPS], 1024: BASE_REPS})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same",
                                    "mpi/pingpong/np:2/bytes:64": "slower",
                                    "mpi/pingpong/np:2/bytes:1024": "same"})
        # the slower point first, then the others (ratio 1.000, in point order)
        self.assertEqual(table_of(proc.stdout), [
            ["pingpong", "mpi", "2", "64", "B", "10.000", "20.000", "2.000", "0.0079", "U",
             "slower"],
            ["pingpong", "mpi", "2", "8", "B", "10.000", "10.000", "1.000", "1.0000", "U", "same"],
            ["pingpong", "mpi", "2", "1", "KiB", "10.000", "10.000", "1.000", "1.0000", "U",
             "same"]])
        self.assertEqual(proc.stderr, "compare.py: REGRESSION: 1 point(s) significantly slower "
                         "than +20%\n")
        self.assertEqual(self.report["exit_status"], 1)

    def test_change_within_noise_passes(self):
        base = points({8: BASE_REPS, 64: BASE_REPS})
        new = points({8: [9.9, 10.3, 10.0, 9.7, 10.2], 64: [10.5, 10.1, 9.9, 10.4, 10.0]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(set(verdicts.values()), {"same"})
        self.assertEqual(proc.stderr, "")

    def test_large_but_insignificant_change_is_noisy(self):
        base = points({8: [10, 12, 14, 16, 18]})
        new = points({8: [13, 15, 18, 19, 21]})  # median ratio 18 / 14 = 1.29, overlapping
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "noisy"})
        self.assertGreaterEqual(self.report["points"][0]["p_value"], 0.05)

    def test_speedup_is_faster_and_passes(self):
        base = points({8: BASE_REPS})
        new = points({8: [t / 2 for t in BASE_REPS]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "faster"})

    def test_slowdown_below_threshold_passes(self):
        base = points({8: BASE_REPS})
        new = points({8: [1.1 * t for t in BASE_REPS]})  # significant, but only 10 %
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same"})
        proc, verdicts = self.compare(base, new, "--threshold", "0.05")
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "slower"})

    def test_report_only_exits_0_on_slowdown(self):
        base = points({8: BASE_REPS})
        new = points({8: [2 * t for t in BASE_REPS]})
        proc, verdicts = self.compare(base, new, "--report-only")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "slower"})
        self.assertIn("slower", proc.stdout)
        self.assertIn("--report-only", proc.stderr)

    def test_range_rule_with_few_repetitions(self):
        # 3 against 3 repetitions: the U test cannot reach p < 0.05, the range rule decides.
        base = points({8: [10, 11, 12], 64: [10, 11, 12], 1024: [10]})
        new = points({8: [20, 21, 22], 64: [11.5, 15, 16], 1024: [25]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "slower",
                                    "mpi/pingpong/np:2/bytes:64": "noisy",
                                    "mpi/pingpong/np:2/bytes:1024": "slower"})
        self.assertEqual({p["test"] for p in self.report["points"]}, {"range"})
        self.assertEqual({p["p_value"] for p in self.report["points"]}, {None})

    def test_points_in_one_file_are_counted_not_failed(self):
        base = points({8: BASE_REPS, 64: BASE_REPS, 128: BASE_REPS})
        new = points({8: BASE_REPS, 1024: [5 * t for t in BASE_REPS]})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same"})
        self.assertIn("\nnot compared: 2 point(s) only in baseline, 1 only in new "
                      "(--list-unmatched lists them)\n", proc.stdout)
        self.assertNotIn("128 B", proc.stdout)
        self.assertEqual(self.report["only_in_baseline"], ["mpi/pingpong/np:2/bytes:64",
                                                           "mpi/pingpong/np:2/bytes:128"])
        self.assertEqual(self.report["only_in_new"], ["mpi/pingpong/np:2/bytes:1024"])

    def test_list_unmatched_lists_them(self):
        base = points({8: BASE_REPS, 64: BASE_REPS, 128: BASE_REPS})
        new = points({8: BASE_REPS, 1024: [5 * t for t in BASE_REPS]})
        proc, _ = self.compare(base, new, "--list-unmatched")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("\nonly in baseline (2, not compared):\n  pingpong mpi np 2 64 B\n"
                      "  pingpong mpi np 2 128 B\n\nonly in new (1, not compared):\n"
                      "  pingpong mpi np 2 1 KiB\n", proc.stdout)
        self.assertNotIn("not compared: 2 point(s)", proc.stdout)

    def test_rows_sorted_by_verdict_then_ratio(self):
        sizes = (8, 16, 32, 64, 128, 256, 512)
        factor = {8: 1.0, 16: 3.0, 32: 0.25, 64: 1.5, 128: 0.5, 256: 1.05, 512: 1.0}
        base = points({n: BASE_REPS for n in sizes})
        new_reps = {n: [factor[n] * t for t in BASE_REPS] for n in sizes}
        new_reps[512] = [13, 15, 18, 19, 21]  # past the threshold, not significant: noisy
        base[-1] = synth.row("mpi", "pingpong", 2, 512, [10, 12, 14, 16, 18])
        proc, verdicts = self.compare(base, points(new_reps))
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        rows = table_of(proc.stdout)
        self.assertEqual([(r[3] + " " + r[4], r[7], r[-1]) for r in rows], [
            ("16 B", "3.000", "slower"), ("64 B", "1.500", "slower"),
            ("32 B", "0.250", "faster"), ("128 B", "0.500", "faster"),
            ("512 B", "1.286", "noisy"),
            ("256 B", "1.050", "same"), ("8 B", "1.000", "same")])
        self.assertEqual([p["verdict"] for p in self.report["points"]],
                         ["slower", "slower", "faster", "faster", "noisy", "same", "same"])
        self.assertIn("\n7 points compared: 2 slower, 2 faster, 1 noisy, 2 same\n", proc.stdout)

    def test_sizes_are_human(self):
        sizes = (8, 1000, 1024, 65536, 819200, 1048576)
        proc, _ = self.compare(points({n: BASE_REPS for n in sizes}),
                               points({n: BASE_REPS for n in sizes}))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual([" ".join(r[3:5]) for r in table_of(proc.stdout)],
                         ["8 B", "1000 B", "1 KiB", "64 KiB", "800 KiB", "1 MiB"])
        self.assertNotIn("bytes:", proc.stdout)

    def filtered_pair(self):
        rows = [synth.row(b, op, 2, 8, BASE_REPS) for b in ("mpi", "shm-staged", "shm-direct",
                                                             "swcc-64")
                for op in ("pingpong", "broadcast", "gather")]
        return rows, [dict(r) for r in rows]

    def test_op_and_backend_filters(self):
        base, new = self.filtered_pair()
        proc, verdicts = self.compare(base, new, "--op", "pingpong,gather", "--backend", "shm")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(sorted(verdicts), [
            "shm-direct/gather/np:2/bytes:8", "shm-direct/pingpong/np:2/bytes:8",
            "shm-staged/gather/np:2/bytes:8", "shm-staged/pingpong/np:2/bytes:8"])
        self.assertIn("threshold 20% slower, alpha 0.05, --op pingpong,gather, --backend shm\n",
                      proc.stdout)
        self.assertNotIn("not compared", proc.stdout)  # the others are filtered, not unmatched
        self.assertEqual(self.report["ops"], ["pingpong", "gather"])
        self.assertEqual(self.report["backends"], ["shm-direct", "shm-staged"])
        proc, verdicts = self.compare(base, new, "--backend", "mpi,swcc-64", "--op", "broadcast")
        self.assertEqual(sorted(verdicts), ["mpi/broadcast/np:2/bytes:8",
                                            "swcc-64/broadcast/np:2/bytes:8"])

    def test_mpi_variants_are_backends_of_the_mpi_family(self):
        # --mpi-variant rows (mpi-NAME) are points of their own, matched by label; --backend
        # takes a variant's label, or the family mpi with every variant.
        labels = ("mpi", "mpi-nocma", "mpi-cma", "shm-direct")
        base = [synth.row(b, "pingpong", 2, 8, BASE_REPS) for b in labels]
        new = [synth.row(b, "pingpong", 2, 8, [2 * t for t in BASE_REPS]
                         if b == "mpi-nocma" else BASE_REPS) for b in labels]
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts["mpi-nocma/pingpong/np:2/bytes:8"], "slower")
        self.assertEqual(verdicts["mpi-cma/pingpong/np:2/bytes:8"], "same")
        self.assertEqual(verdicts["mpi/pingpong/np:2/bytes:8"], "same")
        self.assertEqual(self.report["points"][0]["point"], "mpi-nocma/pingpong/np:2/bytes:8")
        proc, verdicts = self.compare(base, new, "--backend", "mpi-cma")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(sorted(verdicts), ["mpi-cma/pingpong/np:2/bytes:8"])
        proc, verdicts = self.compare(base, new, "--backend", "mpi")
        self.assertEqual(sorted(verdicts), ["mpi-cma/pingpong/np:2/bytes:8",
                                            "mpi-nocma/pingpong/np:2/bytes:8",
                                            "mpi/pingpong/np:2/bytes:8"])

    def test_unknown_op_or_backend_exit_2(self):
        base, new = self.write_pair(*self.filtered_pair())
        for option, value, message in (
                ("--op", "pingpong,bcast", "--op: unknown op 'bcast' (the files have pingpong, "
                 "broadcast, gather)"),
                ("--backend", "swcc-8", "--backend: unknown backend 'swcc-8' (the files have "
                 "mpi, shm-direct, shm-staged, swcc-64)")):
            proc = run_script("compare.py", base, new, option, value)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertEqual(proc.stderr, f"compare.py: error: {message}\n")
            self.assertEqual(proc.stdout, "")

    def test_filter_without_common_points_exit_2(self):
        base, new = self.write_pair(points({8: BASE_REPS}), [
            synth.row("shm-staged", "pingpong", 2, 8, BASE_REPS)])
        proc = run_script("compare.py", base, new, "--backend", "shm")
        self.assertOneLineError(proc, f"compare.py: error: {base} and {new} have no point "
                                "(backend, op, np, bytes) of the chosen ops and backends in "
                                "common (0 and 1 points)")

    def test_contended_in_both_runs_is_its_own_verdict(self):
        slow = [2 * t for t in BASE_REPS]
        base = points({8: BASE_REPS, 64: BASE_REPS, 128: BASE_REPS},
                      extra={8: {"contended": True}, 64: {"contended": True}})
        new = points({8: slow, 64: slow, 128: BASE_REPS},
                     extra={8: {"contended": True}, 128: {"contended": True}})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)  # 64 B: slower
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "contended",
                                    "mpi/pingpong/np:2/bytes:64": "slower",
                                    "mpi/pingpong/np:2/bytes:128": "same"})
        self.assertEqual(table_of(proc.stdout), [
            ["pingpong", "mpi", "2", "64", "B", "10.000", "20.000", "2.000", "0.0079", "U",
             "slower", "(C", "baseline)"],
            ["pingpong", "mpi", "2", "8", "B", "10.000", "20.000", "2.000", "0.0079", "U",
             "contended"],
            ["pingpong", "mpi", "2", "128", "B", "10.000", "10.000", "1.000", "1.0000", "U", "same",
             "(C", "new)"]])
        self.assertIn("\n1 point(s) contended in both runs (CPU stall > 5 %): verdict contended,\n"
                      "not judged slower or faster (their times are not trustworthy)\n",
                      proc.stdout)
        self.assertIn("\n2 point(s) contended in one run only, marked (C baseline) or (C new): "
                      "their verdicts\nstand, but a busy machine may explain them\n", proc.stdout)
        self.assertIn("\n3 points compared: 1 slower, 0 faster, 0 noisy, 1 contended, 1 same\n",
                      proc.stdout)
        self.assertEqual(self.report["counts"]["contended"], 1)
        self.assertEqual([p["contended_in"] for p in self.report["points"]],
                         ["baseline", "both", "new"])

    def test_nothing_judged_when_every_point_is_contended_in_both(self):
        slow = [1.5 * t for t in BASE_REPS]
        both = {8: {"contended": True}, 64: {"contended": True}}
        base, new = (points({8: BASE_REPS, 64: BASE_REPS}, extra=both),
                     points({8: slow, 64: slow}, extra=both))
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, compare.NOTHING_JUDGED, proc.stdout + proc.stderr)
        self.assertEqual(compare.NOTHING_JUDGED, 4)
        self.assertEqual(proc.stderr, "compare.py: nothing could be judged: 2 of 2 points "
                         "contended in both runs, the others without a time; rerun on a quieter "
                         "machine\n")
        self.assertEqual(set(verdicts.values()), {"contended"})
        self.assertEqual(self.report["exit_status"], 4)
        self.assertEqual(self.report["points"][0]["ratio"], 1.5)
        proc, _ = self.compare(base, new, "--report-only")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertTrue(proc.stderr.startswith("compare.py: nothing could be judged: 2 of 2 "))
        self.assertTrue(proc.stderr.endswith(" (--report-only)\n"), proc.stderr)
        # one point judged (contended in one run only): an ordinary verdict, exit 0
        proc, verdicts = self.compare(
            base, points({8: slow, 64: BASE_REPS}, extra={8: {"contended": True}}))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stderr, "")

    def test_header_says_what_differs_between_the_runs(self):
        base, new = self.write_pair(points({8: BASE_REPS}), points({8: BASE_REPS}))
        proc = run_script("compare.py", base, new)
        self.assertEqual(proc.stdout.splitlines()[:5], [
            f"baseline: {base}", f"new:      {new}",
            "the runs have the same commit, host, CPU, MPI, compiler, options and limits",
            "threshold 20% slower, alpha 0.05",
            "times: median headline time over repetitions in us (ping-pong: round trip)"])
        ctx = synth.context(git_sha="def5678", host="other", compiler="Clang 16.0.6",
                            mpi_library="Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4")
        ctx["topology"] = dict(ctx["topology"], cpu_model="Other CPU", cores=64)
        ctx["options"] = dict(ctx["options"], repetitions=10, sizes_bytes=[8, 65536],
                              ops=["pingpong", "broadcast", "reduce-max", "gather", "scatter"])
        ctx["limits"] = {"cacheline_rtt_us": 0.25, "memcpy": [
            {"bytes": b, "bw_GBps": 2 * min(20.0, 0.4 * b ** 0.5)} for b in synth.SIZES]}
        synth.write(new, {"comops_format": 1, "context": ctx, "results": points({8: BASE_REPS})})
        proc = run_script("compare.py", base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[2:14], [
            "the runs differ in:",
            "  commit                    abc1234 -> def5678",
            "  host                      testhost -> other",
            "  CPU                       Test CPU -> Other CPU",
            "  cores                     2 -> 64",
            "  MPI                       MPICH 4.0.2 -> Open MPI 4.1.4",
            "  compiler                  GCC 12.2.0 -> Clang 16.0.6",
            "  option ops                pingpong,broadcast,reduce-max -> pingpong,broadcast,"
            "reduce-max,...",
            "  option repetitions        5 -> 10",
            "  option sizes_bytes        10 sizes 8 B..1 MiB -> 8 B,64 KiB",
            "  cache-line round trip     0.48 us -> 0.25 us",
            # the median of synth's memcpy over its 10 sizes: (3.58 + 12.8) / 2, doubled in new
            "  memcpy median (10 sizes)  8.19 GB/s -> 16.4 GB/s"])
        self.assertEqual(proc.stdout.splitlines()[14], "threshold 20% slower, alpha 0.05")
        self.assertEqual(self.report_of(base, new)["context_differences"][0],
                         {"what": "commit", "baseline": "abc1234", "new": "def5678"})

    def test_runs_of_two_mpi_libraries_name_both_in_the_table(self):
        rows = points({8: BASE_REPS}) + [synth.row("shm-staged", "pingpong", 2, 8, BASE_REPS),
                                         synth.row("swcc-64", "pingpong", 2, 8, BASE_REPS)]
        base = synth.write(self.path("base.json"), doc(rows))
        new = synth.write(self.path("new.json"), {"comops_format": 1, "results": rows,
                                                  "context": synth.context(
            mpi_library="Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4")})
        proc = run_script("compare.py", base, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("  MPI  MPICH 4.0.2 -> Open MPI 4.1.4", proc.stdout.splitlines())
        self.assertEqual([r[:6] for r in table_of(proc.stdout)], [
            ["pingpong", "mpi", "[MPICH", "4.0.2", "->", "Open"],
            ["pingpong", "shm-staged", "2", "8", "B", "10.000"],
            ["pingpong", "swcc-64", "[MPICH", "4.0.2", "->", "Open"]])
        self.assertIn("pingpong  mpi [MPICH 4.0.2 -> Open MPI 4.1.4]       2   8 B   10.000  "
                      "10.000  1.000   1.0000  U     same", proc.stdout.splitlines())
        # one library: the labels as they are
        proc = run_script("compare.py", base, base)
        self.assertEqual([r[1] for r in table_of(proc.stdout)], ["mpi", "shm-staged", "swcc-64"])

    def test_wrong_results_in_new_fail(self):
        base = points({8: BASE_REPS})
        new = points({8: BASE_REPS}, extra={8: {"wrong": 3}})
        proc, verdicts = self.compare(base, new)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(verdicts, {"mpi/pingpong/np:2/bytes:8": "same"})
        self.assertIn("WRONG RESULTS IN NEW:\n  mpi/pingpong/np:2/bytes:8: 3 wrong elements",
                      proc.stdout)
        self.assertIn("wrong results", proc.stderr)
        self.assertEqual(self.report["wrong_in_new"], {"mpi/pingpong/np:2/bytes:8": 3})

    def test_wrong_results_in_baseline_only_do_not_fail(self):
        base = points({8: BASE_REPS}, extra={8: {"wrong": 3}})
        proc, _ = self.compare(base, points({8: BASE_REPS}))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("wrong results in baseline", proc.stdout)

    def report_of(self, base, new):
        out = self.path("report.json")
        run_script("compare.py", base, new, "--json", out)
        with open(out) as f:
            return json.load(f)

    def test_no_common_points_exit_2(self):
        base, new = self.write_pair(points({8: BASE_REPS}), points({64: BASE_REPS}))
        proc = run_script("compare.py", base, new)
        self.assertOneLineError(proc, f"compare.py: error: {base} and {new} have no point "
                                "(backend, op, np, bytes) in common (1 and 1 points)")

    def test_unwritable_json_report_exit_2(self):
        base, new = self.write_pair(points({8: BASE_REPS}), points({8: BASE_REPS}))
        proc = run_script("compare.py", base, new, "--json", self.tmp)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(),
                         [f"compare.py: error: cannot write {self.tmp} (Is a directory)"])


class StatisticsTest(unittest.TestCase):
    def test_min_p_value_decides_when_the_u_test_can_run(self):
        self.assertAlmostEqual(compare.min_p_value(3, 3), 0.1)
        self.assertGreater(compare.min_p_value(3, 4), 0.05)
        self.assertLessEqual(compare.min_p_value(4, 4), 0.05)
        self.assertLessEqual(compare.min_p_value(3, 5), 0.05)
        self.assertGreater(compare.min_p_value(2, 7), 0.05)
        self.assertLessEqual(compare.min_p_value(2, 8), 0.05)
        self.assertEqual(compare.min_p_value(0, 5), 1.0)

    def test_identical_samples_are_not_significant(self):
        self.assertEqual(compare.mann_whitney_p([5.0] * 5, [5.0] * 5), 1.0)
        self.assertEqual(compare._mann_whitney_p_plain([5.0] * 5, [5.0] * 5), 1.0)


@unittest.skipUnless(importlib.util.find_spec("scipy"), "scipy is missing: run with "
                     "/usr/bin/python3 (apt-get install python3-scipy)")
class ScipyCrossCheckTest(unittest.TestCase):
    """compare.py's own Mann-Whitney U test, used without scipy, against scipy's."""

    def test_plain_mann_whitney_matches_scipy(self):
        from scipy.stats import mannwhitneyu
        rng = random.Random(7)
        for _ in range(200):
            a = [round(rng.gauss(10, 1), rng.choice([0, 1, 4])) for _ in range(rng.randint(1, 12))]
            b = [round(rng.gauss(10.5, 1), rng.choice([0, 1, 4]))
                 for _ in range(rng.randint(1, 12))]
            expected = mannwhitneyu(a, b, alternative="two-sided").pvalue
            self.assertAlmostEqual(compare._mann_whitney_p_plain(a, b), expected, places=9,
                                   msg=f"{a} {b}")


if __name__ == "__main__":
    unittest.main()
