#!/usr/bin/env bash
# ctest: the hybrid backend on 2 simulated hosts x 2 ranks (scripts/sim_cluster.sh) beside flat
# mpi: exact rows spanning both nodes; then, with a one-way delay D on each host's egress, the
# physical lower bounds its times must respect. No timing thresholds.
# Usage: hybrid_cluster_test.sh SIM_CLUSTER_SH COMOPS. Exit 77 = skipped (reason printed).
set -euo pipefail
sim=$1 comops=$2
delay_us=25  # one-way delay of the second run

# shellcheck source=sim_prereqs.sh
source "$(dirname "${BASH_SOURCE[0]}")/sim_prereqs.sh"
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ops=broadcast,reduce-max,allreduce-max,gather,scatter,barrier,pingpong

# 1. Every hybrid op exact across the hosts at np 4 (one leader per host), rows labelled hybrid
#    beside mpi's, spanning both nodes; the ping-pong at both pairs.
"$sim" --hosts 2 --ranks-per-host 2 -- bash -c '
  $SIM_MPIEXEC -n 4 "$1" --backend=mpi,hybrid --op="$3" --sizes=8,24,64K --np=4 \
    --np-bytes=8K -n 5 -w 1 -r 2 --pair=both --no-limits --progress=never \
    --json "$2/run.json" >"$2/comops.txt"
' _ "$comops" "$work" "$ops" || fail "sim_cluster.sh run 1 exited $? (comops failed)"
"$py" - "$work/run.json" "$ops" <<'PY' || fail "the hybrid rows are not as expected"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["results"]
ops = sys.argv[2].split(",")
seen = {(r["backend"], r["op"]) for r in rows}
want = {(b, o) for b in ("mpi", "hybrid") for o in ops}
assert seen == want, f"rows: missing {sorted(want - seen)}, extra {sorted(seen - want)}"
wrong = [(r["backend"], r["op"], r["bytes"], r["wrong"]) for r in rows if r["wrong"] != 0]
assert not wrong, f"wrong elements: {wrong}"
for r in rows:
    if r["backend"] != "hybrid":
        continue
    if "pair" in r:
        assert r["nodes"] == (1 if r["pair"] == "intra" else 2), r
    else:
        assert r["np"] == 4 and r["nodes"] == 2, r
        assert r["hosts"] == ["simh1", "simh1", "simh2", "simh2"], r
facts = doc["context"]["backends"]["hybrid"]
assert facts["node_size"] == 0 and facts["levels"].startswith("two:"), facts
print(f"hybrid beside mpi on 2 hosts: {len(rows)} rows, wrong = 0, hybrid rows span 2 nodes")
PY

# 2. With a one-way delay D, the ops that must cross the link both ways in every call:
#    - barrier: each barrier needs a message from the other host sent after that host entered it,
#      so a rank leaves barrier i + 2 no sooner than 2 x D after it entered barrier i + 1: 2k
#      back-to-back barriers take at least 2k x D, the headline time per call >= D;
#    - allreduce: host 1's leader ends call k only with host 2's part of call k, which host 2
#      sends after it ended call k - 1, which needed host 1's part of call k - 1: call k ends at
#      least 2 x D after call k - 1 began on host 1, so an even number n of back-to-back calls
#      (-n 4) takes host 1's leader at least n x D: the time per call (max over ranks) >= D;
#    - the inter-host ping-pong's round trip >= 2 x D.
#    A one-way op (broadcast) has no such bound per call when its calls stream back to back (the
#    calls overlap on the link); its rows must be exact.
"$sim" --hosts 2 --ranks-per-host 2 --delay-us "$delay_us" -- bash -c '
  "$1" --mpiexec "$SIM_MPIEXEC" --np 4 --backend=hybrid --op=barrier,allreduce-max,broadcast,pingpong \
    --sizes=8,4K --np-bytes=4K -n 4 -w 1 -r 2 --pair=inter --no-limits \
    --progress=never --json "$2/delay.json" >"$2/delay-comops.txt"' _ "$comops" "$work" ||
  fail "comops across delayed hosts exited $?"
"$py" - "$work/delay.json" "$delay_us" <<'PY' || fail "a hybrid time is below its physical bound"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
d = float(sys.argv[2])
assert {r["op"] for r in rows} == {"barrier", "allreduce-max", "broadcast", "pingpong"}, rows
assert all(r["wrong"] == 0 and r["backend"] == "hybrid" for r in rows), rows
for r in rows:
    if r["op"] in ("barrier", "allreduce-max"):
        assert r["iterations"] % 2 == 0, r  # the allreduce bound holds for an even count
        assert r["np"] == 4 and r["nodes"] == 2, r
        assert r["time_us"]["max"] >= d and min(r["rep_times_us"]) >= d, (d, r)
    elif r["op"] == "pingpong":
        assert r["pair"] == "inter" and min(r["rep_times_us"]) >= 2 * d, (d, r)
    else:
        assert r["np"] == 4 and r["nodes"] == 2, r
shown = {r["op"]: r["time_us"]["max"] for r in rows if r["bytes"] in (0, 8)}
print(f"across delayed hosts: barrier and allreduce per call >= {d} us, inter round trip >= {2 * d} us: {shown}")
PY
echo "PASS"
