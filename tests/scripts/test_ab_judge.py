"""scripts/ab_judge.py: exact verdicts on synthetic paired rounds, the permutation p-value, the
Holm and Benjamini-Hochberg adjustments, --gate exit codes, the output files, bad input."""

import itertools
import json
import math
import os
import statistics
import unittest

from helpers import TempDirTest, run_script

import ab_judge

POINTS = (("mpi", "pingpong", 8), ("shm-direct", "broadcast", 65536))


def row(backend, op, nbytes, median, contended=False):
    return {"backend": backend, "op": op, "np": 2, "bytes": nbytes, "contended": contended,
            "time_us_reps": {"min": median * 0.99, "median": median, "max": median * 1.01}}


def wobble(k):
    """A fixed round-to-round noise of about 1 %, different in every round."""
    return 1 + 0.01 * math.sin(1.7 * k + 0.3)


def brute_force_p(base, head):
    """The permutation p-value by plain enumeration of every swap of pairs."""
    def stat(b, h):
        return abs(math.log(statistics.median(h) / statistics.median(b)))
    observed = stat(base, head)
    hits = total = 0
    for swaps in itertools.product((False, True), repeat=len(base)):
        b = [y if s else x for x, y, s in zip(base, head, swaps)]
        h = [x if s else y for x, y, s in zip(base, head, swaps)]
        hits += stat(b, h) >= observed * (1 - 1e-12)
        total += 1
    return hits / total


def values(first, factor, rounds):
    """The times write_rounds gives a point: (base, head)."""
    return ([first * wobble(k) for k in range(1, rounds + 1)],
            [first * factor * wobble(k + 0.5) for k in range(1, rounds + 1)])


def write_rounds(directory, rounds, head_factor=None, contended=None):
    """rounds of base-NNN.json and head-NNN.json: every point 10 us (ping-pong) or 20 us times the
    round's wobble; head_factor {point index: factor} slows head's points; contended {(side,
    round): [point index]} flags rows contended."""
    os.makedirs(directory, exist_ok=True)
    for k in range(1, rounds + 1):
        for side in ("base", "head"):
            rows = []
            for i, (backend, op, nbytes) in enumerate(POINTS):
                value = (10.0 + 10.0 * i) * wobble(k if side == "base" else k + 0.5)
                if side == "head":
                    value *= (head_factor or {}).get(i, 1.0)
                flagged = i in (contended or {}).get((side, k), [])
                rows.append(row(backend, op, nbytes, value, flagged))
            doc = {"comops_format": 1, "context": {}, "results": rows}
            with open(os.path.join(directory, f"{side}-{k:03d}.json"), "w") as f:
                json.dump(doc, f)


class StatisticsTest(unittest.TestCase):
    def test_holm_exact(self):
        self.assertEqual([round(p, 12) for p in ab_judge.holm([0.01, 0.04, 0.03, 0.005])],
                         [0.03, 0.06, 0.06, 0.02])

    def test_holm_caps_at_one(self):
        self.assertEqual(ab_judge.holm([0.5, 0.9]), [1.0, 1.0])

    def test_benjamini_hochberg_exact(self):
        self.assertEqual(
            [round(p, 12) for p in ab_judge.benjamini_hochberg([0.01, 0.04, 0.03, 0.005])],
            [0.02, 0.04, 0.04, 0.02])

    def test_permutation_p_of_two_pairs(self):
        # Swapping one pair gives 2.5 / 3.5; none or both give 2 and 1/2: p = 2/4.
        rng = ab_judge.np.random.default_rng(0)
        self.assertEqual(ab_judge.permutation_p([1, 3], [2, 6], rng), 0.5)

    def test_permutation_p_matches_plain_enumeration(self):
        rng = ab_judge.np.random.default_rng(0)
        for base, head in (([1, 2, 3, 4], [2, 4, 6, 8]), values(10, 1.05, 9), values(20, 1, 10)):
            self.assertEqual(ab_judge.permutation_p(base, head, rng), brute_force_p(base, head))

    def test_permutation_p_of_no_change_is_one(self):
        rng = ab_judge.np.random.default_rng(0)
        self.assertEqual(ab_judge.permutation_p([1, 2, 3], [1, 2, 3], rng), 1.0)

    def test_sign_p_exact(self):
        self.assertEqual(ab_judge.sign_p([1.0] * 12, [2.0] * 12), 2 / 2 ** 12)
        # 9 of 12 slower: P(X <= 3) = (1 + 12 + 66 + 220) / 4096, both tails
        self.assertEqual(ab_judge.sign_p([1.0] * 12, [2.0] * 9 + [0.5] * 3), 2 * 299 / 4096)
        # ties leave the count: 3 of 3 differing pairs slower
        self.assertEqual(ab_judge.sign_p([1.0] * 5, [1.0, 1.0, 3.0, 3.0, 3.0]), 2 / 8)
        self.assertEqual(ab_judge.sign_p([1.0] * 4, [1.0] * 4), 1.0)
        self.assertEqual(ab_judge.sign_p([1.0, 1.0], [2.0, 0.5]), 1.0)

    def test_swap_patterns_exact_then_drawn(self):
        rng = ab_judge.np.random.default_rng(0)
        self.assertEqual(ab_judge.swap_patterns(3, rng).shape, (8, 3))
        self.assertEqual(len({tuple(r) for r in ab_judge.swap_patterns(3, rng)}), 8)
        drawn = ab_judge.swap_patterns(17, rng)
        self.assertEqual(drawn.shape, (ab_judge.PERMUTATION_DRAWS + 1, 17))
        self.assertFalse(drawn[0].any())

    def test_ratio_of_medians(self):
        self.assertEqual(ab_judge.ratio_of_medians([1, 2, 9], [2, 4, 5]), 2.0)

    def test_bootstrap_interval_holds_a_constant_ratio(self):
        rng = ab_judge.np.random.default_rng(0)
        low, high = ab_judge.bootstrap_interval([1, 2, 3, 4], [1.5, 3, 4.5, 6], rng)
        self.assertAlmostEqual(low, 1.5)
        self.assertAlmostEqual(high, 1.5)


class VerdictTest(TempDirTest):
    def judge(self, *args):
        return run_script("ab_judge.py", self.path("rounds"), "--out", self.path("out"), *args)

    def doc(self):
        with open(self.path("out", "ab.json")) as f:
            return json.load(f)

    def test_clear_change_found(self):
        write_rounds(self.path("rounds"), 12, head_factor={0: 1.2})
        proc = self.judge("--base-rev", "abc", "--head-rev", "def")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), 2, proc.stdout)
        p = brute_force_p(*values(10, 1.2, 12))
        self.assertTrue(lines[0].startswith("changed: mpi/pingpong/np:2/bytes:8  10.01 us -> "
                                            "12.02 us  ratio 1.200 ["), lines[0])
        self.assertIn(f"slower (p {2 * p:.2g} adjusted, 12 pairs)", lines[0])
        self.assertTrue(lines[1].startswith("verdict: changed: 1 of 2 points changed (1 slower, "
                                            "0 faster); base abc, head def, 12 rounds, 0 with"),
                        lines[1])
        doc = self.doc()
        self.assertEqual(doc["verdict"], "changed")
        self.assertEqual((doc["base"], doc["head"], doc["rounds"], doc["contended_rounds"]),
                         ("abc", "def", 12, 0))
        slow, same = doc["points"]
        self.assertEqual(slow["point"], "mpi/pingpong/np:2/bytes:8")
        self.assertTrue(slow["changed"])
        self.assertAlmostEqual(slow["ratio"], 1.2 * ab_judge.ratio_of_medians(
            [wobble(k) for k in range(1, 13)], [wobble(k + 0.5) for k in range(1, 13)]))
        self.assertEqual(slow["p"], p)
        self.assertEqual(slow["p_adjusted"], 2 * p)
        self.assertLess(slow["ci_low"], slow["ratio"])
        self.assertGreater(slow["ci_high"], slow["ratio"])
        self.assertFalse(same["changed"])
        for key in ("point", "before_us", "after_us", "ratio", "ci_low", "ci_high", "changed"):
            self.assertIn(key, same)

    def test_sign_test_weighs_each_round_once(self):
        # head 5 % slower in every round; three base rounds 4x slow (the far placement of
        # results/ab/README.md): every round still says "head slower" but for those three
        write_rounds(self.path("rounds"), 24, head_factor={0: 1.05})
        for k in (3, 8, 13):
            path = self.path("rounds", f"base-{k:03d}.json")
            with open(path) as f:
                doc = json.load(f)
            doc["results"][0]["time_us_reps"]["median"] *= 4
            with open(path, "w") as f:
                json.dump(doc, f)
        proc = self.judge("--test", "sign")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        doc = self.doc()
        self.assertEqual(doc["test"], "exact sign test of the pairs")
        slow, same = doc["points"]
        tail = sum(math.comb(24, i) for i in range(4))  # 21 of 24 slower
        self.assertEqual(slow["p"], 2 * tail / 2 ** 24)
        self.assertEqual(slow["p_adjusted"], min(1.0, 2 * slow["p"]))
        self.assertTrue(slow["changed"])
        self.assertFalse(same["changed"])
        self.assertIn("changed: mpi/pingpong/np:2/bytes:8", proc.stdout)

    def test_no_change_not_flagged(self):
        write_rounds(self.path("rounds"), 12)
        proc = self.judge("--gate")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(proc.stdout.splitlines()), 1, proc.stdout)
        self.assertTrue(proc.stdout.startswith("verdict: no change: no point of 2 changed"))
        self.assertEqual([p["changed"] for p in self.doc()["points"]], [False, False])

    def test_too_few_pairs_cannot_flag_a_change(self):
        # 4 pairs: the smallest p is 2/16 > 0.01, so even a doubling is not a change.
        write_rounds(self.path("rounds"), 4, head_factor={0: 2.0})
        proc = self.judge("--gate")
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertEqual(self.doc()["points"][0]["p"], brute_force_p(*values(10, 2.0, 4)))
        self.assertGreaterEqual(self.doc()["points"][0]["p"], 2 / 16)

    def test_contended_rounds_left_out_and_counted(self):
        write_rounds(self.path("rounds"), 14, head_factor={0: 1.2},
                     contended={("head", 2): [0], ("base", 5): [0], ("base", 9): [1]})
        proc = self.judge()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        doc = self.doc()
        self.assertEqual(doc["contended_rounds"], 3)
        first, second = doc["points"]
        self.assertEqual((first["pairs"], first["contended"]), (12, 2))
        self.assertEqual((second["pairs"], second["contended"]), (13, 1))
        self.assertIn("14 rounds, 3 with a contended row (3 point pairs left out)",
                      proc.stdout.splitlines()[-1])

    def test_gate_exit_codes(self):
        write_rounds(self.path("rounds"), 12, head_factor={1: 0.8})
        proc = self.judge("--gate")
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("1 of 2 points changed (0 slower, 1 faster)", proc.stdout)
        self.assertEqual(self.judge().returncode, 0)

    def test_all_contended_is_nothing_judged(self):
        every = {(side, k): [0, 1] for side in ("base", "head") for k in range(1, 5)}
        write_rounds(self.path("rounds"), 4, contended=every)
        proc = self.judge("--gate")
        self.assertEqual(proc.returncode, 4, proc.stdout)
        self.assertTrue(proc.stdout.startswith("verdict: nothing judged: no point of 2 could be "
                                               "judged"), proc.stdout)
        self.assertEqual(self.judge().returncode, 0)
        self.assertEqual(self.doc()["verdict"], "nothing judged")

    def test_text_report_lists_every_point(self):
        write_rounds(self.path("rounds"), 12, head_factor={0: 1.2})
        self.assertEqual(self.judge().returncode, 0)
        with open(self.path("out", "ab.txt")) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 5)
        self.assertIn("mpi/pingpong/np:2/bytes:8", lines[1])
        self.assertTrue(lines[1].endswith("CHANGED"))
        self.assertTrue(lines[2].endswith("same"))
        self.assertTrue(lines[3].startswith("changed: "))
        self.assertTrue(lines[4].startswith("verdict: changed"))


class BadInputTest(TempDirTest):
    def test_empty_folder(self):
        os.makedirs(self.path("rounds"))
        self.assertOneLineError(run_script("ab_judge.py", self.path("rounds")), "no round files")

    def test_missing_folder(self):
        self.assertOneLineError(run_script("ab_judge.py", self.path("nothing")), "cannot read")

    def test_round_without_head(self):
        write_rounds(self.path("rounds"), 3)
        os.remove(self.path("rounds", "head-002.json"))
        self.assertOneLineError(run_script("ab_judge.py", self.path("rounds")),
                                "round 2 has a base file but no head-002.json")

    def test_not_comops_results(self):
        write_rounds(self.path("rounds"), 3)
        with open(self.path("rounds", "base-001.json"), "w") as f:
            f.write("[1, 2]")
        self.assertOneLineError(run_script("ab_judge.py", self.path("rounds")),
                                "base-001.json: not a comops results file")

    def test_bad_alpha(self):
        write_rounds(self.path("rounds"), 3)
        self.assertOneLineError(run_script("ab_judge.py", self.path("rounds"), "--alpha", "2"),
                                "--alpha 2 is not between 0 and 1")

    def test_unknown_option(self):
        os.makedirs(self.path("rounds"))
        self.assertOneLineError(run_script("ab_judge.py", self.path("rounds"), "--frobnicate"),
                                "unrecognized arguments: --frobnicate")


if __name__ == "__main__":
    unittest.main()
