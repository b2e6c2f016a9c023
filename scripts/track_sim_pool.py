"""Histories resampled from measured runs, for track_sim.py --rounds: the noise of real runs of
one build (their placement modes, the points' shared shifts, contention), not a fitted model.

A pool is the runs of A/B rounds (results/ab/placement/rounds.json.gz: runs "a" and "b" of the
same build in every round; idle-rounds.json.gz: the earlier boot's, each run's start probe as
every point's probe). A history draws --runs of them without replacement, in a random order
(commits of a history run on any boot mode, in any order), and multiplies the stepped points'
medians by the scenario's factor from the step on. A run keeps its points' medians, contended
flags and placement probes as measured; its repetitions are drawn sigma_rep around the median
(the pool keeps medians only; track.py's intervals use them, its tests the medians). With
per_commit N > 1 a commit is N consecutive runs of the pool folded into one entry
(track_aggregate.py), as CI's history folds the A/B gate's head runs: the step scales all N.
"""

import gzip
import json

import numpy as np

import ab_sequential
import changepoint
import track
import track_aggregate

KINDS = ("a", "b")  # the runs of the unchanged build in an A/B round
POOL = None         # the loaded pool, (keys, runs): set once, inherited by forked workers


class PoolError(ValueError):
    """A rounds file that is not one of ab_seq_power.py's."""


def load(path):
    """(point keys, runs): every run of KINDS in the rounds file, each a list aligned with the
    keys of (median us, contended, (probe before us, after us) or None)."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            rounds = json.load(f)["rounds"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PoolError(f"{path}: not a rounds file of ab_seq_power.py ({e})") from e
    keys, runs = None, []
    for r in rounds:
        for kind in KINDS:
            rows = r.get("runs", {}).get(kind)
            if not rows:
                continue
            these = [tuple(row[:4]) for row in rows]
            if keys is None:
                keys = these
            if these != keys:
                continue  # a run with other points (a failed one): not part of the pool
            runs.append([(row[4], bool(row[7]),
                          None if row[5] is None or row[6] is None else (row[5], row[6]))
                         for row in rows])
    if not runs:
        raise PoolError(f"{path}: no run of kinds {', '.join(KINDS)}")
    return keys, runs


def commit_entries(runs, factor_at, i):
    """[(median, contended, probe)] per point of one commit's runs (scaled by factor_at(point,
    i)), folded into one entry as track.py archive --aggregate folds the A/B gate's head runs
    when there are several."""
    scaled = [[(median * factor_at(p, i), contended, probe)
               for p, (median, contended, probe) in enumerate(run)] for run in runs]
    if len(runs) == 1:
        return scaled[0]
    bounds = track_aggregate.mode_bounds([v for run in scaled for v in run])
    return [track_aggregate.fold([run[p] for run in scaled], bounds)[:3]
            for p in range(len(scaled[0]))]


def commit_runs(rng, n_runs, count, per_commit, draw):
    """The pool indices of each commit's runs: draw "consecutive", per_commit runs one after the
    other as measured (states that last longer than a run stay together, as in one gate job),
    blocks drawn without replacement; "random", any per_commit runs, all distinct (states
    broken up: what independent runs would give)."""
    if count > n_runs // per_commit:
        raise PoolError(f"the pool has {n_runs} runs, fewer than the {count * per_commit} a "
                        "history needs")
    if draw == "random":
        chosen = rng.choice(n_runs, count * per_commit, replace=False)
        return [chosen[i * per_commit:(i + 1) * per_commit] for i in range(count)]
    blocks = rng.choice(n_runs // per_commit, count, replace=False)
    return [range(b * per_commit, (b + 1) * per_commit) for b in blocks]


def history(rng, pool, factor_at, count, sigma_rep, reps, per_commit=1, draw="consecutive"):
    """One history of `count` commits drawn from pool = (keys, runs), each one run or (per_commit
    > 1) an entry folded from per_commit runs (commit_runs: which): per point, its entries in
    track_store.points_of's form (run index, median, reps, contended, stall, oversubscribed,
    wrong, steal, probe); factor_at(point index, run index) scales a point's run."""
    keys, runs = pool
    commits = [commit_entries([runs[r] for r in chosen], factor_at, i)
               for i, chosen in enumerate(commit_runs(rng, len(runs), count, per_commit, draw))]
    points = []
    for p, key in enumerate(keys):
        entries = []
        for i, commit in enumerate(commits):
            median, contended, probe = commit[p]
            rep = median * np.exp(rng.normal(0.0, sigma_rep, reps))
            rep *= median / float(np.median(rep))  # the median is the measured one
            entries.append((i, median, [float(x) for x in rep], contended, None, False, 0, None,
                            probe))
        points.append((key + ("",), entries))
    return points


class _Prefix:
    """track.detect_all's view of one mode's series within a history's first n runs."""
    def __init__(self, entries):
        self.runs = [changepoint.Run(e[1], e[2], e[3]) for e in entries]
        self.global_runs = [e[0] for e in entries]


def check(points, n, detection):
    """track.py's detection over the first n runs of a history, points split by placement mode
    as track.py splits them: [(point index, [(global run, direction, ratio, ci)])]."""
    cut = [(key, [e for e in entries if e[0] < n]) for key, entries in points]
    index = {key: p for p, (key, _) in enumerate(points)}
    split, _ = track.split_by_mode(cut)
    series = [_Prefix(entries) for _, _, entries in split]
    keys = [key for key, _, _ in split]
    changes, _, _ = track.detect_all(series, keys, detection)
    return [(index[key], [(s.global_runs[c.index], c.direction, c.ratio, c.ci) for c in per])
            for key, s, per in zip(keys, series, changes)]


def describe(pool, path):
    keys, runs = pool
    probes = [v for r in runs for _, _, probe in r if probe for v in probe]
    bounds = ab_sequential.mode_bounds(probes) if probes else []
    centres = ab_sequential.mode_centres(probes, bounds) if bounds else []
    modes = np.searchsorted(bounds, probes) if bounds else np.zeros(len(probes))
    shares = [float(np.mean(modes == m)) for m in range(len(bounds) + 1)]
    text = ", ".join(f"{c:.3g} us ({s:.0%})" for c, s in zip(centres, shares)) or "one mode"
    contended = sum(c for r in runs for _, c, _ in r) / max(1, len(runs) * len(keys))
    return (f"{len(runs)} runs of {len(keys)} points from {path} (placement modes: {text}; "
            f"contended {contended:.1%} of point-runs)")

