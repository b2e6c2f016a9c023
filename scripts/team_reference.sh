#!/usr/bin/env bash
# Threads against processes, and hybrid against flat MPI (results/teams/): issue 27's reference.
#
#   one-node/   every op at np = 2 on mpi, shm (OpenMP threads) and shmp (MPI processes sharing
#               MPI-3 windows), both schemes, in one run: the same op code on two teams beside
#               MPI and the machine's limits; the figures (plot.py) and ratios.md (team_ratios.py:
#               the 8-byte ping-pong against the cache-line round trip, every op's process time
#               over its thread time from 64K)
#   sim-hosts/  the collectives at np = 4 on 2 simulated hosts x 2 ranks (one core each, so
#               flagged O) on mpi (flat, every rank in the MPI collective) and hybrid (shared
#               memory in each host, MPI between the two leaders): no-delay/ and delay-25us/
#               (25 us added one way on each host's link); needs root (scripts/sim_cluster.sh)
#
# Usage: scripts/team_reference.sh [OUT_DIR]   (default results/teams; SKIP_SIM=1 skips sim-hosts)
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
out=${1:-results/teams}
py=/usr/bin/python3
mkdir -p "$out"

one_node=(--backend=mpi,shm,shmp --op=all --np=2 --sizes=8,64,1K,8K,64K,256K,1M,4M -r 5
          --progress=never --force)
build/comops "${one_node[@]}" -o "$out/one-node"
"$py" scripts/plot.py "$out/one-node/results.json" -o "$out/one-node"
"$py" scripts/team_ratios.py "$out/one-node/results.json" --out "$out/one-node/ratios.md"

[[ ${SKIP_SIM:-0} == 1 ]] && exit 0
sim=(--backend=mpi,hybrid --op=broadcast,reduce-max,allreduce-max,gather,scatter,barrier
     --np=4 --sizes=8,1K,64K,1M --np-bytes=64K -r 5 --progress=never --force)
for delay in 0 25; do
  sub=$([[ $delay == 0 ]] && echo no-delay || echo "delay-${delay}us")
  scripts/sim_cluster.sh --hosts 2 --ranks-per-host 2 --cpus-per-host 1 --delay-us "$delay" -- \
    bash -c 'build/comops --mpiexec "$SIM_MPIEXEC" "${@:2}" -o "$1"' _ "$out/sim-hosts/$sub" \
    "${sim[@]}"
  "$py" scripts/plot.py "$out/sim-hosts/$sub/results.json" -o "$out/sim-hosts/$sub"
done
