#!/usr/bin/env bash
# ctest: the progress watchdog on 2 simulated hosts x 1 rank (scripts/sim_cluster.sh).
# 1. A link that goes down mid-point (eth0 of simh2 set down): comops ends by itself with one
#    comops line from a rank's watchdog, exit 3, and every output file, table.txt included, holds
#    the rows measured before.
# 2. A healthy run across a delayed, lossy link with large messages and a short --watchdog never
#    trips it: the allowance follows the steps the run measured, not a fixed guess.
# Usage: watchdog_test.sh SIM_CLUSTER_SH COMOPS. Exit 77 = skipped (reason printed).
set -euo pipefail
sim=$1 comops=$2
# shellcheck source=sim_prereqs.sh
source "$(dirname "${BASH_SOURCE[0]}")/sim_prereqs.sh"
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
watchdog_s=5  # the base allowance of both runs (--watchdog)
bound_s=150   # comops must have ended by itself this long after the link went down

# 1. The link goes down once the first rows are on disk. A core per host (--cpus-per-host 1), as
#    real nodes have: the two busy-polling ranks do not share one.
set +e
"$sim" --hosts 2 --ranks-per-host 1 --cpus-per-host 1 -- bash -c '
  comops=$1 work=$2 watchdog_s=$3 bound_s=$4
  source "$5"
  "$comops" --mpiexec "$SIM_MPIEXEC" --np 2 --backend=mpi --op=pingpong,broadcast \
    --sizes=8,1M,4M -n 20 -r 200 --watchdog="$watchdog_s" --no-limits --progress=never \
    -o "$work/out" >"$work/down.out" 2>"$work/down.err" &
  job=$!
  first_row "$work/out/results.json"
  $SIM_ENTER simh2 ip link set eth0 down
  end_within $job "$bound_s" "$work/hung"
' _ "$comops" "$work" "$watchdog_s" "$bound_s" "$(dirname "${BASH_SOURCE[0]}")/bounded_job.sh"
rc=$?
set -e
[[ ! -e $work/hung ]] || fail "after the link went down $(cat "$work/hung"): $(cat "$work/down.err")"
[[ $rc -eq 3 ]] || fail "comops exited $rc after the link went down, expected 3: $(cat "$work/down.err")"
lines=$(grep -c '^comops:' "$work/down.err" || true)
[[ $lines -eq 1 ]] || fail "$lines comops lines, expected 1: $(grep '^comops:' "$work/down.err")"
line=$(grep '^comops:' "$work/down.err")
echo "line: $line"
[[ $line =~ ^comops:\ error:\ rank\ [01]\ on\ host\ simh[12]\ made\ no\ progress\ for\ ([0-9]+)\ s\ in\ point\ mpi\ (pingpong|broadcast)\ np=2\ .*\(it\ may\ wait\ ([0-9]+)\ s,\ --watchdog\)\;\ a\ peer\ or\ the\ network\ is\ gone:\ this\ rank\ ends\ the\ job$ ]] ||
  fail "the line is not a watchdog's: $line"
waited=${BASH_REMATCH[1]} allowed=${BASH_REMATCH[3]}
# The rank waited past its allowance, by at most the watch thread's one-second period and a
# slow wake-up on a loaded machine.
(( waited >= allowed && waited <= allowed + 5 )) || fail "waited $waited s for an allowance of $allowed s"
source "$(dirname "${BASH_SOURCE[0]}")/bounded_job.sh"
rows_intact "$work/out" || fail "the rows measured before the link went down are not intact"

# 2. 25 us one-way delay and 1 % loss, messages up to 4 MiB, --watchdog=5: no false alarm.
"$sim" --hosts 2 --ranks-per-host 1 --cpus-per-host 1 --delay-us 25 --loss 1 -- bash -c '
  "$1" --mpiexec "$SIM_MPIEXEC" --np 2 --backend=mpi --op=pingpong,broadcast,allreduce-sum \
    --sizes=8,1M,4M -r 3 --watchdog="$3" --no-limits --progress=never --json "$2/lossy.json" \
    >"$2/lossy.out" 2>"$2/lossy.err"' _ "$comops" "$work" "$watchdog_s" ||
  fail "the delayed, lossy run failed ($?): $(cat "$work/lossy.err")"
! grep -q 'made no progress' "$work/lossy.err" || fail "the watchdog fired on a healthy run: $(cat "$work/lossy.err")"
"$py" -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; assert len(r) == 9 and all(x['wrong'] == 0 for x in r), r; print(len(r), 'rows across a delayed, lossy link, wrong = 0, no watchdog line')" "$work/lossy.json" ||
  fail "the delayed, lossy run's rows are not as expected"
echo "PASS"
