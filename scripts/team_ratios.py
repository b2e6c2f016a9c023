#!/usr/bin/python3
"""Threads against processes on one comops run: the same op and scheme on the thread team
(shm-SCHEME) and on the process team (shmp-SCHEME), as the ratio of their headline times.

Prints Markdown (or writes it to --out):
- the 8-byte ping-pong's round trip of each team against the machine's cache-line round trip
  (context.limits.cacheline_rtt_us), per scheme;
- for every op, np and size of at least --min-bytes measured on both teams: the process team's
  time over the thread team's, and whether it is within --tolerance (a larger gap is a finding);
- the mpi backend's time beside them where the run has it.

Rows with wrong elements are left out (a wrong result has no time worth comparing); flagged rows
(O, C, L) are kept and marked. Exit status: 0, or 2 (bad input: one line on stderr).
Usage: team_ratios.py RESULTS_JSON [--min-bytes 64K] [--tolerance 0.10] [--out FILE]
"""

import argparse
import sys

import comops_results as cr

PROG = "team_ratios.py"
SCHEMES = ("direct", "staged")


def fail(text):
    print(f"{PROG}: error: {text}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="a comops results.json with shm and shmp rows")
    p.add_argument("--min-bytes", default="64K",
                   help="smallest size compared for the ops (default 64K; K/M/G = 1024)")
    p.add_argument("--tolerance", type=float, default=0.10,
                   help="the gap called within goal, as a fraction (default 0.10)")
    p.add_argument("--out", help="write the Markdown here instead of stdout")
    args = p.parse_args(argv)
    try:
        args.min_bytes = cr.parse_bytes(args.min_bytes)
    except ValueError as e:
        fail(f"--min-bytes: {e}")
    if not 0 <= args.tolerance < 10:
        fail(f"--tolerance must be a fraction from 0 to 10, not {args.tolerance}")
    return args


def marks(row):
    """The row's flags as the tables write them (O, C, L), empty when none."""
    return ("O" if row.get("oversubscribed") else "") + ("C" if row.get("contended") else "") + (
        "L" if row.get("beyond_limit") else "")


def by_point(rows):
    """{(backend, op, np, bytes, pair): row} of the rows without wrong elements."""
    out = {}
    for r in rows:
        if r.get("wrong", 0) == 0 and cr.headline_us(r) is not None:
            out[(r["backend"], r["op"], r["np"], r["bytes"], r.get("pair", ""))] = r
    return out


def fmt_us(row):
    return f"{cr.headline_us(row):.4g}" + (f" {marks(row)}" if marks(row) else "")


def pingpong_section(points, rtt):
    lines = ["## Ping-pong at 8 B against the cache-line round trip", ""]
    if rtt is None:
        return lines + ["The run has no cache-line round trip (context.limits.cacheline_rtt_us).",
                        ""]
    lines += [f"Cache-line round trip: {rtt:.4g} us.", "",
              "| scheme | team | np | RTT us | RTT / cache-line RTT |", "|---|---|---|---|---|"]
    found = False
    for (backend, op, np_, nbytes, _), row in sorted(points.items()):
        family, _, scheme = backend.partition("-")
        if op != "pingpong" or nbytes != 8 or family not in ("shm", "shmp"):
            continue
        team = "threads" if family == "shm" else "processes"
        lines.append(f"| {scheme} | {team} | {np_} | {fmt_us(row)} | "
                     f"{cr.headline_us(row) / rtt:.2f}x |")
        found = True
    if not found:
        lines.append("| (no 8-byte ping-pong on shm or shmp) | | | | |")
    return lines + [""]


def ops_section(points, min_bytes, tolerance):
    lines = [f"## Process team over thread team, {cr.format_bytes(min_bytes)} and above", "",
             f"Within goal: the process team's time at most {1 + tolerance:.2f}x the thread "
             "team's. Flags: O oversubscribed, C contended, L beyond the machine's limit.", "",
             "| op | scheme | np | bytes | threads us | processes us | processes / threads | "
             "within goal | mpi us |", "|---|---|---|---|---|---|---|---|---|"]
    compared = over = 0
    for (backend, op, np_, nbytes, pair), thread_row in sorted(
            points.items(), key=lambda kv: (cr.op_order(kv[0][1]), kv[0][0], kv[0][2],
                                            kv[0][3])):
        family, _, scheme = backend.partition("-")
        if family != "shm" or nbytes < min_bytes:
            continue
        process_row = points.get((f"shmp-{scheme}", op, np_, nbytes, pair))
        if process_row is None:
            continue
        ratio = cr.headline_us(process_row) / cr.headline_us(thread_row)
        within = ratio <= 1 + tolerance
        compared += 1
        over += not within
        mpi_row = points.get(("mpi", op, np_, nbytes, pair))
        lines.append(f"| {op} | {scheme} | {np_} | {cr.format_bytes(nbytes)} | "
                     f"{fmt_us(thread_row)} | {fmt_us(process_row)} | {ratio:.3f} | "
                     f"{'yes' if within else 'no'} | {fmt_us(mpi_row) if mpi_row else ''} |")
    if compared == 0:
        lines.append("| (no op measured on both teams at these sizes) | | | | | | | | |")
    lines += ["", f"{compared} points compared, {compared - over} within goal, {over} over it.",
              ""]
    return lines


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        doc = cr.load(args.results)
    except cr.ResultsError as e:
        fail(str(e))
    points = by_point(doc.rows.values())
    if not any(k[0].startswith("shmp-") for k in points) or not any(
            k[0].startswith("shm-") for k in points):
        fail(f"{cr.show_path(args.results)}: needs rows of both shm-SCHEME and shmp-SCHEME "
             "without wrong elements")
    rtt = (doc.context.get("limits") or {}).get("cacheline_rtt_us")
    text = "\n".join(["# Threads against processes", "",
                      f"From {cr.show_path(args.results)} ({doc.context.get('git_sha', '?')},"
                      f" {doc.context.get('date', '?')}).", ""] +
                     pingpong_section(points, rtt) +
                     ops_section(points, args.min_bytes, args.tolerance))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
