#!/usr/bin/python3
"""The figures and summary tables of scripts/dsm_reference.sh, from its output directory DIR:

  DIR/latency-by-state.png   time per access (log) of every latency-by-state case, read and write,
                             per block size (8, 64, 4096) and sc, one host beside the simulated
                             hosts; two-party cases from latency-np2, the three-party ones (which
                             need a third rank) from latency-np3, drawn hatched
  DIR/scivm-overhead.png     SCI-VM's overhead against local memory (log) of sum and matmul in the
                             unoptimised, cached and optimised versions, one host beside the
                             simulated hosts, the paper's 75 % as a line
  DIR/summary.md             the same numbers as Markdown tables, and EM3D's time per backend and
                             remote-edge percentage from each part's em3d/results.json

Input: DIR/PART/latency-np2/ratios.json, DIR/PART/latency-np3/ratios.json,
DIR/PART/scivm.json and DIR/PART/em3d/results.json for PART = one-host, sim-hosts; a part or a
file that is missing is left out with a note on stderr (at least one latency or SCI-VM file must
be there). Exit status: 0, or 2 (bad input: one line on stderr).
"""

import argparse
import json
import os
import sys

import comops_results as cr

PROG = "dsm_figures.py"
PARTS = (("one-host", "one host"), ("sim-hosts", "simulated hosts, 25 us each way"))
BLOCKS = ("8", "64", "4096")
# The cases in the order of issue 10 and bench/swcc_state_cases.cpp; others follow by name.
CASES = ("private", "home_fast", "home_entry", "home_shared", "home_modified", "remote_hit_shared",
         "remote_hit_modified", "remote_miss_clean", "remote_miss_inval", "remote_miss_flush",
         "upgrade", "first_touch")
SC_CASES = ("private", "home", "remote")
OPS = ("read", "write")
SCIVM_VERSIONS = ("unoptimised (sc, interleaved)", "cached, no prefetch",
                  "optimised (cached, prefetch)")
PAPER_OVERHEAD_PCT = 75


class InputError(Exception):
    pass


MISSING = []  # the input files that were not there, noted on stderr after a successful run


def note(text):
    print(f"{PROG}: note: {text}", file=sys.stderr)


def read_json(path):
    """The JSON document at path, or None when there is no such file."""
    if not os.path.exists(path):
        MISSING.append(path)
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: not readable JSON ({e})") from e


def latency_times(part_dir):
    """{(case, op, block): (ns, from_np3)}: the np 2 run's times, the np 3 run's where np 2 has
    none (the three-party cases)."""
    times = {}
    for np_, name in ((3, "latency-np3"), (2, "latency-np2")):
        path = os.path.join(part_dir, name, "ratios.json")
        doc = read_json(path)
        if doc is None:
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("times"), dict):
            raise InputError(f"{path}: no \"times\" object (not a --ratios_out file)")
        for bench, ns in doc["times"].items():
            parts = bench.split("/")
            if len(parts) != 4 or parts[0] != "state" or not isinstance(ns, (int, float)):
                raise InputError(f"{path}: unexpected entry {bench!r}")
            times[(parts[1], parts[2], parts[3])] = (float(ns), np_ == 3)
    return times


def case_order(times):
    """The cached cases there are times of, in the order of CASES, unknown ones after by name."""
    seen = {case for (case, _, block) in times if block != "sc"}
    return [c for c in CASES if c in seen] + sorted(seen - set(CASES))


def us(ns):
    return f"{ns / 1000:.3g}" if ns >= 1000 else f"{ns / 1000:.2g}"


def latency_table(label, times):
    lines = [f"### Latency by state, {label}: time per access in us (median of repetitions)", "",
             "| case | " + " | ".join(f"{op} {b}" for op in OPS for b in BLOCKS) + " |",
             "|---|" + "---|" * (2 * len(BLOCKS))]
    for case in case_order(times):
        cells = []
        for op in OPS:
            for b in BLOCKS:
                t = times.get((case, op, b))
                cells.append("-" if t is None else us(t[0]) + (" (np 3)" if t[1] else ""))
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    for case in SC_CASES:
        cells = []
        for op in OPS:
            t = times.get((case, op, "sc"))
            cells.append("-" if t is None else us(t[0]))
        lines.append(f"| sc {case} | " + " | ".join(f"{c}" for c in cells) + " |"
                     + " |" * (2 * len(BLOCKS) - 2))
    lines.append("")
    return lines


def latency_figure(plt, parts, path):
    """One panel per block size and one for sc; bars per case, read and write, per part."""
    panels = list(BLOCKS) + ["sc"]
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 3.2 * len(panels)))
    colours = {("one-host", "read"): "#1f77b4", ("one-host", "write"): "#9ecae1",
               ("sim-hosts", "read"): "#d62728", ("sim-hosts", "write"): "#fcae91"}
    for ax, block in zip(axes, panels):
        cases = list(SC_CASES) if block == "sc" else case_order(
            {k: v for times in parts.values() for k, v in times.items()})
        series = [(p, op) for p in parts for op in OPS]
        width = 0.8 / max(len(series), 1)
        for s, (part, op) in enumerate(series):
            for c, case in enumerate(cases):
                t = parts[part].get((case, op, block))
                if t is None:
                    continue
                ax.bar(c + (s - (len(series) - 1) / 2) * width, t[0] / 1000, width,
                       color=colours[(part, op)], hatch="//" if t[1] else None,
                       edgecolor="black", linewidth=0.3,
                       label=f"{dict(PARTS)[part]}, {op}")
        ax.set_yscale("log")
        ax.set_axisbelow(True)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel("us per access")
        ax.set_title(f"block {block} bytes" if block != "sc" else "sc (uncached)", fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles))
        ax.legend(unique.values(), unique.keys(), fontsize=7, ncol=2)
    fig.suptitle("swcc latency by block state (SWCC-Split-C Figs 6-7); hatched: the three-party "
                 "cases, from the np 3 run", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def scivm_rows(part_dir):
    """{(kernel, version): row} of the part's scivm.json, and its parameters."""
    path = os.path.join(part_dir, "scivm.json")
    doc = read_json(path)
    if doc is None:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise InputError(f"{path}: no \"rows\" list (not a scivm_overhead --json file)")
    rows = {}
    for r in doc["rows"]:
        if not isinstance(r, dict) or not all(k in r for k in ("kernel", "version", "time_ms",
                                                               "overhead_pct", "check")):
            raise InputError(f"{path}: a row lacks kernel, version, time_ms, overhead_pct or check")
        rows[(r["kernel"], r["version"])] = r
    return rows, {k: doc.get(k) for k in ("np", "sum_n", "matmul_n", "prefetch", "reps")}


def scivm_table(label, rows, params):
    lines = [f"### SCI-VM, {label} ({', '.join(f'{k} {v}' for k, v in params.items())})", "",
             "| kernel | version | time ms | overhead % | misses | prefetches | check |",
             "|---|---|---|---|---|---|---|"]
    for (kernel, version), r in rows.items():
        lines.append(f"| {kernel} | {version} | {r['time_ms']:.3f} | {r['overhead_pct']:.1f} | "
                     f"{r.get('misses', '-')} | {r.get('prefetches', '-')} | {r['check']} |")
    lines.append("")
    return lines


def scivm_figure(plt, parts, path):
    fig, ax = plt.subplots(figsize=(10, 4.5))
    bars = [(k, v) for k in ("sum", "matmul") for v in SCIVM_VERSIONS]
    width = 0.8 / max(len(parts), 1)
    for s, (part, (rows, _)) in enumerate(parts.items()):
        xs, ys = [], []
        for i, key in enumerate(bars):
            if key in rows and rows[key]["overhead_pct"] > 0:
                xs.append(i + (s - (len(parts) - 1) / 2) * width)
                ys.append(rows[key]["overhead_pct"])
        ax.bar(xs, ys, width, label=dict(PARTS)[part], color=("#1f77b4", "#d62728")[s % 2])
    ax.axhline(PAPER_OVERHEAD_PCT, color="black", linestyle="--", linewidth=0.8,
               label="the paper: < 75 % (all codes)")
    ax.set_yscale("log")
    ax.set_axisbelow(True)
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([f"{k}\n{v}" for k, v in bars], fontsize=7)
    ax.set_ylabel("overhead against local memory, %")
    ax.set_title("SCI-VM on swcc: interleaved 4096-byte pages, np 2", fontsize=11)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def em3d_table(label, path):
    if not os.path.exists(path):
        MISSING.append(path)
        return []
    try:
        results = cr.load(path)
    except cr.ResultsError as e:
        raise InputError(str(e)) from e
    rows = [r for r in results.rows.values() if r.get("op") == "em3d"
            and isinstance(r.get("app"), dict)]
    remotes = sorted({r["app"]["remote"] for r in rows})
    backends = sorted({r["backend"] for r in rows}, key=cr.backend_order)
    lines = [f"### EM3D, {label}: time of one run in us (median of repetitions)", "",
             "| backend | " + " | ".join(f"{p} % remote" for p in remotes) + " |",
             "|---|" + "---|" * len(remotes)]
    for b in backends:
        cells = []
        for p in remotes:
            t = [cr.headline_us(r) for r in rows if r["backend"] == b and r["app"]["remote"] == p]
            cells.append(f"{t[0]:.0f}" if t and t[0] is not None else "-")
        lines.append(f"| {b} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", metavar="DIR", help="the output directory of dsm_reference.sh")
    args = parser.parse_args(argv)
    try:
        if not os.path.isdir(args.dir):
            raise InputError(f"{args.dir}: not a directory")
        latency, scivm, summary = {}, {}, ["# DSM papers' experiments: summary", ""]
        for part, label in PARTS:
            part_dir = os.path.join(args.dir, part)
            times = latency_times(part_dir)
            if times:
                latency[part] = times
                summary += latency_table(label, times)
            s = scivm_rows(part_dir)
            if s is not None:
                scivm[part] = s
                summary += scivm_table(label, *s)
            summary += em3d_table(label, os.path.join(part_dir, "em3d", "results.json"))
        if not latency and not scivm:
            raise InputError(f"{args.dir}: no latency or SCI-VM results in one-host/ or "
                             "sim-hosts/")
    except InputError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    summary_path = os.path.join(args.dir, "summary.md")
    if os.path.exists(summary_path) and not os.path.isfile(summary_path):
        print(f"{PROG}: error: {summary_path} exists and is not a regular file", file=sys.stderr)
        return 2
    for path in MISSING:
        note(f"{path}: not there, left out")
    written = []
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        note("no matplotlib (python3-matplotlib; run with /usr/bin/python3): no figures")
        plt = None
    if plt and latency:
        latency_figure(plt, latency, os.path.join(args.dir, "latency-by-state.png"))
        written.append("latency-by-state.png")
    if plt and scivm:
        scivm_figure(plt, scivm, os.path.join(args.dir, "scivm-overhead.png"))
        written.append("scivm-overhead.png")
    with open(summary_path, "w", encoding="utf-8") as f:
        f.write("\n".join(summary))
    written.append("summary.md")
    print(f"{PROG}: wrote " + ", ".join(os.path.join(args.dir, w) for w in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
