#!/bin/sh
# The model check must fail, naming each branch never reached, when a branch of the model cannot
# be reached: check_model.sh (only-model) on a copy of the model whose caches write inside the
# WriteReply handler (safe, but the cache's write lock is then never held) must exit 1 and name
# exactly the three branches that only the write lock reaches.
# usage: check_model_unreached.sh CHECK_MODEL.sh MODEL.m WORKDIR
# environment: as check_model.sh (RUMUR, CC); exit 77 when rumur is not installed.
set -u
check=$1 model=$2 work=$3
mkdir -p "$work"
from='^        cstate\[n\] := CM; ccur\[n\] := m.cur; locked\[n\] := true;$'
to='        cstate[n] := CM; Perform(n); ccur[n] := true; want[n] := WNone;'
sed "s/$from/$to/" "$model" >"$work/unreached.m"
if cmp -s "$model" "$work/unreached.m"; then
  echo "FAIL: the patch did not apply to $model (the WriteReply case changed?)"; exit 1
fi
sh "$check" "$work/unreached.m" /dev/null "$work/check" only-model >"$work/check.log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$work/check.log"; rm -rf "$work"; exit 77; }
got=$(sed -n 's/^  branch never reached: //p' "$work/check.log" | sort)
want=$(printf '%s\n' "cache: FlushInval under the write lock, RemoteNack" \
  "cache: Flush under the write lock, RemoteNack" "cache: granted write applied" | sort)
status=0
if [ $rc -ne 1 ]; then echo "FAIL: check_model.sh exited $rc, want 1"; status=1; fi
if ! head -1 "$work/check.log" | grep -qx 'model: FAILED'; then
  echo "FAIL: the first line is not 'model: FAILED'"; status=1
fi
if [ "$got" != "$want" ]; then
  echo "FAIL: branches named:"; printf '  %s\n' "$got"; echo "want:"; printf '  %s\n' "$want"
  status=1
fi
[ $status -eq 0 ] && echo "ok: check_model.sh exited 1 naming the 3 unreached branches"
[ $status -eq 0 ] || cat "$work/check.log"
rm -rf "$work"
exit $status
