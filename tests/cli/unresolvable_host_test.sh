#!/usr/bin/env bash
# comops run directly on a machine whose own host name does not resolve (a fresh machine whose
# /etc/hosts lacks its name), for a job on two hosts: one line naming the host and the /etc/hosts
# line to add, exit 3, at once; never Hydra's "unable to get host address" and a hang. A job on
# this machine alone still runs (Hydra needs no host name for it). As root, in private UTS and mount
# namespaces: a host name of its own, and an nsswitch.conf that looks only at /etc/hosts, so
# that nothing is asked of a name server.
# Usage: unresolvable_host_test.sh COMOPS [MPI]   (MPI: mpich, the default, or openmpi; exit 77 =
#        skipped: needs root for the namespaces, and MPICH: Open MPI's launcher needs no host name)
set -euo pipefail
comops=$(realpath "$1")
skip() { echo "SKIP: $*"; exit 77; }
[[ ${2:-mpich} == mpich ]] || skip "Open MPI's mpiexec starts local ranks without resolving the host name"
[[ $(id -u) == 0 ]] || skip "a private host name and /etc/nsswitch.conf need root"
unshare -m -u true 2>/dev/null || skip "cannot make mount and UTS namespaces here"
work=$(mktemp -d /tmp/comops-unresolvable.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "hosts: files" >"$work/nsswitch.conf"

here=$(cd "$(dirname "$0")" && pwd)
unshare -m -u bash -s "$comops" "$work" "$here" <<'INNER'
set -uo pipefail
comops=$1 work=$2 here=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
name=comops-unresolvable-$$
mount --bind "$work/nsswitch.conf" /etc/nsswitch.conf || exit 77
hostname "$name" || exit 77
getent hosts "$name" >/dev/null && fail "$name resolves here"
# MPI processes on two hosts (the cli tests' two made-up hosts through the local launcher): their
# proxies connect back by this machine's name. Then the same job on this machine alone, which
# Hydra starts without the name.
printf 'nodea:1\nnodeb:1\n' >"$work/hosts"
launcher="mpiexec -f $work/hosts -launcher ssh -launcher-exec $here/local_launcher.sh"
timeout -s KILL 60 "$comops" --mpiexec "$launcher" --backend=mpi --np=2 -n 5 -w 1 -r 2 \
  --no-limits --progress=never </dev/null >"$work/out" 2>"$work/err"
code=$?
[[ $code == 3 ]] || fail "exit $code, expected 3; stderr: $(cat "$work/err")"
[[ $(wc -l <"$work/err") == 1 ]] || fail "stderr is not one line: $(cat "$work/err")"
expected="comops: error: this machine's host name '$name' does not resolve"
grep -q "^$expected (.*), and MPICH's launcher .*mpiexec.* needs it for a job on hosts: add a line such as '127.0.1.1 $name' to /etc/hosts$" \
  "$work/err" || fail "unexpected message: $(cat "$work/err")"
timeout -s KILL 60 "$comops" --backend=mpi --np=2 -n 5 -w 1 -r 2 --no-limits --progress=never \
  </dev/null >"$work/out" 2>"$work/err" || fail "the job on this machine alone failed: $(cat "$work/err")"
grep -Eq '^ +mpi +pingpong +2 ' "$work/out" || fail "the job on this machine alone printed no pingpong table"
echo "PASS: two hosts: exit 3 and one line; this machine alone: ran"
INNER
