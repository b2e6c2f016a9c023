#!/usr/bin/env bash
# A process of the shmp team lost mid-run (SIGKILL) while its peer spins on a flag in their shared
# window: the job ends by itself, one comops line names a lost rank of the team, exit 3, and the
# rows measured before stay on disk as valid JSON. Rank 1 is killed; Hydra's cleanup kills rank 0
# at once and names the first process of the host, in its local order, that ended abnormally, so
# the line names rank 0 or 1 (lost_rank_test.sh: a lost rank), with that rank's pid.
# Usage: lost_shmp_rank_test.sh COMOPS
set -euo pipefail
comops=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/comops-lost-shmp.XXXXXX)
source "$here/../background_job.sh"
trap 'job_stop; rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR=$work/tmp  # the supervisor's run directory, with the rank table, goes here
fail() { echo "FAIL: $*" >&2; exit 1; }

# Many repetitions of a large broadcast after a small one: the run lasts long enough (about 10 s
# here) to lose a rank in the middle, once the small one's row is on disk.
job_start "$comops" --np 2 --backend=shmp --shmp-scheme=direct --op=broadcast \
  --sizes=8,4M -n 1000 -r 200 --no-limits --progress=never --json "$work/r.json" \
  >"$work/out" 2>"$work/err"
supervisor=$job_pid

table=""
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
pid_of() { /usr/bin/python3 -c "import json; print([r['pid'] for r in json.load(open('$table')) if r['rank']==$1][0])"; }
pid0=$(pid_of 0) pid1=$(pid_of 1)
kill -9 "$pid1"

set +e
wait "$supervisor"
rc=$?
set -e
[[ $rc -eq 3 ]] || fail "exit code $rc, expected 3; stderr: $(cat "$work/err")"
lines=$(grep -c '^comops:' "$work/err" || true)
[[ $lines -eq 1 ]] || fail "$lines comops lines, expected 1: $(grep '^comops:' "$work/err")"
grep -qE "^comops: error: lost rank (0 \(pid $pid0|1 \(pid $pid1) on host " "$work/err" ||
  fail "no line naming rank 0 (pid $pid0) or rank 1 (pid $pid1): $(grep '^comops:' "$work/err")"
rows=$(/usr/bin/python3 -c "import json; d=json.load(open('$work/r.json')); assert all(r['wrong']==0 for r in d['results']); print(len(d['results']))")
[[ $rows -ge 1 ]] || fail "no rows kept"
echo "PASS: exit 3, one line: $(grep '^comops:' "$work/err"); $rows row(s) intact"
