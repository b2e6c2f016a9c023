// The progress watchdog (harness/runtime/watchdog.hpp): its allowance, its line, and a process
// that stops making progress ending with that line and exit 3, while one that keeps making
// progress runs on.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "harness/runtime/watchdog.hpp"

namespace comops {
namespace {

TEST(Watchdog, AllowanceIsTheLoadScaledBasePlusTenStepTimes) {
  EXPECT_DOUBLE_EQ(watchdog_allowance_s(WatchdogLimits{60}, 0, 1), 60);
  EXPECT_DOUBLE_EQ(watchdog_allowance_s(WatchdogLimits{60}, 0.5, 1), 65);
  EXPECT_DOUBLE_EQ(watchdog_allowance_s(WatchdogLimits{60}, 0.5, 2), 125);
  EXPECT_DOUBLE_EQ(watchdog_allowance_s(WatchdogLimits{60}, -1, 0.5), 60);  // never below base
}

TEST(Watchdog, LineNamesTheRankHostPlaceAndWait) {
  EXPECT_EQ(watchdog_line(WatchdogIdentity{3, "simh2"},
                          "point mpi pingpong np=2 1M, timed repetition 4 of 10", 61.4, 61),
            "comops: error: rank 3 on host simh2 made no progress for 61 s in point mpi pingpong "
            "np=2 1M, timed repetition 4 of 10 (it may wait 61 s, --watchdog); a peer or the "
            "network is gone: this rank ends the job");
}

// What a child process that ran `body` ended with: its wait status and its stderr. The child is
// killed if it runs past 60 s, so the test never hangs.
struct Ended {
  int status = 0;
  std::string err;
};

template <class Body>
Ended run_child(Body body) {
  int pipe_fds[2];
  EXPECT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    body();
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  Ended e;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (::waitpid(child, &e.status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &e.status, 0);
      ADD_FAILURE() << "the child ran past 60 s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) e.err.append(buf, n);
  ::close(pipe_fds[0]);
  return e;
}

TEST(Watchdog, ARankWithoutProgressEndsWithItsLineAndExitThree) {
  const Ended e = run_child([] {
    watchdog_start(WatchdogLimits{1}, WatchdogIdentity{7, "hostx"});
    watchdog_point("mpi pingpong np=2 8", 0);
    watchdog_progress("timed repetition", 3, 10, 0.05);
    std::this_thread::sleep_for(std::chrono::seconds(50));  // the watchdog must end this
  });
  ASSERT_TRUE(WIFEXITED(e.status)) << e.status;
  EXPECT_EQ(WEXITSTATUS(e.status), 3);
  EXPECT_TRUE(std::regex_match(
      e.err,
      std::regex(R"(comops: error: rank 7 on host hostx made no progress for \d+ s in point )"
                 R"(mpi pingpong np=2 8, timed repetition 3 of 10 \(it may wait \d+ s, )"
                 R"(--watchdog\); a peer or the network is gone: this rank ends the job\n)")))
      << e.err;
}

TEST(Watchdog, AParkedRankWaitsLongerAndSaysItWasParked) {
  const Ended e = run_child([] {
    watchdog_start(WatchdogLimits{1}, WatchdogIdentity{2, "h"});
    watchdog_point("shm-direct broadcast np=2 64K", 1);  // one second more: at least 2 s
    std::this_thread::sleep_for(std::chrono::seconds(50));
  });
  ASSERT_TRUE(WIFEXITED(e.status)) << e.status;
  EXPECT_EQ(WEXITSTATUS(e.status), 3);
  EXPECT_NE(e.err.find("in point shm-direct broadcast np=2 64K, parked (not a participant)"),
            std::string::npos)
      << e.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(e.err, m, std::regex(R"(made no progress for (\d+) s)"))) << e.err;
  EXPECT_GE(std::stoi(m[1].str()), 2);  // it waited its allowance: the base and the parked second
}

TEST(Watchdog, ProgressKeepsARankAliveAndStopEndsTheWatch) {
  const Ended e = run_child([] {
    watchdog_start(WatchdogLimits{2}, WatchdogIdentity{0, "h"});
    watchdog_point("mpi barrier np=2 0", 0);
    for (int i = 0; i < 40; ++i) {  // 4 s of steps 0.1 s apart: twice the base
      watchdog_progress("timed repetition", i + 1, 40, 0.1);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    watchdog_stop();
    std::this_thread::sleep_for(std::chrono::seconds(3));  // stopped: nothing fires
  });
  ASSERT_TRUE(WIFEXITED(e.status)) << e.status;
  EXPECT_EQ(WEXITSTATUS(e.status), 0) << e.err;
  EXPECT_EQ(e.err, "");
}

TEST(Watchdog, ZeroTurnsItOff) {
  const Ended e = run_child([] {
    watchdog_start(WatchdogLimits{0}, WatchdogIdentity{0, "h"});
    watchdog_point("mpi barrier np=2 0", 0);
    std::this_thread::sleep_for(std::chrono::seconds(2));
  });
  ASSERT_TRUE(WIFEXITED(e.status)) << e.status;
  EXPECT_EQ(WEXITSTATUS(e.status), 0) << e.err;
  EXPECT_EQ(e.err, "");
}

}  // namespace
}  // namespace comops
