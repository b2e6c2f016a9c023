// The harness's one fork/exec (harness/launch/spawn.hpp): exit status passed through, exec
// failure reported exactly, the environment and streams the child gets, its process group.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <string>
#include <vector>

#include "harness/launch/spawn.hpp"
#include "temp_dir.hpp"

namespace comops {
namespace {

// Runs `argv` with `env`, its stdout and stderr into one file; returns its wait status and
// sets `output` to what it wrote.
int run(const std::vector<std::string>& argv, const std::vector<std::string>& env,
        std::string* output) {
  comops_test::TempDir dir;
  const std::string path = dir.file("out.txt");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT_GE(fd, 0);
  EXPECT_GE(null, 0);
  const pid_t child = spawn({argv, env, null, fd, fd, true});
  ::close(fd);
  ::close(null);
  EXPECT_GT(child, 0);
  const int status = wait_child(child);
  *output = comops_test::read_text(path);
  return status;
}

TEST(Spawn, PassesTheExitStatusThrough) {
  std::string out;
  const int status = run({"/bin/sh", "-c", "exit 7"}, {}, &out);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(out, "");
}

TEST(Spawn, PassesASignalThrough) {
  std::string out;
  const int status = run({"/bin/sh", "-c", "kill -TERM $$"}, {}, &out);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(Spawn, ReportsAnExecFailureExactly) {
  std::string out;
  const int status = run({"/nonexistent/launcher", "-n", "2"}, {}, &out);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kSpawnExecFailed);
  EXPECT_EQ(WEXITSTATUS(status), 127);
  EXPECT_EQ(out, "comops: error: cannot start /nonexistent/launcher: No such file or directory\n");
  const int denied = run({"/dev/null"}, {}, &out);
  ASSERT_TRUE(WIFEXITED(denied));
  EXPECT_EQ(WEXITSTATUS(denied), 127);
  EXPECT_EQ(out, "comops: error: cannot start /dev/null: Permission denied\n");
}

TEST(Spawn, GivesTheChildItsArgumentsEnvironmentAndStreams) {
  std::string out;
  const int status =
      run({"/bin/sh", "-c", "echo \"$1 $COMOPS_SPAWN_TEST $HOME\"; read x || echo eof >&2", "sh",
           "first word"},
          {"COMOPS_SPAWN_TEST=a value"}, &out);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(out, "first word a value \neof\n");  // only `env`: no HOME; stdin at its end
}

TEST(Spawn, LeavesTheChildInTheParentsProcessGroup) {
  // The supervisor's launcher and a variant's job get a terminal's ^C with comops itself.
  int in[2];
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  const pid_t child = spawn({{"/bin/sh", "-c", "read x"}, {}, in[0]});
  ::close(in[0]);
  ASSERT_GT(child, 0);
  EXPECT_EQ(::getpgid(child), ::getpgrp());  // the child waits for its stdin until the close
  EXPECT_EQ(::getsid(child), ::getsid(0));
  ::close(in[1]);
  const int status = wait_child(child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);  // read found the end of its input
}

TEST(Spawn, InheritsTheStreamsLeftAtMinusOne) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  const int saved = ::dup(STDOUT_FILENO);
  ::dup2(pipe_fds[1], STDOUT_FILENO);
  const pid_t child = spawn({{"/bin/sh", "-c", "echo inherited"}, {}});
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ::close(pipe_fds[1]);
  ASSERT_GT(child, 0);
  char buf[64] = {};
  const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf - 1);
  ::close(pipe_fds[0]);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0), "inherited\n");
  EXPECT_EQ(wait_child(child), 0);
}

TEST(Spawn, RefusesAnEmptyCommandAndAStrangerToWaitFor) {
  EXPECT_EQ(spawn({}), -1);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(wait_child(::getpid()), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(Spawn, CurrentEnvironmentIsEnviron) {
  ASSERT_EQ(::setenv("COMOPS_SPAWN_TEST_ENV", "x=y", 1), 0);
  const std::vector<std::string> env = current_environment();
  EXPECT_NE(std::find(env.begin(), env.end(), "COMOPS_SPAWN_TEST_ENV=x=y"), env.end());
  ::unsetenv("COMOPS_SPAWN_TEST_ENV");
}

}  // namespace
}  // namespace comops
