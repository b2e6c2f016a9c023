#!/usr/bin/env bash
# The measurement behind results/ab/README.md: ROUNDS interleaved rounds of the CI sweep with one
# test build (-DCOMOPS_TEST_SLOWDOWN=ON), three runs a round: a and b plain, s with
# COMOPS_TEST_SLOWDOWN=$SLOWDOWN; the order of the three turns through all six orders. Pairs
# (a, b) are A/B jobs with no change (the same binary), pairs (a, s) jobs with one point slowed.
#   results/ab/measure.sh BUILD_DIR ROUNDS RAW_DIR [FIRST]
# (FIRST: the first round's number, to go on after an interruption; BUILD_DIR's comops is best a
# copy that no build relinks while this runs). KINDS="a b" measures the plain runs only, two a
# round in turned orders (more no-change jobs in the same time).
# RAW_DIR gets run-NNN-{a,b,s}.json and load.txt (round, run, start time, /proc/loadavg);
# scripts/ab_power.py compact turns them into results/ab/rounds.json.
set -euo pipefail
build=$1 rounds=$2 raw=$3 first=${4:-1}
slowdown=${SLOWDOWN:-mpi:pingpong:8:0.05}
sweep=(--backend=mpi,shm --op=pingpong,broadcast,reduce --sizes=8,64K --np-bytes=64K -r 5)
if [[ ${KINDS:-a b s} == "a b" ]]; then
  orders=("a b" "b a")
else
  orders=("a b s" "b s a" "s a b" "a s b" "s b a" "b a s")
fi
mkdir -p "$raw"
for ((k = first; k <= rounds; k++)); do
  for run in ${orders[$(((k - 1) % ${#orders[@]}))]}; do
    file=$(printf '%s/run-%03d-%s.json' "$raw" "$k" "$run")
    echo "$k $run $(date +%s.%N) $(cat /proc/loadavg)" >>"$raw/load.txt"
    envs=()
    [[ $run == s ]] && envs=("COMOPS_TEST_SLOWDOWN=$slowdown")
    env "${envs[@]}" "$build/comops" "${sweep[@]}" --progress=never --json "$file" \
      >/dev/null 2>>"$raw/stderr.log"
  done
done
