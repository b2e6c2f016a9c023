#!/usr/bin/env bash
# Regenerates this folder's figures from its rounds (results/ab/placement/README.md):
#   bash results/ab/placement/analyze.sh [RAW_DIR]
# RAW_DIR (the run files of results/ab/measure.sh, not kept: 90 MB) is compacted into
# rounds.json.gz first when given. Then the gate's jobs at CI's settings on these rounds and on
# results/ab/idle's (re-judged with each run's start probe), and the signals table.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=results/ab/placement
power=(/usr/bin/python3 scripts/ab_seq_power.py)
if (($#)); then "${power[@]}" compact "$1" "$here/rounds.json.gz"; fi
"${power[@]}" analyze "$here/rounds.json.gz" --out "$here/power.json"
"${power[@]}" from-run-probe results/ab/idle/rounds.json.gz results/ab/idle/cacheline_rtt.json \
  "$here/idle-rounds.json.gz"
"${power[@]}" analyze "$here/idle-rounds.json.gz" --out "$here/idle-power.json"
"${power[@]}" signals "$here/rounds.json.gz" >"$here/signals.md"
