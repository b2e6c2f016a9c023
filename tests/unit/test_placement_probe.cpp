// Unit tests of the placement probe beside every point (harness/machine/placement_probe.hpp):
// the cores it runs between for a point's placement, one probe's figure and binding, and the
// row's JSON form.
#include "harness/machine/placement_probe.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/runtime/pinning.hpp"
#include "harness/runtime/placement.hpp"

namespace comops {
namespace {

TEST(PlacementProbe, JsonIsTheTwoProbesAndTheCoresOrNull) {
  EXPECT_EQ(to_json(std::optional<PlacementProbe>()), nlohmann::json(nullptr));
  const PlacementProbe p{0.061, 0.058, 0, 1};
  EXPECT_EQ(to_json(std::optional<PlacementProbe>(p)),
            nlohmann::json::parse(R"({"before_us": 0.061, "after_us": 0.058, "cores": [0, 1]})"));
}

TEST(PlacementProbe, CoresAreThePointsFirstTwoOnNodeZero) {
  const Pinning pinning(BindPolicy::kCompact);
  if (pinning.cores() < 2) GTEST_SKIP() << "one core: no probe";
  const NodeMap nodes = single_node_map(pinning.cores());
  const auto two = probe_cores(pinning, place_threads(nodes, 2, Pair::kNone));
  ASSERT_TRUE(two);
  EXPECT_EQ(*two, std::make_pair(pinning.core_for(0, 2), pinning.core_for(1, 2)));
  // One participant on node 0 (a point of one): the cores of a two-participant point.
  const auto one = probe_cores(pinning, place_threads(nodes, 1, Pair::kNone));
  ASSERT_TRUE(one);
  EXPECT_EQ(*one, *two);
}

TEST(PlacementProbe, UnboundWithBindNone) {
  const Pinning pinning(BindPolicy::kNone);
  if (pinning.cores() < 2) GTEST_SKIP() << "one core: no probe";
  const auto cores = probe_cores(pinning, place_threads(single_node_map(2), 2, Pair::kNone));
  ASSERT_TRUE(cores);
  EXPECT_EQ(*cores, std::make_pair(-1, -1));
  int a = 0, b = 0;
  EXPECT_GT(probe_round_trip_us(pinning, *cores, a, b), 0.0);
  EXPECT_EQ(std::make_pair(a, b), std::make_pair(-1, -1));
}

TEST(PlacementProbe, AProbeIsARoundTripOnTheCoresAsked) {
  const Pinning pinning(BindPolicy::kCompact);
  if (pinning.cores() < 2) GTEST_SKIP() << "one core: no probe";
  const std::pair<int, int> cores{pinning.core_for(0, 2), pinning.core_for(1, 2)};
  int a = -1, b = -1;
  const double us = probe_round_trip_us(pinning, cores, a, b);
  EXPECT_GT(us, 0.0);
  EXPECT_EQ(a, cores.first);
  EXPECT_EQ(b, cores.second);
}

}  // namespace
}  // namespace comops
