"""The EM3D figure of plot.py, from the rows of `comops --app=em3d` (row "app": nodes, degree,
remote, iters, split):
  em3d-vs-remote-npNP   time of one run versus the remote-edge percentage, one line per backend
                        label, and below it each label's speedup over swcc-sc at the same point
Rows are grouped by their other parameters (np, nodes, degree, iters, split); a figure needs at
least two remote percentages. When two groups share np, the file names carry the other
parameters too (em3d-vs-remote-np4-nodes1000-degree10-iters10-split1). The figures versus the
block size are plot.py's application figures (one per point's parameters).
"""

import comops_results as cr

APP = "em3d"
SC = "swcc-sc"
PARAMS = ("nodes", "degree", "remote", "iters", "split")


def em3d_rows(rows):
    """The rows of em3d points with all their parameters and a headline time."""
    return [r for r in rows if r.get("op") == APP and isinstance(r.get("app"), dict)
            and all(isinstance(r["app"].get(p), int) for p in PARAMS) and cr.headline_us(r)]


def _groups(rows, varied):
    """{(np, other parameters...): rows}, the parameter `varied` left out of the key."""
    groups = {}
    for r in rows:
        k = (r["np"],) + tuple((p, r["app"][p]) for p in PARAMS if p != varied)
        groups.setdefault(k, []).append(r)
    return groups


def _suffix(group):
    """"-nodes1000-degree10-iters10-split0": a group's parameters but np and remote."""
    return "".join(f"-{p}{v}" for p, v in group[1:] if p != "remote")


def _params_text(group):
    return ", ".join(f"{p} {v}" for p, v in group[1:])


def speedups(rows, x_of):
    """{(backend, x): swcc-sc time / backend time} for the rows that have a swcc-sc row at the
    same x (and the same other parameters: the caller groups them)."""
    sc = {x_of(r): cr.headline_us(r) for r in rows if cr.key(r)[0] == SC}
    return {(cr.key(r)[0], x_of(r)): sc[x_of(r)] / cr.headline_us(r)
            for r in rows if x_of(r) in sc}


def _figure(figs, title, rows, x_of, xlabel, where):
    """Time (top) and speedup over swcc-sc (bottom) versus x, one line per backend label."""
    fig = figs.Figure(figsize=(10, 8))
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.set_title(f"{title} - {figs.results.context.get('host', 'unknown host')}")
    drawn = figs.series(top, rows, x_of, lambda r: cr.headline_us(r) / 1000.0,
                        lambda r: tuple(v / 1000.0 for v in cr.spread_us(r))
                        if cr.spread_us(r) else None, where)
    top.set_ylabel("time per run, slowest participant (ms)")
    times = [cr.headline_us(r) for r in rows]
    if max(times) / min(times) > 30:
        top.set_yscale("log")
    else:
        top.set_ylim(bottom=0)
    figs.finish(fig, top, drawn, "")
    up = speedups(rows, x_of)
    by_backend = {}
    for (backend, x), s in up.items():
        by_backend.setdefault(backend, []).append((x, s))
    for backend in sorted(by_backend, key=cr.backend_order):
        pts = sorted(by_backend[backend])
        line, marker = figs.style(backend)
        bottom.plot([x for x, _ in pts], [s for _, s in pts], linestyle=line, marker=marker,
                    color=figs.color[backend], label=backend, markersize=5)
    bottom.axhline(1.0, color="black", linewidth=0.8)
    bottom.set_ylabel(f"speedup over {SC} (x)")
    bottom.set_xlabel(xlabel)
    if up:
        values = list(up.values())
        if max(values) / min(values) > 30:
            bottom.set_yscale("log")
    bottom.grid(True, which="major", alpha=0.3)
    return fig


def figures(figs, rows, note):
    """Yields (name, Figure) for every EM3D figure the rows allow; figs: plot.Figures."""
    rows = em3d_rows(rows)
    if not rows:
        return
    by_remote = {k: g for k, g in _groups(rows, "remote").items()
                 if len({r["app"]["remote"] for r in g}) > 1}
    for k in sorted(by_remote):
        g = by_remote[k]
        fig = _figure(figs, f"EM3D versus remote edges (np {k[0]}, {_params_text(k)})", g,
                      lambda r: r["app"]["remote"], "remote edges (% of each node's in-edges)",
                      lambda r: f"remote {r['app']['remote']} %")
        several = len({g[0] for g in by_remote}) < len(by_remote)  # two groups at one np
        yield f"em3d-vs-remote-np{k[0]}" + (_suffix(k) if several else ""), fig
    if not by_remote:
        note("em3d: fewer than 2 remote-edge percentages: skipping em3d-vs-remote")
