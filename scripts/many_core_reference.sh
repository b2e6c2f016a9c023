#!/usr/bin/env bash
# The reference figures a 2-core machine cannot give, on a machine of MAX_NP (16) cores or more,
# into OUT_DIR (default results/many-core-<host>-<YYYY-MM-DD>):
#
#   swcc-latency-np3/  bench/swcc_state_latency at np 3, a core per rank (-bind-to core), RUNS
#                      runs (table<r>.txt, gbench<r>.json, ratios<r>.json): the three-party cases
#   np-sweep/          scripts/sweep_np.sh MAX_NP: time versus nprocs, np 2..MAX_NP, every backend
#   machine.txt        the machine: date, commit, cores (lscpu), load before and after, whether
#                      the latency runs had real-time priority (chrt -f 1, used where it works
#                      and each rank has a core of its own)
#
# Usage: scripts/many_core_reference.sh [OUT_DIR]   (refused if OUT_DIR is a non-empty directory)
# Environment: BUILD (build: comops and bench/swcc_state_latency), MPIEXEC (mpiexec), MAX_NP (16),
#   COMMIT (the checkout's git commit: for a copy without .git),
#   RUNS (3), REPS (5: repetitions of each latency benchmark), SWEEP_OPTIONS (""), LATENCY_OPTIONS
#   (""): extra arguments of sweep_np.sh and of swcc_state_latency (a smaller run for a test, say).
# Fewer cores than MAX_NP (or than 3) still runs, correct but oversubscribed: comops flags its rows
# and machine.txt says so; such times are scheduler time slices, not the machine's.
# Exit status: 0; 2 for a usage error; otherwise the first failing program's own.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/s/^# \{0,1\}//p' "$0"; exit 0; fi
prog=many_core_reference.sh
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "$prog: $*" >&2; exit 2; }

(($# <= 1)) || die "at most one argument, the output directory (see --help)"
build=${BUILD:-$repo/build}
mpiexec=${MPIEXEC:-mpiexec}
max_np=${MAX_NP:-16}
runs=${RUNS:-3}
reps=${REPS:-5}
read -r -a sweep_extra <<<"${SWEEP_OPTIONS:-}"
read -r -a latency_extra <<<"${LATENCY_OPTIONS:-}"
for v in max_np runs reps; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "${v^^} must be a positive integer, not '${!v}'"
done
((max_np >= 3)) || die "MAX_NP must be at least 3 (the latency matrix runs 3 ranks), not $max_np"
for b in comops bench/swcc_state_latency; do
  [[ -x $build/$b ]] || die "$build/$b is missing (build with scripts/setup.sh, or set BUILD)"
done
command -v "$mpiexec" >/dev/null || die "MPI launcher '$mpiexec' not found (set MPIEXEC)"
cores=$(nproc)

host=$(hostname -s 2>/dev/null || hostname)
out=${1:-$repo/results/many-core-$host-$(date -u +%Y-%m-%d)}
[[ ! -e $out || -d $out ]] || die "$out exists and is not a directory"
[[ ! -d $out || -z $(ls -A "$out") ]] || die "$out exists and is not empty (choose another directory)"
mkdir -p "$out"

# Real-time priority only with a core per rank: oversubscribed, a FIFO rank that busy-polls
# never yields its core to the rank it waits for.
rt=()
if ((cores >= 3)) && chrt -f 1 true 2>/dev/null; then rt=(chrt -f 1); fi
commit=${COMMIT:-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)}
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $commit"
  echo "host: $host, $cores cores online; MAX_NP $max_np$( ((cores >= max_np)) || echo ' (oversubscribed)')"
  echo "latency runs: ${rt[*]:-no real-time priority (chrt -f 1 refused, or fewer than 3 cores)}, -bind-to core, $runs runs of $reps repetitions$( ((cores >= 3)) || echo ', oversubscribed (3 ranks)')"
  echo "load before: $(cat /proc/loadavg)"
  echo "--- lscpu"
  lscpu 2>/dev/null || echo "(lscpu not found)"
} >"$out/machine.txt"

echo "$prog: the latency matrix at np 3, $runs runs" >&2
lat=$out/swcc-latency-np3
mkdir -p "$lat"
for ((r = 1; r <= runs; r++)); do
  "${rt[@]}" "$mpiexec" -n 3 -bind-to core "$build/bench/swcc_state_latency" \
    --benchmark_repetitions="$reps" --benchmark_out="$lat/gbench$r.json" \
    --benchmark_out_format=json --ratios_out="$lat/ratios$r.json" "${latency_extra[@]}" \
    >"$lat/table$r.txt"
done

echo "$prog: time versus nprocs, np 2..$max_np" >&2
COMOPS=$build/comops MPIEXEC=$mpiexec "$repo/scripts/sweep_np.sh" "$max_np" -o "$out/np-sweep" \
  "${sweep_extra[@]}"
echo "load after: $(cat /proc/loadavg)" >>"$out/machine.txt"
echo "$prog: done; files in $out" >&2
