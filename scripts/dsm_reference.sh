#!/usr/bin/env bash
# The DSM papers' experiments on one host and on simulated hosts (results/dsm-papers/): the
# latency-by-state matrix (SWCC-Split-C Figs 6-7, bench/swcc_state_latency), EM3D four ways
# (comops --app=em3d) and SCI-VM's overhead against local memory (bench/scivm_overhead), each once
# on this machine and once on simulated hosts with 25 us added one-way delay (the papers'
# network-of-workstations regime), then the figures (scripts/dsm_figures.py, scripts/plot.py).
# Needs root for the simulated hosts (scripts/sim_cluster.sh); run it on an idle machine.
#
# Placement, because the hosts share this machine's cores:
#   one-host/latency-np2   2 ranks, a core each: every two-party case
#   one-host/latency-np3   3 ranks on the cores there are (oversubscribed on 2 cores, flagged in
#                          its README): the three-party cases need the third rank
#   sim-hosts/latency-np2  2 hosts of one rank and one core each (--cpus-per-host 1)
#   sim-hosts/latency-np3  3 hosts of one rank and one core each (host 3 shares a core with host 1
#                          on a 2-core machine)
#   */em3d, */scivm        np 2, a core per rank (on sim-hosts: 2 hosts of one rank and one core)
#
# Usage: scripts/dsm_reference.sh [OUT_DIR]   (default results/dsm-papers; replaced run by run)
# Environment: DELAY_US (25), BUILD (build), REPS (3), PARTS ("one-host sim-hosts"),
#              EXPERIMENTS ("latency em3d scivm": which to run; the figures use whatever is there),
#              EM3D_OPTIONS ("--block-size=8,64,4096 --em3d-remote=0,10,50"), SCIVM_OPTIONS ("--sum-n=65536 --matmul-n=64"),
#              LATENCY_OPTIONS (""): each program's parameters (a smaller run for a test, say).
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
prog=dsm_reference.sh
out=${1:-results/dsm-papers}
delay=${DELAY_US:-25}
build=${BUILD:-build}
reps=${REPS:-3}
parts=${PARTS:-one-host sim-hosts}
experiments=${EXPERIMENTS:-latency em3d scivm}
read -r -a em3d_extra <<<"${EM3D_OPTIONS---block-size=8,64,4096 --em3d-remote=0,10,50}"
read -r -a scivm_extra <<<"${SCIVM_OPTIONS---sum-n=65536 --matmul-n=64}"
read -r -a latency_extra <<<"${LATENCY_OPTIONS:-}"

for b in comops bench/swcc_state_latency bench/scivm_overhead; do
  [[ -x $build/$b ]] || { echo "$prog: $build/$b is missing (build with scripts/setup.sh)" >&2; exit 2; }
done
for p in $parts; do
  [[ $p == one-host || $p == sim-hosts ]] || { echo "$prog: unknown part '$p' in PARTS" >&2; exit 2; }
done
for x in $experiments; do
  [[ $x == latency || $x == em3d || $x == scivm ]] ||
    { echo "$prog: unknown experiment '$x' in EXPERIMENTS" >&2; exit 2; }
done
want() { [[ " $experiments " == *" $1 "* ]]; }
if [[ -e $out && ! -d $out ]]; then
  echo "$prog: $out exists and is not a directory" >&2
  exit 2
fi

latency=("$build/bench/swcc_state_latency" --benchmark_repetitions="$reps"
         "${latency_extra[@]}")
em3d=("$build/comops" --app=em3d --backend=mpi,shm,swcc --uncached
      --np=2 -r "$reps" --no-limits --progress=never --force
      "${em3d_extra[@]}")
scivm=("$build/bench/scivm_overhead" --reps="$reps"
       "${scivm_extra[@]}")

# Runs one latency matrix: LAUNCH... NP DIR (LAUNCH: the mpiexec prefix).
run_latency() {
  local dir=${*: -1} np=${*: -2:1}
  local launch=("${@:1:$#-2}")
  mkdir -p "$dir"
  "${launch[@]}" -n "$np" "${latency[@]}" --benchmark_out="$dir/gbench.json" \
    --benchmark_out_format=json --ratios_out="$dir/ratios.json" >"$dir/table.txt"
}

if [[ " $parts " == *" one-host "* ]]; then
  o=$out/one-host
  mkdir -p "$o"
  if want latency; then
    run_latency mpiexec 2 "$o/latency-np2"
    run_latency mpiexec 3 "$o/latency-np3"
  fi
  if want em3d; then "${em3d[@]}" -o "$o/em3d"; fi
  if want scivm; then mpiexec -n 2 "${scivm[@]}" --json="$o/scivm.json" >"$o/scivm.txt"; fi
fi

if [[ " $parts " == *" sim-hosts "* ]]; then
  o=$out/sim-hosts
  mkdir -p "$o"
  # shellcheck disable=SC2016  # expanded by the inner bash, inside the simulated cluster
  sim() {  # HOSTS -- COMMAND...: COMMAND on HOSTS hosts of one rank and one core each
    local hosts=$1
    shift 2
    scripts/sim_cluster.sh --hosts "$hosts" --ranks-per-host 1 --cpus-per-host 1 \
      --delay-us "$delay" -- "$@"
  }
  for np in 2 3; do
    want latency || continue
    sim $np -- bash -c "$(declare -p latency); $(declare -f run_latency);"' read -r -a l <<<"$SIM_MPIEXEC"; run_latency "${l[@]}" "$2" "$1"' _ "$o/latency-np$np" $np
  done
  if want em3d; then
    sim 2 -- bash -c '"${@:2}" --mpiexec "$SIM_MPIEXEC" -o "$1"' _ "$o/em3d" "${em3d[@]/--backend=mpi,shm,swcc/--backend=mpi,swcc}"
  fi
  if want scivm; then
    sim 2 -- bash -c 'read -r -a l <<<"$SIM_MPIEXEC"; "${l[@]}" -n 2 "${@:3}" --json="$1" >"$2"' _ \
      "$o/scivm.json" "$o/scivm.txt" "${scivm[@]}"
  fi
fi

# The figures: latency by state and SCI-VM (one host beside the simulated hosts), EM3D per part.
/usr/bin/python3 scripts/dsm_figures.py "$out"
for p in $parts; do
  if want em3d; then /usr/bin/python3 scripts/plot.py "$out/$p/em3d/results.json" -o "$out/$p/em3d"; fi
done
