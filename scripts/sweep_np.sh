#!/usr/bin/env bash
# Sweeps the participant count (np) for every backend in one comops run and writes
# results/np-sweep-<host>-<date>/ (results.json, results.csv, table.txt, gbench.json).
set -euo pipefail

prog=sweep_np.sh
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  cat <<EOF
Usage: scripts/$prog [options] [MAX_NP] [-- COMOPS_ARGS...]

Runs comops once over np = MIN_NP..MAX_NP for every backend at one message size (the COMOPS
time-versus-nprocs figures), under mpiexec -n MAX_NP so the MPI backends have enough ranks:

  \$MPIEXEC -n MAX_NP \$COMOPS --backend=BACKENDS --np=MIN_NP,...,MAX_NP --sizes=SIZES \\
      [--op=OPS] [-n ITERS] [-r REPS] --output-dir OUT_DIR [COMOPS_ARGS...]

  MAX_NP              largest participant count (default 16; np above the core count is run
                      and flagged oversubscribed)
  --min-np N          smallest participant count (default 2)
  --sizes LIST        message sizes, comops syntax (default 800K = 819200 bytes, the paper's)
  --backend LIST      backends (default all)
  --op LIST           ops (default: comops' own default)
  -n ITERS            timed iterations per repetition (default: comops' own)
  -r REPS             repetitions per point (default: comops' own)
  -o, --output-dir D  output directory (default results/np-sweep-<host>-<YYYY-MM-DD> in the
                      repository); refused if it exists and is not empty, unless --force
  --force             write into an existing, non-empty output directory
  --dry-run           print the command and exit without running it
  -h, --help          this text
  -- ARGS             passed to comops unchanged

Environment:
  COMOPS    the comops binary (default: $repo/build/comops)
  MPIEXEC   the MPI launcher (default: mpiexec); MPIEXEC=none runs comops without a launcher

Then plot it:  /usr/bin/python3 scripts/plot.py OUT_DIR/results.json
Exit status: comops' own (1: wrong results, 2: usage, 3: runtime); 2 for a usage error here.
EOF
}

die() {
  echo "$prog: $*" >&2
  exit 2
}

is_count() { [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 >= 1)); }

min_np=2
max_np=16
sizes=800K
backend=all
ops=""
iters=""
reps=""
out_dir=""
force=0
dry_run=0
extra=()
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --min-np) (($# >= 2)) || die "--min-np needs a value"; min_np=$2; shift 2 ;;
    --min-np=*) min_np=${1#*=}; shift ;;
    --sizes) (($# >= 2)) || die "--sizes needs a value"; sizes=$2; shift 2 ;;
    --sizes=*) sizes=${1#*=}; shift ;;
    --backend) (($# >= 2)) || die "--backend needs a value"; backend=$2; shift 2 ;;
    --backend=*) backend=${1#*=}; shift ;;
    --op) (($# >= 2)) || die "--op needs a value"; ops=$2; shift 2 ;;
    --op=*) ops=${1#*=}; shift ;;
    -n) (($# >= 2)) || die "-n needs a value"; iters=$2; shift 2 ;;
    -r) (($# >= 2)) || die "-r needs a value"; reps=$2; shift 2 ;;
    -o | --output-dir) (($# >= 2)) || die "$1 needs a value"; out_dir=$2; shift 2 ;;
    --output-dir=*) out_dir=${1#*=}; shift ;;
    --force) force=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    --) shift; extra=("$@"); break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) max_np=$1; shift ;;
  esac
done

is_count "$max_np" || die "MAX_NP must be a positive integer, not '$max_np'"
is_count "$min_np" || die "--min-np must be a positive integer, not '$min_np'"
min_np=$((10#$min_np))
max_np=$((10#$max_np))
((min_np <= max_np)) || die "--min-np $min_np is above MAX_NP $max_np"
[[ -z $iters ]] || is_count "$iters" || die "-n must be a positive integer, not '$iters'"
[[ -z $reps ]] || is_count "$reps" || die "-r must be a positive integer, not '$reps'"
[[ -n $sizes && -n $backend ]] || die "--sizes and --backend must not be empty"

comops=${COMOPS:-$repo/build/comops}
mpiexec=${MPIEXEC:-mpiexec}
if ((!dry_run)); then
  [[ -x $comops ]] || die "comops binary not found or not executable: $comops" \
    "(build it: cmake -B build && cmake --build build; or set COMOPS=/path/to/comops)"
  if [[ $mpiexec != none ]]; then
    command -v "$mpiexec" >/dev/null || die "MPI launcher '$mpiexec' not found" \
      "(install MPICH, set MPIEXEC=/path/to/mpiexec, or MPIEXEC=none)"
  fi
fi

host=$(hostname -s 2>/dev/null || hostname)
out_dir=${out_dir:-$repo/results/np-sweep-$host-$(date +%Y-%m-%d)}
[[ ! -e $out_dir || -d $out_dir ]] || die "$out_dir exists and is not a directory"
if [[ -d $out_dir && -n $(ls -A "$out_dir") ]] && ((!force)); then
  die "$out_dir exists and is not empty (use --force, or -o another directory)"
fi

np_list=$(seq -s, "$min_np" "$max_np")
cmd=()
[[ $mpiexec == none ]] || cmd+=("$mpiexec" -n "$max_np")
cmd+=("$comops" "--backend=$backend" "--np=$np_list" "--sizes=$sizes")
[[ -z $ops ]] || cmd+=("--op=$ops")
[[ -z $iters ]] || cmd+=(-n "$iters")
[[ -z $reps ]] || cmd+=(-r "$reps")
cmd+=(--output-dir "$out_dir")
if ((force)); then cmd+=(--force); fi  # comops refuses a non-empty directory too
cmd+=("${extra[@]+"${extra[@]}"}")

echo "$prog: ${cmd[*]}"
((!dry_run)) || exit 0
mkdir -p "$out_dir" || die "cannot create $out_dir"
status=0
"${cmd[@]}" || status=$?
echo "$prog: comops exited with $status; files in $out_dir:"
find "$out_dir" -maxdepth 1 -type f -printf '  %f\n' | sort
exit "$status"
