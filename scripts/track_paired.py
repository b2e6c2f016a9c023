"""The paired history: each commit's A/B verdict (scripts/ab_gate.py's ab.json, the commit
against its parent, same-mode pairs of one job) kept as one history entry, and the check over
those entries (track.py paired archive / paired check).

Why a history of ratios beside the history of times: on a VM the states that slow a run outlast
a job (docs/regression.md, "Folded entries"), so two commits' times, measured in two jobs, differ
by more than a 10 % step; the ratio of one job's interleaved base and head runs does not carry
the state. An entry keeps per point the gate's ratio head / base, its always-valid interval, its
decision and an approximate standard error of its log (from the pairs' spread); entries chain
where an entry's base is the head of the entry before it.

The check reports every step of the history once, at its commit (a point the gate found slower,
accepted or not), the points of the newest entry that were not judged, breaks in the chain, and
per point the level since the chain's start: the product of its ratios, with an approximate 95 %
interval (the standard errors added as independent): a drift of small steps that no gate fails
shows there. It is red when the newest entry has a slower point that is not accepted.
"""

import glob
import json
import math
import os

import comops_results as cr
import track_ingest

SCHEMA = "comops-paired-history/1"
LEVEL_Z = 1.959964  # the level's approximate 95 % interval
POINT_FIELDS = ("point", "decision", "accepted", "ratio", "ci_low", "ci_high", "log_se", "used",
                "pairs")


class PairedError(Exception):
    """Bad input; str() is the one line to print (it names the file)."""


# --- archive ------------------------------------------------------------------------------------

def read_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise PairedError(f"{cr.show_path(path)}: cannot read {what}: {e.strerror}")
    except ValueError as e:
        raise PairedError(f"{cr.show_path(path)}: {what} is not JSON ({e})")


def verdict_points(ab, path):
    """The points of an ab.json of the sequential gate, as an entry keeps them."""
    if not isinstance(ab, dict) or ab.get("design") != "sequential" or \
            not isinstance(ab.get("points"), list):
        raise PairedError(f"{cr.show_path(path)}: not a verdict of the sequential A/B gate "
                          "(scripts/ab_gate.py's ab.json)")
    points = []
    for p in ab["points"]:
        if not isinstance(p, dict) or not isinstance(p.get("point"), str):
            raise PairedError(f"{cr.show_path(path)}: a point without a name")
        points.append({k: p.get(k) for k in POINT_FIELDS})
    if not points:
        raise PairedError(f"{cr.show_path(path)}: the verdict has no point")
    return points


def head_context(head_run):
    """The context of one of the job's head runs: the machine, the commit and the date."""
    doc = read_json(head_run, "the head run")
    context = doc.get("context") if isinstance(doc, dict) else None
    if not isinstance(context, dict):
        raise PairedError(f"{cr.show_path(head_run)}: not a comops results file (no context)")
    return context


def fingerprint(context):
    """The head run's machine fingerprint, marked as a paired history's."""
    found = track_ingest.fingerprint_comops(context)
    found["options"] = dict(found["options"], entry="paired A/B")
    return found


def entry_of(ab_path, head_run, date=None):
    """The history entry of the verdict ab_path, whose job's head runs include head_run."""
    ab = read_json(ab_path, "the verdict")
    points = verdict_points(ab, ab_path)
    context = head_context(head_run)
    for side in ("base", "head"):
        if not isinstance(ab.get(side), str) or not ab[side].strip():
            raise PairedError(f"{cr.show_path(ab_path)}: the verdict names no {side} commit")
    try:
        when = track_ingest.utc_date(date or context.get("date"), cr.show_path(head_run))
    except track_ingest.IngestError as e:
        raise PairedError(str(e))
    found = fingerprint(context)
    return {"schema": SCHEMA, "base": ab["base"].strip(), "head": ab["head"].strip(),
            "head_sha": context.get("git_sha"), "date": when, "fingerprint": found,
            "machine": track_ingest.machine_id(found),
            "gate": {k: ab.get(k) for k in ("verdict", "rounds", "alpha", "threshold",
                                             "placement", "modes")},
            "points": points}


# --- load ---------------------------------------------------------------------------------------

def check_entry(entry, path):
    if not isinstance(entry, dict) or entry.get("schema") != SCHEMA:
        found = entry.get("schema") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and "comops_format" in entry:
            raise PairedError(f"{cr.show_path(path)}: a run's history file, not a paired entry "
                              "(track.py add and check read those)")
        raise PairedError(f"{cr.show_path(path)}: not a paired history entry (schema "
                          f"{cr._brief(found)}, this track.py reads {SCHEMA})")
    for field in ("base", "head", "date", "machine", "points"):
        if not entry.get(field):
            raise PairedError(f"{cr.show_path(path)}: a paired entry without {field}")
    return entry


def load_entries(directory):
    """Every entry of directory (its *.json files), oldest first."""
    if not os.path.isdir(directory):
        raise PairedError(f"{cr.show_path(directory)}: no such directory")
    paths = sorted(glob.glob(os.path.join(directory, "*.json")))
    if not paths:
        raise PairedError(f"{cr.show_path(directory)}: no paired entry (*.json) in it")
    entries = [dict(check_entry(read_json(p, "the entry"), p), path=p) for p in paths]
    return sorted(entries, key=lambda e: (e["date"], e["path"]))


def of_machine(entries, machine=None):
    """The entries of one machine (default: the newest entry's)."""
    wanted = machine or entries[-1]["machine"]
    chosen = [e for e in entries if e["machine"] == wanted]
    if not chosen:
        known = ", ".join(sorted({e["machine"] for e in entries}))
        raise PairedError(f"no paired entry of machine {wanted} (there are: {known})")
    return chosen


# --- check --------------------------------------------------------------------------------------

def segments(entries):
    """The entries cut where the chain breaks: [[entry, ...], ...] and the breaks' lines."""
    parts, breaks = [], []
    for entry in entries:
        if parts and entry["base"] == parts[-1][-1]["head"]:
            parts[-1].append(entry)
            continue
        if parts:
            breaks.append(f"chain broken at {entry['head']}: its base {entry['base']} is not "
                          f"the head of the entry before ({parts[-1][-1]['head']}); the level "
                          "starts again there")
        parts.append([entry])
    return parts, breaks


def steps(entries):
    """Every point a gate found slower, at its commit: [{commit, base, date, point, ...}]."""
    found = []
    for entry in entries:
        for p in entry["points"]:
            if p["decision"] == "slower":
                found.append({"commit": entry["head"], "base": entry["base"],
                              "date": entry["date"], "point": p["point"], "ratio": p["ratio"],
                              "ci_low": p["ci_low"], "ci_high": p["ci_high"],
                              "accepted": p["accepted"]})
    return found


def levels(segment):
    """Per point of the segment: its ratios' product since the segment's first entry, with an
    approximate 95 % interval (None where an entry did not judge the point or has no error)."""
    out = {}
    for name in dict.fromkeys(p["point"] for e in segment for p in e["points"]):
        logs, variance, complete = 0.0, 0.0, True
        for entry in segment:
            p = next((q for q in entry["points"] if q["point"] == name), None)
            if not p or not p.get("ratio") or p.get("log_se") is None:
                complete = False
                break
            logs += math.log(p["ratio"])
            variance += p["log_se"] ** 2
        if complete:
            half = LEVEL_Z * math.sqrt(variance)
            out[name] = {"level": math.exp(logs), "low": math.exp(logs - half),
                         "high": math.exp(logs + half), "entries": len(segment)}
        else:
            out[name] = None
    return out


def check(entries):
    """The check's findings over the entries of one machine (oldest first)."""
    parts, breaks = segments(entries)
    newest = entries[-1]
    failing = [p["point"] for p in newest["points"]
               if p["decision"] == "slower" and not p["accepted"]]
    return {"machine": newest["machine"], "entries": len(entries), "newest": newest["head"],
            "newest_base": newest["base"], "steps": steps(entries), "breaks": breaks,
            "not_judged": [p["point"] for p in newest["points"] if p["decision"] == "not judged"],
            "levels": levels(parts[-1]), "level_since": parts[-1][0]["base"],
            "red": bool(failing), "failing": failing}


def interval(low, high):
    return f"[{low:.3f}, {'inf' if high is None else f'{high:.3f}'}]"


def step_line(s):
    word = "accepted" if s["accepted"] else "slower"
    line = (f"{word} at {s['commit']} (against {s['base']}, {s['date']}): {s['point']} ratio "
            f"{s['ratio']:.3f} {interval(s['ci_low'], s['ci_high'])}")
    return line + (f"; Accept-slowdown: {s['accepted']}" if s["accepted"] else "")


def level_line(name, level):
    if level is None:
        return f"  {name}: no level (an entry did not judge it)"
    return (f"  {name}: x{level['level']:.3f} [{level['low']:.3f}, {level['high']:.3f}] over "
            f"{level['entries']} commits")


def report_lines(found):
    lines = [f"paired history of machine {found['machine']}: {found['entries']} entries, newest "
             f"{found['newest']} against {found['newest_base']}"]
    lines += [step_line(s) for s in found["steps"]] or ["no step found in the history"]
    lines += found["breaks"]
    lines += [f"not judged at {found['newest']}: {p}" for p in found["not_judged"]]
    lines.append(f"level since {found['level_since']} (product of the ratios, approximate 95 % "
                 "interval):")
    lines += [level_line(name, level) for name, level in found["levels"].items()]
    verdict = (f"regression at {found['newest']}: {', '.join(found['failing'])}"
               if found["red"] else f"no regression at {found['newest']}")
    return lines + [f"verdict: {verdict}"]
