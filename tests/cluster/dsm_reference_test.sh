#!/usr/bin/env bash
# ctest: scripts/dsm_reference.sh end to end at a tiny size, on one host and on 2 and 3 simulated
# hosts with the 25 us delay: every output file is there, every latency benchmark and SCI-VM
# result passed its checks, EM3D has no wrong row, summary.md has every table; and its refusals
# (exit 2, one line). Exact checks, no timings.
# Usage: dsm_reference_test.sh REPO BUILD_DIR. Exit 77 = skipped (reason printed).
set -euo pipefail
repo=$1 build=$2

# shellcheck source=sim_prereqs.sh
source "$(dirname "${BASH_SOURCE[0]}")/sim_prereqs.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # runs the script at a tiny size; extra NAME=VALUE environment first
  env BUILD="$build" REPS=1 LATENCY_OPTIONS="--accesses=8 --batch=8 --benchmark_filter=/(64|sc)/" \
    EM3D_OPTIONS="--em3d-nodes=40 --em3d-iters=1 --em3d-remote=10,50 --block-size=64" \
    SCIVM_OPTIONS="--sum-n=3000 --matmul-n=8" "$@" "$repo/scripts/dsm_reference.sh" "$work/out"
}

rc=0
run >"$work/log" 2>&1 || rc=$?
((rc == 0)) || { cat "$work/log"; fail "dsm_reference.sh exited $rc"; }
for part in one-host sim-hosts; do
  for np in 2 3; do
    d=$work/out/$part/latency-np$np
    for f in table.txt gbench.json ratios.json; do [[ -s $d/$f ]] || fail "$d/$f is missing"; done
    # 64 and sc: at np 3 12 cached cases + 3 sc cases, at np 2 9 + 3; read and write each.
    want=$((np == 3 ? 30 : 24))
    n=$(grep -cE '^state/[a-z_]+/(read|write)/(64|sc)/' "$d/table.txt" || true)
    ((n == want)) || fail "$d/table.txt: $n benchmarks, not $want"
    ! grep -qi 'error' "$d/table.txt" || fail "$d/table.txt: a benchmark reported an error"
  done
  grep -c '"check": "passed"' "$work/out/$part/scivm.json" | grep -qx 12 ||
    fail "$part/scivm.json: not 12 results passed"
  /usr/bin/python3 - "$work/out/$part/em3d/results.json" "$part" <<'PY' || fail "$part EM3D rows"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
want = {"mpi", "swcc-64", "swcc-sc"} | ({"shm-staged", "shm-direct"} if sys.argv[2] == "one-host" else set())
got = {(r["backend"], r["app"]["remote"]) for r in rows if r["op"] == "em3d"}
assert got == {(b, p) for b in want for p in (10, 50)}, sorted(got)
assert all(r["wrong"] == 0 for r in rows), [r["backend"] for r in rows if r["wrong"]]
PY
  [[ -s $work/out/$part/em3d/em3d-vs-remote-np2.png ]] || fail "$part: no EM3D figure"
done
for f in latency-by-state.png scivm-overhead.png summary.md; do
  [[ -s $work/out/$f ]] || fail "$f is missing"
done
for t in "### Latency by state, one host" "### Latency by state, simulated hosts, 25 us each way" \
  "### SCI-VM, one host" "### SCI-VM, simulated hosts" "### EM3D, one host" "### EM3D, simulated hosts"; do
  grep -qF "$t" "$work/out/summary.md" || fail "summary.md has no table '$t'"
done

# Refusals: an unknown part or experiment, an output path that is a file, a build without the programs.
expect_refusal() {  # MESSAGE COMMAND...
  local msg=$1 rc=0
  shift
  "$@" >"$work/o" 2>"$work/e" || rc=$?
  ((rc == 2)) || fail "$*: exit $rc, not 2"
  [[ $(wc -l <"$work/e") -eq 1 ]] && grep -qF "$msg" "$work/e" || fail "$*: stderr: $(cat "$work/e")"
}
expect_refusal "dsm_reference.sh: unknown part 'cloud' in PARTS" run PARTS="one-host cloud"
expect_refusal "dsm_reference.sh: unknown experiment 'pingpong' in EXPERIMENTS" \
  run EXPERIMENTS="latency pingpong"
touch "$work/file"
expect_refusal "dsm_reference.sh: $work/file exists and is not a directory" \
  env BUILD="$build" "$repo/scripts/dsm_reference.sh" "$work/file"
expect_refusal "dsm_reference.sh: $work/nobuild/comops is missing" \
  env BUILD="$work/nobuild" "$repo/scripts/dsm_reference.sh" "$work/out2"
echo "dsm_reference.sh: all checks passed"
