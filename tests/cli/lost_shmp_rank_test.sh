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
source "$here/lost_rank_lib.sh"
trap 'job_stop; rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR=$work/tmp  # the supervisor's run directory, with the rank table, goes here

# Many repetitions of a large broadcast after a small one: the run lasts long enough (about 10 s
# here) to lose a rank in the middle, once the small one's row is on disk.
job_start "$comops" --np 2 --backend=shmp --shmp-scheme=direct --op=broadcast \
  --sizes=8,4M -n 1000 -r 200 --no-limits --progress=never --json "$work/r.json" \
  >"$work/out" 2>"$work/err"

table=$(rank_table)
pid0=$(rank_field "$table" 0 pid) pid1=$(rank_field "$table" 1 pid)
kill -9 "$pid1"

expect_one_lost_rank_line "^comops: error: lost rank (0 \\(pid $pid0|1 \\(pid $pid1) on host "
rows=$(rows_kept)
echo "PASS: exit 3, one line: $(grep '^comops:' "$work/err"); $rows row(s) intact"
