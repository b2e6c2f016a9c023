// Node maps and placement: which world ranks a point uses on several nodes, node-local binding
// indices, the nodes a point spans, per-node oversubscription and the ping-pong pairs.
#include <gtest/gtest.h>

#include "harness/runtime/placement.hpp"

namespace comops {
namespace {

// Two nodes of `per_node` ranks each, launched packed (ranks 0..k-1 on "a", the rest on "b"),
// with `cores` cores each.
NodeMap two_nodes(int per_node, int cores) {
  std::vector<int> label;
  std::vector<std::string> hosts;
  for (int r = 0; r < 2 * per_node; ++r) {
    label.push_back(r < per_node ? 0 : per_node);
    hosts.push_back(r < per_node ? "a" : "b");
  }
  return make_node_map(label, hosts, std::vector<int>(label.size(), 100),
                       std::vector<int>(label.size(), cores));
}

TEST(NodeMap, NodesNumberedByLowestRankWhateverTheLabels) {
  // A round-robin launch: even ranks on host x (label 7), odd ranks on host y (label 3).
  const NodeMap m =
      make_node_map({7, 3, 7, 3, 7}, {"x", "y", "x", "y", "x"}, {1, 2, 3, 4, 5}, {4, 2, 4, 2, 4});
  ASSERT_EQ(m.nodes(), 2);
  EXPECT_EQ(m.node_of_rank, (std::vector<int>{0, 1, 0, 1, 0}));
  EXPECT_EQ(m.ranks[0], (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(m.ranks[1], (std::vector<int>{1, 3}));
  EXPECT_EQ(m.host, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(m.cores, (std::vector<int>{4, 2}));
  EXPECT_EQ(m.local_rank(4), 2);
  EXPECT_EQ(m.local_rank(3), 1);
  EXPECT_EQ(m.host_of_rank(3), "y");
  EXPECT_EQ(m.pid_of_rank[4], 5);
}

TEST(NodeMap, MismatchedFactsAreARuntimeError) {
  EXPECT_THROW(make_node_map({0, 0}, {"a"}, {1, 2}, {2, 2}), RuntimeError);
  EXPECT_THROW(make_node_map({}, {}, {}, {}), RuntimeError);
}

TEST(Placement, PackedFillsRankZerosNodeFirst) {
  // Ranks launched round-robin: packed still takes node 0's ranks first.
  const NodeMap m = make_node_map({0, 1, 0, 1}, {"a", "b", "a", "b"}, {1, 2, 3, 4}, {2, 2, 2, 2});
  const Placement p = place_processes(m, 3, PlacementPolicy::kPacked, Pair::kNone);
  EXPECT_EQ(p.group.ranks, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(p.node, (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(p.local_index, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(p.local_count, (std::vector<int>{2, 2, 1}));
  EXPECT_EQ(p.nodes, 2);
  EXPECT_FALSE(p.oversubscribed);
}

TEST(Placement, SpreadGoesRoundRobinOverNodes) {
  const NodeMap m = two_nodes(3, 16);
  const Placement p = place_processes(m, 4, PlacementPolicy::kSpread, Pair::kNone);
  EXPECT_EQ(p.group.ranks, (std::vector<int>{0, 3, 1, 4}));
  EXPECT_EQ(p.local_index, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(p.local_count, (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(p.nodes, 2);
  const Placement two = place_processes(m, 2, PlacementPolicy::kPacked, Pair::kNone);
  EXPECT_EQ(two.group.ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(two.nodes, 1);
}

TEST(Placement, OversubscriptionIsJudgedPerNode) {
  // Two 16-core nodes with 32 ranks: 16 on each, nobody oversubscribed.
  EXPECT_FALSE(
      place_processes(two_nodes(16, 16), 32, PlacementPolicy::kPacked, Pair::kNone).oversubscribed);
  // Three ranks on a 2-core node, even though the two nodes have 4 cores together.
  const Placement p = place_processes(two_nodes(3, 2), 4, PlacementPolicy::kPacked, Pair::kNone);
  EXPECT_EQ(p.group.ranks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(p.oversubscribed);
  // Spread puts two on each node: fits.
  EXPECT_FALSE(
      place_processes(two_nodes(3, 2), 4, PlacementPolicy::kSpread, Pair::kNone).oversubscribed);
}

TEST(Placement, ThreadsLiveOnNodeZeroAndUseItsCores) {
  const NodeMap m = two_nodes(1, 4);
  const Placement p = place_threads(m, 4, Pair::kIntra);
  EXPECT_EQ(p.group.ranks, (std::vector<int>{0, 1, 2, 3}));  // thread indices
  EXPECT_EQ(p.node, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(p.local_index, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(p.nodes, 1);
  EXPECT_FALSE(p.oversubscribed);
  EXPECT_TRUE(place_threads(m, 5, Pair::kNone).oversubscribed);
}

TEST(Placement, PairsChooseParticipantOne) {
  const NodeMap m = two_nodes(2, 8);
  const Placement intra = place_processes(m, 2, PlacementPolicy::kPacked, Pair::kIntra);
  EXPECT_EQ(intra.group.ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(intra.nodes, 1);
  const Placement inter = place_processes(m, 2, PlacementPolicy::kPacked, Pair::kInter);
  EXPECT_EQ(inter.group.ranks, (std::vector<int>{0, 2}));
  EXPECT_EQ(inter.nodes, 2);
  EXPECT_EQ(inter.pair, Pair::kInter);
  // The idle participants follow the placement after the pair.
  const Placement four = place_processes(m, 4, PlacementPolicy::kPacked, Pair::kInter);
  EXPECT_EQ(four.group.ranks, (std::vector<int>{0, 2, 1, 3}));
  // The span of a ping-pong point is its timed pair's, whatever the idle participants do.
  EXPECT_EQ(place_processes(m, 4, PlacementPolicy::kPacked, Pair::kIntra).nodes, 1);
  EXPECT_EQ(place_processes(m, 4, PlacementPolicy::kPacked, Pair::kNone).nodes, 2);
  // Spread would put rank 2 second anyway; intra moves rank 1 there.
  const Placement spread = place_processes(m, 3, PlacementPolicy::kSpread, Pair::kIntra);
  EXPECT_EQ(spread.group.ranks, (std::vector<int>{0, 1, 2}));
}

TEST(Placement, ImpossiblePairsAreUsageErrors) {
  const NodeMap one = make_node_map({0, 0}, {"solo", "solo"}, {1, 2}, {2, 2});
  try {
    place_processes(one, 2, PlacementPolicy::kPacked, Pair::kInter);
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--pair=inter needs ranks on two nodes, but all 2 rank(s) run on one node (solo)");
  }
  const NodeMap lonely = two_nodes(1, 4);  // one rank per node
  EXPECT_THROW(place_processes(lonely, 2, PlacementPolicy::kPacked, Pair::kIntra), UsageError);
  EXPECT_THROW(place_processes(one, 3, PlacementPolicy::kPacked, Pair::kNone), UsageError);
}

TEST(ResolvePairs, AutoIsBothOnSeveralNodesAndIntraOnOne) {
  const NodeMap one = make_node_map({0, 0}, {"solo", "solo"}, {1, 2}, {2, 2});
  EXPECT_EQ(resolve_pairs("auto", one, true), (std::vector<Pair>{Pair::kIntra}));
  EXPECT_EQ(resolve_pairs("auto", two_nodes(2, 2), true),
            (std::vector<Pair>{Pair::kIntra, Pair::kInter}));
  EXPECT_EQ(resolve_pairs("auto", two_nodes(1, 2), true), (std::vector<Pair>{Pair::kInter}));
  EXPECT_EQ(resolve_pairs("both", two_nodes(2, 2), true),
            (std::vector<Pair>{Pair::kIntra, Pair::kInter}));
  EXPECT_EQ(resolve_pairs("inter", two_nodes(2, 2), true), (std::vector<Pair>{Pair::kInter}));
  EXPECT_THROW(resolve_pairs("inter", one, true), UsageError);
  EXPECT_THROW(resolve_pairs("both", one, true), UsageError);
  EXPECT_THROW(resolve_pairs("sideways", one, true), UsageError);
  // Threads only: always one node; a world of one rank is fine.
  const NodeMap single = single_node_map(2);
  EXPECT_EQ(resolve_pairs("auto", single, false), (std::vector<Pair>{Pair::kIntra}));
  EXPECT_EQ(resolve_pairs("both", single, false), (std::vector<Pair>{Pair::kIntra}));
  EXPECT_THROW(resolve_pairs("inter", single, false), UsageError);
}

TEST(ParsePlacement, NamesRoundTripAndUnknownIsAUsageError) {
  EXPECT_EQ(parse_placement("packed"), PlacementPolicy::kPacked);
  EXPECT_EQ(parse_placement("spread"), PlacementPolicy::kSpread);
  EXPECT_EQ(placement_name(PlacementPolicy::kSpread), "spread");
  EXPECT_THROW(parse_placement("scatter"), UsageError);
  EXPECT_EQ(pair_name(Pair::kInter), "inter");
  EXPECT_EQ(pair_name(Pair::kNone), "");
}

}  // namespace
}  // namespace comops
