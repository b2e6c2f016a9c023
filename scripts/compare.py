#!/usr/bin/python3
"""Compares two comops results files point by point and fails on a significant slowdown.

Points are matched by (backend, op, np, bytes), also between runs of different MPI libraries
(MPICH against Open MPI: the table then names both beside the backends whose processes are MPI's,
"mpi [MPICH 4.0.2 -> Open MPI 4.1.4]"). For each matched point: the baseline and new
median headline time (time_us_reps.median; ping-pong: the round trip), ratio = new / baseline,
and a verdict:

  slower     ratio > 1 + threshold and the change is significant
  faster     ratio < 1 / (1 + threshold) and the change is significant
  noisy      the ratio is past either bound but the change is not significant
  contended  both runs measured the point contended (CPU stall > 5 %): not judged
  same       the ratio is within the bounds (significant or not)

Rows are sorted by verdict in that order (slower: largest ratio first; faster: smallest first;
the others: largest ratio first). Only the points both files have are listed; the others are
counted (--list-unmatched lists them). A short header says what differs between the two runs'
contexts: commit, host, CPU, cores, MPI library, compiler, options and limits.

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
"compare.py: error: FILE: ..."), an unknown --op or --backend, or the files share no point;
4 nothing could be judged: every matched point was contended in both runs (or has no time), so
a slowdown would pass unseen (one line on stderr, "compare.py: nothing could be judged: ...").
--report-only turns 1 and 4 into 0 (the lines are printed all the same). Points only in one file
never fail.
"""

import argparse
import json
import math
import sys
from typing import NamedTuple

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


VERDICTS = ("slower", "faster", "noisy", "contended", "same", "n/a")  # the order rows are printed
JUDGED = ("slower", "faster", "noisy", "same")  # verdicts that say something about the code
NOTHING_JUDGED = 4  # exit status: no matched point could be judged (all contended)


def judge(base, new, alpha, threshold):
    """The comparison of one matched point, as a dict."""
    t_base, t_new = cr.headline_us(base), cr.headline_us(new)
    out = {"base_us": t_base, "new_us": t_new, "ratio": None, "p_value": None, "test": "-",
           "verdict": "n/a", "contended_in": contended_in(base, new)}
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
    if out["contended_in"] == "both":
        out["verdict"] = "contended"
    elif ratio > 1.0 + threshold:
        out["verdict"] = "slower" if slower_sig else "noisy"
    elif ratio < 1.0 / (1.0 + threshold):
        out["verdict"] = "faster" if faster_sig else "noisy"
    else:
        out["verdict"] = "same"
    return out


def contended_in(base, new):
    """Which runs measured the point contended (row "contended"): "both", "baseline", "new" or
    None."""
    a, b = bool(base.get("contended")), bool(new.get("contended"))
    return "both" if a and b else "baseline" if a else "new" if b else None


def row_order(point):
    """Sort key of a compared point: VERDICTS order, then the ratio (faster: smallest first,
    others: largest first); a point without a ratio last in its verdict."""
    ratio = point["ratio"]
    if ratio is None:
        by_ratio = math.inf
    else:
        by_ratio = ratio if point["verdict"] == "faster" else -ratio
    return (VERDICTS.index(point["verdict"]), by_ratio)


def _fmt(value, spec):
    return "-" if value is None else format(value, spec)


def _names(text, what, known, family_of=None):
    """The set of names of a comma list (--op, --backend), each a known name or, with family_of,
    a family of known names (shm: shm-staged and shm-direct); ValueError names an unknown one."""
    wanted = set()
    for name in (n.strip() for n in text.split(",")):
        matches = {k for k in known if k == name or (family_of and family_of(k) == name)}
        if not matches:
            raise ValueError(f"--{what}: unknown {what} {name!r} (the files have "
                             f"{', '.join(sorted(known, key=ORDER[what])) or 'none'})")
        wanted |= matches
    return wanted


ORDER = {"op": cr.op_order, "backend": cr.backend_order}


# -- the two runs' contexts -------------------------------------------------------------------

def _is_size(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _option_value(name, value, limit=34):
    """An option's value in at most limit characters: sizes as 64 KiB (more than 4 sizes as
    "21 sizes 8 B..8 MiB"), lists joined by commas (the items that fit, then ",..."), a longer
    text cut with "..."."""
    if name in ("sizes_bytes", "np_bytes") and (
            _is_size(value) or isinstance(value, list) and value and all(map(_is_size, value))):
        sizes = [cr.human_bytes(v) for v in (value if isinstance(value, list) else [value])]
        return ",".join(sizes) if len(sizes) <= 4 else f"{len(sizes)} sizes {sizes[0]}..{sizes[-1]}"
    if isinstance(value, list):
        items = [str(v) for v in value]
        text = ",".join(items) or "none"
        while len(text) > limit and len(items) > 1:
            items.pop()
            text = ",".join(items) + ",..."
    else:
        text = "-" if value is None else str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _memcpy_median(results, sizes):
    table = results.memcpy_GBps()
    values = [table[b] for b in sizes if b in table]
    return cr.median(values) if values else None


def context_differences(base, new):
    """[(what, baseline text, new text)] for each context fact that differs between the runs:
    commit, host, CPU model, cores, MPI library (shortened), compiler, each option, the
    cache-line round trip and the single-thread memcpy bandwidth (median over the sizes both
    measured), numbers to 3 significant digits."""
    def topo(results, name):
        topology = results.context.get("topology")
        return topology.get(name) if isinstance(topology, dict) else None

    facts = [("commit", lambda r: r.context.get("git_sha")),
             ("host", lambda r: r.context.get("host")),
             ("CPU", lambda r: topo(r, "cpu_model")),
             ("cores", lambda r: topo(r, "cores")),
             ("MPI", lambda r: cr.short_mpi_library(r.context.get("mpi_library")) or None),
             ("compiler", lambda r: r.context.get("compiler"))]
    out = []
    for what, get in facts:
        a, b = get(base), get(new)
        if a != b:
            out.append((what, "-" if a is None else str(a), "-" if b is None else str(b)))
    options_a, options_b = base.options(), new.options()
    for name in sorted(set(options_a) | set(options_b)):
        a, b = options_a.get(name), options_b.get(name)
        if a != b:
            out.append((f"option {name}", _option_value(name, a), _option_value(name, b)))
    rtt_a, rtt_b = base.cacheline_rtt_us(), new.cacheline_rtt_us()
    limits = [("cache-line round trip", rtt_a and rtt_a[0], rtt_b and rtt_b[0], "us")]
    shared = sorted(set(base.memcpy_GBps()) & set(new.memcpy_GBps()))
    limits.append((f"memcpy median ({len(shared)} sizes)",
                   _memcpy_median(base, shared), _memcpy_median(new, shared), "GB/s"))
    for what, a, b, unit in limits:
        text_a = "-" if a is None else f"{a:.3g} {unit}"
        text_b = "-" if b is None else f"{b:.3g} {unit}"
        if text_a != text_b and not (a is None and b is None):
            out.append((what, text_a, text_b))
    return out


def backend_label(backend, base, new):
    """The backend as the table shows it: as is, or, when the runs come from different MPI
    libraries, a backend of cr.MPI_FAMILIES with both: "mpi [MPICH 4.0.2 -> Open MPI 4.1.4]"."""
    if (cr.backend_family(backend) in cr.MPI_FAMILIES and base.libraries and new.libraries
            and base.libraries != new.libraries):
        return f"{backend} [{' + '.join(base.libraries)} -> {' + '.join(new.libraries)}]"
    return backend


# -- the command -------------------------------------------------------------------------------

class Comparison(NamedTuple):
    """The two runs matched point by point (what the table, the notes and --json show)."""
    points: list  # a judge() dict per point both runs have, in row_order()
    only_base: list  # the points (keys) only the baseline has
    only_new: list
    wrong_base: dict  # point name: wrong elements, the rows of the baseline with wrong > 0
    wrong_new: dict
    differences: list  # context_differences()


def parse_args(argv):
    """The command line's options; a bad one exits 2 through argparse."""
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baseline", metavar="BASELINE", help="comops results JSON (reference)")
    parser.add_argument("new", metavar="NEW", help="comops results JSON (to check)")
    parser.add_argument("--threshold", type=float, default=0.20,
                        help="relative slowdown that fails, 0.20 = 20%% slower (default 0.20)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of the U test (default 0.05)")
    parser.add_argument("--op", metavar="OPS",
                        help="compare only these ops, a comma list (pingpong,broadcast)")
    parser.add_argument("--backend", metavar="BACKENDS",
                        help="compare only these backend labels or families, a comma list "
                        "(mpi,shm-staged; shm = every shm-*)")
    parser.add_argument("--list-unmatched", action="store_true",
                        help="also list the points only one file has (default: their count)")
    parser.add_argument("--report-only", action="store_true",
                        help="print the comparison but exit 0 even on a regression")
    parser.add_argument("--json", metavar="OUT", help="also write the comparison as JSON to OUT")
    args = parser.parse_args(argv)
    if args.threshold < 0 or not 0 < args.alpha < 1:
        parser.error("--threshold must be >= 0 and --alpha between 0 and 1")
    return args


def chosen_names(args, base, new):
    """(ops, backends): the sets --op and --backend choose among the points of either run,
    None for an option not given; ValueError names an unknown one."""
    everything = set(base.rows) | set(new.rows)
    ops = _names(args.op, "op", {p[1] for p in everything}) if args.op else None
    backends = (_names(args.backend, "backend", {p[0] for p in everything},
                       cr.backend_family) if args.backend else None)
    return ops, backends


def chosen_points(results, ops, backends):
    """The points of results (in its order) of the chosen ops and backends (None: all)."""
    return [p for p in results.points()
            if (ops is None or p[1] in ops) and (backends is None or p[0] in backends)]


def compare_runs(base, new, base_points, new_points, args):
    """The Comparison of the chosen points of both runs."""
    points = []
    for point in (p for p in base_points if p in new.rows):
        row = {"point": cr.key_name(point), "backend": point[0], "op": point[1], "np": point[2],
               "bytes": point[3]}
        row.update(judge(base.rows[point], new.rows[point], args.alpha, args.threshold))
        points.append(row)
    points.sort(key=row_order)
    return Comparison(
        points=points,
        only_base=[p for p in base_points if p not in new.rows],
        only_new=[p for p in new_points if p not in base.rows],
        wrong_base={cr.key_name(p): base.rows[p]["wrong"] for p in base_points
                    if base.rows[p].get("wrong")},
        wrong_new={cr.key_name(p): new.rows[p]["wrong"] for p in new_points
                   if new.rows[p].get("wrong")},
        differences=context_differences(base, new))


def print_header(args, differences):
    """The files, what differs between the runs' contexts, the threshold and the filters."""
    print(f"baseline: {args.baseline}\nnew:      {args.new}")
    if differences:
        width = max(len(d[0]) for d in differences)
        print("the runs differ in:")
        for what, a, b in differences:
            print(f"  {what:<{width}}  {a} -> {b}")
    else:
        print("the runs have the same commit, host, CPU, MPI, compiler, options and limits")
    filters = "".join(f", {name} {value}" for name, value in (("--op", args.op),
                                                             ("--backend", args.backend)) if value)
    print(f"threshold {args.threshold:.0%} slower, alpha {args.alpha}{filters}\n"
          "times: median headline time over repetitions in us (ping-pong: round trip)\n")


def print_table(points, base, new):
    """One row per compared point, its columns aligned (the numbers to the right)."""
    table = [("op", "backend", "np", "size", "base_us", "new_us", "ratio", "p-value", "test",
              "verdict")]
    for p in points:
        note = f" (C {p['contended_in']})" if p["contended_in"] in ("baseline", "new") else ""
        table.append((p["op"], backend_label(p["backend"], base, new), str(p["np"]),
                      cr.human_bytes(p["bytes"]),
                      _fmt(p["base_us"], ".3f"), _fmt(p["new_us"], ".3f"),
                      _fmt(p["ratio"], ".3f"), _fmt(p["p_value"], ".4f"), p["test"],
                      p["verdict"] + note))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    right = {2, 3, 4, 5, 6, 7}
    for r in table:
        print("  ".join(f"{c:>{w}}" if i in right else f"{c:<{w}}"
                        for i, (c, w) in enumerate(zip(r, widths))).rstrip())


def print_contended(points, counts):
    """The notes on the points contended in both runs and in one run only."""
    both = counts["contended"]
    one = sum(p["contended_in"] in ("baseline", "new") for p in points)
    if both:
        print(f"\n{both} point(s) contended in both runs (CPU stall > 5 %): verdict contended,\n"
              "not judged slower or faster (their times are not trustworthy)")
    if one:
        print(f"\n{one} point(s) contended in one run only, marked (C baseline) or (C new): their "
              "verdicts\nstand, but a busy machine may explain them")


def print_unmatched(only_base, only_new, list_them):
    """The points only one run has: listed (--list-unmatched), else counted."""
    if not (only_base or only_new):
        return
    if not list_them:
        print(f"\nnot compared: {len(only_base)} point(s) only in baseline, {len(only_new)} "
              "only in new (--list-unmatched lists them)")
        return
    for title, names in (("only in baseline", only_base), ("only in new", only_new)):
        if names:
            print(f"\n{title} ({len(names)}, not compared):")
            for point in names:
                print(f"  {point[1]} {point[0]} np {point[2]} {cr.human_bytes(point[3])}")


def print_wrong(wrong_base, wrong_new):
    """The points with wrong results, in either run."""
    for title, wrong in (("wrong results in baseline (not a failure of NEW)", wrong_base),
                         ("WRONG RESULTS IN NEW", wrong_new)):
        if wrong:
            print(f"\n{title}:")
            for name, count in wrong.items():
                print(f"  {name}: {count} wrong elements")


def verdict_of(comparison, counts, args):
    """(status, failures): the exit status and what failed, the summary printed on stdout and
    a regression or nothing judged on one line of stderr."""
    points = comparison.points
    print(f"\n{len(points)} points compared: " + ", ".join(
        f"{n} {v}" for v, n in counts.items() if n or v not in ("n/a", "contended")))
    failures = []
    if counts["slower"]:
        failures.append(f"{counts['slower']} point(s) significantly slower than "
                        f"+{args.threshold:.0%}")
    if comparison.wrong_new:
        failures.append(f"{len(comparison.wrong_new)} point(s) of NEW with wrong results")
    status = 1 if failures and not args.report_only else 0
    if failures:
        print(f"{PROG}: {'REGRESSION' if status else 'regression (--report-only)'}: "
              + "; ".join(failures), file=sys.stderr)
    elif not any(counts[v] for v in JUDGED):
        status = 0 if args.report_only else NOTHING_JUDGED
        print(f"{PROG}: nothing could be judged: {counts['contended']} of {len(points)} points "
              "contended in both runs, the others without a time; rerun on a quieter machine"
              + (" (--report-only)" if args.report_only else ""), file=sys.stderr)
    return status, failures


def json_report(args, ops, backends, comparison, counts, failures, status):
    """The comparison as --json writes it."""
    c = comparison
    return {"baseline": args.baseline, "new": args.new, "threshold": args.threshold,
            "alpha": args.alpha, "ops": sorted(ops, key=cr.op_order) if ops else None,
            "backends": sorted(backends, key=cr.backend_order) if backends else None,
            "context_differences": [{"what": w, "baseline": a, "new": b}
                                    for w, a, b in c.differences],
            "points": c.points, "only_in_baseline": [cr.key_name(p) for p in c.only_base],
            "only_in_new": [cr.key_name(p) for p in c.only_new], "wrong_in_new": c.wrong_new,
            "wrong_in_baseline": c.wrong_base, "counts": counts, "failures": failures,
            "exit_status": status}


def write_json(path, report):
    """Writes report to path; an error line and status 2 when it cannot, else None."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    except OSError as e:
        return error(f"cannot write {cr.show_path(path)} ({e.strerror or e})", 2)
    return None


def main(argv=None):
    args = parse_args(argv)
    try:
        base = cr.load(args.baseline)
        new = cr.load(args.new)
    except cr.ResultsError as e:
        return error(e, 2)
    try:
        ops, backends = chosen_names(args, base, new)
    except ValueError as e:
        return error(e, 2)
    base_points = chosen_points(base, ops, backends)
    new_points = chosen_points(new, ops, backends)
    if not any(p in new.rows for p in base_points):
        chosen = " of the chosen ops and backends" if ops or backends else ""
        return error(f"{cr.show_path(args.baseline)} and {cr.show_path(args.new)} have no point "
                     f"(backend, op, np, bytes){chosen} in common ({len(base_points)} and "
                     f"{len(new_points)} points)", 2)
    comparison = compare_runs(base, new, base_points, new_points, args)
    print_header(args, comparison.differences)
    print_table(comparison.points, base, new)
    counts = {v: sum(p["verdict"] == v for p in comparison.points) for v in VERDICTS}
    print_contended(comparison.points, counts)
    print_unmatched(comparison.only_base, comparison.only_new, args.list_unmatched)
    print_wrong(comparison.wrong_base, comparison.wrong_new)
    status, failures = verdict_of(comparison, counts, args)
    if args.json:
        report = json_report(args, ops, backends, comparison, counts, failures, status)
        return write_json(args.json, report) or status
    return status


if __name__ == "__main__":
    sys.exit(main())
