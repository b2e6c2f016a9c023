// Unit tests of the order statistics over repetitions (harness/stats.hpp).
#include <gtest/gtest.h>

#include <algorithm>
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

// Every order of the input gives the same exact median: the middle values are found wherever
// the partial sort leaves them (the lower middle of an even count is not next to the upper one).
TEST(Median, EveryOrderOfTheInputGivesTheSameMedian) {
  std::vector<double> even = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
  int orders = 0;
  do {
    ASSERT_DOUBLE_EQ(median(even), 3.5) << ::testing::PrintToString(even);
    ++orders;
  } while (std::next_permutation(even.begin(), even.end()));
  EXPECT_EQ(orders, 720);

  std::vector<double> odd = {-2.0, 0.5, 1.0, 7.0, 9.0, 10.0, 11.0};
  orders = 0;
  do {
    ASSERT_DOUBLE_EQ(median(odd), 7.0) << ::testing::PrintToString(odd);
    ++orders;
  } while (std::next_permutation(odd.begin(), odd.end()));
  EXPECT_EQ(orders, 5040);
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
