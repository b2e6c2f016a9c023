# Sourced by the shell tests that start comops in the background. job_start runs a command in a
# session of its own (setsid; $job_pid is its pid, and `wait "$job_pid"` works); job_stop, run on
# every exit of the test (its EXIT trap), kills whatever is left of that session (the supervisor,
# its mpiexec, the launcher's proxies and the comops ranks) and waits until it is gone, so that a
# test that fails never leaves a job running. A timeout of ctest kills the test's whole process
# tree itself.
job_pid=""
job_start() {
  setsid "$@" &
  job_pid=$!
}
job_stop() {
  [[ -n $job_pid ]] || return 0
  local _
  pkill -KILL -s "$job_pid" 2>/dev/null || true
  for _ in $(seq 50); do
    pgrep -s "$job_pid" >/dev/null 2>&1 || break
    sleep 0.1
  done
  wait "$job_pid" 2>/dev/null || true
  job_pid=""
}
