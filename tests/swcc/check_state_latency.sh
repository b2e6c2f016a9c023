#!/bin/sh
# bench/swcc_state_latency run at np 2 (no time is asserted):
#   1. it exits 0, says which three-party cases it leaves out, runs exactly the other cases
#      (here, filtered to block size 8 and sc: 9 cached cases and 3 sc cases, read and write:
#      24 benchmarks, none of them an error), and the ratio table shows "-" for the three-party
#      ratio, which needs np 3;
#   2. at np 4 it exits 2 with one "swcc_state_latency: error:" line on stderr.
# Usage: check_state_latency.sh "MPIEXEC AND ITS FLAGS" NPFLAG BINARY
mpiexec=$1 npflag=$2 bin=$3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail=0
bad() { echo "check_state_latency: $*"; fail=1; }
tiny="--accesses=8 --batch=8 --benchmark_filter=/(8|sc)/"

# shellcheck disable=SC2086
$mpiexec $npflag 2 "$bin" $tiny >"$out" 2>"$err"
rc=$?
cat "$out" "$err"
[ "$rc" -eq 0 ] || bad "np 2: exit status $rc, not 0"
grep -qx 'np 2: the three-party cases need a third rank (mpiexec -n 3), not run: remote_hit_shared, remote_miss_inval, remote_miss_flush' "$out" ||
  bad "np 2: no line naming the cases left out"
n=$(grep -cE '^state/[a-z_]+/(read|write)/(8|sc)/' "$out")
[ "$n" -eq 24 ] || bad "np 2: $n benchmarks ran, not 24"
n=$(grep -cE '^state/(remote_hit_shared|remote_miss_inval|remote_miss_flush)/' "$out")
[ "$n" -eq 0 ] || bad "np 2: $n three-party benchmarks ran, not 0"
n=$(grep -ciE '^state/.*error' "$out")
[ "$n" -eq 0 ] || bad "np 2: $n benchmarks reported an error"
grep -qE '^three-party miss / clean miss +~2( +-){6}$' "$out" ||
  bad "np 2: the three-party ratio is not '-' everywhere"

# shellcheck disable=SC2086
$mpiexec $npflag 4 "$bin" $tiny >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 2 ] || bad "np 4: exit status $rc, not 2"
n=$(grep -c '^swcc_state_latency: error: run with mpiexec -n 3 or -n 2 (not 4)$' "$err")
[ "$n" -eq 1 ] || bad "np 4: $n error lines on stderr, not 1: $(cat "$err")"
exit $fail
