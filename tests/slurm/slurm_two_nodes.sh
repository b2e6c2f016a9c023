#!/usr/bin/env bash
# comops on a real Slurm over two simulated hosts: salloc + mpiexec and srun --mpi=pmi2, 0 wrong.
# Usage: slurm_two_nodes.sh SOURCE_DIR COMOPS_BINARY. Exit 77 (ctest SKIP) with a reason when the
# machine cannot run it: not root, no namespaces, no Slurm or munge, no sim_cluster.sh.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

(($# == 2)) || { echo "usage: $0 SOURCE_DIR COMOPS_BINARY" >&2; exit 2; }
src=$1
comops=$2
python=/usr/bin/python3
# Ranks per node (2 nodes). Without comops' MPI_Finalize work-around, MPICH 4.0.2 hangs in
# MPI_Finalize between hosts in about half of these runs (scripts/README.md).
tpn=${COMOPS_SLURM_TEST_TASKS_PER_NODE:-2}
[[ $tpn =~ ^[1-4]$ ]] || { echo "COMOPS_SLURM_TEST_TASKS_PER_NODE must be 1..4" >&2; exit 2; }
np=$((2 * tpn))

((EUID == 0)) || skip "needs root (namespaces, veth, Slurm daemons)"
[[ -x $src/scripts/sim_cluster.sh ]] || skip "scripts/sim_cluster.sh is missing"
missing=()
for tool in munged slurmctld slurmd salloc srun sinfo; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
((${#missing[@]} == 0)) ||
  skip "${missing[*]} not installed (apt-get install --no-install-recommends slurmctld slurmd slurm-client munge)"
if ! probe=$(unshare --net --uts --ipc --mount --pid --fork \
               bash -c 'ip link add sltest0 type veth peer name sltest1' 2>&1); then
  skip "cannot create namespaces and a veth pair here: $probe"
fi
[[ -x $comops ]] || fail "comops binary '$comops' not found"

work=$(mktemp -d /tmp/comops_slurm_test.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"

# What runs on the head: each rank records its host before it becomes comops, so the test sees
# where the MPI ranks ran, not only where a separate hostname step ran.
cat >"$work/rank.sh" <<'EOF'
#!/usr/bin/env bash
rank=${PMI_RANK:-${SLURM_PROCID:-x}}
hostname >"$COMOPS_TEST_DIR/$COMOPS_TEST_MODE.rank.$rank"
exec "$@"
EOF
cat >"$work/head.sh" <<'EOF'
#!/usr/bin/env bash
set -u
export COMOPS_TEST_DIR=$1
comops=$2
tpn=$3
np=$((2 * tpn))
args=(--backend=mpi,swcc --op=pingpong,broadcast,reduce --sizes=8,64K --np=$np --np-bytes=64K
      --no-limits -r 2 --progress=never)
rc=0
# A whole run's rows: 2 backends x 3 ops x 2 sizes, the ping-pongs once intra-node and once across.
whole=16
# The rows in MODE's results file (rewritten after every point), 0 when it has none.
rows() {
  /usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["results"]))' \
    "$COMOPS_TEST_DIR/$1.json" 2>/dev/null || echo 0
}
# report MODE STATUS: what a failed run left behind. 124 is the inner timeout: with every row
# written, that is MPICH 4.0.2's MPI_Finalize hang over TCP (scripts/README.md, "Slurm on
# simulated hosts"); with fewer, the run itself was still going.
report() {
  echo "$1: exit $2"
  if (($2 == 124)); then
    local n
    n=$(rows "$1")
    if ((n == whole)); then
      echo "$1: all $whole rows written, then a rank did not leave MPI_Finalize within the time limit"
    else
      echo "$1: $n of $whole rows written when the time limit ended the run"
    fi
  fi
  tail -n 15 "$COMOPS_TEST_DIR/$1.txt"
}
echo "== salloc -N 2 --ntasks-per-node=$tpn, mpiexec -n $np"
st=0
COMOPS_TEST_MODE=salloc timeout 110 salloc -N 2 --ntasks-per-node=$tpn \
  timeout 100 mpiexec -n $np "$1/rank.sh" "$comops" "${args[@]}" --json "$1/salloc.json" \
  >"$1/salloc.txt" 2>&1 || st=$?
((st == 0)) || { report salloc $st; rc=1; }
echo "== srun -N 2 --ntasks-per-node=$tpn --mpi=pmi2"
st=0
COMOPS_TEST_MODE=srun timeout 110 srun -N 2 --ntasks-per-node=$tpn --mpi=pmi2 \
  timeout 100 "$1/rank.sh" "$comops" "${args[@]}" --json "$1/srun.json" \
  >"$1/srun.txt" 2>&1 || st=$?
((st == 0)) || { report srun $st; rc=1; }
exit $rc
EOF
chmod +x "$work/rank.sh" "$work/head.sh"

start=$SECONDS
rc=0
"$src/scripts/sim_cluster.sh" --hosts 2 --ranks-per-host "$tpn" -- \
  "$src/scripts/sim_slurm.sh" --logs "$work/logs" -- "$work/head.sh" "$work" "$comops" "$tpn" || rc=$?
echo "cluster, Slurm and both runs: $((SECONDS - start)) s, exit $rc"
if ((rc != 0)); then
  for f in "$work"/logs/*.log; do
    [[ -f $f ]] && { echo "--- ${f##*/}"; tail -n 8 "$f"; }
  done
  fail "the Slurm runs failed (exit $rc)"
fi

"$python" - "$work" "$tpn" <<'EOF'
import json, os, sys
work, tpn = sys.argv[1], int(sys.argv[2])
np = 2 * tpn
# the ping-pongs once inside a node (intra) and once across (inter): 16 rows in all
expected = {(b, op, np, n, pair) for b in ("mpi", "swcc-64") for n in (8, 65536)
            for op, pair in (("pingpong", "intra"), ("pingpong", "inter"), ("broadcast", None),
                             ("reduce-max", None))}
bad = []
for mode in ("salloc", "srun"):
    doc = json.load(open(os.path.join(work, mode + ".json")))
    if doc["context"]["world_size"] != np:
        bad.append(f"{mode}: world_size {doc['context']['world_size']}, not {np}")
    rows = {(r["backend"], r["op"], r["np"], r["bytes"], r.get("pair")): r for r in doc["results"]}
    if len(doc["results"]) != len(expected) or set(rows) != expected:
        bad.append(f"{mode}: rows {sorted(rows)} differ from {sorted(expected)}")
    for key, row in sorted(rows.items()):
        if row["wrong"] != 0:
            bad.append(f"{mode}: {key} has {row['wrong']} wrong elements")
    hosts = {}
    for rank in range(np):
        path = os.path.join(work, f"{mode}.rank.{rank}")
        hosts[rank] = open(path).read().strip() if os.path.exists(path) else None
    want = {rank: f"simh{1 + rank // tpn}" for rank in range(np)}
    if hosts != want:
        bad.append(f"{mode}: ranks ran on {hosts}, not on {want}")
    print(f"{mode}: {len(rows)} rows, {sum(r['wrong'] for r in rows.values())} wrong, ranks on {hosts}")
for line in bad:
    print("FAIL:", line)
sys.exit(1 if bad else 0)
EOF
