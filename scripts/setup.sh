#!/usr/bin/env bash
# Installs comops' Debian 12 dependencies (only those missing) and builds comops in Release under
# build/ (or $COMOPS_BUILD_DIR). Run as root or with sudo available.
# COMOPS_MPI=openmpi builds against Open MPI instead of MPICH (-DCOMOPS_MPI, docs/mpi.md):
# it also installs openmpi-bin and libopenmpi-dev, then puts the mpi, mpirun and
# mpi-x86_64-linux-gnu alternatives back where they were (MPICH's when none was set), so that
# installing Open MPI never changes the machine's default MPI silently.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${COMOPS_MPI:-mpich}
if [[ $mpi != mpich && $mpi != openmpi ]]; then
  echo "setup.sh: COMOPS_MPI is '$mpi': use mpich or openmpi" >&2
  exit 2
fi
packages=(build-essential cmake pkg-config git mpich libmpich-dev hwloc libhwloc-dev libcli11-dev
          nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev libbenchmark-tools
          python3-matplotlib python3-scipy rumur)
[[ $mpi == openmpi ]] && packages+=(openmpi-bin libopenmpi-dev)
# The default MPI's alternatives and MPICH's choice for each (kept when nothing was set before).
declare -A mpich_choice=([mpi]=/usr/bin/mpicc.mpich [mpirun]=/usr/bin/mpirun.mpich
                         [mpi-x86_64-linux-gnu]=/usr/include/x86_64-linux-gnu/mpich)
declare -A default_mpi=()
for a in "${!mpich_choice[@]}"; do
  default_mpi[$a]=$(update-alternatives --query "$a" 2>/dev/null | sed -n 's/^Value: //p')
done
# The simulated cluster (clang compiles its delay and loss program) and its Slurm (tests labelled
# cluster and slurm), without Recommends: those would add
# some 30 packages of Slurm plugins (HDF5, ROCm, IPMI, ...) that nothing here loads. Chromium
# opens the regression dashboard headless in its test (scripts_track_report_browser); its
# Recommends (chromium-sandbox, upower, udev, Mesa, fonts-liberation, a notification daemon) are
# unused headless; its text uses fonts-dejavu-core, which matplotlib's data already pulls in.
lean_packages=(iproute2 procps clang slurmctld slurmd slurm-client munge chromium)
missing=()
lean_missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for p in "${lean_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || lean_missing+=("$p")
done
if ((${#missing[@]} + ${#lean_missing[@]})); then
  sudo=()
  ((EUID == 0)) || sudo=(sudo)
  echo "setup.sh: installing ${missing[*]} ${lean_missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  install=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq)
  if ((${#missing[@]})); then
    "${install[@]}" "${missing[@]}" >/dev/null
  fi
  if ((${#lean_missing[@]})); then
    "${install[@]}" --no-install-recommends "${lean_missing[@]}" >/dev/null
  fi
  for a in "${!mpich_choice[@]}"; do
    keep=${default_mpi[$a]:-${mpich_choice[$a]}}
    now=$(update-alternatives --query "$a" 2>/dev/null | sed -n 's/^Value: //p')
    if [[ -n $now && $now != "$keep" ]]; then
      echo "setup.sh: keeping the default MPI: alternative $a stays $keep" >&2
      "${sudo[@]}" update-alternatives --set "$a" "$keep" >/dev/null
    fi
  done
fi
build=${COMOPS_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCOMOPS_MPI="$mpi" >/dev/null
cmake --build "$build" -j"$(nproc)"
