#!/usr/bin/env bash
# Installs comops' Debian 12 dependencies (only those missing) and builds comops in Release under
# build/ (or $COMOPS_BUILD_DIR). Run as root or with sudo available.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(build-essential cmake pkg-config git mpich libmpich-dev hwloc libhwloc-dev libcli11-dev
          nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev libbenchmark-tools
          python3-matplotlib python3-scipy rumur)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=()
  ((EUID == 0)) || sudo=(sudo)
  echo "setup.sh: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
build=${COMOPS_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"
