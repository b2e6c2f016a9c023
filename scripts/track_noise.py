#!/usr/bin/python3
"""The noise model of a tracked history, fitted to its runs (results/history/ by default):

  track_noise.py [DIR|RUN.json ...] [--json]

Per point (machine fingerprint, backend, op, np, bytes, pair) with 4 quiet runs or more, over
its quiet runs (row "contended" false), in log
time, so every figure is a relative spread (0.10 = about 10 %):
- sigma_rep: the spread of the repetitions within a run (their log-sd), median over point-runs;
- sd_run: the plain log-sd of the point's run medians (the issue's figure: real steps count in
  it too), median over points (sd_run_points: each point's, which track_sim.py draws from);
- sigma_run: the run-to-run spread of the medians, robust to steps and outliers: the median
  absolute deviation of consecutive differences, times 1.4826 / sqrt(2) (a normal series'
  sigma); median over points, with its range;
- shared: the part of the run-to-run variance the points of one run share (a busy host slows
  them all): the variance of each run's median deviation over its points, over sigma_run^2;
- contended_share and contended_factor: how often a point-run is contended and how much slower
  its median is than the point's quiet median (10th and 90th percentiles).
track_sim.py simulates histories with this model. Exit status: 0; 2 bad usage or a file that is
not a comops results file (one line on stderr).
"""

import argparse
import glob
import json
import math
import os
import sys

import numpy as np

import comops_results as cr
import track_ingest

PROG = "track_noise.py"
DEFAULT_HISTORY = os.path.join("results", "history")
NORMAL_MAD = 1.4826  # sigma of a normal sample over its median absolute deviation
MIN_QUIET = 4        # quiet runs a series needs to be fitted


def load_series(paths):
    """{(machine, point): [(median, reps, contended), ...]} in the files' order (sorted by name
    within a directory: the history's names start with the date). Series never mix machine
    fingerprints, as in track.py (this project's CI landed on two CPU types)."""
    files = []
    for path in paths:
        files += sorted(glob.glob(os.path.join(glob.escape(path), "*.json"))) \
            if os.path.isdir(path) else [path]
    series = {}
    for path in files:
        run = track_ingest.from_comops(path)
        for p in run["points"]:
            key = (run["machine"], p["backend"], p["op"], p["np"], p["bytes"], p["pair"])
            series.setdefault(key, []).append((p["median"], p["reps"], bool(p["contended"])))
    return series, len(files)


def robust_sigma(logs):
    """sigma of a series from its consecutive differences (median absolute deviation)."""
    d = np.diff(logs)
    return float(NORMAL_MAD * np.median(np.abs(d - np.median(d))) / math.sqrt(2))


def _shared_share(series, sigma_run):
    """Share of the run-to-run variance common to the points of a run."""
    deviations = {}
    for key, runs in series.items():
        quiet = [math.log(m) for m, _, c in runs if not c]
        centre = float(np.median(quiet)) if quiet else 0.0
        for i, (m, _, c) in enumerate(runs):
            if not c:
                deviations.setdefault((key[0], i), []).append(math.log(m) - centre)
    effects = [float(np.median(v)) for v in deviations.values() if len(v) > 1]
    if len(effects) < 3 or sigma_run <= 0:
        return 0.0
    return min(1.0, float(np.var(effects, ddof=1)) / sigma_run ** 2)


def fit(series, nruns):
    """The model's figures (see the module's text) as a dict, over the series with MIN_QUIET
    quiet runs or more."""
    npoints, machines = len(series), len({k[0] for k in series})
    rep_sd, sd_run, sigma_run, factors = [], [], [], []
    contended = total = 0
    fitted = {k: runs for k, runs in series.items()
              if sum(not c for _, _, c in runs) >= MIN_QUIET}
    if not fitted:
        raise ValueError(f"no point has {MIN_QUIET} quiet runs: too short a history to fit")
    for runs in fitted.values():
        quiet = [m for m, _, c in runs if not c]
        total += len(runs)
        contended += len(runs) - len(quiet)
        rep_sd += [float(np.std(np.log(r), ddof=1)) for m, r, c in runs if not c and len(r) > 2]
        sd_run.append(float(np.std(np.log(quiet), ddof=1)))
        sigma_run.append(robust_sigma(np.log(quiet)))
        factors += [m / float(np.median(quiet)) for m, _, c in runs if c]
    sigma = float(np.median(sigma_run))
    series = fitted
    return {"runs": nruns, "points": npoints, "points_fitted": len(sigma_run),
            "machines": machines, "machines_fitted": len({k[0] for k in fitted}),
            "sigma_rep": float(np.median(rep_sd)),
            "sd_run": float(np.median(sd_run)), "sd_run_points": sorted(sd_run),
            "sd_run_range": [float(min(sd_run)), float(max(sd_run))],
            "sigma_run": sigma, "sigma_run_range": [float(min(sigma_run)), float(max(sigma_run))],
            "shared": _shared_share(series, sigma), "contended_share": contended / total,
            "contended_factor": ([float(x) for x in np.quantile(factors, [0.1, 0.9])]
                                 if len(factors) >= 5 else [1.2, 2.5])}


def describe(model):
    return (f"{model['runs']} runs on {model['machines']} machine(s), {model['points_fitted']} "
            f"of {model['points']} series (on {model['machines_fitted']} machine(s)) with "
            f"{MIN_QUIET} quiet runs or more: repetitions within a run "
            f"{model['sigma_rep']:.3f}; run medians: plain log-sd {model['sd_run']:.3f} "
            f"(range {model['sd_run_range'][0]:.3f}-{model['sd_run_range'][1]:.3f}), robust "
            f"sigma_run {model['sigma_run']:.3f} (range {model['sigma_run_range'][0]:.3f}-"
            f"{model['sigma_run_range'][1]:.3f}), {model['shared']:.0%} of it shared by the "
            f"points of a run; contended {model['contended_share']:.1%} of point-runs, "
            f"{model['contended_factor'][0]:.2f}-{model['contended_factor'][1]:.2f}x slower")


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", metavar="DIR|RUN.json", default=[DEFAULT_HISTORY])
    parser.add_argument("--json", action="store_true", help="print the model as JSON")
    args = parser.parse_args(argv)
    try:
        model = fit(*load_series(args.paths))
    except (track_ingest.IngestError, cr.ResultsError, ValueError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(model, indent=1) if args.json else describe(model))
    return 0


if __name__ == "__main__":
    sys.exit(main())
