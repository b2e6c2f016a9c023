#!/usr/bin/env bash
# Holds comops' mpi numbers against the bare MPI loops (bench/bare_mpi_loop.cpp), run on the same
# machine in the same session with the same iterations: ping-pong at 8 B and 1 MiB, broadcast and
# reduce-max at 800 KiB, np = 2, both bound one rank per core. Prints both and the ratio
# comops / bare (1.00 = no overhead).
# Usage: bench/harness_overhead.sh [BUILD_DIR]   (default build)
# Across nodes: PAIR=inter LAUNCH="mpiexec -f HOSTS ..." bench/harness_overhead.sh, where HOSTS
# gives one slot per host so that ranks 0 and 1 of the bare loop sit on two hosts; comops gets the
# same launcher (--mpiexec) and --pair=inter. Inside scripts/sim_cluster.sh:
#   PAIR=inter LAUNCH="$SIM_MPIEXEC_1" bench/harness_overhead.sh
set -euo pipefail
build=${1:-build}
comops=$build/comops
bare=$build/bench/bare_mpi_loop
[[ -x $comops && -x $bare ]] || { echo "harness_overhead.sh: build $comops and $bare first" >&2; exit 2; }
reps=${REPS:-11}
launch=${LAUNCH:-mpiexec -bind-to core}
pair=${PAIR:-intra}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_point() {  # op-for-comops op-for-bare bytes iters
  local cop=$1 bop=$2 bytes=$3 iters=$4 warm=$(( $4 / 10 > 2 ? $4 / 10 : 2 ))
  local pair_opt=()
  [[ $cop == pingpong ]] && pair_opt=(--pair="$pair")
  "$comops" --mpiexec "$launch" --backend=mpi --np=2 --op="$cop" --sizes="$bytes" \
    --np-bytes="$bytes" -n "$iters" -w "$warm" -r "$reps" --no-limits "${pair_opt[@]}" \
    --progress=never --json "$tmp/c.json" >/dev/null
  local c b
  c=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["time_us"]["max"])' "$tmp/c.json")
  # shellcheck disable=SC2086  # the launcher command is words
  b=$($launch -n 2 "$bare" "$bop" "$bytes" "$iters" "$warm" "$reps" | awk '{print $4}')
  printf '%-10s %8s B  comops %10.3f us  bare %10.3f us  ratio %.3f\n' "$cop" "$bytes" "$c" "$b" \
    "$(awk -v c="$c" -v b="$b" 'BEGIN { print c / b }')"
}
echo "launcher: $launch; ping-pong pair: $pair"
run_point pingpong pingpong 8 10000
run_point pingpong pingpong 1048576 64
if [[ $pair == intra ]]; then
  run_point broadcast bcast 819200 81
  run_point reduce-max reduce 819200 81
fi
