#!/usr/bin/env bash
# The A/B job: builds a base and a head of comops, runs the CI sweep on each in rounds, base and
# head alternating, and judges every point on the paired rounds: sequentially, pairing runs in
# the same placement mode, until every point is decided or the time is up (scripts/ab_gate.py,
# the default), or after a fixed number of rounds (scripts/ab_judge.py).
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/ab_job.sh [--base REV] [--head REV] [--gate] [--out DIR] [options]

Compares two builds of comops on this machine in one job, as Pinpoint and asv continuous do:
  1. builds the base (a git worktree of REV in a temporary folder, removed afterwards, also on
     failure) and the head (the working tree in --head-build, or a worktree of --head REV), only
     the comops target, with ccache when it is installed;
  2. runs the sweep on each build in rounds, interleaved (ABBA): round k runs base then head when
     k is odd, head then base when k is even, each run's results in
     DIR/rounds/{base,head}-NNN.json;
  3. --judge sequential (the default): after every --look-every rounds asks scripts/ab_gate.py
     whether every point is decided, and stops when it is, when a point is slower, or when the
     comops runs have taken --max-seconds (or --rounds rounds are done), never before
     --min-rounds; then judges every point
     on the pairs whose two runs were in the same placement mode, with an always-valid
     confidence sequence (false alarms <= alpha per job, all points together, at every look).
     A point is slower when the sequence lies above 1 and reaches 1 + --threshold.
     --judge fixed: runs --rounds rounds and judges them with scripts/ab_judge.py (the ratio of
     medians, a permutation or sign test, Holm's adjustment), every pair used.
It prints one line per point that is slower (or changed, or not judged), then one verdict line;
DIR/ab.txt has every point, DIR/ab.json the verdict (docs/regression.md documents both).

Accepting a known slowdown: a commit between the base and the head with the trailer
  Accept-slowdown: POINT REASON
(for example "Accept-slowdown: mpi/pingpong/np:2/bytes:8 the checksum costs a pass") makes the
sequential gate report that point as accepted instead of failing; ab.json records the reason.

Options:
  --base REV          the base commit (default HEAD~1, the previous commit)
  --head REV          the head commit (default: the working tree, built in --head-build)
  --judge sequential|fixed
                      how the rounds are judged (default sequential; see above)
  --rounds K          fixed: the rounds (default 16); sequential: at most K rounds (default 400)
  --max-seconds S     sequential: stop once the comops runs have taken S seconds (default 240)
  --look-every N      sequential: rounds between two looks (default 4)
  --min-rounds N      sequential: never stop before N rounds (default 0), so that the head has
                      at least N runs to fold into the history (CI: 32; docs/regression.md)
  --threshold T       sequential: the slowdown that fails, a fraction (default 0.05: 5 %)
  --gate              exit 1 when a point is slower (fixed: changed), 4 when a point could not
                      be judged (fixed: when no point could)
  --out DIR           where the rounds, logs, ab.json and ab.txt go (default build/ab)
  --alpha A           false-alarm rate per job (default 0.01)
  --test median|sign  fixed: a point's test (ab_judge.py --test): median, the permutation test of
                      the ratio of medians (default), or sign, the exact sign test of the
                      pairs, which a machine with bimodal run-to-run noise needs (see
                      results/ab/README.md: 5 % found in 96 % of jobs at K = 300 there)
  --sweep ARGS        comops arguments of one run (default the CI sweep of .ci/tracking.sh:
                      --backend=mpi,shm --op=pingpong,broadcast,reduce --sizes=8,64K
                      --np-bytes=64K -r 5)
  --head-build DIR    build folder of the working tree (default build; configured like the
                      base's when it has no CMakeCache.txt, else only built; a folder with a
                      comops and no CMakeCache.txt is used as it is)
  --base-build DIR    use the comops already built in DIR as the base: no worktree, no build
                      (--base then only names it)
  --cmake-arg ARG     one more cmake argument of the builds this script configures (the base's,
                      --head REV's, a --head-build without CMakeCache.txt; repeatable; for
                      example -DCOMOPS_TEST_SLOWDOWN=ON)
  --head-env VAR=VAL  an environment variable of the head's runs only (repeatable; for example
                      COMOPS_TEST_SLOWDOWN=mpi:pingpong:8:0.05 with a test build)
  -h, --help          this text

Exit status: 0 the job ran (report-only: whatever the verdict); with --gate 1 a point slower
(fixed: changed), 4 a point not judged (sequential: no same-mode pair; fixed: no point judged);
2 bad usage (an unknown option, a REV that is not a commit, a malformed Accept-slowdown
trailer); 3 a build or a comops run failed (its log's tail on stderr), or the base build is
missing; 130 stopped by a signal (one line; the rounds run so far stay in DIR/rounds).
EOF
}

die() {
  echo "ab_job.sh: error: $1" >&2
  exit "${2:-2}"
}

base_ref=HEAD~1
head_ref=""
judge=sequential
rounds=""
max_seconds=240
look_every=4
min_rounds=0
threshold=0.05
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
    --judge) need $# "$1"; judge=$2; shift 2 ;;
    --rounds) need $# "$1"; rounds=$2; shift 2 ;;
    --max-seconds) need $# "$1"; max_seconds=$2; shift 2 ;;
    --look-every) need $# "$1"; look_every=$2; shift 2 ;;
    --min-rounds) need $# "$1"; min_rounds=$2; shift 2 ;;
    --threshold) need $# "$1"; threshold=$2; shift 2 ;;
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
[[ $judge == sequential || $judge == fixed ]] || die "--judge must be sequential or fixed (got $judge)"
[[ -n $rounds ]] || { [[ $judge == fixed ]] && rounds=16 || rounds=400; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer (got $rounds)"
[[ $max_seconds =~ ^[1-9][0-9]*$ ]] || die "--max-seconds must be a positive integer (got $max_seconds)"
[[ $look_every =~ ^[1-9][0-9]*$ ]] || die "--look-every must be a positive integer (got $look_every)"
[[ $min_rounds =~ ^[0-9]+$ ]] || die "--min-rounds must be a non-negative integer (got $min_rounds)"
((min_rounds <= rounds)) || die "--min-rounds $min_rounds is above --rounds $rounds"
[[ $threshold =~ ^[0-9]*\.?[0-9]+$ ]] && [[ ! $threshold =~ ^0*\.?0*$ ]] ||
  die "--threshold must be a positive fraction (got $threshold)"
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
[[ -z $base_build || -x $base_build/comops ]] ||
  die "--base-build $base_build has no comops: build the base there, or leave --base-build out" 3
# The accepted slowdowns: the Accept-slowdown trailers of the commits after the base, one
# "POINT REASON" each.
accepts=()
if [[ $judge == sequential ]]; then
  range=$base_sha..${head_sha:-HEAD}
  while IFS= read -r line; do
    [[ -z ${line//[[:space:]]/} ]] || accepts+=(--accept "$line")
  done < <(git log --format='%(trailers:key=Accept-slowdown,valueonly,unfold)' "$range")
fi

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
# The job's stderr, for the line of a signal that may come while a run's stderr goes to its log.
exec 3>&2
stopped() {
  echo "ab_job.sh: error: stopped by a signal after $((k - 1)) complete rounds; the runs so" \
    "far are in $out/rounds" >&3
  exit 130
}
k=1
trap stopped INT TERM

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
elif [[ -f $head_build/CMakeCache.txt || ! -x $head_build/comops ]]; then
  build "$repo" "$head_build" "$out/build-head.log"
fi  # else a folder with a comops and no build: used as it is
built=$((SECONDS - start))

# run SIDE ROUND: one run of the sweep with that side's build.
run() {
  local side=$1 file bin envs=()
  file=$(printf '%s/rounds/%s-%03d.json' "$out" "$side" "$2")
  if [[ $side == base ]]; then bin=$base_build/comops; else bin=$head_build/comops; envs=("${head_env[@]}"); fi
  # shellcheck disable=SC2086  # the sweep is words
  # (in a group: the shell's own "Terminated" of a run a signal ends goes to the log too)
  { env "${envs[@]}" "$bin" $sweep --progress=never --json "$file" >/dev/null; } 2>>"$out/runs.log" ||
    { tail -n 5 "$out/runs.log" >&2; die "comops ($side, round $2) failed (log: $out/runs.log)" 3; }
}

: >"$out/runs.log"
run_start=$SECONDS
gate_py=("$repo/scripts/ab_gate.py" "$out/rounds" --alpha "$alpha" --threshold "$threshold"
         "${accepts[@]}")
# The sequential judge's look: 0 the job may stop, 10 go on; anything else is the judge failing
# (a malformed trailer: 2, this job's usage error).
may_stop() {
  local status=0
  /usr/bin/python3 "${gate_py[@]}" --look || status=$?
  ((status == 2)) && die "the judge rejected its input (above)" 2
  ((status == 0 || status == 10)) || die "the judge failed (exit $status)" 3
  ((status == 0))
}
why="after $rounds rounds"
for ((k = 1; k <= rounds; k++)); do
  if ((k % 2)); then run base "$k"; run head "$k"; else run head "$k"; run base "$k"; fi
  [[ $judge == sequential ]] || continue
  ((k >= min_rounds)) || continue
  if ((SECONDS - run_start >= max_seconds)); then why="the time is up (--max-seconds $max_seconds)"; break; fi
  if ((k % look_every == 0)) && may_stop; then why="every point decided"; break; fi
done
((k > rounds)) && k=$rounds
trap 'exit 130' INT TERM
echo "ab_job.sh: base $base_name and head $head_name built in $((built)) s;" \
  "$k rounds ($((2 * k)) runs) in $((SECONDS - run_start)) s; stopped: $why" >&2

# The judge's own exit status, but its bad-input and output errors (2, 3) are this job's runtime
# errors: the files it reads are the ones this job wrote.
status=0
if [[ $judge == sequential ]]; then
  /usr/bin/python3 "${gate_py[@]}" --base-rev "$base_name" --head-rev "$head_name" --out "$out" \
    "${gate[@]}" || status=$?
else
  /usr/bin/python3 "$repo/scripts/ab_judge.py" "$out/rounds" --base-rev "$base_name" \
    --head-rev "$head_name" --alpha "$alpha" --test "$test" --out "$out" "${gate[@]}" || status=$?
fi
((status == 2 || status == 3)) && die "the judge failed (exit $status)" 3
exit "$status"
