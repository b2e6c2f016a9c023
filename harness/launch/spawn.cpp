// The harness's one fork/exec: a child with its command line, environment and standard streams.
#include "harness/launch/spawn.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

extern char** environ;

namespace comops {
namespace {

std::vector<char*> pointers(const std::vector<std::string>& words) {
  std::vector<char*> out;
  for (const std::string& w : words) out.push_back(const_cast<char*>(w.c_str()));
  out.push_back(nullptr);
  return out;
}

// In the child: makes `fd` its descriptor `target` (without close-on-exec); -1 leaves it.
void redirect(int fd, int target) {
  if (fd < 0) return;
  if (fd == target) {
    ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) & ~FD_CLOEXEC);
  } else {
    ::dup2(fd, target);
  }
}

// In the child, after exec failed: the line, from pieces made before fork, and the exit code.
[[noreturn]] void exec_failed(const std::string& prefix) {
  const char* why = ::strerrordesc_np(errno);  // a constant string: no locale, no allocation
  const char* parts[] = {prefix.c_str(), why != nullptr ? why : "unknown error", "\n"};
  for (const char* p : parts) (void)!::write(STDERR_FILENO, p, std::strlen(p));
  ::_exit(kSpawnExecFailed);
}

}  // namespace

pid_t spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) {
    errno = EINVAL;
    return -1;
  }
  const std::vector<char*> args = pointers(spec.argv);
  const std::vector<char*> envp = pointers(spec.env);
  const std::string prefix = "comops: error: cannot start " + spec.argv[0] + ": ";
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t child = ::fork();
  if (child != 0) return child;
  if (spec.end_with_parent) ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  redirect(spec.stdin_fd, STDIN_FILENO);
  redirect(spec.stdout_fd, STDOUT_FILENO);
  redirect(spec.stderr_fd, STDERR_FILENO);
  ::execve(args[0], args.data(), envp.data());
  exec_failed(prefix);
}

int wait_child(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

std::vector<std::string> current_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

}  // namespace comops
