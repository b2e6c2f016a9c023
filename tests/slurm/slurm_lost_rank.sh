#!/usr/bin/env bash
# A rank lost under srun --mpi=pmi2 without --kill-on-bad-exit, on a real Slurm over two simulated
# hosts (a rank and a core each): srun lets the other rank run on, and that rank's own watchdog
# (or its failed MPI call) must end it in bounded time, with one comops line, exit 3 from comops,
# and the rows measured before intact.
# Usage: slurm_lost_rank.sh SOURCE_DIR COMOPS_BINARY. Exit 77 (ctest SKIP) with a reason when the
# machine cannot run it: not root, no namespaces, no Slurm or munge.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

(($# == 2)) || { echo "usage: $0 SOURCE_DIR COMOPS_BINARY" >&2; exit 2; }
src=$1 comops=$2
((EUID == 0)) || skip "needs root (namespaces, veth, Slurm daemons)"
missing=()
for tool in munged slurmctld slurmd srun; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
((${#missing[@]} == 0)) ||
  skip "${missing[*]} not installed (apt-get install --no-install-recommends slurmctld slurmd slurm-client munge)"
unshare --net --uts --ipc --mount --pid --fork true 2>/dev/null ||
  skip "cannot create namespaces here"
[[ -x $comops ]] || fail "comops binary '$comops' not found"

work=$(mktemp -d /tmp/comops_slurm_lost.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
watchdog_s=5
bound_s=150  # srun must have ended this long after the rank was lost

# On the head: srun in the background, rank 1 killed once the first row is on disk, and srun
# given bound_s to end by itself.
cat >"$work/head.sh" <<'EOF'
#!/usr/bin/env bash
set -u
work=$1 comops=$2 watchdog_s=$3 bound_s=$4
source "$5"
srun -N 2 --ntasks-per-node=1 --mpi=pmi2 "$comops" --backend=mpi --op=pingpong,broadcast \
  --sizes=8,1M,4M -n 20 -r 200 --watchdog="$watchdog_s" --no-limits --progress=never \
  -o "$work/out" >"$work/lost.out" 2>"$work/lost.err" &
job=$!
first_row "$work/out/results.json"
$SIM_ENTER simh2 pkill -9 -f -- "-o $work/out"
end_within $job "$bound_s" "$work/hung"
echo $? >"$work/srun.rc"
exit 0
EOF
chmod +x "$work/head.sh"
"$src/scripts/sim_cluster.sh" --hosts 2 --ranks-per-host 1 --cpus-per-host 1 -- \
  "$src/scripts/sim_slurm.sh" --cpus 1 --logs "$work/logs" -- "$work/head.sh" "$work" "$comops" \
  "$watchdog_s" "$bound_s" "$src/tests/cluster/bounded_job.sh" || fail "the simulated cluster or Slurm failed (exit $?)"
[[ ! -e $work/hung ]] || fail "after rank 1 was lost $(cat "$work/hung"): $(cat "$work/lost.err")"
echo "srun exit $(cat "$work/srun.rc")"
cat "$work/lost.err"
# srun's own code is the lost task's (137: SIGKILL); rank 0 left with comops' run-time code.
[[ $(cat "$work/srun.rc") -ne 0 ]] || fail "srun exited 0 after a task was killed"
grep -q '^srun: error: simh1: task 0: Exited with exit code 3$' "$work/lost.err" ||
  fail "rank 0 did not exit with code 3"
lines=$(grep -c '^comops:' "$work/lost.err" || true)
[[ $lines -eq 1 ]] || fail "$lines comops lines, expected 1"
grep -Eq '^comops: error: rank 0 on host simh1 made no progress for [0-9]+ s in point mpi (pingpong|broadcast) np=2 ' "$work/lost.err" ||
  grep -Eq '^comops: error: .*\(world rank 0\); the job is aborted$' "$work/lost.err" ||
  fail "the line is neither rank 0's watchdog nor its failed MPI call"
source "$src/tests/cluster/bounded_job.sh"
rows_intact "$work/out" || fail "the rows measured before rank 1 was lost are not intact"
echo PASS
