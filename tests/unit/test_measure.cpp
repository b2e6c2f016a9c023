// Unit tests of the default iteration and warm-up counts (harness/measure.hpp) and of the noise
// probes (harness/noise.hpp), which only read /proc.
#include <gtest/gtest.h>

#include "comops/op.hpp"
#include "harness/measure.hpp"
#include "harness/noise.hpp"

namespace comops {
namespace {

TEST(IterationsFor, SixtyFourMiBPerRepetitionClamped) {
  EXPECT_EQ(iterations_for(8), 10000);
  EXPECT_EQ(iterations_for(0), 10000);
  EXPECT_EQ(iterations_for(1), 10000);
  EXPECT_EQ(iterations_for(4096), 10000);  // 16384 clamped
  EXPECT_EQ(iterations_for(8192), 8192);   // 64 MiB / 8 KiB
  EXPECT_EQ(iterations_for(65536), 1024);  // 64 MiB / 64 KiB
  EXPECT_EQ(iterations_for(819200), 81);   // 64 MiB / 800 KiB, rounded down
  EXPECT_EQ(iterations_for(1u << 20), 64);
  EXPECT_EQ(iterations_for(8u << 20), 20);  // 8, clamped up
  EXPECT_EQ(iterations_for(1u << 30), 20);
}

TEST(WarmupFor, TenthAtLeastTwo) {
  EXPECT_EQ(warmup_for(10000), 1000);
  EXPECT_EQ(warmup_for(81), 8);
  EXPECT_EQ(warmup_for(29), 2);
  EXPECT_EQ(warmup_for(20), 2);
  EXPECT_EQ(warmup_for(5), 2);
  EXPECT_EQ(warmup_for(1), 2);
}

TEST(MeasureOptions, Defaults) {
  const MeasureOptions m;
  EXPECT_EQ(m.iterations, 0);
  EXPECT_EQ(m.warmup, -1);
  EXPECT_EQ(m.repetitions, 5);
  EXPECT_EQ(m.seed, 1u);
  EXPECT_FALSE(m.inject_fault);
}

TEST(Noise, IdleShareIsAShare) {
  const auto idle = cpu_idle_share(20);
  if (!idle) GTEST_SKIP() << "/proc/stat did not advance";
  EXPECT_GE(*idle, 0.0);
  EXPECT_LE(*idle, 1.0);
}

TEST(Noise, StallCounterNeverGoesBack) {
  const auto a = cpu_stall_total_us();
  if (!a) GTEST_SKIP() << "no PSI on this kernel";
  const auto b = cpu_stall_total_us();
  ASSERT_TRUE(b.has_value());
  EXPECT_GE(*b, *a);
  EXPECT_DOUBLE_EQ(kContendedStallShare, 0.05);
}

}  // namespace
}  // namespace comops
