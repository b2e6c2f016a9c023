#!/usr/bin/python3
"""The sequential A/B gate: judges the rounds of an A/B job (ROUNDS/base-NNN.json and
ROUNDS/head-NNN.json, scripts/ab_job.sh --judge sequential) point by point, pairing only the runs
of a round whose placement probes put the point in the same mode, with an always-valid
confidence sequence for the median ratio head / base (scripts/ab_sequential.py has the
statistics; docs/regression.md the design and its measured power).

A point is
  slower       the sequence lies above 1 and reaches 1 + threshold (a slowdown at the job's
               confidence that may be the threshold's or more): the gate fails, unless the point
               is accepted (--accept, from the Accept-slowdown trailers of the commits judged);
  same         the sequence lies below 1 + threshold;
  undecided    neither yet (more rounds would tell); not a failure;
  not judged   no round put base and head in one mode ("not judged: placement"), or its rows
               were all contended.
The job's false alarms, all points together, are held to --alpha (Bonferroni over the points).
When neither side's rows have a placement probe (a base built before the probe existed), every
pair is used and the report says so.

Output: one line per slower, accepted or not-judged point, then one verdict line, on stdout; with
--out DIR also DIR/ab.txt (every point, then those lines) and DIR/ab.json.

Exit status: 0 no slowdown found (or report-only without --gate); with --gate 1 when a point is
slower and not accepted, 4 when no point was slower but some point was not judged; with --look
(no output, for a job deciding whether to go on) 0 when the job may stop (every point decided, or
a point slower and not accepted), 10 when it should run more rounds; 2 bad input (one line on
stderr); 3 when the output files cannot be written.
"""

import argparse
import json
import math
import os
import sys

import numpy as np

import ab_judge
import ab_sequential as seq
import comops_results as cr

PROG = "ab_gate.py"
GO_ON = 10
DECISIONS = ("slower", "same", "undecided", "not judged")


class InputError(Exception):
    """Bad input; str() is the one line to print."""


# --- the pairs ----------------------------------------------------------------------------------

def job_probes(rounds):
    """Every probe value (before and after) of every row of both sides."""
    values = []
    for base, head in rounds:
        for results in (base, head):
            for row in results.rows.values():
                probe = cr.placement_probe(row)
                if probe:
                    values.extend(probe)
    return values


def side_has_probes(rounds, side):
    return any(cr.placement_probe(row) for pair in rounds for row in pair[side].rows.values())


def point_pairs(rounds, bounds, use_modes):
    """{point name: entry}: per point, its log ratios d of same-mode pairs in round order, the
    mode of each, and the counts of the pairs left out (contended, mixed, across modes)."""
    points = {}
    for base, head in rounds:
        for point in set(base.rows) & set(head.rows):
            b, h = base.rows[point], head.rows[point]
            entry = points.setdefault(cr.key_name(point), {
                "order": cr.sort_key(point), "d": [], "modes": [], "base": [], "head": [],
                "pairs": 0, "contended": 0, "mixed": 0, "across": 0})
            vb, vh = ab_judge.row_value(b), ab_judge.row_value(h)
            if not (vb and vh):
                continue
            entry["pairs"] += 1
            if b.get("contended") or h.get("contended"):
                entry["contended"] += 1
                continue
            mode = 0
            if use_modes:
                mb = seq.point_mode(cr.placement_probe(b), bounds)
                mh = seq.point_mode(cr.placement_probe(h), bounds)
                if mb is None or mh is None:
                    entry["mixed"] += 1
                    continue
                if mb != mh:
                    entry["across"] += 1
                    continue
                mode = mb
            entry["d"].append(math.log(vh / vb))
            entry["modes"].append(mode)
            entry["base"].append(vb)
            entry["head"].append(vh)
    return points


# --- the verdict --------------------------------------------------------------------------------

def judge_point(name, entry, alpha, threshold, accepted):
    d = entry["d"]
    out = {"point": name, "pairs": entry["pairs"], "used": len(d),
           "contended": entry["contended"], "mixed": entry["mixed"], "across": entry["across"],
           "modes_used": {str(m + 1): entry["modes"].count(m) for m in sorted(set(entry["modes"]))},
           "before_us": None, "after_us": None, "ratio": None, "ci_low": None, "ci_high": None,
           "log_se": None, "decision": "not judged", "why": None, "accepted": accepted.get(name)}
    if not d:
        out["why"] = "contended" if entry["contended"] == entry["pairs"] else "placement"
        return out
    low, high = seq.confidence_sequence(d, alpha)
    out.update(before_us=float(np.median(entry["base"])), after_us=float(np.median(entry["head"])),
               ratio=float(math.exp(np.median(d))), ci_low=math.exp(low) if low > -math.inf else 0.0,
               ci_high=math.exp(high) if high < math.inf else None,
               decision=seq.decide(low, high, threshold), log_se=median_log_se(d))
    return out


def median_log_se(d):
    """The approximate standard error of the median log ratio, sqrt(pi / 2) sd / sqrt(n) (its
    large-sample value for a normal spread); None under 2 pairs. The paired history adds these
    up for a point's level over many commits (track_paired.py)."""
    if len(d) < 2:
        return None
    return float(math.sqrt(math.pi / 2) * np.std(d, ddof=1) / math.sqrt(len(d)))


def failed(point):
    return point["decision"] == "slower" and not point["accepted"]


def make_doc(rounds, base_rev, head_rev, alpha, threshold, accepted, use_modes=None):
    """The verdict document of rounds [(base, head)], each side an object whose .rows maps a
    point's key (comops_results.key) to its row. use_modes: None to pair by placement mode when
    both sides have probes (else every pair is used), False to use every pair."""
    if use_modes is None:
        use_modes = side_has_probes(rounds, 0) and side_has_probes(rounds, 1)
    probes = job_probes(rounds) if use_modes else []
    bounds = seq.mode_bounds(probes) if probes else []
    entries = point_pairs(rounds, bounds, use_modes)
    if not entries:
        raise InputError("the base and head files share no point")
    unknown = sorted(set(accepted) - set(entries))
    if unknown:
        raise InputError(f"Accept-slowdown names {unknown[0]}, which is not a point of this job")
    each = alpha / len(entries)
    points = [judge_point(name, e, each, threshold, accepted)
              for name, e in sorted(entries.items(), key=lambda item: item[1]["order"])]
    modes = [{"mode": m + 1, "centre_us": c,
              "probes": int(np.count_nonzero(np.searchsorted(bounds, probes) == m))}
             for m, c in enumerate(seq.mode_centres(probes, bounds))] if probes else []
    for point in points:  # the dashboard's reading of an A/B verdict (track_report.check_ab)
        point["changed"] = point["decision"] == "slower"
    doc = {"design": "sequential", "verdict": "", "base": base_rev, "head": head_rev,
           "rounds": len(rounds), "contended_rounds": ab_judge.contended_rounds(rounds),
           "alpha": alpha, "threshold": threshold,
           "placement": "modes" if use_modes else "no probe (every pair used)",
           "modes": modes, "points": points}
    doc["verdict"] = verdict_word(points)
    return doc


def verdict_word(points):
    if any(failed(p) for p in points):
        return "slower"
    if any(p["decision"] == "not judged" for p in points):
        return "not judged"
    return "no slowdown"


def may_stop(doc):
    points = doc["points"]
    return any(failed(p) for p in points) or all(p["decision"] != "undecided" for p in points)


def interval_text(p):
    high = "inf" if p["ci_high"] is None else f"{p['ci_high']:.3f}"
    return f"ratio {p['ratio']:.3f} [{p['ci_low']:.3f}, {high}]"


def pairs_text(p, doc):
    centres = {str(m["mode"]): m["centre_us"] for m in doc["modes"]}
    used = ", ".join(f"mode {m} ({centres[m]:.3g} us): {n}" if m in centres else f"{n}"
                     for m, n in p["modes_used"].items())
    return (f"{p['used']} of {p['pairs']} pairs used ({used or 'none'}; {p['mixed']} mixed, "
            f"{p['across']} across modes, {p['contended']} contended)")


def point_line(p, doc):
    if p["decision"] == "not judged":
        return f"not judged: {p['why']}: {p['point']}: {pairs_text(p, doc)}"
    word = "accepted" if p["decision"] == "slower" and p["accepted"] else p["decision"]
    line = (f"{word}: {p['point']}  {p['before_us']:.4g} us -> {p['after_us']:.4g} us  "
            f"{interval_text(p)}; {pairs_text(p, doc)}")
    return line + (f"; Accept-slowdown: {p['accepted']}" if word == "accepted" else "")


def verdict_line(doc):
    points = doc["points"]
    count = {d: sum(1 for p in points if p["decision"] == d) for d in DECISIONS}
    modes = ", ".join(f"mode {m['mode']} {m['centre_us']:.3g} us ({m['probes']} probes)"
                      for m in doc["modes"]) or doc["placement"]
    accepted = sum(1 for p in points if p["decision"] == "slower" and p["accepted"])
    slower = f"{count['slower']} slower" + (f" ({accepted} accepted)" if accepted else "")
    return (f"verdict: {doc['verdict']}: {slower}, {count['same']} same, "
            f"{count['undecided']} undecided, {count['not judged']} not judged of {len(points)} "
            f"points (slower: above 1 at {1 - doc['alpha']:.0%} confidence per job, reaching "
            f"{1 + doc['threshold']:.3g}); base {doc['base']}, head {doc['head']}, "
            f"{doc['rounds']} rounds; placement: {modes}")


def report_lines(doc):
    """(stdout lines, ab.txt lines)."""
    short = [point_line(p, doc) for p in doc["points"]
             if p["decision"] in ("slower", "not judged")] + [verdict_line(doc)]
    full = [f"A/B gate: base {doc['base']} against head {doc['head']}, {doc['rounds']} rounds, "
            f"same-mode pairs, always-valid confidence sequence of the median ratio",
            *[point_line(p, doc) for p in doc["points"]], verdict_line(doc)]
    return short, full


def parse_accepts(texts):
    """{point: reason} of "POINT REASON" texts (Accept-slowdown trailers)."""
    accepted = {}
    for text in texts:
        words = text.split(None, 1)
        if len(words) < 2:
            raise InputError(f"Accept-slowdown: '{text.strip()}' needs a point and a reason "
                             f"(Accept-slowdown: mpi/pingpong/np:2/bytes:8 why)")
        accepted[words[0]] = words[1].strip()
    return accepted


def exit_status(doc, gate):
    if not gate:
        return 0
    return {"slower": 1, "not judged": 4}.get(doc["verdict"], 0)


def parse_args(argv):
    parser = ab_judge.OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ab_judge.add_round_arguments(parser,
                                 "false alarms per job, all points together (default 0.01)")
    parser.add_argument("--threshold", type=float, default=0.05,
                        help="the slowdown that fails the gate, as a fraction (default 0.05)")
    parser.add_argument("--accept", action="append", default=[], metavar="'POINT REASON'",
                        help="a point whose slowdown is accepted, and why (repeatable)")
    parser.add_argument("--look", action="store_true",
                        help="no output: exit 0 when the job may stop, 10 when it should go on")
    args = ab_judge.parse_round_args(
        parser, argv, "exit 1 when a point is slower, 4 when a point was not judged")
    if not 0 < args.threshold < 10:
        parser.error(f"--threshold {args.threshold:g} is not between 0 and 10")
    return args


def main(argv=None):
    args = parse_args(argv)
    doc = ab_judge.judge_rounds(PROG, args, lambda rounds: make_doc(
        rounds, args.base_rev, args.head_rev, args.alpha, args.threshold,
        parse_accepts(args.accept)), errors=(InputError,))
    if doc is None:
        return 2
    if args.look:
        return 0 if may_stop(doc) else GO_ON
    failed = ab_judge.report(PROG, doc, report_lines(doc), args.out)
    return failed or exit_status(doc, args.gate)


if __name__ == "__main__":
    sys.exit(main())
