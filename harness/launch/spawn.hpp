// Starting a child process: fork, redirect its standard streams, exec; and waiting for it. The one
// fork/exec of the harness (the supervisor's launcher, a variant's job).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace comops {

/// The exit code of a child whose exec failed (as a shell's "command not found").
inline constexpr int kSpawnExecFailed = 127;

/// What a child runs and gets.
struct SpawnSpec {
  std::vector<std::string> argv;  ///< argv[0] is the program's path (not looked up in PATH)
  std::vector<std::string> env;   ///< the child's whole environment, NAME=VALUE each
  /// File descriptors that become the child's stdin, stdout and stderr; -1 leaves the parent's.
  /// They may be O_CLOEXEC (then the child keeps only its copies 0, 1 and 2).
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;
  /// The child gets SIGTERM when the thread that started it ends (PR_SET_PDEATHSIG).
  bool end_with_parent = false;
};

/// Starts `spec` as a child process and returns its pid, or -1 with errno set when fork fails.
/// The child stays in the parent's process group and session, with the parent's signal mask and
/// dispositions as fork and exec leave them. Between fork and exec it makes async-signal-safe
/// calls only. When exec fails, the child writes "comops: error: cannot start ARGV0: WHY" and a
/// newline on its (redirected) stderr and exits kSpawnExecFailed.
pid_t spawn(const SpawnSpec& spec);

/// Waits for `child` to end, across interrupted waits; returns its wait status (sys/wait.h's
/// WIFEXITED and so on), or -1 with errno set when `child` is not a child of this process.
int wait_child(pid_t child);

/// The environment of this process, NAME=VALUE each, in environ's order.
std::vector<std::string> current_environment();

}  // namespace comops
