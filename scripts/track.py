#!/usr/bin/python3
"""Tracks comops results over history: a run database, change-point detection, a dashboard.

  track.py add RUN.json|DIR ... [--db FILE]        store comops runs (a DIR: its *.json files)
  track.py import GBENCH.json ... [--db FILE] [--commit SHA] [--machine-name NAME]
                                                   store Google Benchmark JSON runs
  track.py archive RUN.json [--dir DIR]            write the run's small history file into DIR
  track.py archive --aggregate RUN.json ... [--dir DIR]
                                                   one entry folded from many runs of a commit
  track.py check [--db FILE] [--machine ID] [--json] [--report-only]
                                                   find the steps in each point's series
  track.py paired archive AB.json --head-run RUN.json [--dir DIR]
                                                   keep an A/B verdict (commit against parent)
  track.py paired check [--dir DIR] [--machine ID] [--json] [--report-only]
                                                   each step at its commit; levels; the newest
  track.py report [--db FILE] -o DIR [--ab AB.json] [--paired DIR]
                                                   write the HTML dashboard into DIR

The database (default results/history.sqlite) keeps per run: the commit (context.git_sha), the
date, the machine fingerprint (CPU model, cores, nodes, MPI library and version, compiler, and
the comops options that change times: bind, placement, pair, iterations, warm-up, MPI world
size, --sync when not none) and every point with its repetition times and noise fields (cpu_stall_us, contended,
oversubscribed, wrong). A run is identified by a hash of its content: adding it again stores
nothing. All files of one add are stored in one transaction, or none of them.

check: for each point (backend, op, np, bytes, pair) of one machine, the series of its run
medians ordered by date; change points by E-divisive means with a permutation test on the log
medians (Matteson and James 2014, as MongoDB's CI and Hunter/Otava use it), and a t prediction
test of the newest run against the runs since the last change; contended runs (PSI stall above
5 %) are left out of the detection (changepoint.py has the details). The points of one check
are judged together, so that its false-alarm rate is per check, not per point: each series'
best split is tested and Benjamini-Hochberg across the points (--alpha, 0.01) decides which
series are split, and at what level; the newest run's p-values go through Holm across the
points (--newest-alpha, 0.01). One step is reported once: neighbouring splits of a series that
step the same way are merged, and splits of different points within 2 runs of each other are
moved to the commit most of them chose (track_events.py). Each change: the commit where it
starts, the points it affects, before and after (the medians of the two whole segments), their
ratio with a 95 % bootstrap interval, and its p-value. report --ab FILE puts the latest A/B
job's verdict (scripts/ab_job.sh's ab.json) at the top of the dashboard.

paired: the history of the A/B gate's verdicts, one entry per commit (its ratios against its
parent from one job of interleaved runs, which a VM's slow states do not reach); paired check
reports each step once at its commit, the breaks of the chain of commits and each point's level
since the chain's start (track_paired.py).

Exit status: 0 done (check: the newest commit starts no significant regression); 1 check: the
newest commit starts a significant regression, paired check: the newest entry has a slower point
that is not accepted (--report-only: 0); 2 bad usage, a file that is
not a comops / Google Benchmark results file, or a database that is not track.py's (one line on
stderr, "track.py: error: ..."; nothing is stored); 3 the report module (track_report.py) is
missing or the report cannot be written.
"""

import argparse
import datetime
import glob
import hashlib
import json
import os
import sys
import tempfile

import numpy as np

import ab_sequential
import changepoint
import comops_results as cr
import track_aggregate
import track_events
import track_ingest
import track_paired
import track_store

PROG = "track.py"
DEFAULT_DB = os.path.join("results", "history.sqlite")
DEFAULT_HISTORY = os.path.join("results", "history")
DEFAULT_PAIRED = os.path.join(DEFAULT_HISTORY, "paired")
NEWEST_ALPHA = 0.01  # a check's false-alarm rate at the newest run, all points together (Holm)


class UsageError(Exception):
    """Bad input: the one line to print, exit 2."""


def error(text, status):
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return status


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def expand(paths):
    """Files to read: each path, a directory standing for its *.json files (sorted)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(glob.glob(os.path.join(glob.escape(path), "*.json")))
            if not found:
                raise UsageError(f"{cr.show_path(path)}: no .json file in this directory")
            files.extend(found)
        else:
            files.append(path)
    return files


def store(db, runs):
    conn = track_store.open_db(db, create=True)
    upgraded = []
    try:
        outcome = track_store.add_runs(conn, runs, now_utc(), upgraded)
        stored = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    finally:
        conn.close()
    for old in upgraded:
        print(f"{PROG}: note: {cr.show_path(db)}: upgraded from schema {old} to "
              f"{track_store.SCHEMA} (placement columns added; every row kept, {stored} runs "
              f"now)", file=sys.stderr)
    for run, (run_id, new) in zip(runs, outcome):
        what = "stored as" if new else "already stored as"
        print(f"{cr.show_path(run['file'])}: {what} run {run_id} (commit {run['commit']}, "
              f"{run['date']}, machine {run['machine']}, {len(run['points'])} points)")


def cmd_add(args):
    runs = []
    for path in expand(args.files):
        run = track_ingest.from_comops(path, args.commit, args.date)
        run["file"] = path
        runs.append(run)
    store(args.db, runs)
    return 0


def cmd_import(args):
    runs = []
    for path in expand(args.files):
        run = track_ingest.from_gbench(path, args.commit, args.date, args.machine_name)
        run["file"] = path
        runs.append(run)
    store(args.db, runs)
    return 0


def history_name(run):
    """'20261130T100000Z-abc1234.json': the run's date and commit (characters outside
    [A-Za-z0-9._-] of the commit become '_')."""
    commit = "".join(c if c.isalnum() or c in "._-" else "_" for c in run["commit"])[:40]
    return run["date"].replace("-", "").replace(":", "") + f"-{commit}.json"


def archived_run(args):
    """The run cmd_archive writes: args.files' one run, or with --aggregate one entry folded from
    all of them (track_aggregate.py)."""
    if not args.aggregate:
        if len(args.files) != 1:
            raise UsageError(f"archive takes one RUN.json ({len(args.files)} given); "
                             "--aggregate folds the runs of one commit into one entry")
        return track_ingest.from_comops(args.files[0], args.commit, args.date)
    try:
        doc = track_aggregate.aggregate(args.files)
    except track_aggregate.AggregateError as e:
        raise UsageError(str(e))
    return track_ingest.from_document(args.files[0], doc, args.commit, args.date)


def cmd_archive(args):
    run = archived_run(args)
    doc = run["stripped"]
    if args.points_of:
        keep = set(cr.load(args.points_of).rows)
        doc["results"] = [r for r in doc["results"] if cr.key(r) in keep]
        if not doc["results"]:
            raise UsageError(f"{cr.show_path(args.files[0])} has no point of "
                             f"{cr.show_path(args.points_of)}")
    return write_history_file(args.dir, history_name(run), doc)


def write_history_file(directory, name, doc):
    """Writes doc as directory/name, never replacing a file: the same content already there is
    'already there', other content an error."""
    if not os.path.isdir(directory):
        raise UsageError(f"{cr.show_path(directory)}: no such directory")
    target = os.path.join(directory, name)
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if os.path.lexists(target):
        if not os.path.isfile(target):
            raise UsageError(f"{cr.show_path(target)}: exists and is not a regular file")
        with open(target, encoding="utf-8", errors="replace") as f:
            if f.read() == text:
                print(f"{cr.show_path(target)}: already there")
                return 0
        raise UsageError(f"{cr.show_path(target)}: exists with other content; not replaced")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".track-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.link(tmp, target)  # fails if target appeared meanwhile: never replaces a file
    finally:
        os.unlink(tmp)
    print(target)
    return 0


def cmd_paired_archive(args):
    entry = track_paired.entry_of(args.verdict, args.head_run, args.date)
    name = history_name({"commit": entry["head"], "date": entry["date"]})  # DATE-HEAD.json
    return write_history_file(args.dir, name, entry)


def cmd_paired_check(args):
    entries = track_paired.of_machine(track_paired.load_entries(args.dir), args.machine)
    found = track_paired.check(entries)
    status = 1 if found["red"] and not args.report_only else 0
    if args.json:
        json.dump(dict(found, exit_status=status), sys.stdout, indent=1)
        print()
    else:
        print("\n".join(track_paired.report_lines(found)))
    if found["red"]:
        print(f"{PROG}: the newest commit {found['newest']} is slower than its parent: "
              f"{', '.join(found['failing'])}" + (" (report only)" if args.report_only else ""),
              file=sys.stderr)
    return status


def point_name(key):
    backend, op, np_, nbytes, pair = key
    if backend == "gbench":
        return op
    return cr.key_name((backend + (cr.INTER_SUFFIX if pair == "inter" else ""), op, np_, nbytes))


def point_order(key):
    backend, op, np_, nbytes, pair = key
    return (cr.op_order(op), backend, pair, np_, nbytes)


def seed_of(key):
    return int(hashlib.sha256(point_name(key).encode()).hexdigest()[:8], 16)


def split_levels(cp_series, args, rngs):
    """Per series, the level its splits are tested at (None: none): the p-values of every
    series' best single split, Benjamini-Hochberg across the points at args.alpha; the series
    it accepts are split at the level it accepted them at. Also returns the permutations."""
    permutations = args.permutations or changepoint.permutations_for(
        args.alpha / max(len(cp_series), 1))
    first = []
    for cp, rng in zip(cp_series, rngs):
        used, _ = changepoint.usable(cp.runs, args.keep_contended)
        logs = np.log([cp.runs[i].median for i in used]) if used else []
        first.append(changepoint.first_split_p(logs, args.alpha, permutations, rng=rng)
                     if len(used) >= 2 * changepoint.MIN_SIZE else None)
    accepted, level = changepoint.benjamini_hochberg(first, args.alpha)
    return [level if s in accepted else None for s in range(len(cp_series))], permutations


def detect_all(cp_series, keys, args):
    """The changes of every series of one check, judged together: splits where
    Benjamini-Hochberg across the points accepts them, the newest run by Holm across the
    points at args.newest_alpha, one step moved to one commit across points (track_events).
    Returns (changes per series, newest-run p-values, events)."""
    rngs = [np.random.default_rng(seed_of(key)) for key in keys]
    levels, permutations = split_levels(cp_series, args, rngs)
    found = [changepoint.find_cuts(cp.runs, level, permutations,
                                   keep_contended=args.keep_contended, rng=rng)
             for cp, level, rng in zip(cp_series, levels, rngs)]
    newest = changepoint.holm([f.newest_p for f in found], args.newest_alpha)
    run_of = [[cp.global_runs[i] for i in f.used] for cp, f in zip(cp_series, found)]
    events = track_events.align(found, run_of)
    changes = [changepoint.measure(cp.runs, f.used,
                                   changepoint.with_newest(f) if s in newest else f.cuts, rng)
               for s, (cp, f, rng) in enumerate(zip(cp_series, found, rngs))]
    return changes, [f.newest_p for f in found], events + len(newest)


def split_by_mode(points):
    """([(key, mode, entries)], mode centres in us): each point's series split by the placement
    mode of its runs (scripts/ab_sequential.py: modes found from all of the machine's probes,
    a run's mode that of its probe before the point when the one after agrees), so that runs
    are compared only within a mode. mode -1 gathers the runs with no probe or a mixed one. One
    mode (or no probes): every series whole, mode None, no centres."""
    probes = [v for _, entries in points for e in entries if e[8] for v in e[8]]
    bounds = ab_sequential.mode_bounds(probes) if probes else []
    if not bounds:
        return [(key, None, entries) for key, entries in points], []
    out = []
    for key, entries in points:
        by_mode = {}
        for e in entries:
            mode = ab_sequential.point_mode(e[8], bounds)
            by_mode.setdefault(-1 if mode is None else mode, []).append(e)
        out.extend((key, m, by_mode[m]) for m in sorted(by_mode, key=lambda m: (m < 0, m)))
    return out, ab_sequential.mode_centres(probes, bounds)


def mode_suffix(mode, modes):
    """" [mode 1: 0.06 us]" in a series name when the machine has modes."""
    if mode is None or not modes:
        return ""
    return " [no mode]" if mode < 0 else f" [mode {mode + 1}: {modes[mode]:.2g} us]"


class _Series:
    """One point's changepoint runs and the global run index of each."""
    def __init__(self, entries, index):
        self.runs = [changepoint.Run(median, reps, contended)
                     for _, median, reps, contended, *_ in entries]
        self.global_runs = [index[e[0]] for e in entries]


def analyse(conn, machine, fingerprint, args):
    """Runs and per-point series of one machine with their changes (the report's machine
    entry, plus what check prints)."""
    runs = track_store.runs_of(conn, machine)
    index = {run["id"]: i for i, run in enumerate(runs)}
    points, modes = split_by_mode(sorted(track_store.points_of(conn, machine).items(),
                                         key=lambda kv: point_order(kv[0])))
    cp_series = [_Series(entries, index) for _, _, entries in points]
    all_changes, newest_p, events = detect_all(cp_series, [k for k, _, _ in points], args)
    series = []
    excluded = kept_contended = 0
    for (key, mode, entries), cp, changes, p in zip(points, cp_series, all_changes, newest_p):
        used, contended_used = changepoint.usable(cp.runs, args.keep_contended)
        excluded += len(cp.runs) - len(used)
        kept_contended += contended_used
        first, stable = changepoint.stable_segment(cp.runs, changes, args.keep_contended)
        backend, op, np_, nbytes, pair = key
        series.append({
            "backend": backend, "op": op, "np": np_, "bytes": nbytes, "pair": pair or None,
            "unit": "us", "name": point_name(key) + mode_suffix(mode, modes),
            "point": point_name(key), "newest_p": p,
            "mode": None if mode is None else {"mode": mode + 1 if mode >= 0 else None,
                                               "centre_us": modes[mode] if mode >= 0 else None},
            "values": [{"run": index[run_id], "median": median, "reps": reps,
                        "contended": contended}
                       for run_id, median, reps, contended, *_ in entries],
            "changes": [{"run": cp.global_runs[c.index],
                         "after_run": cp.global_runs[c.index - 1] if c.index > 0 else -1,
                         "commit": runs[cp.global_runs[c.index]]["commit"],
                         "direction": c.direction, "ratio": c.ratio, "ci": list(c.ci),
                         "p_value": c.p_value, "method": c.method,
                         "before_median": c.before_median, "after_median": c.after_median}
                        for c in changes],
            "latest": entries[-1][1], "stable_median": stable,
            "stable_since_commit": runs[cp.global_runs[first]]["commit"]})
    return {"id": machine, "fingerprint": fingerprint,
            "runs": [{"commit": r["commit"], "date": r["date"]} for r in runs],
            "series": series, "excluded_contended": excluded,
            "series_with_contended_kept": kept_contended, "events": events}


def pick_machine(conn, wanted):
    known = track_store.machines(conn)
    if not known:
        raise UsageError("the database has no runs")
    if wanted is None:
        return known[0]
    for entry in known:
        if entry[0] == wanted:
            return entry
    raise UsageError(f"no machine {wanted}; known: {', '.join(m[0] for m in known)}")


def describe(fingerprint):
    parts = [str(fingerprint.get("cpu_model")), f"{fingerprint.get('cores')} cores",
             f"{fingerprint.get('nodes')} node(s)", fingerprint.get("mpi_library"),
             fingerprint.get("compiler")]
    return ", ".join(p for p in parts if p)


def check_summary(machine):
    """Changes grouped by the run where they start, and the verdict on the newest run."""
    runs = machine["runs"]
    merged = []  # [point, direction, after run, run, entry]: one per step of a point
    found = sorted(((s, c) for s in machine["series"] for c in s["changes"]),
                   key=lambda sc: sc[1]["run"])
    for s, c in found:
        point = (s["backend"], s["op"], s["np"], s["bytes"], s["pair"])
        mode = (s.get("mode") or {}).get("mode")
        same = next((m for m in merged if m[0] == point and m[1] == c["direction"]
                     and c["after_run"] < m[3] and m[2] < c["run"]), None)
        if same:  # the same step seen in another placement mode's runs: reported once, at
            same[2] = max(same[2], c["after_run"])  # the first run both modes allow
            same[3] = min(same[3], c["run"])
            same[4]["modes"].append(mode)
            continue
        entry = {k: s[k] for k in ("backend", "op", "np", "bytes", "pair", "unit")}
        entry["name"] = s["point"]
        entry.update({k: c[k] for k in ("direction", "ratio", "ci", "p_value", "method",
                                        "before_median", "after_median")})
        entry["modes"] = [mode]
        merged.append([point, c["direction"], c["after_run"], c["run"], entry])
    by_run = {}
    for _, _, _, run, entry in merged:
        by_run.setdefault(run, []).append(entry)
    changes = [{"run": r, "commit": runs[r]["commit"], "date": runs[r]["date"],
                "regressions": sum(p["direction"] == "regression" for p in points),
                "improvements": sum(p["direction"] == "improvement" for p in points),
                "points": points} for r, points in sorted(by_run.items())]
    newest = len(runs) - 1
    regressed = [p for p in by_run.get(newest, []) if p["direction"] == "regression"]
    return changes, {"run": newest, "commit": runs[newest]["commit"],
                     "date": runs[newest]["date"], "regression": bool(regressed),
                     "points": regressed}


def cmd_check(args):
    conn = track_store.open_db(args.db, create=False)
    try:
        mid, fingerprint, _, _ = pick_machine(conn, args.machine)
        machine = analyse(conn, mid, fingerprint, args)
    finally:
        conn.close()
    changes, newest = check_summary(machine)
    status = 1 if newest["regression"] and not args.report_only else 0
    tested = sum(s["newest_p"] is not None for s in machine["series"])
    if args.json:
        json.dump({"machine": {"id": mid, "fingerprint": fingerprint}, "runs": machine["runs"],
                   "points": len(machine["series"]),
                   "method": {"detection": "e-divisive means, permutation test",
                              "alpha": args.alpha, "permutations": args.permutations,
                              "newest_run_alpha": args.newest_alpha,
                              "newest_run_tested": tested,
                              "false_alarm_control": "per check across points: splits "
                              "Benjamini-Hochberg, newest run Holm",
                              "contended": "kept" if args.keep_contended else "left out"},
                   "excluded_contended": machine["excluded_contended"], "changes": changes,
                   "newest": newest, "exit_status": status}, sys.stdout, indent=1)
        print()
    else:
        print(f"machine {mid} ({describe(fingerprint)}): {len(machine['runs'])} runs, "
              f"{len(machine['series'])} points")
        policy = ("contended runs kept" if args.keep_contended else
                  f"contended runs left out ({machine['excluded_contended']} point-runs)")
        if machine["series_with_contended_kept"]:
            policy += (f"; kept in {machine['series_with_contended_kept']} series with too few "
                       "quiet runs")
        print("E-divisive means on log run medians (permutation test), newest run: t "
              f"prediction test; {policy}")
        print(f"false alarms controlled per check, across its {len(machine['series'])} points: "
              f"splits by Benjamini-Hochberg at {args.alpha}, newest run by Holm at "
              f"{args.newest_alpha} over the {tested} points it could test")
        for change in changes:
            print(f"change at commit {change['commit']} (run {change['run']}, {change['date']}): "
                  f"{change['regressions']} slower, {change['improvements']} faster")
            for p in change["points"]:
                print(f"  {p['name']:<40} {p['before_median']:.4g} -> {p['after_median']:.4g} "
                      f"{p['unit']}  x{p['ratio']:.3f} [{p['ci'][0]:.3f}, {p['ci'][1]:.3f}]  "
                      f"p={p['p_value']:.2g}  {p['direction']} ({p['method']})")
        if not changes:
            print("no change point")
        verdict = (f"REGRESSION in {len(newest['points'])} point(s)" if newest["regression"]
                   else "no significant regression")
        print(f"newest commit {newest['commit']} (run {newest['run']}): {verdict}")
    if newest["regression"]:
        print(f"{PROG}: the newest commit {newest['commit']} starts a significant regression"
              + (" (report only)" if args.report_only else ""), file=sys.stderr)
    return status


def cmd_report(args):
    try:
        import track_report
    except ImportError as e:
        return error(f"cannot load the dashboard module track_report.py ({e})", 3)
    report_error = getattr(track_report, "ReportError", UsageError)
    try:  # the A/B verdict is read first: a bad file stops the report before its minutes
        ab = track_report.load_ab(args.ab) if args.ab else None
    except report_error as e:
        return error(e, 2)
    paired = (track_paired.check(track_paired.of_machine(track_paired.load_entries(args.paired)))
              if args.paired else None)
    conn = track_store.open_db(args.db, create=False)
    try:
        known = track_store.machines(conn)
        if not known:
            raise UsageError("the database has no runs")
        machines = []
        for mid, fingerprint, _, _ in known:
            machine = analyse(conn, mid, fingerprint, args)
            for s in machine["series"]:  # the data contract of track_report.write_report
                del s["name"], s["point"], s["newest_p"]
                s["changes"] = [{k: c[k] for k in ("run", "commit", "direction", "ratio", "ci",
                                                   "p_value", "before_median", "after_median")}
                                for c in s["changes"]]
            del machine["excluded_contended"], machine["series_with_contended_kept"]
            del machine["events"]
            machines.append(machine)
    finally:
        conn.close()
    data = {"generated": now_utc(), "machines": machines}
    if ab is not None:
        data["ab"] = ab
    if paired is not None:
        data["paired"] = paired
    import pathlib
    try:
        os.makedirs(args.out_dir, exist_ok=True)
        index = track_report.write_report(data, pathlib.Path(args.out_dir))
    except report_error as e:
        return error(e, 2)
    except OSError as e:
        return error(f"cannot write the report into {cr.show_path(args.out_dir)} "
                     f"({e.strerror or e})", 3)
    print(index)
    return 0


def positive_int(text):
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def probability(text):
    value = float(text)
    if not 0 < value < 1:
        raise ValueError(text)
    return value


def parser():
    top = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_db(p):
        p.add_argument("--db", default=DEFAULT_DB, help=f"database file (default {DEFAULT_DB})")
        return p

    def with_detection(p):
        p.add_argument("--alpha", type=probability, default=changepoint.ALPHA,
                       help="false-alarm rate of the splits per check, across the points "
                       "(Benjamini-Hochberg; default %(default)s)")
        p.add_argument("--newest-alpha", type=probability, default=NEWEST_ALPHA,
                       help="false-alarm rate of the newest-run test per check, across the "
                       "points (Holm; default %(default)s)")
        p.add_argument("--permutations", type=positive_int,
                       help="permutations per split test (default: enough to reach alpha / "
                       "points, at least %d)" % changepoint.PERMUTATIONS)
        p.add_argument("--keep-contended", action="store_true",
                       help="use contended runs (PSI stall above 5 %%) in the detection too")

    add = with_db(sub.add_parser("add", help="store comops results files (or directories of "
                                 "them)"))
    add.add_argument("files", nargs="+", metavar="RUN.json|DIR")
    add.add_argument("--commit", help="commit of the runs (default: context.git_sha)")
    add.add_argument("--date", help="ISO 8601 date of the runs (default: context.date)")
    add.set_defaults(func=cmd_add)

    imp = with_db(sub.add_parser("import", help="store Google Benchmark JSON files"))
    imp.add_argument("files", nargs="+", metavar="GBENCH.json|DIR")
    imp.add_argument("--commit", help="commit of the runs (default: context.git_sha, which "
                     "comops' --gbench-json writes)")
    imp.add_argument("--date", help="ISO 8601 date (default: context.date)")
    imp.add_argument("--machine-name", help="names the machine in its fingerprint (default: "
                     "context.host_name)")
    imp.set_defaults(func=cmd_import)

    arc = sub.add_parser("archive", help="write a run's small history file (the run stripped "
                         "to what track.py needs, named DATE-COMMIT.json)")
    arc.add_argument("files", nargs="+", metavar="RUN.json")
    arc.add_argument("--aggregate", action="store_true",
                     help="fold the runs of one commit (the A/B gate's head runs) into one "
                     "entry: per point the trimmed mean (10 %% each end) of the run medians of "
                     "its most frequent placement mode (track_aggregate.py); such entries form a "
                     "history of their own")
    arc.add_argument("--dir", default=DEFAULT_HISTORY,
                     help=f"history directory (default {DEFAULT_HISTORY})")
    arc.add_argument("--points-of", metavar="OTHER.json",
                     help="keep only the points OTHER.json also has")
    arc.add_argument("--commit", help="commit (default: context.git_sha)")
    arc.add_argument("--date", help="ISO 8601 date (default: context.date)")
    arc.set_defaults(func=cmd_archive)

    chk = with_db(sub.add_parser("check", help="find change points; exit 1 when the newest "
                                 "commit starts a significant regression"))
    chk.add_argument("--machine", metavar="ID", help="machine id (default: the newest run's)")
    chk.add_argument("--json", action="store_true", help="print JSON instead of text")
    chk.add_argument("--report-only", action="store_true", help="exit 0 even on a regression")
    with_detection(chk)
    chk.set_defaults(func=cmd_check)

    paired_commands(sub)

    rep = with_db(sub.add_parser("report", help="write the HTML dashboard (track_report.py)"))
    rep.add_argument("-o", "--out-dir", required=True, metavar="DIR")
    rep.add_argument("--ab", metavar="AB.json", help="the latest A/B job's verdict "
                     "(scripts/ab_job.sh's DIR/ab.json), shown at the top of the page")
    rep.add_argument("--paired", metavar="DIR", help="a paired history (track.py paired "
                     "archive's folder): its steps and levels shown below the A/B job")
    with_detection(rep)
    rep.set_defaults(func=cmd_report)
    return top


def paired_commands(sub):
    """track.py paired archive / paired check: the history of the A/B gate's verdicts."""
    paired = sub.add_parser("paired", help="the history of the A/B gate's verdicts (each "
                            "commit against its parent; track_paired.py)")
    psub = paired.add_subparsers(dest="paired_command", required=True, metavar="COMMAND")
    arc = psub.add_parser("archive", help="write the verdict's entry, named DATE-HEAD.json")
    arc.add_argument("verdict", metavar="AB.json", help="scripts/ab_job.sh's DIR/ab.json")
    arc.add_argument("--head-run", required=True, metavar="RUN.json",
                     help="one of the job's head runs (DIR/rounds/head-001.json): the machine, "
                     "the commit's date")
    arc.add_argument("--dir", default=DEFAULT_PAIRED,
                     help=f"paired history directory (default {DEFAULT_PAIRED})")
    arc.add_argument("--date", help="ISO 8601 date (default: the head run's context.date)")
    arc.set_defaults(func=cmd_paired_archive)
    chk = psub.add_parser("check", help="report every step at its commit, the chain's breaks "
                          "and each point's level; exit 1 when the newest entry has a slower "
                          "point that is not accepted")
    chk.add_argument("--dir", default=DEFAULT_PAIRED,
                     help=f"paired history directory (default {DEFAULT_PAIRED})")
    chk.add_argument("--machine", metavar="ID", help="machine id (default: the newest entry's)")
    chk.add_argument("--json", action="store_true", help="print JSON instead of text")
    chk.add_argument("--report-only", action="store_true", help="exit 0 even on a regression")
    chk.set_defaults(func=cmd_paired_check)


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except (UsageError, track_ingest.IngestError, track_store.StoreError,
            track_paired.PairedError, cr.ResultsError) as e:
        return error(e, 2)
    except OSError as e:
        return error(f"{e.strerror or e}" + (f": {cr.show_path(e.filename)}"
                                             if e.filename else ""), 2)


if __name__ == "__main__":
    sys.exit(main())
