#!/usr/bin/env bash
# ctest: comops on 2 simulated hosts x 2 ranks (scripts/sim_cluster.sh); exact checks, no timings.
# Usage: sim_cluster_test.sh SIM_CLUSTER_SH COMOPS NODE_PROBE. Exit 77 = skipped (reason printed).
set -euo pipefail
sim=$1 comops=$2 probe=$3
delay_us=25  # one-way delay of the second run: a round trip between hosts takes >= 2 x this

# shellcheck source=sim_prereqs.sh
source "$(dirname "${BASH_SOURCE[0]}")/sim_prereqs.sh"
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. MPI sees two nodes of two ranks, on hosts simh1 and simh2, and comops runs clean on mpi and
#    swcc across them.
"$sim" --hosts 2 --ranks-per-host 2 -- bash -c '
  set -e
  $SIM_MPIEXEC -n 4 "$1" 1 >"$2/nodes.txt"
  $SIM_MPIEXEC -n 4 "$3" --backend=mpi,swcc --op=all --sizes=8,64K --np=4 \
    --np-bytes=8K -n 5 -w 1 -r 2 --pair=both --progress=never --json "$2/run.json" >"$2/comops.txt"
' _ "$probe" "$work" "$comops" || fail "sim_cluster.sh run 1 exited $? (comops or the probe failed)"
cat "$work/nodes.txt"
expected="rank 0 host simh1 node_rank 0 node_size 2 nodes 2
rank 1 host simh1 node_rank 1 node_size 2 nodes 2
rank 2 host simh2 node_rank 0 node_size 2 nodes 2
rank 3 host simh2 node_rank 1 node_size 2 nodes 2"
[[ $(grep '^rank' "$work/nodes.txt") == "$expected" ]] || fail "MPI did not see 2 nodes x 2 ranks"

"$py" - "$work/run.json" <<'PY' || fail "comops results are not as expected"
import json, sys
doc = json.load(open(sys.argv[1]))
rows, ctx = doc["results"], doc["context"]
ops = ("pingpong", "broadcast", "reduce-max", "gather", "scatter", "barrier", "alltoall",
       "allgather", "allreduce-max", "pingpong-nb", "put-fence", "get-fence")
seen = {(r["backend"].split("-")[0], r["op"]) for r in rows}
want = {(b, o) for b in ("mpi", "swcc") for o in ops}
assert want <= seen, f"missing rows: {sorted(want - seen)}"
wrong = [(r["backend"], r["op"], r["bytes"], r["wrong"]) for r in rows if r["wrong"] != 0]
assert not wrong, f"wrong elements: {wrong}"
# The context lists both hosts with their ranks; the limits were measured on each.
nodes = [(n["host"], n["ranks"]) for n in ctx["nodes"]]
assert nodes == [("simh1", [0, 1]), ("simh2", [2, 3])], nodes
assert all(n["limits"]["cacheline_rtt_us"] is not None for n in ctx["nodes"]), ctx["nodes"]
assert ctx["limits"]["network"]["hosts"] == ["simh1", "simh2"], ctx["limits"]["network"]
# Two ranks on each 2-core host: nobody is oversubscribed (judged per node, not 4 > 2 cores).
assert ctx["oversubscribed"] is False and not any(r["oversubscribed"] for r in rows)
for r in rows:
    if "pair" in r:
        # A pair op (ping-pongs, stream-bw, one-sided put/get): intra: ranks 0 and 1 on simh1;
        # inter: rank 0 and rank 2 on simh2, each on core 0 of its own host (bound by its index
        # among the point's participants on that host).
        if r["pair"] == "intra":
            assert r["hosts"] == ["simh1", "simh1", "simh2", "simh2"] and r["nodes"] == 1, r
            assert r["cores"] == [0, 1, 0, 1], r
        else:
            assert r["hosts"] == ["simh1", "simh2", "simh1", "simh2"] and r["nodes"] == 2, r
            assert r["cores"] == [0, 0, 1, 1], r
    else:
        assert r["hosts"] == ["simh1", "simh1", "simh2", "simh2"] and r["nodes"] == 2, r
        assert r["cores"] == [0, 1, 0, 1], r
pairs = sorted({(r["backend"], r["op"], r["pair"]) for r in rows if "pair" in r})
for op in ("pingpong", "pingpong-nb", "stream-bw", "put", "get", "put-fence", "get-fence"):
    assert [p for b, o, p in pairs if b == "mpi" and o == op] == ["inter", "intra"], (op, pairs)
print(f"comops: {len(rows)} rows on mpi and swcc, wrong = 0 in all, hosts, nodes, pairs and "
      f"per-host cores as expected")
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
# 3. The DSM across hosts with the delay, every block mode, and comops' own inter-node ping-pong
#    above the physical bound.
"$sim" --hosts 2 --ranks-per-host 2 --delay-us "$delay_us" -- bash -c '
  "$1" --mpiexec "$SIM_MPIEXEC" --np 4 --backend=mpi,swcc --block-size=64,4096 --uncached \
    --op=pingpong,broadcast,reduce --sizes=8,4K --np-bytes=4K -n 3 -w 1 -r 1 --pair=inter \
    --no-limits --progress=never --json "$2/delay.json" >"$2/delay-comops.txt"' _ "$comops" \
  "$work" || fail "comops across delayed hosts exited $?"
"$py" - "$work/delay.json" "$delay_us" <<'PY' || fail "the DSM or the delayed ping-pong is wrong"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
d = float(sys.argv[2])
labels = sorted({r["backend"] for r in rows})
assert labels == ["mpi", "swcc-4096", "swcc-64", "swcc-sc"], labels
assert all(r["wrong"] == 0 for r in rows), [r for r in rows if r["wrong"]]
for r in rows:
    if r["op"] == "pingpong":
        assert r["pair"] == "inter" and r["hosts"][:2] == ["simh1", "simh2"], r
        # Every iteration crosses the delayed link twice: each repetition's mean is >= 2 x D.
        assert min(r["rep_times_us"]) >= 2 * d, (r["backend"], r["rep_times_us"])
print(f"{len(rows)} rows across delayed hosts on {labels}: wrong = 0, inter round trips >= 2 x {d} us")
PY

# 4. A host dies mid-run (its ranks killed): comops run directly ends the job with one line that
#    names a lost rank of that host, exit 3, and the rows measured before stay on disk.
set +e
"$sim" --hosts 2 --ranks-per-host 2 -- bash -c '
  "$1" --mpiexec "$SIM_MPIEXEC" --np 4 --backend=mpi --op=broadcast --sizes=8,64K,1M,4M \
    -n 20 -r 200 --no-limits --progress=never --json "$2/dies.json" >"$2/dies.out" 2>"$2/dies.err" &
  comops=$!
  for _ in $(seq 600); do  # until the first row is on disk
    grep -q "\"wrong\"" "$2/dies.json" 2>/dev/null && break
    sleep 0.1
  done
  # The host dies at once: pkill signals one rank after another, and a rank still running when
  # its neighbour is gone can end first by itself (UCX aborts, SIGABRT, on a copy from the dead
  # pid), so both ranks are stopped before they are killed.
  $SIM_ENTER simh2 pkill -STOP -f -- "--json $2/dies.json"
  $SIM_ENTER simh2 pkill -KILL -f -- "--json $2/dies.json"
  wait $comops' _ "$comops" "$work"
rc=$?
set -e
[[ $rc -eq 3 ]] || fail "comops exited $rc after simh2 died, expected 3: $(cat "$work/dies.err"; grep -a '^=' "$work/dies.out")"
lines=$(grep -c '^comops:' "$work/dies.err" || true)
[[ $lines -eq 1 ]] || fail "$lines comops lines, expected 1: $(grep '^comops:' "$work/dies.err")"
grep -Eq '^comops: error: lost rank [23] \(pid [0-9]+ on host simh2\)' "$work/dies.err" ||
  fail "the line does not name a rank of simh2: $(cat "$work/dies.err"; grep -a '^=' "$work/dies.out")"
grep '^comops:' "$work/dies.err"
"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['results']; assert r and all(x['wrong']==0 for x in r); print(len(r), 'row(s) kept')" "$work/dies.json" ||
  fail "the rows measured before simh2 died are not intact"
echo "PASS"

# 5. The same with the hosts given by their addresses: every host has a PID namespace of its own,
#    so the ranks' pids repeat across hosts, and the line still names the rank (through the
#    address its host name resolves to) and the signal that killed it.
printf '10.77.0.11:2\n10.77.0.12:2\n' >"$work/by-address"
set +e
"$sim" --hosts 2 --ranks-per-host 2 -- bash -c '
  "$1" --mpiexec "mpiexec.hydra -f $2/by-address -launcher ssh -launcher-exec $SIM_LAUNCHER -iface $SIM_IFACE" \
    --np 4 --backend=mpi --op=broadcast --sizes=8,64K,1M,4M -n 20 -r 200 --no-limits \
    --progress=never --json "$2/addr.json" >"$2/addr.out" 2>"$2/addr.err" &
  comops=$!
  source "$3"
  first_row "$2/addr.json"
  $SIM_ENTER simh2 pkill -STOP -f -- "--json $2/addr.json"  # stopped, then killed: as in 4
  $SIM_ENTER simh2 pkill -KILL -f -- "--json $2/addr.json"
  wait $comops' _ "$comops" "$work" "$(dirname "${BASH_SOURCE[0]}")/bounded_job.sh"
rc=$?
set -e
[[ $rc -eq 3 ]] || fail "comops exited $rc after simh2 died (hosts by address), expected 3: $(cat "$work/addr.err")"
grep '^comops:' "$work/addr.err"
grep -Eq '^comops: error: lost rank [23] \(pid [0-9]+ on host 10\.77\.0\.12\): it (was killed by|ended with code 9, which Hydra also reports for) signal 9 \(SIGKILL\) and the launcher ended the job; the [0-9]+ rows? measured before (is|are) in the output files$' "$work/addr.err" ||
  fail "the line does not name a rank of 10.77.0.12 and SIGKILL: $(cat "$work/addr.err")"
echo "PASS (hosts by address)"
