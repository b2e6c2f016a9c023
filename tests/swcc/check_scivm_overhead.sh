#!/bin/sh
# A correctness smoke of bench/scivm_overhead at a tiny size (no time is asserted):
#   1. it exits 0 and prints the 12 result lines (sum and matmul; local, unoptimised, cached,
#      optimised, view, floor), every one with its check "passed";
#   2. with the hidden --test-corrupt (wrong data in the optimised and view versions) it exits
#      1, those four lines say FAILED, the 8 others passed, and stderr says why in one line;
#   3. a bad option exits 2 with one "scivm_overhead: error:" line on stderr;
#   4. --json=FILE writes the 12 rows (kernel, version, check "passed") and the parameters;
#      --json naming a directory exits 2 with one error line and leaves the directory alone.
# Usage: check_scivm_overhead.sh "MPIEXEC AND ITS FLAGS" NPFLAG NP BINARY
mpiexec=$1 npflag=$2 np=$3 bin=$4
out=$(mktemp) err=$(mktemp) dir=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$dir"' EXIT
fail=0
bad() { echo "check_scivm_overhead: $*"; fail=1; }
tiny="--sum-n=6000 --matmul-n=36 --prefetch=3 --reps=1"

# shellcheck disable=SC2086
$mpiexec $npflag "$np" "$bin" $tiny >"$out" 2>"$err"
rc=$?
cat "$out" "$err"
[ "$rc" -eq 0 ] || bad "exit status $rc, not 0"
lines=$(grep -cE '^(sum|matmul) ' "$out")
[ "$lines" -eq 12 ] || bad "$lines result lines, not 12"
passed=$(grep -E '^(sum|matmul) ' "$out" | grep -c ' passed ')
[ "$passed" -eq 12 ] || bad "$passed of the result lines passed, not 12"
for k in sum matmul; do
  for v in local unoptimised "cached, no prefetch" optimised view "floor \(MPI_Get"; do
    grep -qE "^$k +$v" "$out" || bad "no line for $k $v"
  done
done

# shellcheck disable=SC2086
$mpiexec $npflag "$np" "$bin" $tiny --test-corrupt >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 1 ] || bad "--test-corrupt: exit status $rc, not 1"
failed=$(grep -E '^(sum|matmul) +(optimised|view)' "$out" | grep -c ' FAILED ')
[ "$failed" -eq 4 ] || bad "--test-corrupt: $failed optimised and view lines FAILED, not 4"
passed=$(grep -E '^(sum|matmul) ' "$out" | grep -c ' passed ')
[ "$passed" -eq 8 ] || bad "--test-corrupt: $passed lines passed, not 8"
grep -q '^scivm_overhead: error: a result differs from the serial one$' "$err" ||
  bad "--test-corrupt: no error line on stderr: $(cat "$err")"

$mpiexec $npflag "$np" "$bin" --prefetch=65 >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 2 ] || bad "--prefetch=65: exit status $rc, not 2"
n=$(grep -c '^scivm_overhead: error: ' "$err")
[ "$n" -eq 1 ] || bad "--prefetch=65: $n error lines on stderr, not 1: $(cat "$err")"
# shellcheck disable=SC2086
$mpiexec $npflag "$np" "$bin" $tiny --json="$dir/t.json" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 0 ] || bad "--json: exit status $rc, not 0: $(cat "$err")"
rows=$(grep -c '"kernel": "\(sum\|matmul\)"' "$dir/t.json")
[ "$rows" -eq 12 ] || bad "--json: $rows rows in the file, not 12"
passed=$(grep -c '"check": "passed"' "$dir/t.json")
[ "$passed" -eq 12 ] || bad "--json: $passed rows passed, not 12"
for kv in '"np": 2' '"sum_n": 6000' '"matmul_n": 36' '"prefetch": 3' '"reps": 1' \
  '"version": "optimised (cached, prefetch)"' '"version": "view (cached, prefetch)"'; do
  grep -qF "$kv" "$dir/t.json" || bad "--json: no $kv in the file"
done
mkdir "$dir/d"
# shellcheck disable=SC2086
$mpiexec $npflag "$np" "$bin" $tiny --json="$dir/d" >"$out" 2>"$err"
rc=$?
[ "$rc" -eq 2 ] || bad "--json=DIR: exit status $rc, not 2"
n=$(grep -c '^scivm_overhead: error: --json .* is not a regular file$' "$err")
[ "$n" -eq 1 ] || bad "--json=DIR: $n error lines on stderr, not 1: $(cat "$err")"
[ -d "$dir/d" ] || bad "--json=DIR: the directory is gone"
exit $fail
