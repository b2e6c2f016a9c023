// Unit tests of oversubscribed (swcc/detail/placement.hpp), which decides whether the engine's idle
// waits yield the core: ranks per host against the union of their CPU sets.
#include "swcc/detail/placement.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

namespace swcc {
namespace {

RankPlacement on(std::uint64_t host, std::initializer_list<int> cpus) {
  RankPlacement p;
  p.host = host;
  CPU_ZERO(&p.cpus);
  for (int c : cpus) CPU_SET(c, &p.cpus);
  return p;
}

TEST(SwccPlacement, RanksWithinTheHostCpusDoNotYield) {
  // mpiexec -n 2 on a 2-CPU machine, unbound
  EXPECT_FALSE(oversubscribed({on(1, {0, 1}), on(1, {0, 1})}, 0));
  EXPECT_FALSE(oversubscribed({on(1, {0, 1}), on(1, {0, 1})}, 1));
  // bound one per CPU
  EXPECT_FALSE(oversubscribed({on(1, {0}), on(1, {1})}, 0));
  // a single rank
  EXPECT_FALSE(oversubscribed({on(1, {3})}, 0));
}

TEST(SwccPlacement, MoreRanksThanCpusYield) {
  // np 4 on 2 CPUs
  const std::vector<RankPlacement> four = {on(1, {0, 1}), on(1, {0, 1}), on(1, {0, 1}),
                                           on(1, {0, 1})};
  for (int r = 0; r < 4; ++r) EXPECT_TRUE(oversubscribed(four, r)) << r;
  // two ranks bound to the same single CPU
  EXPECT_TRUE(oversubscribed({on(1, {0}), on(1, {0})}, 1));
}

TEST(SwccPlacement, HostsCountedApart) {
  // simulated hosts, one CPU each: host 7 has one rank, host 9 has two on one CPU
  const std::vector<RankPlacement> r = {on(7, {0}), on(9, {1}), on(9, {1})};
  EXPECT_FALSE(oversubscribed(r, 0));
  EXPECT_TRUE(oversubscribed(r, 1));
  EXPECT_TRUE(oversubscribed(r, 2));
  // one rank per host, the same CPU number on each host (as --cpus-per-host 1 gives): no yield
  EXPECT_FALSE(oversubscribed({on(7, {0}), on(9, {0})}, 0));
  EXPECT_FALSE(oversubscribed({on(7, {0}), on(9, {0})}, 1));
}

}  // namespace
}  // namespace swcc
