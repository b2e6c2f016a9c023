#!/usr/bin/python3
"""Draws the COMOPS paper's figures for this machine from comops results JSON files.

Figures (NP = --np, SIZE = --np-bytes as 800K; each skipped with a note when it has no rows):
  pingpong-rate-npNP     ping-pong rate = size / round trip versus size (paper Fig. 3)
  OP-bw-npNP             bandwidth versus size for broadcast, reduce-max (Figs. 4, 5) and, when
                         present, reduce-sum, gather, scatter, alltoall, allgather
  pingpong-small-npNP    small-message round-trip time, rows of at most 80 bytes (Fig. 6), on a
                         log y axis; one such size: a point per backend on a categorical axis
  OP-vs-np-SIZE          time versus participants at one size, per op (Figs. 7-15);
                         barrier-vs-np for the barrier (it has no size)
  APP-PARAMS-npNP        an application (--app; e.g. matmul-n256-np4), per participant count
                         and parameter combination: its time (left) and its speedup over
                         swcc-sc (right, sc time / time) versus the swcc block size (8 .. 4096),
                         the other backends (mpi, shm-*, swcc-sc) as horizontal reference
                         lines; the parameters are in the title
  em3d-vs-remote-npNP    --app=em3d: time and speedup over swcc-sc versus the remote-edge
                         percentage, one line per backend (scripts/em3d_figures.py)
One line per backend label (mpi, shm-staged, swcc-8, swcc-64, swcc-sc, ...: numbered variants in
numeric order), the minimum to maximum over repetitions as a shaded band (an error bar on a lone
point), hollow markers on points measured oversubscribed or contended, stars (and a footnote
saying why) on points whose row has beyond_limit, and the machine limits: single-thread memcpy
bandwidth (half of it for the ping-pong rate, which counts one copy each way per round trip), a
line where its sizes are dense, else marks at the measured sizes; the aggregate copy of all bound
cores (context.limits.aggregate_memcpy) on the other bandwidth figures; the core-to-core
cache-line round trip on the small-message figure; each with its range over repetitions when the
file has it; and the memcpy time of the bytes each point moves on time-versus-np.
Size "rows" are rows whose tables include "size", np rows those whose tables include "np".
"""

import argparse
import os
import sys
import textwrap

import comops_results as cr
import em3d_figures

PROG = "plot.py"
SMALL_MAX_BYTES = 80
PAPER_SIZE_OPS = ("broadcast", "reduce-max")  # figures the paper has: a note when missing
PAPER_NP_OPS = ("pingpong", "broadcast", "reduce-max")
FAMILY_STYLE = {"mpi": ("-", "o"), "shm": ("--", "s"), "shmp": ("-.", "P"), "hybrid": ("-", "D"),
                "swcc": (":", "^")}
FLAG_TEXT = "hollow marker: oversubscribed (np > cores) or contended (CPU stall > 5 %)"
BAND_TEXT = "shaded: min-max over repetitions"
ERRORBAR_TEXT = "error bar: min-max over repetitions"
BEYOND_TEXT = "star: beyond its machine limit (why: below the plot)"
MEASURED_ONLY = "marks at the measured sizes only"
LEGEND_WIDTH = 60      # characters of a legend line
MAX_BEYOND_NOTES = 6  # footnote lines for points beyond their limit; then "... and N more"
NOTE_LINE = 0.03      # a footnote line's height, as a share of the figure


def note(text):
    print(f"{PROG}: note: {text}", file=sys.stderr)


def error(text, status):
    """Prints the one line of a fatal error; returns the exit status."""
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return status


def in_table(row, table):
    tables = row.get("tables")
    return not isinstance(tables, list) or table in tables


def op_title(op):
    return {"pingpong": "Ping-pong", "reduce-max": "Reduction (max)",
            "reduce-sum": "Reduction (sum)"}.get(op, op.capitalize())


def dense(sizes):
    """True when sizes (sorted) are at least 2 and each at most twice the one before: a line
    through them then shows what lies between; else only the measured sizes are marked."""
    return len(sizes) >= 2 and all(b <= 2 * a for a, b in zip(sizes, sizes[1:]))


class Drawn:
    """What series() drew on one axes, for the legend's keys and the footnotes."""

    def __init__(self):
        self.band = self.errorbar = self.flagged = False
        self.beyond = []  # (backend, where, explanation) of points beyond their machine limit


class Figures:
    """Builds the figures of one Results as matplotlib Figures (outside pyplot: nothing to close);
    all() yields them, save() writes one. Raises ImportError without matplotlib."""

    def __init__(self, results):
        import matplotlib
        from matplotlib import ticker
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        self.Figure, self.ticker, self.Line2D, self.Patch = Figure, ticker, Line2D, Patch
        matplotlib.rcParams["svg.hashsalt"] = "comops"  # stable SVG ids run to run
        self.results = results
        backends = sorted({p[0] for p in results.rows}, key=cr.backend_order)
        cycle = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
        self.color = {b: cycle[i % len(cycle)] for i, b in enumerate(backends)}

    # -- helpers -------------------------------------------------------------------------------
    def style(self, backend):
        line, marker = FAMILY_STYLE.get(cr.backend_family(backend), ("-.", "D"))
        return ("--" if cr.split_label(backend)[1] else line), marker

    def footer(self, fig, extra):
        ctx = self.results.context
        parts = [f"host {ctx.get('host', '?')}", str(ctx.get("date", "?"))[:10],
                 f"comops {ctx.get('comops_version', '?')} ({ctx.get('git_sha', '?')})",
                 " + ".join(self.results.libraries), extra]
        fig.text(0.01, 0.01, " | ".join(p for p in parts if p), fontsize=7, color="0.35")

    def size_axis(self, ax, sizes):
        ax.set_xscale("log", base=2)
        lo, hi = min(sizes), max(sizes)
        exps = [e for e in range(0, 64) if lo <= 2 ** e <= hi] or [lo.bit_length() - 1]
        step = max(1, (len(exps) + 9) // 10)
        ax.set_xticks([2 ** e for e in exps[::step]] if lo < hi else [lo])
        if lo == hi:  # one size: a padded axis around it, labelled with it
            ax.set_xlim(lo / 2, lo * 2)
        ax.xaxis.set_major_formatter(self.ticker.FuncFormatter(
            lambda x, _: cr.format_bytes(int(round(x)))))
        ax.xaxis.set_minor_formatter(self.ticker.NullFormatter())
        ax.set_xlabel("message size (bytes; K = 1024)")

    def series(self, ax, rows, x_of, y_of, band_of, where):
        """One line per backend (in cr.backend_order); returns a Drawn. where(row): how a
        footnote names the point ("1 MiB", "np 4")."""
        drawn = Drawn()
        by_backend = {}
        for row in rows:
            by_backend.setdefault(cr.key(row)[0], []).append(row)  # "mpi inter": its own line
        for backend in sorted(by_backend, key=cr.backend_order):
            pts = sorted(by_backend[backend], key=x_of)
            pts = [r for r in pts if y_of(r) is not None]
            if not pts:
                continue
            xs, ys = [x_of(r) for r in pts], [y_of(r) for r in pts]
            color = self.color[backend]
            line, marker = self.style(backend)
            plain = [i for i, r in enumerate(pts) if not cr.flagged(r)]
            hollow = [i for i, r in enumerate(pts) if cr.flagged(r)]
            ax.plot(xs, ys, linestyle=line, marker=marker, markevery=plain, color=color,
                    label=backend, markersize=5)
            if hollow:
                drawn.flagged = True
                ax.plot([xs[i] for i in hollow], [ys[i] for i in hollow], linestyle="none",
                        marker=marker, markersize=6, markerfacecolor="white", color=color)
            beyond = [i for i, r in enumerate(pts) if isinstance(r.get("beyond_limit"), str)
                      and r["beyond_limit"].strip()]
            if beyond:
                ax.plot([xs[i] for i in beyond], [ys[i] for i in beyond], linestyle="none",
                        marker="*", markersize=12, color=color, markeredgecolor="black",
                        markeredgewidth=0.6, label="_beyond limit")
                drawn.beyond += [(backend, where(pts[i]), " ".join(pts[i]["beyond_limit"].split()))
                                 for i in beyond]
            bands = [band_of(r) for r in pts]
            if all(b is not None for b in bands) and len(pts) > 1:
                drawn.band = True
                ax.fill_between(xs, [b[0] for b in bands], [b[1] for b in bands], color=color,
                                alpha=0.15, linewidth=0)
            elif len(pts) == 1 and bands[0] is not None:
                drawn.errorbar = True
                ax.errorbar(xs, ys, yerr=[[ys[0] - bands[0][0]], [bands[0][1] - ys[0]]],
                            color=color, capsize=3, linestyle="none")
        return drawn

    def finish(self, fig, ax, drawn, extra_footer):
        """The legend (with a key for each kind of mark drawn), grid, footer and the footnotes
        on points beyond their limit."""
        handles, labels = ax.get_legend_handles_labels()
        if drawn.band:
            handles.append(self.Patch(color="0.5", alpha=0.3, linewidth=0))
            labels.append(BAND_TEXT)
        if drawn.errorbar:
            handles.append(self.Line2D([], [], linestyle="none", marker="|", markersize=10,
                                       color="0.3"))
            labels.append(ERRORBAR_TEXT)
        if drawn.flagged:
            handles.append(self.Line2D([], [], linestyle="none", marker="o", color="0.3",
                                       markerfacecolor="white"))
            labels.append(FLAG_TEXT)
        if drawn.beyond:
            handles.append(self.Line2D([], [], linestyle="none", marker="*", markersize=10,
                                       color="0.6", markeredgecolor="black"))
            labels.append(BEYOND_TEXT)
        # Outside the axes, on the right: inside, it hid the slowest backends' lines. Long labels
        # wrap, so that the legend does not squeeze the axes.
        ax.legend(handles, [textwrap.fill(label, LEGEND_WIDTH) for label in labels], fontsize=7,
                  loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        ax.grid(True, which="major", alpha=0.3)
        self.footer(fig, extra_footer)
        lines = []
        for backend, where, why in drawn.beyond[:MAX_BEYOND_NOTES]:
            lines += textwrap.wrap(f"* {backend} {where}: {why}", 170,
                                   subsequent_indent="    ")
        if len(drawn.beyond) > MAX_BEYOND_NOTES:
            lines.append(f"... and {len(drawn.beyond) - MAX_BEYOND_NOTES} more points beyond "
                         "their limit")
        fig.comops_bottom = 0.03 + NOTE_LINE * len(lines)  # room save() keeps below the axes
        if lines:
            fig.text(0.01, 0.01 + NOTE_LINE, "\n".join(lines), fontsize=7, color="0.2",
                     va="bottom")

    @staticmethod
    def save(fig, path, fmt, dpi):
        fig.tight_layout(rect=(0, getattr(fig, "comops_bottom", 0.03), 1, 1))
        metadata = {"Date": None} if fmt in ("svg", "pdf") else None
        fig.savefig(path, format=fmt, dpi=dpi, metadata=metadata, bbox_inches="tight")

    def new_axes(self, title):
        fig = self.Figure(figsize=(10, 5))
        ax = fig.subplots()
        ax.set_title(f"{title} - {self.results.context.get('host', 'unknown host')}")
        return fig, ax

    def cacheline_line(self, ax):
        """The core-to-core cache-line round trip as a horizontal line, its range over
        repetitions (when measured) as a band; returns its value or None."""
        measured = self.results.cacheline_rtt_us()
        if measured is None:
            return None
        rtt, spread = measured
        cores = self.results.limits().get("cacheline_cores")
        between = (f", cores {cores[0]}-{cores[1]}"
                   if isinstance(cores, list) and len(cores) == 2 else "")
        label = f"cache-line round trip{between} (machine limit, {rtt:.3g} us)"
        if spread:
            label += f"; grey band: its range, {spread[0]:.3g}-{spread[1]:.3g} us"
            ax.axhspan(spread[0], spread[1], color="black", alpha=0.08, linewidth=0,
                       label="_cache-line range")
        ax.axhline(rtt, color="black", linestyle="--", linewidth=1, label=label)
        return rtt

    def limit_marks(self, ax, table, scale, label, color, linestyle, sizes):
        """A machine limit measured per size ({bytes: (GB/s, range or None)}, times scale) within
        sizes' span: a line when the measured sizes are dense(), else marks at each measured size;
        its range over repetitions, when measured, as a band (line) or bars (marks)."""
        xs = sorted(b for b in table if min(sizes) <= b <= max(sizes))
        if not xs:
            return
        ys = [table[b][0] * scale for b in xs]
        spread = [table[b][1] for b in xs]
        ranged = all(r is not None for r in spread)
        if dense(xs):
            label += "; band: its range" if ranged else ""
            ax.plot(xs, ys, color=color, linestyle=linestyle, linewidth=1, label=label)
            if ranged:
                ax.fill_between(xs, [r[0] * scale for r in spread],
                                [r[1] * scale for r in spread], color=color, alpha=0.12,
                                linewidth=0, label="_limit range")
            return
        label += f"; {MEASURED_ONLY}" + (", bar: range" if ranged else "")
        if ranged:
            ax.errorbar(xs, ys, yerr=[[y - r[0] * scale for y, r in zip(ys, spread)],
                                      [r[1] * scale - y for y, r in zip(ys, spread)]],
                        color=color, linestyle="none", marker="_", markersize=14,
                        markeredgewidth=2, capsize=0, label=label)
        else:
            ax.plot(xs, ys, color=color, linestyle="none", marker="_", markersize=14,
                    markeredgewidth=2, label=label)

    # -- figures -------------------------------------------------------------------------------
    def bandwidth(self, op, np_, rows):
        """Bandwidth (ping-pong: rate) versus size with the memcpy limit: (name, Figure), or
        None without rows."""
        rate = op == "pingpong"
        fig, ax = self.new_axes(f"{op_title(op)} {'rate' if rate else 'bandwidth'}, np = {np_}")

        def value(row):
            t = cr.headline_us(row)
            if rate:
                if row.get("rate_GBps") is not None:
                    return row["rate_GBps"]
                return row["bytes"] / t * 1e-3 if t else None
            return row.get("bw_GBps")

        def band(row):  # the value scaled by headline / (max, min) time over repetitions
            t, spread, v = cr.headline_us(row), cr.spread_us(row), value(row)
            if not (t and spread and v and spread[0] > 0):
                return None
            return v * t / spread[1], v * t / spread[0]

        rows = [r for r in rows if value(r)]
        if not rows:
            return None
        drawn = self.series(ax, rows, lambda r: r["bytes"], value, band,
                            lambda r: cr.human_bytes(r["bytes"]))
        sizes = [r["bytes"] for r in rows]
        if rate:
            self.limit_marks(ax, self.memcpy_table(), 0.5,
                             "memcpy / 2, 1 thread (machine limit: one copy each way)", "black",
                             "--", sizes)
        else:
            self.limit_marks(ax, self.memcpy_table(), 1.0, "memcpy, 1 thread (machine limit)",
                             "black", "--", sizes)
            threads = self.results.aggregate_threads()
            self.limit_marks(ax, self.results.memcpy_limits("aggregate_memcpy"), 1.0,
                             "aggregate memcpy" + (f", {threads} threads" if threads else "")
                             + " at once (machine limit of a split copy)", "0.45", "-.", sizes)
        self.size_axis(ax, sizes)
        ax.set_yscale("log")
        ax.set_ylabel("ping-pong rate = size / round trip (GB/s, GB = 1e9 B)" if rate else
                      "bandwidth (GB/s, GB = 1e9 B)")
        self.finish(fig, ax, drawn, f"np {np_}")
        return (f"pingpong-rate-np{np_}" if rate else f"{op}-bw-np{np_}"), fig

    def memcpy_table(self):
        """{bytes: (single-thread memcpy GB/s, range or None)}: context.limits.memcpy, else the
        rows' memcpy_GBps."""
        table = self.results.memcpy_limits()
        return table or {b: (bw, None) for b, bw in self.results.memcpy_GBps().items()}

    def small_pingpong(self, np_, rows):
        """Small-message round-trip time with the cache-line round trip: (name, Figure) or None.
        Several sizes: time versus size; one size: one point per backend (a categorical axis)."""
        rows = [r for r in rows if r["bytes"] <= SMALL_MAX_BYTES and cr.headline_us(r)]
        if not rows:
            return None
        sizes = sorted({r["bytes"] for r in rows})
        if len(sizes) == 1:
            fig, ax = self.new_axes(f"Small-message ping-pong time, {cr.human_bytes(sizes[0])}, "
                                    f"np = {np_}")
            backends = sorted({cr.key(r)[0] for r in rows}, key=cr.backend_order)
            drawn = self.series(ax, rows, lambda r: backends.index(cr.key(r)[0]),
                                cr.headline_us, cr.spread_us, lambda r: cr.human_bytes(r["bytes"]))
            ax.set_xticks(range(len(backends)), backends)
            ax.set_xlim(-0.6, len(backends) - 0.4)
            ax.set_xlabel(f"backend (message size {cr.human_bytes(sizes[0])}, the only size of at "
                          f"most {SMALL_MAX_BYTES} bytes measured)")
        else:
            fig, ax = self.new_axes(f"Small-message ping-pong time, np = {np_}")
            drawn = self.series(ax, rows, lambda r: r["bytes"], cr.headline_us, cr.spread_us,
                                lambda r: cr.human_bytes(r["bytes"]))
            ax.set_xlabel("message size (bytes)")
            ax.xaxis.set_major_locator(self.ticker.MaxNLocator(integer=True))
        self.cacheline_line(ax)
        ax.set_ylabel("round-trip time (us, log scale)")
        # log: the backends span 100x (shm-direct under the cache-line line on a linear axis)
        ax.set_yscale("log")
        self.finish(fig, ax, drawn, f"np {np_}")
        return f"pingpong-small-np{np_}", fig

    def versus_np(self, op, nbytes, rows):
        """Headline time versus participants at one size, with the memcpy time of the bytes:
        (name, Figure) or None."""
        rows = [r for r in rows if cr.headline_us(r)]
        if not rows:
            return None
        at = "" if op == "barrier" else f", {cr.format_bytes(nbytes)} ({nbytes} bytes)"
        fig, ax = self.new_axes(f"{op_title(op)} time versus participants{at}")
        drawn = self.series(ax, rows, lambda r: r["np"], cr.headline_us, cr.spread_us,
                            lambda r: f"np {r['np']}")
        memcpy = self.results.memcpy_GBps()
        limit = {}
        for r in rows:  # bytes moved = bw x headline time (time_us.max), at memcpy speed
            head = (r.get("time_us") or {}).get("max") or cr.headline_us(r)
            bw = r.get("memcpy_GBps") or memcpy.get(r["bytes"])
            if r.get("bw_GBps") and bw:
                limit[r["np"]] = r["bw_GBps"] * head / bw
        if limit:
            xs = sorted(limit)
            ax.plot(xs, [limit[n] for n in xs], color="black", linestyle="--", linewidth=1,
                    label="memcpy of the bytes moved, 1 thread (machine limit)")
        values = [cr.headline_us(r) for r in rows] + list(limit.values())
        if op == "barrier":  # no data: a barrier costs at least one cache-line round trip
            values.append(self.cacheline_line(ax) or values[0])
        ax.set_xlabel("participants (np)")
        ax.set_ylabel("round-trip time (us)" if op == "pingpong"
                      else "time per operation, slowest rank (us)")
        ax.xaxis.set_major_locator(self.ticker.MaxNLocator(integer=True))
        if max(values) / min(values) > 30:
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=0)
        self.finish(fig, ax, drawn, f"{cr.format_bytes(nbytes)}" if at else "")
        return (f"{op}-vs-np" if op == "barrier" else f"{op}-vs-np-{cr.format_bytes(nbytes)}"), fig

    def all(self, wanted_np, nbytes, note=note):
        """Yields (name, Figure) for every figure the rows allow, with a note for each paper
        figure that they do not allow."""
        results = self.results
        all_rows = list(results.rows.values())
        rows = [r for r in all_rows if not cr.app_params(r)]  # the ops' rows
        ops = sorted({r["op"] for r in rows}, key=cr.op_order)
        np_ = choose_np(results, wanted_np)

        size_rows = {op: [r for r in rows if r["op"] == op and r["np"] == np_
                          and in_table(r, "size")] for op in ops}
        if np_ is None:
            note("no size rows: skipping the versus-size figures")
        else:
            figure = self.bandwidth("pingpong", np_, size_rows.get("pingpong", []))
            if figure:
                yield figure
            else:
                note(f"no ping-pong size rows at np {np_}: skipping pingpong-rate")
            for op in [o for o in ops if o not in ("pingpong", "barrier")]:
                figure = self.bandwidth(op, np_, size_rows[op])
                if figure:
                    yield figure
            for op in PAPER_SIZE_OPS:
                if not size_rows.get(op):
                    note(f"no {op} size rows at np {np_}: skipping {op}-bw")
            figure = self.small_pingpong(np_, size_rows.get("pingpong", []))
            if figure:
                yield figure
            else:
                note(f"no ping-pong rows of at most {SMALL_MAX_BYTES} bytes at np {np_}: "
                     "skipping pingpong-small")
        for op in sorted(set(ops) | set(PAPER_NP_OPS), key=cr.op_order):
            at = 0 if op == "barrier" else nbytes
            np_rows = [r for r in rows if r["op"] == op and r["bytes"] == at
                       and in_table(r, "np")]
            figure = self.versus_np(op, at, np_rows) if len({r["np"] for r in np_rows}) > 1 \
                else None
            if figure:
                yield figure
            elif op in PAPER_NP_OPS:
                note(f"fewer than 2 np values for {op} at {cr.format_bytes(at)}: skipping "
                     f"{op}-vs-np")
        apps = {}  # (app, np, parameters) -> rows, in the order of the file
        for r in all_rows:
            params = cr.app_params(r)
            if params:
                apps.setdefault((r["op"], r["np"], tuple(params.items())), []).append(r)
        for (app, np_app, params), app_rows in apps.items():
            figure = self.application(app, np_app, params, app_rows)
            if figure:
                yield figure
            else:
                note(f"no timed {app} rows at np {np_app}: skipping its figure")
        yield from em3d_figures.figures(self, all_rows, note)

    def application(self, app, np_, params, rows):
        """An application's time and speedup over swcc-sc versus the swcc block size, the other
        backends as horizontal lines: (name, Figure) or None."""
        times = {cr.key(r)[0]: cr.headline_us(r) for r in rows if cr.headline_us(r)}
        if not times:
            return None
        blocks = {}  # block bytes -> backend label (swcc-64)
        for backend in times:
            name, _, variant = cr.split_label(backend)[0].partition("-")
            if name == "swcc" and variant.isdigit():
                blocks[int(variant)] = backend
        sc = times.get("swcc-sc")
        what = " ".join(f"{k}={v}" for k, v in params)
        fig = self.Figure(figsize=(12, 5))
        ax_time, ax_speed = fig.subplots(1, 2)
        fig.suptitle(f"{app} {what}, np {np_}: time and speedup over swcc-sc versus block size"
                     f" - {self.results.context.get('host', 'unknown host')}")
        xs = sorted(blocks)
        for ax, of, label in ((ax_time, lambda t: t, "time per run, slowest rank (us)"),
                              (ax_speed, lambda t: sc / t if sc else None,
                               "speedup over swcc-sc (sc time / time)")):
            if xs and of(times[blocks[xs[0]]]) is not None:
                ax.plot(xs, [of(times[blocks[x]]) for x in xs], color=self.color[blocks[xs[0]]],
                        linestyle=":", marker="^", label="swcc-N (caching, N = block size)")
            for backend in sorted(times, key=cr.backend_order):
                if backend in blocks.values() or of(times[backend]) is None:
                    continue
                line, _ = self.style(backend)
                ax.axhline(of(times[backend]), color=self.color[backend], linestyle=line,
                           linewidth=1.2, label=backend)
            ax.set_xscale("log", base=2)
            ticks = sorted(set(xs) | {8, 64, 256, 1024, 4096})
            ax.set_xticks(ticks)
            ax.set_xticklabels([str(t) for t in ticks])
            ax.set_xlim(ticks[0] / 1.5, ticks[-1] * 1.5)
            ax.set_xlabel("swcc block size (bytes)")
            ax.set_ylabel(label)
            ax.set_yscale("log")
            ax.grid(True, which="major", alpha=0.3)
        if sc is None:
            ax_speed.text(0.5, 0.5, "no swcc-sc row: no speedup", ha="center",
                          transform=ax_speed.transAxes)
        handles, labels = ax_time.get_legend_handles_labels()  # every series, sc included
        ax_speed.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                        borderaxespad=0.0)
        self.footer(fig, f"np {np_}, {what}")
        name = "-".join([app] + [f"{k}{v}" for k, v in params] + [f"np{np_}"])
        return name, fig


def choose_np(results, wanted):
    nps = {r["np"] for r in results.rows.values() if in_table(r, "size")}
    if wanted is not None:
        return wanted
    if not nps:
        return None
    return 4 if 4 in nps else max(nps)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", metavar="RESULTS.json",
                        help="comops results files, merged in order (a later file's row wins)")
    parser.add_argument("-o", "--out-dir", help="where to write (default: the first input's "
                        "directory)")
    parser.add_argument("--format", choices=("png", "svg", "pdf"), default="png",
                        help="image format (default png)")
    parser.add_argument("--np", type=int, help="participants of the versus-size figures "
                        "(default 4 if measured, else the largest np of the size rows)")
    parser.add_argument("--np-bytes", help="message size of the versus-np figures, e.g. 800K "
                        "(default: context.options.np_bytes, else 819200)")
    parser.add_argument("--dpi", type=int, default=120, help="PNG resolution (default 120)")
    args = parser.parse_args(argv)
    np_bytes = None
    if args.np_bytes:
        try:
            np_bytes = cr.parse_bytes(args.np_bytes)
        except ValueError as e:
            parser.error(f"--np-bytes: {e}")
    if args.np is not None and args.np < 1:
        parser.error("--np must be a positive integer")
    if args.dpi < 1:
        parser.error("--dpi must be a positive integer")

    try:
        results = cr.load_all(args.inputs, note)
    except cr.ResultsError as e:
        return error(e, 2)
    if np_bytes is None:
        np_bytes = results.options().get("np_bytes")
        if not isinstance(np_bytes, int) or isinstance(np_bytes, bool):
            np_bytes = 819200

    out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.inputs[0]))
    try:
        figures = Figures(results)
    except ImportError as e:
        return error(f"matplotlib is missing for {sys.executable} ({e}); run it with "
                     "/usr/bin/python3 (apt-get install python3-matplotlib)", 3)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        return error(f"cannot create {cr.show_path(out_dir)} ({e.strerror or e})", 3)
    written = []
    for name, fig in figures.all(args.np, np_bytes):
        path = os.path.join(out_dir, f"{name}.{args.format}")
        try:
            Figures.save(fig, path, args.format, args.dpi)
        except OSError as e:
            return error(f"cannot write {cr.show_path(e.filename or path)} "
                         f"({e.strerror or e})", 3)
        written.append(path)
    if not written:
        return error(f"nothing to plot in {', '.join(map(cr.show_path, args.inputs))}", 2)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
