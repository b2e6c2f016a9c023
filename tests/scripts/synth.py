"""Synthetic comops results (docs/results_format.md) for the script tests: rows built from a
simple cost model with deterministic "noise", so every test knows exactly what it wrote."""

import json

SIZES = [8, 16, 32, 64, 80, 1024, 8192, 65536, 819200, 1048576]
BACKENDS = {"mpi": 1.0, "shm-staged": 0.6, "swcc-64": 3.0}  # latency scale per backend


def context(**overrides):
    ctx = {
        "date": "2026-11-29T23:59:00Z", "host": "testhost", "git_sha": "abc1234",
        "comops_version": "0.1.0", "mpi_library": "MPICH Version: 4.0.2", "compiler": "GCC 12.2.0",
        "command_line": "comops --backend=all", "world_size": 4, "cpu_idle_share": 0.97,
        "psi_available": True, "oversubscribed": True,
        "options": {"backends": list(BACKENDS), "ops": ["pingpong", "broadcast", "reduce-max"],
                    "np": [2, 3, 4], "sizes_bytes": SIZES, "np_bytes": 819200, "size_np": 4,
                    "iterations": None, "warmup": None, "repetitions": 5, "bind": "compact"},
        "topology": {"packages": 1, "numa_nodes": 1, "cores": 2, "pus": 2, "summary": "2 cores",
                     "cpu_model": "Test CPU"},
        "limits": {"cacheline_rtt_us": 0.48, "cacheline_cores": [0, 1],
                   "memcpy": [{"bytes": b, "bw_GBps": min(20.0, 0.4 * b ** 0.5)} for b in SIZES]},
        "backends": {b: {} for b in BACKENDS},
    }
    ctx.update(overrides)
    return ctx


def ranged_limits(memcpy, aggregate=None, threads=2, rtt=0.5, rtt_range=(0.25, 1.0)):
    """context.limits as comops writes them with repetitions: the cache-line round trip with its
    range, memcpy ({bytes: GB/s}) and aggregate memcpy ({bytes: GB/s}, all threads at once) per
    size, each with bw_GBps_range [0.75 x, 1.25 x] of its value."""
    def entries(table, **extra):
        return [dict({"bytes": b, "bw_GBps": bw, "bw_GBps_range": [0.75 * bw, 1.25 * bw]},
                     **extra) for b, bw in table.items()]
    limits = {"cacheline_rtt_us": rtt, "cacheline_cores": [0, 1],
              "cacheline_rtt_us_range": list(rtt_range), "memcpy": entries(memcpy)}
    if aggregate is not None:
        limits["aggregate_memcpy"] = entries(aggregate, threads=threads)
    return limits


def row(backend, op, np_, nbytes, reps, tables=("size",), wrong=0, flagged=False, **fields):
    """One result row whose repetitions took reps (headline us each); fields: other row fields
    to set (contended=True, beyond_limit="...", aggregate_GBps=...)."""
    reps = [float(t) for t in reps]
    ordered = sorted(reps)
    n = len(ordered)
    med = ordered[n // 2] if n % 2 else 0.5 * (ordered[n // 2 - 1] + ordered[n // 2])
    moved = {"pingpong": 2 * nbytes, "gather": (np_ - 1) * nbytes,
             "scatter": (np_ - 1) * nbytes}.get(op, nbytes)
    r = {"backend": backend, "op": op, "np": np_, "bytes": nbytes, "iterations": 100,
         "repetitions": n, "time_us": {"min": 0.9 * med, "avg": 0.95 * med, "max": med},
         "time_us_reps": {"median": med, "min": ordered[0], "max": ordered[-1]},
         "rep_times_us": reps, "bw_GBps": None if op == "barrier" else moved / med * 1e-3,
         "memcpy_GBps": 5.0, "wrong": wrong, "oversubscribed": flagged, "cores": [0, 1],
         "cpu_stall_us": 0, "contended": False, "tables": list(tables)}
    if op == "pingpong":
        r["latency_us"] = med / 2
        r["rate_GBps"] = nbytes / med * 1e-3
    r.update(fields)
    return r


def noisy(base, n=5):
    """n repetition times around base, +-2 %, deterministic."""
    return [base * (1 + 0.02 * ((i * 7) % 5 - 2) / 2) for i in range(n)]


def model_us(backend, op, np_, nbytes):
    scale = BACKENDS[backend] * (1 + 0.3 * (np_ - 2)) * (2 if op == "pingpong" else 1)
    return scale * (0.7 + nbytes / 4000.0)


def full_result(ops=("pingpong", "broadcast", "reduce-max", "barrier"), n=5):
    """Size rows at np 4 for every backend and op (swcc-64's flagged); np rows at 800K for np 2,
    3, 4 (the 800K size rows are the np 4 ones; np 3 flagged); barrier np rows at 0 bytes."""
    rows = []
    for backend in BACKENDS:
        for op in ops:
            if op == "barrier":
                for np_ in (2, 3, 4):
                    rows.append(row(backend, op, np_, 0, noisy(model_us(backend, op, np_, 0), n),
                                    tables=("np",), flagged=np_ > 2))
                continue
            for nbytes in SIZES:
                tables = ("size", "np") if nbytes == 819200 else ("size",)
                rows.append(row(backend, op, 4, nbytes,
                                noisy(model_us(backend, op, 4, nbytes), n), tables,
                                flagged=backend == "swcc-64"))
            for np_ in (2, 3):
                rows.append(row(backend, op, np_, 819200,
                                noisy(model_us(backend, op, np_, 819200), n), ("np",),
                                flagged=np_ > 2))
    return {"comops_format": 1, "context": context(), "results": rows}


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    return str(path)


ODD_VALUES = (None, "", "x", -1, 0, 0.5, 10 ** 30, 1e308, True, [], [1], {}, {"a": 1})


def odd_docs(doc, row_fields, context_paths, values=ODD_VALUES):
    """(description, value, copy of doc) with one value replaced by each of values (or removed):
    a field of the first row, or a context path like "limits.memcpy" (created if missing)."""
    for field in row_fields:
        for value in values + ("<removed>",):
            odd = json.loads(json.dumps(doc))
            if value == "<removed>":
                odd["results"][0].pop(field, None)
            else:
                odd["results"][0][field] = value
            yield f"results[0].{field} = {value!r}", value, odd
    for path in context_paths:
        *parents, name = path.split(".")
        for value in values + ("<removed>",):
            odd = json.loads(json.dumps(doc))
            where = odd["context"]
            for parent in parents:
                where = where.setdefault(parent, {})
            if value == "<removed>":
                where.pop(name, None)
            else:
                where[name] = value
            yield f"context.{path} = {value!r}", value, odd
