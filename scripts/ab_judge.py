#!/usr/bin/python3
"""Judges an A/B job: K rounds of the same sweep, base and head run alternately, one comops
results file per side and round (scripts/ab_job.sh writes them as ROUNDS/base-NNN.json and
ROUNDS/head-NNN.json).

For each point (backend, op, np, bytes) the value of a side in a round is its median headline
time (time_us_reps.median; ping-pong: the round trip). The rounds in which either side measured
the point contended (the row's "contended" flag, docs/metrics.md) are left out of that point and
counted. On the pairs left:

  ratio      median(head) / median(base), the ratio of medians over the rounds
  p          a paired permutation test of that ratio: under "no change" base and head of a round
             are exchangeable, so every way of swapping them within rounds is equally likely; p is
             the share of swaps whose |log ratio of medians| is at least the observed one (all
             2^n swaps for n <= 16 pairs, else 20000 drawn ones, seeded)
  interval   the 95 % bootstrap interval of the ratio (the pairs resampled, 2000 draws, seeded)

With --test sign, p is instead the exact two-sided sign test of the pairs: under "no change"
head is slower than base in a round as often as faster, so the count of rounds where head was
slower is binomial(n, 1/2) over the n pairs that differ. It uses only each round's direction,
so a round in which the machine ran both sides 4x slower, or only one of them, weighs no more
than any other: on a virtual machine whose host moves its CPUs between near and far cores
(results/ab/README.md) it finds a 5 % change with far fewer rounds than the ratio's test, which
such rounds swamp. Its smallest p is 2 / 2^n too. The ratio and interval are the same.

The false-alarm rate is held per job, over all points, by Holm's step-down adjustment (default;
--adjust bh for Benjamini-Hochberg): a point changed when its adjusted p <= --alpha (0.01). Holm
bounds the chance of any false alarm in a job (the family-wise error), which is what a red CI run
means; Benjamini-Hochberg bounds the expected share of false ones among the points flagged, which
lets more through once one point really changed. A point with fewer than 3 pairs is not judged.
With n pairs the smallest p is 2 / 2^n, so a point can be flagged at all only when
2 / 2^n <= alpha / points (the CI sweep's 18 points at alpha 0.01: n >= 12).

Output: one line per changed point (before, after, ratio and its interval), then one verdict line,
on stdout; with --out DIR also DIR/ab.txt (every point, then those lines) and DIR/ab.json.

Exit status: 0 (report-only, the default, whatever the verdict); with --gate 1 when a point
changed, 4 when no point could be judged (all contended or too few pairs); 2 on bad input (one
line on stderr: a missing or unpaired round, a file that is not comops results, no shared point);
3 when the output files cannot be written.
"""

import argparse
import functools
import json
import math
import os
import re
import sys

import numpy as np

import comops_results as cr

PROG = "ab_judge.py"
EXACT_MAX_PAIRS = 16      # all 2^n swaps up to here; drawn ones beyond
PERMUTATION_DRAWS = 20000
BOOTSTRAP_DRAWS = 2000
INTERVAL_LEVEL = 0.95
MIN_PAIRS = 3
ROUND_FILE = re.compile(r"(base|head)-(\d+)\.json")


class InputError(Exception):
    """Bad input; str() is the one line to print."""


# --- the statistics -----------------------------------------------------------------------------

def ratio_of_medians(base, head):
    """median(head) / median(base) of two equally long sequences of times."""
    return float(np.median(head) / np.median(base))


@functools.lru_cache(maxsize=None)
def all_swaps(n):
    """Every swap pattern of n pairs, one boolean row each, the identity first (read-only)."""
    codes = np.arange(2 ** n, dtype=np.int64)
    rows = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
    rows.flags.writeable = False
    return rows


def swap_patterns(n, rng, draws=PERMUTATION_DRAWS):
    """Boolean rows, one per swap pattern of n pairs (True: swap base and head of that pair): all
    2^n for n <= EXACT_MAX_PAIRS, the first row the identity; else the identity and `draws`
    drawn rows."""
    if n <= EXACT_MAX_PAIRS:
        return all_swaps(n)
    drawn = rng.random((draws, n)) < 0.5
    return np.vstack([np.zeros((1, n), dtype=bool), drawn])


def row_medians(values):
    """The median of each row of a 2-D array."""
    ordered = np.sort(values, axis=1)
    n = ordered.shape[1]
    return (ordered[:, (n - 1) // 2] + ordered[:, n // 2]) / 2


def permutation_p(base, head, rng, swaps=None):
    """Two-sided p of the paired permutation test of the log ratio of medians (over `swaps`, by
    default swap_patterns)."""
    b, h = np.asarray(base, float), np.asarray(head, float)
    if swaps is None:
        swaps = swap_patterns(len(b), rng)
    new_b = np.where(swaps, h, b)
    new_h = np.where(swaps, b, h)
    stats = np.abs(np.log(row_medians(new_h) / row_medians(new_b)))
    observed = stats[0]
    return float(np.mean(stats >= observed * (1 - 1e-12)))


def sign_p(base, head, rng=None):
    """Two-sided p of the exact sign test: of the n pairs that differ, k had head slower;
    p = P(|X - n/2| >= |k - n/2|) for X ~ binomial(n, 1/2). 1 when no pair differs."""
    b, h = np.asarray(base, float), np.asarray(head, float)
    n = int(np.count_nonzero(h != b))
    if n == 0:
        return 1.0
    k = int(np.count_nonzero(h > b))
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1))
    return float(min(1.0, 2 * tail / 2 ** n))


# --test: the p of a point's pairs, and how the report names the test
TESTS = {"median": (permutation_p, "paired permutation of the log ratio of medians"),
         "sign": (sign_p, "exact sign test of the pairs")}


def bootstrap_interval(base, head, rng, level=INTERVAL_LEVEL, draws=BOOTSTRAP_DRAWS):
    """(low, high): the percentile bootstrap interval of the ratio of medians, pairs resampled."""
    b, h = np.asarray(base, float), np.asarray(head, float)
    picks = rng.integers(0, len(b), size=(draws, len(b)))
    ratios = np.median(h[picks], axis=1) / np.median(b[picks], axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(ratios, [tail, 100 - tail])
    return float(low), float(high)


def holm(pvalues):
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues):
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    adjusted = [0.0] * m
    running = 1.0
    for position, i in enumerate(order):
        rank = m - position
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


ADJUSTMENTS = {"holm": holm, "bh": benjamini_hochberg}
ADJUSTMENT_NAMES = {"holm": "Holm", "bh": "Benjamini-Hochberg"}


# --- the rounds ---------------------------------------------------------------------------------

def round_files(directory):
    """[(base path, head path)] of DIR's base-NNN.json and head-NNN.json, by round number; raises
    InputError when there is none or a round lacks one side."""
    try:
        names = os.listdir(directory)
    except OSError as e:
        raise InputError(f"{cr.show_path(directory)}: cannot read ({e.strerror or e})")
    sides = {"base": {}, "head": {}}
    for name in names:
        match = ROUND_FILE.fullmatch(name)
        if match:
            sides[match.group(1)][int(match.group(2))] = os.path.join(directory, name)
    rounds = sorted(set(sides["base"]) | set(sides["head"]))
    if not rounds:
        raise InputError(f"{cr.show_path(directory)}: no round files (base-NNN.json, head-NNN.json)")
    for k in rounds:
        for side, other in (("base", "head"), ("head", "base")):
            if k not in sides[side]:
                raise InputError(f"{cr.show_path(directory)}: round {k} has a {other} file "
                                 f"but no {side}-{k:03d}.json")
    return [(sides["base"][k], sides["head"][k]) for k in rounds]


def row_value(row):
    """The row's median headline time over its repetitions (us), or None."""
    reps = row.get("time_us_reps")
    if isinstance(reps, dict) and isinstance(reps.get("median"), (int, float)):
        return float(reps["median"])
    return None


def paired_values(rounds):
    """{point name: {"base": [...], "head": [...], "contended": n, "order": sort key}} from rounds
    [(base Results, head Results)]: a point's pairs are the rounds where both sides have it with a
    time, its contended count the rounds where either side's row was contended."""
    points = {}
    for base, head in rounds:
        for point in set(base.rows) & set(head.rows):
            b, h = base.rows[point], head.rows[point]
            entry = points.setdefault(cr.key_name(point), {"base": [], "head": [], "contended": 0,
                                                           "order": cr.sort_key(point)})
            if b.get("contended") or h.get("contended"):
                entry["contended"] += 1
                continue
            vb, vh = row_value(b), row_value(h)
            if vb and vh:
                entry["base"].append(vb)
                entry["head"].append(vh)
    return points


def contended_rounds(rounds):
    """The rounds in which some row of either side was contended."""
    return sum(1 for base, head in rounds
               if any(r.get("contended") for r in list(base.rows.values()) + list(head.rows.values())))


def load_rounds(paths):
    """[(base Results, head Results)] of [(base path, head path)]; raises InputError."""
    try:
        return [(cr.load(b), cr.load(h)) for b, h in paths]
    except cr.ResultsError as e:
        raise InputError(str(e))


# --- the verdict --------------------------------------------------------------------------------

def judge_point(name, entry, rng, test="median"):
    """One point's figures (the JSON schema's point object, p not yet adjusted)."""
    b, h = entry["base"], entry["head"]
    out = {"point": name, "pairs": len(b), "contended": entry["contended"], "judged": False,
           "before_us": None, "after_us": None, "ratio": None, "ci_low": None, "ci_high": None,
           "p": None, "p_adjusted": None, "changed": False}
    if len(b) < MIN_PAIRS:
        return out
    low, high = bootstrap_interval(b, h, rng)
    out.update(judged=True, before_us=float(np.median(b)), after_us=float(np.median(h)),
               ratio=ratio_of_medians(b, h), ci_low=low, ci_high=high,
               p=TESTS[test][0](b, h, rng))
    return out


def judge(points, alpha=0.01, adjust="holm", seed=1, test="median"):
    """The point objects, sorted, with adjusted p-values and "changed" set."""
    rng = np.random.default_rng(seed)
    ordered = sorted(points.items(), key=lambda item: item[1]["order"])
    judged = [judge_point(name, entry, rng, test) for name, entry in ordered]
    tested = [p for p in judged if p["judged"]]
    for point, adjusted in zip(tested, ADJUSTMENTS[adjust]([p["p"] for p in tested])):
        point["p_adjusted"] = adjusted
        point["changed"] = adjusted <= alpha
    return judged


def verdict_word(points):
    if not any(p["judged"] for p in points):
        return "nothing judged"
    return "changed" if any(p["changed"] for p in points) else "no change"


def change_line(point):
    direction = "slower" if point["ratio"] > 1 else "faster"
    return (f"changed: {point['point']}  {point['before_us']:.4g} us -> {point['after_us']:.4g} us"
            f"  ratio {point['ratio']:.3f} [{point['ci_low']:.3f}, {point['ci_high']:.3f}]"
            f"  {direction} (p {point['p_adjusted']:.2g} adjusted, {point['pairs']} pairs)")


def verdict_line(doc):
    points = doc["points"]
    judged = [p for p in points if p["judged"]]
    changed = [p for p in points if p["changed"]]
    slower = sum(1 for p in changed if p["ratio"] > 1)
    left_out = sum(p["contended"] for p in points)
    head = {"changed": f"{len(changed)} of {len(judged)} points changed ({slower} slower, "
                       f"{len(changed) - slower} faster)",
            "no change": f"no point of {len(judged)} changed significantly",
            "nothing judged": f"no point of {len(points)} could be judged (contended or under "
                              f"{MIN_PAIRS} pairs)"}[doc["verdict"]]
    return (f"verdict: {doc['verdict']}: {head}; base {doc['base']}, head {doc['head']}, "
            f"{doc['rounds']} rounds, {doc['contended_rounds']} with a contended row "
            f"({left_out} point pairs left out); false alarms held to {doc['alpha']:g} per job "
            f"({ADJUSTMENT_NAMES[doc['adjust']]})")


def point_row(point):
    if not point["judged"]:
        return (f"  {point['point']:<40} not judged: {point['pairs']} pairs, "
                f"{point['contended']} contended")
    mark = "CHANGED" if point["changed"] else "same"
    return (f"  {point['point']:<40} {point['before_us']:10.4g} {point['after_us']:10.4g} "
            f"{point['ratio']:7.3f} [{point['ci_low']:.3f}, {point['ci_high']:.3f}] "
            f"p {point['p_adjusted']:.2g}  {point['pairs']} pairs, {point['contended']} contended"
            f"  {mark}")


def report_lines(doc):
    """(stdout lines, ab.txt lines)."""
    short = [change_line(p) for p in doc["points"] if p["changed"]] + [verdict_line(doc)]
    full = [f"A/B job: base {doc['base']} against head {doc['head']}, {doc['rounds']} interleaved "
            f"rounds; per point: before us, after us, ratio [95 % interval], adjusted p",
            *[point_row(p) for p in doc["points"]], *short]
    return short, full


def make_doc(rounds, base_rev, head_rev, alpha, adjust, seed, test="median"):
    points = paired_values(rounds)
    if not points:
        raise InputError("the base and head files share no point")
    judged = judge(points, alpha, adjust, seed, test)
    doc = {"verdict": "", "base": base_rev, "head": head_rev, "rounds": len(rounds),
           "points": judged, "contended_rounds": contended_rounds(rounds), "alpha": alpha,
           "adjust": adjust, "test": TESTS[test][1],
           "interval_level": INTERVAL_LEVEL}
    doc["verdict"] = verdict_word(judged)
    return doc


def exit_status(doc, gate):
    if not gate:
        return 0
    return {"changed": 1, "nothing judged": 4}.get(doc["verdict"], 0)


def write_outputs(directory, doc, full):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "ab.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(directory, "ab.txt"), "w") as f:
        f.write("\n".join(full) + "\n")


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line on stderr and exit 2."""

    def error(self, message):
        print(f"{PROG}: error: {message}", file=sys.stderr)
        sys.exit(2)


def add_round_arguments(parser, alpha_help):
    """The arguments every judge of an A/B job's rounds takes."""
    parser.add_argument("rounds_dir", help="folder of base-NNN.json and head-NNN.json")
    parser.add_argument("--base-rev", default="base", help="the base's name in the report")
    parser.add_argument("--head-rev", default="head", help="the head's name in the report")
    parser.add_argument("--alpha", type=float, default=0.01, help=alpha_help)


def parse_round_args(parser, argv, gate_help):
    """Adds the arguments every judge ends with (--gate, its exit codes in `gate_help`; --out),
    parses argv and checks --alpha."""
    parser.add_argument("--gate", action="store_true", help=gate_help)
    parser.add_argument("--out", help="folder for ab.json and ab.txt")
    args = parser.parse_args(argv)
    if not 0 < args.alpha < 1:
        parser.error(f"--alpha {args.alpha:g} is not between 0 and 1")
    return args


def judge_rounds(prog, args, make, errors=()):
    """The doc `make(rounds)` makes of the rounds in args.rounds_dir, or None (with one line on
    stderr: the caller exits 2) when they or `make` raise InputError (or one of `errors`)."""
    try:
        return make(load_rounds(round_files(args.rounds_dir)))
    except (InputError, *errors) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return None


def report(prog, doc, lines, out):
    """Writes ab.json and ab.txt into `out` (when given) and prints the short lines; (short,
    full) = lines. Returns 3 (with one line on stderr) when the files cannot be written, else
    None."""
    short, full = lines
    if out:
        try:
            write_outputs(out, doc, full)
        except OSError as e:
            print(f"{prog}: error: cannot write {cr.show_path(out)} ({e.strerror or e})",
                  file=sys.stderr)
            return 3
    print("\n".join(short))
    return None


def parse_args(argv):
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    add_round_arguments(parser, "false-alarm rate per job (default 0.01)")
    parser.add_argument("--adjust", choices=sorted(ADJUSTMENTS), default="holm",
                        help="multiple-test adjustment (default holm)")
    parser.add_argument("--test", choices=sorted(TESTS), default="median",
                        help="a point's test: median (paired permutation of the ratio of "
                             "medians, the default) or sign (exact sign test of the pairs)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the drawn swaps and bootstrap")
    return parse_round_args(parser, argv,
                            "exit 1 when a point changed, 4 when nothing could be judged")


def main(argv=None):
    args = parse_args(argv)
    doc = judge_rounds(PROG, args, lambda rounds: make_doc(
        rounds, args.base_rev, args.head_rev, args.alpha, args.adjust, args.seed, args.test))
    if doc is None:
        return 2
    failed = report(PROG, doc, report_lines(doc), args.out)
    return failed or exit_status(doc, args.gate)


if __name__ == "__main__":
    sys.exit(main())
