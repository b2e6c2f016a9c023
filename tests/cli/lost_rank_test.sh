#!/usr/bin/env bash
# A rank lost mid-run (SIGKILL) under comops run directly on two nodes (two made-up hosts through
# the local launcher): the job ends, one comops line names the lost rank and its host, exit 3,
# and the rows measured before stay on disk as valid JSON.
# The rank lost is rank 2, the first of host nodeb (ranks 2 and 3). MPICH's Hydra names only the
# first process of a host, in its local order, that ended abnormally, and its cleanup SIGKILLs
# the host's other ranks as soon as it sees one end: had rank 3 been lost, rank 2 killed by that
# cleanup would be named instead whenever its status was collected first (docs: a lost rank).
# Under Open MPI (MPI=openmpi), whose mpiexec has no -launcher-exec to fake hosts with: one node.
# Usage: lost_rank_test.sh COMOPS MPIEXEC [MPI]   (MPI: mpich, the default, or openmpi)
set -euo pipefail
comops=$1 mpiexec=$2 mpi=${3:-mpich}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/comops-lost-rank.XXXXXX)
source "$here/../background_job.sh"
source "$here/lost_rank_lib.sh"
trap 'job_stop; rm -rf "$work"' EXIT
printf 'nodea:2\nnodeb:2\n' >"$work/hosts"
mkdir "$work/tmp"
export TMPDIR=$work/tmp  # the supervisor's run directory, with the rank table, goes here

# Many repetitions of large broadcasts: the run lasts long enough to lose a rank in the middle.
launcher="$mpiexec -f $work/hosts -launcher ssh -launcher-exec $here/local_launcher.sh"
[[ $mpi == openmpi ]] && launcher=$mpiexec  # comops gives it oversubscription and root itself
job_start "$comops" --mpiexec "$launcher" \
  --np 4 --backend=mpi --op=broadcast --sizes=8,64K,1M,4M,8M -n 20 -r 200 --no-limits \
  --progress=never --json "$work/r.json" >"$work/out" 2>"$work/err"

table=$(rank_table)
pid2=$(rank_field "$table" 2 pid)
host2=$(rank_field "$table" 2 host)
kill -9 "$pid2"

# The job must end by itself, with one line naming rank 2.
expect_one_lost_rank_line "^comops: error: lost rank 2 \\(pid $pid2 on host "
echo "line: $(grep '^comops:' "$work/err") (rank 2 ran on $host2)"
rows=$(rows_kept)
echo "PASS: exit 3, one line naming rank 2, $rows row(s) intact"
