#!/usr/bin/env bash
# ctest: comops on 2 simulated hosts x 2 ranks (scripts/sim_cluster.sh); exact checks, no timings.
# Usage: sim_cluster_test.sh SIM_CLUSTER_SH COMOPS NODE_PROBE. Exit 77 = skipped (reason printed).
set -euo pipefail
sim=$1 comops=$2 probe=$3
delay_us=25  # one-way delay of the second run: a round trip between hosts takes >= 2 x this

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
((EUID == 0)) || skip "needs root (network, UTS, IPC, PID and mount namespaces)"
unshare --net --uts --ipc --mount --pid --fork true 2>/dev/null ||
  skip "cannot create namespaces here (unshare --net --uts --ipc --mount --pid failed)"
for tool in ip tc nsenter mpiexec.hydra clang; do
  command -v "$tool" >/dev/null || skip "'$tool' is not installed"
done
py=/usr/bin/python3
[[ -x $py ]] || skip "/usr/bin/python3 is missing"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. MPI sees two nodes of two ranks, on hosts simh1 and simh2, and comops runs clean on mpi and
#    swcc across them.
"$sim" --hosts 2 --ranks-per-host 2 -- bash -c '
  set -e
  $SIM_MPIEXEC -n 4 "$1" 1 >"$2/nodes.txt"
  $SIM_MPIEXEC -n 4 "$3" --backend=mpi,swcc --op=pingpong,broadcast --sizes=8,64K --np=4 \
    --np-bytes=8K --no-limits -r 2 --progress=never --json "$2/run.json" >"$2/comops.txt"
' _ "$probe" "$work" "$comops" || fail "sim_cluster.sh run 1 exited $? (comops or the probe failed)"
cat "$work/nodes.txt"
expected="rank 0 host simh1 node_rank 0 node_size 2 nodes 2
rank 1 host simh1 node_rank 1 node_size 2 nodes 2
rank 2 host simh2 node_rank 0 node_size 2 nodes 2
rank 3 host simh2 node_rank 1 node_size 2 nodes 2"
[[ $(grep '^rank' "$work/nodes.txt") == "$expected" ]] || fail "MPI did not see 2 nodes x 2 ranks"

"$py" - "$work/run.json" <<'PY' || fail "comops results are not as expected"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
seen = {(r["backend"].split("-")[0], r["op"]) for r in rows}
want = {(b, o) for b in ("mpi", "swcc") for o in ("pingpong", "broadcast")}
assert want <= seen, f"missing rows: {sorted(want - seen)}"
wrong = [(r["backend"], r["op"], r["bytes"], r["wrong"]) for r in rows if r["wrong"] != 0]
assert not wrong, f"wrong elements: {wrong}"
print(f"comops: {len(rows)} rows on mpi and swcc, wrong = 0 in all")
PY

# 2. With a one-way delay of D on each host's egress, a round trip between the hosts takes at
#    least 2 x D: a physical lower bound, not a timing threshold.
"$sim" --hosts 2 --ranks-per-host 2 --delay-us "$delay_us" -- bash -c '
  $SIM_MPIEXEC -n 4 "$1" 50 >"$2/delay.txt"' _ "$probe" "$work" ||
  fail "sim_cluster.sh run 2 (--delay-us $delay_us) exited $?"
cat "$work/delay.txt"
"$py" - "$work/delay.txt" "$delay_us" <<'PY' || fail "the delayed round trip is below 2 x D"
import sys
d = float(sys.argv[2])
lines = [l.split() for l in open(sys.argv[1]) if l.startswith("pingpong")]
hosts = sorted(f[4] for f in lines)  # pingpong 0 PEER host HOST min_rtt_us RTT
assert hosts == ["simh1", "simh2", "simh2"], f"pingpong peers on {hosts}"
inter = [float(f[6]) for f in lines if f[4] == "simh2"]
assert min(inter) >= 2 * d, f"inter-host min RTT {inter} us < {2 * d} us"
print(f"inter-host round trips {inter} us >= 2 x {d} us")
PY
echo "PASS"
