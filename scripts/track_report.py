#!/usr/bin/python3
"""Writes the regression-tracking dashboard (track.py report): one static, self-contained HTML
page, index.html, from the history data track.py builds (the data contract is in
scripts/README.md, section Dashboard). Per machine fingerprint: the fingerprint, the change
points, the latest run against the last stable segment and one chart per (op, backend) over the
runs. Charts are PNGs drawn with matplotlib and embedded as base64 data URIs, so the page is one
file that needs no network and no files beside it (a CI artifact, a mail attachment).

    track_report.py DATA.json -o DIR [--ab AB.json]  # writes DIR/index.html (for debugging)

At the top, the latest A/B job's verdict when one is given (track.py report --ab FILE: the
ab.json scripts/ab_job.sh writes; its schema is in docs/regression.md), then the paired
history's steps and levels when one is given (track.py report --paired DIR,
track_report_paired.py).
"""

import argparse
import base64
import html
import importlib.util
import io
import json
import math
import os
import pathlib
import sys
import tempfile

import comops_results as cr
import track_report_paired

PROG = "track_report.py"
DIRECTIONS = ("regression", "improvement")
DIRECTION_COLOR = {"regression": "#c0392b", "improvement": "#1e8449"}
BAND_TEXT = "band: min-max over repetitions"
CONTENDED_TEXT = "hollow marker: contended (CPU stall > 5 %); triangle: off the axis"
FINGERPRINT_ORDER = ("cpu_model", "cores", "nodes", "mpi_library", "compiler", "options")
LONG_TEXT = 80       # characters of a fingerprint value shown before it folds into <details>
COMMIT_CHARS = 12    # characters of a commit on a chart's axis and change labels
MAX_TICKS = 40       # commit labels on a chart's x axis; more runs label every k-th run
MAX_LINE_SERIES = 3  # series named on a change line; more are counted


class ReportError(Exception):
    """Data or an output directory the dashboard cannot use, or a page it cannot write; str() is
    the one line to print (track.py report exits 2 with it)."""


# -- the data contract ----------------------------------------------------------------------------

def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _need(ok, where, what):
    if not ok:
        raise ReportError(f"bad report data: {where} {what}")


def _check_series(where, s, nruns):
    _need(isinstance(s, dict), where, "is not an object")
    for name in ("backend", "op"):
        _need(isinstance(s.get(name), str) and s[name], f"{where}.{name}", "is not a string")
    _need(_is_int(s.get("np")) and s["np"] >= 1, f"{where}.np", "is not a positive integer")
    _need(_is_int(s.get("bytes")) and s["bytes"] >= 0, f"{where}.bytes",
          "is not a non-negative integer")
    _need(s.get("pair") is None or isinstance(s["pair"], str), f"{where}.pair",
          "is not a string or null")
    _need(isinstance(s.get("unit", "us"), str), f"{where}.unit", "is not a string")
    _need(isinstance(s.get("values"), list), f"{where}.values", "is not a list")
    for i, v in enumerate(s["values"]):
        at = f"{where}.values[{i}]"
        _need(isinstance(v, dict), at, "is not an object")
        _need(_is_int(v.get("run")) and 0 <= v["run"] < nruns, f"{at}.run",
              f"is not a run index (0 to {nruns - 1})")
        _need(v.get("median") is None or _is_number(v["median"]), f"{at}.median",
              "is not a number or null")
        reps = v.get("reps")
        _need(reps is None or (isinstance(reps, list) and all(_is_number(r) for r in reps)),
              f"{at}.reps", "is not a list of numbers")
        _need(v.get("contended") is None or isinstance(v["contended"], bool),
              f"{at}.contended", "is not true, false or null")
    _need(isinstance(s.get("changes", []), list), f"{where}.changes", "is not a list")
    for i, c in enumerate(s.get("changes", [])):
        at = f"{where}.changes[{i}]"
        _need(isinstance(c, dict), at, "is not an object")
        _need(_is_int(c.get("run")) and 0 <= c["run"] < nruns, f"{at}.run",
              f"is not a run index (0 to {nruns - 1})")
        _need(isinstance(c.get("commit"), str), f"{at}.commit", "is not a string")
        _need(c.get("direction") in DIRECTIONS, f"{at}.direction",
              "is not \"regression\" or \"improvement\"")
        for name in ("ratio", "p_value", "before_median", "after_median"):
            _need(c.get(name) is None or _is_number(c[name]), f"{at}.{name}",
                  "is not a number or null")
        ci = c.get("ci")
        _need(ci is None or (isinstance(ci, list) and len(ci) == 2
                             and all(_is_number(x) for x in ci)), f"{at}.ci",
              "is not a list of two numbers or null")
    for name in ("latest", "stable_median"):
        _need(s.get(name) is None or _is_number(s[name]), f"{where}.{name}",
              "is not a number or null")
    _need(s.get("stable_since_commit") is None or isinstance(s["stable_since_commit"], str),
          f"{where}.stable_since_commit", "is not a string or null")


def check_ab(ab, where="ab"):
    """Raises ReportError naming the first field of an A/B verdict (scripts/ab_job.sh's
    DIR/ab.json, schema in docs/regression.md) that does not keep to its schema; other keys are
    allowed and ignored."""
    _need(isinstance(ab, dict), where, "is not an object")
    for name in ("verdict", "base", "head"):
        _need(isinstance(ab.get(name), str), f"{where}.{name}", "is not a string")
    for name in ("rounds", "contended_rounds"):
        _need(_is_int(ab.get(name)) and ab[name] >= 0, f"{where}.{name}",
              "is not a non-negative integer")
    _need(isinstance(ab.get("points"), list), f"{where}.points", "is not a list")
    for i, p in enumerate(ab["points"]):
        at = f"{where}.points[{i}]"
        _need(isinstance(p, dict), at, "is not an object")
        _need(isinstance(p.get("point"), str), f"{at}.point", "is not a string")
        for name in ("before_us", "after_us", "ratio", "ci_low", "ci_high"):
            _need(p.get(name) is None or _is_number(p[name]), f"{at}.{name}",
                  "is not a number or null")
        _need(isinstance(p.get("changed"), bool), f"{at}.changed", "is not true or false")


def check_paired(found, where="paired"):
    """Raises ReportError for paired-history findings (track_paired.check) off their form."""
    _need(isinstance(found, dict), where, "is not an object")
    for name in ("machine", "newest", "level_since"):
        _need(isinstance(found.get(name), str), f"{where}.{name}", "is not a string")
    for name in ("steps", "breaks", "not_judged", "failing"):
        _need(isinstance(found.get(name), list), f"{where}.{name}", "is not a list")
    _need(isinstance(found.get("levels"), dict), f"{where}.levels", "is not an object")
    _need(_is_int(found.get("entries")), f"{where}.entries", "is not an integer")


def check_data(data):
    """Raises ReportError naming the first field that does not keep to the data contract."""
    _need(isinstance(data, dict), "the data", "is not an object")
    if data.get("ab") is not None:
        check_ab(data["ab"])
    if data.get("paired") is not None:
        check_paired(data["paired"])
    _need(data.get("generated") is None or isinstance(data["generated"], str), "generated",
          "is not a string")
    _need(isinstance(data.get("machines"), list), "machines", "is not a list")
    for m_index, machine in enumerate(data["machines"]):
        where = f"machines[{m_index}]"
        _need(isinstance(machine, dict), where, "is not an object")
        _need(isinstance(machine.get("id"), str), f"{where}.id", "is not a string")
        _need(isinstance(machine.get("fingerprint", {}), dict), f"{where}.fingerprint",
              "is not an object")
        runs = machine.get("runs")
        _need(isinstance(runs, list), f"{where}.runs", "is not a list")
        for r_index, run in enumerate(runs):
            at = f"{where}.runs[{r_index}]"
            _need(isinstance(run, dict) and isinstance(run.get("commit"), str), at,
                  "is not an object with a string commit")
            _need(run.get("date") is None or isinstance(run["date"], str), f"{at}.date",
                  "is not a string")
        _need(isinstance(machine.get("series"), list), f"{where}.series", "is not a list")
        for s_index, s in enumerate(machine["series"]):
            _check_series(f"{where}.series[{s_index}]", s, len(runs))


# -- text ----------------------------------------------------------------------------------------

def point_name(s):
    """'mpi pingpong np 2 8 B (intra)': a series' point as the tables and legends name it."""
    pair = f" ({s['pair']})" if s.get("pair") else ""
    return f"{s['backend']} {s['op']} np {s['np']} {cr.human_bytes(s['bytes'])}{pair}"


def fmt_value(value):
    """A time for a table: 3 significant digits, no exponent above 1000 ('1234', '1.23')."""
    if value is None:
        return "–"
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def fmt_ratio(value):
    return "–" if value is None else f"{value:.3f}"


def _mpl_text(text):
    """Text for a matplotlib label: '$' would start mathtext (a bad formula stops the figure)."""
    return str(text).replace("$", r"\$")


def _short(commit):
    return commit if len(commit) <= COMMIT_CHARS else commit[: COMMIT_CHARS - 1] + "…"


def _e(text):
    return html.escape(str(text), quote=True)


def series_order(s):
    return (cr.op_order(s["op"]), s["backend"], s.get("pair") or "", s["np"], s["bytes"])


VERDICT_CLASS = {"regression": "regression", "improvement": "improvement",
                 "not measured": "not-measured", "contended, not judged": "contended",
                 "not significant": "not-significant"}


def verdict(s, nruns):
    """The latest run's verdict for one series: the direction of a (significant) change that
    starts at the latest run; 'not measured' when the series has no latest value; 'contended,
    not judged' when the latest run's value was contended; else 'not significant' (whatever
    the ratio to the stable median: the test did not tell it from the series' noise)."""
    last = nruns - 1
    for change in s.get("changes", []):
        if change["run"] == last:
            return change["direction"]
    if s.get("latest") is None:
        return "not measured"
    if any(v["run"] == last and v.get("contended") for v in s["values"]):
        return "contended, not judged"
    return "not significant"


def stable_ratio(s):
    latest, stable = s.get("latest"), s.get("stable_median")
    return latest / stable if latest is not None and stable else None


# -- charts --------------------------------------------------------------------------------------

def _median(values):
    return cr.median(values) if values else None


def normaliser(s):
    """The value a series is divided by on its chart: the median of its non-contended medians
    before its first change point (its first stable segment); all of them when every one was
    contended; None when it has no positive value (then the chart shows it unnormalised)."""
    first = min((c["run"] for c in s.get("changes", [])), default=None)
    values = [v for v in s["values"] if v.get("median") is not None]
    head = [v for v in values if first is None or v["run"] < first] or values
    base = (_median([v["median"] for v in head if not v.get("contended")])
            or _median([v["median"] for v in head]))
    return base if base and base > 0 else None


def chart_groups(machine):
    """[((op, backend), [series, ...])] in the dashboard's order: one chart per op and backend."""
    groups = {}
    for s in sorted(machine["series"], key=series_order):
        groups.setdefault((s["op"], s["backend"]), []).append(s)
    return sorted(groups.items(), key=lambda kv: (cr.op_order(kv[0][0]), kv[0][1]))


def series_label(s):
    """A chart line's short name: 'np 2 8 B intra'."""
    mode = s.get("mode") or {}
    shown = ("" if not mode else f" mode {mode['mode']} ({mode['centre_us']:.2g} us)"
             if mode.get("mode") else " no mode")
    return (f"np {s['np']} {cr.human_bytes(s['bytes'])}"
            + (f" {s['pair']}" if s.get("pair") else "") + shown)


def change_lines(series):
    """{run: (commit, direction, label)}: one dashed line per run with a change on the chart,
    red when any of its series regressed there; the label names the commit and each series
    that changed there with its ratio ('feed7e1: np 2 8 B intra x1.100'), or their count past
    MAX_LINE_SERIES."""
    runs = {}
    for s in series:
        for c in s.get("changes", []):
            runs.setdefault(c["run"], []).append((s, c))
    lines = {}
    for run, entries in runs.items():
        direction = ("regression" if any(c["direction"] == "regression" for _, c in entries)
                     else "improvement")
        named = [series_label(s) + (f" x{fmt_ratio(c['ratio'])}" if c.get("ratio") else "")
                 for s, c in entries]
        what = ", ".join(named) if len(named) <= MAX_LINE_SERIES else f"{len(named)} points"
        commit = entries[0][1]["commit"]
        lines[run] = (commit, direction, f"{_short(commit)}: {what}")
    return lines


def chart_figure(machine, op, backend, series):
    """The chart of one (op, backend) as a matplotlib Figure (outside pyplot): x the runs in
    order labelled by commit, one line per point divided by its normaliser() through its
    non-contended values, a band from the minimum to the maximum over repetitions around it,
    hollow markers on contended values (a triangle on the edge for those off the axis), a
    dashed vertical line with its commit at each change point (red regression, green
    improvement). Raises ImportError without matplotlib."""
    from matplotlib.figure import Figure

    nruns = len(machine["runs"])
    fig = Figure(figsize=(11, 4.2), dpi=100)
    ax = fig.subplots()
    colors = _chart_colors(len(series))
    lines, contended_points, plain_values = [], [], []
    normalised = True
    for index, s in enumerate(series):
        line, marks, plain, base = _plot_series(ax, s, colors[index % len(colors)], len(series),
                                                nruns)
        lines.append(line)
        contended_points.append(marks)
        plain_values += plain
        normalised = normalised and base is not None
    _set_y_range(ax, contended_points, plain_values, normalised)
    any_contended = _plot_contended(ax, contended_points)
    changes = change_lines(series)
    _plot_changes(ax, changes)
    _label_axes(ax, machine, op, backend, normalised)
    _legend(ax, lines, any_contended, changes)
    return fig


def _chart_colors(count):
    """The colours of a chart's count lines: tab10's, or viridis spread over more than 10."""
    from matplotlib import colormaps

    if count <= 10:
        return colormaps["tab10"].colors
    return [colormaps["viridis"](i / (count - 1)) for i in range(count)]


def _series_values(s, nruns, scale):
    """(med, lo, hi, contended, plain): a series' median, minimum and maximum (over its
    repetitions and median) per run divided by scale, NaN where it was not measured; whether
    each run's value was contended; and the values of the runs not contended, for the y range."""
    import numpy as np

    med, lo, hi = (np.full(nruns, np.nan) for _ in range(3))
    contended = np.zeros(nruns, dtype=bool)
    plain = []
    for v in s["values"]:
        if v.get("median") is None:
            continue
        r = v["run"]
        reps = v.get("reps") or [v["median"]]
        med[r] = v["median"] / scale
        lo[r], hi[r] = min(reps + [v["median"]]) / scale, max(reps + [v["median"]]) / scale
        contended[r] = bool(v.get("contended"))
        if not contended[r]:
            plain += [med[r], lo[r], hi[r]]
    return med, lo, hi, contended, plain


def _plot_series(ax, s, color, nseries, nruns):
    """Draws one series' line and band (of nseries on the chart); returns (its line, (color,
    runs, values) of its contended values, its values not contended, its normaliser())."""
    import numpy as np

    base = normaliser(s)
    med, lo, hi, contended, plain = _series_values(s, nruns, base or 1.0)
    x = np.arange(nruns)
    unit = s.get("unit", "us")
    ref = f"1 = {fmt_value(base)} {unit}" if base else f"in {unit}, not normalised"
    label = _mpl_text(f"{series_label(s)} ({ref})")
    # the line and band join the values that count (measured, not contended) across runs
    # without one; a run without a marker was not measured, or is a hollow contended marker
    ok = ~np.isnan(med) & ~contended
    ax.fill_between(x[ok], lo[ok], hi[ok], color=color, linewidth=0,
                    alpha=0.18 if nseries <= 4 else 0.08)
    (line,) = ax.plot(x[ok], med[ok], "-o", color=color, markersize=3, linewidth=1.2,
                      label=label)
    return line, (color, x[contended], med[contended]), plain, base


def _set_y_range(ax, contended_points, plain_values, normalised):
    """The y axis from the values not contended (all of them when every one was), padded, and
    down to 1 on a normalised chart; left to matplotlib when no value is finite."""
    everything = [y for _, _, ys in contended_points for y in ys] + plain_values
    finite = [y for y in (plain_values or everything) if math.isfinite(y)]
    if finite:
        bottom, top = min(finite + [1.0] if normalised else finite), max(finite)
        pad = 0.08 * (top - bottom) or 0.05 * abs(top) or 0.05
        ax.set_ylim(bottom - pad, top + pad)


def _plot_contended(ax, contended_points):
    """Draws the hollow markers of contended values, a triangle on the edge for those off the
    axis; returns whether there was any."""
    import numpy as np

    any_contended = False
    for color, xs, ys in contended_points:
        if len(xs):
            any_contended = True
            bottom, top = ax.get_ylim()
            for marker, where, y in (("o", (ys >= bottom) & (ys <= top), None),
                                     ("^", ys > top, top), ("v", ys < bottom, bottom)):
                ax.plot(xs[where], ys[where] if y is None else np.full(where.sum(), y), marker,
                        linestyle="none", markersize=7, markerfacecolor="white",
                        markeredgecolor=color, clip_on=y is None)
    return any_contended


def _plot_changes(ax, changes):
    """A dashed vertical line at each change point of change_lines(), with its label."""
    trans = ax.get_xaxis_transform()
    for run, (commit, direction, label) in sorted(changes.items()):
        color = DIRECTION_COLOR[direction]
        ax.axvline(run, color=color, linestyle="--", linewidth=1.3, gid=f"change-{run}")
        ax.text(run - 0.12, 0.98, _mpl_text(label), transform=trans, rotation=90,
                va="top", ha="right", fontsize=8, color=color)


def _label_axes(ax, machine, op, backend, normalised):
    """The commits on the x axis (every k-th past MAX_TICKS runs), the axes' labels, the
    title and the grid."""
    import numpy as np

    runs = machine["runs"]
    nruns = len(runs)
    step = max(1, math.ceil(nruns / MAX_TICKS))
    ax.set_xticks(np.arange(nruns)[::step])
    ax.set_xticklabels([_mpl_text(_short(r["commit"])) for r in runs][::step], rotation=90,
                       fontsize=7, family="monospace")
    ax.set_xlim(-0.5, max(nruns - 0.5, 0.5))
    ax.set_xlabel("run (commit), oldest to newest")
    ax.set_ylabel("time / first-segment median" if normalised else "time")
    ax.set_title(_mpl_text(f"{op} - {backend} (machine {machine['id']})"))
    ax.grid(True, alpha=0.3)


def _legend(ax, lines, any_contended, changes):
    """The legend, right of the chart: the lines, the band, the contended marker (when there is
    one) and each direction of change on the chart."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = lines + [Patch(color="0.5", alpha=0.3, linewidth=0)]
    labels = [line.get_label() for line in lines] + [BAND_TEXT]
    if any_contended:
        handles.append(Line2D([], [], linestyle="none", marker="o", color="0.3",
                              markerfacecolor="white"))
        labels.append(CONTENDED_TEXT)
    for direction in DIRECTIONS:
        if any(d == direction for _, d, _ in changes.values()):
            handles.append(Line2D([], [], linestyle="--", color=DIRECTION_COLOR[direction]))
            labels.append(f"change point: {direction} (commit: points that changed, ratio)")
    ax.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0.0)


def _png(fig):
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()


# -- the page ------------------------------------------------------------------------------------

STYLE = """
body { font-family: "DejaVu Sans", sans-serif; margin: 1.5em; color: #222; max-width: 1400px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .commit { font-family: "DejaVu Sans Mono", monospace; }
.regression { color: #c0392b; font-weight: bold; } .improvement { color: #1e8449; }
.contended, .not-measured { color: #7f6000; }
.alert { background: #fdecea; border: 1px solid #c0392b; padding: 0.5em; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
details summary { cursor: pointer; } pre { white-space: pre-wrap; margin: 0.2em 0; }
"""

# Set on <body> once the page has loaded: how many images it has and how many decoded (the
# browser test reads them from the DOM; a broken data URI leaves naturalWidth 0).
LOAD_SCRIPT = """
window.addEventListener("load", function () {
  var images = document.images, loaded = 0;
  for (var i = 0; i < images.length; i++) {
    if (images[i].complete && images[i].naturalWidth > 0) loaded++;
  }
  document.body.setAttribute("data-images", String(images.length));
  document.body.setAttribute("data-images-loaded", String(loaded));
});
"""


# What an option without a value (null in the fingerprint) means, instead of a blank.
UNSET_TEXT = {"iterations": "by size (comops' default)", "warmup": "by size (comops' default)"}


def _fingerprint_value(value, key=None):
    if isinstance(value, dict):
        if not value:
            return "<em>none</em>"
        items = "".join(f"<li><code>{_e(k)}</code> = {_fingerprint_value(v, k)}</li>"
                        for k, v in sorted(value.items(), key=lambda kv: str(kv[0])))
        return f"<ul>{items}</ul>"
    if isinstance(value, list):
        return _e(", ".join(str(v) for v in value))
    if value is None or value == "":
        return f"<em>{_e(UNSET_TEXT.get(key, 'not set'))}</em>"
    text = str(value)
    flat = " ".join(text.split())
    if len(flat) <= LONG_TEXT and "\n" not in text.strip():
        return _e(flat)
    return (f'<details title="{_e(flat)}"><summary>{_e(flat[:LONG_TEXT - 1])}…</summary>'
            f"<pre>{_e(text)}</pre></details>")


def _fingerprint_html(machine):
    fingerprint = machine.get("fingerprint") or {}
    keys = [k for k in FINGERPRINT_ORDER if k in fingerprint]
    keys += sorted((k for k in fingerprint if k not in FINGERPRINT_ORDER), key=str)
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_fingerprint_value(fingerprint[k])}</td></tr>"
                   for k in keys)
    return f'<table class="fingerprint"><tr><th>id</th><td><code>{_e(machine["id"])}</code>' \
           f"</td></tr>{rows}</table>"


def _changes_html(machine):
    runs = machine["runs"]
    by_run = {}
    for s in sorted(machine["series"], key=series_order):
        for c in s.get("changes", []):
            by_run.setdefault(c["run"], []).append((s, c))
    if not by_run:
        return '<p class="no-changes">No change points in this history.</p>'
    out = ['<table class="changes"><tr><th>commit</th><th>date</th><th>point</th>'
           "<th>direction</th><th>before</th><th>after</th><th>ratio [interval]</th>"
           "<th>p</th></tr>"]
    for run in sorted(by_run, reverse=True):  # newest first
        entries = by_run[run]
        span = f' rowspan="{len(entries)}"' if len(entries) > 1 else ""
        for i, (s, c) in enumerate(entries):
            ci = c.get("ci")
            interval = f" [{fmt_ratio(ci[0])}, {fmt_ratio(ci[1])}]" if ci else ""
            p = "–" if c.get("p_value") is None else f"{c['p_value']:.3g}"
            head = ""
            if i == 0:
                head = (f'<td class="commit"{span}>{_e(c["commit"])}</td>'
                        f'<td{span}>{_e(runs[run].get("date") or "")}</td>')
            unit = _e(s.get("unit", "us"))
            out.append(f'<tr>{head}<td>{_e(point_name(s))}</td>'
                       f'<td class="{c["direction"]}">{c["direction"]}</td>'
                       f'<td class="num">{fmt_value(c.get("before_median"))} {unit}</td>'
                       f'<td class="num">{fmt_value(c.get("after_median"))} {unit}</td>'
                       f'<td class="num">{fmt_ratio(c.get("ratio"))}{interval}</td>'
                       f'<td class="num">{p}</td></tr>')
    out.append("</table>")
    return "".join(out)


def _latest_html(machine):
    nruns = len(machine["runs"])
    out = ['<table class="latest"><tr><th>point</th><th>latest</th><th>stable median</th>'
           "<th>ratio</th><th>stable since</th><th>verdict</th></tr>"]
    for s in sorted(machine["series"], key=series_order):
        unit = _e(s.get("unit", "us"))
        word = verdict(s, nruns)
        since = s.get("stable_since_commit")
        out.append(f"<tr><td>{_e(point_name(s))}</td>"
                   f'<td class="num">{fmt_value(s.get("latest"))} {unit}</td>'
                   f'<td class="num">{fmt_value(s.get("stable_median"))} {unit}</td>'
                   f'<td class="num">{fmt_ratio(stable_ratio(s))}</td>'
                   f'<td class="commit">{_e(since) if since else "–"}</td>'
                   f'<td class="{VERDICT_CLASS[word]}">{word}</td></tr>')
    out.append("</table>")
    return "".join(out)


def _machine_html(m_index, machine):
    runs, series = machine["runs"], machine["series"]
    out = [f'<section class="machine" id="machine-{m_index}">',
           f'<h2>Machine <code>{_e(machine["id"])}</code></h2>', _fingerprint_html(machine)]
    if not runs or not series:
        out.append('<p class="empty">No runs recorded for this machine.</p></section>')
        return "\n".join(out)
    latest = runs[-1]
    verdicts = [verdict(s, len(runs)) for s in series]
    regressions = verdicts.count("regression")
    out.append(f'<p>{len(runs)} runs, from <span class="commit">{_e(runs[0]["commit"])}</span>'
               f' to <span class="commit">{_e(latest["commit"])}</span> '
               f'({_e(latest.get("date") or "no date")}); {len(series)} point{"s" if len(series) > 1 else ""}.</p>')
    if regressions:
        out.append(f'<p class="alert">The latest run (<span class="commit">'
                   f'{_e(latest["commit"])}</span>) starts a regression in {regressions} '
                   f'point{"s" if regressions > 1 else ""}.</p>')
    out += ["<h3>Change points</h3>", _changes_html(machine),
            f'<h3>Latest run (<span class="commit">{_e(latest["commit"])}</span>) against the '
            "last stable segment</h3>", _latest_html(machine),
            "<h3>Charts</h3>",
            "<p>Each line is one point divided by the median of its first stable segment (the "
            "runs before its first change point), so 1.10 is 10 % slower than that; the legend "
            "gives the value of 1. The band runs from the minimum to the maximum over "
            "repetitions; hollow markers are contended values; dashed vertical lines are change "
            "points (red regression, green improvement) labelled with their commit, the "
            "points that changed there and their ratios.</p>"]
    for c_index, ((op, backend), group) in enumerate(chart_groups(machine)):
        png = _png(chart_figure(machine, op, backend, group))
        title = f"{op} - {backend}"
        out.append(f'<figure id="chart-{m_index}-{c_index}"><figcaption>{_e(title)}'
                   f"</figcaption><img alt=\"{_e(title)} over runs\" "
                   f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'
                   "</figure>")
    out.append("</section>")
    return "\n".join(out)


def _ab_html(ab):
    """The latest A/B job's section (scripts/ab_job.sh's ab.json), or where it would go."""
    if ab is None:
        return ('<section class="ab" id="ab"><h2>Latest A/B job</h2><p class="ab-missing">No '
                "A/B result given (track.py report --ab DIR/ab.json, from scripts/ab_job.sh)."
                "</p></section>")
    points = sorted(ab["points"], key=lambda p: (not p["changed"], -(p.get("ratio") or 0)))
    changed = sum(p["changed"] for p in points)
    out = ['<section class="ab" id="ab"><h2>Latest A/B job</h2>',
           f'<p class="ab-verdict">Verdict: <strong>{_e(ab["verdict"])}</strong>. Head '
           f'<span class="commit">{_e(ab["head"])}</span> against base <span class="commit">'
           f'{_e(ab["base"])}</span>, {ab["rounds"]} interleaved rounds, '
           f'{ab["contended_rounds"]} contended rounds left out; {changed} of {len(points)} '
           "points changed.</p>"]
    if points:
        out.append('<table class="ab"><tr><th>point</th><th>base</th><th>head</th>'
                   "<th>ratio [interval]</th><th>verdict</th></tr>")
        for p in points:
            interval = (f" [{fmt_ratio(p['ci_low'])}, {fmt_ratio(p['ci_high'])}]"
                        if p.get("ci_low") is not None and p.get("ci_high") is not None else "")
            word, cls = (("changed", "regression" if (p.get("ratio") or 1) > 1 else
                          "improvement") if p["changed"] else ("not significant",
                                                               "not-significant"))
            out.append(f"<tr><td>{_e(p['point'])}</td>"
                       f'<td class="num">{fmt_value(p.get("before_us"))} us</td>'
                       f'<td class="num">{fmt_value(p.get("after_us"))} us</td>'
                       f'<td class="num">{fmt_ratio(p.get("ratio"))}{interval}</td>'
                       f'<td class="{cls}">{word}</td></tr>')
        out.append("</table>")
    out.append("</section>")
    return "\n".join(out)


def render(data):
    """The page as a string (check_data first)."""
    generated = data.get("generated") or ""
    machines = data["machines"]
    paired = track_report_paired.paired_html(data.get("paired"))
    body = ([_ab_html(data.get("ab"))] + ([paired] if paired else [])
            + [_machine_html(i, m) for i, m in enumerate(machines)])
    if not machines:
        body.append('<p class="empty">No runs recorded.</p>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>comops regression tracking</title>"
            f"<style>{STYLE}</style><script>{LOAD_SCRIPT}</script></head>\n<body>\n"
            "<h1>comops regression tracking</h1>\n"
            f"<p>Generated {_e(generated)} by scripts/track.py report; {len(machines)} machine "
            f"fingerprint{'' if len(machines) == 1 else 's'}.</p>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _refuse_non_regular(path):
    if os.path.lexists(path) and (path.is_symlink() or not path.is_file()):
        raise ReportError(f"{cr.show_path(path)}: exists and is not a regular file; "
                          "not replacing it")


def _write_atomic(path, text):
    """Writes path through a temporary file in its directory and os.replace, so a reader sees
    the old page or the new one, never half of one; refuses to replace anything but a regular
    file."""
    _refuse_non_regular(path)
    fd, tmp = tempfile.mkstemp(prefix=".index.html.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_report(data, out_dir):
    """Writes out_dir/index.html (out_dir created if missing) from track.py's report data and
    returns its path. Raises ReportError (one line) for data that does not keep to the contract,
    an out_dir that is not a directory, an index.html that is not a regular file, a write that
    fails, or missing matplotlib."""
    check_data(data)
    out_dir = pathlib.Path(out_dir)
    if os.path.lexists(out_dir) and not out_dir.is_dir():
        raise ReportError(f"{cr.show_path(out_dir)}: exists and is not a directory")
    _refuse_non_regular(out_dir / "index.html")  # before the minutes of drawing
    if importlib.util.find_spec("matplotlib") is None:
        raise ReportError("matplotlib is missing: run with /usr/bin/python3 "
                          "(apt-get install python3-matplotlib)")
    page = render(data)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "index.html"
        _write_atomic(path, page)
    except OSError as e:
        raise ReportError(f"{cr.show_path(e.filename or out_dir)}: cannot write the report: "
                          f"{e.strerror or e}") from None
    return path


def load_ab(path):
    """The A/B verdict in path (scripts/ab_job.sh's DIR/ab.json), checked against its schema;
    ReportError (one line naming the file) when it cannot be read or does not keep to it."""
    shown = cr.show_path(path)
    try:
        with open(path, encoding="utf-8") as f:
            ab = json.load(f)
    except OSError as e:
        raise ReportError(f"{shown}: {e.strerror or e}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ReportError(f"{shown}: not JSON ({str(e).splitlines()[0]})") from None
    try:
        check_ab(ab, "the file" if not isinstance(ab, dict) else "ab.json")
    except ReportError as e:
        detail = str(e).replace("bad report data: ", "")
        raise ReportError(f"{shown}: not an A/B verdict ({detail})") from None
    return ab


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description="Writes the regression-tracking dashboard DIR/index.html from "
        "the data track.py report builds (saved as JSON), for debugging the page.")
    parser.add_argument("data", metavar="DATA.json")
    parser.add_argument("-o", "--out-dir", required=True, metavar="DIR")
    parser.add_argument("--ab", metavar="AB.json", help="the latest A/B job's verdict "
                        "(scripts/ab_job.sh's DIR/ab.json), shown at the top")
    args = parser.parse_args(argv)
    try:
        with open(args.data, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        print(f"{PROG}: error: {cr.show_path(args.data)}: {e.strerror}", file=sys.stderr)
        return 2
    except (ValueError, UnicodeDecodeError) as e:
        print(f"{PROG}: error: {cr.show_path(args.data)}: not JSON ({str(e).splitlines()[0]})",
              file=sys.stderr)
        return 2
    try:
        if args.ab:
            if not isinstance(data, dict):
                raise ReportError("bad report data: the data is not an object")
            data["ab"] = load_ab(args.ab)
        path = write_report(data, args.out_dir)
    except ReportError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
