#!/usr/bin/env bash
# The A/B job: builds a base and a head of comops, runs the CI sweep K times on each, base and
# head alternating, and judges every point on the paired rounds (scripts/ab_judge.py).
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/ab_job.sh [--base REV] [--head REV] [--rounds K] [--gate] [--out DIR] [options]

Compares two builds of comops on this machine in one job, as Pinpoint and asv continuous do:
  1. builds the base (a git worktree of REV in a temporary folder, removed afterwards, also on
     failure) and the head (the working tree in --head-build, or a worktree of --head REV), only
     the comops target, with ccache when it is installed;
  2. runs the sweep K times on each build, interleaved: round k runs base then head when k is odd,
     head then base when k is even, each run's results in DIR/rounds/{base,head}-NNN.json;
  3. judges each point on the K pairs (scripts/ab_judge.py): the ratio of medians, a paired
     permutation test, Holm's adjustment over all points (false alarms <= alpha per job), the
     contended pairs left out and counted.
It prints one line per point that changed, then one verdict line; DIR/ab.txt has every point,
DIR/ab.json the verdict (docs/regression.md documents both).

Options:
  --base REV          the base commit (default HEAD~1, the previous commit)
  --head REV          the head commit (default: the working tree, built in --head-build)
  --rounds K          rounds (default 16; with 18 points at alpha 0.01 a point needs >= 12 pairs
                      to be flagged at all)
  --gate              exit 1 when a point changed, 4 when nothing could be judged
  --out DIR           where the rounds, logs, ab.json and ab.txt go (default build/ab)
  --alpha A           false-alarm rate per job (default 0.01)
  --test median|sign  a point's test (ab_judge.py --test): median, the paired permutation test of
                      the ratio of medians (default), or sign, the exact sign test of the
                      pairs, which a machine with bimodal run-to-run noise needs (see
                      results/ab/README.md: 5 % found in 96 % of jobs at K = 300 there)
  --sweep ARGS        comops arguments of one run (default the CI sweep of .ci/tracking.sh:
                      --backend=mpi,shm --op=pingpong,broadcast,reduce --sizes=8,64K
                      --np-bytes=64K -r 5)
  --head-build DIR    build folder of the working tree (default build; configured like the
                      base's when it has no CMakeCache.txt, else only built)
  --base-build DIR    use the comops already built in DIR as the base: no worktree, no build
                      (--base then only names it)
  --cmake-arg ARG     one more cmake argument of the builds this script configures (the base's,
                      --head REV's, a --head-build without CMakeCache.txt; repeatable; for
                      example -DCOMOPS_TEST_SLOWDOWN=ON)
  --head-env VAR=VAL  an environment variable of the head's runs only (repeatable; for example
                      COMOPS_TEST_SLOWDOWN=mpi:pingpong:8:0.05 with a test build)
  -h, --help          this text

Exit status: 0 the job ran (report-only: whatever the verdict); with --gate 1 a point changed,
4 no point could be judged (all contended); 2 bad usage (an unknown option, a REV that is not a
commit); 3 a build or a comops run failed (its log's tail on stderr).
EOF
}

die() {
  echo "ab_job.sh: error: $1" >&2
  exit "${2:-2}"
}

base_ref=HEAD~1
head_ref=""
rounds=16
gate=()
out=""
alpha=0.01
test=median
sweep="--backend=mpi,shm --op=pingpong,broadcast,reduce --sizes=8,64K --np-bytes=64K -r 5"
head_build=""
base_build=""
cmake_args=()
head_env=()
need() { (($1 >= 2)) || die "$2 needs a value"; }
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --base) need $# "$1"; base_ref=$2; shift 2 ;;
    --head) need $# "$1"; head_ref=$2; shift 2 ;;
    --rounds) need $# "$1"; rounds=$2; shift 2 ;;
    --gate) gate=(--gate); shift ;;
    --out) need $# "$1"; out=$2; shift 2 ;;
    --alpha) need $# "$1"; alpha=$2; shift 2 ;;
    --test) need $# "$1"; test=$2; shift 2 ;;
    --sweep) need $# "$1"; sweep=$2; shift 2 ;;
    --head-build) need $# "$1"; head_build=$2; shift 2 ;;
    --base-build) need $# "$1"; base_build=$2; shift 2 ;;
    --cmake-arg) need $# "$1"; cmake_args+=("$2"); shift 2 ;;
    --head-env)
      need $# "$1"
      [[ $2 == [A-Za-z_]*=* ]] || die "--head-env $2 is not VAR=VALUE"
      head_env+=("$2")
      shift 2
      ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer (got $rounds)"
[[ $alpha =~ ^0?\.[0-9]*[1-9][0-9]*$ ]] || die "--alpha must be a number between 0 and 1 (got $alpha)"
[[ $test == median || $test == sign ]] || die "--test must be median or sign (got $test)"
for arg in $sweep; do
  case $arg in
    --json | --json=* | -o | --output-dir | --output-dir=*) die "--sweep must not contain $arg" ;;
  esac
done

repo=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git repository"
# The folders given are the caller's (relative to where it runs); the defaults are the repository's.
out=$(realpath -m "${out:-$repo/build/ab}")
head_build=$(realpath -m "${head_build:-$repo/build}")
[[ -z $base_build ]] || base_build=$(realpath -m "$base_build")
cd "$repo"
base_sha=$(git rev-parse --verify --quiet "$base_ref^{commit}") || die "--base $base_ref is not a commit"
if [[ -n $head_ref ]]; then
  head_sha=$(git rev-parse --verify --quiet "$head_ref^{commit}") || die "--head $head_ref is not a commit"
  head_name=$(git rev-parse --short "$head_sha")
else
  head_name=$(git rev-parse --short HEAD)
  [[ -z $(git status --porcelain --untracked-files=no) ]] || head_name+="-dirty"
fi
base_name=$(git rev-parse --short "$base_sha")
[[ -z $base_build || -x $base_build/comops ]] || die "--base-build $base_build has no comops"

mkdir -p "$out/rounds" || die "cannot make $out" 3
rm -f "$out"/rounds/*.json "$out"/ab.json "$out"/ab.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/comops-ab.XXXXXX")
cleanup() {
  local tree
  for tree in "$tmp"/base "$tmp"/head; do
    [[ ! -d $tree ]] || git worktree remove --force "$tree" >/dev/null 2>&1 || true
  done
  git worktree prune >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# build SRC BUILD LOG: configures (once) and builds comops; ccache with its base folder at SRC, so
# that two trees of the same sources share cache entries wherever they lie.
build() {
  local src=$1 dir=$2 log=$3 launcher=() generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  {
    if [[ ! -f $dir/CMakeCache.txt ]]; then
      CCACHE_BASEDIR=$src cmake -S "$src" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DCOMOPS_BUILD_TESTS=OFF -DCOMOPS_BUILD_BENCH=OFF "${launcher[@]}" "${cmake_args[@]}"
    fi
    CCACHE_BASEDIR=$src cmake --build "$dir" --target comops -j "$(nproc)"
  } >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "cannot build comops in $dir (log: $log)" 3; }
}

# checkout NAME SHA: a detached worktree of SHA in $tmp/NAME.
checkout() {
  git worktree add --quiet --detach "$tmp/$1" "$2" >/dev/null 2>&1 ||
    die "cannot make a worktree of $2" 3
}

start=$SECONDS
if [[ -z $base_build ]]; then
  checkout base "$base_sha"
  base_build=$tmp/base/build
  build "$tmp/base" "$base_build" "$out/build-base.log"
fi
if [[ -n $head_ref ]]; then
  checkout head "$head_sha"
  head_build=$tmp/head/build
  build "$tmp/head" "$head_build" "$out/build-head.log"
else
  build "$repo" "$head_build" "$out/build-head.log"
fi
built=$((SECONDS - start))

# run SIDE ROUND: one run of the sweep with that side's build.
run() {
  local side=$1 file bin envs=()
  file=$(printf '%s/rounds/%s-%03d.json' "$out" "$side" "$2")
  if [[ $side == base ]]; then bin=$base_build/comops; else bin=$head_build/comops; envs=("${head_env[@]}"); fi
  # shellcheck disable=SC2086  # the sweep is words
  env "${envs[@]}" "$bin" $sweep --progress=never --json "$file" >/dev/null 2>>"$out/runs.log" ||
    { tail -n 5 "$out/runs.log" >&2; die "comops ($side, round $2) failed (log: $out/runs.log)" 3; }
}

: >"$out/runs.log"
run_start=$SECONDS
for ((k = 1; k <= rounds; k++)); do
  if ((k % 2)); then run base "$k"; run head "$k"; else run head "$k"; run base "$k"; fi
done
echo "ab_job.sh: base $base_name and head $head_name built in $((built)) s;" \
  "$rounds rounds ($((2 * rounds)) runs) in $((SECONDS - run_start)) s" >&2

# The judge's own exit status, but its bad-input and output errors (2, 3) are this job's runtime
# errors: the files it reads are the ones this job wrote.
status=0
/usr/bin/python3 "$repo/scripts/ab_judge.py" "$out/rounds" --base-rev "$base_name" \
  --head-rev "$head_name" --alpha "$alpha" --test "$test" --out "$out" "${gate[@]}" || status=$?
((status == 2 || status == 3)) && die "the judge failed (exit $status)" 3
exit "$status"
