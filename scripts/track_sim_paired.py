#!/usr/bin/python3
"""How well the paired history (track.py paired check, track_paired.py) finds a step at its
commit, on histories replayed from measured A/B rounds as CI makes them: each commit is one job
of the sequential gate (.ci/run's settings: a look every 4 rounds, at least 32 rounds, at most
240 s of runs, alpha 0.01, threshold 5 %), its entry archived, the history checked.

  track_sim_paired.py ROUNDS.json.gz [--trials 50] [--commits 12] [--stepped 1]
                      [--scenario NAME ...] [--seed 1] [--out DIR]

ROUNDS.json.gz: rounds of results/ab/measure.sh (ab_seq_power.py compact), runs a and b of one
build. A trial starts at a random round and cuts its jobs one after the other from there, in the
order measured (disjoint within a trial; the pool wraps around): base a, head b. --stepped of the
points (turning with the trial) are slowed in the head's runs:

  noise    nothing changes
  step5    5 % at the step's commit (commit 4 + trial % 5): its job's head runs are slower, the
           jobs after it compare the slower commit with itself
  step10   likewise 10 %
  step25   likewise 25 %
  drift1   1 % at every commit

Per scenario: checks red at the step's commit (the newest entry has a slower point), false red
checks (a red check at a commit that changed nothing, over all such checks), stepped series found
at their commit, steps reported elsewhere, and at the last commit each point's level since the
first (the product of its ratios) against the true one: the median of level / truth and how
often its approximate 95 % interval held the truth (stepped and not stepped points apart).

Writes DIR/simulation.json and DIR/README.md (default results/tracking/paired), prints the table.
Exit status: 0; 2 bad usage (one line on stderr).
"""

import argparse
import json
import os
import sys
import time

import numpy as np

import ab_judge
import ab_seq_power
import comops_results as cr
import track_paired

PROG = "track_sim_paired.py"
SCENARIOS = {"noise": ("none", 1.0), "step5": ("step", 1.05), "step10": ("step", 1.10),
             "step25": ("step", 1.25), "drift1": ("drift", 1.01)}
DEFAULT_OUT = os.path.join("results", "tracking", "paired")
JOB_ROUNDS = 160  # more than a job can use: 240 s of runs at the pool's fastest rounds


def gate_settings():
    """.ci/run's gate: ab_job.sh --min-rounds 32 --max-seconds 240 --alpha 0.01 --threshold 0.05."""
    return argparse.Namespace(max_seconds=240, max_rounds=400, look_every=4, min_rounds=32,
                              alpha=0.01, threshold=0.05)


def step_at(trial):
    return 4 + trial % 5


def factor(kind, size, commit, trial):
    """The stepped points' head / base factor of the job of commit."""
    if kind == "step":
        return size if commit == step_at(trial) else 1.0
    return size if kind == "drift" else 1.0


class Pool:
    """The measured rounds; jobs cut from them with the head's runs of some points scaled."""

    def __init__(self, rounds):
        self.rounds = rounds
        self.seconds = ab_seq_power.run_seconds(rounds)
        self.points = sorted({cr.key_name(tuple(x[:4])) for x in rounds[0]["runs"]["a"]},
                             key=lambda n: cr.sort_key(ab_seq_power.point_key(n)))
        self.cache = {}

    def window(self, start, scaled, f):
        """JOB_ROUNDS rounds from start (wrapping), the head's (b) medians of `scaled` times f."""
        out = []
        for i in range(JOB_ROUNDS):
            r = self.rounds[(start + i) % len(self.rounds)]
            head = [x[:4] + [x[4] * f] + x[5:] if cr.key_name(tuple(x[:4])) in scaled else x
                    for x in r["runs"]["b"]] if f != 1.0 else r["runs"]["b"]
            out.append({"runs": {"a": r["runs"]["a"], "b": head}})
        seconds = [self.seconds[(start + i) % len(self.rounds)] for i in range(JOB_ROUNDS)]
        return out, seconds

    def job(self, start, scaled, f):
        """(rounds used, the gate's verdict) of the job from start; cached."""
        key = (start % len(self.rounds), tuple(sorted(scaled)) if f != 1.0 else (), f)
        if key not in self.cache:
            rounds, seconds = self.window(start, set(scaled), f)
            used, _, doc = ab_seq_power.run_job(rounds, seconds, 0, "a", "b", gate_settings(),
                                                True)
            self.cache[key] = (used, doc)
        return self.cache[key]


def entry(doc, commit):
    """The paired entry of a simulated commit's verdict (as track.py paired archive keeps it)."""
    return {"schema": track_paired.SCHEMA, "base": f"c{commit - 1}", "head": f"c{commit}",
            "date": f"2026-01-01T00:{commit:02d}:00Z", "machine": "sim",
            "points": track_paired.verdict_points(doc, "simulated")}


def run_trial(pool, scenario, trial, args):
    kind, size = SCENARIOS[scenario]
    rng = np.random.default_rng([args.seed, trial])
    start = int(rng.integers(len(pool.rounds)))
    stepped = [pool.points[(trial * args.stepped + j) % len(pool.points)]
               for j in range(args.stepped)]
    entries, checks, truth = [], [], 1.0
    for commit in range(1, args.commits + 1):
        f = factor(kind, size, commit, trial)
        truth *= f
        used, doc = pool.job(start, stepped, f)
        if doc is None:
            raise SystemExit(f"{PROG}: error: a job ran out of rounds (JOB_ROUNDS)")
        start += used
        entries.append(entry(doc, commit))
        found = track_paired.check(entries)
        checks.append({"commit": commit, "changed": f != 1.0, "red": found["red"],
                       "slower": found["failing"]})
    found = track_paired.check(entries)
    return {"trial": trial, "stepped": stepped, "checks": checks, "truth": truth,
            "steps": [(int(s["commit"][1:]), s["point"]) for s in found["steps"]],
            "levels": found["levels"]}


def share(count, total):
    return {"count": count, "of": total, "rate": count / total if total else None}


def level_fit(trials, stepped_ones):
    """Median level / truth and the interval's coverage, over stepped (or other) points."""
    ratios, held = [], 0
    for t in trials:
        for name, level in t["levels"].items():
            if (name in t["stepped"]) != stepped_ones or level is None:
                continue
            true = t["truth"] if stepped_ones else 1.0
            ratios.append(level["level"] / true)
            held += level["low"] <= true <= level["high"]
    return {"median_level_over_truth": float(np.median(ratios)) if ratios else None,
            "interval_held": share(held, len(ratios))}


def summarise(scenario, trials, args):
    kind = SCENARIOS[scenario][0]
    at_step = [c for t in trials for c in t["checks"]
               if kind == "step" and c["commit"] == step_at(t["trial"])]
    clean = [c for t in trials for c in t["checks"]
             if not c["changed"] and (kind != "step" or c["commit"] < step_at(t["trial"]))]
    if kind == "drift":
        clean = []
    def hits(t):  # the reports a step should give: its stepped points at its commit
        return {(step_at(t["trial"]), p) for p in t["stepped"]} if kind == "step" else set()
    series_found = sum(len(hits(t) & set(t["steps"])) for t in trials)
    elsewhere = sum(1 for t in trials for s in t["steps"] if s not in hits(t))
    return {"scenario": scenario, "trials": len(trials),
            "red_at_step": share(sum(c["red"] for c in at_step), len(at_step)),
            "false_red": share(sum(c["red"] for c in clean), len(clean)),
            "stepped_found_at_commit": share(series_found, len(trials) * args.stepped
                                             if kind == "step" else 0),
            "steps_elsewhere": elsewhere,
            "level_stepped": level_fit(trials, True), "level_others": level_fit(trials, False)}


def pct(s):
    if not s["of"]:
        return "-"
    digits = 1 if 0 < s["rate"] < 0.1 or 0.99 < s["rate"] < 1 else 0
    return f"{100 * s['rate']:.{digits}f} % ({s['count']}/{s['of']})"


def table(summaries):
    lines = ["| scenario | red at the step's commit | false red per check | stepped series found "
             "at its commit | steps reported elsewhere | level / truth, stepped (interval held) "
             "| others' level interval held |", "|---|---|---|---|---|---|---|"]
    for s in summaries:
        ls, lo = s["level_stepped"], s["level_others"]
        stepped = ("-" if ls["median_level_over_truth"] is None else
                   f"{ls['median_level_over_truth']:.3f} ({pct(ls['interval_held'])})")
        lines.append(f"| {s['scenario']} | {pct(s['red_at_step'])} | {pct(s['false_red'])} | "
                     f"{pct(s['stepped_found_at_commit'])} | {s['steps_elsewhere']} | {stepped} "
                     f"| {pct(lo['interval_held'])} |")
    return lines


def readme(summaries, args, command, seconds, pool):
    return "\n".join([
        "# The paired history on simulated histories (track_sim_paired.py)", "",
        f"{args.trials} trials per scenario, {args.commits} commits each, {args.stepped} of "
        f"{len(pool.points)} points stepped, each commit one gate job as .ci/run runs it, cut "
        f"from the {len(pool.rounds)} measured rounds of {cr.show_path(args.rounds)} "
        f"({seconds:.0f} s to simulate).", "", *table(summaries), "", "```sh", command, "```",
        ""])


def parse(argv):
    parser = ab_judge.OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", metavar="ROUNDS.json.gz")
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--commits", type=int, default=12)
    parser.add_argument("--stepped", type=int, default=1)
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if args.trials < 1 or args.stepped < 1:
        parser.error("--trials and --stepped must be at least 1")
    if args.commits < 9:
        parser.error(f"--commits {args.commits} leaves no commit after the step (at least 9)")
    return args


def main(argv=None):
    args = parse(argv)
    try:
        rounds = ab_seq_power.load_rounds(args.rounds)
    except (OSError, ValueError, KeyError) as e:
        print(f"{PROG}: error: {cr.show_path(args.rounds)}: not a rounds file ({e})",
              file=sys.stderr)
        return 2
    if not rounds or any("b" not in r["runs"] for r in rounds):
        print(f"{PROG}: error: {cr.show_path(args.rounds)}: rounds without a and b runs",
              file=sys.stderr)
        return 2
    pool = Pool(rounds)
    if args.stepped > len(pool.points):
        print(f"{PROG}: error: --stepped {args.stepped}: the pool has {len(pool.points)} points",
              file=sys.stderr)
        return 2
    began = time.monotonic()
    summaries, raw = [], {}
    for scenario in args.scenario or list(SCENARIOS):
        trials = [run_trial(pool, scenario, t, args) for t in range(args.trials)]
        raw[scenario] = trials
        summaries.append(summarise(scenario, trials, args))
        print(table(summaries)[-1], flush=True)
    seconds = time.monotonic() - began
    command = "/usr/bin/python3 scripts/track_sim_paired.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "simulation.json"), "w") as f:
        json.dump({"settings": vars(args), "command": command, "summaries": summaries,
                   "trials": raw}, f, indent=1)
        f.write("\n")
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write(readme(summaries, args, command, seconds, pool))
    print("\n".join(table(summaries)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
