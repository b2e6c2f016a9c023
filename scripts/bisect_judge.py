#!/usr/bin/python3
"""bisect.sh's decision: are a commit's comops runs slower than the GOOD commit's runs?

  bisect_judge.py regressed GOOD_DIR BAD_DIR      print the points where BAD is slower (exit 0),
                                                  or exit 1 when there is none
  bisect_judge.py judge GOOD_DIR CANDIDATE_DIR POINTS_FILE
                                                  exit 0 good, 1 bad, 125 cannot tell (skip)

Each DIR holds the comops results files (*.json) of repeated runs of one commit. A point's sample
is its run medians (contended runs left out when at least 3 quiet ones remain), compared on a log
scale with the two-sample energy test of changepoint.py (the statistic E-divisive uses; a
permutation test, so the decision adapts to the noise the GOOD runs show, not to a fixed ratio).
A point is slower when p < ALPHA and the median ratio is above 1. A candidate is bad when most of
the points that regressed between GOOD and BAD are slower than GOOD.
"""

import glob
import os
import sys

import numpy as np

import changepoint
import comops_results as cr

ALPHA = float(os.environ.get("BISECT_ALPHA", "0.01"))
PERMUTATIONS = 999


def samples(directory):
    """{point name: [run median, ...]} over the runs in directory."""
    runs = [cr.load(p) for p in sorted(glob.glob(os.path.join(directory, "*.json")))]
    found = {}
    for results in runs:
        for key, row in results.rows.items():
            median = cr.headline_us(row)
            if median and median > 0:
                found.setdefault(cr.key_name(key), []).append((median, bool(row.get("contended"))))
    chosen = {}
    for name, values in found.items():
        quiet = [m for m, contended in values if not contended]
        chosen[name] = quiet if len(quiet) >= 3 else [m for m, _ in values]
    return chosen


def slower(good, other):
    """(p-value, ratio of medians other / good)."""
    p = changepoint.two_sample_p(np.log(good), np.log(other), PERMUTATIONS,
                                 np.random.default_rng(1))
    return p, float(np.median(other) / np.median(good))


def main(argv):
    if len(argv) == 3 and argv[0] == "regressed":
        good, bad = samples(argv[1]), samples(argv[2])
        found = 0
        for name in sorted(set(good) & set(bad)):
            p, ratio = slower(good[name], bad[name])
            if p < ALPHA and ratio > 1:
                print(name)
                print(f"  {name}: x{ratio:.3f} p={p:.3g}", file=sys.stderr)
                found += 1
        return 0 if found else 1
    if len(argv) == 4 and argv[0] == "judge":
        good, cand = samples(argv[1]), samples(argv[2])
        with open(argv[3]) as f:
            names = [line.strip() for line in f if line.strip()]
        judged = [n for n in names if n in good and n in cand]
        if not judged:
            print("bisect_judge.py: no regressed point was measured: skip", file=sys.stderr)
            return 125
        bad = 0
        for name in judged:
            p, ratio = slower(good[name], cand[name])
            verdict = p < ALPHA and ratio > 1
            bad += verdict
            print(f"  {name}: x{ratio:.3f} p={p:.3g} {'slower' if verdict else 'as GOOD'}",
                  file=sys.stderr)
        return 1 if 2 * bad > len(judged) else 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except cr.ResultsError as e:
        print(f"bisect_judge.py: error: {e}: skip", file=sys.stderr)
        sys.exit(125)
