// Unit tests of the sweep as data (harness/plan/sweep.hpp): the exact list of points, merged table
// membership, barrier at 0 bytes, and backends that lack an op.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "comops/op.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/plan/config.hpp"
#include "harness/plan/sweep.hpp"

namespace comops {
namespace {

// One point as text, so a mismatch shows the whole list.
std::string describe(const Point& p) {
  std::string s = fmt::format("{} {} np={} bytes={}", p.backend, op_name(p.op), p.np, p.bytes);
  if (p.size_table) s += " size";
  if (p.np_table) s += " np";
  if (p.pair != Pair::kNone) s += fmt::format(" {}", pair_name(p.pair));
  return s;
}

std::vector<std::string> describe(const std::vector<Point>& points) {
  std::vector<std::string> out;
  for (const auto& p : points) out.push_back(describe(p));
  return out;
}

// A backend that implements every op except those it is told to lack; it never runs anything.
class FakeBackend final : public Backend {
 public:
  FakeBackend(std::string label, std::set<OpKind> lacks, Participants kind = Participants::kThreads,
              bool node_local = false)
      : label_(std::move(label)), lacks_(std::move(lacks)), kind_(kind), node_local_(node_local) {}
  std::string label() const override { return label_; }
  Participants participants() const override { return kind_; }
  bool node_local() const override { return kind_ == Participants::kThreads || node_local_; }
  OpTable ops() const override {
    OpTable table;
    for (OpKind kind : all_ops())
      if (!lacks_.count(kind))
        table.push_back({kind, [](Comm&, const Args&, Buffers&) -> std::unique_ptr<OpInstance> {
                           return nullptr;
                         }});
    return table;
  }
  int max_participants() const override { return 64; }
  void spmd(const Group&, const std::function<void(Comm&)>&) override {
    throw RuntimeError("the fake backend runs nothing");
  }

 private:
  std::string label_;
  std::set<OpKind> lacks_;
  Participants kind_;
  bool node_local_;
};

Config sweep_config() {
  Config c;
  c.sizes = {8, 1024};
  c.np_list = {2, 4};
  c.size_np = 2;
  c.np_bytes = 1024;
  c.ops = {OpKind::kPingpong, OpKind::kBarrier};
  return c;
}

const OpKind kPP = OpKind::kPingpong;
const OpKind kBar = OpKind::kBarrier;
const Pair kIntra = Pair::kIntra;
const Pair kInter = Pair::kInter;

TEST(BuildSweep, ExactPointsForOneBackend) {
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(std::make_unique<FakeBackend>("fake", std::set<OpKind>{}));
  std::vector<std::string> skipped;
  const auto points = build_sweep(sweep_config(), backends, &skipped);
  const std::vector<Point> expected = {
      {0, kPP, 2, 8, true, false, kIntra},     // size table
      {0, kPP, 2, 1024, true, true, kIntra},   // in both tables, once
      {0, kPP, 4, 1024, false, true, kIntra},  // np table
      {0, kBar, 2, 0, false, true},            // barrier: np table at 0 bytes
      {0, kBar, 4, 0, false, true},
  };
  EXPECT_EQ(describe(points), describe(expected));
  EXPECT_TRUE(skipped.empty());
}

TEST(BuildSweep, BarrierAddsSizeNpWhenMissingFromNpList) {
  Config c = sweep_config();
  c.size_np = 3;
  c.ops = {kBar};
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(std::make_unique<FakeBackend>("fake", std::set<OpKind>{}));
  const auto points = build_sweep(c, backends, nullptr);
  const std::vector<Point> expected = {
      {0, kBar, 2, 0, false, true}, {0, kBar, 3, 0, false, true}, {0, kBar, 4, 0, false, true}};
  EXPECT_EQ(describe(points), describe(expected));
}

TEST(BuildSweep, BackendLackingAnOpIsSkippedAndNamed) {
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(std::make_unique<FakeBackend>("full", std::set<OpKind>{}));
  backends.push_back(std::make_unique<FakeBackend>("nobarrier", std::set<OpKind>{kBar}));
  std::vector<std::string> skipped;
  const auto points = build_sweep(sweep_config(), backends, &skipped);
  const std::vector<Point> expected = {
      {0, kPP, 2, 8, true, false, kIntra},    {0, kPP, 2, 1024, true, true, kIntra},
      {0, kPP, 4, 1024, false, true, kIntra}, {0, kBar, 2, 0, false, true},
      {0, kBar, 4, 0, false, true},           {1, kPP, 2, 8, true, false, kIntra},
      {1, kPP, 2, 1024, true, true, kIntra},  {1, kPP, 4, 1024, false, true, kIntra},
  };
  EXPECT_EQ(describe(points), describe(expected));
  EXPECT_EQ(skipped, (std::vector<std::string>{"nobarrier: barrier is not implemented"}));

  // Without a list to fill, the op is still left out.
  EXPECT_EQ(build_sweep(sweep_config(), backends, nullptr).size(), expected.size());
}

TEST(BuildSweep, PingpongOncePerPairAndThreadsOnlyIntra) {
  Config c = sweep_config();
  c.pairs = {Pair::kIntra, Pair::kInter};
  c.sizes = {8};
  c.np_list = {2};
  c.np_bytes = 8;
  c.np_bytes_given = true;
  c.ops = {kPP};
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(
      std::make_unique<FakeBackend>("procs", std::set<OpKind>{}, Participants::kProcesses));
  backends.push_back(std::make_unique<FakeBackend>("threads", std::set<OpKind>{}));
  std::vector<std::string> skipped;
  const auto points = build_sweep(c, backends, &skipped);
  const std::vector<Point> expected = {
      {0, kPP, 2, 8, true, true, kIntra},
      {0, kPP, 2, 8, true, true, kInter},
      {1, kPP, 2, 8, true, true, kIntra},
  };
  EXPECT_EQ(describe(points), describe(expected));
  EXPECT_EQ(skipped,
            (std::vector<std::string>{
                "threads: pingpong between nodes is not possible (threads share one node)"}));
}

TEST(BuildSweep, OneNpMakesNoNpTableForSizedOpsUnlessNpBytesIsGiven) {
  Config c = sweep_config();
  c.np_list = {2};
  c.np_bytes = 4096;  // not among the sizes: --sizes=8,1K must not also measure 4K
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(std::make_unique<FakeBackend>("fake", std::set<OpKind>{}));
  EXPECT_FALSE(np_tables(c));
  const std::vector<Point> without = {
      {0, kPP, 2, 8, true, false, kIntra},
      {0, kPP, 2, 1024, true, false, kIntra},
      {0, kBar, 2, 0, false, true},  // the barrier has no other table
  };
  EXPECT_EQ(describe(build_sweep(c, backends, nullptr)), describe(without));

  c.np_bytes_given = true;  // --np-bytes named: its table, even at one np
  EXPECT_TRUE(np_tables(c));
  const std::vector<Point> with = {
      {0, kPP, 2, 8, true, false, kIntra},
      {0, kPP, 2, 1024, true, false, kIntra},
      {0, kPP, 2, 4096, false, true, kIntra},
      {0, kBar, 2, 0, false, true},
  };
  EXPECT_EQ(describe(build_sweep(c, backends, nullptr)), describe(with));

  c.np_bytes_given = false;  // two counts: the table they ask for
  c.np_list = {2, 4};
  EXPECT_TRUE(np_tables(c));
  EXPECT_EQ(build_sweep(c, backends, nullptr).size(), 6u);  // 4096 at np 2 and 4
}

TEST(BuildSweep, NoBackendsNoPoints) {
  std::vector<std::unique_ptr<Backend>> backends;
  std::vector<std::string> skipped;
  EXPECT_TRUE(build_sweep(sweep_config(), backends, &skipped).empty());
  EXPECT_TRUE(skipped.empty());
}

// The pair ops (both ping-pongs, stream-bw) get a point per pair; only stream-bw's points carry
// --window, into their Args; an inter pair on threads is skipped with the op's name.
TEST(BuildSweep, PairOpsAndTheWindow) {
  Config c = sweep_config();
  c.np_list = {2};
  c.sizes = {8};
  c.ops = {OpKind::kPingpongNb, OpKind::kStreamBw, OpKind::kGather};
  c.pairs = {kIntra, kInter};
  c.window = 16;
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(
      std::make_unique<FakeBackend>("procs", std::set<OpKind>{}, Participants::kProcesses));
  std::vector<std::string> skipped;
  const auto points = build_sweep(c, backends, &skipped);
  EXPECT_EQ(describe(points),
            (std::vector<std::string>{
                "0 pingpong-nb np=2 bytes=8 size intra", "0 pingpong-nb np=2 bytes=8 size inter",
                "0 stream-bw np=2 bytes=8 size intra", "0 stream-bw np=2 bytes=8 size inter",
                "0 gather np=2 bytes=8 size"}));
  EXPECT_TRUE(skipped.empty());
  for (const Point& p : points) {
    EXPECT_EQ(p.window, p.op == OpKind::kStreamBw ? 16 : 1) << describe(p);
    EXPECT_EQ(args_for(p).window, p.window) << describe(p);
  }
  backends.clear();
  backends.push_back(std::make_unique<FakeBackend>("threads", std::set<OpKind>{}));
  EXPECT_EQ(build_sweep(c, backends, &skipped).size(), 3u);
  EXPECT_EQ(skipped,
            (std::vector<std::string>{
                "threads: pingpong-nb between nodes is not possible (threads share one node)",
                "threads: stream-bw between nodes is not possible (threads share one node)"}));
}

TEST(ArgsFor, CountAndRoot) {
  const Point p{0, OpKind::kGather, 4, 1024, true, false};
  const Args a = args_for(p);
  EXPECT_EQ(a.op, OpKind::kGather);
  EXPECT_EQ(a.np, 4);
  EXPECT_EQ(a.bytes, 1024u);
  EXPECT_EQ(a.count, 128u);
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(args_for({0, kBar, 2, 0, false, true}).count, 0u);
}

// Processes that share one node's memory (shmp): their inter-node ping-pong is left out like the
// threads', an np above node 0's ranks is left out with one note per backend, op and np, and
// their participants are node 0's first ranks whatever the policy; other backends keep theirs.
TEST(BuildSweep, NodeLocalProcessesStayOnNodeZero) {
  Config c = sweep_config();
  c.pairs = {Pair::kIntra, Pair::kInter};
  c.ops = {kPP, OpKind::kBroadcast};
  std::vector<std::unique_ptr<Backend>> backends;
  backends.push_back(
      std::make_unique<FakeBackend>("mpi", std::set<OpKind>{}, Participants::kProcesses));
  backends.push_back(
      std::make_unique<FakeBackend>("shmp", std::set<OpKind>{}, Participants::kProcesses, true));
  backends.push_back(std::make_unique<FakeBackend>("shm", std::set<OpKind>{}));
  std::vector<std::string> skipped;
  std::vector<Point> points = build_sweep(c, backends, &skipped);
  // Two nodes of two ranks: world ranks 0 and 1 on node a, 2 and 3 on node b.
  const NodeMap nodes =
      make_node_map({0, 0, 1, 1}, {"a", "a", "b", "b"}, {1, 2, 3, 4}, {2, 2, 2, 2});
  drop_beyond_node0(nodes, backends, points, &skipped);
  std::vector<std::string> shmp;
  for (const Point& p : points)
    if (p.backend == 1) shmp.push_back(describe(p));
  EXPECT_EQ(shmp,
            (std::vector<std::string>{
                "1 pingpong np=2 bytes=8 size intra", "1 pingpong np=2 bytes=1024 size np intra",
                "1 broadcast np=2 bytes=8 size", "1 broadcast np=2 bytes=1024 size np"}));
  EXPECT_EQ(skipped, (std::vector<std::string>{
                         "shmp: pingpong between nodes is not possible (processes share one node)",
                         "shm: pingpong between nodes is not possible (threads share one node)",
                         "shmp: pingpong at np=4 needs 4 ranks on node 0 (a), which runs 2",
                         "shmp: broadcast at np=4 needs 4 ranks on node 0 (a), which runs 2"}));
  const Point four{0, OpKind::kBroadcast, 4, 1024};
  EXPECT_EQ(place_point(*backends[0], nodes, four, PlacementPolicy::kSpread).group.ranks,
            (std::vector<int>{0, 2, 1, 3}));
  const Point two{1, OpKind::kBroadcast, 2, 1024};
  const Placement shmp_two = place_point(*backends[1], nodes, two, PlacementPolicy::kSpread);
  EXPECT_EQ(shmp_two.group.ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(shmp_two.nodes, 1);
  EXPECT_EQ(place_point(*backends[0], nodes, two, PlacementPolicy::kSpread).nodes, 2);
  EXPECT_EQ(place_point(*backends[2], nodes, four, PlacementPolicy::kSpread).node,
            (std::vector<int>{0, 0, 0, 0}));  // threads: rank 0's process
}

}  // namespace
}  // namespace comops
