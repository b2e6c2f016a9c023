#!/usr/bin/env python3
"""Seeded random command lines for the real comops binary, valid and invalid mixed.

Every run must end by itself within a generous bound with exit 0, 1, 2 or 3 -- never a signal,
never a hang -- and a usage error (exit 2) must be exactly one 'comops: error:' line on stderr.
Usage: fuzz_cli.py COMOPS [--runs N] [--seed S]; a failure prints the command line to rerun.
"""
import argparse
import os
import random
import shlex
import subprocess
import sys
import tempfile

HANG_BOUND_S = 120  # a hang test only: a run here ends within seconds

# Each option with values a user might give: most valid, some wrong.
CHOICES = {
    "--backend": ["mpi", "shm", "swcc", "all", "mpi,shm", "shm,swcc", "nope", "", "mpi,,shm",
                  "shmp", "shm,shmp"],
    "--op": ["pingpong", "broadcast", "reduce", "reduce-sum", "gather", "scatter", "barrier",
             "all", "pingpong,barrier", "bogus", "",
             "pingpong-nb", "stream-bw", "stream-bw,pingpong"],
    "--reduce-op": ["max", "sum", "max,sum", "min", ""],
    "--np": ["1", "2", "3", "2,4", "4", "0", "-1", "two", "", "100000", "2,,3"],
    "--size-np": ["1", "2", "3", "0", "-2", "x"],
    "--sizes": ["8", "64,1K", "8,64K", "1M", "12", "abc", "", "-8", "8Q", "64G"],
    "-b": ["8", "64", "1K", "7", "-1"],
    "-e": ["64", "1K", "64K", "4"],
    "-f": ["2", "4", "1", "0", "-3"],
    "--np-bytes": ["8", "64", "1K", "12", "x", ""],
    "--seed": ["0", "1", "42", "-1", "18446744073709551615", "1e3", "x"],
    "--sync": ["none", "barrier", "always", ""],
    "--bind": ["compact", "spread", "none", "diagonal", ""],
    "--placement": ["packed", "spread", "scatter"],
    "--pair": ["intra", "inter", "both", "auto", "sideways"],
    "--progress": ["never", "always", "lines", "auto", "sometimes"],
    "--scheme": ["staged", "direct", "staged,direct", "zero", ""],
    "--shmp-scheme": ["staged", "direct", "zero", ""],
    "--shmp-window-max": ["64K", "4G", "1K", "x", ""],
    "--block-size": ["8", "64", "4096", "3", "64,256", ""],
    "--mpi-variant": ["sysv:UCX_TLS=self,sysv", ":X=1", "a:X", "a:X=1;a:Y=2", "a:1=2", ""],
    "-n": ["1", "2", "0", "-1", "x"],
    "-w": ["0", "1", "-2"],
    "-r": ["1", "2", "0", "x"],
    "-m": ["8:1K", "64", "1K:", ":16", ":", "8:x", "8:16:32", ""],  # OSU aliases
    "-i": ["2", "0", "x"],
    "-x": ["0", "1", "-1"],
    "--window": ["1", "3", "64", "0", "-2", "x", "", "2000000"],
}
FLAGS = ["--uncached", "--no-limits", "--frobnicate", "--version", "--help", "--force",
         "--percentiles"]


def command(rng, work):
    """One random command line (a list of words)."""
    words = []
    picked = rng.sample(sorted(CHOICES), rng.randint(0, 7))
    for option in picked:
        value = rng.choice(CHOICES[option])
        words += [f"{option}={value}"] if option.startswith("--") and rng.random() < 0.5 \
            else [option, value]
    # Keep valid runs short unless the draw chose its own counts.
    for option, alias, value in (("-n", "-i", "2"), ("-w", "-x", "1"), ("-r", None, "1")):
        if option not in picked and alias not in picked:
            words += [option, value]
    if "--no-limits" not in words and rng.random() < 0.8:
        words.append("--no-limits")
    if not {"--sizes", "-b", "-e", "-m"} & set(picked):
        words += ["--sizes", "8,1K"]
    if rng.random() < 0.1:
        words.append(rng.choice(FLAGS))
    outputs = {"--json": [f"{work}/r.json", "/dev/full", "/nonexistent/x.json", work, ""],
               "--csv": [f"{work}/r.csv", "/dev/full", "/dev/stdout"],
               "--gbench-json": [f"{work}/g.json", "/dev/null"],
               "-o": [f"{work}/out", "/dev/full/x"]}
    for option, values in outputs.items():
        if rng.random() < 0.15:
            words += [option, rng.choice(values)]
    return words


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("comops")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures, codes = [], {}
    with tempfile.TemporaryDirectory(prefix="comops-fuzz-") as work:
        for i in range(args.runs):
            words = [args.comops] + command(rng, work)
            line = shlex.join(words)
            try:
                p = subprocess.run(words, stdin=subprocess.DEVNULL, capture_output=True,
                                   timeout=HANG_BOUND_S, text=True, errors="replace",
                                   start_new_session=True)
            except subprocess.TimeoutExpired:
                failures.append(f"run {i}: no end within {HANG_BOUND_S} s: {line}")
                continue
            codes[p.returncode] = codes.get(p.returncode, 0) + 1
            if p.returncode not in (0, 1, 2, 3):
                failures.append(f"run {i}: exit {p.returncode}: {line}\n{p.stderr[-2000:]}")
            elif p.returncode == 2:
                err = p.stderr.splitlines()
                if len(err) != 1 or not err[0].startswith("comops: error: "):
                    failures.append(f"run {i}: usage error is not one line: {line}\n{p.stderr}")
    print("exit codes:", ", ".join(f"{c}: {n}" for c, n in sorted(codes.items())))
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
