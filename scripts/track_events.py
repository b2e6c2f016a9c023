"""One step reported once across the points of a check (track.py): the E-divisive splits of
different points that fall within EVENT_SPAN runs of each other and step the same way are one
change, placed at the run most of them chose (ties: the run whose splits are the most
significant, the smallest sum of log p-values), and each point's split is moved there when its
neighbouring splits leave room. A step made by one commit then shows at one commit, with each
point's ratio measured from its two whole segments at that commit, instead of at two or three
neighbouring commits where noise put the individual splits.
"""

import collections
import math

import changepoint

EVENT_SPAN = 2  # splits of one event lie within this many runs of the earliest one


def _items(found, run_of):
    """(global run, direction, series, cut number, p) of each E-divisive split."""
    items = []
    for s, (f, runs) in enumerate(zip(found, run_of)):
        bounds = [0] + [c[0] for c in f.cuts] + [len(f.used)]
        for k, (pos, p, method) in enumerate(f.cuts):
            if method != "e-divisive":
                continue
            sign = changepoint._step_sign(f.logs, (bounds[k], pos), (pos, bounds[k + 2]))
            items.append((runs[pos], sign, s, k, p))
    return sorted(items)


def _events(items):
    """Greedy grouping: the earliest unassigned split opens an event that takes the splits of
    the same direction within EVENT_SPAN runs, at most one per series."""
    taken = [False] * len(items)
    events = []
    for i, (run0, sign, *_rest) in enumerate(items):
        if taken[i]:
            continue
        members, series = [], set()
        for j in range(i, len(items)):
            run, other_sign, s, k, p = items[j]
            if run > run0 + EVENT_SPAN:
                break
            if not taken[j] and other_sign == sign and s not in series:
                taken[j] = True
                series.add(s)
                members.append(items[j])
        events.append(members)
    return events


def _best_run(members):
    counts = collections.Counter(m[0] for m in members)
    evidence = collections.defaultdict(float)
    for run, _, _, _, p in members:
        evidence[run] += math.log(max(p, 1e-300))
    return min(counts, key=lambda run: (-counts[run], evidence[run], run))


def align(found, run_of):
    """found: one changepoint.Cuts per series; run_of: per series, the global run index of each
    of its used positions. Moves each E-divisive split to its event's run (in place, where the
    series measured that run or a later one before its next split) and returns the number of
    events."""
    events = _events(_items(found, run_of))
    for members in events:
        target = _best_run(members)
        for run, _, s, k, p in members:
            if run == target:
                continue
            f, runs = found[s], run_of[s]
            pos = next((i for i, r in enumerate(runs) if r >= target), None)
            lo = f.cuts[k - 1][0] if k > 0 else 0
            hi = f.cuts[k + 1][0] if k + 1 < len(f.cuts) else len(f.used)
            if pos is not None and lo < pos < hi:
                f.cuts[k] = (pos, p, "e-divisive")
    return len(events)
