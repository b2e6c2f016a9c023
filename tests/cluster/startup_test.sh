#!/usr/bin/env bash
# ctest: the start-up bound on simulated hosts (scripts/sim_cluster.sh). A hostfile names simh1,
# simh2 and simh3, which does not exist (the launcher refuses it, as ssh refuses a dead host):
# comops run directly ends the launch by itself with one line that counts the ranks started by
# host and names simh3, exit 3, and nothing of the start-up lines in its stderr.
# Usage: startup_test.sh SIM_CLUSTER_SH COMOPS. Exit 77 = skipped (reason printed).
set -euo pipefail
sim=$1 comops=$2
# shellcheck source=sim_prereqs.sh
source "$(dirname "${BASH_SOURCE[0]}")/sim_prereqs.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bound_s=120  # comops must have ended by itself this long after it started

set +e
"$sim" --hosts 2 --ranks-per-host 1 --cpus-per-host 1 -- bash -c '
  comops=$1 work=$2 bound_s=$3
  source "$4"
  printf "simh1:1\nsimh2:1\nsimh3:1\n" >"$work/hosts"
  "$comops" --mpiexec "mpiexec.hydra -f $work/hosts -launcher ssh -launcher-exec $SIM_LAUNCHER -iface $SIM_IFACE" \
    --np 3 --startup-timeout=10 --backend=mpi --op=pingpong --sizes=8 --no-limits \
    --progress=never -o "$work/out" >"$work/start.out" 2>"$work/start.err" &
  end_within $! "$bound_s" "$work/hung"
' _ "$comops" "$work" "$bound_s" "$(dirname "${BASH_SOURCE[0]}")/bounded_job.sh"
rc=$?
set -e
[[ ! -e $work/hung ]] || fail "after the launch $(cat "$work/hung"): $(cat "$work/start.err")"
[[ $rc -eq 3 ]] || fail "comops exited $rc, expected 3: $(cat "$work/start.err")"
lines=$(grep -c '^comops' "$work/start.err" || true)
[[ $lines -eq 1 ]] || fail "$lines comops lines, expected 1 (start-up lines must not show): $(grep '^comops' "$work/start.err")"
line=$(grep '^comops' "$work/start.err")
echo "line: $line"
[[ $line =~ ^comops:\ error:\ the\ job\ did\ not\ start\ within\ [0-9]+\ s:\ 2\ of\ 3\ ranks\ started\ \(1\ on\ simh1,\ 1\ on\ simh2\)\;\ no\ rank\ started\ on\ simh3\ \(named\ by\ the\ launcher\):\ check\ that\ it\ is\ reachable\ \(--startup-timeout\)\;\ nothing\ had\ been\ measured$ ]] ||
  fail "the line is not the start-up bound's: $line"
echo "PASS"
