# Sourced by the fault tests (bash), also inside the simulated hosts' head: waiting for a job's
# first row and for its end, each in bounded time.

# first_row JSON: waits up to 60 s until the JSON document JSON holds a result row; 1 if none came.
first_row() {
  local _
  for _ in $(seq 600); do
    /usr/bin/python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["results"] else 1)' \
      "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# end_within PID SECONDS NOTE: waits for background job PID to end by itself within SECONDS; past
# them, writes why into the file NOTE and kills it. Returns the job's exit status (wait).
end_within() {
  local pid=$1 bound=$2 note=$3 begin
  begin=$(date +%s)
  while kill -0 "$pid" 2>/dev/null && (( $(date +%s) - begin < bound )); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "the job still ran $bound s later" >"$note"
    kill -9 "$pid"
  fi
  wait "$pid"
}

# rows_intact DIR: every output file of comops -o DIR holds the same rows, none wrong, and
# table.txt says the run had not finished; prints the count. 1 (with the reason) otherwise.
rows_intact() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, json, sys
out = sys.argv[1]
rows = json.load(open(f"{out}/results.json"))["results"]
assert rows and all(r["wrong"] == 0 for r in rows), rows
assert len(list(csv.DictReader(open(f"{out}/results.csv")))) == len(rows)
assert len(json.load(open(f"{out}/gbench.json"))["benchmarks"]) >= len(rows)
first = open(f"{out}/table.txt").read().splitlines()[0]
assert first == f"comops: the run had not finished when this was written: {len(rows)} point(s) so far", first
print(f"{len(rows)} row(s) intact in results.json, results.csv, gbench.json and table.txt")
PY
}
