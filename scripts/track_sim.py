#!/usr/bin/python3
"""How well track.py check tells a step from noise, on synthetic histories with the noise of the
project's own history (track_noise.py fits it), replayed as CI runs it: after every run, add it
and check.

  track_sim.py [--history DIR] [--trials 50] [--runs 30] [--points 18] [--stepped 6]
               [--scenario NAME ...] [--seed 1] [--jobs 1] [--out DIR]
               [--rounds ROUNDS.json.gz [--per-commit N] [--draw consecutive|random]]
               [--replay every|step]

Each trial is a history of --runs runs of --points points. A point's run median is its level
times exp(shared + own): shared, drawn once per run for every point (a busy or a quiet host),
own, per point, whose log-sd is drawn per point from the fitted points' (sd_run_points), the two
splitting the variance as the fit's "shared" says; its repetitions spread sigma_rep around it;
a share of point-runs is contended (flagged as PSI does) and that many times slower (the fit's
10th to 90th percentile). The scenarios change --stepped of the points:

  noise     nothing changes
  step10    a 10 % slowdown from run 10 + trial % 11 on
  step25    a 25 % slowdown, likewise
  drift1    1 % slower every run from run 0
  outliers  nothing changes, but 15 % of point-runs are contended and 1.2-2.5x slower

With --rounds, a history is not drawn from the model but resampled from measured runs of one
build (track_sim_pool.py: their placement modes, shared shifts and contention as measured),
--stepped of its points (turning with the trial) scaled by the scenario, and track.py splits
its points by placement mode as it splits a real history's; --points is the pool's. With
--per-commit N a commit's entry is N measured runs folded into one (track_aggregate.py), as CI
folds the A/B gate's head runs into the history: N consecutive runs as measured, or with --draw
random any N (the states that outlast a run broken up).

The replay checks after each run from the 6th (25 checks for 30 runs) with track.py's detection
(track.detect_all: its defaults, the newest run judged by Holm across the points); a check is red
when it reports a regression at its newest run. Per scenario it counts: checks red at the step's
commit (or the next), false red checks (a red check at a commit before any change, over all
such checks; noise and outliers: every check), late red checks (after the step's next commit),
histories with a false red; and on the whole
history: stepped series with the step found at its commit +-1 (drift1: a slowdown anywhere),
the change commits reported per
history (one step should be one), series that are not stepped with a change, the median ratio
reported where the step was found and how often its interval held the true ratio.

Writes DIR/simulation.json and DIR/README.md (default results/tracking), prints the table.
Exit status: 0; 2 bad usage or a history that cannot be fitted (one line on stderr).
"""

import argparse
import collections
import json
import math
import os
import sys
import time
import types

import numpy as np

import changepoint
import comops_results as cr
import track
import track_ingest
import track_noise
import track_sim_pool

PROG = "track_sim.py"
FIRST_CHECK = 6   # the replay checks from this run on (fewer runs: nothing to test against)
SCENARIOS = {"noise": ("none", 1.0), "step10": ("step", 1.10), "step25": ("step", 1.25),
             "drift1": ("drift", 1.01), "outliers": ("none", 1.0)}
OUTLIER_SHARE, OUTLIER_FACTOR = 0.15, (1.2, 2.5)
DEFAULT_OUT = os.path.join("results", "tracking")


def step_of(trial):
    return 10 + trial % 11


def effect(kind, size, run, step_at):
    """The stepped points' factor at run."""
    if kind == "step":
        return size if run >= step_at else 1.0
    if kind == "drift":
        return size ** run
    return 1.0


def _contention(scenario, model):
    if scenario == "outliers":
        return OUTLIER_SHARE, OUTLIER_FACTOR
    return model["contended_share"], tuple(model["contended_factor"])


def history(rng, model, scenario, trial, args):
    """One trial's series: a list (one per point) of lists of changepoint.Run."""
    kind, size = SCENARIOS[scenario]
    share, factor = _contention(scenario, model)
    shared_sd = math.sqrt(model["shared"]) * model["sd_run"]
    own = [math.sqrt(1 - model["shared"]) * s
           for s in rng.choice(model["sd_run_points"], args.points)]
    run_shift = rng.normal(0.0, shared_sd, args.runs)
    series = []
    for p in range(args.points):
        runs = []
        for i in range(args.runs):
            level = math.exp(run_shift[i] + rng.normal(0.0, own[p]))
            if p < args.stepped:
                level *= effect(kind, size, i, step_of(trial))
            reps = level * np.exp(rng.normal(0.0, model["sigma_rep"], args.reps))
            contended = bool(rng.random() < share)
            if contended:
                reps = reps * rng.uniform(*factor)
            runs.append(changepoint.Run(float(np.median(reps)), [float(r) for r in reps],
                                        contended))
        series.append(runs)
    return series


Change = collections.namedtuple("Change", "run direction ratio ci")


def pool_history(rng, model, scenario, trial, args):
    """A history resampled from args.pool (track_sim_pool.py) and the order of its points that
    puts the stepped ones first: the --stepped points turn with the trial, so every point is
    stepped in some trials."""
    kind, size = SCENARIOS[scenario]
    pool = track_sim_pool.POOL
    npoints = len(pool[0])
    stepped = {(trial * args.stepped + j) % npoints for j in range(args.stepped)}

    def factor_at(p, run):
        return effect(kind, size, run, step_of(trial)) if p in stepped else 1.0

    points = track_sim_pool.history(rng, pool, factor_at, args.runs, model["sigma_rep"],
                                    args.reps, args.per_commit, args.draw)
    order = sorted(range(npoints), key=lambda p: p not in stepped)
    return points, order


class _Prefix:
    """track.detect_all's view of a series cut to its first n runs."""
    def __init__(self, runs, n):
        self.runs = runs[:n]
        self.global_runs = list(range(n))


def check(series, n, detection):
    """track.py's detection of the first n runs: changes per series."""
    keys = [("sim", f"p{j}", 2, 8, "") for j in range(len(series))]
    changes, _, _ = track.detect_all([_Prefix(runs, n) for runs in series], keys, detection)
    return changes


def checked_runs(scenario, trial, args):
    """The history lengths the replay checks at: every run from FIRST_CHECK on, or with
    --replay step a step scenario's step and the run after it only."""
    kind, _ = SCENARIOS[scenario]
    if args.replay == "step" and kind == "step":
        return [n for n in (step_of(trial) + 1, step_of(trial) + 2) if n <= args.runs]
    return list(range(FIRST_CHECK, args.runs + 1))


def replay(series, lengths, detection):
    """{run: red} for the checks after each of lengths runs (run: the newest run's index)."""
    red = {}
    for n in lengths:
        changes = check(series, n, detection)
        red[n - 1] = any(c.index == n - 1 and c.direction == "regression"
                         for per in changes for c in per)
    return red


def replay_pool(points, lengths, detection):
    """replay() for a resampled history: its points split by placement mode at each check."""
    red = {}
    for n in lengths:
        found = track_sim_pool.check(points, n, detection)
        red[n - 1] = any(run == n - 1 and direction == "regression"
                         for _, per in found for run, direction, *_ in per)
    return red


def judge_history(changes, scenario, trial, args):
    """The whole history's figures of one trial; changes: per point, (run, direction, ratio,
    ci) of each change, the stepped points first."""
    kind, size = SCENARIOS[scenario]
    step_at = step_of(trial) if kind == "step" else None
    stepped, others = changes[:args.stepped], changes[args.stepped:]
    found = [next((c for c in per if c.direction == "regression" and (
        kind == "drift" or step_at is not None and abs(c.run - step_at) <= 1)), None)
        for per in stepped]
    commits = {c.run for per in changes for c in per}
    return {"found": sum(f is not None for f in found), "stepped": len(stepped),
            "commits": len(commits), "others_changed": sum(bool(per) for per in others),
            "others": len(others),
            "ratios": [f.ratio for f in found if f is not None],
            "covered": [f.ci[0] <= size <= f.ci[1] for f in found if f is not None]}


def run_trial(scenario, trial, model, args, detection):
    """One trial's counts (its own generator: the figures do not depend on --jobs)."""
    kind, _ = SCENARIOS[scenario]
    rng = np.random.default_rng([args.seed, list(SCENARIOS).index(scenario), trial])
    lengths = checked_runs(scenario, trial, args)
    if args.pool is None:
        series = history(rng, model, scenario, trial, args)
        red = replay(series, lengths, detection)
        whole = [[Change(c.index, c.direction, c.ratio, c.ci) for c in per]
                 for per in check(series, args.runs, detection)]
    else:
        points, order = pool_history(rng, model, scenario, trial, args)
        red = replay_pool(points, lengths, detection)
        whole = [[] for _ in points]
        for p, per in track_sim_pool.check(points, args.runs, detection):
            whole[order.index(p)] += [Change(*c) for c in per]
    at = step_of(trial) if kind == "step" else None
    # quiet: the checks of commits before any change (after a step, a red check is late,
    # not false: those runs are slower than the ones before the step)
    quiet = [r for run, r in red.items() if kind == "none" or (kind == "step" and run < at)]
    late = [r for run, r in red.items() if kind == "step" and run > at + 1]
    whole = judge_history(whole, scenario, trial, args)
    return {"red_at_step": bool(at is not None and red.get(at)),
            "red_at_step_or_next": bool(at is not None and (red.get(at) or red.get(at + 1))),
            "false_red": sum(quiet), "quiet_checks": len(quiet),
            "histories_false_red": any(quiet), "late_red": sum(late),
            "late_checks": len(late), **whole}


def run_all(scenarios, model, args, detection):
    """{scenario: summary}, the trials spread over args.jobs processes."""
    tasks = [(name, trial, model, args, detection) for name in scenarios
             for trial in range(args.trials)]
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(args.jobs) as pool:
            outcomes = pool.starmap(run_trial, tasks)
    else:
        outcomes = [run_trial(*task) for task in tasks]
    results = {}
    for name in scenarios:
        mine = [o for (n, *_), o in zip(tasks, outcomes) if n == name]
        out = {k: sum(o[k] for o in mine) for k in mine[0] if not isinstance(mine[0][k], list)}
        out.update(commits=[o["commits"] for o in mine],
                   ratios=[r for o in mine for r in o["ratios"]],
                   covered=[c for o in mine for c in o["covered"]])
        results[name] = summarise(out, args)
    return results


def summarise(out, args):
    share = (lambda a, b: a / b if b else None)
    return {"trials": args.trials,
            "red_at_step": share(out["red_at_step"], args.trials),
            "red_at_step_or_next": share(out["red_at_step_or_next"], args.trials),
            "false_red_per_check": share(out["false_red"], out["quiet_checks"]),
            "quiet_checks": out["quiet_checks"],
            "late_red_per_check": share(out["late_red"], out["late_checks"]),
            "histories_with_false_red": share(out["histories_false_red"], args.trials),
            "stepped_series_found": share(out["found"], out["stepped"]),
            "change_commits_per_history": float(np.mean(out["commits"])),
            "histories_with_one_change_commit": share(sum(c == 1 for c in out["commits"]),
                                                      args.trials),
            "other_series_with_a_change": share(out["others_changed"], out["others"]),
            "median_ratio_found": float(np.median(out["ratios"])) if out["ratios"] else None,
            "interval_coverage": share(sum(out["covered"]), len(out["covered"]))}


def _pct(value):
    return "-" if value is None else f"{100 * value:.0f} %" if value >= 0.01 or value == 0 \
        else f"{100 * value:.1f} %"


COLUMNS = (("red at the step's commit (or next)", lambda r: f"{_pct(r['red_at_step'])} "
            f"({_pct(r['red_at_step_or_next'])})"),
           ("false red per check", lambda r: _pct(r["false_red_per_check"])),
           ("late red per check", lambda r: _pct(r["late_red_per_check"])),
           ("histories with a false red", lambda r: _pct(r["histories_with_false_red"])),
           ("stepped series found +-1 (drift: anywhere)",
            lambda r: _pct(r["stepped_series_found"])),
           ("change commits per history", lambda r: f"{r['change_commits_per_history']:.2f}"),
           ("other series with a change", lambda r: _pct(r["other_series_with_a_change"])),
           ("ratio found (interval held it)", lambda r: "-" if r["median_ratio_found"] is None
            else f"{r['median_ratio_found']:.3f} ({_pct(r['interval_coverage'])})"))


def table(results):
    head = "| scenario | " + " | ".join(c for c, _ in COLUMNS) + " |"
    rows = [f"| {name} | " + " | ".join(f(r) for _, f in COLUMNS) + " |"
            for name, r in results.items()]
    return "\n".join([head, "|" + "---|" * (len(COLUMNS) + 1)] + rows)


def _replay_note(args):
    note = ""
    if args.per_commit > 1:
        note += (f"; each commit's entry folded from {args.per_commit} measured runs "
                 f"({args.draw}; --per-commit, track_aggregate.py), as CI folds the A/B gate's "
                 "head runs")
    if args.replay == "step":
        note += ("; a step scenario's replay, --replay step, only at the step's commit and the "
                 "next: no false or late red figures for it")
    return note


def readme(noise, results, args, command, seconds):
    return f"""# Regression tracking on simulated histories at this project's measured noise

Written by `{command}` ({seconds:.0f} s on this 2-core machine, shared). scripts/track_sim.py says how
each history is made and each figure counted; scripts/track_noise.py how the noise is fitted.

{noise}.

{args.trials} trials per scenario, {args.runs} runs, {args.points} points ({args.stepped} of
them stepped or drifting), the CI replay checking after every run from the
{FIRST_CHECK}th ({args.runs - FIRST_CHECK + 1} checks per history{_replay_note(args)}), track.py check's defaults
(splits by Benjamini-Hochberg at 0.01 across the points, newest run by Holm at 0.01 across
them):

{table(results)}

"false red per check": red checks at commits before any change, over those checks (noise and
outliers: every check; drift1 changes every commit, so it has none); the rate Holm holds at
0.01 per check. "late red per check": red checks after the step's next commit, over those
checks (the history was slower than before the step, but the step's commit was missed).
"""


def parse(argv):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--history", default=track_noise.DEFAULT_HISTORY, metavar="DIR",
                        help="the history the noise is fitted to (default %(default)s)")
    for name, default in (("trials", 50), ("runs", 30), ("points", 18), ("stepped", 6),
                          ("reps", 5), ("seed", 1), ("jobs", 1)):
        parser.add_argument(f"--{name}", type=track.positive_int, default=default,
                            help=f"default {default}")
    parser.add_argument("--scenario", action="append", choices=list(SCENARIOS),
                        help="scenarios to run (repeatable; default all; with --rounds all "
                        "but outliers, whose contention is the model's)")
    parser.add_argument("--rounds", dest="pool", metavar="ROUNDS.json.gz",
                        help="resample the histories from these measured runs "
                        "(track_sim_pool.py) instead of the noise fitted to --history (which "
                        "then gives sigma_rep only)")
    parser.add_argument("--per-commit", type=track.positive_int, default=1, metavar="N",
                        help="with --rounds: each commit's entry folded from N measured runs "
                        "(track_aggregate.py), as CI folds the A/B gate's head runs (default 1: "
                        "one run a commit)")
    parser.add_argument("--draw", choices=("consecutive", "random"), default="consecutive",
                        help="with --per-commit: a commit's runs consecutive as measured "
                        "(default: states that outlast a run stay together, as in a gate job) "
                        "or drawn at random (what independent runs would give)")
    parser.add_argument("--replay", choices=("every", "step"), default="every",
                        help="checks of a step scenario's replay: after every run (default) or "
                        "at the step's commit and the next only (faster; no false or late "
                        "red figures for it)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help="where simulation.json and README.md go (default %(default)s)")
    args = parser.parse_args(argv)
    if args.stepped > args.points or args.runs <= FIRST_CHECK:
        parser.error(f"--stepped must be at most --points and --runs above {FIRST_CHECK}")
    if args.per_commit > 1 and not args.pool:
        parser.error("--per-commit needs --rounds (it folds measured runs)")
    if args.pool and "outliers" in (args.scenario or ()):
        parser.error("--rounds keeps the measured contention: the outliers scenario is the "
                     "model's only")
    return args


def main(argv=None):
    args = parse(argv)
    try:
        model = track_noise.fit(*track_noise.load_series([args.history]))
        if args.pool:
            track_sim_pool.POOL = track_sim_pool.load(args.pool)
            keys, runs = track_sim_pool.POOL
            if len(keys) < args.stepped or len(runs) < args.runs * args.per_commit:
                raise ValueError(f"{args.pool} has {len(keys)} points and {len(runs)} runs: "
                                 f"fewer than --stepped {args.stepped} or --runs {args.runs} "
                                 f"x --per-commit {args.per_commit}")
            args.points = len(keys)
    except (track_ingest.IngestError, cr.ResultsError, ValueError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    noise = (track_sim_pool.describe(track_sim_pool.POOL, args.pool) if args.pool else
             "The noise, fitted to results/history/ (`/usr/bin/python3 scripts/track_noise.py`):"
             f"\n{track_noise.describe(model)}")
    scenarios = args.scenario or [n for n in SCENARIOS if not (args.pool and n == "outliers")]
    detection = types.SimpleNamespace(alpha=changepoint.ALPHA, newest_alpha=track.NEWEST_ALPHA,
                                      permutations=None, keep_contended=False)
    start = time.monotonic()
    results = run_all(scenarios, model, args, detection)
    seconds = time.monotonic() - start
    command = "/usr/bin/python3 scripts/track_sim.py " + " ".join(argv or sys.argv[1:])
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "simulation.json"), "w", encoding="utf-8") as f:
        json.dump({"command": command.strip(), "seconds": seconds, "model": model,
                   "settings": {k: getattr(args, k) for k in ("trials", "runs", "points",
                                                              "stepped", "reps", "seed",
                                                              "pool", "replay", "per_commit", "draw")},
                   "results": results}, f, indent=1)
        f.write("\n")
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme(noise, results, args, command.strip(), seconds))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
