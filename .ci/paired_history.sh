#!/usr/bin/env bash
# The paired history, report-only: the A/B gate's verdict of this commit against its parent
# (build/ab/ab.json) kept as one entry in results/history/paired/ (track.py paired archive; commit
# the new file to keep it), then the history checked (track.py paired check): every step at its
# commit, the chain's breaks, each point's level since the chain's start. On the measured rounds
# a 10 % step of one point is reported at its commit in most simulated histories
# (results/tracking/paired). Never fails the CI run: the gate before it is what fails.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== the paired history (report-only) over results/history/paired =="
verdict=build/ab/ab.json
head_run=build/ab/rounds/head-001.json
if [[ ! -s $verdict || ! -s $head_run ]]; then
  echo "(no $verdict or no $head_run: the gate judged no round; nothing to keep)"
  exit 0
fi
paired_history() {
  mkdir -p results/history/paired &&
    /usr/bin/python3 scripts/track.py paired archive "$verdict" --head-run "$head_run" \
      --dir results/history/paired &&
    /usr/bin/python3 scripts/track.py paired check --dir results/history/paired --report-only
}
paired_history || echo "(the paired history failed with status $?; ignored: CI does not fail on it)"
