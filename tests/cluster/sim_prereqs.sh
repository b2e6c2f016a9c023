# Sourced by the simulated-host tests (bash): skip() and fail(), and the prerequisites of
# scripts/sim_cluster.sh; a missing one skips the test (exit 77) with its reason.
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
((EUID == 0)) || skip "needs root (network, UTS, IPC, PID and mount namespaces)"
unshare --net --uts --ipc --mount --pid --fork true 2>/dev/null ||
  skip "cannot create namespaces here (unshare --net --uts --ipc --mount --pid failed)"
for tool in ip tc nsenter mpiexec.hydra clang; do
  command -v "$tool" >/dev/null || skip "'$tool' is not installed"
done
[[ -x /usr/bin/python3 ]] || skip "/usr/bin/python3 is missing"
