#!/usr/bin/env bash
# CI's Open MPI stage (docs/mpi.md), in the checkout where MPICH's build/ is done: setup.sh
# installs Open MPI and keeps MPICH the default MPI; a smoke run of every backend and op at small
# sizes, validated (exit 1 on a wrong result); the unit and mpi labels; the Open MPI-only tests
# (its launcher's options, --mpi-variant's MCA parameters), which an MPICH build skips. The whole
# suite against Open MPI does not fit CI's time.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# With ccache (CI shares this machine's cache with its fresh root), the Open MPI build reuses
# what an earlier one compiled; paths relative to the checkout, so another checkout hits too.
if command -v ccache >/dev/null && [[ ! -d build-openmpi ]]; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$PWD
fi
COMOPS_MPI=openmpi COMOPS_BUILD_DIR=build-openmpi bash scripts/setup.sh
# Outputs are captured before grep -q reads them: grep -q quits at its first match, and under
# pipefail a writer still writing then dies of SIGPIPE and fails the check (Hydra's --version
# writes line by line).
libs=$(ldd build-openmpi/comops)
grep -q 'libmpi\.so\.40 ' <<<"$libs" ||
  { echo "build-openmpi/comops does not link Open MPI" >&2; exit 1; }
launcher=$(mpiexec --version 2>/dev/null || true)
grep -q HYDRA <<<"$launcher" ||
  { echo "installing Open MPI changed the default mpiexec: it is not MPICH's Hydra" >&2; exit 1; }
build-openmpi/comops --backend=all --op=all --uncached --sizes=8,64K --np=2 -n 50 -w 5 -r 2 \
  --progress=never --json build-openmpi/smoke.json >/dev/null
/usr/bin/python3 - build-openmpi/smoke.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["context"]["mpi_library"].startswith("Open MPI"), doc["context"]["mpi_library"]
rows = doc["results"]
backends = sorted({r["backend"] for r in rows})
assert {"mpi", "shm-staged", "shm-direct", "swcc-64", "swcc-sc"} <= set(backends), backends
assert rows and all(r["wrong"] == 0 for r in rows)
print(f"Open MPI smoke: {len(rows)} rows, 0 wrong, backends {', '.join(backends)}")
PY
ctest --test-dir build-openmpi -L 'unit|mpi' -j2 --output-on-failure || status=$?
ctest --test-dir build-openmpi -R 'OpenMpi' --output-on-failure || status=$?
/usr/bin/python3 .ci/skips.py build-openmpi
exit "$status"
