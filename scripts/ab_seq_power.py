#!/usr/bin/python3
"""Power and false alarms of the sequential A/B gate (scripts/ab_gate.py) as independent jobs,
from rounds measured by results/ab/measure.sh: three runs a round of one test build
(-DCOMOPS_TEST_SLOWDOWN=ON), a and b plain, s with one point slowed, the order turning (or
a and b only, measure.sh's KINDS="a b": no-change jobs only).

  ab_seq_power.py compact RAW_DIR OUT.json.gz
      the runs of RAW_DIR (run-NNN-{a,b,s}.json, load.txt) as one small file: per run and point
      the median time, the placement probes and the contended flag; per run its start time.
  ab_seq_power.py from-run-probe ROUNDS.json.gz CACHELINE.json OUT.json.gz
      rounds of ab_power.py compact (results/ab/idle, measured before the per-point probe) in
      this script's form, each run's probe the cache-line round trip at its start
      (CACHELINE.json: {"ROUND-RUN": us}) as the probe before and after every point: a run-wide
      placement, coarser than the per-point probe (a change within a run goes unseen).
  ab_seq_power.py analyze ROUNDS.json.gz --out POWER.json [options]
      cuts the rounds, in the order measured, into disjoint jobs, each run as the gate runs one
      (.ci/run's settings by default): a look every --look-every rounds, a stop when the gate
      may stop or the job's comops runs have taken --max-seconds, never before --min-rounds
      rounds (ab_job.sh --min-rounds; 0 by default). No-change jobs pair a with b,
      slowdown jobs a with s, each kind on its own rounds one job after the other; with modes
      (pairs of one placement mode, the gate) and without (every pair).
  ab_seq_power.py table POWER.json
      the table results/ab/placement/README.md shows.
  ab_seq_power.py signals ROUNDS.json.gz
      which signal tells the placement modes apart better, per point: Ashman's D between the
      modes (found over every probe) of the probe itself and of the point's own time.
"""

import argparse
import gzip
import json
import math
import os
import re
import sys
import types

import numpy as np

import ab_gate
import ab_judge
import ab_sequential as seq
import comops_results as cr

PROG = "ab_seq_power.py"
RUN_FILE = re.compile(r"run-(\d+)-([abs])\.json")


# --- compact ------------------------------------------------------------------------------------

def compact_run(path):
    """[[backend, op, np, bytes, median us, probe before, probe after, contended]] of a file."""
    out = []
    for key, row in cr.load(path).rows.items():
        probe = cr.placement_probe(row) or (None, None)
        out.append([*key, ab_judge.row_value(row), *probe, bool(row.get("contended"))])
    return out


def compact(raw, out):
    starts = {}
    with open(os.path.join(raw, "load.txt")) as f:
        for line in f:
            k, run, start = line.split()[:3]
            starts[(int(k), run)] = float(start)
    rounds = {}
    for name in sorted(os.listdir(raw)):
        match = RUN_FILE.fullmatch(name)
        if not match:
            continue
        k, run = int(match.group(1)), match.group(2)
        try:
            rows = compact_run(os.path.join(raw, name))
        except cr.ResultsError:
            continue  # the run an interruption cut short
        entry = rounds.setdefault(k, {"round": k, "runs": {}, "start_s": {}})
        entry["runs"][run] = rows
        entry["start_s"][run] = starts.get((k, run))
    size = max((len(r["runs"]) for r in rounds.values()), default=0)  # 3, or 2 (KINDS="a b")
    complete = [rounds[k] for k in sorted(rounds) if len(rounds[k]["runs"]) == size]
    with gzip.open(out, "wt") as f:
        json.dump({"rounds": complete}, f, separators=(",", ":"))
    print(f"{len(complete)} complete rounds of {len(rounds)} into {out}")


def from_run_probe(rounds_path, cacheline_path, out):
    with gzip.open(rounds_path, "rt") as f:
        old = json.load(f)["rounds"]
    with open(cacheline_path) as f:
        probe = json.load(f)
    rounds = []
    for r in old:
        runs = {}
        for run, points in r["runs"].items():
            us = probe.get(f"{r['round']}-{run}")
            runs[run] = [[*point_key(name), median, us, us, contended]
                         for name, (median, contended) in points.items()]
        rounds.append({"round": r["round"], "runs": runs, "start_s": r["start_s"]})
    with gzip.open(out, "wt") as f:
        json.dump({"rounds": rounds}, f, separators=(",", ":"))
    print(f"{len(rounds)} rounds into {out}")


def point_key(name):
    """(backend, op, np, bytes) of "mpi/pingpong/np:2/bytes:8"."""
    backend, op, np_, nbytes = name.split("/")
    return backend, op, int(np_.split(":")[1]), int(nbytes.split(":")[1])


def load_rounds(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)["rounds"]


# --- analyze ------------------------------------------------------------------------------------

def run_rows(compact_rows):
    """The .rows of one run, as ab_gate reads them."""
    rows = {}
    for backend, op, np_, nbytes, median, before, after, contended in compact_rows:
        row = {"time_us_reps": {"median": median}, "contended": contended}
        if before is not None:
            row["placement"] = {"before_us": before, "after_us": after, "cores": [0, 1]}
        rows[(backend, op, np_, nbytes)] = row
    return types.SimpleNamespace(rows=rows)


def run_seconds(rounds):
    """Per round, the seconds of one of its runs: the time to the next round's start over its
    runs (the last round: the median of the others)."""
    starts = [min(r["start_s"].values()) for r in rounds]
    gaps = [(b - a) / len(r["runs"]) for a, b, r in zip(starts, starts[1:], rounds)]
    gaps.append(sorted(gaps)[len(gaps) // 2] if gaps else 1.0)
    return gaps


def run_job(rounds, seconds, start, x, y, settings, use_modes):
    """One job from round `start` on: (rounds used, seconds of runs, doc)."""
    pairs = []
    spent = 0.0
    k = start
    doc = None
    while k < len(rounds):
        pairs.append((run_rows(rounds[k]["runs"][x]), run_rows(rounds[k]["runs"][y])))
        spent += 2 * seconds[k]
        k += 1
        if len(pairs) < settings.min_rounds:
            continue  # ab_job.sh --min-rounds: no stop, not even at the time limit, before
        if spent >= settings.max_seconds or len(pairs) >= settings.max_rounds:
            break
        if len(pairs) % settings.look_every == 0:
            doc = make_doc(pairs, settings, use_modes)
            if ab_gate.may_stop(doc):
                return len(pairs), spent, doc
    if len(pairs) < settings.min_rounds or (spent < settings.max_seconds
                                            and len(pairs) < settings.max_rounds):
        return len(pairs), spent, None  # the data ran out before the job ended
    return len(pairs), spent, make_doc(pairs, settings, use_modes)


def make_doc(pairs, settings, use_modes):
    return ab_gate.make_doc(pairs, "a", "b", settings.alpha, settings.threshold, {},
                            use_modes=None if use_modes else False)


def job_summary(doc, rounds_used, spent, slowed):
    slower = [p["point"] for p in doc["points"] if p["decision"] == "slower"]
    decisions = {p["point"]: p["decision"] for p in doc["points"]}
    return {"rounds": rounds_used, "seconds": round(spent, 1), "slower": slower,
            "found": slowed in slower, "false_alarm": bool(set(slower) - {slowed}),
            "undecided": sum(d == "undecided" for d in decisions.values()),
            "not_judged": sum(d == "not judged" for d in decisions.values()),
            "slowed_ratio": next((p["ratio"] for p in doc["points"] if p["point"] == slowed),
                                 None)}


def jobs_of(rounds, seconds, x, y, settings, use_modes, slowed):
    jobs = []
    start = 0
    while start < len(rounds):
        used, spent, doc = run_job(rounds, seconds, start, x, y, settings, use_modes)
        if doc is None:
            break
        jobs.append(job_summary(doc, used, spent, slowed))
        start += used
    return jobs


def rate(jobs, field):
    return {"count": sum(j[field] for j in jobs), "jobs": len(jobs)}


def analyze(path, out, settings):
    rounds = load_rounds(path)
    seconds = run_seconds(rounds)
    result = {"rounds": len(rounds), "settings": vars(settings), "designs": {}}
    for name, use_modes in (("modes", True), ("every pair", False)):
        null = jobs_of(rounds, seconds, "a", "b", settings, use_modes, settings.slowed)
        power = (jobs_of(rounds, seconds, "a", "s", settings, use_modes, settings.slowed)
                 if all("s" in r["runs"] for r in rounds) else [])  # KINDS="a b": none
        result["designs"][name] = {
            "no_change": {"false_alarms": rate(null, "false_alarm"), "jobs": null},
            "slowdown": {"found": rate(power, "found"), "false_alarms": rate(power, "false_alarm"),
                         "jobs": power}}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print("\n".join(table_lines(result)))


def median(values):
    return cr.median(values) if values else math.nan


def table_lines(result):
    s = result["settings"]
    at_least = (f", at least {s['min_rounds']} rounds" if s.get("min_rounds") else "")
    lines = [f"{result['rounds']} rounds; jobs as the gate runs them: a look every "
             f"{s['look_every']} rounds{at_least}, at most {s['max_seconds']} s of runs, alpha "
             f"{s['alpha']} per job, threshold {s['threshold']:.0%}; slowed point {s['slowed']}",
             "| design | jobs | found | false alarms | median rounds | median s of runs |",
             "|---|---|---|---|---|---|"]
    for name, d in result["designs"].items():
        for kind, found in (("slowdown", d["slowdown"]["found"]), ("no_change", None)):
            jobs = d[kind]["jobs"]
            if not jobs:
                continue  # rounds without s runs (KINDS="a b"): no slowdown jobs
            alarms = d[kind]["false_alarms"]
            shown = f"{found['count']} of {found['jobs']}" if found else "-"
            lines.append(f"| {name}, {kind.replace('_', ' ')} | {len(jobs)} | {shown} | "
                         f"{alarms['count']} of {alarms['jobs']} | "
                         f"{median([j['rounds'] for j in jobs]):g} | "
                         f"{median([j['seconds'] for j in jobs]):.0f} |")
    return lines


def ashman_d(a, b):
    a, b = np.log(a), np.log(b)
    return float(math.sqrt(2) * abs(a.mean() - b.mean()) / math.sqrt(a.var() + b.var()))


def signals(path):
    rounds = load_rounds(path)
    probes = [v for r in rounds for run in r["runs"].values() for x in run for v in x[5:7]
              if v is not None]
    bounds = seq.mode_bounds(probes)
    centres = seq.mode_centres(probes, bounds)
    print(f"{len(probes)} probes; modes at " + ", ".join(f"{c:.3g} us" for c in centres)
          + f" (bounds {', '.join(f'{b:.3g}' for b in bounds)} us)")
    if len(bounds) != 1:
        return
    print("| point | runs fast / slow / mixed | time slow / fast | D of the time | D of the probe |")
    print("|---|---|---|---|---|")
    points = {}
    for r in rounds:
        for run in r["runs"].values():
            for x in run:
                points.setdefault(tuple(x[:4]), []).append(
                    (seq.point_mode((x[5], x[6]), bounds), x[4], x[5]))
    for key, values in points.items():
        times = [np.array([t for m, t, _ in values if m == k]) for k in (0, 1)]
        probe = [np.array([p for m, _, p in values if m == k]) for k in (0, 1)]
        mixed = sum(1 for m, _, _ in values if m is None)
        print(f"| {cr.key_name(key)} | {len(times[0])} / {len(times[1])} / {mixed} | "
              f"{np.median(times[1]) / np.median(times[0]):.2f} | "
              f"{ashman_d(*times):.1f} | {ashman_d(*probe):.1f} |")


def parse_args(argv):
    parser = ab_judge.OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compact")
    c.add_argument("raw")
    c.add_argument("out")
    a = sub.add_parser("analyze")
    a.add_argument("rounds")
    a.add_argument("--out", required=True)
    a.add_argument("--max-seconds", type=float, default=240)
    a.add_argument("--max-rounds", type=int, default=400)
    a.add_argument("--look-every", type=int, default=4)
    a.add_argument("--min-rounds", type=int, default=0)
    a.add_argument("--alpha", type=float, default=0.01)
    a.add_argument("--threshold", type=float, default=0.05)
    a.add_argument("--slowed", default="mpi/pingpong/np:2/bytes:8")
    f = sub.add_parser("from-run-probe")
    f.add_argument("rounds")
    f.add_argument("cacheline")
    f.add_argument("out")
    t = sub.add_parser("table")
    t.add_argument("power")
    g = sub.add_parser("signals")
    g.add_argument("rounds")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.command == "compact":
        compact(args.raw, args.out)
    elif args.command == "analyze":
        settings = argparse.Namespace(**{k: getattr(args, k) for k in (
            "max_seconds", "max_rounds", "look_every", "min_rounds", "alpha", "threshold",
            "slowed")})
        analyze(args.rounds, args.out, settings)
    elif args.command == "from-run-probe":
        from_run_probe(args.rounds, args.cacheline, args.out)
    elif args.command == "signals":
        signals(args.rounds)
    else:
        with open(args.power) as f:
            print("\n".join(table_lines(json.load(f))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
