// EM3D's backend-free core: the update rule on a graph worked by hand, exact remote-edge counts,
// the shape of generated edges, determinism, parameter checks and the wrong-element count.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "comops/apps/em3d/graph.hpp"

namespace comops::em3d {
namespace {

constexpr std::uint64_t P = kModulus;

// np 2, one E and one H node each, degree 2:
//   E on 0 reads H0 (w 2), H1 (w 3);  E on 1 reads H0 (w 1), H1 (w 1)
//   H on 0 reads E0 (w 1), E1 (w 5);  H on 1 reads E0 (w 2), E1 (w 1)
std::vector<Part> tiny_graph() {
  Part p0, p1;
  p0.e.edges = {{0, 0, 2}, {1, 0, 3}};
  p1.e.edges = {{0, 0, 1}, {1, 0, 1}};
  p0.h.edges = {{0, 0, 1}, {1, 0, 5}};
  p1.h.edges = {{0, 0, 2}, {1, 0, 1}};
  return {p0, p1};
}

TEST(Em3dUpdate, TinyGraphOneIterationWorkedByHand) {
  // E0 = 10 - (2*3 + 3*4) = -8 = P-8;  E1 = 20 - (3 + 4) = 13
  // H0 = 3 - (1*(P-8) + 5*13) = 3 - 57 = P-54;  H1 = 4 - (2*(P-8) + 13) = 4 - (P-3) = 7
  const Values start{{10, 20}, {3, 4}};
  const Values one = run_serial(tiny_graph(), 1, 2, start, 1);
  EXPECT_EQ(one, (Values{{P - 8, 13}, {P - 54, 7}}));
}

TEST(Em3dUpdate, TinyGraphTwoIterationsWorkedByHand) {
  // From E = (P-8, 13), H = (P-54, 7), i.e. E = (-8, 13), H = (-54, 7):
  // E0 = -8 - (2*(-54) + 3*7) = -8 + 87 = 79;  E1 = 13 - (-54 + 7) = 60
  // H0 = -54 - (79 + 5*60) = -433 = P-433;  H1 = 7 - (2*79 + 60) = -211 = P-211
  const Values two = run_serial(tiny_graph(), 1, 2, Values{{10, 20}, {3, 4}}, 2);
  EXPECT_EQ(two, (Values{{79, 60}, {P - 433, P - 211}}));
}

TEST(Em3dUpdate, ZeroIterationsKeepTheStart) {
  const Values start{{10, 20}, {3, 4}};
  EXPECT_EQ(run_serial(tiny_graph(), 1, 2, start, 0), start);
}

TEST(Em3dUpdate, LargestProductsDoNotOverflow) {
  // 1000 edges of weight 255 from value P-1 = -1: sum = -255000, new = 0 + 255000.
  const std::vector<Edge> edges(1000, Edge{0, 0, kMaxWeight});
  EXPECT_EQ(update(0, edges.data(), edges.size(), [](const Edge&) { return P - 1; }), 255000u);
  // old P-1, one edge 255 * (P-1) = -255: P-1 + 255 = 254.
  EXPECT_EQ(update(P - 1, edges.data(), 1, [](const Edge&) { return P - 1; }), 254u);
}

TEST(Em3dGraph, RemoteEdgeCountsAreExact) {
  for (int np : {2, 3, 4})
    for (unsigned pct : {0u, 10u, 20u, 50u, 100u}) {
      const Params p{100, 10, pct, 1};
      for (int self = 0; self < np; ++self) {
        const Part part = make_part(p, np, 7, self);
        EXPECT_EQ(part.e.remote_count(self), 10u * pct) << "np " << np << " pct " << pct;
        EXPECT_EQ(part.h.remote_count(self), 10u * pct) << "np " << np << " pct " << pct;
      }
    }
}

TEST(Em3dGraph, RemoteEdgeCountRoundsDown) {
  // 7 nodes x degree 3 = 21 edges: 10 % is 2.1 -> 2, 33 % is 6.93 -> 6, 50 % is 10.5 -> 10.
  EXPECT_EQ(make_part({7, 3, 10, 1}, 3, 1, 0).e.remote_count(0), 2u);
  EXPECT_EQ(make_part({7, 3, 33, 1}, 3, 1, 1).h.remote_count(1), 6u);
  EXPECT_EQ(make_part({7, 3, 50, 1}, 2, 1, 1).e.remote_count(1), 10u);
}

TEST(Em3dGraph, RemoteEdgesAreSpreadEvenly) {
  // At 10 % every tenth edge is remote: edges 9, 19, 29, ...
  for (std::uint64_t k = 0; k < 100; ++k) EXPECT_EQ(edge_is_remote(k, 10), k % 10 == 9) << k;
  for (std::uint64_t k = 0; k < 100; ++k) EXPECT_EQ(edge_is_remote(k, 50), k % 2 == 1) << k;
  const Part part = make_part({10, 10, 10, 1}, 4, 3, 2);
  for (std::size_t k = 0; k < part.e.edges.size(); ++k)
    EXPECT_EQ(part.e.edges[k].owner != 2u, k % 10 == 9) << k;
}

TEST(Em3dGraph, EdgesPointToValidNodesWithValidWeights) {
  const int np = 4;
  const Params p{50, 6, 50, 1};
  std::set<std::uint32_t> remote_owners;
  for (int self = 0; self < np; ++self) {
    const Part part = make_part(p, np, 11, self);
    for (const Side* s : {&part.e, &part.h}) {
      ASSERT_EQ(s->edges.size(), 300u);
      for (const Edge& e : s->edges) {
        EXPECT_LT(e.owner, 4u);
        EXPECT_LT(e.index, 50u);
        EXPECT_GE(e.weight, 1u);
        EXPECT_LE(e.weight, kMaxWeight);
        if (self == 0 && e.owner != 0) remote_owners.insert(e.owner);
      }
    }
  }
  EXPECT_EQ(remote_owners, (std::set<std::uint32_t>{1, 2, 3}));  // every other participant drawn
}

TEST(Em3dGraph, DeterministicAcrossCallsAndParticipants) {
  const Params p{40, 5, 20, 3};
  const std::vector<Part> g = make_graph(p, 3, 5);
  for (int self = 0; self < 3; ++self) {
    const Part again = make_part(p, 3, 5, self);
    EXPECT_EQ(again.e.edges, g[self].e.edges);
    EXPECT_EQ(again.h.edges, g[self].h.edges);
  }
  EXPECT_NE(make_part(p, 3, 6, 0).e.edges, g[0].e.edges);  // another seed, another graph
  EXPECT_NE(g[0].e.edges, g[1].e.edges);                   // participants differ
  EXPECT_EQ(reference(p, 3, 5, 2), reference(p, 3, 5, 2));
  EXPECT_NE(reference(p, 3, 5, 2), reference(p, 3, 6, 2));  // another graph
  EXPECT_NE(reference(p, 3, 5, 2), reference(p, 3, 5, 3));  // other initial values
}

TEST(Em3dGraph, InitialValuesAreInRangeAndBySeed) {
  const Params p{64, 4, 10, 1};
  const Values v = initial_values(p, 2, 9);
  ASSERT_EQ(v.e.size(), 128u);
  ASSERT_EQ(v.h.size(), 128u);
  for (std::uint64_t x : v.e) EXPECT_LT(x, P);
  for (std::uint64_t x : v.h) EXPECT_LT(x, P);
  EXPECT_EQ(std::vector<std::uint64_t>(v.e.begin() + 64, v.e.end()),
            initial_values(p, 9, Kind::kE, 1));
  EXPECT_NE(v.e, initial_values(p, 2, 10).e);
  EXPECT_NE(v.e, v.h);
}

TEST(Em3dGraph, ReferenceIsRunSerialOverTheGraph) {
  const Params p{30, 4, 20, 4};
  const Values want = run_serial(make_graph(p, 2, 1), 30, 4, initial_values(p, 2, 8), 4);
  EXPECT_EQ(reference(p, 2, 1, 8), want);
  EXPECT_NE(want, initial_values(p, 2, 8));  // the iterations changed something
}

TEST(Em3dParams, BadParametersSayWhatIsWrong) {
  auto message = [](const Params& p, int np) {
    try {
      check(p, np);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({0, 10, 10, 1}, 2), "em3d: nodes per participant must be at least 1");
  EXPECT_EQ(message({10, 0, 10, 1}, 2), "em3d: degree must be at least 1");
  EXPECT_EQ(message({10, 10, 101, 1}, 2), "em3d: remote-edge percentage 101 is above 100");
  EXPECT_EQ(message({10, 10, 10, 1}, 1), "em3d: remote edges need at least 2 participants");
  EXPECT_EQ(message({10, 10, 0, 1}, 1), "no error");
  EXPECT_EQ(message({std::size_t{1} << 31, 10, 10, 1}, 2),
            "em3d: 2147483648 nodes x 2 participants x degree 10 is too large");
  EXPECT_THROW(make_part({10, 10, 10, 1}, 2, 1, 2), std::invalid_argument);
}

TEST(Em3dGraph, CountWrongCountsEveryDifferingValue) {
  const Values want{{1, 2, 3, 4}, {5, 6, 7, 8}};
  EXPECT_EQ(count_wrong(want, 2, 1, {3, 4}, {7, 8}), 0u);
  EXPECT_EQ(count_wrong(want, 2, 1, {3, 0}, {0, 0}), 3u);
  EXPECT_EQ(count_wrong(want, 2, 0, {1}, {5, 6}), 1u);  // a missing value is wrong
}

}  // namespace
}  // namespace comops::em3d
