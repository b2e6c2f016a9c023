#!/usr/bin/env bash
# SIGINT and SIGTERM to comops run directly, mid-run: one comops line, exit 130 / 143, and the
# rows measured before stay on disk as valid JSON.
# Usage: signal_test.sh COMOPS
set -euo pipefail
comops=$1
work=$(mktemp -d /tmp/comops-signal.XXXXXX)
source "$(dirname "$0")/../background_job.sh"
trap 'job_stop; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for sig in INT TERM; do
  rm -f "$work/r.json"
  # Long enough to be interrupted after its first row: many repetitions of large broadcasts.
  job_start "$comops" --backend=mpi --np=2 --op=broadcast --sizes=8,1M,4M,8M -n 20 -r 500 \
    --no-limits --progress=never --json "$work/r.json" </dev/null >"$work/out" 2>"$work/err"
  pid=$job_pid
  for _ in $(seq 600); do
    /usr/bin/python3 -c "import json,sys; sys.exit(0 if json.load(open('$work/r.json'))['results'] else 1)" \
      2>/dev/null && break
    sleep 0.1
  done
  kill -"$sig" "$pid"
  set +e
  wait "$pid"
  code=$?
  set -e
  want=$([[ $sig == INT ]] && echo 130 || echo 143)
  [[ $code == "$want" ]] || fail "SIG$sig: exit $code, expected $want; stderr: $(cat "$work/err")"
  [[ $(grep -c '^comops: ' "$work/err") == 1 ]] || fail "SIG$sig: more than one comops line: $(cat "$work/err")"
  rows=$(/usr/bin/python3 -c "import json; print(len(json.load(open('$work/r.json'))['results']))")
  [[ $rows -ge 1 ]] || fail "SIG$sig: no row kept"
  # The line counts the rows rank 0 recorded after writing them: those on disk, or one fewer when
  # the signal came between a row's write and its count.
  said=$(sed -n "s/^comops: error: interrupted by SIG$sig; the \([0-9]*\) rows\{0,1\} measured before \(is\|are\) in the output files$/\1/p" "$work/err")
  [[ -n $said ]] || fail "SIG$sig: no interruption line; stderr: $(cat "$work/err")"
  (( said == rows || said == rows - 1 )) || fail "SIG$sig: the line says $said rows, the JSON has $rows"
  echo "SIG$sig: exit $code, $rows row(s) kept"
done
