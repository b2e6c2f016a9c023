#!/usr/bin/env bash
# The reference run on simulated hosts (results/cluster-sim/): 2 hosts, 25 us added one-way delay,
# intra- versus inter-node ping-pong for mpi and swcc (64, 4096, uncached) and broadcast and
# reduce at np = 4 across the hosts, then the figures. Needs root (scripts/sim_cluster.sh).
#
# Three runs, because the simulated hosts share this machine's cores: the intra-node pair on one
# host of two ranks; the inter-node pair on two hosts of one rank and one core each
# (--cpus-per-host 1, so that the two ranks do not share a core); broadcast and reduce at np = 4 on
# two hosts of two ranks and one core each, which comops flags O (oversubscribed), as it is.
# Usage: scripts/cluster_reference.sh [OUT_DIR]   (default results/cluster-sim)
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
out=${1:-results/cluster-sim}
delay=${DELAY_US:-25}
mkdir -p "$out"
common=(--backend=mpi,swcc --block-size=64,4096 --uncached --sizes=8,64,512,4K,32K,256K,1M
        --np-bytes=256K -r 5 --progress=never --force)  # --force: replace the reference run
run() {  # OUT_SUBDIR SIM_CLUSTER_OPTIONS... -- COMOPS_OPTIONS...
  local sub=$1
  shift
  local sim_opts=()
  while [[ $1 != -- ]]; do sim_opts+=("$1"); shift; done
  shift
  scripts/sim_cluster.sh "${sim_opts[@]}" --delay-us "$delay" -- bash -c '
    build/comops --mpiexec "$SIM_MPIEXEC" "${@:2}" -o "$1"' _ "$out/$sub" "${common[@]}" "$@"
}
run intra --hosts 1 --ranks-per-host 2 -- --np 2 --op=pingpong --pair=intra
run inter --hosts 2 --ranks-per-host 1 --cpus-per-host 1 -- --np 2 --op=pingpong --pair=inter
run collectives --hosts 2 --ranks-per-host 2 --cpus-per-host 1 -- --np 4 --op=broadcast,reduce
/usr/bin/python3 scripts/plot.py "$out"/{intra,inter}/results.json --np 2 -o "$out"
/usr/bin/python3 scripts/plot.py "$out"/collectives/results.json -o "$out"
