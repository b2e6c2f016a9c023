"""Synthetic histories for the tracking tests: one point's runs with this machine's noise.

Each run's repetition times are log-normal around the run's level, which itself wanders from run
to run (a shared VM lands on busier or quieter hosts); a share of runs is contended, as comops'
PSI field records it (row "contended": true, a large "cpu_stall_us"): their times are inflated by
a random factor. The defaults come from this machine (a 2-core shared KVM guest): within a run the
repetitions of an 8-byte MPI ping-pong spread about 4 % (results/reference/results.json), medians
of repeated short runs about 3 % (docs: scripts/README.md, track.py section), and 11 % of the
reference run's rows are contended (85 of 777).
"""

import numpy as np

SIGMA_REP = 0.04       # log-sd of repetitions within a run
SIGMA_RUN = 0.02       # log-sd of a run's level
CONTENDED_SHARE = 0.11
CONTENDED_FACTOR = (1.2, 2.5)  # a contended run is this many times slower (uniform)


def series(rng, n_runs=30, base=1.0, step_at=None, step=1.10, reps=5, sigma_rep=SIGMA_REP,
           sigma_run=SIGMA_RUN, contended_share=CONTENDED_SHARE):
    """n_runs runs as dicts {"reps", "median", "contended", "cpu_stall_us"}; from run index
    step_at on (None: never) the level is multiplied by step."""
    runs = []
    for i in range(n_runs):
        level = base * (step if step_at is not None and i >= step_at else 1.0)
        level *= float(np.exp(rng.normal(0.0, sigma_run)))
        times = level * np.exp(rng.normal(0.0, sigma_rep, reps))
        contended = bool(rng.random() < contended_share)
        if contended:
            times = times * rng.uniform(*CONTENDED_FACTOR)
        runs.append({"reps": [float(t) for t in times], "median": float(np.median(times)),
                     "contended": contended,
                     "cpu_stall_us": float(rng.uniform(2e4, 2e5) if contended else
                                           rng.uniform(0, 2e3))})
    return runs
