#!/bin/sh
# Checks the swcc Murphi model with rumur: the model must verify; every seeded bug (a sed patch
# from bugs.txt) must change the model and be reported as an error.
# usage: check_model.sh MODEL.m BUGS.txt WORKDIR [only-model|only-bugs]
set -u
model=$1 bugs=$2 work=$3 what=${4:-all}
mkdir -p "$work"
cc_flags="-O1 -mcx16"  # the state spaces are small: compile time dominates

verify() {  # verify NAME FILE -> exit status of the checker (0: no error found)
  rumur --threads 2 "$2" --output "$work/$1.c" >"$work/$1.rumur.log" 2>&1 || { echo "rumur failed on $1"; cat "$work/$1.rumur.log"; return 99; }
  cc $cc_flags -o "$work/$1" "$work/$1.c" -lpthread -latomic || return 99
  "$work/$1" >"$work/$1.out" 2>&1
}

status=0
if [ "$what" != only-bugs ]; then
  if verify model "$model"; then
    echo "model: verified ($(grep -m1 -E '[0-9]+ states,' "$work/model.out" | sed 's/^[[:space:]]*//'))"
  else echo "model: FAILED"; tail -30 "$work/model.out"; status=1; fi
fi
if [ "$what" != only-model ]; then
  grep -v '^#' "$bugs" | grep -v '^$' | while IFS='|' read -r name expr; do
    sed "$expr" "$model" >"$work/$name.m"
    if cmp -s "$model" "$work/$name.m"; then echo "bug $name: patch did not apply"; exit 1; fi
    verify "$name" "$work/$name.m"
    rc=$?
    if [ $rc -eq 0 ]; then echo "bug $name: NOT caught"; exit 1; fi
    if [ $rc -eq 99 ]; then exit 1; fi
    if ! grep -q 'error(s) found' "$work/$name.out"; then
      echo "bug $name: the checker stopped without a verdict (exit $rc)"; tail -5 "$work/$name.out"; exit 1
    fi
    why=$(awk '/error trace for the error:/ { f = 1; next } f && NF { print; exit }
               /liveness property .* violated/ { print; exit }' "$work/$name.out")
    echo "bug $name: caught ($(echo "$why" | sed 's/^[[:space:]]*//; s/:$//'))"
  done || status=1
fi
exit $status
