// Unit tests of load_factor (swcc/detail/load_factor.hpp), by which the watchdog and SwccComm's
// wait limit stretch on a loaded or oversubscribed machine: exact values from /proc/loadavg texts.
#include "swcc/detail/load_factor.hpp"

#include <gtest/gtest.h>

namespace swcc {
namespace {

TEST(SwccLoadFactor, IdleMachineIsOne) {
  EXPECT_DOUBLE_EQ(load_factor("0.52 0.58 0.59 1/467 12345\n", 2), 1.0);
  EXPECT_DOUBLE_EQ(load_factor("0.00 0.00 0.00 0/100 1\n", 1), 1.0);
  EXPECT_DOUBLE_EQ(load_factor("2.00 1.00 1.00 2/100 1\n", 2), 1.0);  // exactly one per CPU
}

TEST(SwccLoadFactor, ReadyThreadsPerCpu) {
  // 66 ranks spinning on 2 CPUs, before the load average has caught up
  EXPECT_DOUBLE_EQ(load_factor("0.80 0.50 0.40 66/700 4242\n", 2), 33.0);
  EXPECT_DOUBLE_EQ(load_factor("1.00 0.50 0.40 6/700 4242\n", 4), 1.5);
}

TEST(SwccLoadFactor, OneMinuteLoadPerCpu) {
  // the burst just ended: few threads ready now, but the last minute was loaded
  EXPECT_DOUBLE_EQ(load_factor("8.00 5.00 3.00 1/300 77\n", 2), 4.0);
  EXPECT_DOUBLE_EQ(load_factor("5.5 1 1 3/300 77\n", 1), 5.5);
}

TEST(SwccLoadFactor, UnreadableIsOne) {
  EXPECT_DOUBLE_EQ(load_factor("", 2), 1.0);
  EXPECT_DOUBLE_EQ(load_factor("not a load\n", 2), 1.0);
  EXPECT_DOUBLE_EQ(load_factor("9.0 9.0 9.0 9/9 9\n", 0), 1.0);  // no CPU count
  EXPECT_DOUBLE_EQ(load_factor("6.0\n", 2), 3.0);                // the load average alone
}

TEST(SwccLoadFactor, OfThisMachineIsAtLeastOne) { EXPECT_GE(load_factor(), 1.0); }

}  // namespace
}  // namespace swcc
