#!/usr/bin/env bash
# Finds the commit that made comops slower: git bisect run between GOOD and BAD, each commit
# built in its own build directory and measured several times, judged against GOOD's runs.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/bisect.sh [--runs N] GOOD BAD -- COMOPS_ARGS...

Finds the first commit between GOOD (fast) and BAD (slow) at which comops got slower.
It works in a temporary git worktree (your checkout and its bisect state are left alone):
  1. builds GOOD and BAD (each commit in its own build directory) and runs
     `BUILD/comops COMOPS_ARGS --json RUN.json` N times at each;
  2. keeps the points where BAD is significantly slower than GOOD (two-sample energy test on the
     run medians, a permutation test: noise-aware, no fixed ratio); none: exit 1;
  3. runs `git bisect run` with a step that builds the commit (build failure: exit 125, skip),
     runs comops N times (failure: skip) and calls it bad when most of those points are
     significantly slower than GOOD's runs, good otherwise (scripts/bisect_judge.py);
  4. prints git bisect's verdict ("<sha> is the first bad commit") and the bisect log.

Options:
  --runs N     comops runs per commit (default 6, at least 5: with n runs on each side the
               smallest p-value of the test is 2 / C(2n, n), 0.002 at 6); add -r 10 to
               COMOPS_ARGS for a steadier median per run
  -h, --help   this text
COMOPS_ARGS must not contain --json, -o or --output-dir (bisect.sh writes its own files).

Environment:
  BISECT_BUILD   build command run in the commit's source tree with $BUILD_DIR set; it must
                 leave $BUILD_DIR/comops (default: cmake -S . -B "$BUILD_DIR"
                 -DCMAKE_BUILD_TYPE=Release && cmake --build "$BUILD_DIR" --target comops -j NPROC)
  BISECT_ALPHA   significance of "slower" (default 0.01)
  BISECT_KEEP    a directory to keep the runs and build logs in (default: removed at the end)
  PYTHON         interpreter of the judge (default /usr/bin/python3)

Exit status: 0 git bisect named the first bad commit; 1 BAD is not slower than GOOD, or the
bisection ended without a single first bad commit (skipped commits); 2 bad usage; 3 GOOD or BAD
cannot be built or run.
EOF
}

die() { echo "bisect.sh: error: $1" >&2; exit "${2:-2}"; }

runs=6
refs=()
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --runs) (($# >= 2)) || die "--runs needs a value"; runs=$2; shift 2 ;;
    --runs=*) runs=${1#--runs=}; shift ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) refs+=("$1"); shift ;;
  esac
done
((${#refs[@]} == 2)) || die "usage: scripts/bisect.sh [--runs N] GOOD BAD -- COMOPS_ARGS..."
[[ $runs =~ ^[1-9][0-9]*$ ]] && ((runs >= 5)) || die "--runs must be an integer >= 5 (got $runs)"
good_ref=${refs[0]} bad_ref=${refs[1]}
for arg in "$@"; do
  case $arg in
    --json | --json=* | -o | --output-dir | --output-dir=*) die "COMOPS_ARGS must not contain $arg" ;;
  esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git repository"
good=$(git -C "$repo" rev-parse --verify --quiet "$good_ref^{commit}") || die "GOOD $good_ref is not a commit"
bad=$(git -C "$repo" rev-parse --verify --quiet "$bad_ref^{commit}") || die "BAD $bad_ref is not a commit"
git -C "$repo" merge-base --is-ancestor "$good" "$bad" || die "GOOD $good_ref is not an ancestor of BAD $bad_ref"

work=$(mktemp -d "${TMPDIR:-/tmp}/comops-bisect.XXXXXX")
cleanup() {
  git -C "$repo" worktree remove --force "$work/src" >/dev/null 2>&1 || true
  if [[ -n ${BISECT_KEEP:-} ]]; then
    mkdir -p "$BISECT_KEEP" && cp -r "$work/runs" "$work/logs" "$BISECT_KEEP/" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/tools" "$work/runs" "$work/logs"
# The judge and its modules come from this checkout: older commits may not have them.
cp "$here/bisect_judge.py" "$here/changepoint.py" "$here/comops_results.py" "$work/tools/"
printf '%q ' "$@" >"$work/tools/args"
git -C "$repo" worktree add --detach "$work/src" "$good" >/dev/null 2>&1 || die "cannot create a worktree" 3

# The step git bisect runs at each commit, also used for GOOD and BAD (mode "measure").
cat >"$work/tools/step.sh" <<'STEP'
#!/usr/bin/env bash
# step.sh measure NAME | step.sh judge: build HEAD of the bisect worktree, run comops N times.
set -uo pipefail
work=$BISECT_WORK
sha=$(git rev-parse --short=12 HEAD)
name=${2:-$sha}
export BUILD_DIR=$work/build-$sha
echo "== $name ($sha): build" >&2
if [[ -n ${BISECT_BUILD:-} ]]; then
  bash -c "$BISECT_BUILD" >"$work/logs/build-$sha.log" 2>&1
else
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$work/logs/build-$sha.log" 2>&1 &&
    cmake --build "$BUILD_DIR" --target comops -j"$(nproc)" >>"$work/logs/build-$sha.log" 2>&1
fi
if (($? != 0)) || [[ ! -x $BUILD_DIR/comops ]]; then
  echo "   build failed (log: $work/logs/build-$sha.log): skip" >&2
  exit 125
fi
out=$work/runs/$name
rm -rf "$out" && mkdir -p "$out"
eval "args=($(cat "$work/tools/args"))"
for ((i = 1; i <= BISECT_RUNS; i++)); do
  if ! "$BUILD_DIR/comops" "${args[@]}" --json "$out/run-$i.json" >"$work/logs/run-$sha-$i.log" 2>&1; then
    echo "   comops failed (log: $work/logs/run-$sha-$i.log): skip" >&2
    exit 125
  fi
done
[[ ${1:-judge} == measure ]] && exit 0
"$PYTHON" "$work/tools/bisect_judge.py" judge "$work/runs/good" "$out" "$work/points.txt"
status=$?
case $status in
  0) echo "   good" >&2 ;;
  1) echo "   bad" >&2 ;;
  *) echo "   cannot tell: skip" >&2; status=125 ;;
esac
exit "$status"
STEP
chmod +x "$work/tools/step.sh"
export BISECT_WORK=$work BISECT_RUNS=$runs PYTHON=${PYTHON:-/usr/bin/python3}

cd "$work/src"
for side in good bad; do
  git checkout --quiet --detach "${!side}"
  "$work/tools/step.sh" measure "$side" || die "${side^^} ($(git rev-parse --short HEAD)) cannot be built or run (logs in $work/logs)" 3
done
echo "== points where BAD is slower than GOOD" >&2
if ! "$PYTHON" "$work/tools/bisect_judge.py" regressed "$work/runs/good" "$work/runs/bad" >"$work/points.txt"; then
  echo "bisect.sh: BAD $bad_ref is not significantly slower than GOOD $good_ref on any point" >&2
  exit 1
fi
git bisect start "$bad" "$good" >/dev/null
set +e
git bisect run "$work/tools/step.sh" judge >"$work/logs/bisect-run.log" 2>&1
set -e
grep -v '^running\|^Bisecting:\|^\[' "$work/logs/bisect-run.log" >&2 || true
verdict=$(grep -m1 'is the first bad commit' "$work/logs/bisect-run.log" || true)
git bisect log
git bisect reset --quiet >/dev/null 2>&1 || true
if [[ -z $verdict ]]; then
  echo "bisect.sh: no single first bad commit (commits were skipped; see the log above)" >&2
  exit 1
fi
echo "$verdict"
