# shellcheck shell=bash disable=SC2154  # $work (the test's) and $job_pid (background_job.sh)
# Sourced by the lost-rank tests (lost_rank_test.sh, lost_shmp_rank_test.sh), after
# background_job.sh and with $work set: comops runs in the background with TMPDIR=$work/tmp and
# --json $work/r.json; these wait for the rank table, read it, and check how the job ended.
fail() { echo "FAIL: $*" >&2; exit 1; }

# Waits (at most 60 s) until the supervisor's rank table exists and the first row is on disk;
# prints the table's path. Fails the test when no table appeared.
rank_table() {
  local table="" t _
  for _ in $(seq 600); do
    for t in "$work"/tmp/comops-run.*/ranks.json; do
      [[ -f $t ]] && table=$t
    done
    if [[ -n $table ]] && /usr/bin/python3 -c "import json,sys; sys.exit(0 if json.load(open('$work/r.json'))['results'] else 1)" 2>/dev/null; then
      break
    fi
    sleep 0.1
  done
  [[ -n $table ]] || fail "no rank table appeared"
  echo "$table"
}

# rank_field TABLE RANK FIELD: the field (pid, host) of RANK in the rank table.
rank_field() {
  /usr/bin/python3 -c "import json; print([r['$3'] for r in json.load(open('$1')) if r['rank']==$2][0])"
}

# Waits for the job (ctest's TIMEOUT bounds the wait) and checks that it ended with exit 3 and
# exactly one comops line on stderr, which matches the extended regular expression $1.
expect_one_lost_rank_line() {
  local rc lines
  set +e
  wait "$job_pid"
  rc=$?
  set -e
  [[ $rc -eq 3 ]] || fail "exit code $rc, expected 3; stderr: $(cat "$work/err")"
  lines=$(grep -c '^comops:' "$work/err" || true)
  [[ $lines -eq 1 ]] || fail "$lines comops lines, expected 1: $(grep '^comops:' "$work/err")"
  grep -qE "$1" "$work/err" || fail "no line matching '$1': $(grep '^comops:' "$work/err")"
}

# Prints how many rows the JSON kept; fails the test when none, or one with a wrong element.
rows_kept() {
  local rows
  rows=$(/usr/bin/python3 -c "import json; d=json.load(open('$work/r.json')); assert all(r['wrong']==0 for r in d['results']); print(len(d['results']))") ||
    fail "the rows on disk are not valid JSON with wrong = 0"
  [[ $rows -ge 1 ]] || fail "no rows kept"
  echo "$rows"
}
