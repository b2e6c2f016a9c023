#!/usr/bin/python3
"""Compares two comops results files point by point and fails on a significant slowdown.

Points are matched by (backend, op, np, bytes). For each matched point: the baseline and new
median headline time (time_us_reps.median; ping-pong: the round trip), ratio = new / baseline,
and a verdict:

  slower  ratio > 1 + threshold and the change is significant
  faster  ratio < 1 / (1 + threshold) and the change is significant
  noisy   the ratio is past either bound but the change is not significant
  same    the ratio is within the bounds (significant or not)

Significance, test "U": a two-sided Mann-Whitney U test on the per-repetition headline times
(rep_times_us), as Google Benchmark's compare.py does; significant when p < alpha. The test is
used only when it can reach alpha at all: the smallest two-sided p-value of n1 and n2 samples is
2 / C(n1 + n2, n1), so at alpha 0.05 it needs 4 repetitions on each side (3 and 3 can never give
less than p = 0.1), or 3 against 5, or 2 against 8.
Otherwise, test "range": the slowdown is significant only when the new minimum is above the
baseline maximum (a speed-up: new maximum below baseline minimum), minimum and maximum over
repetitions (time_us_reps, else rep_times_us; a single value when neither exists).

Exit status: 0 no regression; 1 a point is slower (past the threshold and significant) or a row
of NEW has wrong > 0; 2 a file is unreadable or not a comops results file (one line on stderr,
"compare.py: error: FILE: ..."), or the files share no point.
--report-only turns 1 into 0. Points only in one file are listed but never fail.
"""

import argparse
import json
import math
import sys

import comops_results as cr

PROG = "compare.py"


def error(text, status):
    """Prints the one line of a fatal error; returns the exit status."""
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return status


def min_p_value(n1, n2):
    """Smallest two-sided p-value the exact Mann-Whitney U test can give for n1 and n2 samples."""
    return min(1.0, 2.0 / math.comb(n1 + n2, n1)) if n1 and n2 else 1.0


def mann_whitney_p(a, b):
    """Two-sided Mann-Whitney U p-value: scipy's, else the same computation in plain Python."""
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        p = _mann_whitney_p_plain(a, b)
    else:
        p = float(mannwhitneyu(a, b, alternative="two-sided").pvalue)
    return 1.0 if math.isnan(p) else p


def _mann_whitney_p_plain(a, b):
    """scipy.stats.mannwhitneyu(a, b, alternative='two-sided') in plain Python: exact when a
    sample has at most 8 values and there are no ties, else normal with tie and continuity
    correction (scipy 1.10's method='auto')."""
    n1, n2 = len(a), len(b)
    pooled = sorted(a + b)
    ranks, ties = {}, []
    i = 0
    while i < len(pooled):  # average ranks over ties
        j = i
        while j < len(pooled) and pooled[j] == pooled[i]:
            j += 1
        ranks[pooled[i]] = (i + j + 1) / 2.0
        ties.append(j - i)
        i = j
    u1 = sum(ranks[v] for v in a) - n1 * (n1 + 1) / 2.0
    u = max(u1, n1 * n2 - u1)
    if min(n1, n2) <= 8 and all(t == 1 for t in ties):
        # Under H0 the k ranks of the smaller sample are any k-subset of 1..n, equally likely;
        # ways[j][s] counts the j-subsets of the ranks seen so far that sum to s.
        k, n = min(n1, n2), n1 + n2
        top = k * n
        ways = [[1] + [0] * top] + [[0] * (top + 1) for _ in range(k)]
        for r in range(1, n + 1):
            for j in range(min(r, k), 0, -1):
                ways[j] = ways[j][:r] + [x + y for x, y in zip(ways[j][r:], ways[j - 1])]
        base = k * (k + 1) // 2
        tail = sum(c for s, c in enumerate(ways[k]) if s - base >= u)
        return min(1.0, 2.0 * tail / math.comb(n, k))
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12.0 * ((n + 1) - sum(t ** 3 - t for t in ties) / (n * (n - 1))))
    if sigma == 0:
        return 1.0
    z = (u - n1 * n2 / 2.0 - 0.5) / sigma
    return min(1.0, math.erfc(z / math.sqrt(2.0)))


def judge(base, new, alpha, threshold):
    """The comparison of one matched point, as a dict."""
    t_base, t_new = cr.headline_us(base), cr.headline_us(new)
    out = {"base_us": t_base, "new_us": t_new, "ratio": None, "p_value": None, "test": "-",
           "verdict": "n/a"}
    if t_base is None or t_new is None or t_base <= 0:
        return out
    ratio = t_new / t_base
    out["ratio"] = ratio
    a, b = cr.samples_us(base), cr.samples_us(new)
    if min_p_value(len(a), len(b)) <= alpha:
        out["test"] = "U"
        out["p_value"] = mann_whitney_p(a, b)
        slower_sig = faster_sig = out["p_value"] < alpha
    else:
        out["test"] = "range"
        lo_a, hi_a = cr.spread_us(base) or (t_base, t_base)
        lo_b, hi_b = cr.spread_us(new) or (t_new, t_new)
        slower_sig, faster_sig = lo_b > hi_a, hi_b < lo_a
    if ratio > 1.0 + threshold:
        out["verdict"] = "slower" if slower_sig else "noisy"
    elif ratio < 1.0 / (1.0 + threshold):
        out["verdict"] = "faster" if faster_sig else "noisy"
    else:
        out["verdict"] = "same"
    return out


def _fmt(value, spec):
    return "-" if value is None else format(value, spec)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baseline", metavar="BASELINE", help="comops results JSON (reference)")
    parser.add_argument("new", metavar="NEW", help="comops results JSON (to check)")
    parser.add_argument("--threshold", type=float, default=0.20,
                        help="relative slowdown that fails, 0.20 = 20%% slower (default 0.20)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of the U test (default 0.05)")
    parser.add_argument("--report-only", action="store_true",
                        help="print the comparison but exit 0 even on a regression")
    parser.add_argument("--json", metavar="OUT", help="also write the comparison as JSON to OUT")
    args = parser.parse_args(argv)
    if args.threshold < 0 or not 0 < args.alpha < 1:
        parser.error("--threshold must be >= 0 and --alpha between 0 and 1")

    try:
        base = cr.load(args.baseline)
        new = cr.load(args.new)
    except cr.ResultsError as e:
        return error(e, 2)
    common = [p for p in base.points() if p in new.rows]
    if not common:
        return error(f"{cr.show_path(args.baseline)} and {cr.show_path(args.new)} have no point "
                     f"(backend, op, np, bytes) in common ({len(base.rows)} and {len(new.rows)} "
                     "points)", 2)

    points = []
    for point in common:
        row = {"point": cr.key_name(point), "backend": point[0], "op": point[1], "np": point[2],
               "bytes": point[3]}
        row.update(judge(base.rows[point], new.rows[point], args.alpha, args.threshold))
        points.append(row)
    only_base = [cr.key_name(p) for p in base.points() if p not in new.rows]
    only_new = [cr.key_name(p) for p in new.points() if p not in base.rows]
    wrong_new = {cr.key_name(p): new.rows[p]["wrong"] for p in new.points()
                 if new.rows[p].get("wrong")}
    wrong_base = {cr.key_name(p): base.rows[p]["wrong"] for p in base.points()
                  if base.rows[p].get("wrong")}

    print(f"baseline: {args.baseline}\nnew:      {args.new}\n"
          f"threshold {args.threshold:.0%} slower, alpha {args.alpha}; times: median headline "
          "time over repetitions in us (ping-pong: round trip)\n")
    width = max(len("point"), *(len(p["point"]) for p in points))
    print(f"{'point':<{width}}  {'base_us':>11}  {'new_us':>11}  {'ratio':>7}  {'p-value':>7}  "
          f"{'test':<5}  verdict")
    for p in points:
        print(f"{p['point']:<{width}}  {_fmt(p['base_us'], '11.4g')}  {_fmt(p['new_us'], '11.4g')}"
              f"  {_fmt(p['ratio'], '7.3f')}  {_fmt(p['p_value'], '7.4f')}  {p['test']:<5}  "
              f"{p['verdict']}")
    for title, names in (("only in baseline", only_base), ("only in new", only_new)):
        if names:
            print(f"\n{title} ({len(names)}, not compared):")
            for name in names:
                print(f"  {name}")
    for title, wrong in (("wrong results in baseline (not a failure of NEW)", wrong_base),
                         ("WRONG RESULTS IN NEW", wrong_new)):
        if wrong:
            print(f"\n{title}:")
            for name, count in wrong.items():
                print(f"  {name}: {count} wrong elements")

    counts = {v: sum(p["verdict"] == v for p in points)
              for v in ("slower", "faster", "same", "noisy", "n/a")}
    print(f"\n{len(points)} points compared: " + ", ".join(f"{n} {v}" for v, n in counts.items()
                                                          if n or v != "n/a"))
    failures = []
    if counts["slower"]:
        failures.append(f"{counts['slower']} point(s) significantly slower than "
                        f"+{args.threshold:.0%}")
    if wrong_new:
        failures.append(f"{len(wrong_new)} point(s) of NEW with wrong results")
    status = 1 if failures and not args.report_only else 0
    if failures:
        print(f"{PROG}: {'REGRESSION' if status else 'regression (--report-only)'}: "
              + "; ".join(failures), file=sys.stderr)

    if args.json:
        report = {"baseline": args.baseline, "new": args.new, "threshold": args.threshold,
                  "alpha": args.alpha, "points": points, "only_in_baseline": only_base,
                  "only_in_new": only_new, "wrong_in_new": wrong_new,
                  "wrong_in_baseline": wrong_base, "counts": counts, "failures": failures,
                  "exit_status": status}
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=2)
                f.write("\n")
        except OSError as e:
            return error(f"cannot write {cr.show_path(args.json)} ({e.strerror or e})", 2)
    return status


if __name__ == "__main__":
    sys.exit(main())
