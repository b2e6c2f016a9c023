// The hybrid backend (shared memory inside a node, MPI between one leader per node) under mpiexec
// -n 2, 3 and 4 on one machine, with --hybrid-node-size 0 (one node: MPI's), 1 (every rank its own
// node: MPI alone) and 2 (np 4: two nodes of two; np 3: uneven nodes of two and one): the nodes
// each participant sees; every op of the table exact through measure_point at sizes that travel
// in a flag line, that do not divide among the node's ranks, and 64 KiB; the same ops back to back
// with fresh inputs and no barrier; an injected fault found; a window past --hybrid-window-max
// agreed by every rank of every node, after which the next point runs.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "comops/hybrid/backend.hpp"
#include "comops/hybrid/hybrid_comm.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_binder.hpp"
#include "harness/ops/op_descriptors.hpp"
#include "harness/ops/op_queries.hpp"
#include "harness/runtime/pinning.hpp"
#include "tests/mpi_world.hpp"
#include "tests/op_test_util.hpp"

namespace comops {
namespace {

using test::point;
using test::quick;
using test::world_rank;
using test::world_size;

// 8 B: one element; 24 B: three elements, which two or four node ranks cannot share evenly;
// 64 KiB: many pages.
const std::vector<std::size_t> kSizes = {8, 24, 64 << 10};

// The hybrid backend made with `options` (e.g. "--hybrid-node-size=2").
std::unique_ptr<Backend> hybrid_backend(std::vector<std::string> options) {
  auto family = make_hybrid_family();
  CLI::App app;
  family->add_options(app);
  std::reverse(options.begin(), options.end());
  app.parse(options);
  family->validate();
  auto backends = family->create();
  return std::move(backends.at(0));
}

Backend& hybrid(int node_size) {
  static std::vector<std::unique_ptr<Backend>> backends = [] {
    std::vector<std::unique_ptr<Backend>> v;
    for (int n : {0, 1, 2})
      v.push_back(hybrid_backend({"--hybrid-node-size=" + std::to_string(n)}));
    return v;
  }();
  return *backends.at(static_cast<std::size_t>(node_size));
}

struct Case {
  int node_size;
  OpKind op;
};

std::vector<Case> cases(bool moves_data_only) {
  std::vector<Case> out;
  for (int n : {0, 1, 2})
    for (OpKind op : all_ops())
      if (bind_op(hybrid(n), op) && (!moves_data_only || op_moves_data(op))) out.push_back({n, op});
  return out;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return test::case_label("node" + std::to_string(info.param.node_size), info.param.op);
}

// kSizes, or the two of COMOPS_HYBRID_TEST_SIZES=SMALL,LARGE (the ctests past the cores).
std::vector<std::size_t> sizes_of(OpKind op) {
  if (!op_moves_data(op)) return {0};
  return test::sizes_or_env("COMOPS_HYBRID_TEST_SIZES", kSizes);
}

// The nodes (participants of each) expected at np ranks of one machine.
std::vector<int> expected_nodes(int node_size, int np) {
  if (node_size == 0) return {np};
  std::vector<int> nodes;
  for (int left = np; left > 0; left -= node_size) nodes.push_back(std::min(left, node_size));
  return nodes;
}

TEST(HybridBackend, TableAndNodesOfEachNodeSize) {
  const std::vector<OpKind> table = {
      OpKind::kPingpong,     OpKind::kPingpongNb,  OpKind::kBroadcast, OpKind::kReduceMax,
      OpKind::kReduceSum,    OpKind::kGather,      OpKind::kScatter,   OpKind::kBarrier,
      OpKind::kAllreduceMax, OpKind::kAllreduceSum};
  std::vector<OpKind> kinds;
  for (const OpEntry& e : hybrid(0).ops()) kinds.push_back(e.kind);
  EXPECT_EQ(kinds, table);
  EXPECT_EQ(hybrid(0).label(), "hybrid");
  EXPECT_EQ(hybrid(0).participants(), Participants::kProcesses);
  EXPECT_FALSE(hybrid(0).node_local());
  EXPECT_EQ(hybrid(2).context().at("node_size"), 2);
  EXPECT_EQ(hybrid(0).context().at("window_max_bytes"), std::size_t{4} << 30);
  const int np = world_size();
  for (int n : {0, 1, 2}) {
    const std::vector<int> nodes = expected_nodes(n, np);
    hybrid(n).spmd(np, [&](Comm& comm) {
      auto& hc = hybrid::hybrid_comm(comm);
      EXPECT_EQ(hc.node_sizes(), nodes) << "node size " << n;
      const int first = n == 0 ? 0 : comm.rank() / n * n;  // the node's leader
      EXPECT_EQ(hc.node(), n == 0 ? 0 : comm.rank() / n);
      EXPECT_EQ(hc.node_rank(), comm.rank() - first);
      EXPECT_EQ(hc.leader(), comm.rank() == first);
      EXPECT_EQ(hc.leaders() != MPI_COMM_NULL, hc.leader());
      std::vector<int> order(static_cast<std::size_t>(np));
      for (int r = 0; r < np; ++r) order[static_cast<std::size_t>(r)] = r;
      EXPECT_EQ(hc.node_order(), order);
    });
  }
}

class HybridOps : public testing::TestWithParam<Case> {};

TEST_P(HybridOps, ExactAtTheWorldSize) {
  const Case& c = GetParam();
  const int np = std::max(op_min_np(c.op), world_size());
  Pinning pinning(BindPolicy::kCompact);
  for (std::size_t bytes : sizes_of(c.op)) {
    const PointResult r =
        measure_point(hybrid(c.node_size), point(c.op, np, bytes), quick(), pinning);
    if (world_rank() != 0) continue;
    EXPECT_EQ(r.wrong, 0) << "bytes=" << bytes;
    EXPECT_EQ(r.backend, "hybrid");
    EXPECT_EQ(r.iterations, 3);
  }
}

// Each process refills its own buffers with a new seed right before every run and checks its
// receive buffer right after, with no barrier in between: right only if no buffer is read or
// written by another participant outside its owner's run.
class HybridBackToBack : public testing::TestWithParam<Case> {};

TEST_P(HybridBackToBack, FreshInputsAndNoBarrier) {
  const Case& c = GetParam();
  const int np = std::max(op_min_np(c.op), world_size());
  const OpFactory factory = bind_op(hybrid(c.node_size), c.op);
  ASSERT_TRUE(factory);
  for (std::size_t bytes : sizes_of(c.op)) {
    const Args args = point(c.op, np, bytes);
    const std::int64_t wrong = test::back_to_back_wrong(hybrid(c.node_size), factory, args);
    EXPECT_EQ(wrong, 0) << "bytes=" << bytes;
  }
}

// The one element the harness flips is found, nothing else.
class HybridFault : public testing::TestWithParam<Case> {};

TEST_P(HybridFault, InjectedFaultIsFound) {
  const Case& c = GetParam();
  Pinning pinning(BindPolicy::kNone);
  const Args args = point(c.op, std::max(op_min_np(c.op), world_size()), 64);
  const PointResult r = measure_point(hybrid(c.node_size), args, quick(true), pinning);
  if (world_rank() == 0) {
    EXPECT_EQ(r.wrong, recv_count(args, fault_rank(args)) > 0 ? 1 : 0);
  }
}

INSTANTIATE_TEST_SUITE_P(NodeSizes, HybridOps, testing::ValuesIn(cases(false)), case_name);
INSTANTIATE_TEST_SUITE_P(NodeSizes, HybridBackToBack, testing::ValuesIn(cases(false)), case_name);
INSTANTIATE_TEST_SUITE_P(NodeSizes, HybridFault, testing::ValuesIn(cases(true)), case_name);

// A point whose windows would pass --hybrid-window-max on some node is one AgreedError on every
// rank of every node, naming the option; the backend then runs the next point.
TEST(HybridWindow, PastTheMaxIsAgreedByEveryRankAndTheNextPointRuns) {
  for (const std::string node_size : {"0", "2"}) {
    auto small = hybrid_backend({"--hybrid-window-max=64K", "--hybrid-node-size=" + node_size});
    Pinning pinning(BindPolicy::kNone);
    const Args big = point(OpKind::kGather, world_size(), std::size_t{32} << 10);
    try {
      measure_point(*small, big, quick(), pinning);
      ADD_FAILURE() << "a gather of 32 KiB blocks fitted 64 KiB of windows";
    } catch (const AgreedError& e) {
      EXPECT_NE(std::string(e.what()).find("more than --hybrid-window-max=65536 bytes"),
                std::string::npos)
          << e.what();
    }
    const PointResult r =
        measure_point(*small, point(OpKind::kBroadcast, world_size(), 64), quick(), pinning);
    if (world_rank() == 0) {
      EXPECT_EQ(r.wrong, 0);
    }
  }
}

TEST(HybridFamily, NodeSizeAndWindowMaxAreValidated) {
  for (const std::string bad : {"--hybrid-node-size=-1", "--hybrid-window-max=1K"}) {
    try {
      hybrid_backend({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(bad.substr(0, bad.find('='))), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace comops
