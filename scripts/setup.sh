#!/usr/bin/env bash
# Installs comops' Debian 12 dependencies (only those missing) and builds comops in Release under
# build/ (or $COMOPS_BUILD_DIR). Run as root, or as a user who may use sudo (only needed while
# packages are missing).
# COMOPS_MPI=openmpi builds against Open MPI instead of MPICH (-DCOMOPS_MPI, docs/mpi.md): it
# also installs openmpi-bin and libopenmpi-dev, then puts the mpi, mpirun and
# mpi-x86_64-linux-gnu alternatives back where they were (MPICH's when none was set), so that
# installing Open MPI never changes the machine's default MPI silently.
# Every failure ends with one line "setup.sh: error: ..." on stderr that says what failed and
# what to do, and exit status 1 (2 for a bad COMOPS_MPI); the build's own messages stay above it.
# Usage: scripts/setup.sh   (no arguments; the environment: COMOPS_MPI, COMOPS_BUILD_DIR)
set -Eeuo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."

fail() {
  echo "setup.sh: error: $*" >&2
  exit 1
}
# Anything not foreseen below still ends with one line that names the command and its line.
# (A failing command substitution ends its subshell quietly; its caller's line is the one named.)
on_error() {
  local rc=$1 line=$2 command=$3
  ((BASHPID == $$)) || exit "$rc"
  echo "setup.sh: error: line $line: '$command' failed with exit status $rc" >&2
  exit 1
}
trap 'on_error $? $LINENO "$BASH_COMMAND"' ERR

mpi=${COMOPS_MPI:-mpich}
if [[ $mpi != mpich && $mpi != openmpi ]]; then
  echo "setup.sh: error: COMOPS_MPI is '$mpi': use mpich or openmpi" >&2
  exit 2
fi
packages=(build-essential cmake pkg-config git mpich libmpich-dev hwloc libhwloc-dev libcli11-dev
          nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev libbenchmark-tools
          python3-matplotlib python3-scipy python3-yaml python3-numpy rumur)
[[ $mpi == openmpi ]] && packages+=(openmpi-bin libopenmpi-dev)
# The simulated cluster (clang compiles its delay and loss program) and its Slurm (tests labelled
# cluster and slurm), without Recommends: those would add
# some 30 packages of Slurm plugins (HDF5, ROCm, IPMI, ...) that nothing here loads. Chromium
# opens the regression dashboard headless in its test (scripts_track_report_browser); its
# Recommends (chromium-sandbox, upower, udev, Mesa, fonts-liberation, a notification daemon) are
# unused headless; its text uses fonts-dejavu-core, which matplotlib's data already pulls in.
# util-linux gives the tests unshare, nsenter and setpriv.
lean_packages=(iproute2 procps util-linux clang slurmctld slurmd slurm-client munge chromium)

# The default MPI's alternatives and MPICH's choice for each (kept when nothing was set before).
declare -A mpich_choice=([mpi]=/usr/bin/mpicc.mpich [mpirun]=/usr/bin/mpirun.mpich
                         [mpi-x86_64-linux-gnu]=/usr/include/x86_64-linux-gnu/mpich)
# The current value of alternative $1, empty when it has none (then --query exits 2: no MPI yet).
alternative_value() {
  update-alternatives --query "$1" 2>/dev/null | sed -n 's/^Value: //p' || true
}
installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
# Runs apt-get with its output in $log; on failure, one line with apt's own first error.
apt_step() {
  local what=$1 rc=0
  shift
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >"$log" 2>&1 || rc=$?
  ((rc == 0)) && return 0
  local why
  why=$(grep -m1 -E '^(E|Err|W):' "$log" || tail -n 1 "$log" || true)
  fail "$what failed (exit $rc): ${why:-no message}; check the network and /etc/apt/sources.list*; the whole output: $log"
}

declare -A default_mpi=()
for a in "${!mpich_choice[@]}"; do
  default_mpi[$a]=$(alternative_value "$a")
done
missing=()
lean_missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
for p in "${lean_packages[@]}"; do
  installed "$p" || lean_missing+=("$p")
done
if ((${#missing[@]} + ${#lean_missing[@]})); then
  sudo=()
  if (($(id -u) != 0)); then
    command -v sudo >/dev/null ||
      fail "packages are missing (${missing[*]} ${lean_missing[*]}) and this user is not root and has no sudo: run it as root, or install sudo and allow this user to use it"
    if ! sudo -n true 2>/dev/null && [[ ! -t 0 ]]; then
      fail "packages are missing and sudo needs a password, but there is no terminal to ask on: run it from a terminal, or as root"
    fi
    sudo=(sudo)
  fi
  log=$(mktemp -t comops-setup-apt.XXXXXX)
  echo "setup.sh: installing ${missing[*]} ${lean_missing[*]}" >&2
  # --error-on=any: an index that cannot be fetched is an error, not a warning that leaves
  # every package "not found" afterwards.
  apt_step "apt-get update" update -qq --error-on=any
  not_found=()
  for p in "${missing[@]}" "${lean_missing[@]}"; do
    apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || not_found+=("$p")
  done
  ((${#not_found[@]} == 0)) ||
    fail "not in this machine's apt sources: ${not_found[*]} (setup.sh needs Debian 12 bookworm with its main component in /etc/apt/sources.list*)"
  if ((${#missing[@]})); then
    apt_step "apt-get install" install -y -qq "${missing[@]}"
  fi
  if ((${#lean_missing[@]})); then
    apt_step "apt-get install" install -y -qq --no-install-recommends "${lean_missing[@]}"
  fi
  rm -f "$log"
  for a in "${!mpich_choice[@]}"; do
    keep=${default_mpi[$a]:-${mpich_choice[$a]}}
    now=$(alternative_value "$a")
    if [[ -n $now && $now != "$keep" ]]; then
      echo "setup.sh: keeping the default MPI: alternative $a stays $keep" >&2
      "${sudo[@]}" update-alternatives --set "$a" "$keep" >/dev/null ||
        fail "could not set alternative $a back to $keep (update-alternatives --set $a $keep)"
    fi
  done
fi
build=${COMOPS_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCOMOPS_MPI="$mpi" >/dev/null ||
  fail "configuring the build failed (cmake -S . -B $build): its messages are above"
cmake --build "$build" -j"$(nproc)" ||
  fail "the build failed (cmake --build $build): the compiler's messages are above"
