"""One history entry from many runs of one commit: the A/B gate's head runs
(build/ab/rounds/head-NNN.json) folded into one results document, for track.py archive --aggregate.

One run per commit cannot show a 10 % step on a VM whose run medians spread 5-21 % from run to run
within one placement mode (docs/regression.md); the gate measures the head at least 32 times in
every CI run (ab_job.sh --min-rounds 32), up to about 90. The entry of a point is the trimmed mean
(10 % cut at each end, scipy.stats.trim_mean) of the run medians of its most frequent placement
mode. Not their median: within one probe mode a point's run medians can themselves be bimodal
(the 8-byte MPI reduce at 0.35 and 0.53 us, 60 / 40, on the boot of results/ab/placement), and
the median of 32 such runs jumps between the two; the trimmed mean moves smoothly with the share,
and a lone run 2x slower barely moves it:

- the modes are found from the probes of all the runs given (scripts/ab_sequential.py, as the
  gate finds them); a run's mode for a point is that of its probe before the point when the one
  after agrees; runs with a mixed probe are left out of that point (no probe anywhere: one mode);
- the mode with the most uncontended runs is used (a tie: the faster mode), and only its
  uncontended runs; a point contended in every run of every mode keeps its most frequent mode's
  runs and stays flagged contended;
- the row's repetitions become those runs' medians (rep_times_us), time_us_reps their trimmed
  mean ("median", the field the history reads) with min and max, its probe the
  medians of their probes, its stall and steal their medians, `wrong` the largest of any run,
  `oversubscribed` true if any run was; `aggregate` says how many runs of how many were used.

The context is the first run's, with `aggregate` (runs, rule), which also enters the machine's
fingerprint (track_ingest.py): entries of many runs form a history of their own, never mixed with
single runs, whose spread is another.
"""

import statistics

import scipy.stats

import ab_sequential
import comops_results as cr

RULE = "trimmed mean (10 % each end) over the runs of the point's most frequent placement mode"
TRIM = 0.1  # cut at each end of the sorted run medians


class AggregateError(ValueError):
    """Runs that cannot be folded into one entry; str() is the one line to print."""


def mode_bounds(values):
    """The mode bounds of the probes in values [(median, contended, probe or None)] of many
    points (ab_sequential.mode_bounds; [] with no probe: one mode)."""
    probes = [v for _, _, probe in values if probe for v in probe]
    return ab_sequential.mode_bounds(probes) if probes else []


def choose(values, bounds):
    """(indices used, contended) of one point's runs values [(median, contended, probe)]: the
    uncontended runs of its most frequent mode (a tie: the faster), or, when every run is
    contended, the most frequent mode's runs, contended. Runs with a mixed probe are left out;
    when every run is mixed, every run is used."""
    by_mode = {}
    for i, (_, _, probe) in enumerate(values):
        mode = 0 if not bounds else ab_sequential.point_mode(probe, bounds)
        if mode is not None:
            by_mode.setdefault(mode, []).append(i)
    if not by_mode:
        by_mode = {0: list(range(len(values)))}

    def clean(mode):
        return [i for i in by_mode[mode] if not values[i][1]]

    best = max(sorted(by_mode), key=lambda m: len(clean(m)))
    if clean(best):
        return clean(best), False
    return by_mode[max(sorted(by_mode), key=lambda m: len(by_mode[m]))], True


def centre(medians):
    """The folded value of run medians: their trimmed mean (TRIM at each end)."""
    return float(scipy.stats.trim_mean(medians, TRIM))


def fold(values, bounds):
    """(folded us, contended, probe or None, indices used) of one point's runs (see choose)."""
    used, contended = choose(values, bounds)
    probes = [values[i][2] for i in used if values[i][2]]
    probe = (tuple(statistics.median(p[k] for p in probes) for k in (0, 1)) if probes else None)
    return centre([values[i][0] for i in used]), contended, probe, used


def _median_of(rows, name):
    values = [r[name] for r in rows if isinstance(r.get(name), (int, float))]
    return statistics.median(values) if values else None


def _row(rows, used, contended, probe):
    """The folded row of one point from its rows in every run (used: the indices kept)."""
    kept = [rows[i] for i in used]
    medians = [cr.headline_us(r) for r in kept]
    row = dict(rows[0])
    row.update(repetitions=len(kept), rep_times_us=medians, contended=contended,
               time_us_reps={"min": min(medians), "median": centre(medians),
                             "max": max(medians)},
               cpu_stall_us=_median_of(kept, "cpu_stall_us"),
               cpu_steal_us=_median_of(kept, "cpu_steal_us"),
               wrong=max(int(r.get("wrong") or 0) for r in rows),
               oversubscribed=any(bool(r.get("oversubscribed")) for r in rows),
               aggregate={"runs": len(kept), "of": len(rows)})
    row.pop("time_us", None)  # per-rank statistics of one run: no meaning over many
    row.pop("percentiles_us", None)
    template = next((r["placement"] for r in kept if isinstance(r.get("placement"), dict)), None)
    if probe is not None and template is not None:
        row["placement"] = dict(template, before_us=probe[0], after_us=probe[1])
    else:
        row.pop("placement", None)
    return row


def _load(paths):
    """[(path, validated Results, raw document)] of the runs, all of one commit and one point
    set, or AggregateError."""
    if not paths:
        raise AggregateError("no run to aggregate")
    runs = []
    for path in paths:
        try:
            runs.append((path, cr.load(path), cr.read_document(path)))
        except cr.ResultsError as e:
            raise AggregateError(str(e))
    first_path, first, _ = runs[0]
    for path, results, _ in runs[1:]:
        if results.context.get("git_sha") != first.context.get("git_sha"):
            raise AggregateError(
                f"{cr.show_path(path)}: commit {results.context.get('git_sha')}, not "
                f"{first.context.get('git_sha')} as {cr.show_path(first_path)}: the runs of one "
                "commit only")
        if set(results.rows) != set(first.rows):
            raise AggregateError(f"{cr.show_path(path)}: other points than "
                                 f"{cr.show_path(first_path)}: the runs of one sweep only")
    return runs


def aggregate(paths):
    """The results document of one history entry folded from the runs in paths (see the module's
    docstring), or AggregateError with one line."""
    runs = _load(paths)
    keys = list(runs[0][1].rows)
    rows_of = {k: [results.rows[k] for _, results, _ in runs] for k in keys}
    values_of = {k: [(cr.headline_us(r), bool(r.get("contended")), cr.placement_probe(r))
                     for r in rows] for k, rows in rows_of.items()}
    for k, values in values_of.items():
        if any(v[0] is None for v in values):
            raise AggregateError(f"{cr.key_name(k)}: a run without a time")
    bounds = mode_bounds([v for values in values_of.values() for v in values])
    out = []
    for k in keys:
        _, contended, probe, used = fold(values_of[k], bounds)
        out.append(_row(rows_of[k], used, contended, probe))
    doc = dict(runs[0][2])
    doc["context"] = dict(doc.get("context") or {},
                          aggregate={"runs": len(runs), "rule": RULE})
    doc["results"] = out
    return doc
