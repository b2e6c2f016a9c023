#!/usr/bin/env bash
# Holds comops' mpi numbers against the bare MPI loops (bench/bare_mpi_loop.cpp), run on the same
# machine in the same session with the same iterations: ping-pong at 8 B and 1 MiB, broadcast and
# reduce-max at 800 KiB, np = 2, both bound one rank per core. Prints both and the ratio
# comops / bare (1.00 = no overhead).
# Usage: bench/harness_overhead.sh [BUILD_DIR]   (default build)
set -euo pipefail
build=${1:-build}
comops=$build/comops
bare=$build/bench/bare_mpi_loop
[[ -x $comops && -x $bare ]] || { echo "harness_overhead.sh: build $comops and $bare first" >&2; exit 2; }
reps=${REPS:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_point() {  # op-for-comops op-for-bare bytes iters
  local cop=$1 bop=$2 bytes=$3 iters=$4 warm=$(( $4 / 10 > 2 ? $4 / 10 : 2 ))
  "$comops" --backend=mpi --np=2 --op="$cop" --sizes="$bytes" --np-bytes="$bytes" -n "$iters" \
    -w "$warm" -r "$reps" --no-limits --json "$tmp/c.json" >/dev/null
  local c b
  c=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["time_us"]["max"])' "$tmp/c.json")
  b=$(mpiexec -bind-to core -n 2 "$bare" "$bop" "$bytes" "$iters" "$warm" "$reps" | awk '{print $4}')
  printf '%-10s %8s B  comops %10.3f us  bare %10.3f us  ratio %.3f\n' "$cop" "$bytes" "$c" "$b" \
    "$(awk -v c="$c" -v b="$b" 'BEGIN { print c / b }')"
}
run_point pingpong pingpong 8 10000
run_point pingpong pingpong 1048576 64
run_point broadcast bcast 819200 81
run_point reduce-max reduce 819200 81
