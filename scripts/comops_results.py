"""Loads, validates and merges comops results JSON (docs/results_format.md); used by plot.py
and compare.py so that what counts as a comops result is decided in one place."""

import codecs
import json
import math
import re

SUPPORTED_FORMATS = (1,)
# Ops in the order tables and figures show them; unknown ops follow, sorted by name.
OP_ORDER = ("pingpong", "broadcast", "reduce-max", "reduce-sum", "gather", "scatter", "alltoall",
            "allgather", "barrier")


class ResultsError(Exception):
    """A file that cannot be used; str() is the one line to print (it names the file)."""


def show_path(path):
    """The path as printed in a message: as given, or quoted when it has control characters (a
    newline in a file name must not split the one-line message)."""
    text = str(path)
    return ascii(text) if any(ord(c) < 32 or ord(c) == 127 for c in text) else text


def _not_comops(path, why):
    return ResultsError(f"{show_path(path)}: not a comops results file ({why})")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _brief(value, limit=40):
    """value as JSON (ASCII), cut to limit characters."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# Integers a row may carry: np and bytes are used as plot coordinates (int64) and in sums.
MAX_INT = 2 ** 53
# Optional numbers of a row (absent or null allowed), all >= 0.
ROW_NUMBERS = ("bw_GBps", "rate_GBps", "latency_us", "memcpy_GBps", "cpu_stall_us",
               "cpu_stall_window_us", "cpu_steal_us", "cpu_steal_window_us", "aggregate_GBps")
ROW_FLAGS = ("oversubscribed", "contended")


def _check_row(path, index, row):
    where = f"results[{index}]"
    if not isinstance(row, dict):
        raise _not_comops(path, f"{where} is not an object")
    for name in ("backend", "op"):
        if not isinstance(row.get(name), str) or not row[name]:
            raise _not_comops(path, f"{where}.{name} missing or not a string")
    if not _is_int(row.get("np")) or not 1 <= row["np"] <= MAX_INT:
        raise _not_comops(path, f"{where}.np missing or not a positive integer")
    if not _is_int(row.get("bytes")) or not 0 <= row["bytes"] <= MAX_INT:
        raise _not_comops(path, f"{where}.bytes missing or not a non-negative integer")
    for name in ("time_us", "time_us_reps", "percentiles_us"):
        stats = row.get(name)
        if stats is None:
            continue
        if not isinstance(stats, dict) or not all(
                v is None or (_is_number(v) and v >= 0) for v in stats.values()):
            raise _not_comops(path, f"{where}.{name} is not an object of non-negative numbers")
    reps = row.get("rep_times_us")
    if reps is not None and (not isinstance(reps, list)
                             or not all(_is_number(v) and v >= 0 for v in reps)):
        raise _not_comops(path, f"{where}.rep_times_us is not a list of non-negative numbers")
    for name in ROW_NUMBERS:
        value = row.get(name)
        if value is not None and not (_is_number(value) and value >= 0):
            raise _not_comops(path, f"{where}.{name} is not a non-negative number or null")
    for name in ROW_FLAGS:
        if row.get(name) is not None and not isinstance(row[name], bool):
            raise _not_comops(path, f"{where}.{name} is not true, false or null")
    wrong = row.get("wrong")
    if wrong is not None and (not _is_int(wrong) or wrong < 0):
        raise _not_comops(path, f"{where}.wrong is not a non-negative integer")
    tables = row.get("tables")
    if tables is not None and (not isinstance(tables, list)
                               or not all(isinstance(t, str) for t in tables)):
        raise _not_comops(path, f"{where}.tables is not a list of strings")
    if row.get("pair") is not None and not isinstance(row["pair"], str):
        raise _not_comops(path, f"{where}.pair is not a string")
    if row.get("beyond_limit") is not None and not isinstance(row["beyond_limit"], str):
        raise _not_comops(path, f"{where}.beyond_limit is not a string or null")
    _check_placement(path, where, row.get("placement"))


def _check_placement(path, where, probe):
    """A row's placement probe: absent or null (files before it, --placement-probe=off, one
    core), else {"before_us": x, "after_us": y, "cores": [a, b]} with x, y > 0."""
    if probe is None:
        return
    if (not isinstance(probe, dict)
            or not all(_is_number(probe.get(k)) and probe[k] > 0 for k in ("before_us", "after_us"))
            or not isinstance(probe.get("cores"), list) or len(probe["cores"]) != 2
            or not all(_is_int(c) for c in probe["cores"])):
        raise _not_comops(path, f"{where}.placement is not null or an object of before_us, "
                                f"after_us (positive numbers) and cores (two integers)")


def placement_probe(row):
    """(before_us, after_us) of the row's placement probe, or None when it has none."""
    probe = row.get("placement")
    return None if probe is None else (float(probe["before_us"]), float(probe["after_us"]))


INTER_SUFFIX = " inter"  # an inter-node ping-pong's backend in a key: "mpi inter"
# Backend families whose processes and messages are MPI's: their rows depend on the MPI library
# comops was built against (MPICH or Open MPI); shm's threads do not.
MPI_FAMILIES = ("mpi", "swcc")
# Set by merge() on the rows of MPI_FAMILIES when the merged files come from different MPI
# libraries: the short library name, which key() appends to the backend ("mpi [Open MPI 4.1.4]").
LIBRARY_FIELD = "_mpi_library"
_LABEL = re.compile(r"(?P<name>\S*?)(?P<inter> inter)?(?: \[(?P<library>.*)\])?")


def key(row):
    """The identity of a point: (backend, op, np, bytes). An inter-node ping-pong pair
    (row "pair": "inter") is its own backend, "mpi inter", beside the intra-node "mpi"; a row
    that merge() gave its file's MPI library names it last: "mpi inter [Open MPI 4.1.4]"."""
    backend = row["backend"] + (INTER_SUFFIX if row.get("pair") == "inter" else "")
    if row.get(LIBRARY_FIELD):
        backend += f" [{row[LIBRARY_FIELD]}]"
    return (backend, row["op"] + app_suffix(row), row["np"], row["bytes"])


def app_params(row):
    """An application row's parameters ({"n": 256}), in the order comops wrote them; {} for an
    op's row."""
    app = row.get("app")
    return dict(app) if isinstance(app, dict) else {}


def app_suffix(row):
    """' n=256' for an application row (its key's op is 'matmul n=256', as the tables show it),
    '' for an op's row."""
    return "".join(f" {k}={v}" for k, v in app_params(row).items())


def split_label(label):
    """A key's backend in its parts: (backend, inter, library): 'mpi inter [Open MPI 4.1.4]' ->
    ('mpi', True, 'Open MPI 4.1.4'); 'swcc-64' -> ('swcc-64', False, '')."""
    match = _LABEL.fullmatch(label)
    if not match:  # a label of another shape (spaces inside): all name
        return label, False, ""
    return match.group("name"), bool(match.group("inter")), match.group("library") or ""


def key_name(point):
    """'mpi/pingpong/np:2/bytes:8' ('.../pair:inter' for an inter-node pair), the name comops'
    gbench JSON gives the same point; a row labelled with its MPI library keeps it:
    'mpi [Open MPI 4.1.4]/pingpong/np:2/bytes:8'."""
    backend, op, np_, nbytes = point
    name, inter, library = split_label(backend)
    pair = "/pair:inter" if inter else ""
    library = f" [{library}]" if library else ""
    app, *params = op.split(" ")
    if params:  # an application: its parameters instead of the size ('.../np:4/n:256')
        return f"{name}{library}/{app}/np:{np_}/" + "/".join(p.replace("=", ":") for p in params)
    return f"{name}{library}/{op}/np:{np_}/bytes:{nbytes}{pair}"


def op_order(op):
    """Sort key of an op name: OP_ORDER first, then the others by name."""
    return (OP_ORDER.index(op) if op in OP_ORDER else len(OP_ORDER), op)


def backend_order(label):
    """Sort key of a backend label: by family, then a numeric variant by its number (swcc-8,
    swcc-64, swcc-4096), then the named ones (swcc-sc), then the MPI library ("mpi [MPICH 4.0.2]"
    before "mpi [Open MPI 4.1.4]"); "mpi inter" right after "mpi"."""
    name, inter, library = split_label(label)
    family, _, variant = name.partition("-")
    if variant.isdigit():
        return (family, 1, int(variant), "", library, inter)
    return (family, 0 if not variant else 2, 0, variant, library, inter)


def backend_family(label):
    """'shm' for 'shm-staged', 'mpi' for 'mpi inter', 'swcc' for 'swcc-64'."""
    return label.split(" ")[0].split("-")[0]


def sort_key(point):
    backend, op, np_, nbytes = point
    return (op_order(op), backend_order(backend), np_, nbytes)


class Results:
    """One comops results file, or several merged: context plus rows keyed by key()."""

    def __init__(self, paths, context, rows, libraries=None):
        self.paths = paths      # the files it came from, in order
        self.context = context  # dict (of the first file, merged limits and options)
        self.rows = rows        # {(backend, op, np, bytes): row dict}
        # the short MPI library names of the files (short_mpi_library), distinct, in file order
        if libraries is None:
            library = short_mpi_library(context.get("mpi_library"))
            libraries = [library] if library else []
        self.libraries = libraries

    def points(self):
        return sorted(self.rows, key=sort_key)

    def limits(self):
        limits = self.context.get("limits")
        return limits if isinstance(limits, dict) else {}

    def options(self):
        options = self.context.get("options")
        return options if isinstance(options, dict) else {}

    def memcpy_GBps(self):
        """{bytes: single-thread memcpy GB/s} from context.limits.memcpy, else from the rows."""
        table = {b: bw for b, (bw, _) in self.memcpy_limits().items()}
        if not table:
            for row in self.rows.values():
                if _is_number(row.get("memcpy_GBps")):
                    table[row["bytes"]] = row["memcpy_GBps"]
        return table

    def memcpy_limits(self, name="memcpy"):
        """{bytes: (GB/s, (min, max) or None)} of context.limits[name] ("memcpy": one thread;
        "aggregate_memcpy": all bound cores at once), entries with bytes and bw_GBps only; the
        range is bw_GBps_range when it is two numbers, min <= max."""
        table = {}
        entries = self.limits().get(name)
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and _is_int(entry.get("bytes")) and _is_number(
                    entry.get("bw_GBps")):
                table[entry["bytes"]] = (entry["bw_GBps"], number_range(entry.get("bw_GBps_range")))
        return table

    def aggregate_threads(self):
        """The threads of context.limits.aggregate_memcpy (the largest if they differ), or None."""
        entries = self.limits().get("aggregate_memcpy")
        threads = [e["threads"] for e in (entries if isinstance(entries, list) else [])
                   if isinstance(e, dict) and _is_int(e.get("threads")) and e["threads"] > 0]
        return max(threads) if threads else None

    def cacheline_rtt_us(self):
        """(cache-line round trip us, (min, max) or None), or None when not measured."""
        limits = self.limits()
        rtt = limits.get("cacheline_rtt_us")
        if not _is_number(rtt):
            return None
        return float(rtt), number_range(limits.get("cacheline_rtt_us_range"))


def number_range(value):
    """(min, max) from a JSON [min, max] of non-negative numbers with min <= max, else None."""
    if (isinstance(value, list) and len(value) == 2 and all(_is_number(v) and v >= 0
                                                             for v in value)
            and value[0] <= value[1]):
        return float(value[0]), float(value[1])
    return None


def _json_kind(value):
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return "a number"


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


_LITERALS = ("true", "false", "null")


def _ends_early(text):
    """True when text is a proper prefix of a JSON array or object: a file cut short (a copy
    interrupted, a disk full). Tried by completing it: close an open string, finish a cut
    literal, number, key or value, then close every open bracket."""
    stack, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            stack.append("]" if ch == "[" else "}")
        elif ch in "]}":
            if not stack or stack.pop() != ch:
                return False
    if not stack:
        return False
    # an open string: close it (after the character of a cut escape, the digits of a cut \uXXXX)
    quotes = ['"', 'n"', '0"', '00"', '000"', '0000"'] if in_string else [""]
    fillers = ["", "0", ":0", '"":0']
    fillers += [lit[k:] for lit in _LITERALS for k in range(1, len(lit))
                if text.rstrip().endswith(lit[:k])]
    closers = "".join(reversed(stack))
    for quote in quotes:
        for filler in fillers:
            try:
                json.loads(text + quote + filler + closers)
            except (ValueError, RecursionError):
                continue
            return True
    return False


def _parse(path, data):
    """The JSON document in data (bytes), or ResultsError saying why it is none."""
    if not data.strip():
        raise _not_comops(path, "empty file")
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        if e.reason != "unexpected end of data":
            raise _not_comops(path, f"not UTF-8 text: byte 0x{data[bom + e.start]:02x} at "
                              f"offset {bom + e.start}")
        text = data[bom: bom + e.start].decode("utf-8")  # cut inside a character: see below
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        if _ends_early(text):
            line = text.count("\n", 0, len(text.rstrip())) + 1
            raise _not_comops(path, f"truncated JSON: it ends at line {line} before its "
                              "brackets close")
        raise _not_comops(path, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}")
    except RecursionError:
        raise _not_comops(path, "invalid JSON: nested too deeply")
    except ValueError as e:  # NaN or Infinity, an integer of more than 4300 digits
        raise _not_comops(path, f"invalid JSON: {str(e).split(':')[0]}")


def read_document(path):
    """The JSON document in path, unvalidated; raises ResultsError with a one-line reason when
    the file cannot be read or is not JSON."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IsADirectoryError:
        raise ResultsError(f"{show_path(path)}: is a directory, not a comops results file")
    except FileNotFoundError:
        raise ResultsError(f"{show_path(path)}: no such file")
    except OSError as e:
        raise ResultsError(f"{show_path(path)}: cannot read ({e.strerror or e})")
    return _parse(path, data)


def load(path):
    """Reads and validates one comops results file; raises ResultsError with a one-line reason."""
    return from_document(path, read_document(path))


def from_document(path, doc):
    """Validates the document doc (read from path, or made for it); Results, or ResultsError."""
    if not isinstance(doc, dict):
        raise _not_comops(path, f"the top level is {_json_kind(doc)}, not an object")
    if "comops_format" not in doc:
        if "benchmarks" in doc:
            raise _not_comops(path, "a Google Benchmark JSON, for Google Benchmark's compare.py;"
                              " comops' own results are in results.json")
        keys = ", ".join(_brief(k, 20) for k in list(doc)[:5]) + (", ..." if len(doc) > 5
                                                                  else "")
        raise _not_comops(path, f"no comops_format field; it has {keys or 'no field'}")
    fmt = doc["comops_format"]
    if not _is_int(fmt) or fmt not in SUPPORTED_FORMATS:
        raise _not_comops(path, f"comops_format {_brief(fmt)} is not one of "
                          f"{', '.join(map(str, SUPPORTED_FORMATS))}")
    context = doc.get("context", {})
    if not isinstance(context, dict):
        raise _not_comops(path, "context is not an object")
    results = doc.get("results")
    if results is None:
        raise _not_comops(path, "no results list")
    if not isinstance(results, list):
        raise _not_comops(path, f"results is {_json_kind(results)}, not a list")
    rows = {}
    for index, row in enumerate(results):
        _check_row(path, index, row)
        rows[key(row)] = row  # a duplicate inside one file: the later row wins, as on merge
    return Results([path], context, rows)


def label_libraries(results, note=None):
    """Results as given, or, when they come from more than one MPI library (context.mpi_library,
    shortened), copies in which every row of MPI_FAMILIES carries its file's library (key():
    "mpi [MPICH 4.0.2 (ch4:ucx)]" beside "mpi [Open MPI 4.1.4]"), said through note(text).
    Rows of a file that names no library, and shm's, keep their labels."""
    libraries = []
    for r in results:
        libraries += [lib for lib in r.libraries if lib not in libraries]
    if len(libraries) < 2:
        return results
    (note or (lambda text: None))(
        f"the files come from {len(libraries)} MPI libraries ({', '.join(libraries)}): the rows "
        f"of {' and '.join(MPI_FAMILIES)} are labelled with theirs")
    labelled = []
    for r in results:
        rows = {}
        for point, row in r.rows.items():
            if (len(r.libraries) == 1 and not row.get(LIBRARY_FIELD)
                    and backend_family(point[0]) in MPI_FAMILIES):
                row = dict(row, **{LIBRARY_FIELD: r.libraries[0]})
            rows[key(row)] = row
        labelled.append(Results(r.paths, r.context, rows, r.libraries))
    return labelled


def merge(results, note=None):
    """Merges Results in order; a later file's row replaces an earlier one with the same key
    (reported through note(text)); files from different MPI libraries keep their MPI rows apart
    (label_libraries). Context: the first file's, with options.np_bytes,
    options.size_np and limits.cacheline_rtt_us (with its cores and range) taken from the last
    file that has them and the memcpy and aggregate_memcpy limits merged per size (later
    wins)."""
    note = note or (lambda text: None)
    results = label_libraries(results, note)
    merged = Results(list(results[0].paths), dict(results[0].context), dict(results[0].rows),
                     list(results[0].libraries))
    merged.context["options"] = dict(results[0].options())
    merged.context["limits"] = dict(results[0].limits())
    hosts = {r.context.get("host") for r in results if r.context.get("host")}
    if len(hosts) > 1:
        note(f"merging results from different hosts: {', '.join(sorted(hosts))}")
    for later in results[1:]:
        merged.paths.extend(later.paths)
        merged.libraries += [lib for lib in later.libraries if lib not in merged.libraries]
        for point, row in later.rows.items():
            if point in merged.rows:
                note(f"{key_name(point)}: {later.paths[0]} replaces the earlier row")
            merged.rows[point] = row
        for name in ("np_bytes", "size_np"):
            if later.options().get(name) is not None:
                merged.context["options"][name] = later.options()[name]
        limits = later.limits()
        if limits.get("cacheline_rtt_us") is not None:
            for name in ("cacheline_rtt_us", "cacheline_cores", "cacheline_rtt_us_range"):
                merged.context["limits"][name] = limits.get(name)
        for name in ("memcpy", "aggregate_memcpy"):
            if isinstance(limits.get(name), list) and limits[name]:
                earlier = merged.context["limits"].get(name)
                sizes = {}
                for entry in (earlier if isinstance(earlier, list) else []) + limits[name]:
                    if isinstance(entry, dict) and _is_int(entry.get("bytes")):
                        sizes[entry["bytes"]] = entry
                merged.context["limits"][name] = [sizes[b] for b in sorted(sizes)]
    return merged


def load_all(paths, note=None):
    """load() each path and merge() them."""
    return merge([load(p) for p in paths], note)


def headline_us(row):
    """The point's headline time in us, median over repetitions (ping-pong: the round trip):
    time_us_reps.median, else time_us.max, else the median of rep_times_us; None if absent."""
    for name, field in (("time_us_reps", "median"), ("time_us", "max")):
        stats = row.get(name)
        if isinstance(stats, dict) and _is_number(stats.get(field)):
            return float(stats[field])
    samples = samples_us(row)
    return median(samples) if samples else None


def spread_us(row):
    """(min, max) of the headline over repetitions, or None."""
    stats = row.get("time_us_reps")
    if isinstance(stats, dict) and _is_number(stats.get("min")) and _is_number(stats.get("max")):
        return float(stats["min"]), float(stats["max"])
    samples = samples_us(row)
    return (min(samples), max(samples)) if samples else None


def samples_us(row):
    """The headline time of each repetition (rep_times_us), as floats."""
    return [float(v) for v in row.get("rep_times_us") or []]


def flagged(row):
    """True for a point measured oversubscribed (np > cores) or contended (CPU stall > 5 %)."""
    return bool(row.get("oversubscribed")) or bool(row.get("contended"))


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


_SIZE = re.compile(r"^\s*(\d+)\s*([kKmMgG]?)[bB]?\s*$")


def parse_bytes(text):
    """'819200', '800K', '1M', '2G' (K/M/G = 1024^n, optional trailing B) -> bytes."""
    match = _SIZE.match(str(text))
    if not match:
        raise ValueError(f"not a size: {text!r} (use 8, 800K, 1M)")
    return int(match.group(1)) * 1024 ** " KMG".index(match.group(2).upper() or " ")


def format_bytes(nbytes):
    """Largest exact 1024 suffix: 8 -> '8', 1024 -> '1K', 819200 -> '800K'."""
    for suffix in ("G", "M", "K"):
        unit = 1024 ** ("_KMG".index(suffix))
        if nbytes and nbytes % unit == 0:
            return f"{nbytes // unit}{suffix}"
    return str(nbytes)


_BINARY_UNITS = (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024))


def human_bytes(nbytes):
    """A size as people read it: the largest exact binary unit, 8 -> '8 B', 65536 -> '64 KiB',
    819200 -> '800 KiB', 1048576 -> '1 MiB', 1000 -> '1000 B'."""
    for suffix, unit in _BINARY_UNITS:
        if nbytes and nbytes % unit == 0:
            return f"{nbytes // unit} {suffix}"
    return f"{nbytes} B"


def short_mpi_library(text, limit=40):
    """MPI_Get_library_version's text in a few words: "MPICH 4.0.2 (ch4:ucx)", "MVAPICH2 2.3.7",
    "Open MPI 4.1.4", "Intel(R) MPI Library 2021.10"; other text: its first line, whitespace
    collapsed, cut at a word to at most limit characters with "..."; "" for none."""
    text = str(text or "")
    match = re.match(r"\s*(MPICH|MVAPICH2?)\s+Version\s*:\s*(\S+)", text)
    if match:
        device = re.search(re.escape(match.group(1)) + r"\s+Device\s*:\s*(\S+)", text)
        return f"{match.group(1)} {match.group(2)}" + (f" ({device.group(1)})" if device else "")
    match = re.match(r"\s*Open MPI v?([\w.]+)", text)
    if match:
        return f"Open MPI {match.group(1)}"
    match = re.match(r"\s*(.*?MPI Library \S+)", text)
    if match:
        return match.group(1)
    words = " ".join(text.strip().splitlines()[0].split()) if text.strip() else ""
    if len(words) <= limit:
        return words
    cut = words[: limit - 3]
    if words[limit - 3] != " " and " " in cut:  # not inside a word
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + "..."
