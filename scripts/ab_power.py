#!/usr/bin/python3
"""The A/B job's power and false-alarm rate, measured (results/ab/README.md): many interleaved
rounds of the CI sweep measured once (results/ab/measure.sh), A/B jobs of K rounds formed from
them and judged exactly as scripts/ab_judge.py judges a job (its functions).

  ab_power.py compact RAW_DIR OUT.json   the runs' per-point medians, flags and loads in one file
  ab_power.py analyze ROUNDS.json[.gz] OUT.json [--k 4,8,12,16,20] [--jobs 400]
                      [--test median|sign]
  ab_power.py table OUT.json             its figures as markdown tables

A round has three runs of one test build: a and b plain, s with one point slowed. Pairs (a, b)
make the no-change jobs, pairs (a, s) the slowed ones. Per K: the disjoint groups of K
consecutive rounds (as many as the rounds allow), and --jobs groups of K distinct rounds drawn at
random (seeded; they overlap, so they are not independent jobs).
"""

import argparse
import gzip
import json
import os
import re
import sys

import numpy as np

import ab_judge
import comops_results as cr

RUN_FILE = re.compile(r"run-(\d+)-([abs])\.json")


def read_loads(raw):
    """{(round, run): (start time s, 1-minute load)} of RAW/load.txt."""
    loads = {}
    with open(os.path.join(raw, "load.txt")) as f:
        for line in f:
            k, run, start, load1 = line.split()[:4]
            loads[(int(k), run)] = (float(start), float(load1))
    return loads


def compact_run(path):
    """{point name: [median us, contended]} of one results file."""
    results = cr.load(path)
    return {cr.key_name(p): [ab_judge.row_value(r), bool(r.get("contended"))]
            for p, r in results.rows.items()}


def compact(raw, out):
    loads = read_loads(raw)
    rounds = {}
    for name in sorted(os.listdir(raw)):
        match = RUN_FILE.fullmatch(name)
        if match:
            k, run = int(match.group(1)), match.group(2)
            entry = rounds.setdefault(k, {"round": k, "runs": {}, "load1": {}, "start_s": {}})
            entry["runs"][run] = compact_run(os.path.join(raw, name))
            entry["start_s"][run], entry["load1"][run] = loads.get((k, run), (None, None))
    complete = [rounds[k] for k in sorted(rounds) if len(rounds[k]["runs"]) == 3]
    with open(out, "w") as f:
        json.dump({"rounds": complete}, f, separators=(",", ":"))
    print(f"{len(complete)} complete rounds of {len(rounds)} into {out}")


def job_points(rounds, x, y, keep_contended=False):
    """ab_judge's points dict for runs x (base) and y (head) of the given rounds; contended pairs
    left out and counted, unless keep_contended (the analysis of a machine that is always busy)."""
    points = {}
    for r in rounds:
        for name, (vb, cb) in r["runs"][x].items():
            if name not in r["runs"][y]:
                continue
            vh, ch = r["runs"][y][name]
            entry = points.setdefault(name, {"base": [], "head": [], "contended": 0})
            if (cb or ch) and not keep_contended:
                entry["contended"] += 1
            elif vb and vh:
                entry["base"].append(vb)
                entry["head"].append(vh)
    return points


SCREEN_DRAWS = 1000
SCREEN_P = 0.05


def job_p(base, head, rng):
    """ab_judge's p, computed in full only when 1000 drawn swaps give p <= 0.05: a point above
    that cannot be flagged at alpha 0.01 (its true p would have to be under a fifth of the
    estimate from 1000 draws), so its estimate stands in (a speed-up of the analysis only)."""
    n = len(base)
    if n > 10:
        screen = rng.random((SCREEN_DRAWS, n)) < 0.5
        screen[0] = False
        p = ab_judge.permutation_p(base, head, rng, swaps=screen)
        if p > SCREEN_P:
            return p
    return ab_judge.permutation_p(base, head, rng)


def alarms(points, alpha, rng, test="median"):
    """{point: ratio} of the points a job flags (ab_judge's test, --test, and Holm's
    adjustment)."""
    tested = {n: e for n, e in points.items() if len(e["base"]) >= ab_judge.MIN_PAIRS}
    names = sorted(tested)
    p_of = job_p if test == "median" else ab_judge.TESTS[test][0]
    p = [p_of(tested[n]["base"], tested[n]["head"], rng) for n in names]
    adjusted = ab_judge.holm(p)
    return {n: ab_judge.ratio_of_medians(tested[n]["base"], tested[n]["head"])
            for n, q in zip(names, adjusted) if q <= alpha}


def groups(n_rounds, k, jobs, rng):
    """(disjoint consecutive groups, drawn groups) of round indices."""
    disjoint = [list(range(i, i + k)) for i in range(0, n_rounds - k + 1, k)]
    drawn = [sorted(rng.choice(n_rounds, size=k, replace=False).tolist()) for _ in range(jobs)]
    return disjoint, drawn


def score(rounds, group_list, slowed, alpha, rng, keep=False, test="median"):
    """Counts over the jobs of group_list: found (the slowed point flagged slower in the a/s job),
    other (another point flagged in the a/s job), null (any point flagged in the a/b job)."""
    found = other = null = judged = 0
    for g in group_list:
        chosen = [rounds[i] for i in g]
        slow = alarms(job_points(chosen, "a", "s", keep), alpha, rng, test)
        found += slow.get(slowed, 0) > 1
        other += any(n != slowed for n in slow)
        null_alarms = alarms(job_points(chosen, "a", "b", keep), alpha, rng, test)
        null += bool(null_alarms)
        judged += any(len(e["base"]) >= ab_judge.MIN_PAIRS
                      for e in job_points(chosen, "a", "b", keep).values())
    return {"jobs": len(group_list), "found": found, "other_alarm": other, "null_alarm": null,
            "null_judged": judged}


def overall(rounds, slowed):
    """Every round's pairs at once, contended ones too: the slowed point's ratio of medians (a/s,
    a/b), and the contended rows."""
    slow = job_points(rounds, "a", "s", True)[slowed]
    null = job_points(rounds, "a", "b", True)[slowed]
    flags = sum(c for r in rounds for run in r["runs"].values() for _, c in run.values())
    rows = sum(len(run) for r in rounds for run in r["runs"].values())
    return {"slowed_ratio": ab_judge.ratio_of_medians(slow["base"], slow["head"]),
            "null_ratio": ab_judge.ratio_of_medians(null["base"], null["head"]),
            "pairs": len(slow["base"]), "contended_rows": flags, "rows": rows}


def null_spread(rounds):
    """{point: sd of log(b / a) over the rounds, contended pairs kept}: the round-to-round noise
    a job's test works against."""
    return {n: float(np.std(np.log(np.array(e["head"]) / np.array(e["base"]))))
            for n, e in sorted(job_points(rounds, "a", "b", True).items()) if len(e["base"]) > 1}


def run_seconds(rounds):
    """The median time of one run (s), from the start times of consecutive runs."""
    starts = sorted(s for r in rounds for s in r["start_s"].values() if s)
    gaps = np.diff(starts)
    return float(np.median(gaps[gaps < 120])) if len(gaps) else None


def open_rounds(path):
    """ROUNDS.json, or ROUNDS.json.gz as committed (results/ab/idle/)."""
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def analyze(path, out, ks, jobs, alpha, slowed, seed, test="median"):
    with open_rounds(path) as f:
        rounds = json.load(f)["rounds"]
    rng = np.random.default_rng(seed)
    per_run = run_seconds(rounds)
    loads = [v for r in rounds for v in r["load1"].values() if v is not None]
    doc = {"rounds": len(rounds), "alpha": alpha, "slowed_point": slowed, "test": test,
           "run_s": per_run, "load1": {"median": float(np.median(loads)), "max": max(loads)},
           "overall": overall(rounds, slowed), "null_log_sd": null_spread(rounds), "by_k": []}
    for k in ks:
        disjoint, drawn = groups(len(rounds), k, jobs, rng)
        entry = {"k": k, "job_runs_s": per_run * 2 * k if per_run else None,
                 "disjoint": score(rounds, disjoint, slowed, alpha, rng, False, test),
                 "drawn": score(rounds, drawn, slowed, alpha, rng, False, test),
                 "disjoint_contended_kept": score(rounds, disjoint, slowed, alpha, rng, True,
                                                  test),
                 "drawn_contended_kept": score(rounds, drawn, slowed, alpha, rng, True, test)}
        doc["by_k"].append(entry)
        print(json.dumps(entry), flush=True)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def percent(n, total):
    return f"{n} / {total} ({100 * n / total:.0f} %)" if total else "-"


def table(path):
    """The markdown tables of an analyze output: one per way of forming jobs."""
    with open(path) as f:
        doc = json.load(f)
    lines = []
    for kind, title in (("disjoint", "disjoint groups of K consecutive rounds"),
                        ("drawn", "K rounds drawn at random, contended pairs left out"),
                        ("disjoint_contended_kept", "disjoint groups, contended pairs kept"),
                        ("drawn_contended_kept", "drawn rounds, contended pairs kept")):
        lines += [f"{title}:", "",
                  "| K | job's runs | jobs | 5 % slowdown found | other point flagged "
                  "| no-change job judged | no-change job flagged |",
                  "|---|---|---|---|---|---|---|"]
        for e in doc["by_k"]:
            c = e[kind]
            runs = f"{e['job_runs_s'] / 60:.1f} min" if e["job_runs_s"] else "-"
            lines.append(f"| {e['k']} | {runs} | {c['jobs']} | {percent(c['found'], c['jobs'])} "
                         f"| {percent(c['other_alarm'], c['jobs'])} "
                         f"| {percent(c['null_judged'], c['jobs'])} "
                         f"| {percent(c['null_alarm'], c['jobs'])} |")
        lines.append("")
    print("\n".join(lines))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="ab_power.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compact")
    c.add_argument("raw")
    c.add_argument("out")
    a = sub.add_parser("analyze")
    a.add_argument("rounds")
    a.add_argument("out")
    a.add_argument("--k", default="4,8,12,16,20")
    a.add_argument("--jobs", type=int, default=400)
    a.add_argument("--alpha", type=float, default=0.01)
    a.add_argument("--slowed", default="mpi/pingpong/np:2/bytes:8")
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--test", choices=sorted(ab_judge.TESTS), default="median",
                   help="the judge's test (ab_judge.py --test)")
    t = sub.add_parser("table")
    t.add_argument("power")
    args = parser.parse_args(argv)
    if args.command == "table":
        table(args.power)
    elif args.command == "compact":
        compact(args.raw, args.out)
    else:
        analyze(args.rounds, args.out, [int(k) for k in args.k.split(",")], args.jobs,
                args.alpha, args.slowed, args.seed, args.test)
    return 0


if __name__ == "__main__":
    sys.exit(main())
