"""Turns a comops results file or a Google Benchmark JSON into one run for track.py: its commit,
date, machine fingerprint and points (each with its repetition times in us and noise fields),
plus the stripped form of a comops run that results/history/ keeps.

A comops file is read and validated by comops_results.load (docs/results_format.md). A
Google Benchmark file is any `--benchmark_format=json` output (comops' own `--gbench-json`
included): `benchmarks` entries with `name`, `real_time` and `time_unit` (ns, us, ms or s;
Google Benchmark's default ns when absent), iterations grouped by `run_name` into repetitions.
"""

import datetime
import hashlib
import json
import os
import re

import comops_results as cr

# The context and row fields a history file keeps (what track.py reads, and enough to plot).
KEEP_CONTEXT = ("date", "host", "git_sha", "comops_version", "mpi_library", "compiler",
                "command_line", "options", "topology", "world_size", "nodes", "psi_available",
                "cpu_idle_share", "oversubscribed", "aggregate")
KEEP_NODE = ("node", "host", "cores", "ranks")
KEEP_ROW = ("backend", "op", "np", "bytes", "pair", "iterations", "warmup", "repetitions",
            "time_us", "time_us_reps", "rep_times_us", "wrong", "oversubscribed", "nodes",
            "cpu_stall_us", "cpu_steal_us", "contended", "placement", "tables", "aggregate")
# comops options that change a point's times (the others choose which points are measured).
RESULT_OPTIONS = ("bind", "placement", "pair", "iterations", "warmup")
UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
_COMOPS_NAME = re.compile(r"^(?P<backend>[^/]+)/(?P<op>[^/]+)/np:(?P<np>\d+)/bytes:(?P<bytes>\d+)"
                          r"(?:/pair:(?P<pair>[A-Za-z]+))?$")


def placement_fields(row):
    """The row's placement probe as the history stores it (None and None without one)."""
    probe = cr.placement_probe(row)
    return {"placement_before_us": probe[0] if probe else None,
            "placement_after_us": probe[1] if probe else None}


class IngestError(Exception):
    """A file that cannot be tracked; str() is the one line to print (it names the file)."""


def canonical(doc):
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def short_hash(doc, length):
    return hashlib.sha256(canonical(doc).encode()).hexdigest()[:length]


def machine_id(fingerprint):
    """'m' and 6 hex digits of the fingerprint's hash."""
    return "m" + short_hash(fingerprint, 6)


def utc_date(text, where):
    """An ISO 8601 date as 'YYYY-MM-DDTHH:MM:SSZ' (UTC); a date without zone is taken as UTC."""
    if not isinstance(text, str):
        raise IngestError(f"{where}: no date")
    try:
        when = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise IngestError(f"{where}: date {cr._brief(text)} is not an ISO 8601 date")
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def strip(doc):
    """The part of a comops results document a history file keeps (idempotent)."""
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    kept = {k: context[k] for k in KEEP_CONTEXT if k in context}
    if isinstance(kept.get("nodes"), list):
        kept["nodes"] = [{k: n[k] for k in KEEP_NODE if k in n} if isinstance(n, dict) else n
                         for n in kept["nodes"]]
    rows = [{k: r[k] for k in KEEP_ROW if k in r} for r in doc.get("results", [])]
    return {"comops_format": doc.get("comops_format"), "context": kept, "results": rows}


def fingerprint_comops(context):
    topology = context.get("topology") if isinstance(context.get("topology"), dict) else {}
    options = context.get("options") if isinstance(context.get("options"), dict) else {}
    nodes = context.get("nodes")
    chosen = {k: options.get(k) for k in RESULT_OPTIONS}
    chosen["world_size"] = context.get("world_size")
    # --sync changes every time; none (the default, or a file from before --sync) keeps the
    # fingerprint runs had before, so their history goes on
    if options.get("sync") not in (None, "none"):
        chosen["sync"] = options["sync"]
    # an entry folded from many runs (track_aggregate.py) has another spread: a history apart
    if isinstance(context.get("aggregate"), dict):
        chosen["entry"] = "aggregate of runs"
    return {"cpu_model": topology.get("cpu_model", "unknown"), "cores": topology.get("cores"),
            "nodes": len(nodes) if isinstance(nodes, list) and nodes else 1,
            "mpi_library": cr.short_mpi_library(context.get("mpi_library"), 80) or None,
            "compiler": context.get("compiler"), "options": chosen}


def _commit(path, found, override):
    commit = override or found
    if not isinstance(commit, str) or not commit.strip() or commit == "unknown":
        raise IngestError(f"{cr.show_path(path)}: no commit (pass --commit SHA)")
    return commit.strip()


def _read_json(path):
    """The document in path, through comops_results' reader (its messages for bad JSON)."""
    try:
        return cr.read_document(path)
    except cr.ResultsError as e:
        raise IngestError(str(e).replace("not a comops results file", "not a results file"))


def from_comops(path, commit=None, date=None):
    """The run of a comops results file: dict(kind, hash, commit, date, host, fingerprint,
    machine, points, stripped)."""
    try:
        doc = cr.read_document(path)
    except cr.ResultsError as e:
        raise IngestError(str(e))
    return from_document(path, doc, commit, date)


def from_document(path, doc, commit=None, date=None):
    """from_comops of a document already read (or made: track_aggregate.py) for path."""
    try:
        results = cr.from_document(path, doc)
    except cr.ResultsError as e:
        if "a Google Benchmark JSON" in str(e):
            raise IngestError(f"{cr.show_path(path)}: a Google Benchmark JSON; use track.py "
                              "import")
        raise IngestError(str(e))
    stripped = strip(doc)
    context = results.context
    if not results.rows:
        raise IngestError(f"{cr.show_path(path)}: no results to track")
    points = []
    for row in results.rows.values():
        median = cr.headline_us(row)
        if median is None:
            continue
        pair = (row.get("pair") or "intra") if row["op"] == "pingpong" else ""
        points.append({"backend": row["backend"], "op": row["op"], "np": row["np"],
                       "bytes": row["bytes"], "pair": pair, "unit": "us", "median": median,
                       "reps": cr.samples_us(row) or [median],
                       "cpu_stall_us": row.get("cpu_stall_us"),
                       "cpu_steal_us": row.get("cpu_steal_us"),
                       "contended": row.get("contended"),
                       "oversubscribed": row.get("oversubscribed"),
                       "wrong": row.get("wrong"),
                       **placement_fields(row)})
    if not points:
        raise IngestError(f"{cr.show_path(path)}: no row has a time")
    return {"kind": "comops", "hash": "comops:" + short_hash(stripped, 40),
            "commit": _commit(path, context.get("git_sha"), commit),
            "date": utc_date(date or context.get("date"), cr.show_path(path)),
            "host": context.get("host"), "fingerprint": fingerprint_comops(context),
            "machine": machine_id(fingerprint_comops(context)), "points": points,
            "stripped": stripped}


def _not_gbench(path, why):
    return IngestError(f"{cr.show_path(path)}: not a Google Benchmark JSON ({why})")


def from_gbench(path, commit=None, date=None, machine_name=None):
    """The run of a Google Benchmark JSON file, as from_comops gives (without stripped). Names
    written by comops (backend/op/np:N/bytes:B[/pair:inter]) become comops points; any other
    name is backend "gbench", op = the benchmark's run name, np = its threads, bytes 0."""
    doc = _read_json(path)
    if isinstance(doc, dict) and "comops_format" in doc:
        raise IngestError(f"{cr.show_path(path)}: a comops results file; use track.py add")
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise _not_gbench(path, "no benchmarks list")
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    groups = {}  # run name -> {"iteration": [us...], aggregate name: us, "threads": n}
    for index, entry in enumerate(doc["benchmarks"]):
        where = f"benchmarks[{index}]"
        if not isinstance(entry, dict):
            raise _not_gbench(path, f"{where} is not an object")
        if entry.get("error_occurred"):
            continue
        name = entry.get("run_name", entry.get("name"))
        if not isinstance(name, str) or not name:
            raise _not_gbench(path, f"{where}.name missing or not a string")
        unit = entry.get("time_unit", "ns")
        if unit not in UNIT_US:
            raise _not_gbench(path, f"{where}.time_unit {cr._brief(unit)} is not ns, us, ms or s")
        value = entry.get("real_time")
        if not cr._is_number(value) or value < 0:
            raise _not_gbench(path, f"{where}.real_time missing or not a non-negative number")
        group = groups.setdefault(name, {"iteration": [], "threads": entry.get("threads", 1)})
        if entry.get("run_type", "iteration") == "aggregate":
            group[str(entry.get("aggregate_name"))] = value * UNIT_US[unit]
        else:
            group["iteration"].append(value * UNIT_US[unit])
    points = []
    for name, group in groups.items():
        reps = group["iteration"]
        if not reps:
            single = group.get("median", group.get("mean"))
            if single is None:
                continue
            reps = [single]
        match = _COMOPS_NAME.match(name)
        if match:
            op = match.group("op")
            point = {"backend": match.group("backend"), "op": op, "np": int(match.group("np")),
                     "bytes": int(match.group("bytes")),
                     "pair": (match.group("pair") or "intra") if op == "pingpong" else ""}
        else:
            threads = group["threads"]
            point = {"backend": "gbench", "op": name, "bytes": 0, "pair": "",
                     "np": threads if cr._is_int(threads) and threads > 0 else 1}
        point.update(unit="us", median=cr.median(reps), reps=reps, cpu_stall_us=None,
                     cpu_steal_us=None, contended=None, oversubscribed=None, wrong=None)
        points.append(point)
    if not points:
        raise _not_gbench(path, "no benchmark with a time")
    executable = context.get("executable")
    fingerprint = {"cpu_model": machine_name or context.get("host_name") or "unknown",
                   "cores": context.get("num_cpus"), "nodes": 1, "mpi_library": None,
                   "compiler": None,
                   "options": {"source": "gbench",
                               "executable": os.path.basename(executable)
                               if isinstance(executable, str) else None,
                               "library_build_type": context.get("library_build_type")}}
    return {"kind": "gbench", "hash": "gbench:" + short_hash(doc, 40),
            "commit": _commit(path, context.get("git_sha"), commit),
            "date": utc_date(date or context.get("date"), cr.show_path(path)),
            "host": context.get("host_name"), "fingerprint": fingerprint,
            "machine": machine_id(fingerprint), "points": points, "stripped": None}
