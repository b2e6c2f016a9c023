// Unit tests of the order statistics over repetitions and the per-call percentiles
// (harness/util/stats.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "harness/util/stats.hpp"

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

// Percentiles interpolate linearly between the nearest ranks, as numpy.percentile(values, q)
// does by default; every expected value below is numpy's (1.24, Debian 12).
TEST(Percentile, LinearInterpolationAsNumpysDefault) {
  std::vector<double> ten = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_DOUBLE_EQ(percentile(ten, 50), 5.5);
  EXPECT_DOUBLE_EQ(percentile(ten, 90), 9.1);
  EXPECT_DOUBLE_EQ(percentile(ten, 99), 9.91);
  EXPECT_DOUBLE_EQ(percentile(ten, 100), 10.0);
  EXPECT_DOUBLE_EQ(percentile(ten, 0), 1.0);
  EXPECT_EQ(ten, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));  // sorted in place

  std::vector<double> five = {0.5, 4.0, 2.0, 8.0, 1.0};
  EXPECT_DOUBLE_EQ(percentile(five, 50), 2.0);  // the middle value: no interpolation
  EXPECT_DOUBLE_EQ(percentile(five, 90), 6.4);
  EXPECT_DOUBLE_EQ(percentile(five, 99), 7.84);

  std::vector<double> two = {3.0, 1.0};
  EXPECT_DOUBLE_EQ(percentile(two, 50), 2.0);
  EXPECT_DOUBLE_EQ(percentile(two, 90), 2.8);
  EXPECT_DOUBLE_EQ(percentile(two, 99), 2.98);

  std::vector<double> one = {7.0};
  EXPECT_DOUBLE_EQ(percentile(one, 50), 7.0);
  EXPECT_DOUBLE_EQ(percentile(one, 99), 7.0);
  std::vector<double> none;
  EXPECT_DOUBLE_EQ(percentile(none, 50), 0.0);
}

TEST(Percentiles, P50P90P99AndMaxOfOneSort) {
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);
  const Percentiles p = percentiles_of(hundred);
  EXPECT_DOUBLE_EQ(p.p50, 50.5);
  EXPECT_DOUBLE_EQ(p.p90, 90.1);
  EXPECT_DOUBLE_EQ(p.p99, 99.01);
  EXPECT_DOUBLE_EQ(p.max, 100.0);

  // One slow call among fast ones shows in the tail, not in the median.
  std::vector<double> tail = {2.0, 10.0, 2.0, 2.0};
  const Percentiles t = percentiles_of(tail);
  EXPECT_DOUBLE_EQ(t.p50, 2.0);
  EXPECT_DOUBLE_EQ(t.p90, 7.6);
  EXPECT_DOUBLE_EQ(t.p99, 9.76);
  EXPECT_DOUBLE_EQ(t.max, 10.0);

  std::vector<double> empty;
  const Percentiles e = percentiles_of(empty);
  EXPECT_DOUBLE_EQ(e.p50, 0.0);
  EXPECT_DOUBLE_EQ(e.max, 0.0);
}

}  // namespace
}  // namespace comops
