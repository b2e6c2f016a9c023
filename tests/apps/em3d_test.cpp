// em3d (--app=em3d) on every backend through measure_point, as comops runs it: at np = the world's
// ranks, with no, some, half and only remote edges, blocking and split-phase reads on swcc; zero
// wrong elements (two calls back to back, each checked against the serial reference of its seed),
// the injected fault found, the parameters in the row, and the DSM counters: no message without
// remote edges, and with them far fewer messages cached than uncached.
#include <gtest/gtest.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "comops/mpi/backend.hpp"
#include "comops/shm/backend.hpp"
#include "comops/swcc/backend.hpp"
#include "harness/measure/measure.hpp"
#include "harness/ops/op_queries.hpp"
#include "tests/apps/every_backend.hpp"
#include "tests/mpi_world.hpp"

namespace comops {
namespace {

using test::app_quick;
using test::create;
using test::every_backend;
using test::world_rank;
using test::world_size;

AppParams params(std::int64_t nodes, std::int64_t degree, std::int64_t remote, std::int64_t iters,
                 std::int64_t split) {
  return {
      {"nodes", nodes}, {"degree", degree}, {"remote", remote}, {"iters", iters}, {"split", split}};
}

Args em3d(int np, AppParams app) {
  Args a;
  a.op = OpKind::kEm3d;
  a.np = np;
  a.app = std::move(app);
  return a;
}

TEST(AppsEm3d, ExactOnEveryBackendAndFaultFound) {
  Pinning pinning(BindPolicy::kNone);
  const int np = world_size();
  for (auto& be : every_backend())
    for (const AppParams& p : {params(40, 4, 0, 3, 0), params(40, 4, 10, 3, 0),
                               params(37, 5, 50, 2, 1), params(9, 3, 100, 2, 0)})
      for (bool fault : {false, true}) {
        const PointResult r = measure_point(*be, em3d(np, p), app_quick(fault), pinning);
        if (world_rank() != 0) continue;
        EXPECT_EQ(r.wrong, fault ? 1 : 0) << be->label() << " remote " << p[2].second << " np "
                                          << np << (fault ? " with fault" : "");
        EXPECT_EQ(r.args.app, p);
      }
}

// The counters of the timed calls (2 calls): without remote edges every access is the home's own
// memory; with them, caching in 64-byte blocks sends far fewer messages than uncached.
TEST(AppsEm3d, CountersWithAndWithoutRemoteEdges) {
  Pinning pinning(BindPolicy::kNone);
  const int np = world_size();
  std::int64_t cached = 0, sc = 0;
  for (auto& be : create(make_swcc_family(), {"--block-size=64", "--uncached"})) {
    const PointResult local =
        measure_point(*be, em3d(np, params(64, 4, 0, 2, 0)), app_quick(false), pinning);
    const PointResult remote =
        measure_point(*be, em3d(np, params(64, 8, 50, 2, 0)), app_quick(false), pinning);
    if (world_rank() != 0) continue;
    ASSERT_EQ(local.counters.size(), 8u);
    EXPECT_EQ(local.counters[2].first, "messages");
    EXPECT_EQ(local.counters[2].second, 0) << be->label();
    EXPECT_EQ(local.counters[1].second, 0) << be->label();  // misses
    EXPECT_EQ(remote.wrong, 0) << be->label();
    (be->label() == "swcc-sc" ? sc : cached) = remote.counters[2].second;
  }
  if (world_rank() != 0) return;
  // Uncached, each remote edge is a request and a reply: 64 x 8 / 2 remote edges per kind and
  // participant, 2 kinds, 2 iterations, 2 calls.
  EXPECT_EQ(sc, 2 * 256 * 2 * 2 * 2 * np);
  EXPECT_LT(cached * 2, sc);
}

}  // namespace
}  // namespace comops
