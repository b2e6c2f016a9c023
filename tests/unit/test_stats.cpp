// Unit tests of the order statistics over repetitions (harness/stats.hpp).
#include <gtest/gtest.h>

#include <vector>

#include "harness/stats.hpp"

namespace comops {
namespace {

TEST(Median, OddCount) {
  EXPECT_DOUBLE_EQ(median({3.0}), 3.0);
  EXPECT_DOUBLE_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(median({9.0, 2.0, 7.0, 4.0, 1.0}), 4.0);
  EXPECT_DOUBLE_EQ(median({2.0, 2.0, 1.0}), 2.0);
}

TEST(Median, EvenCountIsMeanOfMiddleTwo) {
  EXPECT_DOUBLE_EQ(median({1.0, 2.0}), 1.5);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({10.0, 0.5, 7.0, 3.0, 8.0, 1.0}), 5.0);
  EXPECT_DOUBLE_EQ(median({6.0, 6.0, 1.0, 9.0}), 6.0);
}

TEST(Median, EmptyIsZero) { EXPECT_DOUBLE_EQ(median({}), 0.0); }

TEST(Median, DoesNotReorderTheCallersVector) {
  const std::vector<double> v = {5.0, 1.0, 4.0, 2.0, 3.0};
  EXPECT_DOUBLE_EQ(median(v), 3.0);
  EXPECT_EQ(v, (std::vector<double>{5.0, 1.0, 4.0, 2.0, 3.0}));
}

TEST(MinMax, OfValuesAndEmpty) {
  const std::vector<double> v = {2.5, -1.0, 7.25, 3.0};
  EXPECT_DOUBLE_EQ(min_of(v), -1.0);
  EXPECT_DOUBLE_EQ(max_of(v), 7.25);
  EXPECT_DOUBLE_EQ(min_of({4.0}), 4.0);
  EXPECT_DOUBLE_EQ(max_of({4.0}), 4.0);
  EXPECT_DOUBLE_EQ(min_of({}), 0.0);
  EXPECT_DOUBLE_EQ(max_of({}), 0.0);
}

}  // namespace
}  // namespace comops
