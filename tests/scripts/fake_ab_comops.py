#!/usr/bin/python3
"""A small, fast stand-in for comops in the A/B gate's tests: writes a results file (--json FILE)
of three points whose times are known up to a little deterministic noise, with placement probes
in two modes, as a VM's runs have them (results/ab/README.md).

Each run draws its placement from a seed made of the output file's name: the fast mode (probes
about 0.06 us) in 70 % of runs, the slow one (0.44 us, every time 30 % longer) in the rest; noise
of 1 % on every time. COMOPS_TEST_SLOWDOWN=BACKEND:OP:BYTES:FRACTION slows that point as a test
build of comops does. FAKE_AB_PLACEMENT=mixed puts every probe after a point in the other mode
(no pair is usable); =none writes rows without a probe (a build before the probe existed)."""

import json
import os
import random
import sys
import zlib

POINTS = (("mpi", "pingpong", 8, 3.0), ("mpi", "broadcast", 65536, 9.0),
          ("shm-direct", "reduce-max", 65536, 6.0))
MODES = ((0.06, 1.0), (0.44, 1.3))  # probe us, factor on the times


def slowdown():
    text = os.environ.get("COMOPS_TEST_SLOWDOWN", "")
    if not text:
        return None
    backend, op, nbytes, fraction = text.split(":")
    return backend, op, int(nbytes), float(fraction)


def row(rng, backend, op, nbytes, us, mode, placement, slowed):
    factor = MODES[mode][1] * (1 + slowed[3] if slowed and slowed[:3] == (backend, op, nbytes)
                               else 1)
    reps = [us * factor * rng.gauss(1, 0.01) for _ in range(5)]
    ordered = sorted(reps)
    probe = MODES[mode][0]
    after = MODES[1 - mode][0] if placement == "mixed" else probe
    out = {"backend": backend, "op": op, "np": 2, "bytes": nbytes, "iterations": 100,
           "repetitions": 5, "time_us": {"min": ordered[0], "avg": ordered[2], "max": ordered[2]},
           "time_us_reps": {"median": ordered[2], "min": ordered[0], "max": ordered[-1]},
           "rep_times_us": reps, "wrong": 0, "contended": False, "tables": ["size"]}
    if placement != "none":
        out["placement"] = {"before_us": probe * rng.gauss(1, 0.02),
                            "after_us": after * rng.gauss(1, 0.02), "cores": [0, 1]}
    return out


def main(argv):
    path = argv[argv.index("--json") + 1]
    rng = random.Random(zlib.crc32(os.path.basename(path).encode()))
    mode = 0 if rng.random() < 0.7 else 1
    placement = os.environ.get("FAKE_AB_PLACEMENT", "modes")
    rows = [row(rng, b, o, n, us, mode, placement, slowdown()) for b, o, n, us in POINTS]
    doc = {"comops_format": 1, "context": {"host": "fake", "git_sha": "fake"}, "results": rows}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
