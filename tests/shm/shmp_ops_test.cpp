// The shmp backends (the shm op code on MPI processes of one node sharing MPI-3 windows) under
// mpiexec -n 2, 3 and 4: every op of shmp-staged and shmp-direct through measure_point, exact at
// the world's np with the roots 0 and np-1 (oversubscribed where the cores are fewer, which must
// not change a result), and the applications (matmul, em3d) at a few parameters; the same ops back
// to back with fresh inputs and no barrier; an injected fault found; a window past
// --shmp-window-max agreed by every rank, after which the team still runs. Kept small (a few
// sizes, 3 iterations): CI runs it at three world sizes.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "comops/rma.hpp"
#include "comops/shm/backend.hpp"
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

// 8 B travels inline in a flag line, 64 B is the smallest message that does not, 16392 B is just
// above the split-copy and sliced-reduction thresholds and odd.
const std::vector<std::size_t> kSizes = {8, 64, 16392};

// The shmp backends made with `options` (e.g. "--shmp-window-max=64K"), by label.
std::map<std::string, std::unique_ptr<Backend>> shmp_backends(std::vector<std::string> options) {
  auto family = make_shmp_family();
  CLI::App app;
  family->add_options(app);
  std::reverse(options.begin(), options.end());
  app.parse(options);
  std::map<std::string, std::unique_ptr<Backend>> out;
  for (auto& b : family->create()) out[b->label()] = std::move(b);
  return out;
}

Backend& shmp(const std::string& scheme) {
  static auto backends = shmp_backends({});
  return *backends.at("shmp-" + scheme);
}

struct Case {
  std::string scheme;
  OpKind op;
};

// Every op (the applications apart, below) of each scheme's table that `keep` keeps.
template <class Keep>
std::vector<Case> cases(Keep keep) {
  std::vector<Case> out;
  for (const std::string scheme : {"staged", "direct"})
    for (OpKind op : all_ops())
      if (!op_is_app(op) && bind_op(shmp(scheme), op) && keep(op)) out.push_back({scheme, op});
  return out;
}

bool passive_target(OpKind op) { return op_descriptor(op).one_sided() && !rma_shape(op, 0).fence; }

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return test::case_label(info.param.scheme, info.param.op);
}

// The sizes of an op's points: kSizes, or the two of COMOPS_SHMP_TEST_SIZES=SMALL,LARGE (the
// ctests past the cores keep the inline and the split paths only).
std::vector<std::size_t> sizes_of(OpKind op) {
  if (!op_moves_data(op)) return {0};
  return test::sizes_or_env("COMOPS_SHMP_TEST_SIZES", kSizes);
}

class ShmpOps : public testing::TestWithParam<Case> {};

TEST_P(ShmpOps, ExactAtTheWorldSizeAndEveryRoot) {
  const Case& c = GetParam();
  const int np = std::max(op_min_np(c.op), world_size());
  ASSERT_LE(np, world_size()) << "the ctest gives every op enough ranks";
  Pinning pinning(BindPolicy::kCompact);
  const bool rooted = op_descriptor(c.op).rooted();
  for (std::size_t bytes : sizes_of(c.op))
    for (int root : rooted ? std::vector<int>{0, np - 1} : std::vector<int>{0}) {
      const PointResult r =
          measure_point(shmp(c.scheme), point(c.op, np, bytes, root), quick(), pinning);
      if (world_rank() != 0) continue;
      EXPECT_EQ(r.wrong, 0) << "bytes=" << bytes << " root=" << root;
      EXPECT_EQ(r.backend, "shmp-" + c.scheme);
      EXPECT_EQ(r.iterations, 3);
      ASSERT_EQ(r.cores.size(), static_cast<std::size_t>(np));
      for (int core : r.cores) EXPECT_GE(core, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(BothSchemes, ShmpOps,
                         testing::ValuesIn(cases([](OpKind) { return true; })), case_name);

// The one element the harness flips is found, nothing else (the checker can fail on processes):
// the ops that move data (not barrier).
class ShmpFault : public testing::TestWithParam<Case> {};

TEST_P(ShmpFault, InjectedFaultIsFound) {
  const Case& c = GetParam();
  Pinning pinning(BindPolicy::kNone);
  const Args args = point(c.op, world_size(), 64);
  const PointResult r = measure_point(shmp(c.scheme), args, quick(true), pinning);
  if (world_rank() == 0) {
    EXPECT_EQ(r.wrong, recv_count(args, fault_rank(args)) > 0 ? 1 : 0);
  }
}

// Runs as an MPI program would issue them: each process refills its own buffers with a new seed
// right before every run and checks its receive buffer right after, with no barrier in between.
// Right only if no send buffer is read after its owner's run returned and no receive buffer is
// written outside its owner's run. Passive-target ops are left out: their target's buffers are
// the origin's to use at any time.
class ShmpBackToBack : public testing::TestWithParam<Case> {};

TEST_P(ShmpBackToBack, FreshInputsAndNoBarrier) {
  const Case& c = GetParam();
  const int np = std::max(op_min_np(c.op), world_size());
  const OpFactory factory = bind_op(shmp(c.scheme), c.op);
  ASSERT_TRUE(factory);
  for (std::size_t bytes : sizes_of(c.op)) {
    const Args args = point(c.op, np, bytes, np - 1);
    const std::int64_t wrong = test::back_to_back_wrong(shmp(c.scheme), factory, args);
    EXPECT_EQ(wrong, 0) << "bytes=" << bytes;
  }
}

INSTANTIATE_TEST_SUITE_P(BothSchemes, ShmpFault, testing::ValuesIn(cases(op_moves_data)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(BothSchemes, ShmpBackToBack,
                         testing::ValuesIn(cases([](OpKind op) { return !passive_target(op); })),
                         case_name);

// The applications through measure_point: matmul at orders that leave participants without rows
// (n < np) and that split unevenly, em3d with local and remote edges; an injected fault found.
TEST(ShmpApps, MatmulAndEm3dExactOnBothSchemes) {
  Pinning pinning(BindPolicy::kNone);
  const int np = world_size();
  const AppParams em3d_local = {
      {"nodes", 40}, {"degree", 4}, {"remote", 0}, {"iters", 3}, {"split", 0}};
  const AppParams em3d_remote = {
      {"nodes", 37}, {"degree", 5}, {"remote", 50}, {"iters", 2}, {"split", 0}};
  for (const std::string scheme : {"staged", "direct"}) {
    std::vector<std::pair<Args, bool>> points;  // (point, with a fault)
    for (std::int64_t n : {2, 24}) {
      Args a = point(OpKind::kMatmul, np, 0);
      a.app = {{"n", n}};
      points.push_back({a, n == 24});
    }
    for (const AppParams& app : {em3d_local, em3d_remote}) {
      Args a = point(OpKind::kEm3d, np, 0);
      a.app = app;
      points.push_back({a, app == em3d_remote});
    }
    for (const auto& [args, fault] : points)
      for (bool with_fault : fault ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
        const PointResult r = measure_point(shmp(scheme), args, quick(with_fault), pinning);
        if (world_rank() != 0) continue;
        EXPECT_EQ(r.wrong, with_fault ? 1 : 0)
            << scheme << " " << op_name(args.op) << (with_fault ? " with fault" : "");
        EXPECT_EQ(r.args.app, args.app);
      }
  }
}

// A point whose windows would pass --shmp-window-max is one AgreedError on every rank, naming the
// option; the backend then runs the next point as if nothing had happened.
TEST(ShmpWindow, PastTheMaxIsAgreedByEveryRankAndTheNextPointRuns) {
  auto backends = shmp_backends({"--shmp-window-max=64K"});
  Backend& small = *backends.at("shmp-direct");
  Pinning pinning(BindPolicy::kNone);
  const Args big = point(OpKind::kBroadcast, world_size(), std::size_t{1} << 20);
  try {
    measure_point(small, big, quick(), pinning);
    ADD_FAILURE() << "a 1 MiB broadcast fitted 64 KiB of windows";
  } catch (const AgreedError& e) {
    EXPECT_NE(std::string(e.what()).find("more than --shmp-window-max=65536 bytes"),
              std::string::npos)
        << e.what();
  }
  const PointResult r =
      measure_point(small, point(OpKind::kBroadcast, world_size(), 64), quick(), pinning);
  if (world_rank() == 0) {
    EXPECT_EQ(r.wrong, 0);
  }
}

TEST(ShmpBackend, ProcessesOfOneNodeAndEveryWorldRank) {
  for (const std::string scheme : {"staged", "direct"}) {
    EXPECT_EQ(shmp(scheme).participants(), Participants::kProcesses);
    EXPECT_TRUE(shmp(scheme).node_local());
    EXPECT_EQ(shmp(scheme).max_participants(), world_size());
    EXPECT_EQ(shmp(scheme).context().at("window_max_bytes"), std::size_t{4} << 30);
  }
}

}  // namespace
}  // namespace comops
