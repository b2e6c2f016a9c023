// The start-up bound's pieces (harness/launch/): the hosts a launcher command names, the ranks'
// start-up lines taken out of the launcher's stderr, the bound's default and its one line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "harness/launch/launch_hosts.hpp"
#include "harness/launch/rank_starts.hpp"
#include "harness/launch/supervisor.hpp"

namespace comops {
namespace {

using Hosts = std::vector<std::string>;

TEST(LauncherHosts, HostfileAndHostListsEachHostOnce) {
  char path[] = "/tmp/comops-hosts.XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << "# the cluster\nsimh1:2\n\n  simh2 # second\nsimh1:1\n10.0.0.7:4\n";
  EXPECT_EQ(launcher_hosts({"mpiexec", "-f", path}), (Hosts{"simh1", "simh2", "10.0.0.7"}));
  EXPECT_EQ(launcher_hosts({"mpiexec", "--hostfile", path, "-hosts", "a:2,b,simh2"}),
            (Hosts{"simh1", "simh2", "10.0.0.7", "a", "b"}));
  EXPECT_EQ(launcher_hosts({"mpiexec", "-machinefile", path}).size(), 3u);
  std::remove(path);
  EXPECT_EQ(launcher_hosts({"mpiexec", "-f", path}), Hosts{});  // unreadable: none
  EXPECT_EQ(launcher_hosts({"mpiexec", "-n", "4"}), Hosts{});
  EXPECT_EQ(launcher_hosts({"mpiexec", "-f"}), Hosts{});  // no value
}

TEST(RankStartFilter, TakesOutStartLinesAndKeepsTheirHosts) {
  RankStartFilter f;
  std::string out = f.feed("comops-rank-started simh1 41\nhello\ncomops-rank-sta");
  EXPECT_EQ(out, "hello\n");
  out += f.feed("rted simh2 7\ncomops: error: x\npartial");
  EXPECT_EQ(out, "hello\ncomops: error: x\npartial");
  out += f.feed(" comops-rank-started simh3 1\n");  // not at a line's start: passed on
  EXPECT_EQ(out, "hello\ncomops: error: x\npartial comops-rank-started simh3 1\n");
  EXPECT_EQ(f.hosts(), (Hosts{"simh1", "simh2"}));
  EXPECT_EQ(f.feed("comops"), "");  // held: maybe a start-up line
  EXPECT_EQ(f.flush(), "comops");
}

TEST(StartupBound, DefaultGrowsWithTheHostsNamed) {
  EXPECT_DOUBLE_EQ(startup_bound_s(0, 0), kStartupBaseS + kStartupPerHostS);
  EXPECT_DOUBLE_EQ(startup_bound_s(0, 10), kStartupBaseS + 10 * kStartupPerHostS);
  EXPECT_DOUBLE_EQ(startup_bound_s(7.5, 10), 7.5);
}

TEST(StartupBound, LineNamesWhoStartedAndTheSilentHosts) {
  EXPECT_EQ(startup_line(34.2, 3, {"comops-test-h1", "comops-test-h2"},
                         {"comops-test-h1", "comops-test-h2", "comops-test-h3"}),
            "comops: error: the job did not start within 34 s: 2 of 3 ranks started (1 on "
            "comops-test-h1, 1 on comops-test-h2); no rank started on comops-test-h3 (named by the "
            "launcher): check that it is reachable (--startup-timeout); nothing had been measured");
  EXPECT_EQ(startup_line(40, 4, {}, {"comops-test-a", "comops-test-b"}),
            "comops: error: the job did not start within 40 s: 0 of 4 ranks started; no rank "
            "started on comops-test-a, comops-test-b (named by the launcher): check that they are "
            "reachable (--startup-timeout); nothing had been measured");
  EXPECT_EQ(startup_line(40, 2, {"x", "x"}, {}),
            "comops: error: the job did not start within 40 s: all 2 ranks started (2 on x) but "
            "MPI did not come up (--startup-timeout); nothing had been measured");
  // A host named by its address counts as the host that resolves to it.
  EXPECT_EQ(startup_line(40, 2, {"localhost"}, {"127.0.0.1", "comops-test-dead"})
                .find("no rank started on comops-test-dead (named"),
            std::string("comops: error: the job did not start within 40 s: 1 of 2 ranks started (1 "
                        "on localhost); ")
                .size());
}

}  // namespace
}  // namespace comops
