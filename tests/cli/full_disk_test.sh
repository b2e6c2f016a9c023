#!/usr/bin/env bash
# -o DIR on a 64 KiB tmpfs (a private mount namespace, as root): the disk fills mid-run; comops
# ends with exit 3 and one line naming the file, leaves no temporary file, and every file it
# kept is complete (results.json parses, its rows are a prefix of the CSV's).
# Usage: full_disk_test.sh COMOPS      (exit 77 = skipped: needs root for the mount)
set -euo pipefail
comops=$(realpath "$1")
skip() { echo "SKIP: $*"; exit 77; }
[[ $(id -u) == 0 ]] || skip "mounting a small tmpfs needs root"
unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
work=$(mktemp -d /tmp/comops-full-disk.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/disk"

# Inside the namespace: mount, run (bounded: a hang fails), then check before the mount goes.
unshare -m bash -s "$comops" "$work" <<'INNER'
set -uo pipefail
comops=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
mount -t tmpfs -o size=64k comops-test "$work/disk" || exit 77
timeout -s KILL 120 "$comops" --backend=mpi,shm --op=broadcast,gather --sizes=8,1K,8K,64K \
  --np=2 -n 5 -w 1 -r 3 --no-limits --progress=never -o "$work/disk/out" \
  </dev/null >"$work/stdout" 2>"$work/stderr"
code=$?
[[ $code == 3 ]] || fail "exit $code, expected 3; stderr: $(cat "$work/stderr")"
[[ $(wc -l <"$work/stderr") == 1 ]] || fail "stderr is not one line: $(cat "$work/stderr")"
grep -Eq "^comops: error: cannot write $work/disk/out/(results.json|gbench.json|results.csv|table.txt): No space left on device$" \
  "$work/stderr" || fail "unexpected message: $(cat "$work/stderr")"
leftover=$(find "$work/disk" -name '*.tmp*')
[[ -z $leftover ]] || fail "temporary files left: $leftover"
/usr/bin/python3 - "$work/disk/out" <<'PY' || exit 1
import csv, json, sys
out = sys.argv[1]
doc = json.load(open(f"{out}/results.json"))
rows = doc["results"]
assert rows, "results.json holds no row"
assert all(r["wrong"] == 0 for r in rows), "a kept row is wrong"
table = list(csv.DictReader(open(f"{out}/results.csv")))
keys = [(r["backend"], r["op"], int(r["np"]), int(r["bytes"])) for r in rows]
csv_keys = [(r["backend"], r["op"], int(r["np"]), int(r["bytes"])) for r in table]
assert csv_keys[: len(keys)] == keys, f"json rows {keys} are not a prefix of the csv's {csv_keys}"
print(f"kept {len(rows)} json rows and {len(table)} csv rows")
PY
INNER
