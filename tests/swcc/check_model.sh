#!/bin/sh
# Checks the swcc Murphi model with rumur: the model must verify, every one of its cover
# properties (one per branch of every rule) must be reached, or the check fails naming each
# branch never reached; every seeded bug (a sed patch from bugs.txt) must change the model and be
# caught by the property bugs.txt names for it, not merely by some error (the format is described
# at the top of bugs.txt).
# usage: check_model.sh MODEL.m BUGS.txt WORKDIR [all|only-model|only-bugs] [NAME=VALUE...]
# NAME=VALUE: check the model with its constant NAME (a line "  NAME: N;") set to VALUE, e.g.
# NPROC=3 NETMAX=7 for three caches; the seeded bugs use the same.
# environment: RUMUR (default rumur), CC (default cc). Exit 77 (a skip for ctest) when rumur is
# not installed.
set -u
model=$1 bugs=$2 work=$3 what=${4:-all}
shift 3; [ $# -gt 0 ] && shift
rumur=${RUMUR:-rumur}
cc=${CC:-cc}
if ! command -v "$rumur" >/dev/null 2>&1; then
  case $rumur in
    *-NOTFOUND) echo "rumur is not installed: apt-get install rumur (then configure again)" ;;
    *) echo "rumur is not installed: apt-get install rumur ('$rumur' is not a program)" ;;
  esac
  exit 77
fi
mkdir -p "$work"
if [ $# -gt 0 ]; then  # the model with its constants set, as a copy in WORKDIR
  cp "$model" "$work/variant.m"
  for set in "$@"; do
    name=${set%%=*} value=${set#*=}
    case $name:$value in
      *[!A-Z_]*:*|:*|*:|*:*[!0-9]*)
        echo "check_model.sh: want NAME=VALUE (a constant, a number), not '$set'"; exit 2 ;;
    esac
    if ! grep -q "^  $name: [0-9]*;" "$work/variant.m"; then
      echo "check_model.sh: $model has no line '  $name: N;' to set"; exit 2
    fi
    sed -i "s/^  $name: [0-9]*;/  $name: $value;/" "$work/variant.m"
  done
  model=$work/variant.m
fi
cc_flags="-O1 -mcx16"  # the state spaces are small: compile time dominates

verify() {  # verify NAME FILE THREADS -> exit status of the checker (0: no error found)
  "$rumur" --threads "$3" "$2" --output "$work/$1.c" >"$work/$1.rumur.log" 2>&1 || { echo "rumur failed on $1"; cat "$work/$1.rumur.log"; return 99; }
  "$cc" $cc_flags -o "$work/$1" "$work/$1.c" -lpthread -latomic || return 99
  "$work/$1" >"$work/$1.out" 2>&1
}

# fired OUT: the properties the checker reported as violated, one a line, in bugs.txt's notation:
# the first safety error (the checker stops there), and once the state space is explored every
# violated liveness property and every cover never hit ("cover NAME").
fired() {
  awk '
    function strip(m, pre, post) { sub(pre, "", m); sub(post, "", m); return m }
    function emit(m) {
      sub(/^[ \t]+/, "", m); sub(/[ \t:]+$/, "", m)
      if (m ~ /^invariant ".*" failed$/)
        print "invariant " strip(m, "^invariant \"", "\" failed$")
      else if (m ~ /^liveness property ".*" violated$/)
        print "liveness " strip(m, "^liveness property \"", "\" violated$")
      else if (m ~ /^Assertion failed: .*:[0-9][0-9.-]*: /)
        print "assert " strip(m, "^Assertion failed: .*:[0-9][0-9.-]*: ", "^$")
      else if (m == "deadlock") print "deadlock"
      else print "error " m
    }
    /error trace for the error:/ { f = 1; next }
    f && NF { emit($0); f = 0; next }
    /^[ \t]*liveness property ".*" violated:?$/ { emit($0) }
    /^[ \t]*cover ".*" not hit$/ { m = $0; sub(/^[ \t]*cover "/, "", m); sub(/" not hit$/, "", m)
                                  print "cover " m }
  ' "$1"
}

status=0
if [ "$what" != only-bugs ]; then
  verify model "$model" 2
  rc=$?
  covers=$(grep -c -E '^[[:space:]]*cover ".*" hit [0-9]+ times$' "$work/model.out")
  if [ $rc -eq 0 ] && [ "$covers" -gt 0 ]; then
    echo "model: verified, $covers branches reached" \
         "($(grep -m1 -E '[0-9]+ states,' "$work/model.out" | sed 's/^[[:space:]]*//'))"
  elif [ $rc -eq 0 ]; then
    echo "model: FAILED: no cover property reported (every branch must have one)"; status=1
  else
    echo "model: FAILED"
    fired "$work/model.out" | sed -n -e 's/^cover /  branch never reached: /p' -e t -e 's/^/  fired: /p'
    grep -v -E '^[[:space:]]*cover ".*" hit [0-9]+ times$' "$work/model.out" | tail -30
    status=1
  fi
fi
if [ "$what" != only-model ]; then
  # One thread: the breadth-first search, hence the first error found, is deterministic.
  grep -v -e '^#' -e '^[[:space:]]*$' "$bugs" | {
    failed=0
    while IFS='|' read -r name expect expr; do
      if [ -z "$name" ] || [ -z "$expect" ] || [ -z "$expr" ]; then
        echo "bugs.txt: malformed line (want name|property|sed expression): $name|$expect|$expr"
        failed=1; continue
      fi
      case $expect in
        "invariant "?*|"liveness "?*|"assert "?*|"error "?*|"cover "?*|deadlock) ;;
        *) echo "bug $name: unknown property '$expect' (invariant NAME, liveness NAME," \
                "assert TEXT, error TEXT, cover NAME or deadlock)"
           failed=1; continue ;;
      esac
      sed "$expr" "$model" >"$work/$name.m"
      if cmp -s "$model" "$work/$name.m"; then
        echo "bug $name: patch did not apply"; failed=1; continue
      fi
      verify "$name" "$work/$name.m" 1
      rc=$?
      if [ $rc -eq 99 ]; then failed=1; continue; fi
      if [ $rc -eq 0 ]; then
        echo "bug $name: NOT caught: expected $expect to fire, but the model passed"
        failed=1; continue
      fi
      if ! grep -q 'error(s) found' "$work/$name.out"; then
        echo "bug $name: the checker stopped without a verdict (exit $rc)"
        tail -5 "$work/$name.out"; failed=1; continue
      fi
      got=$(fired "$work/$name.out")
      [ -n "$got" ] || got="(nothing recognised in $work/$name.out)"
      if printf '%s\n' "$got" | grep -qxF -- "$expect"; then
        echo "bug $name: caught by $expect"
      else
        got=$(printf '%s\n' "$got" | paste -sd ';' - | sed 's/;/; /g')
        echo "bug $name: caught by the WRONG property: expected $expect, but fired: $got"
        echo "  (see $work/$name.out)"
        failed=1
      fi
    done
    exit $failed
  } || status=1
fi
exit $status
